import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { sheetGrid } from '../support/office-fixtures.ts';
import { run } from '../../workers/engine/tools/pdf-to-excel.ts';

type Value = string | number | null;

/**
 * Sheets printed as LibreOffice prints them: 10 pt Helvetica, default rows 12.8 pt apart, texts
 * 1.4 pt inside their column's left edge, numbers 1.4 pt inside its right edge; one page per sheet.
 */
async function printedSheets(sheets: ReadonlyArray<ReadonlyArray<ReadonlyArray<Value>>>, edge: (c: number) => number) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const rows of sheets) {
    const page = doc.addPage([595, 842]);
    rows.forEach((row, r) =>
      row.forEach((value, c) => {
        if (value === null) return;
        const text = String(value);
        const x = typeof value === 'number' ? edge(c + 1) - 1.4 - font.widthOfTextAtSize(text, 10) : edge(c) + 1.4;
        page.drawText(text, { x, y: 780 - r * 12.8, size: 10, font });
      }),
    );
  }
  return doc.save();
}

async function grids(bytes: Uint8Array, sheets: 'page' | 'table'): Promise<Value[][][]> {
  const out = await run([{ name: 'x.pdf', bytes }], { sheets }, {});
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(out.bytes.buffer.slice(out.bytes.byteOffset, out.bytes.byteOffset + out.bytes.byteLength));
  return book.worksheets.map((sheet) =>
    // Array.from, not map: a sparse grid's holes are the sheet's empty rows.
    Array.from(sheetGrid(sheet), (row) =>
      Array.from({ length: row?.length ?? 0 }, (_, c) => (row![c] ?? null) as Value),
    ),
  );
}

describe('pdf-to-excel: empty columns no text edge shows', () => {
  test('on a grid of default-width columns every cell goes to its own column, even one text per column', async () => {
    // Columns 48 pt wide (Excel's default) from x = 50: sparse cells, one or two per column, that no
    // column's aligned texts show. "Hello!" starts where B's numbers end (B and C touch), and the
    // cells after the summary's first columns sit far right (F and G empty).
    const edge = (c: number) => 50 + c * 48;
    const first: Value[][] = [
      [11, null, 'Hello!', null, 'Sh1'],
      [],
      [66, 22, 3, 0, 3, null, null, 110, 27.5],
      [null, 11, null, null, null, null, null, null, 11],
      [null, 33, null, null, null, null, null, null, 44],
      [null, 3, null, null, null, null, null, null, 4],
    ];
    const second: Value[][] = [[22, 44, 'Middle!', null, 'Sh2']];
    const third: Value[][] = [[33, null, 'Bye!', null, 'Sh3']];
    const pdf = await printedSheets([first, second, third], edge);
    const trim = (rows: Value[][]) => rows.map((row) => row.slice(0, row.findLastIndex((v) => v !== null) + 1));
    for (const mode of ['page', 'table'] as const) {
      const sheets = (await grids(pdf, mode)).map(trim);
      expect(sheets.slice(0, 3), mode).toEqual([first, second, third].map(trim));
    }
  });
});
