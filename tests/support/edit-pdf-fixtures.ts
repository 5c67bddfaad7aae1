/**
 * Fixtures and readers for the Edit PDF tests: PDFs generated in code with known text positions,
 * and helpers that read the result back the way a viewer would (pdf.js text with positions in view
 * space) and the way a forensic reader would (every stream decompressed by qpdf).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PDFDocument, StandardFonts, degrees, rgb } from 'pdf-lib';
import { fontkit } from '../../workers/engine/lib/fontkit.ts';
import { createCanvas } from '@napi-rs/canvas';
import { runQpdf } from '../../workers/engine/lib/pdf/qpdf.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';

export const LINE = 'Keep this SECRET and this';
export const LINE_X = 50;
export const LINE_BASELINE = 700;
export const LINE_SIZE = 14;

/** A solid-colour image made with @napi-rs/canvas, as PNG or JPEG bytes. */
export function solidImage(mime: 'image/png' | 'image/jpeg', color = '#ff0000', width = 8, height = 8): Uint8Array {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = color;
  context.fillRect(0, 0, width, height);
  return new Uint8Array(mime === 'image/png' ? canvas.toBuffer('image/png') : canvas.toBuffer('image/jpeg'));
}

export const RED_PNG = solidImage('image/png');

export interface Fixture {
  bytes: Uint8Array;
  /** Width of "Keep this " and of "SECRET" in the fixture's font at LINE_SIZE. */
  prefixWidth: number;
  secretWidth: number;
  lineWidth: number;
}

/**
 * Page 1 (Letter): LINE at (50, 700) in Helvetica, "Public line" under it, a PNG image at
 * (300, 400) 100×100, and "Привет TOPSECRET мир" in an embedded (Type0, 2-byte) Noto Sans subset.
 * Page 2: rotated 90°, "Rotated page".
 */
export async function editFixture(): Promise<Fixture> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const helvetica = await doc.embedFont(StandardFonts.Helvetica);
  const noto = await doc.embedFont(
    readFileSync(
      createRequire(import.meta.url).resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
    ),
    { subset: true },
  );
  const page = doc.addPage([612, 792]);
  page.drawText(LINE, { x: LINE_X, y: LINE_BASELINE, size: LINE_SIZE, font: helvetica });
  page.drawText('Public line', { x: LINE_X, y: 650, size: LINE_SIZE, font: helvetica });
  page.drawText('Привет TOPSECRET мир', { x: LINE_X, y: 600, size: LINE_SIZE, font: noto });
  const png = await doc.embedPng(RED_PNG);
  page.drawImage(png, { x: 300, y: 400, width: 100, height: 100 });
  page.drawRectangle({ x: 40, y: 100, width: 20, height: 20, color: rgb(0, 0, 1) });
  const rotated = doc.addPage([612, 792]);
  rotated.drawText('Rotated page', { x: 72, y: 720, size: 18, font: helvetica });
  rotated.setRotation(degrees(90));
  // Per character: pdf-lib's widthOfTextAtSize applies kerning, which drawText does not.
  const width = (text: string) => [...text].reduce((sum, ch) => sum + helvetica.widthOfTextAtSize(ch, LINE_SIZE), 0);
  return {
    bytes: await doc.save(),
    prefixWidth: width('Keep this '),
    secretWidth: width('SECRET'),
    lineWidth: width(LINE),
  };
}

export interface PlacedText {
  str: string;
  /** Start of the baseline in view space (y down), like the editor's coordinates. */
  x: number;
  y: number;
  width: number;
  fontSize: number;
}

/** Text items of one page with their positions in view points (pdf.js viewport at scale 1). */
export async function placedText(bytes: Uint8Array, pageNumber: number): Promise<PlacedText[]> {
  const doc = await openPdfjs(bytes);
  try {
    const page = await doc.getPage(pageNumber);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const items: PlacedText[] = [];
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const [x, y] = viewport.convertToViewportPoint(item.transform[4], item.transform[5]);
      items.push({
        str: item.str,
        x,
        y,
        width: item.width,
        fontSize: Math.hypot(item.transform[2], item.transform[3]),
      });
    }
    return items;
  } finally {
    await doc.destroy();
  }
}

export async function allText(bytes: Uint8Array): Promise<string> {
  const doc = await openPdfjs(bytes);
  try {
    let text = '';
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      text += content.items.map((i) => ('str' in i ? i.str : '')).join('') + '\n';
    }
    return text;
  } finally {
    await doc.destroy();
  }
}

/** The whole file with every stream decompressed (qpdf --qdf), as latin1 text. */
export async function decompressed(bytes: Uint8Array): Promise<string> {
  const result = await runQpdf(
    ['--qdf', '--object-streams=disable', '--stream-data=uncompress', '/in.pdf', '/out.pdf'],
    { inputs: { '/in.pdf': bytes }, outputs: ['/out.pdf'] },
  );
  const out = result.files['/out.pdf'];
  if (!out) throw new Error(`qpdf --qdf failed: ${result.stderr}`);
  return Buffer.from(out).toString('latin1');
}

/** True when `word` appears in the raw content as a literal or hex string (either case). */
export function rawContains(raw: string, word: string): boolean {
  const hex = Buffer.from(word, 'latin1').toString('hex');
  return raw.includes(word) || raw.toLowerCase().includes(hex);
}
