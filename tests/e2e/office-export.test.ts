/**
 * The office exports through their modals in Chromium: PDF to Word (the download parsed: heading,
 * table, reading order), PDF to Word with OCR of a scan (tesseract.js and its data served by Folio
 * itself — the request log proves nothing came from elsewhere), PDF to PowerPoint and PDF to Excel
 * (the worker's workbook cell for cell the same as the engine's in Node).
 * Screenshots at 1280 px (light) and 390 px (dark).
 */
import { beforeAll, describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { run as pdfToExcel } from '../../workers/engine/tools/pdf-to-excel.ts';
import { screenshot, baseUrl, downloadAfter, openToolModal, sharedBrowser } from './harness.ts';
import {
  buildReport,
  buildScannedPage,
  characterErrorRate,
  readDocx,
  readPptx,
  sheetGrid,
  wordSimilarity,
  type ReportFixture,
} from '../support/office-fixtures.ts';

const shared = sharedBrowser();
let report: ReportFixture;
beforeAll(async () => {
  report = await buildReport();
});

const openTool = (toolId: string, options?: { width?: number; theme?: 'light' | 'dark' }) =>
  openToolModal(shared.browser, toolId, options);

const download = downloadAfter;

const pdfFile = (name: string, bytes: Uint8Array) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from(bytes),
});

describe('office export in the browser', () => {
  test('pdf-to-word: report.docx with the heading, the table and the text in reading order', async () => {
    const { page, context, errors } = await openTool('pdf-to-word');
    const dialog = page.getByRole('dialog');
    await page.locator('input[type=file]').first().setInputFiles(pdfFile('report.pdf', report.bytes));
    await expect.poll(() => dialog.getByLabel('Recognise text in scanned pages').isVisible()).toBe(true);
    await screenshot(page, 'pdf-to-word-1280-light');
    const result = await download(page, () =>
      dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
    );
    expect(result.name).toBe('report.docx');
    const docx = await readDocx(result.bytes);
    expect(wordSimilarity(report.text, docx.text)).toBeGreaterThanOrEqual(0.98);
    expect(docx.paragraphs.find((p) => p.text === report.heading)?.style).toMatch(/Heading1/);
    expect(docx.tables.find((t) => t[0]?.[0] === 'Region')).toEqual(report.table);
    expect(docx.xml).toContain('<w:drawing>');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('pdf-to-word with OCR: the scan becomes text; OCR files come from our origin', async () => {
    const scan = await buildScannedPage();
    const { page, context, errors, requests } = await openTool('pdf-to-word', { width: 390, theme: 'dark' });
    const dialog = page.getByRole('dialog');
    await page.locator('input[type=file]').first().setInputFiles(pdfFile('scan.pdf', scan.bytes));
    await dialog.getByLabel('Recognise text in scanned pages').check();
    await screenshot(page, 'pdf-to-word-ocr-390-dark');
    const result = await download(
      page,
      () => dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
      110_000,
    );
    const docx = await readDocx(result.bytes);
    expect(characterErrorRate(scan.text, docx.text)).toBeLessThanOrEqual(0.03);
    const origin = new URL(baseUrl()).origin;
    expect(requests.filter((url) => /^https?:/.test(url) && !url.startsWith(origin))).toEqual([]);
    expect(requests.some((url) => url.includes('/engine-data/tesseract/lang/eng.traineddata.gz'))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  test('pdf-to-ppt: report.pptx with a slide per page', async () => {
    const { page, context, errors } = await openTool('pdf-to-ppt');
    const dialog = page.getByRole('dialog');
    await page.locator('input[type=file]').first().setInputFiles(pdfFile('report.pdf', report.bytes));
    const result = await download(page, () =>
      dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
    );
    expect(result.name).toBe('report.pptx');
    const pptx = await readPptx(result.bytes);
    expect(pptx.slides.length).toBe(report.pages);
    expect(pptx.slides[0]).toContain(report.heading);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('pdf-to-excel: report.xlsx with typed numbers', async () => {
    const { page, context, errors } = await openTool('pdf-to-excel');
    const dialog = page.getByRole('dialog');
    await page.locator('input[type=file]').first().setInputFiles(pdfFile('report.pdf', report.bytes));
    // The file's page count, not "Reading…", in the picture.
    await dialog.getByText(`${report.pages} pages`).waitFor();
    await screenshot(page, 'pdf-to-excel-1280-light');
    const result = await download(page, () =>
      dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
    );
    expect(result.name).toBe('report.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(
      result.bytes.buffer.slice(
        result.bytes.byteOffset,
        result.bytes.byteOffset + result.bytes.byteLength,
      ) as ArrayBuffer,
    );
    expect(book.worksheets[0].getCell(2, 3).value).toBe(4500);
    // The worker's workbook is the one the engine makes in Node, where the unit tests and the bench
    // judge its cells: every sheet, name and value alike (default options: one sheet per table).
    const inNode = new ExcelJS.Workbook();
    const nodeBytes = (await pdfToExcel([{ name: 'report.pdf', bytes: report.bytes }], {}, {})).bytes;
    await inNode.xlsx.load(
      nodeBytes.buffer.slice(nodeBytes.byteOffset, nodeBytes.byteOffset + nodeBytes.byteLength) as ArrayBuffer,
    );
    const sheets = (b: ExcelJS.Workbook) => b.worksheets.map((sheet) => [sheet.name, sheetGrid(sheet)]);
    expect(sheets(book)).toEqual(sheets(inNode));
    expect(book.worksheets.length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
