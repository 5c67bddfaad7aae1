import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { parseCell } from '../../workers/engine/tools/pdf-to-excel.ts';
import { firstSheet } from '../support/pdf-to-excel-sheets.ts';

const require = createRequire(import.meta.url);
const fontBytes = (path: string) => readFileSync(require.resolve(`@expo-google-fonts/${path}`));

/** A printed cell: its text, and whether LibreOffice aligns it to its column's right edge. */
type Printed = string | { right: string };

/**
 * One column 100 pt wide from x = 50 (a column widened for its texts), printed as LibreOffice prints
 * it: 10 pt text, rows 12.8 pt apart, left-aligned texts 1.4 pt inside its left edge, right-aligned
 * ones (numbers, right-to-left texts) 1.4 pt inside its right edge; `fontOf` picks each text's font.
 */
async function wideColumn(cells: Printed[], fontOf?: (doc: PDFDocument, text: string) => Promise<PDFFont>) {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const page = doc.addPage([612, 792]);
  const helvetica = await doc.embedFont(StandardFonts.Helvetica);
  for (const [r, cell] of cells.entries()) {
    const text = typeof cell === 'string' ? cell : cell.right;
    const font = fontOf ? await fontOf(doc, text) : helvetica;
    const x = typeof cell === 'string' ? 51.4 : 150 - 1.4 - font.widthOfTextAtSize(text, 10);
    page.drawText(text, { x, y: 700 - r * 12.8, size: 10, font });
  }
  return doc.save();
}

describe('pdf-to-excel: one wide column of texts aligned to either edge', () => {
  test('a number right-aligned in a first column widened for its texts stays in that column', async () => {
    // 123 ends 2 default widths after the texts start, as a number in a second default-width
    // column would; but no row has two cells, and the long texts reach past its start.
    const pdf = await wideColumn(['text', { right: '123' }, 'cell with comment', 'Hebrew and Arabic']);
    for (const sheets of ['table', 'page'] as const)
      expect(await firstSheet(pdf, sheets)).toEqual([['text'], [123], ['cell with comment'], ['Hebrew and Arabic']]);
  });

  test('a number beside texts in other rows of a second column is still that column', async () => {
    // The same places, but a row holds a text and the number's column both: two columns.
    const pdf = await wideColumn(['text', { right: '123' }, 'cell with comment', 'Hebrew and Arabic']);
    const doc = await PDFDocument.load(pdf);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc
      .getPage(0)
      .drawText('45', { x: 150 - 1.4 - font.widthOfTextAtSize('45', 10), y: 700 - 4 * 12.8, size: 10, font });
    doc.getPage(0).drawText('label', { x: 51.4, y: 700 - 4 * 12.8, size: 10, font });
    const grid = await firstSheet(await doc.save(), 'page');
    expect(grid[1]).toEqual([null, 123]);
    expect(grid[4]).toEqual(['label', 45]);
  });

  test('Arabic and Hebrew texts and Arabic-Indic digits are right-aligned in their column', async () => {
    const arabic = fontBytes('noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf');
    const hebrew = fontBytes('noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf');
    const fontOf = (doc: PDFDocument, text: string) =>
      /[\u0590-\u05ff]/.test(text)
        ? doc.embedFont(hebrew)
        : /[\u0600-\u06ff]/.test(text)
          ? doc.embedFont(arabic)
          : doc.embedFont(StandardFonts.Helvetica);
    // fontkit draws a string of Arabic script right to left, digits too: "٣٢١" draws ١٢٣ as
    // LibreOffice does (digits left to right).
    const pdf = await wideColumn([{ right: 'שלום' }, { right: '٣٢١' }, 'text with comment'], fontOf);
    for (const sheets of ['table', 'page'] as const)
      expect(await firstSheet(pdf, sheets)).toEqual([['שלום'], [123], ['text with comment']]);
  });

  test('Arabic-Indic digits are numbers, printed with an Arabic locale number format', () => {
    expect(parseCell('١٢٣')).toEqual({ value: 123, numFmt: '[$-3000401]0' });
    expect(parseCell('١٬٢٣٤٫٥٠')).toEqual({ value: 1234.5, numFmt: '[$-3000401]#,##0.00' });
  });
});
