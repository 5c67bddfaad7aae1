import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { degrees, PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { sheetGrid } from '../support/office-fixtures.ts';
import { run } from '../../workers/engine/tools/pdf-to-excel.ts';

async function gridOf(pdf: Uint8Array, sheets: 'page' | 'table'): Promise<unknown[][]> {
  const bytes = (await run([{ name: 'x.pdf', bytes: pdf }], { sheets }, {})).bytes;
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  // Array.from: an empty row is a hole in sheetGrid's rows.
  return Array.from(sheetGrid(book.worksheets[0]), (row) => {
    const cells = [...(row ?? [])].map((v) => v ?? null);
    while (cells.length && cells.at(-1) === null) cells.pop();
    return cells;
  });
}

describe('pdf-to-excel rows and columns', () => {
  test('empty rows under a tall header of turned headings come back where the gaps share one default row', async () => {
    // A form as LibreOffice prints it: a header row 60 pt tall whose narrow columns' headings are
    // turned 90° (standing on their anchor 1 pt above the row's bottom, 2 pt below the upright
    // headings' baseline), then values 6, 9, 11 and 12 rows lower: default rows of 10 pt text
    // (12.8 pt) except the last, set 13.6 pt tall — the only gap of one row is not the default row.
    // Rules part some of the rows, as the form's borders do.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const edges = [50, 80, 110, 140, 200, 260];
    const heights = [60, ...Array<number>(11).fill(12.8), 13.6];
    const bottoms: number[] = [];
    heights.reduce((y, h) => (bottoms.push(y - h), y - h), 740);
    const rows: Array<Array<string | number | null>> = [
      ['Heading', 'Heading', 'Heading', 'Heading', 'Heading'],
      ...Array.from({ length: 5 }, () => []),
      [null, null, null, 'B1'],
      [],
      [],
      [null, null, 0],
      [],
      [null, null, null, 'A1'],
      [null, null, 0],
    ];
    rows.forEach((row, r) =>
      row.forEach((value, c) => {
        if (value === null) return;
        const text = String(value);
        if (r === 0 && c < 3) {
          page.drawText(text, { x: edges[c + 1] - 3, y: bottoms[0] + 1, size: 10, font, rotate: degrees(90) });
        } else {
          const x = typeof value === 'number' ? edges[c + 1] - 1.4 - font.widthOfTextAtSize(text, 10) : edges[c] + 1.4;
          page.drawText(text, { x, y: bottoms[r] + 3, size: 10, font });
        }
      }),
    );
    const line = (x1: number, y1: number, x2: number, y2: number) =>
      page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: 0.5, color: rgb(0, 0, 0) });
    for (const y of [740, bottoms[0], bottoms[8], bottoms[9], bottoms[11], bottoms[12]]) line(50, y, 260, y);
    for (const x of edges) line(x, 740, x, bottoms[12]);
    const pdf = await doc.save();
    for (const sheets of ['page', 'table'] as const) expect(await gridOf(pdf, sheets), sheets).toEqual(rows);
  });

  test('texts overflowing into empty cells keep the columns that other lines start (both modes)', async () => {
    // A printed sheet: texts 1.4 pt inside their column's left edge, numbers 1.4 pt inside E's
    // right edge. Column A is 30 pt wide; its longer texts run on over the empty cells of B, C and
    // D, where other rows start theirs: those columns are still there.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const edges = [50, 80, 140, 200, 260, 320];
    const rows: Array<Array<string | number | null>> = [
      [null, 'Worker', 'Revenue', 'RRSP', 'Amount'],
      [null, 'Employee', 'North', 'Yes', 100],
      ['Description', null, null, null, 'Penalty'],
      ['Filed income taxes', null, null, null, 150],
      ['Bought non-registered investment', null, null, null, 9200],
      [null, 'Manager', 'South', 'No', 200],
    ];
    rows.forEach((row, r) =>
      row.forEach((value, c) => {
        if (value === null) return;
        const text = String(value);
        const x = typeof value === 'number' ? edges[c + 1] - 1.4 - font.widthOfTextAtSize(text, 10) : edges[c] + 1.4;
        page.drawText(text, { x, y: 700 - r * 12.8, size: 10, font });
      }),
    );
    const pdf = await doc.save();
    for (const sheets of ['page', 'table'] as const) expect(await gridOf(pdf, sheets), sheets).toEqual(rows);
  });
});
