/**
 * Word → PDF: ruby (w:ruby, East Asian phonetic guides): the guide (w:rt) drawn above its base text
 * (w:rubyBase) in its own size, spread as w:rubyAlign says, and the line made taller for it. Generated
 * documents ("Before line", then "Visit <ruby> city", then "After line"; guide 5.5 pt over 11 pt base
 * text), read back with `pdftotext -bbox`; the figures in the comments are LibreOffice 7.4's for the
 * same documents (`soffice --headless --convert-to pdf`).
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { Document, Packer, Paragraph } from 'docx';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerTextWith, popplerWords } from '../support/pdf.ts';

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

async function withRuby(base: string, guide: string, align = 'distributeSpace') {
  const ruby =
    `<w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="${align}"/><w:hps w:val="11"/><w:hpsRaise w:val="20"/>` +
    '<w:hpsBaseText w:val="22"/><w:lid w:val="ja-JP"/></w:rubyPr>' +
    `<w:rt><w:r><w:rPr><w:sz w:val="11"/></w:rPr><w:t>${guide}</w:t></w:r></w:rt>` +
    `<w:rubyBase><w:r><w:rPr><w:sz w:val="22"/></w:rPr><w:t>${base}</w:t></w:r></w:rubyBase></w:ruby></w:r>`;
  const middle = `<w:r><w:t xml:space="preserve">Visit </w:t></w:r>${ruby}<w:r><w:t xml:space="preserve"> city</w:t></w:r>`;
  const doc = new Document({
    sections: [{ children: [new Paragraph('Before line'), new Paragraph('MIDDLE'), new Paragraph('After line')] }],
  });
  const zip = await JSZip.loadAsync(await Packer.toBuffer(doc));
  const xml = await zip.file('word/document.xml')!.async('string');
  zip.file('word/document.xml', xml.replace(/<w:r>(?:(?!<w:r>).)*?MIDDLE.*?<\/w:r>/s, middle));
  const result = await convert(wordToPdf, 'ruby.docx', await zip.generateAsync({ type: 'uint8array' }));
  const boxes = new Map<string, Box>(
    popplerWords(result.bytes).map((w) => [w.text, { left: w.xMin, top: w.yMin, right: w.xMax, bottom: w.yMax }]),
  );
  return { boxes, notes: result.notes ?? [], layout: popplerTextWith(result.bytes, ['-layout']) };
}

describe('Word ruby (phonetic guides)', () => {
  test('the guide is drawn above its base, spread over it, and the line grows to hold it', async () => {
    const { boxes, notes } = await withRuby('Tokyo', 'capital');
    const at = (word: string) => boxes.get(word)!;
    // Before: the guide was left out with a note.
    expect(notes.join(' ')).not.toMatch(/ruby|phonetic/);
    // LibreOffice 7.4: "capital" at x 95.1…121.7 over "Tokyo" at 94.1…122.8 (distributeSpace: spread
    // over the base with half a gap at each end), its box 83.5…90.6 just above the line's text.
    expect(at('capital').left).toBeCloseTo(95.0, 0);
    expect(at('capital').right).toBeCloseTo(121.7, 0);
    expect(at('capital').bottom).toBeLessThanOrEqual(at('Visit').top);
    expect(at('capital').top).toBeGreaterThan(at('Before').bottom - 1);
    // LibreOffice 7.4: the line's text 18.8 pt below the line above (11.5 without the guide); then 11.7 to the next.
    // Folio: 20.2 and 11.9 (Before's line 11.5, the guide's 7.2, the rest from the fonts).
    const raised = at('Visit').top - at('Before').top;
    expect(raised).toBeGreaterThan(18);
    expect(raised).toBeLessThan(21);
    expect(at('After').top - at('Visit').top).toBeCloseTo(11.9, 0);
  });

  test('a Japanese guide wider than its base is centred on it, and read before the base', async () => {
    const { boxes, layout } = await withRuby('東京', 'とうきょう');
    const guide = boxes.get('とうきょう')!;
    const base = boxes.get('東京')!;
    // Five kana at 5.5 pt (27.5 pt) over two ideographs at 11 pt (22 pt): centred, as LibreOffice
    // centres a guide it cannot spread.
    expect((guide.left + guide.right) / 2).toBeCloseTo((base.left + base.right) / 2, 0);
    expect(guide.right - guide.left).toBeCloseTo(27.5, 0);
    expect(guide.top).toBeLessThan(base.top);
    // `pdftotext -layout` reads the guide's line, then the base's, as it reads LibreOffice's PDF.
    expect(layout.indexOf('とうきょう')).toBeGreaterThan(-1);
    expect(layout.indexOf('とうきょう')).toBeLessThan(layout.indexOf('東京'));
  });

  test('a centred guide narrower than its base sits over its middle', async () => {
    const { boxes } = await withRuby('Tokyo', 'cap', 'center');
    const [guide, base] = [boxes.get('cap')!, boxes.get('Tokyo')!];
    expect((guide.left + guide.right) / 2).toBeCloseTo((base.left + base.right) / 2, 0);
  });
});
