/**
 * Fixtures for the page-tool tests, generated in code: PDFs whose every page says which file and
 * page it is ("A3"), so order, duplicates and deletions can be read back from the output's text.
 */
import { PDFDocument, PDFName, StandardFonts, degrees } from 'pdf-lib';
import { runQpdf } from '../../workers/engine/lib/pdf/qpdf.ts';
import { openPdfjs, pageText } from '../../workers/engine/lib/pdf/pdfjs.ts';

export async function labelledPdf(
  label: string,
  pageCount: number,
  { rotations = [] as number[] } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pageCount; i++) {
    const page = doc.addPage([300 + i, 400]);
    page.drawText(`${label}${i}`, { x: 40, y: 300, size: 36, font });
    if (rotations[i - 1]) page.setRotation(degrees(rotations[i - 1]));
  }
  return doc.save();
}

/** The label of every page of a PDF, in order, e.g. ['A1', 'B2']. */
export async function pageLabels(bytes: Uint8Array, password?: string): Promise<string[]> {
  const doc = await openPdfjs(bytes, { password });
  const labels: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) labels.push((await pageText(doc, n)).trim());
  await doc.destroy();
  return labels;
}

/** Each page's /Rotate as pdf.js reads it. */
export async function pageRotations(bytes: Uint8Array): Promise<number[]> {
  const doc = await openPdfjs(bytes);
  const rotations: number[] = [];
  for (let n = 1; n <= doc.numPages; n++) rotations.push((await doc.getPage(n)).rotate);
  await doc.destroy();
  return rotations;
}

/** AES-256 encrypts with qpdf. */
export async function encrypt(bytes: Uint8Array, user: string, owner = `${user}-owner`): Promise<Uint8Array> {
  const result = await runQpdf(['--encrypt', user, owner, '256', '--', '/in.pdf', '/out.pdf'], {
    inputs: { '/in.pdf': bytes },
    outputs: ['/out.pdf'],
  });
  const out = result.files['/out.pdf'];
  if (!out) throw new Error(`qpdf --encrypt failed: ${result.stderr}`);
  return out;
}

/**
 * Three labelled pages (A1–A3); page 3 also shows a grey picture of about `pictureBytes`, stored
 * uncompressed: most of the file, in the middle of it.
 */
export async function pdfWithBigPicture(pictureBytes = 12_000_000): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await labelledPdf('A', 3));
  const side = Math.ceil(Math.sqrt(pictureBytes));
  const pixels = new Uint8Array(side * side);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  const picture = doc.context.register(
    doc.context.stream(pixels, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: side,
      Height: side,
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 8,
    }),
  );
  const page = doc.getPage(2);
  page.node.setXObject(PDFName.of('Big'), picture);
  const draw = doc.context.register(doc.context.stream('q 100 0 0 100 50 50 cm /Big Do Q'));
  page.node.addContentStream(draw);
  return doc.save({ useObjectStreams: false });
}
