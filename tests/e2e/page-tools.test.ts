/**
 * The page tools through their modal in Chromium (issue #3): a real generated PDF picked with the
 * file input, Process Files, the download judged against poppler's reading of the inputs (each
 * output page's pdftotext text equals its source page's; a rotated page draws, in pdftoppm, as the
 * source page's drawing turned); cancel; the password prompt. Fixtures are made in Node with pdf-lib
 * (tests/unit/page-fixtures.ts).
 */
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { openToolModal, processFiles, screenshot, pdfUpload, sharedBrowser } from './harness.ts';
import { encrypt, labelledPdf, pageLabels, pageRotations, pdfWithBigPicture } from '../support/page-fixtures.ts';
import { blockSsim, decodeImage, pdftoppmPng, pdftotext, type PdfPasswords, type Raster } from '../support/images.ts';

const shared = sharedBrowser('folio-page-tools-');

let scratchFiles = 0;
/** Writes PDF bytes to a file of their own for poppler's tools. */
function pdfFile(bytes: Uint8Array): string {
  const path = join(shared.scratch, `${++scratchFiles}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

/** Each page's text as poppler's pdftotext reads it (it ends every page with a form feed). */
function popplerPageTexts(bytes: Uint8Array, passwords?: PdfPasswords): string[] {
  return pdftotext(pdfFile(bytes), passwords)
    .split('\f')
    .slice(0, -1)
    .map((text) => text.trim());
}

/** One page (1-based) as poppler's pdftoppm draws it at 72 dpi. */
async function popplerPage(bytes: Uint8Array, page: number): Promise<Raster> {
  return decodeImage(pdftoppmPng(pdfFile(bytes), page, 72));
}

/** The raster turned clockwise by `quarterTurns` × 90°, as a reader shows a page whose /Rotate grows by that. */
function turnClockwise(raster: Raster, quarterTurns: number): Raster {
  let { width, height, data } = raster;
  for (let turn = 0; turn < ((quarterTurns % 4) + 4) % 4; turn++) {
    const turned = new Uint8ClampedArray(data.length);
    // The turned image is height wide; its pixel (x, y) comes from the source's (y, height - 1 - x).
    for (let y = 0; y < width; y++) {
      for (let x = 0; x < height; x++) {
        const from = ((height - 1 - x) * width + y) * 4;
        turned.set(data.subarray(from, from + 4), (y * height + x) * 4);
      }
    }
    [width, height, data] = [height, width, turned];
  }
  return { width, height, data };
}

/**
 * Checks that an output page draws as the source page turned clockwise by `quarterTurns`: the same
 * size (sides swapped on odd turns), block SSIM ≥ 0.9, and closer to that turn than to the half
 * turn from it, the other drawing of that size (a page of mostly white paper scores high against
 * almost anything, so the likeness alone would not tell a page upside down).
 */
function expectTurnedDrawing(output: Raster, source: Raster, quarterTurns: number): void {
  const expected = turnClockwise(source, quarterTurns);
  expect([output.width, output.height]).toEqual([expected.width, expected.height]);
  const likeness = blockSsim(output, expected);
  expect(likeness).toBeGreaterThanOrEqual(0.9);
  expect(likeness).toBeGreaterThan(blockSsim(output, turnClockwise(source, quarterTurns + 2)));
}

const pdf = pdfUpload;

const openTool = (toolId: string, width = 1280) => openToolModal(shared.browser, toolId, { width });

describe('merge-pdf', () => {
  test('merges three files in the chosen order with per-file pages; result panel; start over', async () => {
    const { page, context, errors } = await openTool('merge-pdf');
    const input = page.locator('input[type=file]');
    await expect.poll(() => page.getByText('Click to select files').count()).toBe(1);
    const [a, b, c] = [await labelledPdf('A', 3), await labelledPdf('B', 2), await labelledPdf('C', 1)];
    await input.setInputFiles([pdf('b.pdf', b), pdf('a.pdf', a), pdf('c.pdf', c)]);
    await expect.poll(() => page.getByText('3 files selected').count()).toBe(1);
    await page.getByRole('button', { name: 'Sort by name' }).click();
    // c.pdf up one place: a, c, b
    await page.getByRole('button', { name: 'Move up: c.pdf' }).click();
    await page.getByLabel('Pages of a.pdf').fill('3,1');
    await screenshot(page, 'merge-pdf-ready-1280');
    const { name, bytes } = await processFiles(page);
    expect(name).toBe('merged.pdf');
    expect(await pageLabels(bytes)).toEqual(['A3', 'A1', 'C1', 'B1', 'B2']);
    // Pages 3 and 1 of a, all of c, all of b: each output page reads as its source page in poppler.
    const [textsA, textsB, textsC] = [a, b, c].map((input) => popplerPageTexts(input));
    expect(popplerPageTexts(bytes)).toEqual([textsA[2], textsA[0], ...textsC, ...textsB]);
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
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('"notes.txt" is not one of the accepted file types');
    const secret = await encrypt(await labelledPdf('S', 2), 'open-sesame');
    const plain = await labelledPdf('P', 1);
    await input.setInputFiles([pdf('plain.pdf', plain), pdf('secret.pdf', secret)]);
    // The prompt appears on pick (tests/e2e/tool-window.test.ts); a wrong password still reaches the engine.
    await page.getByLabel('PDF password').fill('wrong');
    await page.getByRole('button', { name: 'Process Files', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^Invalid Password/);
    await screenshot(page, 'merge-pdf-password-390');
    await page.getByLabel('PDF password').fill('open-sesame');
    const { bytes } = await processFiles(page);
    expect(await pageLabels(bytes)).toEqual(['P1', 'S1', 'S2']);
    const secretTexts = popplerPageTexts(secret, { user: 'open-sesame' });
    expect(popplerPageTexts(bytes)).toEqual([...popplerPageTexts(plain), ...secretTexts]);
    await context.close();
  });
});

describe('split-pdf', () => {
  test('by ranges gives <name>-split.zip with one PDF per range, named after the input', async () => {
    const { page, context } = await openTool('split-pdf');
    const book = await labelledPdf('A', 6);
    await page.locator('input[type=file]').setInputFiles([pdf('Book.pdf', book)]);
    await expect.poll(() => page.getByText('1 file selected').count()).toBe(1);
    await page.getByLabel('Split', { exact: true }).selectOption('ranges');
    await page.getByLabel('Ranges').fill('1-2, 9');
    await expect.poll(() => page.getByRole('button', { name: 'Process Files', exact: true }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Process Files', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('Page 9 does not exist: the document has 6 pages');
    await page.getByLabel('Ranges').fill('1-2, 5, 6-');
    await screenshot(page, 'split-pdf-ranges-1280');
    const { name, bytes } = await processFiles(page);
    expect(name).toBe('Book-split.zip');
    const zip = await JSZip.loadAsync(bytes);
    expect(Object.keys(zip.files).sort()).toEqual(['Book-page-5.pdf', 'Book-page-6.pdf', 'Book-pages-1-2.pdf']);
    expect(await pageLabels(await zip.files['Book-pages-1-2.pdf'].async('uint8array'))).toEqual(['A1', 'A2']);
    // Each part holds exactly its range's pages: their number and, page by page, poppler's text.
    const bookTexts = popplerPageTexts(book);
    const parts: Record<string, number[]> = {
      'Book-pages-1-2.pdf': [1, 2],
      'Book-page-5.pdf': [5],
      'Book-page-6.pdf': [6],
    };
    for (const [partName, pages] of Object.entries(parts)) {
      const partTexts = popplerPageTexts(await zip.files[partName].async('uint8array'));
      expect(partTexts, partName).toEqual(pages.map((n) => bookTexts[n - 1]));
    }
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
    await expect
      .poll(() => page.locator('progress').getAttribute('aria-valuetext'), { timeout: 30_000 })
      .toMatch(/Page \d+ of 1500/);
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
    const scan = await labelledPdf('A', 4, { rotations: [0, 90, 0, 0] });
    await page.locator('input[type=file]').setInputFiles([pdf('scan.pdf', scan)]);
    await page.getByRole('button', { name: /^Page 2/ }).waitFor();
    await page.getByRole('button', { name: /^Page 2/ }).click();
    await page.getByRole('button', { name: /^Page 4/ }).click();
    await page.getByLabel('Rotation').selectOption('90');
    await expect.poll(() => page.getByLabel('Pages to rotate', { exact: true }).inputValue()).toBe('2, 4');
    await expect.poll(() => page.locator('.page-tile img').count(), { timeout: 20_000 }).toBe(4);
    // Each picture, turned or not, stays inside its thumbnail box (pixels beyond it, at most 1 for rounding).
    const beyondBox = () =>
      page.locator('.page-tile .thumb-box').evaluateAll((boxes) =>
        Math.max(
          ...boxes.map((box) => {
            const outer = box.getBoundingClientRect();
            const inner = box.querySelector('img')!.getBoundingClientRect();
            return Math.max(
              outer.left - inner.left,
              inner.right - outer.right,
              outer.top - inner.top,
              inner.bottom - outer.bottom,
            );
          }),
        ),
      );
    await expect.poll(beyondBox).toBeLessThanOrEqual(1);
    await screenshot(page, 'rotate-pdf-thumbnails-1280');
    const { name, bytes } = await processFiles(page);
    expect(name).toBe('scan-rotated.pdf');
    expect(await pageRotations(bytes)).toEqual([0, 180, 0, 90]);
    // As drawn by pdftoppm: pages 2 and 4 are the input's pages turned a quarter clockwise, 1 and 3 unchanged.
    const quarterTurns = [0, 1, 0, 1];
    for (let n = 1; n <= 4; n++)
      expectTurnedDrawing(await popplerPage(bytes, n), await popplerPage(scan, n), quarterTurns[n - 1]);
    expect(popplerPageTexts(bytes)).toEqual(popplerPageTexts(scan));
    await context.close();
  });

  test('a 20 MB file (pdf.js reads it by ranges for the thumbnails): its pages drawn like pdftoppm, then rotated', async () => {
    const { page, context, errors } = await openTool('rotate-pdf');
    const big = await pdfWithBigPicture(20_000_000);
    expect(big.byteLength).toBeGreaterThan(16 * 1024 * 1024); // engine.worker.ts RANGE_READ_ABOVE_BYTES
    await page.locator('input[type=file]').setInputFiles([pdf('big.pdf', big)]);
    await expect.poll(() => page.locator('.page-tile img').count(), { timeout: 30_000 }).toBe(3);
    const bigPath = pdfFile(big);
    const drawings: Raster[] = [];
    for (let n = 1; n <= 3; n++) {
      // The thumbnail as the page shows it, copied through a canvas (its blob: URL is the page's own).
      const png = await page
        .locator('.page-tile img')
        .nth(n - 1)
        .evaluate(async (img: HTMLImageElement) => {
          await img.decode();
          const canvas = Object.assign(document.createElement('canvas'), {
            width: img.naturalWidth,
            height: img.naturalHeight,
          });
          canvas.getContext('2d')!.drawImage(img, 0, 0);
          return canvas.toDataURL('image/png');
        });
      drawings.push(await decodeImage(new Uint8Array(Buffer.from(png.split(',')[1], 'base64'))));
    }
    for (let n = 1; n <= 3; n++) {
      const thumbnail = drawings[n - 1];
      const dpi = (72 * thumbnail.height) / 400; // labelledPdf's pages are 400 pt high
      const poppler = await decodeImage(pdftoppmPng(bigPath, n, dpi));
      const likeness = blockSsim(thumbnail, poppler);
      expect(likeness, `thumbnail of page ${n} vs pdftoppm`).toBeGreaterThanOrEqual(0.9);
      const other = await decodeImage(pdftoppmPng(bigPath, n === 3 ? 2 : 3, dpi));
      expect(blockSsim(thumbnail, other), `thumbnail of page ${n} vs another page`).toBeLessThan(likeness);
    }
    await page.getByRole('button', { name: /^Page 3/ }).click();
    await page.getByLabel('Rotation').selectOption('90');
    const { bytes } = await processFiles(page);
    expect(await pageRotations(bytes)).toEqual([0, 0, 90]);
    expect(popplerPageTexts(bytes)).toEqual(['A1', 'A2', 'A3']);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('organize-pdf', () => {
  test('reorders by drag, deletes, duplicates, rotates and inserts a blank page', async () => {
    const { page, context } = await openTool('organize-pdf', 390);
    const deck = await labelledPdf('A', 4);
    await page.locator('input[type=file]').setInputFiles([pdf('deck.pdf', deck)]);
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
    const { name, bytes } = await processFiles(page);
    expect(name).toBe('deck-organized.pdf');
    expect(await pageLabels(bytes)).toEqual(['A3', 'A1', '', 'A2', 'A2']);
    expect(await pageRotations(bytes)).toEqual([0, 90, 90, 0, 0]);
    // The requested order 3, 1 (turned), blank, 2, 2, read by poppler against the input's pages.
    const deckTexts = popplerPageTexts(deck);
    const order = [3, 1, 0, 2, 2];
    expect(popplerPageTexts(bytes)).toEqual(order.map((n) => (n ? deckTexts[n - 1] : '')));
    expectTurnedDrawing(await popplerPage(bytes, 2), await popplerPage(deck, 1), 1);
    for (const n of [1, 4, 5])
      expectTurnedDrawing(await popplerPage(bytes, n), await popplerPage(deck, order[n - 1]), 0);
    const blank = await popplerPage(bytes, 3);
    expect(blank.data.every((value) => value === 255)).toBe(true);
    await context.close();
  });
});
