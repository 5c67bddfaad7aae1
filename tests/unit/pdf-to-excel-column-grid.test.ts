import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { sheetGrid } from '../support/office-fixtures.ts';
import { run } from '../../workers/engine/tools/pdf-to-excel.ts';

type Value = string | number | null | { error: string };

/**
 * Rows printed as LibreOffice prints a sheet: each cell its own string, texts 1.4 pt inside their
 * column's left edge, numbers and error values (#N/A) `numberInset` inside its right edge, rows
 * `pitch` apart from y = `top`.
 */
async function printed(
  rows: Value[][],
  edge: (column: number) => number,
  { size = 10, pitch = 15, numberInset = 1.4, top = 700, landscape = false } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(landscape ? [792, 612] : [612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  rows.forEach((row, r) =>
    row.forEach((value, c) => {
      if (value === null) return;
      const text = String(value);
      const right = typeof value === 'number' || text.startsWith('#');
      const x = right ? edge(c + 1) - numberInset - font.widthOfTextAtSize(text, size) : edge(c) + 1.4;
      page.drawText(text, { x, y: top - r * pitch, size, font });
    }),
  );
  return doc.save();
}

async function grids(bytes: Uint8Array, sheets: 'page' | 'table'): Promise<Value[][][]> {
  const out = await run([{ name: 'x.pdf', bytes }], { sheets }, {});
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(
    out.bytes.buffer.slice(out.bytes.byteOffset, out.bytes.byteOffset + out.bytes.byteLength) as ArrayBuffer,
  );
  return book.worksheets.map((sheet) =>
    Array.from(sheetGrid(sheet), (row) => Array.from(row ?? [], (v) => (v ?? null) as Value)),
  );
}

/** Rows as the sheet holds them: trailing empty cells dropped, as a workbook stores no empty cell. */
const trimmed = (rows: Value[][]) => rows.map((row) => row.slice(0, row.findLastIndex((v) => v !== null) + 1));

describe('pdf-to-excel column grid', () => {
  test('a right-aligned number against the next column’s text stays in its column (both modes)', async () => {
    // A sheet as LibreOffice prints it at 11 pt: B's right-aligned numbers end 2.1 pt before C's
    // left-aligned texts start, each its own string, which pdf.js reads as one ("9 49:$80,945.96").
    // The number's cell ends where its last glyph ends, so it is known to end at B's right edge.
    const edges = [50.4, 113.6, 170.3, 367];
    // Blocks of a header and one row, apart: lines, not a table.
    const rows: Value[][] = [100, 200, 300, 400, 500].flatMap((iteration, i) => [
      ['Iteration', 'Entry', 'toString'],
      [iteration, [9, 8, 8, 80, 50][i], `${49 + i}:$80,945.96:-$4,912.90`],
      [],
      [],
    ]);
    const bytes = await printed(rows, (c) => edges[c], { size: 11, numberInset: 0.7 });
    for (const mode of ['page', 'table'] as const) expect((await grids(bytes, mode))[0]).toEqual(rows.slice(0, -2));
  });

  test('default-width columns after a wider first column: empty columns come back (both modes)', async () => {
    // Column A 70.8 pt wide (row labels), B to J Excel's default 48.2 pt, as a sheet of matrices
    // prints: A's labels, B's and E's numbers, H to J results; C, D, F and G are empty. No edge of
    // A's right side is printed, so only the grid of the other columns shows the empty ones.
    const edge = (c: number) => (c === 0 ? 50.4 : 121.2 + (c - 1) * 48.2);
    const rows: Value[][] = [
      ['+', 1, null, null, 1, null, null, 2, 0, 0],
      [null, null, null, null, null, null, null, 0, 0, 0],
      [null, null, null, null, null, null, null, 0, 0, 0],
      [null],
      ['TRANSPOSE', 1, null, null, 1, null, null, 1, 0, 0],
      [null, null, null, null, null, null, null, 0, 0, 0],
      [null],
      ['MINVERSE', 1, null, null, 3, null, null, 4, 5, 6],
      [null, null, null, null, null, null, null, 7, 8, 9],
      [null],
      ['MMULT', 1, null, null, 1, null, null, 1, 2, 3],
    ];
    const bytes = await printed(rows, edge, { pitch: 12.8 });
    const expected = trimmed(rows);
    expect((await grids(bytes, 'page'))[0]).toEqual(expected);
  });

  test('a wider first column before wider columns: no grid of half their width, no empty column', async () => {
    // A pivot table as LibreOffice prints it: cities, then three columns 84–95 pt wide of headers
    // and right-aligned numbers. Their edges but the first fit a grid of about 44 pt, with no two
    // of them one such width apart: that is no sheet of default-width columns.
    const edges = [98.1, 192.5, 276.4, 368.3, 463];
    const rows: Value[][] = [
      ['City', 'Sum of Latitude', 'Sum of Longitude', 'Sum of Population'],
      ['Beijing, China', 39.93, 116.4, 21516000],
      ['Delhi, India', 28.67, 77.21, 16788000],
      ['Guangzhou, China', 23.12, 113.3, 12081000],
      ['Istanbul, Turkey', 41.1, 29, 14657000],
      ['Karachi, Pakistan', 24.86, 67.01, 23500000],
    ];
    const bytes = await printed(rows, (c) => edges[c]);
    for (const mode of ['page', 'table'] as const) expect((await grids(bytes, mode))[0]).toEqual(rows);
  });

  test('a short block: columns with too few numbers to show an edge go on the grid where their numbers end', async () => {
    // The same columns, one block of three rows: B's and E's numbers are printed once each, too
    // few for an aligned edge of their own, but they end on the grid the results' columns show.
    const edge = (c: number) => (c === 0 ? 50.4 : 121.2 + (c - 1) * 48.2);
    const rows: Value[][] = [
      ['+', 1, null, null, 1, null, null, 2, 0, 0],
      [null, null, null, null, null, null, null, 0, 0, 0],
      [null, null, null, null, null, null, null, 0, 0, 0],
    ];
    const bytes = await printed(rows, edge, { pitch: 12.8 });
    const expected = trimmed(rows);
    for (const mode of ['page', 'table'] as const) expect((await grids(bytes, mode))[0]).toEqual(expected);
  });

  test('error values (#VALUE!) show no column’s left edge: their columns stay on the grid', async () => {
    // A landscape sheet of matrices: A 70.8 pt wide, B to M Excel's default 48.2 pt; labels, B's
    // and E's numbers, results in H to J that are all errors, expected values in K to M. LibreOffice
    // prints "#VALUE!" at its column's right edge, one width in every row, so its start looked
    // like a left edge off the grid of the other columns.
    const edge = (c: number) => (c === 0 ? 50.4 : 121.2 + (c - 1) * 48.2);
    const errors = ['#VALUE!', '#VALUE!', '#VALUE!'];
    const rows: Value[][] = ['MINVERSE', 'MMULT', 'MDETERM', 'TRANSPOSE'].map((label, r) => [
      label,
      r + 1,
      null,
      null,
      r + 2,
      null,
      null,
      ...errors,
      r,
      r + 1,
      r + 2,
    ]);
    const bytes = await printed(rows, edge, { pitch: 12.8, top: 500, landscape: true });
    const expected = rows.map((row) => row.map((v) => (typeof v === 'string' && v.startsWith('#') ? { error: v } : v)));
    for (const mode of ['page', 'table'] as const) expect((await grids(bytes, mode))[0]).toEqual(expected);
  });

  test('a column of error values ends on the grid: the empty columns before it come back', async () => {
    // A block of matrices whose last column is all "#N/A", printed at its column's right edge as a
    // number is: that edge, one width after the numbers' last, shows the grid that C and F fill.
    const edge = (c: number) => (c === 0 ? 50.4 : 121.2 + (c - 1) * 48.2);
    const rows: Value[][] = [
      ['+', 1, 2, null, 1, 2, null, 2, 4, '#N/A'],
      [null, null, null, null, null, null, null, 2, 4, '#N/A'],
      [null, null, null, null, null, null, null, 2, 4, '#N/A'],
    ];
    const sheets = await grids(await printed(rows, edge), 'table');
    expect(sheets[0]).toEqual(rows.map((row) => row.map((v) => (v === '#N/A' ? { error: v } : v))));
  });

  test('one column’s right edge and the next one’s left edge are one edge, not two grid lines', async () => {
    // Key's numbers end 2 pt before Value's texts start: the same column boundary seen from both
    // sides. With the end of the dates (a date and time overflowing its column) they are two
    // edges, too few to show a grid of columns: the date stays in C.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const rows: Value[][] = [['Key', 'Value', 'Date']];
    page.drawText('Key', { x: 51.4, y: 700, size: 11, font });
    page.drawText('Value', { x: 99.5, y: 700, size: 11, font });
    page.drawText('Date', { x: 147.7, y: 700, size: 11, font });
    ['A', 'B', 'C'].forEach((letter, i) => {
      const y = 700 - (i + 1) * 15;
      page.drawText(String(i + 1), { x: 97.5 - font.widthOfTextAtSize(String(i + 1), 11), y, size: 11, font });
      page.drawText(letter, { x: 99.5, y, size: 11, font });
      page.drawText('2012-08-08T22:59', { x: 152.9, y, size: 11, font });
      rows.push([i + 1, letter, '2012-08-08T22:59']);
    });
    const grid = (await grids(await doc.save(), 'page'))[0];
    expect(grid.map((row) => row.length)).toEqual([3, 3, 3, 3]);
    expect(grid.map((row) => row.slice(0, 2))).toEqual(rows.map((row) => row.slice(0, 2)));
  });
});
