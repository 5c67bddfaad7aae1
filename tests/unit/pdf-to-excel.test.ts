import { beforeAll, describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { buildReport, cellMatchRate, sheetGrid, type ReportFixture } from './office-fixtures.ts';
import { parseCell, run } from '../../workers/engine/tools/pdf-to-excel.ts';

let fixture: ReportFixture;
let workbook: ExcelJS.Workbook;

async function load(bytes: Uint8Array) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  return book;
}

beforeAll(async () => {
  fixture = await buildReport();
  const result = await run([{ name: 'report.pdf', bytes: fixture.bytes }], {}, {});
  expect(result.filename).toBe('converted.xlsx');
  workbook = await load(result.bytes);
});

describe('pdf-to-excel', () => {
  test('one sheet per table; ≥ 95 % of cells with the right value in the right place', () => {
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Page 1', 'Page 2']);
    const ruled = fixture.table.map((row, r) => row.map((v) => (r > 0 && /^[\d,]+$/.test(v) ? Number(v.replace(/,/g, '')) : v)));
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
    const perPage = await load((await run([{ name: 'r.pdf', bytes: fixture.bytes }], { sheets: 'page', pages: '2' }, {})).bytes);
    expect(perPage.worksheets.map((s) => s.name)).toEqual(['Page 2']);
    const csv = await run([{ name: 'r.pdf', bytes: fixture.bytes }], { format: 'csv', pages: '2' }, {});
    expect(csv.filename).toBe('converted.csv');
    expect(new TextDecoder().decode(csv.bytes).split('\r\n')[2]).toBe('Ink,3,19.99,59.97');
    const zip = await run([{ name: 'r.pdf', bytes: fixture.bytes }], { format: 'csv' }, {});
    expect(zip.filename).toBe('converted.zip');
    expect(Object.keys((await JSZip.loadAsync(zip.bytes)).files).sort()).toEqual(['Page 1.csv', 'Page 2.csv']);
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
    [['2024-03-15', '12.5%', '$1,250.00'], ['31/12/2023', '(42)', '7']].forEach((row, r) => row.forEach((v, c) => page.drawText(v, { x: xs[c] + 4, y: 666 - r * 20, size: 10, font })));
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

  test('parseCell keeps codes as text', () => {
    expect(parseCell('007').value).toBe('007');
    expect(parseCell('1234567890123456789').value).toBe('1234567890123456789');
    expect(parseCell('Total').value).toBe('Total');
    expect(parseCell('-3.25').value).toBe(-3.25);
  });
});
