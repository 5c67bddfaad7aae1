/**
 * Hyphens at line ends in PDF → Word: a word the layout broke ("infor-" + "mation") is joined, a
 * hyphenated word broken at its hyphen ("e-" + "mail", "Jean-" + "Pierre", one printed whole
 * elsewhere in the document) keeps it, a soft hyphen (U+00AD) always joins and a real hyphen
 * (U+2010) always stays. PDFs generated with pdf-lib; the soft hyphen is a visible "-" glyph
 * whose ToUnicode entry says U+00AD, as Tagged PDF writers mark layout hyphens.
 */
import { describe, expect, test } from 'vitest';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, decodePDFRawStream } from 'pdf-lib';
import { fontkit } from '../../workers/engine/lib/fontkit.ts';
import { lineJoint, vocabularyOf } from '../../workers/engine/lib/pdf/line-hyphens.ts';
import { run as pdfToWord } from '../../workers/engine/tools/pdf-to-word.ts';
import { readDocx } from '../support/office-fixtures.ts';

const require = createRequire(import.meta.url);
const notoBytes = () =>
  readFileSync(require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'));

/** Two-line paragraphs: [first line, second line, the paragraph as it must read]. */
const CASES: Array<[string, string, string]> = [
  ['The infor-', 'mation was late.', 'The information was late.'],
  ['Send an e-', 'mail to them.', 'Send an e-mail to them.'],
  ['A PDF-', 'based form.', 'A PDF-based form.'],
  ['Dear Jean-', 'Pierre and all.', 'Dear Jean-Pierre and all.'],
  ['Up 3-', 'year rates.', 'Up 3-year rates.'],
  // Printed whole in the last paragraph: the document is the dictionary.
  ['A well-', 'known rule.', 'A well-known rule.'],
  ['THE INFOR-', 'MATION DESK.', 'THE INFORMATION DESK.'],
  ['A long\u2010', 'term plan.', 'A long\u2010term plan.'],
];
const EVIDENCE = 'It is a well-known fact at the INFORMATION desk.';

/** The saved PDF with the ToUnicode of the font that draws only "-" mapping it to U+00AD. */
async function markSoftHyphen(bytes: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  const candidates: Array<{ font: PDFDict; cmap: string }> = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of('Type')) !== PDFName.of('Font')) continue;
    const ref = object.get(PDFName.of('ToUnicode'));
    const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : undefined;
    if (!(stream instanceof PDFRawStream)) continue;
    candidates.push({ font: object, cmap: new TextDecoder().decode(decodePDFRawStream(stream).decode()) });
  }
  const soft = candidates.filter((c) => /<002D>/i.test(c.cmap)).sort((a, b) => a.cmap.length - b.cmap.length)[0];
  expect(soft, 'the font that draws the soft hyphen').toBeDefined();
  const cmap = soft.cmap.replace(/<002D>/gi, '<00AD>');
  soft.font.set(PDFName.of('ToUnicode'), doc.context.register(doc.context.flateStream(cmap)));
  return doc.save();
}

async function hyphenatedPage(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const noto = await doc.embedFont(notoBytes(), { subset: true });
  // A second copy of the font draws nothing but the soft hyphen, so that its ToUnicode can say so.
  const softFont = await doc.embedFont(notoBytes(), { subset: true });
  const page = doc.addPage([420, 600]);
  let y = 560;
  const paragraph = (first: string, second: string, softHyphen = false) => {
    page.drawText(first, { x: 40, y, size: 11, font: noto });
    if (softHyphen) page.drawText('-', { x: 40 + noto.widthOfTextAtSize(first, 11), y, size: 11, font: softFont });
    page.drawText(second, { x: 40, y: y - 14, size: 11, font: noto });
    y -= 46;
  };
  for (const [first, second] of CASES) paragraph(first, second);
  paragraph('Soft hyphen', 'ation is one word.', true);
  page.drawText(EVIDENCE, { x: 40, y, size: 11, font: noto });
  return markSoftHyphen(await doc.save());
}

describe('hyphens at line ends', () => {
  test('PDF to Word joins broken words and keeps hyphenated ones', async () => {
    const out = await pdfToWord([{ name: 'hyphens.pdf', bytes: await hyphenatedPage() }], {}, {});
    const paragraphs = (await readDocx(out.bytes)).paragraphs.map((p) => p.text.trim()).filter(Boolean);
    for (const [, , expected] of CASES) expect(paragraphs).toContain(expected);
    expect(paragraphs).toContain('Soft hyphenation is one word.');
    expect(paragraphs.join(' ')).not.toContain('\u00AD');
  });

  test('the rule without a document vocabulary, and with one', () => {
    expect(lineJoint('exam-', 'ple')).toBe('join');
    expect(lineJoint('exam- ', 'ple')).toBe('join');
    expect(lineJoint('x-', 'ray')).toBe('keep-hyphen');
    expect(lineJoint('über\u00AD', 'Straße')).toBe('join');
    expect(lineJoint('non\u2011', 'linear')).toBe('keep-hyphen');
    expect(lineJoint('the end', 'of it')).toBe('space');
    expect(lineJoint('a dash -', 'then')).toBe('space');
    expect(lineJoint('Jean-', 'Pierre')).toBe('keep-hyphen');
    const vocabulary = vocabularyOf(['an object-oriented language', 'ONE WORD HERE', 'a broken exam-']);
    expect(lineJoint('object-', 'oriented', vocabulary)).toBe('keep-hyphen');
    expect(lineJoint('WO-', 'RD', vocabulary)).toBe('join');
    // A line-end fragment is not evidence of a word.
    expect(vocabulary.words.has('exam')).toBe(false);
  });
});
