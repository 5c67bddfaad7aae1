/**
 * Layout work grows linearly with cells, merges and rows: a sheet of 5,000 merged ranges (whose
 * reading was quadratic in exceljs) and a 10,000-row sheet convert completely, with every row on
 * its page and progress reported along the way. (Speed is measured by the bench, not asserted.)
 */
import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { texts } from '../support/office-pdf-helpers.ts';

/** Letter portrait (no paper size given) with Excel's default margins (0.75 in top and bottom), rows of 15 pt. */
const ROWS_PER_PAGE = Math.floor((792 - 2 * 0.75 * 72) / 15);

async function convertWithProgress(bytes: ArrayBuffer) {
  const reports: number[] = [];
  const statuses: string[] = [];
  const result = await excelToPdf(
    [{ name: 'big.xlsx', bytes: new Uint8Array(bytes) }],
    {},
    {
      progress: (done, _total, status) => {
        reports.push(done);
        if (status) statuses.push(status);
      },
    },
  );
  return { result, reports, statuses };
}

describe('large sheets', () => {
  test('5,000 merged ranges', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Merged');
    for (let i = 0; i < 5000; i++) {
      const r = 2 * i + 1;
      ws.getCell(r, 1).value = `Item ${i + 1}`;
      ws.mergeCells(r, 1, r + 1, 3);
      ws.getCell(r, 4).value = i + 1;
    }
    const { result, reports } = await convertWithProgress(await wb.xlsx.writeBuffer());
    const pages = await texts(result);
    expect(pages.length).toBe(Math.ceil(10_000 / ROWS_PER_PAGE));
    const items = pages.join(' ').match(/Item \d+/g) ?? [];
    expect(items.length).toBe(5000);
    expect(new Set(items).size).toBe(5000);
    expect(pages[0]).toMatch(/^Item 1 1 Item 2 2/);
    expect(pages.at(-1)).toMatch(/Item 5000 5000$/);
    expect(reports.length).toBeGreaterThan(50);
  }, 300_000);

  test('10,000 rows', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Rows');
    for (let i = 0; i < 10_000; i++) ws.addRow([`Row ${i + 1}`, i + 1, (i + 1) * 2]);
    const { result, reports, statuses } = await convertWithProgress(await wb.xlsx.writeBuffer());
    const pages = await texts(result);
    expect(pages.length).toBe(Math.ceil(10_000 / ROWS_PER_PAGE));
    // Drawing the pages after layout reports too, every 20 pages.
    expect(statuses.filter((s) => s.startsWith('Drawing page')).length).toBe(Math.ceil(pages.length / 20));
    expect(statuses.at(-1)).toBe(`Drawing page ${20 * Math.floor((pages.length - 1) / 20) + 1} of ${pages.length}`);
    expect(pages[0].startsWith('Row 1 1 2 Row 2 2 4')).toBe(true);
    expect(pages[1].startsWith(`Row ${ROWS_PER_PAGE + 1} `)).toBe(true);
    expect(pages.at(-1)).toMatch(/Row 10000 10000 20000$/);
    expect(reports.length).toBeGreaterThan(50);
  }, 300_000);
});
