/**
 * The page tools through their modal in Chromium (issue #3): a real generated PDF picked with the
 * file input, Process Files, the download parsed (pages, order, rotation); cancel; the password
 * prompt. Fixtures are made in Node with pdf-lib (tests/unit/page-fixtures.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import JSZip from 'jszip';
import { launchBrowser, openPage, screenshot } from './harness.ts';
import { encrypt, labelledPdf, pageLabels, pageRotations } from '../unit/page-fixtures.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Upload = { name: string; mimeType: string; buffer: Buffer };
const pdf = (name: string, bytes: Uint8Array): Upload => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) });

async function openTool(toolId: string, width = 1280) {
  const watched = await openPage(browser, `/tools/${toolId}`, { width });
  await watched.page.getByRole('button', { name: 'Upload Files' }).first().click();
  await watched.page.getByRole('dialog').waitFor();
  return watched;
}

/** Clicks Process Files and returns the downloaded file's name and bytes. */
async function processAndDownload(page: Page): Promise<{ name: string; bytes: Uint8Array }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByRole('button', { name: 'Process Files', exact: true }).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: new Uint8Array(readFileSync(path)) };
}

describe('merge-pdf', () => {
  test('merges three files in the chosen order with per-file pages; result panel; start over', async () => {
    const { page, context, errors } = await openTool('merge-pdf');
    const input = page.locator('input[type=file]');
    await expect.poll(() => page.getByText('Click to select files').count()).toBe(1);
    await input.setInputFiles([pdf('b.pdf', await labelledPdf('B', 2)), pdf('a.pdf', await labelledPdf('A', 3)), pdf('c.pdf', await labelledPdf('C', 1))]);
    await expect.poll(() => page.getByText('3 files selected').count()).toBe(1);
    await page.getByRole('button', { name: 'Sort by name' }).click();
    // c.pdf up one place: a, c, b
    await page.getByRole('button', { name: 'Move up: c.pdf' }).click();
    await page.getByLabel('Pages of a.pdf').fill('3,1');
    await screenshot(page, 'merge-pdf-ready-1280');
    const { name, bytes } = await processAndDownload(page);
    expect(name).toBe('merged.pdf');
    expect(await pageLabels(bytes)).toEqual(['A3', 'A1', 'C1', 'B1', 'B2']);
    await expect.poll(() => page.getByRole('status').textContent()).toContain('merged.pdf');
    await screenshot(page, 'merge-pdf-done-1280');
    await page.getByRole('button', { name: 'Start over' }).click();
    await expect.poll(() => page.getByText('Click to select files').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('rejects a non-PDF by name, and asks for the password of an encrypted input', async () => {
    const { page, context } = await openTool('merge-pdf', 390);
    const input = page.locator('input[type=file]');
    await input.setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }]);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('"notes.txt" is not one of the accepted file types');
    const secret = await encrypt(await labelledPdf('S', 2), 'open-sesame');
    await input.setInputFiles([pdf('plain.pdf', await labelledPdf('P', 1)), pdf('secret.pdf', secret)]);
    // The prompt appears on pick (tests/e2e/tool-window.test.ts); a wrong password still reaches the engine.
    await page.getByLabel('PDF password').fill('wrong');
    await page.getByRole('button', { name: 'Process Files', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^Invalid Password/);
    await screenshot(page, 'merge-pdf-password-390');
    await page.getByLabel('PDF password').fill('open-sesame');
    const { bytes } = await processAndDownload(page);
    expect(await pageLabels(bytes)).toEqual(['P1', 'S1', 'S2']);
    await context.close();
  });
});

describe('split-pdf', () => {
  test('by ranges gives <name>-split.zip with one PDF per range, named after the input', async () => {
    const { page, context } = await openTool('split-pdf');
    await page.locator('input[type=file]').setInputFiles([pdf('Book.pdf', await labelledPdf('A', 6))]);
    await expect.poll(() => page.getByText('1 file selected').count()).toBe(1);
    await page.getByLabel('Split', { exact: true }).selectOption('ranges');
    await page.getByLabel('Ranges').fill('1-2, 9');
    await expect.poll(() => page.getByRole('button', { name: 'Process Files', exact: true }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Process Files', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Page 9 does not exist: the document has 6 pages');
    await page.getByLabel('Ranges').fill('1-2, 5, 6-');
    await screenshot(page, 'split-pdf-ranges-1280');
    const { name, bytes } = await processAndDownload(page);
    expect(name).toBe('Book-split.zip');
    const zip = await JSZip.loadAsync(bytes);
    expect(Object.keys(zip.files).sort()).toEqual(['Book-page-5.pdf', 'Book-page-6.pdf', 'Book-pages-1-2.pdf']);
    expect(await pageLabels(await zip.files['Book-pages-1-2.pdf'].async('uint8array'))).toEqual(['A1', 'A2']);
    await context.close();
  });

  test('Cancel stops the job and terminates its worker', async () => {
    const { page, context } = await openTool('split-pdf');
    await page.locator('input[type=file]').setInputFiles([pdf('big.pdf', await labelledPdf('A', 1500))]);
    // The engine worker may already be running (a tool that warms up when it opens) or start now.
    const engineWorker = new Promise<void>((resolve) => {
      const watch = (worker: import('playwright-core').Worker) => {
        if (worker.url().includes('engine.worker')) worker.on('close', () => resolve());
      };
      page.workers().forEach(watch);
      page.on('worker', watch);
    });
    let downloaded = false;
    page.on('download', () => (downloaded = true));
    await page.getByRole('button', { name: 'Process Files', exact: true }).click();
    await expect.poll(() => page.locator('progress').count()).toBe(1);
    await expect.poll(() => page.locator('progress').getAttribute('aria-valuetext'), { timeout: 30_000 }).toMatch(/Page \d+ of 1500/);
    await screenshot(page, 'split-pdf-progress-1280');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Cancelled');
    await engineWorker; // the worker is terminated, not left running
    expect(await page.getByRole('button', { name: 'Process Files', exact: true }).isEnabled()).toBe(true);
    expect(downloaded).toBe(false);
    await context.close();
  });
});

describe('rotate-pdf', () => {
  test('rotates the pages clicked in the thumbnails, relative to their rotation', async () => {
    const { page, context } = await openTool('rotate-pdf');
    await page.locator('input[type=file]').setInputFiles([pdf('scan.pdf', await labelledPdf('A', 4, { rotations: [0, 90, 0, 0] }))]);
    await page.getByRole('button', { name: /^Page 2/ }).waitFor();
    await page.getByRole('button', { name: /^Page 2/ }).click();
    await page.getByRole('button', { name: /^Page 4/ }).click();
    await page.getByLabel('Rotation').selectOption('180');
    await expect.poll(() => page.getByLabel('Pages to rotate', { exact: true }).inputValue()).toBe('2, 4');
    await expect.poll(() => page.locator('.page-tile img').count(), { timeout: 20_000 }).toBe(4);
    await screenshot(page, 'rotate-pdf-thumbnails-1280');
    const { name, bytes } = await processAndDownload(page);
    expect(name).toBe('scan-rotated.pdf');
    expect(await pageRotations(bytes)).toEqual([0, 270, 0, 180]);
    await context.close();
  });
});

describe('organize-pdf', () => {
  test('reorders by drag, deletes, duplicates, rotates and inserts a blank page', async () => {
    const { page, context } = await openTool('organize-pdf', 390);
    await page.locator('input[type=file]').setInputFiles([pdf('deck.pdf', await labelledPdf('A', 4))]);
    const tile = (n: number) => page.getByRole('button', { name: new RegExp(`^Page ${n}`) });
    await tile(4).waitFor();
    await tile(3).dragTo(tile(1)); // 3,1,2,4
    await tile(4).click();
    await page.getByRole('button', { name: 'Delete' }).click(); // 3,1,2
    await tile(2).click();
    await page.getByRole('button', { name: 'Duplicate' }).click(); // 3,1,2,2
    await page.getByRole('button', { name: 'Select none' }).click();
    await tile(1).click();
    await page.getByRole('button', { name: 'Right' }).click(); // 1 rotated 90
    await page.getByRole('button', { name: 'Insert blank page' }).click(); // blank after 1
    await expect.poll(() => page.getByText('Page order:').textContent()).toContain('3,1r90,blank,2,2');
    await screenshot(page, 'organize-pdf-board-390');
    const { name, bytes } = await processAndDownload(page);
    expect(name).toBe('deck-organized.pdf');
    expect(await pageLabels(bytes)).toEqual(['A3', 'A1', '', 'A2', 'A2']);
    expect(await pageRotations(bytes)).toEqual([0, 90, 90, 0, 0]);
    await context.close();
  });
});
