/**
 * The worst hostile recipes of issue #21 in Chromium, through the tool modal: a PDF page whose
 * content stream inflates to 4 GB, a sheet reaching cell XFD1048576 and a CSV with a 10 MB line
 * (which crashed or hung the tab before). Each must end in the error line with a message for
 * people, the tab alive, and a small job in the same modal must then succeed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openToolModal, processFiles, type Upload } from './harness.ts';
import { contentBombPdf, hugeDimensionXlsx, longLineCsv, manyPagesPdf, manyRowsCsv } from '../support/hostile-recipes.ts';
import { INTERNAL_WORDING } from '../support/messages.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});


const openTool = (toolId: string) => openToolModal(browser, toolId);

/** Picks `file`, processes, and returns the error line's text once it shows one. */
async function processExpectingError(page: Page, file: Upload, previous = ''): Promise<string> {
  await page.locator('input[type=file]').setInputFiles([file]);
  await page.getByRole('button', { name: 'Process Files', exact: true }).click();
  const alert = page.locator('.error-line');
  await expect.poll(async () => {
    const text = (await alert.textContent())?.trim() ?? '';
    return text !== '' && text !== previous;
  }, { timeout: 90_000 }).toBe(true);
  return (await alert.textContent())!.trim();
}

/** After an error: start over with a small file and expect a download. */
async function smallJobWorks(page: Page, file: Upload): Promise<Uint8Array> {
  const remove = page.getByRole('button', { name: /^Remove/ });
  while ((await remove.count()) > 0) await remove.first().click();
  await page.locator('input[type=file]').setInputFiles([file]);
  return (await processFiles(page)).bytes;
}

describe('hostile inputs in Chromium', () => {
  test('PDF to JPG: a 4 GB content-stream bomb is refused; the tab lives and renders a small PDF next', async () => {
    const { page, context } = await openTool('pdf-to-jpg');
    const message = await processExpectingError(page, { name: 'bomb.pdf', mimeType: 'application/pdf', buffer: Buffer.from(contentBombPdf(4)) });
    expect(message).toMatch(/decompression bomb/);
    expect(message).not.toMatch(INTERNAL_WORDING);
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    const jpeg = await smallJobWorks(page, { name: 'small.pdf', mimeType: 'application/pdf', buffer: Buffer.from(manyPagesPdf(1)) });
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    await context.close();
  });

  test('Excel to PDF: a sheet reaching XFD1048576 and a CSV with a 10 MB line are refused; a small CSV converts next', async () => {
    const { page, context } = await openTool('excel-to-pdf');
    const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const sparse = await processExpectingError(page, { name: 'far.xlsx', mimeType: xlsxType, buffer: Buffer.from(await hugeDimensionXlsx(true)) });
    expect(sparse).toMatch(/too sparse to print/);
    const remove = page.getByRole('button', { name: /^Remove/ });
    while ((await remove.count()) > 0) await remove.first().click();
    const long = await processExpectingError(page, { name: 'long.csv', mimeType: 'text/csv', buffer: Buffer.from(longLineCsv(10e6)) }, sparse);
    expect(long).toMatch(/longer than 32,767 characters/);
    expect(long).not.toMatch(INTERNAL_WORDING);
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    const pdf = await smallJobWorks(page, { name: 'small.csv', mimeType: 'text/csv', buffer: Buffer.from(manyRowsCsv(20)) });
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    await context.close();
  });
});
