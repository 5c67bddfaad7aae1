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

/**
 * A ruled table drawn as LibreOffice prints one whose borders frame narrow spacer columns with its
 * data columns (measured: texts 12.1 pt past the frame's line after a spacer 2 characters wide,
 * 11.1 pt; 1.0 pt in a frame without one). Frames: A|B, C|D|E, F|G, spacers A, C, E, F. With
 * `spacers` false the same texts sit in three padded frames (12.1 pt in), no spacer anywhere. The
 * header "Amount" is centred over C–D (a cell merged over them, not E), or over its whole frame.
 */
async function spacerTable({ spacers, indented }: { spacers: boolean; indented: boolean[] }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const spacer = 11.13;
  const xs = [50.37, 139.15, 228.0, 305.67];
  const rows = [
    ['Name', 'Amount', 'Note'],
    ['Apples', '120', 'fresh'],
    ['Pears', '7', 'ripe ones'],
    ['Plums', '45', 'old'],
    ['Figs', '1300', 'dried'],
  ];
  const top = 790;
  const line = (x1: number, y1: number, x2: number, y2: number) =>
    page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: 0.5 });
  for (let r = 0; r <= rows.length; r++) line(xs[0], top - r * 15, xs[3], top - r * 15);
  for (const x of xs) line(x, top, x, top - 15 * rows.length);
  rows.forEach((row, r) =>
    row.forEach((text, c) => {
      const width = font.widthOfTextAtSize(text, 10);
      const header = r === 0 && c === 1;
      const x = header
        ? (xs[1] + xs[2] - (spacers ? spacer : 0) - width) / 2
        : xs[c] + (indented[c] ? spacer + 1.0 : 1.0);
      page.drawText(text, { x, y: top - 15 * r - 11, size: 10, font });
    }),
  );
  return doc.save();
}

async function books(bytes: Uint8Array) {
  const out: ExcelJS.Workbook[] = [];
  for (const sheets of ['page', 'table'] as const) {
    const result = await run([{ name: 'x.pdf', bytes }], { sheets }, {});
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(result.bytes.slice().buffer);
    out.push(book);
  }
  return out;
}

async function grids(bytes: Uint8Array, sheets: 'page' | 'table'): Promise<Value[][][]> {
  const out = await run([{ name: 'x.pdf', bytes }], { sheets }, {});
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(out.bytes.slice().buffer);
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

  test('texts two default widths apart, or a date wider than its column, make no grid of empty columns', async () => {
    // Five headers in columns 100 pt wide fit a 50 pt grid as well: no two edges are one width
    // apart, so they stay side by side.
    const headers = await printedSheets(
      [[['Column 1', 'Column 2', 'Column 3', 'Column 4', 'Column 5']]],
      (c) => 54 + c * 100,
    );
    for (const mode of ['page', 'table'] as const)
      expect((await grids(headers, mode))[0], mode).toEqual([
        ['Column 1', 'Column 2', 'Column 3', 'Column 4', 'Column 5'],
      ]);
    // A key, a letter and a date-time printed wider than its 48 pt column, as LibreOffice printed
    // one (measured): keys end at 97.46, letters and headers start 1.4 pt inside B and C, the
    // date-times end at 234.99, on a 46 pt grid with the keys' and letters' edges, which no other
    // edge contradicts. A number that wide cannot be right-aligned in a default-width column.
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const rows: Value[][] = [
      ['Key', 'Value', 'Date'],
      [1, 'A', '2012-08-08T22:59'],
      [2, 'B', '2012-08-08T22:59'],
      [3, 'C', '2012-08-08T22:59'],
    ];
    rows.forEach((row, r) =>
      row.forEach((value, c) => {
        const text = String(value);
        const width = font.widthOfTextAtSize(text, 10);
        const x = typeof value === 'number' ? 97.46 - width : r && c === 2 ? 234.99 - width : 51.39 + c * 48.1;
        page.drawText(text, { x, y: 780 - r * 12.8, size: 10, font });
      }),
    );
    const sheet = (await grids(await doc.save(), 'page'))[0];
    expect(sheet.map((row) => row.length)).toEqual([3, 3, 3, 3]);
    expect(sheet.map((row) => row[1])).toEqual(['Value', 'A', 'B', 'C']);
  });

  test('a header centred over its column of lines stays in that column', async () => {
    // Printed rows 45 pt apart (tall rows of wrapped cells elsewhere: no table), headers centred in
    // columns 120 pt wide from x = 50, "Mail" 48 pt past the addresses' start, "Name" 46 pt past the
    // names'. Each header's own start would be a column of its own.
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const rows = [
      ['Name', 'Mail'],
      ['Stefan Abel', 'stefan.abel@example.org'],
      ['Salamu Abudu', 'salamu@example.org'],
    ];
    rows.forEach((row, r) =>
      row.forEach((text, c) => {
        const left = 50 + c * 120;
        const x = r === 0 ? left + (120 - font.widthOfTextAtSize(text, 10)) / 2 : left + 1.4;
        page.drawText(text, { x, y: 780 - r * 45, size: 10, font });
      }),
    );
    for (const mode of ['page', 'table'] as const) expect((await grids(await doc.save(), mode))[0], mode).toEqual(rows);
  });

  test("spacer columns inside a ruled table's frames come back where texts start past the frame's line", async () => {
    // Every frame's texts start one spacer past its line, and "Amount", centred over C–D, shows that
    // the middle frame ends with a spacer (E): the data columns are B, D and G.
    for (const book of await books(await spacerTable({ spacers: true, indented: [true, true, true] }))) {
      const sheet = book.worksheets[0];
      const at = (address: string) => sheet.getCell(address).value;
      expect([at('B1'), at('C1'), at('G1'), at('B2'), at('D2'), at('G2')]).toEqual([
        'Name',
        'Amount',
        'Note',
        'Apples',
        120,
        'fresh',
      ]);
      expect([at('B5'), at('D5'), at('G5')]).toEqual(['Figs', 1300, 'dried']);
      expect(sheet.getCell('D1').master.address).toBe('C1');
    }
  });

  test('a padded ruled table, or one indented column, gets no spacer columns', async () => {
    // Texts 12.1 pt inside every frame, but the header centred on its frame: cell padding.
    // Then only the first frame's texts past its line: an indent.
    for (const indented of [
      [true, true, true],
      [true, false, false],
    ])
      for (const book of await books(await spacerTable({ spacers: false, indented }))) {
        const sheet = book.worksheets[0];
        const at = (address: string) => sheet.getCell(address).value;
        expect([at('A1'), at('B1'), at('C1'), at('A5'), at('B5'), at('C5')]).toEqual([
          'Name',
          'Amount',
          'Note',
          'Figs',
          1300,
          'dried',
        ]);
      }
  });
});
