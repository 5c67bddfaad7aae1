/**
 * Scans for the OCR tests (unit, e2e, bench). A German "scan" for the language tests: lines with
 * umlauts and ß drawn with an embedded Noto Sans (which has those glyphs), rendered to a 200 dpi
 * picture and placed as the only content of a PDF — no text layer, so Folio sees a scanned page.
 * And a scan of several pages, each telling itself apart by its own sentence.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fontkit } from '../../workers/engine/lib/fontkit.ts';
import { scanOf, wrap } from './office-fixtures.ts';

/** The words the tests look for: each has an umlaut or ß that English recognition tends to miss. */
export const GERMAN_WORDS = ['Größe', 'Übung', 'Straße', 'Grüße', 'Bäume', 'Vögel', 'schön'];

export const GERMAN_LINES = [
  'Größe Übung Straße',
  'Die Größe der Übung hängt von der Straße ab.',
  'Über den Bäumen fliegen Vögel, später öffnen wir die Tür.',
  'Schöne Grüße aus München, Köln und Düsseldorf.',
  'Das Wetter ist heute schön und die Bäume blühen.',
];

export async function buildGermanScan(dpi = 200): Promise<{ bytes: Uint8Array; text: string }> {
  const require = createRequire(import.meta.url);
  const fontBytes = readFileSync(require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'));
  const source = await PDFDocument.create();
  source.registerFontkit(fontkit);
  const font = await source.embedFont(fontBytes, { subset: true });
  const page = source.addPage([612, 792]);
  let y = 720;
  for (const line of GERMAN_LINES) {
    page.drawText(line, { x: 72, y, size: 14, font });
    y -= 24;
  }
  return { bytes: await scanOf(source, dpi), text: GERMAN_LINES.join(' ') };
}

/** Sentences for the pages of buildScannedPages: page n gets sentence n (cycling) under a "Page n" heading. */
const PAGE_SENTENCES = [
  'Harbour cranes unload timber while gulls circle above the grey water of the northern bay.',
  'The orchestra tuned their violins before the conductor raised his baton for the overture.',
  'Seven engineers measured the bridge cables and wrote their readings into a small notebook.',
  'Fresh bread and cheese were sold at the market square every Saturday morning in summer.',
  'A lighthouse keeper climbed the spiral staircase to polish the great lens before sunset.',
  'Students copied equations from the blackboard while rain drummed against the windows.',
];

/**
 * A scanned document of `pages` pages, each a picture (at `dpi`) of a heading and a sentence of
 * its own, with no text layer: for OCR over several pages (order, progress, the render pool).
 */
export async function buildScannedPages(pages: number, dpi = 200): Promise<{ bytes: Uint8Array; pageTexts: string[] }> {
  const { openPdfjs } = await import('../../workers/engine/lib/pdf/pdfjs.ts');
  const { renderPageCanvas, encodeCanvas } = await import('../../workers/engine/lib/pdf/page-raster.ts');
  const source = await PDFDocument.create();
  const font = await source.embedFont(StandardFonts.TimesRoman);
  const pageTexts: string[] = [];
  for (let n = 1; n <= pages; n++) {
    const page = source.addPage([612, 792]);
    const lines = [`Page ${n}`, ...wrap(PAGE_SENTENCES[(n - 1) % PAGE_SENTENCES.length], font, 14, 468)];
    lines.forEach((line, i) => page.drawText(line, { x: 72, y: 700 - i * 22, size: 14, font }));
    pageTexts.push(lines.join(' '));
  }
  const pdf = await openPdfjs(await source.save());
  const scan = await PDFDocument.create();
  for (let n = 1; n <= pages; n++) {
    const canvas = await renderPageCanvas(pdf, n, dpi);
    const image = await scan.embedPng(await encodeCanvas(canvas.canvas, 'png'));
    scan.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
  }
  await pdf.destroy();
  return { bytes: await scan.save(), pageTexts };
}
