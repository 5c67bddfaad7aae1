import { describe, expect, test } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { atMostAsPrinted, bestOffsetMatchRate } from '../support/office-fixtures.ts';
import { parseCell } from '../../workers/engine/tools/pdf-to-excel.ts';
import { firstSheet } from '../support/pdf-to-excel-sheets.ts';

/** A printed cell: its text and which edge of its column LibreOffice aligns it to. */
type Printed = string | { right: string } | null;

/**
 * A sheet printed as LibreOffice prints it: 10 pt Helvetica, rows 12.8 pt apart from y = 700 (its default row), texts
 * 1.4 pt inside their column's left edge, right-aligned values (numbers, dates) 1.4 pt inside its
 * right edge, every cell drawn as its own string; `null` prints nothing.
 */
async function printedSheet(rows: ReadonlyArray<ReadonlyArray<Printed> | null>, edge: (c: number) => number) {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  rows.forEach((row, r) =>
    row?.forEach((cell, c) => {
      if (cell === null) return;
      const text = typeof cell === 'string' ? cell : cell.right;
      const x = typeof cell === 'string' ? edge(c) + 1.4 : edge(c + 1) - 1.4 - font.widthOfTextAtSize(text, 10);
      page.drawText(text, { x, y: 700 - r * 12.8, size: 10, font });
    }),
  );
  return doc.save();
}

describe('pdf-to-excel: cells too few to show their column', () => {
  test('lone numbers on a grid of default-width columns go to the column they end in (both modes)', async () => {
    // Columns 48.1 pt wide from x = 50 (LibreOffice's default at Calibri 11). A's labels overflow
    // B–C; D's 22 ends against E's "DS1"; H holds one number, I two, on rows H leaves empty: a number
    // over a column of numbers one column to its right is no heading of that column.
    const edge = (c: number) => 50 + c * 48.1;
    const n = (text: string) => ({ right: text });
    const rows: Printed[][] = [
      ['This row is local', null, null, n('22'), 'DS1', null, 'DS2', n('42')],
      ['This row is remote', null, null, null, 'Hello!', null, 'Test A1', null, n('142')],
      ['This row is also remote', null, null, null, 'Hello!', null, 'Test A1', null, n('142')],
    ];
    const expected = rows.map((row) =>
      row.map((cell) => (cell && typeof cell === 'object' ? Number(cell.right) : cell)),
    );
    for (const sheets of ['table', 'page'] as const)
      expect(await firstSheet(await printedSheet(rows, edge), sheets)).toEqual(expected);
  });

  test("a number against the next column's text in the first two columns stays a column of its own", async () => {
    // "5.10" right-aligned in A ends 2.8 pt before "Hello World" starts in B: no column starts
    // left of the number to hold it, so its own start is its column.
    const rows: Printed[][] = [
      [{ right: '5.10' }, 'Hello World'],
      [{ right: '5.10' }, 'Hello World'],
    ];
    for (const sheets of ['table', 'page'] as const)
      expect(await firstSheet(await printedSheet(rows, (c) => 50 + c * 48), sheets)).toEqual([
        [5.1, 'Hello World'],
        [5.1, 'Hello World'],
      ]);
  });

  test('a first column wider than the default keeps the numbers and dates that end at its edge', async () => {
    // Column A 60 pt wide (labels), B–F 48 pt: "1" and a right-aligned date end at A's right edge,
    // 57 pt after A's labels start, and start more than 12 pt after them.
    const edge = (c: number) => (c === 0 ? 50 : 110 + (c - 1) * 48);
    const n = (text: string) => ({ right: text });
    const rows: Array<Printed[] | null> = [
      ['This is sheet 2'],
      ['Stuff'],
      [n('1'), n('2'), n('3'), n('4'), n('5'), n('6')],
      [n('1/1/1990')],
      null,
      null,
      [n('10'), null, n('3')],
    ];
    for (const sheets of ['table', 'page'] as const)
      expect(await firstSheet(await printedSheet(rows, edge), sheets)).toEqual([
        ['This is sheet 2'],
        ['Stuff'],
        [1, 2, 3, 4, 5, 6],
        [new Date(Date.UTC(1990, 0, 1))],
        [],
        [],
        [10, null, 3],
      ]);
  });

  test("a number printed two columns right of the table's last column goes in that column (both modes)", async () => {
    // Columns 67.5 pt wide: a title in A overflowing B–C, a number in D on its row; the table under
    // it fills A (labels) and B (numbers) only, so no row shows where C and D are but the width.
    const edge = (c: number) => 50 + c * 67.5;
    const n = (text: string) => ({ right: text });
    const rows: Array<Printed[] | null> = [
      ['Count of rows with a in A and 1 in B', null, null, n('2')],
      null,
      ['a', n('1')],
      ['a', n('1')],
      ['a', n('2')],
      ['b', n('2')],
      ['b', n('1')],
    ];
    for (const sheets of ['table', 'page'] as const) {
      const grid = await firstSheet(await printedSheet(rows, edge), sheets);
      expect(grid[0]).toEqual(['Count of rows with a in A and 1 in B', null, null, 2]);
      expect(grid.slice(2).map((row) => row.slice(0, 2))).toEqual([
        ['a', 1],
        ['a', 1],
        ['a', 2],
        ['b', 2],
        ['b', 1],
      ]);
    }
  });

  test('a title in a larger font keeps the empty row under it (both modes)', async () => {
    // LibreOffice sets a cell's text on its row's bottom by the font's descent: a 20 pt title's
    // baseline sits up to 0.25 × (20 − 10) pt higher than a 10 pt row's would, so the gap to the
    // table under an empty row is two 12.8 pt rows and 2.5 pt; under a title row of a custom
    // height it can be two rows and 0.3 pt, which that allowance must not spoil.
    for (const raise of [2.5, 0.3]) {
      const doc = await PDFDocument.create();
      const page = doc.addPage([612, 792]);
      const font = await doc.embedFont(StandardFonts.Helvetica);
      page.drawText('Sales by region', { x: 51.4, y: 700, size: 20, font });
      const rows = [
        ['North', '12'],
        ['South', '7'],
        ['East', '30'],
        ['West', '4'],
      ];
      rows.forEach(([label, value], r) => {
        const y = 700 - 2 * 12.8 - raise - r * 12.8;
        page.drawText(label, { x: 51.4, y, size: 10, font });
        page.drawText(value, { x: 146.6 - font.widthOfTextAtSize(value, 10), y, size: 10, font });
      });
      const bytes = await doc.save();
      for (const sheets of ['table', 'page'] as const)
        expect(await firstSheet(bytes, sheets)).toEqual([
          ['Sales by region'],
          [],
          ...rows.map(([label, value]) => [label, Number(value)]),
        ]);
    }
  });

  test('a day, month name and year joined by hyphens is a date with that format', async () => {
    expect(parseCell('01-Mar-2023')).toEqual({ value: new Date(Date.UTC(2023, 2, 1)), numFmt: 'dd-mmm-yyyy' });
    expect(parseCell('7-March-2023')).toEqual({ value: new Date(Date.UTC(2023, 2, 7)), numFmt: 'd-mmmm-yyyy' });
    expect(parseCell('31-Feb-2023')).toEqual({ value: '31-Feb-2023' });
    expect(parseCell('01-Mar-2023 - 08-Apr-2023')).toEqual({ value: '01-Mar-2023 - 08-Apr-2023' });
    // Printed in a report's column under its header, the dates come back as dates.
    const rows: Printed[][] = [['Production Day', 'Vol'], ...['01-Mar-2023', '02-Mar-2023'].map((d) => [d, '0'])];
    const grid = await firstSheet(await printedSheet(rows, (c) => 50 + c * 96), 'page');
    expect(grid.slice(1).map((row) => row[0])).toEqual([
      new Date(Date.UTC(2023, 2, 1)),
      new Date(Date.UTC(2023, 2, 2)),
    ]);
  });

  test('a ruled frame around rows drawn without borders (a pivot table) is read as their grid', async () => {
    // LibreOffice prints a pivot table's data area as one bordered box: lines only around it, under
    // its header row and over its total row; the city rows and the number columns inside have none.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const rows = [
      ['City', 'Latitude', 'Longitude'],
      ['Beijing', '39.93', '116.40'],
      ['Delhi', '28.67', '77.21'],
      ['Lagos', '6.45', '3.47'],
      ['Total', '75.05', '197.08'],
    ];
    const [left, right, top, pitch] = [100, 340, 700, 15];
    rows.forEach((row, r) =>
      row.forEach((text, c) => {
        const x = c === 0 ? left + 2 : left + 80 * (c + 1) - 2 - font.widthOfTextAtSize(text, 10);
        page.drawText(text, { x, y: top - 11 - r * pitch, size: 10, font });
      }),
    );
    const line = (x1: number, y1: number, x2: number, y2: number) =>
      page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: 1 });
    const bottom = top - rows.length * pitch;
    for (const y of [top, top - pitch, bottom + pitch, bottom]) line(left, y, right, y);
    for (const x of [left, left + 80, right]) line(x, top, x, bottom);
    for (const sheets of ['table', 'page'] as const)
      expect(await firstSheet(await doc.save(), sheets)).toEqual(
        rows.map((row, r) => row.map((text, c) => (r > 0 && c > 0 ? Number(text) : text))),
      );
  });
});

describe("the office-export bench's cell scorer: texts clipped by the next cell", () => {
  test('a text printed in full k times counts in at most k cells, those Folio got right first', () => {
    // Four cells hold "Should be overwritten"; the page prints it whole twice, clipped twice.
    const source = [
      ['Row', 'Should be overwritten', 'Should be overwritten'],
      ['Row', 'Should be overwritten', 'Should be overwritten'],
    ];
    const shown = 'row should be overwrit should be overwritten row should be overwrit should be overwritten';
    const squashed = shown.replace(/\s+/g, '');
    const folio = [
      ['Row', 'Should be overwrit', 'Should be overwritten'],
      ['Row', 'Should be overwrit', 'Should be overwritten'],
    ];
    const [printed] = atMostAsPrinted([source], [folio], squashed);
    expect(printed).toEqual([
      ['Row', null, 'Should be overwritten'],
      ['Row', null, 'Should be overwritten'],
    ]);
    expect(bestOffsetMatchRate(printed, [folio])).toBe(1);
    expect(bestOffsetMatchRate(source, [folio])).toBe(4 / 6);
    // Whole as often as it is held: nothing is left out, right or wrong.
    expect(atMostAsPrinted([source], [[['Row']]], `${squashed}shouldbeoverwrittenshouldbeoverwritten`)).toEqual([
      source,
    ]);
  });
});
