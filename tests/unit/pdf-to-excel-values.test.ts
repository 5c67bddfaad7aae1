import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { bestOffsetMatchRate, printedOnPage, sameCell, sheetGrid, withoutHidden } from '../support/office-fixtures.ts';
import { parseCell, run } from '../../workers/engine/tools/pdf-to-excel.ts';

/** A printed cell: its text, and whether the sheet right-aligns it (numbers, whatever their symbols). */
type PrintedCell = { text: string; right?: boolean } | null;

/**
 * A sheet printed as LibreOffice prints it: 10 pt Helvetica, columns 80 pt wide from x = 40, rows
 * 15 pt apart from y = 700, texts 1.4 pt inside their column's left edge, right-aligned cells 1.4 pt
 * inside its right edge.
 */
async function printedSheet(rows: PrintedCell[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  rows.forEach((row, r) =>
    row.forEach((cell, c) => {
      if (!cell) return;
      const x = cell.right ? 40 + (c + 1) * 80 - 1.4 - font.widthOfTextAtSize(cell.text, 10) : 40 + c * 80 + 1.4;
      page.drawText(cell.text, { x, y: 700 - r * 15, size: 10, font });
    }),
  );
  return doc.save();
}

async function cellsOf(bytes: Uint8Array, sheets: 'table' | 'page') {
  const result = await run([{ name: 'sheet.pdf', bytes }], { sheets }, {});
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(result.bytes.buffer.slice(0) as ArrayBuffer);
  const sheet = book.worksheets[0];
  const cells: Array<Array<{ value: unknown; numFmt?: string }>> = [];
  sheet.eachRow((row, r) =>
    row.eachCell((cell, c) => {
      (cells[r - 1] ??= [])[c - 1] = { value: cell.value, numFmt: cell.numFmt || undefined };
    }),
  );
  return cells;
}

const text = (t: string): PrintedCell => ({ text: t });
const right = (t: string): PrintedCell => ({ text: t, right: true });

describe('pdf-to-excel: what a printed cell holds', () => {
  test('numbers with a unit or symbol after them, and decimals ending in 0, are numbers that print the same', async () => {
    // A table of cities whose coordinates are formatted 0.00"°" and prices #,##0.00" €", with a
    // column of plain decimals whose trailing zeros only the number format keeps.
    const rows: PrintedCell[][] = [
      [text('City'), text('Latitude'), text('Longitude'), text('Price'), text('Rate')],
      [text('Shanghai'), right('31.23°'), right('121.50°'), right('12.30 €'), right('0.00')],
      [text('São Paulo'), right('-23.53°'), right('-46.63°'), right('1,250.00 €'), right('12.30')],
      [text('Lagos'), right('6.45°'), right('3.47°'), right('9.99 €'), right('7.125')],
      [text('Tokyo'), right('35.67°'), right('139.80°'), right('0.50 €'), right('1.5')],
    ];
    const pdf = await printedSheet(rows);
    for (const mode of ['table', 'page'] as const) {
      const cells = await cellsOf(pdf, mode);
      expect(cells[0].map((c) => c.value)).toEqual(['City', 'Latitude', 'Longitude', 'Price', 'Rate']);
      expect(cells.slice(1).map((row) => row.slice(1).map((c) => c.value))).toEqual([
        [31.23, 121.5, 12.3, 0],
        [-23.53, -46.63, 1250, 12.3],
        [6.45, 3.47, 9.99, 7.125],
        [35.67, 139.8, 0.5, 1.5],
      ]);
      expect(cells[1].slice(1).map((c) => c.numFmt)).toEqual(['0.00"°"', '0.00"°"', '#,##0.00" €"', '0.00']);
      expect(cells[3][4].numFmt).toBe('0.000');
    }
  });

  test('parseCell: a symbol after the number is its format; two currency symbols are text', () => {
    expect(parseCell('-23.53°')).toEqual({ value: -23.53, numFmt: '0.00"°"' });
    expect(parseCell('90°')).toEqual({ value: 90, numFmt: '0"°"' });
    expect(parseCell('1,234 €')).toEqual({ value: 1234, numFmt: '#,##0" €"' });
    expect(parseCell('12.5%')).toEqual({ value: 0.125, numFmt: '0.0%' });
    expect(parseCell('$12.30')).toEqual({ value: 12.3, numFmt: '"$"#,##0.00' });
    expect(parseCell('12.30')).toEqual({ value: 12.3, numFmt: '0.00' });
    expect(parseCell('42')).toEqual({ value: 42 });
    expect(parseCell('$12 €').value).toBe('$12 €');
    expect(parseCell('12 kg').value).toBe('12 kg');
  });

  test('a comment printed over the sheet is no row of it: its text goes to the "Other text" sheet', async () => {
    // As LibreOffice prints a sheet whose comments are shown: the cells first, then each comment
    // as a filled box with a shadow, its author in bold and its text, between two rows. Before the
    // comment, a second block whose header cell is filled after the first block's text was drawn:
    // that fill is a cell's background, and the header stays a cell.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const row = (r: number, cells: string[]) =>
      cells.forEach((t, c) => {
        const x = /^\d+$/.test(t) ? 40 + (c + 1) * 80 - 1.4 - font.widthOfTextAtSize(t, 10) : 40 + c * 80 + 1.4;
        page.drawText(t, { x, y: 700 - r * 15, size: 10, font });
      });
    ['one', 'two', 'three', 'four', 'five'].forEach((word, r) => row(r, [String(r + 1), word]));
    page.drawRectangle({ x: 40, y: 700 - 7 * 15 - 4, width: 160, height: 15, color: rgb(0.8, 0.9, 1) });
    row(7, ['Gas', 'Oil']);
    row(8, ['10', '20']);
    row(9, ['30', '40']);
    page.drawRectangle({ x: 203, y: 664, width: 100, height: 40, color: rgb(0, 0, 0) });
    page.drawRectangle({ x: 200, y: 667, width: 100, height: 40, color: rgb(1, 1, 0.88) });
    page.drawText('Yegor Kozlov:', { x: 203, y: 694, size: 10, font: bold });
    page.drawText('third cell', { x: 203, y: 684, size: 8, font });
    const pdf = await doc.save();
    for (const mode of ['table', 'page'] as const) {
      const result = await run([{ name: 'sheet.pdf', bytes: pdf }], { sheets: mode }, {});
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(result.bytes.buffer.slice(0) as ArrayBuffer);
      const values = (name: string) => {
        const rows: unknown[][] = [];
        book.getWorksheet(name)?.eachRow((r, n) => (rows[n - 1] = (r.values as unknown[]).slice(1)));
        return rows;
      };
      const sheets = book.worksheets.map((sheet) => sheet.name);
      expect(sheets.at(-1)).toBe('Other text');
      expect(values(sheets[0]).slice(0, 5)).toEqual([
        [1, 'one'],
        [2, 'two'],
        [3, 'three'],
        [4, 'four'],
        [5, 'five'],
      ]);
      const cells = sheets.slice(0, -1).flatMap((name) => values(name).flat());
      expect(cells).toEqual(expect.arrayContaining(['Gas', 'Oil', 10, 20, 30, 40]));
      expect(cells).not.toContain('Yegor Kozlov:');
      expect(cells).not.toContain('third cell');
      expect(values('Other text')).toEqual([['Page 1'], ['Yegor Kozlov:'], ['third cell']]);
    }
  });

  test("a currency symbol drawn as its own string before the number stays in the number's cell", async () => {
    // LibreOffice draws a symbol from another font ("￥" in a CJK font) as a string of its own,
    // touching the number; the numbers of one width start at one x in every row, as a column does.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const rows = [
      ['Rent', '100.00'],
      ['Food', '250.00'],
      ['Fuel', '975.50'],
      ['Books', '120.25'],
    ];
    rows.forEach(([label, amount], r) => {
      const y = 700 - r * 15;
      page.drawText(label, { x: 41.4, y, size: 10, font });
      const end = 200 - 1.4;
      const start = end - font.widthOfTextAtSize(amount, 10);
      page.drawText('$', { x: start - font.widthOfTextAtSize('$', 10), y, size: 10, font });
      page.drawText(amount, { x: start, y, size: 10, font });
    });
    const pdf = await doc.save();
    for (const mode of ['table', 'page'] as const) {
      const cells = await cellsOf(pdf, mode);
      expect(cells.map((row) => row.map((c) => c?.value))).toEqual([
        ['Rent', 100],
        ['Food', 250],
        ['Fuel', 975.5],
        ['Books', 120.25],
      ]);
      expect(cells[0][1].numFmt).toBe('"$"#,##0.00');
    }
  });

  test("an accounting format's currency symbol at the cell's left edge is the number's, not a cell", async () => {
    // LibreOffice prints an accounting format's "$" at the cell's left edge and the number at its
    // right edge, far apart: one cell, not a column of "$" and one of numbers.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const rows = [
      ['Rent', '100.00', 'paid'],
      ['Food', '2,250.00', 'due'],
      ['Fuel', '75.50', 'paid'],
      ['Books', '120.25', 'due'],
    ];
    rows.forEach(([label, amount, state], r) => {
      const y = 700 - r * 15;
      page.drawText(label, { x: 41.4, y, size: 10, font });
      page.drawText('$', { x: 121.4, y, size: 10, font });
      page.drawText(amount, { x: 200 - 1.4 - font.widthOfTextAtSize(amount, 10), y, size: 10, font });
      page.drawText(state, { x: 201.4, y, size: 10, font });
    });
    const pdf = await doc.save();
    for (const mode of ['table', 'page'] as const) {
      const cells = await cellsOf(pdf, mode);
      expect(cells.map((row) => row.map((c) => c?.value))).toEqual([
        ['Rent', 100, 'paid'],
        ['Food', 2250, 'due'],
        ['Fuel', 75.5, 'paid'],
        ['Books', 120.25, 'due'],
      ]);
      expect(cells[1][1].numFmt).toBe('"$"#,##0.00');
    }
  });

  test("a rich text's runs stay one cell: a run where another row's run starts, a monospaced word space", async () => {
    // LibreOffice draws each run of a rich-text cell as its own string, the next starting exactly
    // where the one before ended: two rows whose "hello" is underlined or coloured both start their
    // ", xssf" run at one x, as a column's cells would. A run in Courier ("over the lazy") draws
    // its word spaces as glyphs 0.6 em wide, as wide as a gap between two cells.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const courier = await doc.embedFont(StandardFonts.Courier);
    // LibreOffice's 11 pt is 10.998 pt: its Courier word space then measures a hair over 0.6 em.
    const size = 10.998;
    const y = (r: number) => 700 - r * 15;
    const runs = (r: number, x: number, parts: Array<[string, typeof font, number?]>) => {
      for (const [text, runFont, color = 0] of parts) {
        page.drawText(text, { x, y: y(r), size, font: runFont, color: rgb(color, 0, 0) });
        x += runFont.widthOfTextAtSize(text, size);
      }
    };
    ['Name', 'one', 'two', 'three', 'four'].forEach((name, r) => page.drawText(name, { x: 41.4, y: y(r), size, font }));
    page.drawText('Greeting', { x: 121.4, y: y(0), size, font });
    runs(1, 121.4, [
      ['hello', font, 0.8],
      [', xssf', font],
    ]);
    runs(2, 121.4, [
      ['hello', font, 0.5],
      [', xssf', font],
    ]);
    runs(3, 121.4, [['hello, xssf', font]]);
    runs(4, 121.4, [
      ['The ', font],
      ['over the lazy', courier],
      [' dog', font],
    ]);
    const pdf = await doc.save();
    for (const mode of ['table', 'page'] as const) {
      const cells = await cellsOf(pdf, mode);
      expect(cells.map((row) => row.map((c) => c?.value))).toEqual([
        ['Name', 'Greeting'],
        ['one', 'hello, xssf'],
        ['two', 'hello, xssf'],
        ['three', 'hello, xssf'],
        ['four', 'The over the lazy dog'],
      ]);
    }
  });

  test('parseCell: a time of day is a time; a number printed with leading zeros stays text', () => {
    // "13:20:01" and "0:00" are times (a spreadsheet's day 0, 30 Dec 1899, at that time); elapsed
    // times past a day or with fractions ("75:23:53.376") stay as printed. Leading zeros only a
    // text keeps: the expected results a workbook types as text ("012.30", "0,000", "£012.30").
    expect(parseCell('13:20:01')).toEqual({ value: new Date(Date.UTC(1899, 11, 30, 13, 20, 1)), numFmt: 'hh:mm:ss' });
    expect(parseCell('0:00')).toEqual({ value: new Date(Date.UTC(1899, 11, 30)), numFmt: 'h:mm' });
    expect(parseCell('75:23:53.376').value).toBe('75:23:53.376');
    expect(parseCell('24:00').value).toBe('24:00');
    for (const t of ['012.30', '00.000', '0,000', '£012.30', '$000,314,159', '01,234,567'])
      expect(parseCell(t).value).toBe(t);
    expect(parseCell('0.5').value).toBe(0.5);
    expect(parseCell('$0.99').value).toBe(0.99);
    expect(parseCell('(0.50)').value).toBe(-0.5);
    expect(parseCell('0').value).toBe(0);
  });

  test('parseCell: scientific notation, a full-width yen, a long date with its weekday', () => {
    expect(parseCell('1.03E+08')).toEqual({ value: 103000000, numFmt: '0.00E+00' });
    expect(parseCell('-2.5E-03')).toEqual({ value: -0.0025, numFmt: '0.0E+00' });
    expect(parseCell('￥100.00')).toEqual({ value: 100, numFmt: '"￥"#,##0.00' });
    expect(parseCell('Sunday, March 21, 2010')).toEqual({
      value: new Date(Date.UTC(2010, 2, 21)),
      numFmt: 'dddd, mmmm d, yyyy',
    });
    expect(parseCell('Monday, March 21, 2010').value).toBe('Monday, March 21, 2010');
    expect(parseCell('E+08').value).toBe('E+08');
  });
});

describe("the office-export bench's cell scorer: values a printout shows alike", () => {
  test('a number typed as text counts when it came back as that number, and votes as one', () => {
    expect(sameCell(1234567, '1,234,567')).toBe(true);
    expect(sameCell(7384, '7384.000')).toBe(true);
    expect(sameCell(-12.3, '-12.3')).toBe(true);
    expect(sameCell(12.34, '12.3')).toBe(false);
    expect(sameCell(0, '00.000')).toBe(false);
    expect(sameCell(7, '007')).toBe(false);
    expect(sameCell('1,234,567', 1234567)).toBe(true);
    // A sheet whose "expected" column is text and whose values are numbers, read back as numbers
    // one row and one column further (a printout's row and column headings).
    const source = [
      ['Result', 'Value'],
      ['1,234,567', 1234567],
      ['12.30', 12.3],
      ['0.000', 0],
    ];
    const folio = [
      [null, 'A', 'B'],
      [1, 'Result', 'Value'],
      [2, 1234567, 1234567],
      [3, 12.3, 12.3],
      [4, 0, 0],
    ];
    expect(bestOffsetMatchRate(source, [folio])).toBe(1);
  });

  test('a date typed as text with its month name counts when it came back as that day', () => {
    expect(sameCell(new Date(Date.UTC(2016, 2, 9)), '09 Mar 2016')).toBe(true);
    expect(sameCell(new Date(Date.UTC(2016, 2, 9)), 'March 9, 2016')).toBe(true);
    expect(sameCell(new Date(Date.UTC(2016, 2, 10)), '09 Mar 2016')).toBe(false);
  });

  test('a logical value counts as printed only where the page prints TRUE or FALSE', () => {
    // A number format prints FALSE as 0: no converter can bring back a logical value from it.
    expect(printedOnPage(false, 'datum0et')).toBe(false);
    expect(printedOnPage(true, 'flagtrue')).toBe(true);
    expect(printedOnPage('Run only', 'flagrunonlytests')).toBe(true);
    expect(printedOnPage(12.5, 'total12,5')).toBe(true);
    expect(printedOnPage({ formula: 'A1' }, 'a1')).toBe(false);
  });

  test('a number its format prints as nothing does not count as printed', () => {
    // "#" prints a zero as an empty cell: the page shows no 0 there, whatever else prints 0.
    expect(printedOnPage(0, 'debit200credit0', '#')).toBe(false);
    expect(printedOnPage(0, 'debit200credit0', '0;-0;;@')).toBe(false);
    expect(printedOnPage(200, 'debit200credit0', '#')).toBe(true);
    expect(printedOnPage(0, 'debit200credit0', '0.00')).toBe(true);
  });

  test('a date counts as printed only where the page shows it, when the page prints "###" for some', () => {
    // LibreOffice prints "###" for a date too wide for its column: nothing of the date is on the
    // page, so no converter can bring it back. Where the page has no "###", every date counts.
    const day = new Date(Date.UTC(2014, 4, 29));
    const time = new Date(Date.UTC(1899, 11, 30, 13, 20, 1));
    expect(printedOnPage(day, '54aaaaa4bbbb###')).toBe(false);
    expect(printedOnPage(day, '54aaaaa4bbbb', 'mm-dd-yy')).toBe(true);
    expect(printedOnPage(day, 'due5/29/2014###', 'mm-dd-yy')).toBe(true);
    expect(printedOnPage(day, 'due29may2014###', 'd mmm yyyy')).toBe(true);
    expect(printedOnPage(day, 'due29.05.2014###')).toBe(true);
    expect(printedOnPage(time, 'start13:20:01###', 'h:mm:ss')).toBe(true);
    expect(printedOnPage(time, 'start###', 'h:mm:ss')).toBe(false);
  });

  test("a printed sheet's grid keeps its empty rows and cells when hidden ones are taken out", () => {
    const sheet = new ExcelJS.Workbook().addWorksheet('S');
    sheet.getCell('A1').value = 'Title';
    sheet.getCell('A3').value = 'Name';
    sheet.getCell('C3').value = 'Total';
    sheet.getCell('A4').value = 'hidden row';
    sheet.getRow(4).hidden = true;
    sheet.getCell('A5').value = 'Ann';
    sheet.getCell('B5').value = 'hidden column';
    sheet.getColumn(2).hidden = true;
    sheet.getCell('C5').value = 12;
    const printed = withoutHidden(
      sheetGrid(sheet),
      (r) => Boolean(sheet.getRow(r + 1).hidden),
      (c) => Boolean(sheet.getColumn(c + 1).hidden),
    );
    expect(printed.map((row) => row.map((v) => v ?? null))).toEqual([['Title'], [], ['Name', 'Total'], ['Ann', 12]]);
  });
});
