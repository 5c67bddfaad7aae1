/**
 * Row and column headings printed with a sheet (`printOptions headings="1"`, exceljs's
 * `pageSetup.showRowColHeaders`). Generated workbooks printed by LibreOffice 7.4 (`soffice --headless
 * --convert-to pdf`, then `pdftotext -bbox`); the figures in the comments are LibreOffice's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerWordPages, type PopplerWord } from '../support/pdf.ts';
import { decodeImage, grey, pdftoppmPng } from '../support/images.ts';

/** Columns of width 12 (66.9 pt), Letter between 0.7 in side and 0.75 in top and bottom margins, 15 pt rows. */
async function headedPdf(fill: (ws: ExcelJS.Worksheet) => void): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Headed');
  for (let c = 1; c <= 12; c++) ws.getColumn(c).width = 12;
  fill(ws);
  ws.pageSetup.showRowColHeaders = true;
  return (await convert(excelToPdf, 'headed.xlsx', await wb.xlsx.writeBuffer())).bytes;
}

const headedSheet = async (fill: (ws: ExcelJS.Worksheet) => void): Promise<PopplerWord[][]> =>
  popplerWordPages(await headedPdf(fill));

/** Rules across a page drawn by pdftoppm at 144 dpi: [y, left x, right x] in points of each dark run ≥ `min` pt. */
async function horizontalRules(pdf: Uint8Array, page: number, min: number): Promise<[number, number, number][]> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-headings-'));
  try {
    writeFileSync(join(dir, 'sheet.pdf'), pdf);
    const raster = await decodeImage(pdftoppmPng(join(dir, 'sheet.pdf'), page, 144));
    const luma = grey(raster);
    const rules: [number, number, number][] = [];
    for (let y = 0; y < raster.height; y++) {
      let start = -1;
      for (let x = 0; x <= raster.width; x++) {
        const dark = x < raster.width && luma[y * raster.width + x] < 128;
        if (dark && start < 0) start = x;
        if (!dark && start >= 0) {
          if (x - start >= min * 2) rules.push([y / 2, start / 2, x / 2]);
          start = -1;
        }
      }
    }
    return rules;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

  test('the frame is closed at the foot of every page, not only the last', async () => {
    const pdf = await headedPdf((ws) => {
      for (let r = 1; r <= 100; r++) for (let c = 1; c <= 3; c++) ws.getCell(r, c).value = `R${r}C${c}`;
    });
    // LibreOffice (pdftoppm at 72 dpi): on pages 1 and 2 a rule at y 726 from x 50 to 279 (the heading
    // column and columns A–C) under row 44 and row 88, on page 3 at y 247 under row 100. (Folio drew the
    // last page's only: its pages 1 and 2 were open at the bottom.)
    for (const [page, y] of [
      [1, 726],
      [2, 726],
      [3, 247],
    ]) {
      const across = (await horizontalRules(pdf, page, 150)).filter(([, left, right]) => left < 51 && right > 278);
      expect(
        across.some(([at]) => Math.abs(at - y) < 1.5),
        `page ${page}: a rule across the table at y ${y} (rules: ${JSON.stringify(across)})`,
      ).toBe(true);
    }
  });
});
