/**
 * pdf-to-jpg, jpg-to-pdf and add-watermark through their modals in Chromium, each download
 * checked: JPEG sizes for the dpi, zip names and each page's pixels against pdftoppm's (block SSIM); a two-image PDF in the reordered order with the
 * JPEG embedded byte for byte; a watermark found by pdf.js text extraction on the chosen pages
 * only, after the live preview of page 1 has been drawn. Screenshots at 1280 px (light) and
 * 390 px (dark).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import JSZip from 'jszip';
import { PDFDocument, PDFName, PDFRawStream, StandardFonts, rgb } from 'pdf-lib';
import { launchBrowser, screenshot, downloadAfter, openToolModal } from './harness.ts';
import { encodeJpeg, encodePng, imageHeader, makeImageData } from '../../workers/engine/lib/codecs.ts';
import { openPdfjs, pageText } from '../../workers/engine/lib/pdfjs.ts';
import { blockSsim, decodeImage, pdftoppmPng } from '../support/images.ts';
import { runQpdf } from '../../workers/engine/lib/qpdf.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function samplePdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Quarterly report page ${p}`, { x: 60, y: 720, size: 22, font });
    page.drawRectangle({ x: 60, y: 200, width: 300, height: 200, color: rgb(0.2, 0.4, 0.8) });
  }
  return doc.save();
}

function gradient(width: number, height: number): ImageData {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([(i % width) % 256, Math.floor(i / width) % 256, 120, 255], i * 4);
  return makeImageData(data, width, height);
}

const openTool = (toolId: string, options?: { width?: number; theme?: 'light' | 'dark' }) => openToolModal(browser, toolId, options);

const download = downloadAfter;

const processFiles = (page: Page) => page.getByRole('dialog').getByRole('button', { name: 'Process Files', exact: true }).click();

describe('image tools in the browser', () => {
  test('pdf-to-jpg: two pages at 72 dpi → report-pages.zip of JPEGs named <name>-p001.jpg; one page → one JPEG; each looks like pdftoppm draws it', async () => {
    const { page, context, errors } = await openTool('pdf-to-jpg');
    const dialog = page.getByRole('dialog');
    const pdf = await samplePdf(3);
    const dir = mkdtempSync(join(tmpdir(), 'folio-jpg-'));
    const pdfPath = join(dir, 'report.pdf');
    writeFileSync(pdfPath, pdf);
    /** Block SSIM of a converted page against poppler's drawing of it at the same resolution. */
    const likeness = async (jpeg: Uint8Array, pageNumber: number, dpi: number) =>
      blockSsim(await decodeImage(jpeg), await decodeImage(pdftoppmPng(pdfPath, pageNumber, dpi)));
    await page.locator('input[type=file]').first().setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) });
    await dialog.getByLabel('Resolution').selectOption('72');
    await dialog.getByLabel('Pages').fill('1-2');
    await screenshot(page, 'pdf-to-jpg-options-1280-light');
    const zip = await download(page, () => processFiles(page));
    expect(zip.name).toBe('report-pages.zip');
    const archive = await JSZip.loadAsync(zip.bytes);
    expect(Object.keys(archive.files).sort()).toEqual(['report-p001.jpg', 'report-p002.jpg']);
    const first = await archive.file('report-p001.jpg')!.async('uint8array');
    expect(imageHeader(first)).toMatchObject({ format: 'jpeg', width: 612, height: 792 });
    expect(await likeness(first, 1, 72)).toBeGreaterThanOrEqual(0.9);
    expect(await likeness(await archive.file('report-p002.jpg')!.async('uint8array'), 2, 72)).toBeGreaterThanOrEqual(0.9);

    await dialog.getByLabel('Resolution').selectOption('custom');
    await dialog.getByLabel('Custom resolution').fill('144');
    await dialog.getByLabel('Pages').fill('3');
    const single = await download(page, () => processFiles(page));
    expect(single.name).toBe('report-p003.jpg');
    expect(imageHeader(single.bytes)).toMatchObject({ format: 'jpeg', width: 1224, height: 1584 });
    expect(await likeness(single.bytes, 3, 144)).toBeGreaterThanOrEqual(0.9);
    expect(errors).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
    await context.close();
  });

  test('jpg-to-pdf: a PNG and a JPEG, reordered, on A4 → two pages in the new order, the JPEG unchanged', async () => {
    const jpeg = await encodeJpeg(gradient(400, 200), { quality: 85 });
    const png = await encodePng(gradient(150, 300));
    const { page, context, errors } = await openTool('jpg-to-pdf');
    const dialog = page.getByRole('dialog');
    await page.locator('input[type=file]').first().setInputFiles([
      { name: 'tall.png', mimeType: 'image/png', buffer: Buffer.from(png) },
      { name: 'wide.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(jpeg) },
    ]);
    await dialog.getByRole('button', { name: 'Move up: wide.jpg' }).click();
    await dialog.getByLabel('Page size').selectOption('a4');
    await dialog.getByLabel('Margin').selectOption('small');
    await screenshot(page, 'jpg-to-pdf-options-1280-light');
    const result = await download(page, () => processFiles(page));
    expect(result.name).toBe('wide.pdf');
    const doc = await PDFDocument.load(result.bytes);
    const sizes = doc.getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())]);
    expect(sizes).toEqual([[842, 595], [595, 842]]); // wide (landscape) first, then tall
    const dct = doc.context.enumerateIndirectObjects().map(([, o]) => o)
      .filter((o): o is PDFRawStream => o instanceof PDFRawStream && o.dict.get(PDFName.of('Filter')) === PDFName.of('DCTDecode'));
    expect(dct).toHaveLength(1);
    expect(Buffer.from(dct[0].contents).equals(Buffer.from(jpeg))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('jpg-to-pdf: a file that is not an image is named, and converting the rest works when chosen', async () => {
    const { page, context } = await openTool('jpg-to-pdf');
    const dialog = page.getByRole('dialog');
    await page.locator('input[type=file]').first().setInputFiles([
      { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(await encodeJpeg(gradient(100, 100), { quality: 80 })) },
      { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('these are notes, not a picture') },
    ]);
    // Text renamed .png is refused on pick, by its content (tests/e2e/tool-window.test.ts).
    await expect.poll(() => dialog.getByRole('alert').first().textContent(), { timeout: 20_000 }).toContain('"notes.png" is a plain text file');
    // A PNG cut short passes the pick (its header is right) and is named by the engine.
    const png = Buffer.from(await encodePng(gradient(40, 40)));
    await page.locator('input[type=file]').first().setInputFiles([{ name: 'broken.png', mimeType: 'image/png', buffer: png.subarray(0, 60) }]);
    await expect.poll(() => page.getByText('2 files selected').count(), { timeout: 20_000 }).toBe(1);
    await processFiles(page);
    await expect.poll(() => dialog.getByRole('alert').first().textContent(), { timeout: 60_000 }).toContain('"broken.png"');
    await dialog.getByLabel('Skip files that cannot be read').check();
    const result = await download(page, () => processFiles(page));
    expect((await PDFDocument.load(result.bytes)).getPageCount()).toBe(1);
    await context.close();
  });

  for (const { width, theme } of [{ width: 1280, theme: 'light' }, { width: 390, theme: 'dark' }] as const) {
    test(`add-watermark (${width} px, ${theme}): live preview, then CJK text on the chosen pages only`, async () => {
      const { page, context, errors } = await openTool('add-watermark', { width, theme });
      const dialog = page.getByRole('dialog');
      await page.locator('input[type=file]').first().setInputFiles({ name: 'contract.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await samplePdf(3)) });
      const text = 'DRAFT 草稿';
      await dialog.getByLabel('Watermark text').fill(text);
      await dialog.getByLabel('Position').selectOption('tiled');
      await dialog.getByLabel('Pages').fill('1, 3');
      const preview = dialog.getByRole('img', { name: 'Preview of page 1 with the watermark' });
      await preview.waitFor({ timeout: 60_000 });
      // The preview is drawn: the canvas has the page's size and is not blank white.
      await expect.poll(() => preview.evaluate((canvas: HTMLCanvasElement) => {
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let grey = 0;
        for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - data[i + 2]) < 10 && data[i] < 235 && data[i] > 150) grey++;
        return grey;
      })).toBeGreaterThan(200);
      await screenshot(page, `add-watermark-preview-${width}-${theme}`);
      const result = await download(page, () => processFiles(page));
      expect(result.name).toBe('contract-watermarked.pdf');
      const doc = await openPdfjs(result.bytes);
      const found = [];
      for (let n = 1; n <= doc.numPages; n++) found.push((await pageText(doc, n)).includes(text));
      await doc.destroy();
      expect(found).toEqual([true, false, true]);
      expect((await runQpdf(['--check', '/in.pdf'], { inputs: { '/in.pdf': result.bytes } })).exitCode).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  test('add-watermark with an image: picked in the panel, placed and valid', async () => {
    const { page, context, errors } = await openTool('add-watermark');
    const dialog = page.getByRole('dialog');
    await page.locator('input[type=file]').first().setInputFiles({ name: 'contract.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await samplePdf(2)) });
    await dialog.getByLabel('Watermark', { exact: true }).selectOption('image');
    await dialog.getByLabel('Watermark image (JPEG or PNG)').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(await encodePng(gradient(120, 60))) });
    await expect.poll(() => dialog.getByText('Using logo.png').count()).toBe(1);
    await dialog.getByLabel('Position').selectOption('bottom-right');
    await screenshot(page, 'add-watermark-image-1280-light');
    const result = await download(page, () => processFiles(page));
    const doc = await PDFDocument.load(result.bytes);
    const images = doc.context.enumerateIndirectObjects().map(([, o]) => o)
      .filter((o) => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
    expect(images.length).toBeGreaterThanOrEqual(1);
    expect((await runQpdf(['--check', '/in.pdf'], { inputs: { '/in.pdf': result.bytes } })).exitCode).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
