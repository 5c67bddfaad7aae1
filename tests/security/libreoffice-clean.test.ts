/**
 * Issue #16 item 2: the LibreOffice engine's PDF is cleaned before Folio hands it over. LibreOffice
 * itself needs a browser (tests/e2e/libreoffice.test.ts); its output is imitated here with the links
 * it was seen to write — javascript:, vbscript:, data:, file: targets, relative targets turned into
 * paths of its own file system (file:///tmp/in/…), a remote go-to and a launch of such a path — and
 * the cleaning step it goes through (cleanLibreOfficePdf) is run on it in Node.
 */
import { describe, expect, test } from 'vitest';
import { PDFArray, PDFDocument, PDFName, PDFString, StandardFonts, type PDFDict } from 'pdf-lib';
import { cleanLibreOfficePdf } from '../../workers/engine/lib/libreoffice/libreoffice-office.ts';
import { compactObjectNumbers } from '../../workers/engine/lib/pdf/pdf-util.ts';
import { expectOnlyAllowedActions, pdfActions } from '../support/pdf-actions.ts';

const UNSAFE_URIS = [
  'javascript:app.alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'file:///etc/passwd',
  'file:///tmp/in/other.docx',
  'other.docx',
  '../../secret.txt',
];
const SAFE_URIS = ['https://example.org/report', 'mailto:team@example.org'];

async function libreOfficeLikePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([400, 600]);
  page.drawText('Links', { x: 40, y: 560, size: 18, font });
  const { context } = doc;
  const actions: PDFDict[] = [
    ...[...UNSAFE_URIS, ...SAFE_URIS].map((uri) => context.obj({ Type: 'Action', S: 'URI', URI: PDFString.of(uri) })),
    context.obj({ Type: 'Action', S: 'GoToR', F: PDFString.of('file:///tmp/in/annex.pdf'), D: [0, 'Fit'] }),
    context.obj({
      Type: 'Action',
      S: 'Launch',
      F: context.obj({ Type: 'Filespec', F: PDFString.of('/tmp/in/run.sh') }),
    }),
  ];
  const annots = actions.map((action, i) =>
    context.register(
      context.obj({
        Type: 'Annot',
        Subtype: 'Link',
        Rect: [40, 520 - i * 30, 300, 540 - i * 30],
        Border: [0, 0, 0],
        A: action,
      }),
    ),
  );
  page.node.set(PDFName.of('Annots'), context.obj(annots));
  return doc.save({ useObjectStreams: false });
}

describe('LibreOffice output is cleaned', () => {
  test('only web and mail links remain, and no path of the engine survives', async () => {
    const input = await libreOfficeLikePdf();
    const before = pdfActions(input);
    expect(before.actions.map((a) => a.type).sort()).toEqual([
      'GoToR',
      'Launch',
      ...Array<string>(UNSAFE_URIS.length + SAFE_URIS.length).fill('URI'),
    ]);
    expect(new TextDecoder('latin1').decode(input)).toContain('/tmp/in/');

    const doc = await PDFDocument.load(input);
    const note = cleanLibreOfficePdf(doc);
    expect(note).toMatch(
      /^Removed links and actions the PDF must not carry: 1 Launch action, 7 links to scripts or local files, 1 action reaching outside the document\.$/,
    );
    // As runWithLibreOffice saves (savePdf: objects renumbered after the removals), without object
    // streams so that the bytes can be searched.
    await compactObjectNumbers(doc);
    const output = await doc.save({ useObjectStreams: false });

    const after = expectOnlyAllowedActions(output);
    expect(after.actions.map((a) => a.uri).sort()).toEqual([...SAFE_URIS].sort());
    const text = new TextDecoder('latin1').decode(output);
    expect(text).not.toContain('/tmp/');
    expect(text).not.toMatch(/javascript:|vbscript:|data:text|file:/);
    // The dead link areas are gone from the page, the two live ones stay.
    expect((await PDFDocument.load(output)).getPage(0).node.lookup(PDFName.of('Annots'), PDFArray).size()).toBe(
      SAFE_URIS.length,
    );
  });

  test('a clean PDF is left as it is, with no note', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    expect(cleanLibreOfficePdf(doc)).toBeUndefined();
  });
});
