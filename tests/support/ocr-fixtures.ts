/**
 * A German "scan" for the OCR language tests (unit and e2e): lines with umlauts and ß drawn with an
 * embedded Noto Sans (which has those glyphs), rendered to a 200 dpi picture and placed as the only
 * content of a PDF — no text layer, so Folio sees a scanned page.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PDFDocument } from 'pdf-lib';
import { fontkit } from '../../workers/engine/lib/fontkit.ts';
import { scanOf } from './office-fixtures.ts';

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
