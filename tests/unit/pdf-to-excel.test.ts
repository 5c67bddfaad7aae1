import { beforeAll, describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import {
  clipEvenOdd,
  endPath,
  PDFDocument,
  type PDFFont,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  StandardFonts,
} from 'pdf-lib';
import {
  bestOffsetMatchRate,
  buildReport,
  cellMatchRate,
  sheetGrid,
  type ReportFixture,
} from '../support/office-fixtures.ts';
import { parseCell, run } from '../../workers/engine/tools/pdf-to-excel.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';

let fixture: ReportFixture;
let workbook: ExcelJS.Workbook;

/** One row of a 120 pt column grid at 10 pt: texts left-aligned, numbers right-aligned 100 pt into their column. */
function drawLedgerRow(page: PDFPage, font: PDFFont, row: Array<string | number>, y: number) {
  row.forEach((v, c) => {
    const text = String(v);
    const x = typeof v === 'number' ? 72 + c * 120 + 100 - font.widthOfTextAtSize(text, 10) : 72 + c * 120;
    page.drawText(text, { x, y, size: 10, font });
  });
}

async function load(bytes: Uint8Array) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  return book;
}

/**
 * A sheet printed as LibreOffice prints it: 10 pt Helvetica, rows 15 pt apart from y = 700 (or
 * `pitch`: 12.8 pt is LibreOffice's default row for 10 pt Liberation Sans), texts 1.4 pt inside
 * their column's left edge, numbers 1.4 pt inside its right edge; `null` prints nothing.
 */
async function printedSheet(
  rows: ReadonlyArray<ReadonlyArray<string | number | null> | null>,
  edge: (column: number) => number,
  pitch = 15,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  rows.forEach((row, r) => {
    row?.forEach((value, c) => {
      if (value === null) return;
      const text = String(value);
      const x = typeof value === 'number' ? edge(c + 1) - 1.4 - font.widthOfTextAtSize(text, 10) : edge(c) + 1.4;
      page.drawText(text, { x, y: 700 - r * pitch, size: 10, font });
    });
  });
  return doc.save();
}

beforeAll(async () => {
  fixture = await buildReport();
  const result = await run([{ name: 'report.pdf', bytes: fixture.bytes }], {}, {});
  expect(result.filename).toBe('report.xlsx');
  workbook = await load(result.bytes);
});

describe('pdf-to-excel', () => {
  test('one sheet per table; ≥ 95 % of cells with the right value in the right place', () => {
    // The report's paragraphs and footers, away from its tables, are kept on one sheet after them.
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Page 1', 'Page 2', 'Other text']);
    const ruled = fixture.table.map((row, r) =>
      row.map((v) => (r > 0 && /^[\d,]+$/.test(v) ? Number(v.replace(/,/g, '')) : v)),
    );
    expect(cellMatchRate(ruled, sheetGrid(workbook.worksheets[0]))).toBeGreaterThanOrEqual(0.95);
    expect(cellMatchRate(fixture.numbers, sheetGrid(workbook.worksheets[1]))).toBeGreaterThanOrEqual(0.95);
  });

  test('numbers are numbers, with a thousands format where the PDF had separators', () => {
    const sheet = workbook.worksheets[0];
    const revenue = sheet.getCell(2, 3);
    expect(revenue.value).toBe(4500);
    expect(revenue.numFmt).toBe('#,##0');
    expect(typeof workbook.worksheets[1].getCell(3, 3).value).toBe('number');
    expect(sheet.getCell(1, 1).font?.bold).toBe(true);
    expect(sheet.getColumn(1).width).toBeGreaterThanOrEqual(8);
  });

  test('one sheet per page, page range, and CSV', async () => {
    const perPage = await load(
      (await run([{ name: 'r.pdf', bytes: fixture.bytes }], { sheets: 'page', pages: '2' }, {})).bytes,
    );
    expect(perPage.worksheets.map((s) => s.name)).toEqual(['Page 2']);
    const csv = await run([{ name: 'r.pdf', bytes: fixture.bytes }], { format: 'csv', pages: '2' }, {});
    expect(csv.filename).toBe('r-tables.zip');
    const files = (await JSZip.loadAsync(csv.bytes)).files;
    // The table's title, set off by about one empty row, comes with it; the page's note and footer
    // go to the other text.
    expect((await files['Other text.csv'].async('string')).split('\r\n')).toEqual([
      'Page 2',
      'End of the figures section.',
      'Folio quarterly report,2',
      '',
    ]);
    expect((await files['Page 2.csv'].async('string')).split('\r\n')).toEqual([
      'Figures',
      'Item,Qty,Price,Total',
      'Paper,10,2.50,25',
      'Ink,3,19.99,59.97',
      'Stapler,1,7.25,7.25',
      'Folders,12,0.80,9.60',
      '',
    ]);
    const zip = await run([{ name: 'r.pdf', bytes: fixture.bytes }], { format: 'csv' }, {});
    expect(zip.filename).toBe('r-tables.zip');
    expect(Object.keys((await JSZip.loadAsync(zip.bytes)).files).sort()).toEqual([
      'Other text.csv',
      'Page 1.csv',
      'Page 2.csv',
    ]);
  });

  test('merged cells, dates and percentages', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    // Ruled 3 × 3 with the header merged across all columns.
    const xs = [72, 192, 312, 432];
    const ys = [700, 680, 660, 640];
    for (const y of ys) page.drawLine({ start: { x: 72, y }, end: { x: 432, y }, thickness: 0.5 });
    for (const x of [72, 432]) page.drawLine({ start: { x, y: 700 }, end: { x, y: 640 }, thickness: 0.5 });
    for (const x of xs.slice(1, 3)) page.drawLine({ start: { x, y: 680 }, end: { x, y: 640 }, thickness: 0.5 });
    page.drawText('Sales summary', { x: 76, y: 686, size: 10, font });
    [
      ['2024-03-15', '12.5%', '$1,250.00'],
      ['31/12/2023', '(42)', '7'],
    ].forEach((row, r) => row.forEach((v, c) => page.drawText(v, { x: xs[c] + 4, y: 666 - r * 20, size: 10, font })));
    const book = await load((await run([{ name: 'm.pdf', bytes: await doc.save() }], {}, {})).bytes);
    const sheet = book.worksheets[0];
    expect(sheet.getCell('A1').value).toBe('Sales summary');
    expect(sheet.getCell('C1').isMerged).toBe(true);
    expect(sheet.getCell('A2').value).toEqual(new Date(Date.UTC(2024, 2, 15)));
    expect(sheet.getCell('B2').value).toBeCloseTo(0.125);
    expect(sheet.getCell('B2').numFmt).toBe('0.0%');
    expect(sheet.getCell('C2').value).toBe(1250);
    expect(sheet.getCell('A3').value).toEqual(new Date(Date.UTC(2023, 11, 31)));
    expect(sheet.getCell('B3').value).toBe(-42);
  });

  test('a printed spreadsheet comes back: ≥ 95 % of cells right, typed, headings over their columns', async () => {
    // A workbook printed by Folio's own Excel → PDF (no LibreOffice needed), then read back.
    const source = new ExcelJS.Workbook();
    const sheet = source.addWorksheet('Orders');
    sheet.addRow(['Order', 'Customer', 'Check', 'Internal note', 'Placed', 'Quantity', 'Discount']);
    const customers = ['Acme Ltd', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark Industries'];
    for (let i = 0; i < 18; i++) {
      const row = sheet.addRow([
        `A-${1000 + i}`,
        customers[i % customers.length],
        i === 4 ? { error: '#REF!' } : i,
        'hidden',
        new Date(Date.UTC(2024, i % 12, 3 + i)),
        1250 * (i + 1),
        (i % 5) / 20,
      ]);
      row.getCell(5).numFmt = 'dd/mm/yyyy';
      row.getCell(6).numFmt = '#,##0';
      row.getCell(7).numFmt = '0%';
    }
    sheet.getColumn(4).hidden = true;
    sheet.getColumn(2).width = 20;
    sheet.getColumn(5).width = 12;
    const pdf = await excelToPdf(
      [{ name: 'orders.xlsx', bytes: new Uint8Array(await source.xlsx.writeBuffer()) }],
      {},
      {},
    );
    const back = await load((await run([{ name: 'orders.pdf', bytes: pdf.bytes }], { sheets: 'page' }, {})).bytes);
    // What the paper shows: the hidden column taken out; errors as their text.
    const printed = sheetGrid(sheet).map((row) =>
      row
        .filter((_, c) => c !== 3)
        .map((v) => (v && typeof v === 'object' && 'error' in v ? (v as { error: string }).error : v)),
    );
    const grids = back.worksheets.map((ws) =>
      sheetGrid(ws).map((row) =>
        (row ?? []).map((v) => (v && typeof v === 'object' && 'error' in v ? (v as { error: string }).error : v)),
      ),
    );
    expect(bestOffsetMatchRate(printed, grids)).toBeGreaterThanOrEqual(0.95);
    const cells = back.worksheets.flatMap((ws) => {
      const all: ExcelJS.Cell[] = [];
      ws.eachRow((row) => row.eachCell((cell) => all.push(cell)));
      return all;
    });
    const placed = cells.find(
      (cell) => cell.value instanceof Date && cell.value.toISOString().startsWith('2024-01-03'),
    );
    expect(placed?.numFmt).toBe('dd/mm/yyyy');
    expect(cells.some((cell) => cell.value === 22500)).toBe(true);
    expect(cells.find((cell) => cell.value && typeof cell.value === 'object' && 'error' in cell.value)?.value).toEqual({
      error: '#REF!',
    });
    // "Quantity" heads the column of right-aligned numbers (no empty column between them).
    const heading = cells.find((cell) => cell.value === 'Quantity')!;
    expect(heading.worksheet.getCell(Number(heading.row) + 1, Number(heading.col)).value).toBe(1250);
  });

  test('a heading left-aligned over right-aligned numbers is one column, not two', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const headings = ['Month', 'Bears', 'Dolphins', 'Whales'];
    const rows = [
      ['Jan', 8, 150, 80],
      ['Feb', 54, 77, 54],
      ['Mar', 93, 32, 100],
      ['Apr', 116, 11, 76],
    ] as const;
    headings.forEach((h, c) => page.drawText(h, { x: 72 + c * 90, y: 700, size: 10, font }));
    rows.forEach((row, r) =>
      row.forEach((v, c) => {
        const text = String(v);
        // Text left-aligned, numbers right-aligned at the column's right edge, as a spreadsheet prints.
        const x = typeof v === 'number' ? 72 + c * 90 + 85 - font.widthOfTextAtSize(text, 10) : 72 + c * 90;
        page.drawText(text, { x, y: 684 - r * 16, size: 10, font });
      }),
    );
    const book = await load((await run([{ name: 'animals.pdf', bytes: await doc.save() }], {}, {})).bytes);
    const grid = sheetGrid(book.worksheets[0]);
    expect(grid[0]).toEqual(headings);
    expect(grid.slice(1)).toEqual(rows.map((row) => [...row]));
  });

  test('a label and a right-aligned number in narrow columns stay two cells', async () => {
    // A printed sheet: labels left-aligned in A and D, numbers right-aligned in B and E, column C
    // empty; two rows fill only D and E. No other row has text between
    // "x1" and "4", so only the rows below can show that a gutter is there.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const left = [50, 110, 170, 230, 330];
    const pitch = 13;
    const rows: Array<[string | null, number | null, string, number] | null> = [
      ['x1', 4, 'y1 (x1+x2)', 6],
      ['x2', 2, 'y2 (x1-x2)', 2],
      ['x3', -2.3, 'y3 (x1*x2)', 8],
      [null, null, 'y4 (round(x3))', 4],
      [null, null, 'y5 (mod(x1,x2))', 1],
      ['x7', 25, 'y7 (sqrt(x7))', 5],
    ];
    rows.forEach((row, r) => {
      const y = 700 - r * pitch;
      if (!row) return;
      const [a, b, d, e] = row;
      if (a !== null) page.drawText(a, { x: left[0] + 2, y, size: 10, font });
      if (b !== null)
        page.drawText(String(b), { x: left[2] - 2 - font.widthOfTextAtSize(String(b), 10), y, size: 10, font });
      page.drawText(d, { x: left[3] + 2, y, size: 10, font });
      page.drawText(String(e), { x: left[4] + 60 - 2 - font.widthOfTextAtSize(String(e), 10), y, size: 10, font });
    });
    const book = await load((await run([{ name: 'x.pdf', bytes: await doc.save() }], { sheets: 'page' }, {})).bytes);
    const grid = sheetGrid(book.worksheets[0]).map((row) => [...(row ?? [])].map((v) => v ?? null));
    // The empty column C is the space between B's right-aligned numbers and D's left-aligned labels.
    const expected = rows.map((row) => (row ? [row[0], row[1], null, row[2], row[3]] : []));
    expect(grid.map((row) => (row.every((v) => v === null) ? [] : row))).toEqual(expected);
  });

  test("blocks of a printed sheet split by a gap keep the sheet's columns", async () => {
    // A printed sheet with columns A–E, 80 pt wide: a five-column table, then after a gap a summary
    // that fills only C–E. Numbered from the left on its own, the summary would land in A–C.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const left = [50, 130, 210, 290, 370];
    const rows: Array<Array<string | number | null>> = [
      ['Region', 'Quarter', 'Units', 'Price', 'Revenue'],
      ['North', 'Q1', 120, 4, 480],
      ['South', 'Q1', 95, 5, 475],
      ['East', 'Q2', 130, 3, 390],
      [],
      [],
      [],
      [null, null, 'Units', 'Mean', 'Revenue'],
      [null, null, 345, 4, 1345],
      [null, null, 'checked', 'yes', 'final'],
    ];
    rows.forEach((row, r) => {
      const y = 700 - r * 14;
      row.forEach((value, c) => {
        if (value !== null) page.drawText(String(value), { x: left[c] + 2, y, size: 10, font });
      });
    });
    const book = await load((await run([{ name: 'x.pdf', bytes: await doc.save() }], { sheets: 'page' }, {})).bytes);
    const grid = sheetGrid(book.worksheets[0]).map((row) => [...(row ?? [])].map((v) => v ?? null));
    // The empty rows between the blocks cannot be seen on paper; the columns can.
    const expected = rows.filter((row) => row.length > 0);
    expect(grid.filter((row) => row.some((v) => v !== null))).toEqual(expected);
  });

  test('empty rows come back where the rows keep one pitch; a custom-height row adds none', async () => {
    // A printed ledger, default rows 15 pt apart (baseline to baseline, as LibreOffice prints cells
    // aligned to the bottom of their rows): one empty row after the header, two before the totals,
    // and one row set 37 pt tall (2.47 rows: not a whole number of rows, so no empty row).
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const rows: Array<[string, number] | null> = [
      ['Item', 0],
      null,
      ...Array.from({ length: 10 }, (_, i): [string, number] => [`Part ${i + 1}`, (i + 1) * 10]),
      ['Tall row', 7],
      null,
      null,
      ['Total', 557],
    ];
    let y = 740;
    rows.forEach((row, r) => {
      y -= r === 12 ? 37 : 15;
      if (!row) return;
      page.drawText(row[0], { x: 52, y, size: 10, font });
      if (r > 0)
        page.drawText(String(row[1]), { x: 188 - font.widthOfTextAtSize(String(row[1]), 10), y, size: 10, font });
    });
    const book = await load((await run([{ name: 'x.pdf', bytes: await doc.save() }], { sheets: 'page' }, {})).bytes);
    // Array.from: an empty row is a hole in sheetGrid's rows.
    const grid = Array.from(sheetGrid(book.worksheets[0]), (row) => [...(row ?? [])].map((v) => v ?? null));
    const expected = rows.map((row, r) => (row === null ? [] : r === 0 ? ['Item'] : row));
    expect(grid.map((row) => (row.every((v) => v === null) ? [] : row))).toEqual(expected);
  });

  test('empty rows above a title in a larger font come back: its row is taller in proportion', async () => {
    // Regular rows of 10 pt text 15 pt apart, then two empty rows and a 14 pt section title, whose
    // row LibreOffice makes 15 × 14 / 10 = 21 pt tall (its baseline 0.8 pt higher in its row, the
    // larger descent): the gap is 50.2 pt, 3.35 pitches, of which 2 empty rows.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const expected: unknown[][] = [];
    let y = 740;
    const line = (text: string, size = 10) => {
      page.drawText(text, { x: 52, y, size, font });
      expected.push([text]);
    };
    for (let i = 1; i <= 10; i++, y -= 15) line(`Item ${i}`);
    y -= 2 * 15 + 21 - 0.8 - 15;
    expected.push([], []);
    line('Section two', 14);
    y -= 15 + 0.8;
    for (let i = 11; i <= 20; i++, y -= 15) line(`Item ${i}`);
    const book = await load((await run([{ name: 'x.pdf', bytes: await doc.save() }], { sheets: 'page' }, {})).bytes);
    const grid = Array.from(sheetGrid(book.worksheets[0]), (row) => [...(row ?? [])].filter((v) => v != null));
    expect(grid).toEqual(expected);
  });

  test('empty rows of a short block of default rows come back (both modes)', async () => {
    // Default rows of 10 pt text 12.8 pt apart, as LibreOffice prints them: a title, an empty row,
    // a table of three rows. Too few rows for a regular pitch, but the rows one apart show the
    // default row, so the gap of two is one empty row.
    const table = [['CountIFS criteria', null, 2], null, ['a', 'x', 1], ['b', 'y', 2], ['b', 'x', 2]];
    // Then two rows with an empty one between and a total under them: the title's text runs on
    // over B, where the rows below start theirs, so they all share the table's columns and are one
    // table split by empty rows, one sheet in both modes.
    const rest = [null, ['TRUE', 'true from f'], null, ['FALSE', 'false from f'], null, ['Total', null, 5]];
    const pdf = await printedSheet([...table, ...rest], (c) => 50 + c * 48, 12.8);
    const cells = (rows: typeof rest) =>
      rows.map((row) => (row ?? []).map((v) => (v === 'TRUE' ? true : v === 'FALSE' ? false : v)));
    for (const [sheets, expected] of [
      ['table', cells([...table, ...rest])],
      ['page', cells([...table, ...rest])],
    ] as const) {
      const book = await load((await run([{ name: 'x.pdf', bytes: pdf }], { sheets }, {})).bytes);
      const grid = Array.from(sheetGrid(book.worksheets[0]), (row) => [...(row ?? [])].map((v) => v ?? null));
      expect(
        grid.map((row) => (row.every((v) => v === null) ? [] : row)),
        sheets,
      ).toEqual(expected);
    }
  });

  test('a block whose every printed row is followed by an empty default row gets them back (both modes)', async () => {
    // "abc" in A1, 123 in B3, 10 pt text 25.6 pt apart: two default rows (12.8 pt), nothing else
    // on the page to measure a row by.
    const rows = [['abc'], null, [null, 123]];
    const pdf = await printedSheet(rows, (c) => 50 + c * 48, 12.8);
    for (const sheets of ['table', 'page']) {
      const book = await load((await run([{ name: 'x.pdf', bytes: pdf }], { sheets }, {})).bytes);
      const grid = Array.from(sheetGrid(book.worksheets[0]), (row) => [...(row ?? [])].map((v) => v ?? null));
      expect(
        grid.map((row) => (row.every((v) => v === null) ? [] : row)),
        sheets,
      ).toEqual([['abc'], [], [null, 123]]);
    }
  });

  test("a short block's empty row comes back above a chart's smaller labels on the same page", async () => {
    // 10 pt rows 12.8 pt apart (a title, an empty row, two rows), then a chart's axis labels in
    // 8 pt, 21 pt apart: more labels than rows, but the rows' own text gives their default row.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const rows = [['Big cities'], null, ['Shanghai'], ['Karachi']];
    rows.forEach((row, r) => row && page.drawText(row[0], { x: 52, y: 700 - r * 12.8, size: 10, font }));
    const labels = ['90°', '60°', '30°', '0°', '-30°', '-60°'];
    labels.forEach((label, i) => page.drawText(label, { x: 200, y: 600 - i * 21, size: 8, font }));
    const book = await load((await run([{ name: 'x.pdf', bytes: await doc.save() }], { sheets: 'page' }, {})).bytes);
    const grid = Array.from(sheetGrid(book.worksheets[0]), (row) => [...(row ?? [])].filter((v) => v != null));
    expect(grid.slice(0, 4)).toEqual(rows.map((row) => row ?? []));
  });

  test('a short block keeps its rows: a header two rows tall is not an empty row', async () => {
    // Five rows of 10 pt text 15 pt apart (wider than a default row for 10 pt, 12.8 pt) under a
    // title 30 pt above them: too few rows for a regular pitch, and rows of custom height, so the
    // title's row two rows tall is not told from an empty row; none is added.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText('Formulae', { x: 52, y: 740, size: 10, font });
    const rows = ['SUM', 'MIN', 'MAX', 'AVERAGE', 'COUNT'];
    rows.forEach((name, r) => page.drawText(name, { x: 52, y: 710 - r * 15, size: 10, font }));
    const book = await load((await run([{ name: 'x.pdf', bytes: await doc.save() }], { sheets: 'page' }, {})).bytes);
    const grid = sheetGrid(book.worksheets[0]).map((row) => [...(row ?? [])].map((v) => v ?? null));
    expect(grid).toEqual([['Formulae'], ...rows.map((name) => [name])]);
  });

  test("a note in the main table's empty column stays in it, and the table's next column in its own", async () => {
    // Narrow label columns A–D, numbers in E, F empty in the table (its numbers end 48 pt before
    // G's texts start), texts in G–H; under the table a block whose texts fill F, and notes in G.
    const edges = [50, 84.1, 118.2, 152.3, 186.4, 220.5, 268.5, 316.6, 364.7];
    const rows: Array<Array<string | number | null> | null> = [];
    for (let n = 2; n <= 16; n++) rows.push(['G', 'H', 'I', 'J', n, null, `G${n} aaa`, `H${n} zzz`]);
    rows.push(null, [null, null, null, null, null, null, 'Source Formulas']);
    ['aaa', 'TOP', 'zzz'].forEach((text, i) => rows.push(['G', null, null, null, 24 + i, text, `G${24 + i} ${text}`]));
    rows.push(
      null,
      ...['How it was made:', 'Copied G24 to G2', 'Dragged G2 to G10'].map((note) => [...Array(6).fill(null), note]),
    );
    const book = await load(
      (await run([{ name: 'x.pdf', bytes: await printedSheet(rows, (c) => edges[c]) }], { sheets: 'page' }, {})).bytes,
    );
    const grid = Array.from(sheetGrid(book.worksheets[0]), (row) => [...(row ?? [])].map((v) => v ?? null));
    const trimmed = (row: ReadonlyArray<unknown> | null) => {
      const cells = [...(row ?? [])];
      while (cells.length && cells.at(-1) === null) cells.pop();
      return cells;
    };
    expect(grid.map(trimmed)).toEqual(rows.map(trimmed));
  });

  test('a label left of a ruled table, on its header row, is a column before the table, in that row', async () => {
    // Two ruled tables of a header and four empty rows (12.7 pt), one empty row apart, each with a
    // label in column A printed beside its header row, outside the borders.
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const xs = [88, 159.5, 231, 302.5, 374, 445.5];
    const pitch = 12.7;
    const tables: Array<[string, string[]]> = [
      ['Acções', ['n_accao', 'n_ordem', 'mercado', 'tipo', 'design']],
      ['Linhas', ['key', 'n_ordem', 'mercado', 'rubrica', 'rubrica_txt']],
    ];
    tables.forEach(([label, header], t) => {
      const top = 756 - t * 6 * pitch;
      for (let r = 0; r <= 5; r++)
        page.drawLine({
          start: { x: xs[0], y: top - r * pitch },
          end: { x: xs[5], y: top - r * pitch },
          thickness: 0.5,
        });
      for (const x of xs) page.drawLine({ start: { x, y: top }, end: { x, y: top - 5 * pitch }, thickness: 0.5 });
      const baseline = top - pitch + 3.2;
      page.drawText(label, { x: 51.4, y: baseline, size: 8, font });
      header.forEach((text, c) => page.drawText(text, { x: xs[c] + 2, y: baseline, size: 8, font }));
    });
    const pdf = await doc.save();
    const rows = tables.map(([label, header]) => [label, ...header]);
    const page1 = await load((await run([{ name: 'x.pdf', bytes: pdf }], { sheets: 'page' }, {})).bytes);
    const grid = Array.from(sheetGrid(page1.worksheets[0]), (row) => [...(row ?? [])]);
    // One sheet per page: the second table one empty row below the first's last (empty) row.
    expect([grid[0], grid[6]]).toEqual(rows);
    // One sheet per table: the same, the two tables being one split by its borderless empty row.
    const byTable = await load((await run([{ name: 'x.pdf', bytes: pdf }], {}, {})).bytes);
    const joined = Array.from(sheetGrid(byTable.worksheets[0]), (row) => [...(row ?? [])]);
    expect([joined[0], joined[6]]).toEqual(rows);
  });

  test('an empty column comes back where right-aligned numbers end well before the next texts', async () => {
    // Columns 60 pt wide from x = 50, printed as LibreOffice does (texts 1.4 pt inside their
    // column's left edge, numbers 1.4 pt inside its right edge): A labels, B numbers, C empty,
    // D notes, E numbers. Nothing is printed in C; the 60 pt between B's numbers and D's notes is it.
    const edge = (c: number) => 50 + c * 60;
    const rows: Array<[string, number, null, string, number]> = [
      ['x1', 4, null, 'sum', 6],
      ['x2', 2, null, 'difference', 2],
      ['x3', -2.5, null, 'product', 8],
      ['x4', 3.5, null, 'quotient', 2.25],
    ];
    const book = await load(
      (await run([{ name: 'x.pdf', bytes: await printedSheet(rows, edge) }], { sheets: 'page' }, {})).bytes,
    );
    const grid = sheetGrid(book.worksheets[0]).map((row) => [...(row ?? [])].map((v) => v ?? null));
    expect(grid).toEqual(rows);
  });

  test("columns of the sheet's default width: every cell back in its column, empty ones between", async () => {
    // Columns 48 pt wide (Excel's default, 64 px) from x = 50. A's long labels run over the empty
    // B and C; D holds right-aligned numbers, F and H texts; E and G are empty.
    const edge = (c: number) => 50 + c * 48;
    const rows: Array<Array<string | number | null>> = [
      ['This row is local', null, null, 22, null, 'DS1', null, 'DS2'],
      ['This row is remote', null, null, 41, null, 'Hello!', null, 'Test A1'],
      ['This row is also remote', null, null, 142, null, 'Hello!', null, 'Test B2'],
    ];
    const book = await load(
      (await run([{ name: 'x.pdf', bytes: await printedSheet(rows, edge) }], { sheets: 'page' }, {})).bytes,
    );
    const grid = sheetGrid(book.worksheets[0]).map((row) => [...(row ?? [])].map((v) => v ?? null));
    expect(grid).toEqual(rows);
  });

  test('an empty column between short texts and numbers that no edge shows comes back', async () => {
    // Columns of Excel's default width (48 pt) from x = 50: A short labels, B empty, C right-aligned
    // numbers. Only A's left edge and C's right edge are printed; 145 pt hold three columns, and
    // neither A's labels nor C's numbers fill more than one.
    const edge = (c: number) => 50 + c * 48;
    const rows: Array<[string, null, number]> = [
      ['Rent', null, 1200],
      ['Food', null, 340],
      ['Gas', null, 85],
      ['Phone', null, 45],
    ];
    for (const sheets of ['page', 'table'] as const) {
      const book = await load(
        (await run([{ name: 'x.pdf', bytes: await printedSheet(rows, edge) }], { sheets }, {})).bytes,
      );
      const grid = sheetGrid(book.worksheets[0]).map((row) => [...(row ?? [])].map((v) => v ?? null));
      expect(grid).toEqual(rows);
    }
    // Logical values, which LibreOffice right-aligns, count as numbers: A's TRUE/FALSE end 48 pt
    // before C's texts start.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const logical: Array<[boolean, null, string]> = [
      [true, null, 'true from f'],
      [true, null, 'true from copy'],
      [false, null, 'false from f'],
      [false, null, 'false from copy'],
    ];
    logical.forEach(([value, , note], r) => {
      const text = String(value).toUpperCase();
      page.drawText(text, { x: edge(1) - 1.4 - font.widthOfTextAtSize(text, 10), y: 700 - r * 15, size: 10, font });
      page.drawText(note, { x: edge(2) + 1.4, y: 700 - r * 15, size: 10, font });
    });
    const logicalBook = await load(
      (await run([{ name: 'x.pdf', bytes: await doc.save() }], { sheets: 'page' }, {})).bytes,
    );
    expect(sheetGrid(logicalBook.worksheets[0]).map((row) => [...(row ?? [])].map((v) => v ?? null))).toEqual(logical);
    // Labels wider than a default column: A was widened for them, by how much the page cannot
    // tell, so the numbers right after it stay in B.
    const wide = (c: number) => (c === 0 ? 50 : 170 + (c - 1) * 48);
    const fitted: Array<[string, number]> = [
      ['Telecommunications', 1200],
      ['Transportation', 340],
      ['Software', 85],
    ];
    const book = await load(
      (await run([{ name: 'x.pdf', bytes: await printedSheet(fitted, wide) }], { sheets: 'page' }, {})).bytes,
    );
    expect(sheetGrid(book.worksheets[0])).toEqual(fitted);
  });

  test('a centred column of numbers is not taken for right-aligned: no empty column after it', async () => {
    // Column A (50–110) centres berth names and numbers of one width; B starts at 110. The numbers
    // end 20 pt before B's texts only because they are centred.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const rows: Array<[string, string]> = [
      ['B1A', 'vacant'],
      ['B12', 'containers'],
      ['1', 'tanker'],
      ['2', 'bulk carrier'],
      ['3', 'coal'],
    ];
    rows.forEach(([berth, cargo], r) => {
      const y = 700 - r * 15;
      page.drawText(berth, { x: 80 - font.widthOfTextAtSize(berth, 10) / 2, y, size: 10, font });
      page.drawText(cargo, { x: 111.4, y, size: 10, font });
    });
    const book = await load((await run([{ name: 'x.pdf', bytes: await doc.save() }], { sheets: 'page' }, {})).bytes);
    const grid = sheetGrid(book.worksheets[0]).map((row) => [...(row ?? [])].map((v) => v ?? null));
    expect(grid).toEqual(rows.map(([berth, cargo]) => [/^\d+$/.test(berth) ? Number(berth) : berth, cargo]));
  });

  test('a title over a column of right-aligned numbers stays in that column', async () => {
    // Column A (50–110) holds labels, B (110–190) right-aligned numbers, C (190–270) notes; the
    // title starts at B's left edge, before the middle of the gap between A's texts and B's numbers.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText('Basic operators', { x: 112, y: 720, size: 10, font });
    const rows: Array<[string, number, string]> = [
      ['x1', 4, 'sum'],
      ['x2', 2, 'difference'],
      ['x3', -2.5, 'product'],
      ['x4', 3.5, 'quotient'],
    ];
    rows.forEach(([label, value, note], r) => {
      const y = 690 - r * 14;
      page.drawText(label, { x: 52, y, size: 10, font });
      page.drawText(String(value), { x: 188 - font.widthOfTextAtSize(String(value), 10), y, size: 10, font });
      page.drawText(note, { x: 192, y, size: 10, font });
    });
    const book = await load((await run([{ name: 'x.pdf', bytes: await doc.save() }], { sheets: 'page' }, {})).bytes);
    const grid = sheetGrid(book.worksheets[0]).map((row) => [...(row ?? [])].map((v) => v ?? null));
    expect(grid.filter((row) => row.some((v) => v !== null))).toEqual([[null, 'Basic operators'], ...rows]);
  });

  test('a right-aligned number under a left-aligned header stays in its column, not the next one', async () => {
    // Two printed rows (too few for a table): the first number ends 2.8 pt before the next
    // column's header starts, the last one a column's width after its header starts.
    const edge = (c: number) => 50 + c * 48;
    const rows = [
      ['Width', 'Height'],
      [12, 30],
    ];
    for (const sheets of ['table', 'page']) {
      const result = await run([{ name: 'x.pdf', bytes: await printedSheet(rows, edge) }], { sheets }, {});
      expect(sheetGrid((await load(result.bytes)).worksheets[0])).toEqual(rows);
    }
  });

  test('a number under the only text column, ending one default column width after it, stays in it', async () => {
    // A sheet's name over its one value ("DS1" over 22), both in column A of Excel's default width
    // (48 pt): the number's own start is no column. In a wider column A, a number ending two widths
    // on is column B's.
    for (const sheets of ['table', 'page']) {
      const narrow = await printedSheet([['DS1'], [22]], (c) => 50 + c * 48);
      expect(
        sheetGrid((await load((await run([{ name: 'x.pdf', bytes: narrow }], { sheets }, {})).bytes)).worksheets[0]),
      ).toEqual([['DS1'], [22]]);
      const wide = await printedSheet(
        [
          ['Total', null],
          [null, 22],
        ],
        (c) => 50 + c * 48,
      );
      expect(
        sheetGrid((await load((await run([{ name: 'x.pdf', bytes: wide }], { sheets }, {})).bytes)).worksheets[0]),
      ).toEqual([['Total'], [null, 22]]);
    }
  });

  test("a table's right-aligned numbers ending where the next column's texts start stay in their column", async () => {
    // "Marks" over numbers right-aligned in its column, the "Verified" column empty below its header:
    // the numbers end 2.8 pt before "Verified" starts, under which the table's gutters put them.
    const rows = [
      ['Subject', 'Name', 'Marks', 'Verified'],
      ['Maths', 'Anil', 85],
      ['Science', 'Vijay', 65],
      ['English', 'Akash', 75],
      ['Geography', 'Vikram', 70],
      ['History', 'Ravi', 90],
    ];
    for (const sheets of ['table', 'page']) {
      const pdf = await printedSheet(rows, (c) => 50 + c * 48);
      expect(
        sheetGrid((await load((await run([{ name: 'x.pdf', bytes: pdf }], { sheets }, {})).bytes)).worksheets[0]),
      ).toEqual(rows);
    }
  });

  test('a wrapped cell is one cell, in the row of the cells beside it', async () => {
    // A printed address list: rows 16 pt apart, wrapped cells' lines 11 pt apart (10 pt text),
    // centred in their row like LibreOffice prints them — odd and even line counts, a word broken
    // at its hyphen, and a row whose only wrapped cells sit beside each other.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const columns = [50, 110, 200, 330];
    const rows: Array<Array<string | string[]>> = [
      ['ID', 'Name', 'Department', 'Mail'],
      ['101', 'Abel', ['Institute of', 'Bavarian-', 'Swabian'], 'abel@example.org'],
      ['102', 'Abudu', 'Library', ['Room 4,', 'north wing']],
      ['103', ['Achzet', 'Benjamin'], ['Centre for', 'Environment'], 'achzet@example.org'],
      ['104', 'Adler', 'Finance', 'adler@example.org'],
    ];
    let y = 720;
    for (const row of rows) {
      const lines = Math.max(...row.map((cell) => (Array.isArray(cell) ? cell.length : 1)));
      const height = Math.max(16, lines * 11 + 5);
      const middle = y - height / 2;
      row.forEach((cell, c) => {
        const cellLines = Array.isArray(cell) ? cell : [cell];
        const first = middle + ((cellLines.length - 1) * 11) / 2 - 3.5;
        cellLines.forEach((text, k) => page.drawText(text, { x: columns[c] + 2, y: first - k * 11, size: 10, font }));
      });
      y -= height;
    }
    const book = await load((await run([{ name: 'list.pdf', bytes: await doc.save() }], { sheets: 'page' }, {})).bytes);
    const grid = sheetGrid(book.worksheets[0]).map((row) => [...(row ?? [])].map((v) => v ?? null));
    const joined = (cell: string | string[]) =>
      Array.isArray(cell)
        ? cell.reduce((text, line) => (/\p{L}-$/u.test(text) ? text + line : `${text} ${line}`))
        : cell;
    expect(grid).toEqual(
      rows.map((row, r) => row.map((cell) => (r > 0 && /^\d+$/.test(String(cell)) ? Number(cell) : joined(cell)))),
    );
  });

  test('a wrapped cell whose lines are centred is one cell, in its row', async () => {
    // A header row as LibreOffice prints it: cells aligned to the bottom of a row two lines tall,
    // the wrapped headers centred in their columns (lines 11.2 pt apart), data rows below.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const columns = [50, 140, 250, 340, 450, 560];
    const rows: Array<Array<string | string[]>> = [
      ['Store', ['State leave', 'blank'], 'City', ['Phone # w area', 'code'], 'Contact'],
      ['North', 'NY', 'Albany', '555-0100', 'Nobody'],
      ['South', 'TX', 'Austin', '555-0101', 'Shahid Ali'],
      ['East', 'MA', 'Boston', '555-0102', 'Gary Jenkinson'],
    ];
    rows.forEach((row, r) =>
      row.forEach((cell, c) => {
        const lines = Array.isArray(cell) ? cell : [cell];
        lines.forEach((text, k) => {
          const centre = (columns[c] + columns[c + 1] - font.widthOfTextAtSize(text, 10)) / 2;
          const x = Array.isArray(cell) ? centre : columns[c] + 1.4;
          page.drawText(text, { x, y: 700 - r * 16 + (lines.length - 1 - k) * 11.2, size: 10, font });
        });
      }),
    );
    for (const sheets of ['table', 'page'] as const) {
      const book = await load((await run([{ name: 'header.pdf', bytes: await doc.save() }], { sheets }, {})).bytes);
      const grid = sheetGrid(book.worksheets[0]).map((row) => [...(row ?? [])]);
      expect(grid).toEqual(rows.map((row) => row.map((cell) => (Array.isArray(cell) ? cell.join(' ') : cell))));
    }
  });

  test('one sheet per table (the default) keeps the empty rows and columns inside its table', async () => {
    // An unruled table printed as LibreOffice does: columns 60 pt wide from x = 50 (texts 1.4 pt
    // inside their column's left edge, numbers 1.4 pt inside its right edge), rows 15 pt apart.
    // A labels, B numbers, C empty, D notes; one empty row after the sixth.
    const edge = (c: number) => 50 + c * 60;
    const notes = ['north', 'south', 'east', 'west'];
    const rows: Array<[string, number, null, string] | null> = [
      ...Array.from({ length: 6 }, (_, i): [string, number, null, string] => [
        `x${i + 1}`,
        3 * i + 4,
        null,
        notes[i % 4],
      ]),
      null,
      ...Array.from({ length: 6 }, (_, i): [string, number, null, string] => [
        `y${i + 1}`,
        7 * i + 5,
        null,
        notes[i % 4],
      ]),
    ];
    const result = await run([{ name: 'x.pdf', bytes: await printedSheet(rows, edge) }], {}, {});
    expect(result.notes).toContain('1 table found.');
    const book = await load(result.bytes);
    // One sheet: the empty row is inside the table, not between two tables.
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Page 1']);
    // Array.from: an empty row is a hole in sheetGrid's rows.
    const grid = Array.from(sheetGrid(book.worksheets[0]), (row) => [...(row ?? [])].map((v) => v ?? null));
    expect(grid.map((row) => (row.every((v) => v === null) ? null : row))).toEqual(rows);
  });

  test('one sheet per table: a page without a table still gives its text; an empty ruled grid is no table', async () => {
    // Page 1: a printed table. Page 2: a chart printed as LibreOffice does (its gridlines a ruled
    // grid with no text inside, axis labels and a legend around it) and a note.
    const edge = (c: number) => 50 + c * 60;
    const table = [['Item', 'Units'], ...Array.from({ length: 6 }, (_, i) => [`Item ${i + 1}`, 10 + i * 3])];
    const doc = await PDFDocument.load(await printedSheet(table, edge));
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const chart = doc.addPage([612, 792]);
    for (let k = 0; k <= 4; k++) {
      chart.drawLine({ start: { x: 100, y: 400 + k * 50 }, end: { x: 400, y: 400 + k * 50 }, thickness: 0.5 });
      chart.drawLine({ start: { x: 100 + k * 75, y: 400 }, end: { x: 100 + k * 75, y: 600 }, thickness: 0.5 });
      chart.drawText(String(k * 10), { x: 80, y: 397 + k * 50, size: 10, font });
    }
    chart.drawText('Units sold', { x: 420, y: 500, size: 10, font });
    chart.drawText('Source: warehouse ledger', { x: 100, y: 370, size: 10, font });
    const result = await run([{ name: 'x.pdf', bytes: await doc.save() }], {}, {});
    expect(result.notes).toContain('1 table found.');
    const book = await load(result.bytes);
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Page 1', 'Page 2']);
    expect(sheetGrid(book.worksheets[0])).toEqual(table);
    const texts = sheetGrid(book.worksheets[1]).flatMap((row) => (row ?? []).filter((v) => v !== null));
    expect(texts).toEqual(expect.arrayContaining([40, 30, 20, 10, 0, 'Units sold', 'Source: warehouse ledger']));
  });

  test("one sheet per table: the sheet's title and notes around the table come with it", async () => {
    // A printed sheet: a title, an empty row, a table (labels and numbers), an empty row and a note.
    const edge = (c: number) => 50 + c * 70;
    const rows: Array<Array<string | number | null> | null> = [
      ['Stock on 1 May', null, null],
      null,
      ['Item', 'Units', 'Shelf'],
      ...Array.from({ length: 6 }, (_, i) => [`Part ${i + 1}`, 12 + i * 5, `S${i + 1}`]),
      null,
      ['Counted by the night shift', null, null],
    ];
    const result = await run([{ name: 'x.pdf', bytes: await printedSheet(rows, edge) }], {}, {});
    const book = await load(result.bytes);
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Page 1']);
    const grid = Array.from(sheetGrid(book.worksheets[0]), (row) => [...(row ?? [])].map((v) => v ?? null));
    const filled = (row: Array<unknown> | null) => row !== null && row.some((v) => v !== null && v !== undefined);
    const trim = (row: Array<unknown>) => row.slice(0, row.findLastIndex((v) => v !== null) + 1);
    expect(grid.filter(filled).map(trim)).toEqual(rows.filter(filled).map((row) => trim(row!)));
  });

  test('one sheet per table: text far from the tables goes to an "Other text" sheet, every word kept', async () => {
    // A report page: a heading, a ruled table, then paragraphs well below it and a footer.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const table = [
      ['Region', 'Units', 'Revenue'],
      ['North', 120, 4800],
      ['South', 95, 3610],
      ['East', 143, 5720],
    ];
    const xs = [72, 192, 312, 432];
    table.forEach((_, r) => page.drawLine({ start: { x: 72, y: 660 - r * 20 }, end: { x: 432, y: 660 - r * 20 } }));
    page.drawLine({ start: { x: 72, y: 580 }, end: { x: 432, y: 580 }, thickness: 0.5 });
    for (const x of xs) page.drawLine({ start: { x, y: 660 }, end: { x, y: 580 }, thickness: 0.5 });
    table.forEach((row, r) =>
      row.forEach((v, c) => page.drawText(String(v), { x: xs[c] + 4, y: 646 - r * 20, size: 10, font })),
    );
    const prose = [
      'Sales rose in every region this quarter.',
      'The eastern stores opened two new branches in March',
      'and hired seasonal staff for the spring fair.',
      'Acme Trading confidential',
    ];
    const lineYs = [420, 380, 366, 40];
    prose.forEach((text, i) => page.drawText(text, { x: 72, y: lineYs[i], size: 10, font }));
    page.drawText('Quarterly sales', { x: 72, y: 700, size: 14, font });
    const result = await run([{ name: 'r.pdf', bytes: await doc.save() }], {}, {});
    const book = await load(result.bytes);
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Page 1', 'Other text']);
    // The table's sheet is what it was: the table alone (its title is too far above to follow on).
    expect(sheetGrid(book.worksheets[0])).toEqual(table);
    const other = sheetGrid(book.worksheets[1]).map((row) => row[0]);
    // One row per printed line, in page order, under the page's number.
    expect(other).toEqual(['Page 1', 'Quarterly sales', ...prose]);
    expect(book.worksheets[1].getCell('A1').font?.bold).toBe(true);
    expect(result.notes).toContain('5 lines away from the tables went to the "Other text" sheet.');
    const words = (text: string) => text.split(/\s+/).filter(Boolean);
    const inBook = new Set(
      book.worksheets.flatMap((sheet) => sheetGrid(sheet).flatMap((row) => row.flatMap((v) => words(String(v))))),
    );
    const onPage = [...prose, 'Quarterly sales', ...table.flat().map(String)].flatMap(words);
    expect(onPage.filter((word) => !inBook.has(word))).toEqual([]);
  });

  test('a table that continues on the next page is one sheet, its repeated header once', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const header = ['Item', 'Region', 'Units'];
    const items = Array.from({ length: 60 }, (_, i) => [
      `Item ${i + 1}`,
      ['North', 'South', 'East'][i % 3],
      10 + i * 7,
    ]);
    const draw = (page: PDFPage, row: Array<string | number>, y: number) => drawLedgerRow(page, font, row, y);
    for (const rows of [items.slice(0, 40), items.slice(40)]) {
      const page = doc.addPage([612, 792]);
      draw(page, header, 740);
      rows.forEach((row, r) => draw(page, row, 724 - r * 16));
    }
    const result = await run([{ name: 'long.pdf', bytes: await doc.save() }], {}, {});
    expect(result.notes).toContain('1 table found.');
    const book = await load(result.bytes);
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Page 1-2']);
    expect(sheetGrid(book.worksheets[0])).toEqual([header, ...items]);
  });

  test('rows a printout repeats at the top of each page (print titles) are written once', async () => {
    // A title and a header over the columns, both repeated on page 2 above the rows that go on.
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const titles = [
      ['Stock', 'Where', 'How many'],
      ['Item', 'Region', 'Units'],
    ];
    const items = Array.from({ length: 60 }, (_, i) => [`Item ${i + 1}`, ['North', 'South', 'East'][i % 3], 10 + i]);
    const draw = (page: PDFPage, row: Array<string | number>, y: number) => drawLedgerRow(page, font, row, y);
    for (const rows of [items.slice(0, 40), items.slice(40)]) {
      const page = doc.addPage([612, 792]);
      [...titles, ...rows].forEach((row, r) => draw(page, row, 740 - r * 16));
    }
    const result = await run([{ name: 'long.pdf', bytes: await doc.save() }], {}, {});
    const book = await load(result.bytes);
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Page 1-2']);
    expect(sheetGrid(book.worksheets[0])).toEqual([...titles, ...items]);
  });

  test('a block that starts a page under its own date keeps its band and header rows', async () => {
    // A report printed in blocks, each under its date: a band row over the value columns, a header
    // row, the rows. Page 2 starts with the next block, under another date, not with print titles.
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const names = ['North', 'South', 'East', 'West'];
    const block = (b: number) => [
      [`0${b + 1}-Mar-2023`],
      [null, 'Gas', 'Oil'],
      ['Site', 'Volume', 'Mass'],
      ...names.map((name, i) => [name, 100 * b + 10 * i + 1, 100 * b + 10 * i + 2]),
    ];
    const at = (page: PDFPage, row: Array<string | number | null>, top: number, size: number) =>
      row.forEach((v, c) => {
        if (v === null) return;
        const text = String(v);
        const right = [0, 300, 400][c];
        const x = typeof v === 'number' ? right - font.widthOfTextAtSize(text, size) : [73, 250, 350][c];
        page.drawText(text, { x, y: 842 - top - size * 0.9, size, font: row.length === 1 ? bold : font });
      });
    for (const blocks of [
      [0, 1],
      [2, 3],
    ]) {
      const page = doc.addPage([595, 842]);
      blocks.forEach((b, i) => {
        const top = 135 + i * 154;
        const rows = block(b);
        at(page, rows[0], top, 12);
        rows.slice(1).forEach((row, r) => at(page, row, top + 28 + r * 18, 9));
      });
    }
    const book = await load((await run([{ name: 'blocks.pdf', bytes: await doc.save() }], {}, {})).bytes);
    const rows = book.worksheets.flatMap((sheet) => sheetGrid(sheet).map((row) => row.map((v) => v ?? null)));
    // Each block's band row ("Gas", "Oil") and header row are written, page 2's too.
    expect(rows.filter((row) => row.includes('Gas'))).toHaveLength(4);
    expect(rows.filter((row) => row.includes('Site'))).toHaveLength(4);
  });

  test('cells that touch (a right-aligned number against the next column, "5.10Hello") stay two cells', async () => {
    // Narrow columns as a spreadsheet prints them: each cell its own string, a number ending
    // against the left edge of the text in the next column, less than a word space apart.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const edges = [50, 99.5, 147.5];
    const rows = [
      ['Key', 'Value', 'Code'],
      [1, 'A', 'x-1'],
      [22, 'B', 'x-2'],
      [333, 'C', 'x-3'],
      [5.1, 'Hello World', 'x-4'],
    ];
    rows.forEach((row, r) =>
      row.forEach((value, c) => {
        const text =
          typeof value === 'number' && r > 0
            ? Number.isInteger(value)
              ? String(value)
              : value.toFixed(2)
            : String(value);
        const right = typeof value === 'number' && r > 0;
        const x = right ? edges[c + 1] - 0.6 - font.widthOfTextAtSize(text, 11) : edges[c] + 1.4;
        page.drawText(text, { x, y: 720 - r * 15, size: 11, font });
      }),
    );
    const book = await load((await run([{ name: 'narrow.pdf', bytes: await doc.save() }], {}, {})).bytes);
    expect(sheetGrid(book.worksheets[0])).toEqual(rows);
  });

  test('a number and a date drawn apart stay two cells although pdf.js reads them as one string', async () => {
    // A narrow column B of right-aligned numbers, then a right-aligned date in C: each cell its own
    // string, 0.6 em apart, which pdf.js joins into "1 12/23/1952" (no space glyph is drawn between).
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const edges = [53.6, 142.2, 150.6, 206.8];
    const rows: Array<Array<string | number>> = [
      ['Test', 1, '12/23/1952'],
      ['Alpha', 4],
    ];
    rows.forEach((row, r) =>
      row.forEach((value, c) => {
        const text = String(value);
        const x = c === 0 ? edges[c] + 1.4 : edges[c + 1] - 1.4 - font.widthOfTextAtSize(text, 10);
        page.drawText(text, { x, y: 710 - r * 12.8, size: 10, font });
      }),
    );
    const book = await load((await run([{ name: 'dates.pdf', bytes: await doc.save() }], {}, {})).bytes);
    expect(sheetGrid(book.worksheets[0])).toEqual([
      ['Test', 1, new Date(Date.UTC(1952, 11, 23))],
      ['Alpha', 4],
    ]);
  });

  test("a right-aligned number and the next column's text, a fifth of an em apart, stay two cells", async () => {
    // One row as LibreOffice prints it at 11 pt: "44" right-aligned in B ends 2.17 pt (0.197 em:
    // the two cells' insets less the glyphs' side bearings) before "Middle!" starts in C, each its
    // own string with no space glyph between; pdf.js reads "44 Middle!".
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const size = 11;
    page.drawText('22', { x: 86.29, y: 776.69, size, font });
    page.drawText('44', { x: 145.54 - font.widthOfTextAtSize('44', size), y: 776.69, size, font });
    page.drawText('Middle!', { x: 147.71, y: 776.69, size, font });
    page.drawText('Sh2', { x: 243.89, y: 776.69, size, font });
    const book = await load((await run([{ name: 'touching.pdf', bytes: await doc.save() }], {}, {})).bytes);
    expect(sheetGrid(book.worksheets[0])[0]?.slice(0, 3)).toEqual([22, 44, 'Middle!']);
  });

  test('cells each drawn in its own clip rectangle stay apart although their texts touch or overflow', async () => {
    // LibreOffice draws a cell whose text is wider than its column inside a clip rectangle of the
    // cell ("q x y w h re W* n … Q"): the texts run up to the next cell, less than a word space
    // apart, and pdf.js reads the row as one string. The last cell, with nothing to its right,
    // overflows unclipped.
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const left = 50.4;
    const width = 59.19;
    const texts = ['dlgkdflgdfjkl', 'mwqkrtspxvbnz', 'hqrpdmkvtgwcy', 'ozxkuyqbnrtlw'];
    texts.forEach((text, c) => {
      const x = left + c * width;
      const clipped = c < texts.length - 1;
      if (clipped) page.pushOperators(pushGraphicsState(), rectangle(x, 770.2, width, 15), clipEvenOdd(), endPath());
      page.drawText(text, { x: x + 1, y: 773.5, size: 11, font: c % 2 ? bold : font });
      if (clipped) page.pushOperators(popGraphicsState());
    });
    for (const sheets of ['table', 'page'] as const) {
      const book = await load((await run([{ name: 'clipped.pdf', bytes: await doc.save() }], { sheets }, {})).bytes);
      expect(sheetGrid(book.worksheets[0])).toEqual([texts]);
    }
  });

  test('a cell looks merged over two rows only because a border is missing: its lines go back to their rows', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const xs = [72, 172, 272, 372];
    const ys = [700, 680, 660, 640];
    // Every border but the one under "Vessel" (column 2, between rows 1 and 2).
    for (const [i, y] of ys.entries()) {
      if (i === 1) {
        page.drawLine({ start: { x: 72, y }, end: { x: 172, y }, thickness: 0.5 });
        page.drawLine({ start: { x: 272, y }, end: { x: 372, y }, thickness: 0.5 });
      } else page.drawLine({ start: { x: 72, y }, end: { x: 372, y }, thickness: 0.5 });
    }
    for (const x of xs) page.drawLine({ start: { x, y: 700 }, end: { x, y: 640 }, thickness: 0.5 });
    [
      ['No.', 'Vessel', 'Cargo'],
      ['8', 'MV. Kiran', 'Coke'],
      ['9', 'MV. Athenian', 'Iron ore'],
    ].forEach((row, r) => row.forEach((v, c) => page.drawText(v, { x: xs[c] + 4, y: 686 - r * 20, size: 10, font })));
    const book = await load((await run([{ name: 'lineup.pdf', bytes: await doc.save() }], {}, {})).bytes);
    const sheet = book.worksheets[0];
    expect(sheetGrid(sheet)).toEqual([
      ['No.', 'Vessel', 'Cargo'],
      [8, 'MV. Kiran', 'Coke'],
      [9, 'MV. Athenian', 'Iron ore'],
    ]);
    expect(sheet.getCell('B1').isMerged).toBe(false);
  });

  test('a header band with no border between its rows: a label printed on its bottom row stays there', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const xs = [72, 192, 282, 372];
    const ys = [700, 680, 660, 640, 620];
    // No border under the band's empty top-left cell, none between "Gas"'s two columns.
    for (const [i, y] of ys.entries()) {
      page.drawLine({ start: { x: i === 1 ? 192 : 72, y }, end: { x: 372, y }, thickness: 0.5 });
    }
    for (const x of xs) {
      page.drawLine({ start: { x, y: x === 282 ? 680 : 700 }, end: { x, y: 620 }, thickness: 0.5 });
    }
    page.drawText('Gas', { x: 192 + 90 - font.widthOfTextAtSize('Gas', 10) / 2, y: 686, size: 10, font });
    [
      ['Point Name', 'Vol Nm3', 'Mass Kg'],
      ['Chiswick', '12', '34'],
      ['Grove', '56', '78'],
    ].forEach((row, r) => row.forEach((v, c) => page.drawText(v, { x: xs[c] + 4, y: 666 - r * 20, size: 10, font })));
    for (const sheets of ['table', 'page'] as const) {
      const book = await load((await run([{ name: 'band.pdf', bytes: await doc.save() }], { sheets }, {})).bytes);
      const sheet = book.worksheets[0];
      expect(sheet.getCell('A1').value).toBeNull();
      expect(sheet.getCell('A1').isMerged).toBe(false);
      expect(sheetGrid(sheet).slice(1)).toEqual([
        ['Point Name', 'Vol Nm3', 'Mass Kg'],
        ['Chiswick', 12, 34],
        ['Grove', 56, 78],
      ]);
    }
  });

  test('parseCell: dates keep their printed form; errors are errors', () => {
    expect(parseCell('01/11/2017', 'day-first')).toEqual({
      value: new Date(Date.UTC(2017, 10, 1)),
      numFmt: 'dd/mm/yyyy',
    });
    expect(parseCell('3/14/2024')).toEqual({ value: new Date(Date.UTC(2024, 2, 14)), numFmt: 'm/dd/yyyy' });
    expect(parseCell('05.06.2024').numFmt).toBe('dd.mm.yyyy');
    expect(parseCell('Mar 5, 2024').numFmt).toBe('mmm d, yyyy');
    expect(parseCell('#REF!').value).toEqual({ error: '#REF!' });
    expect(parseCell('#DIV/0!').value).toEqual({ error: '#DIV/0!' });
  });

  test('parseCell: ISO date and time is a date with its time, in the printed form', () => {
    expect(parseCell('2012-08-08T22:59')).toEqual({
      value: new Date(Date.UTC(2012, 7, 8, 22, 59)),
      numFmt: 'yyyy-mm-dd"T"hh:mm',
    });
    expect(parseCell('2012-08-08 07:05:09')).toEqual({
      value: new Date(Date.UTC(2012, 7, 8, 7, 5, 9)),
      numFmt: 'yyyy-mm-dd hh:mm:ss',
    });
    expect(parseCell('2012-08-08T25:00').value).toBe('2012-08-08T25:00');
  });

  test('parseCell keeps codes as text', () => {
    expect(parseCell('007').value).toBe('007');
    expect(parseCell('1234567890123456789').value).toBe('1234567890123456789');
    expect(parseCell('Total').value).toBe('Total');
    // Logical values as a spreadsheet prints them; other spellings are words.
    expect(parseCell('TRUE').value).toBe(true);
    expect(parseCell('FALSE').value).toBe(false);
    expect(parseCell('True').value).toBe('True');
    expect(parseCell('-3.25').value).toBe(-3.25);
  });
});
