import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { bestOffsetMatchRate, sheetGrid } from '../support/office-fixtures.ts';
import { run } from '../../workers/engine/tools/pdf-to-excel.ts';

const toArrayBuffer = (b: Uint8Array) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

async function sheetsOf(pdf: Uint8Array, sheets: 'table' | 'page'): Promise<unknown[][][]> {
  const bytes = (await run([{ name: 'x.pdf', bytes: pdf }], { sheets }, {})).bytes;
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(toArrayBuffer(bytes));
  return book.worksheets.map((sheet) => Array.from(sheetGrid(sheet), (row) => [...(row ?? [])].map((v) => v ?? null)));
}

async function sourceGrid(book: ExcelJS.Workbook): Promise<unknown[][]> {
  const copy = new ExcelJS.Workbook();
  await copy.xlsx.load(toArrayBuffer(new Uint8Array(await book.xlsx.writeBuffer())));
  return sheetGrid(copy.worksheets[0]);
}

/**
 * A footnote mark as LibreOffice prints a rich-text run set superscript: 58 % of the text's size,
 * its baseline raised a third of the text's size, right after the text (or just before it).
 */
function drawMarked(
  page: PDFPage,
  font: PDFFont,
  parts: { text: string; mark: string; markFirst?: boolean },
  x: number,
  y: number,
) {
  const size = 10;
  const markSize = 5.8;
  const raise = 3.3;
  if (parts.markFirst) {
    page.drawText(parts.mark, { x, y: y + raise, size: markSize, font });
    page.drawText(parts.text, { x: x + font.widthOfTextAtSize(parts.mark, markSize) + 3, y, size, font });
    return;
  }
  page.drawText(parts.text, { x, y, size, font });
  page.drawText(parts.mark, {
    x: x + font.widthOfTextAtSize(parts.text, size) + 0.1,
    y: y + raise,
    size: markSize,
    font,
  });
}

describe('pdf-to-excel: footnote marks set superscript', () => {
  test('a raised mark after or before a text stays in its cell, without a space (both modes)', async () => {
    // The workbook: labels whose footnote marks are superscript runs ("Job Offers(1)"), a header
    // "Number of Hires(1)" over right-aligned numbers, and footnotes that start with their mark.
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Profile');
    const rows: Array<[string, string | number, string | number]> = [
      ['Employment Profile', 'Percent', 'Number of Hires(1)'],
      ['Job Offers(1)', 0.994, 532],
      ['Seeking Employment', 0.938, 531],
      ['Job Acceptances(1)', 0.92, 489],
      ['Foreign Nationals', 0.91, 120],
      ['Demographic Profile(2)', 0.3, 44],
    ];
    rows.forEach((row, r) => row.forEach((v, c) => (sheet.getCell(r + 1, c + 1).value = v)));
    sheet.getCell(7, 1).value = '(1) Represents percent of students who are seeking employment.';
    sheet.getCell(8, 1).value = '(2) Demographic information is based on full-time students.';

    // Printed: columns A 150 pt, B and C 90 pt from x = 50, rows 13 pt apart, 10 pt Helvetica.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const edges = [50, 200, 290, 380];
    const y = (r: number) => 700 - r * 13;
    const split = (text: string) => {
      const m = /^(.*?)(\(\d\))$/.exec(text);
      return m ? { text: m[1], mark: m[2] } : undefined;
    };
    rows.forEach((row, r) =>
      row.forEach((v, c) => {
        const text = typeof v === 'number' ? (c === 1 ? `${(v * 100).toFixed(1)}%` : String(v)) : v;
        const marked = split(text);
        const width = marked
          ? font.widthOfTextAtSize(marked.text, 10) + 0.1 + font.widthOfTextAtSize(marked.mark, 5.8)
          : font.widthOfTextAtSize(text, 10);
        // Numbers and the last column's header are right-aligned, texts left-aligned.
        const x = typeof v === 'number' || c === 2 ? edges[c + 1] - 1.4 - width : edges[c] + 1.4;
        if (marked) drawMarked(page, font, marked, x, y(r));
        else page.drawText(text, { x, y: y(r), size: 10, font });
      }),
    );
    for (const [r, mark, text] of [
      [6, '(1)', 'Represents percent of students who are seeking employment.'],
      [7, '(2)', 'Demographic information is based on full-time students.'],
    ] as const)
      drawMarked(page, font, { text, mark, markFirst: true }, edges[0] + 1.4, y(r));
    sheet.getColumn(2).numFmt = '0.0%';
    const pdf = await doc.save();

    const expected = await sourceGrid(book);
    for (const mode of ['table', 'page'] as const) {
      const sheets = await sheetsOf(pdf, mode);
      const cells = sheets.flat(2);
      expect(cells).toContain('Job Offers(1)');
      expect(cells).toContain('Number of Hires(1)');
      expect(cells).toContain('Demographic Profile(2)');
      expect(cells).toContain('(1) Represents percent of students who are seeking employment.');
      expect(cells).not.toContain(-1);
      expect(bestOffsetMatchRate(expected, sheets)).toBe(1);
    }
  });
});

describe('pdf-to-excel: rows with footnote marks between empty rows (one sheet per page)', () => {
  test('a row with a superscript, a little taller than the pitch, keeps the empty rows above it', async () => {
    // The workbook: a label column and a number column of default-height rows, blocks of rows one or
    // two empty rows apart, each block headed by a label with a superscript footnote mark.
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Profile');
    const rows: Array<[number, string, number?]> = [
      [1, 'Seeking Employment', 532],
      [2, 'Continuing education', 19],
      [3, 'Self employed', 7],
      [4, 'Sponsored student', 6],
      [5, 'Postponing job search', 1],
      [6, 'Other Reasons', 2],
      [8, 'First-Year Students', 567],
      [10, 'Job Offers(1)'],
      [11, 'U.S. Citizens', 994],
      [12, 'Foreign Nationals', 100],
      [13, 'Total', 996],
      [16, 'Demographic Profile(2)'],
      [17, 'Mean Age', 28],
      [18, 'Married', 24],
    ];
    for (const [r, label, n] of rows) {
      sheet.getCell(r, 1).value = label;
      if (n !== undefined) sheet.getCell(r, 2).value = n;
    }

    // Printed as LibreOffice prints it: rows 12.75 pt apart, each row with a raised mark 1.4 pt
    // taller (its baseline, at the row's bottom, that much lower), so every gap below it grows too.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    let y = 700;
    let last = 0;
    for (const [r, label, n] of rows) {
      const marked = /^(.*?)(\(\d\))$/.exec(label);
      y -= (r - last) * 12.75 + (marked ? 1.4 : 0);
      last = r;
      if (marked) drawMarked(page, font, { text: marked[1], mark: marked[2] }, 51.4, y);
      else page.drawText(label, { x: 51.4, y, size: 10, font });
      if (n !== undefined)
        page.drawText(String(n), { x: 288.6 - font.widthOfTextAtSize(String(n), 10), y, size: 10, font });
    }
    const pdf = await doc.save();

    const sheets = await sheetsOf(pdf, 'page');
    expect(sheets).toHaveLength(1);
    expect(bestOffsetMatchRate(await sourceGrid(book), sheets)).toBe(1);
  });
});

describe('pdf-to-excel: a ruled table split by empty rows (one sheet per table)', () => {
  test('two bordered blocks of the same columns, two borderless rows apart, are one sheet with those rows', async () => {
    // The workbook: a bordered header row with 5 bordered rows of formulas whose results are empty
    // (printed as nothing), two rows without borders, then the same header and 4 bordered rows.
    // Printed, the two blocks look alike: only the gap between them places the second one.
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Blocks');
    const header = ['eleg_f1', 'eleg_f2', 'eleg_f3', 'eleg_tt'];
    header.forEach((text, c) => {
      sheet.getCell(1, c + 1).value = text;
      sheet.getCell(9, c + 1).value = text;
    });
    sheet.getCell(13, 4).value = 7;

    // Printed: columns 72 pt wide from x = 50, rows 12.75 pt from y = 700, every cell of rows 1–6
    // and 9–13 bordered, texts 1.4 pt inside their cell's left edge, numbers inside its right edge.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const pitch = 12.75;
    const top = (r: number) => 700 - r * pitch;
    const xs = [50, 122, 194, 266, 338];
    for (const [first, last] of [
      [0, 6],
      [8, 13],
    ]) {
      for (let r = first; r <= last; r++)
        page.drawLine({ start: { x: xs[0], y: top(r) }, end: { x: xs[4], y: top(r) }, thickness: 0.5 });
      for (const x of xs) page.drawLine({ start: { x, y: top(first) }, end: { x, y: top(last) }, thickness: 0.5 });
      header.forEach((text, c) => page.drawText(text, { x: xs[c] + 1.4, y: top(first + 1) + 3, size: 10, font }));
    }
    page.drawText('7', { x: xs[4] - 1.4 - font.widthOfTextAtSize('7', 10), y: top(13) + 3, size: 10, font });
    const pdf = await doc.save();

    const sheets = await sheetsOf(pdf, 'table');
    expect(sheets).toHaveLength(1);
    expect(sheets[0][0]).toEqual(header);
    expect(sheets[0][8]).toEqual(header);
    expect(sheets[0][12]).toEqual([null, null, null, 7]);
    expect(bestOffsetMatchRate(await sourceGrid(book), sheets)).toBe(1);
  });
});
