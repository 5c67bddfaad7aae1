/**
 * Classes of text that Folio printed differently from LibreOffice on the wide corpus, each
 * reproduced with a generated workbook; the expected text is what LibreOffice 7.4 (en-US) prints
 * for the same workbook (`soffice --headless --convert-to pdf`, then `pdftotext`).
 */
import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { convert, texts } from '../support/office-pdf-helpers.ts';
import { popplerWords } from '../support/pdf.ts';

describe('Excel cell text as LibreOffice prints it', () => {
  test('formulas whose cached result is 0, FALSE or "" print it (exceljs leaves those results out)', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Formulas');
    ws.getCell('A1').value = 'zero';
    ws.getCell('B1').value = { formula: 'C1*0', result: 0 };
    ws.getCell('A2').value = 'false';
    ws.getCell('B2').value = { formula: '1=2', result: false };
    ws.getCell('A3').value = 'empty';
    ws.getCell('B3').value = { formula: 'LEFT("x",0)', result: '' };
    ws.getCell('A4').value = 'shared';
    ws.getCell('B4').value = { formula: 'C4*0', result: 0, shareType: 'shared', ref: 'B4:B5' } as ExcelJS.CellValue;
    ws.getCell('B5').value = { sharedFormula: 'B4', result: 0 };
    ws.getCell('A5').value = 'end';
    const pages = await texts(await convert(excelToPdf, 'formulas.xlsx', await wb.xlsx.writeBuffer()));
    // LibreOffice: "zero 0 false FALSE empty shared 0 end 0" (it shows cached results; it does not recalculate).
    expect(pages).toEqual(['zero 0 false FALSE empty shared 0 end 0']);
  });

  test("the built-in date formats 14 and 22 print as LibreOffice's en-US short date (1/13/2012), not 01-13-12", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Dates');
    ws.getColumn(1).width = 20;
    const when = new Date(Date.UTC(2012, 0, 13, 22, 59));
    // exceljs writes these codes as numFmtId 14, 15 and 22 (no custom numFmt element).
    ['mm-dd-yy', 'd-mmm-yy', 'm/d/yy "h":mm'].forEach((numFmt, i) => {
      const cell = ws.getCell(i + 1, 1);
      cell.value = when;
      cell.numFmt = numFmt;
    });
    const pages = await texts(await convert(excelToPdf, 'dates.xlsx', await wb.xlsx.writeBuffer()));
    // LibreOffice: "1/13/2012", "13-Jan-12", "1/13/2012 22:59".
    expect(pages).toEqual(['1/13/2012 13-Jan-12 1/13/2012 22:59']);
  });

  test('formats with escaped literals (exceljs drops the backslashes) still format: T, Kč, г., 年', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Formats');
    ws.getColumn(1).width = 24;
    const when = new Date(Date.UTC(2012, 7, 8, 22, 59));
    const cells: Array<[ExcelJS.CellValue, string]> = [
      [when, 'yyyy\\-mm\\-dd\\Thh:mm'],
      [1234.5, '#,##0.00\\ \\K\\č'],
      [when, 'yyyy"年"m"月"d"日"'],
      [when, 'd\\.m\\.yyyy\\ \\г\\.'],
    ];
    cells.forEach(([value, numFmt], i) => {
      ws.getCell(i + 1, 1).value = value;
      ws.getCell(i + 1, 1).numFmt = numFmt;
    });
    const pages = await texts(await convert(excelToPdf, 'literals.xlsx', await wb.xlsx.writeBuffer()));
    // LibreOffice: "2012-08-08T22:59", "1,234.50 Kč", "2012年8月8日", "8.8.2012 г.".
    expect(pages).toEqual(['2012-08-08T22:59 1,234.50 Kč 2012年8月8日 8.8.2012 г.']);
  });

  test('numbers round as their 15 significant digits read (1.005 in "0.00" is 1.01), as Excel and LibreOffice', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Rounding');
    [1.005, 1.004, 2.675, 0.1 + 0.2].forEach((value, i) => {
      ws.getCell(i + 1, 1).value = value;
      ws.getCell(i + 1, 1).numFmt = i < 3 ? '0.00' : 'General';
    });
    const pages = await texts(await convert(excelToPdf, 'rounding.xlsx', await wb.xlsx.writeBuffer()));
    // LibreOffice: 1.01, 1.00, 2.68, 0.3 (the binary values are 1.00499…, 2.67499…, 0.30000000000000004).
    expect(pages).toEqual(['1.01 1.00 2.68 0.3']);
  });

  test('characters written as _xHHHH_ escapes print as LibreOffice prints them', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Escapes');
    ws.getColumn(1).width = 30;
    ws.getCell('A1').value = 'Text_x000d_Test';
    ws.getCell('A2').value = 'Tab_x0009_here';
    ws.getCell('A3').value = 'Capitals_x000D_Decoded';
    ws.getCell('A4').value = { richText: [{ text: 'Rich_x000d_' }, { text: 'text', font: { bold: true } }] };
    const pages = await texts(await convert(excelToPdf, 'escapes.xlsx', await wb.xlsx.writeBuffer()));
    // LibreOffice: "TextTest" (a carriage return shows nothing), "Tabhere", "CapitalsDecoded"; in rich text
    // it breaks the line at the carriage return ("Rich" / "text"), which Folio does not.
    expect(pages).toEqual(['TextTest Tabhere CapitalsDecoded Richtext']);
  });

  test('text cut off by a filled neighbour prints only the characters that can be seen', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Clipped');
    [1, 2, 3].forEach((c) => (ws.getColumn(c).width = 10));
    ws.getCell('A1').value = 'Justin VanDervort';
    ws.getCell('B1').value = 'Bob';
    ws.getCell('A2').value = 'Company Co.';
    ws.getCell('B2').value = 'St Peters';
    ws.getCell('B3').value = 'left';
    ws.getCell('C3').value = 'Reconciliation';
    ws.getCell('C3').alignment = { horizontal: 'right' };
    ws.getCell('A4').value = 'Runs on past empty cells';
    const result = await convert(excelToPdf, 'clipped.xlsx', await wb.xlsx.writeBuffer());
    // LibreOffice: "Justin VanDe|Bob", "Company Co|St Peters", "left", "conciliation" (right-aligned: cut
    // at the left; Folio keeps the "e" whose end is still in the cell), and the last row whole: its
    // neighbours are empty. The hidden characters were in Folio's PDF under a clip, where text
    // extraction, search and copy still found them. (No space where a cut text meets its neighbour.)
    const [page, ...more] = await texts(result);
    expect(more).toEqual([]);
    expect(page).toMatch(/^Justin VanDe ?Bob Company Co ?St Peters left e?conciliation Runs on past empty cells$/);
  });

  test('a number or date too wide for its column prints as "###" whatever the width, as LibreOffice prints it', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Hashes');
    [6, 20, 2].forEach((width, i) => (ws.getColumn(i + 1).width = width));
    const cells: Array<[string, ExcelJS.CellValue, string?]> = [
      ['A1', 1234567.5, '#,##0.00'],
      ['B1', 'wide'],
      ['A2', new Date(Date.UTC(2015, 11, 15)), 'm/d/yyyy h:mm'],
      ['B2', 1e19, '#,##0.00'],
      ['C3', 12345, '0.00'],
      ['D3', 'end'],
    ];
    for (const [address, value, numFmt] of cells) {
      ws.getCell(address).value = value;
      if (numFmt) ws.getCell(address).numFmt = numFmt;
    }
    const pages = await texts(await convert(excelToPdf, 'hashes.xlsx', await wb.xlsx.writeBuffer()));
    // LibreOffice: "### wide", "### ###" (the second in a 20-character column), "### end" (in a column
    // narrower than "###"). Excel fills the column with "#" instead.
    expect(pages).toEqual(['### wide ### ### ### end']);
  });

  test('errors and TRUE / FALSE, also as formula results, align right under "General", as LibreOffice prints them', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Errors');
    ws.getColumn(1).width = 30;
    ws.getCell('A1').value = { error: '#N/A' } as ExcelJS.CellErrorValue;
    ws.getCell('A2').value = { formula: 'VLOOKUP("x",D:E,2,FALSE)', result: { error: '#N/A' } } as ExcelJS.CellValue;
    ws.getCell('A3').value = { formula: '1=1', result: true } as ExcelJS.CellValue;
    ws.getCell('A4').value = true;
    ws.getCell('A5').value = 'text';
    ws.getCell('A6').value = 5;
    const result = await convert(excelToPdf, 'errors.xlsx', await wb.xlsx.writeBuffer());
    // LibreOffice ends "#N/A", "#N/A", "TRUE", "TRUE" and 5 at the column's right edge (Excel centres
    // the first four); "text" starts at its left edge.
    const words = popplerWords(result.bytes);
    const right = words.find((w) => w.text === '5')!.xMax;
    const left = words.find((w) => w.text === 'text')!.xMin;
    const ends = words.filter((w) => w.text === '#N/A' || w.text === 'TRUE').map((w) => w.xMax);
    expect(ends).toHaveLength(4);
    for (const end of ends) expect(Math.abs(end - right)).toBeLessThan(1);
    expect(right - left).toBeGreaterThan(100);
  });
});
