/**
 * Row and column headings printed with a sheet (`printOptions headings="1"`, exceljs's
 * `pageSetup.showRowColHeaders`). Generated workbooks printed by LibreOffice 7.4 (`soffice --headless
 * --convert-to pdf`, then `pdftotext -bbox`); the figures in the comments are LibreOffice's.
 */
import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerWordPages, type PopplerWord } from '../support/pdf.ts';

/** Columns of width 12 (66.9 pt), Letter between 0.7 in side and 0.75 in top and bottom margins, 15 pt rows. */
async function headedSheet(fill: (ws: ExcelJS.Worksheet) => void): Promise<PopplerWord[][]> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Headed');
  for (let c = 1; c <= 12; c++) ws.getColumn(c).width = 12;
  fill(ws);
  ws.pageSetup.showRowColHeaders = true;
  return popplerWordPages((await convert(excelToPdf, 'headed.xlsx', await wb.xlsx.writeBuffer())).bytes);
}

describe('Excel → PDF: row and column headings', () => {
  test('each page prints its column letters above and its row numbers beside the cells', async () => {
    const pages = await headedSheet((ws) => {
      for (let r = 1; r <= 100; r++) for (let c = 1; c <= 3; c++) ws.getCell(r, c).value = `R${r}C${c}`;
    });
    // LibreOffice: 3 pages of 44 rows (the 12.8 pt heading row takes the 45th's room), page 2 from row 45.
    // (Folio printed 3 pages of 45 rows without a heading.)
    expect(pages).toHaveLength(3);
    const at = (page: PopplerWord[], text: string) => page.find((w) => w.text === text);
    const [one, two] = pages;
    // "A" centred over column A (x 108.6, y 54.3), "1" centred in the 1 cm column (x 61.7, y 68.2), and the
    // cells start after it: R1C1 at x 79.7 (the margin 50.4 + 28.3 + LibreOffice's 1 pt before a cell's text).
    expect(at(one, 'A')?.xMin).toBeCloseTo(108.6, 0);
    expect(at(one, 'A')?.yMin).toBeCloseTo(54.3, 0);
    // (Folio's columns are about 0.4 pt wider than LibreOffice's: C's letter lands within 1.5 pt.)
    expect(Math.abs(at(one, 'C')!.xMin - 241.5)).toBeLessThan(1.5);
    expect(at(one, '1')?.xMin).toBeCloseTo(61.7, 0);
    expect(at(one, '1')?.yMin).toBeCloseTo(68.2, 0);
    expect(at(one, 'R1C1')!.xMin).toBeGreaterThan(78.7);
    expect(at(one, 'R1C1')!.xMin).toBeLessThan(82);
    expect(at(one, '44')).toBeDefined();
    expect(at(one, '45')).toBeUndefined();
    // Page 2: the letters again, then row 45 at the top (y 68.2).
    expect(at(two, 'A')?.yMin).toBeCloseTo(54.3, 0);
    expect(at(two, '45')?.yMin).toBeCloseTo(68.2, 0);
    expect(at(two, 'R45C1')).toBeDefined();
  });

  test('pages that print nothing are still left out, and a page of columns prints its own letters', async () => {
    const pages = await headedSheet((ws) => {
      for (let c = 1; c <= 12; c++) ws.getCell(1, c).value = `Col${c}`;
      for (let r = 2; r <= 100; r++) ws.getCell(r, 1).value = `Row${r}`;
      ws.getCell(200, 1).value = 'Last';
    });
    // LibreOffice: 5 pages, as without headings: A–G for rows 1–44, 45–88, 89–132 and 177–200 (133–176 print
    // nothing), then H–L for rows 1–44 only. (Folio kept all 10 pages when headings were printed.)
    expect(pages).toHaveLength(5);
    expect(pages[3].map((w) => w.text)).toEqual(expect.arrayContaining(['A', '177', 'Last']));
    expect(pages[4][0]).toBeDefined();
    expect(pages[4].map((w) => w.text)).toEqual(expect.arrayContaining(['H', 'L', '1', '44', 'Col8']));
    expect(pages[4].map((w) => w.text)).not.toContain('A');
  });
});
