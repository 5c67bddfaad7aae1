/**
 * pdf-to-jpg, jpg-to-pdf and add-watermark through their modals in Chromium, each download
 * checked: JPEG sizes for the dpi, zip names and each page's pixels against pdftoppm's (block SSIM); a two-image PDF in
 * the reordered order with the
 * JPEG embedded byte for byte; a watermark found by pdf.js and pdftotext on the chosen pages only
 * (after the live preview of page 1 has been drawn), each page's pdftoppm drawing changed where the
 * watermark is and left as it was elsewhere. Screenshots at 1280 px (light) and
 * 390 px (dark).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import JSZip from 'jszip';
import { PDFDocument, PDFName, PDFRawStream, StandardFonts, rgb } from 'pdf-lib';
import { screenshot, downloadAfter, openToolModal, sharedBrowser } from './harness.ts';
import { encodeJpeg, encodePng, imageHeader, makeImageData } from '../../workers/engine/lib/image/codecs.ts';
import { openPdfjs, pageText } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { blockSsim, decodeImage, grey, pdftoppmPng, pdftotext, type Raster } from '../support/images.ts';
import { qpdfCheck } from '../support/pdf.ts';

const shared = sharedBrowser();

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

/** The part of a raster from (x, y), width × height pixels. */
function cropRaster(raster: Raster, x: number, y: number, width: number, height: number): Raster {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let row = 0; row < height; row++) {
    const from = ((y + row) * raster.width + x) * 4;
    data.set(raster.data.subarray(from, from + width * 4), row * width * 4);
  }
  return { width, height, data };
}

/** The share of pixels whose grey level differs by more than 8 of 255 between two same-size rasters. */
function changedShare(a: Raster, b: Raster): number {
  const [ga, gb] = [grey(a), grey(b)];
  let changed = 0;
  for (let i = 0; i < ga.length; i++) if (Math.abs(ga[i] - gb[i]) > 8) changed++;
  return changed / ga.length;
}

/** Page n (1-based) of a PDF file and of other PDF bytes, both drawn by pdftoppm at 36 dpi. */
async function drawnPair(inputPath: string, output: Uint8Array, n: number): Promise<[Raster, Raster]> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-watermark-'));
  try {
    writeFileSync(join(dir, 'out.pdf'), output);
    return [
      await decodeImage(pdftoppmPng(inputPath, n, 36)),
      await decodeImage(pdftoppmPng(join(dir, 'out.pdf'), n, 36)),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const openTool = (toolId: string, options?: { width?: number; theme?: 'light' | 'dark' }) =>
  openToolModal(shared.browser, toolId, options);

const download = downloadAfter;

const processFiles = (page: Page) =>
  page.getByRole('dialog').getByRole('button', { name: 'Process Files', exact: true }).click();

describe('image tools in the browser', () => {
  test(
    'pdf-to-jpg: two pages at 72 dpi → report-pages.zip of JPEGs named <name>-p001.jpg; one page → one JPEG; each ' +
      'looks like pdftoppm draws it',
    async () => {
      const { page, context, errors } = await openTool('pdf-to-jpg');
      const dialog = page.getByRole('dialog');
      const pdf = await samplePdf(3);
      const dir = mkdtempSync(join(tmpdir(), 'folio-jpg-'));
      const pdfPath = join(dir, 'report.pdf');
      writeFileSync(pdfPath, pdf);
      /** Block SSIM of a converted page against poppler's drawing of it at the same resolution. */
      const likeness = async (jpeg: Uint8Array, pageNumber: number, dpi: number) =>
        blockSsim(await decodeImage(jpeg), await decodeImage(pdftoppmPng(pdfPath, pageNumber, dpi)));
      await page
        .locator('input[type=file]')
        .first()
        .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) });
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
      expect(await likeness(await archive.file('report-p002.jpg')!.async('uint8array'), 2, 72)).toBeGreaterThanOrEqual(
        0.9,
      );

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
    },
  );

  test('jpg-to-pdf: a PNG and a JPEG, reordered, on A4 → two pages in the new order, the JPEG unchanged', async () => {
    const jpeg = await encodeJpeg(gradient(400, 200), { quality: 85 });
    const png = await encodePng(gradient(150, 300));
    const { page, context, errors } = await openTool('jpg-to-pdf');
    const dialog = page.getByRole('dialog');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles([
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
    expect(sizes).toEqual([
      [842, 595],
      [595, 842],
    ]); // wide (landscape) first, then tall
    const dct = doc.context
      .enumerateIndirectObjects()
      .map(([, o]) => o)
      .filter(
        (o): o is PDFRawStream =>
          o instanceof PDFRawStream && o.dict.get(PDFName.of('Filter')) === PDFName.of('DCTDecode'),
      );
    expect(dct).toHaveLength(1);
    expect(Buffer.from(dct[0].contents).equals(Buffer.from(jpeg))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('jpg-to-pdf: a file that is not an image is named, and converting the rest works when chosen', async () => {
    const { page, context } = await openTool('jpg-to-pdf');
    const dialog = page.getByRole('dialog');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles([
        {
          name: 'photo.jpg',
          mimeType: 'image/jpeg',
          buffer: Buffer.from(await encodeJpeg(gradient(100, 100), { quality: 80 })),
        },
        { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('these are notes, not a picture') },
      ]);
    // Text renamed .png is refused on pick, by its content (tests/e2e/tool-window.test.ts).
    await expect
      .poll(() => dialog.getByRole('alert').first().textContent(), { timeout: 20_000 })
      .toContain('"notes.png" is a plain text file');
    // A PNG cut short passes the pick (its header is right) and is named by the engine.
    const png = Buffer.from(await encodePng(gradient(40, 40)));
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles([{ name: 'broken.png', mimeType: 'image/png', buffer: png.subarray(0, 60) }]);
    await expect.poll(() => page.getByText('2 files selected').count(), { timeout: 20_000 }).toBe(1);
    await processFiles(page);
    await expect
      .poll(() => dialog.getByRole('alert').first().textContent(), { timeout: 60_000 })
      .toContain('"broken.png"');
    await dialog.getByLabel('Skip files that cannot be read').check();
    const result = await download(page, () => processFiles(page));
    expect((await PDFDocument.load(result.bytes)).getPageCount()).toBe(1);
    await context.close();
  });

  for (const { width, theme } of [
    { width: 1280, theme: 'light' },
    { width: 390, theme: 'dark' },
  ] as const) {
    test(`add-watermark (${width} px, ${theme}): live preview, then CJK text on the chosen pages only`, async () => {
      const { page, context, errors } = await openTool('add-watermark', { width, theme });
      const dialog = page.getByRole('dialog');
      const contract = await samplePdf(3);
      const dir = mkdtempSync(join(tmpdir(), 'folio-watermark-'));
      const contractPath = join(dir, 'contract.pdf');
      writeFileSync(contractPath, contract);
      await page
        .locator('input[type=file]')
        .first()
        .setInputFiles({ name: 'contract.pdf', mimeType: 'application/pdf', buffer: Buffer.from(contract) });
      const text = 'DRAFT 草稿';
      await dialog.getByLabel('Watermark text').fill(text);
      await dialog.getByLabel('Position').selectOption('tiled');
      await dialog.getByLabel('Pages').fill('1, 3');
      const preview = dialog.getByRole('img', { name: 'Preview of page 1 with the watermark' });
      await preview.waitFor({ timeout: 60_000 });
      // The preview is drawn: the canvas has the page's size and is not blank white.
      await expect
        .poll(() =>
          preview.evaluate((canvas: HTMLCanvasElement) => {
            const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
            let grey = 0;
            for (let i = 0; i < data.length; i += 4)
              if (Math.abs(data[i] - data[i + 2]) < 10 && data[i] < 235 && data[i] > 150) grey++;
            return grey;
          }),
        )
        .toBeGreaterThan(200);
      await screenshot(page, `add-watermark-preview-${width}-${theme}`);
      const result = await download(page, () => processFiles(page));
      expect(result.name).toBe('contract-watermarked.pdf');
      const doc = await openPdfjs(result.bytes);
      const found = [];
      for (let n = 1; n <= doc.numPages; n++) found.push((await pageText(doc, n)).includes(text));
      await doc.destroy();
      expect(found).toEqual([true, false, true]);
      // poppler too: its pdftotext reads the tiles, drawn at 45°, in scattered pieces ("DR", "AF", "草"),
      // so each page is asked for every letter of the watermark (none of them is in the page's own text).
      writeFileSync(join(dir, 'watermarked.pdf'), result.bytes);
      const popplerPages = pdftotext(join(dir, 'watermarked.pdf')).split('\f').slice(0, -1);
      const letters = [...text.replace(/\s+/g, '')];
      const lettersFound = popplerPages.map((pageText) => letters.filter((letter) => pageText.includes(letter)).length);
      expect(lettersFound).toEqual([letters.length, 0, letters.length]);
      expect(popplerPages.every((pageText) => pageText.includes('Quarterly report page'))).toBe(true);
      // Drawn by pdftoppm, the tiled watermark changes much of pages 1 and 3 and leaves page 2 as it was.
      const changed = [];
      for (let n = 1; n <= 3; n++) changed.push(changedShare(...(await drawnPair(contractPath, result.bytes, n))));
      expect(changed[0]).toBeGreaterThan(0.02);
      expect(changed[2]).toBeGreaterThan(0.02);
      expect(changed[1]).toBe(0);
      rmSync(dir, { recursive: true, force: true });
      expect((await qpdfCheck(result.bytes)).exitCode).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  test('add-watermark with an image: picked in the panel, placed and valid', async () => {
    const { page, context, errors } = await openTool('add-watermark');
    const dialog = page.getByRole('dialog');
    const contract = await samplePdf(2);
    const dir = mkdtempSync(join(tmpdir(), 'folio-watermark-'));
    const contractPath = join(dir, 'contract.pdf');
    writeFileSync(contractPath, contract);
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'contract.pdf', mimeType: 'application/pdf', buffer: Buffer.from(contract) });
    await dialog.getByLabel('Watermark', { exact: true }).selectOption('image');
    await dialog.getByLabel('Watermark image (JPEG or PNG)').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from(await encodePng(gradient(120, 60))),
    });
    await expect.poll(() => dialog.getByText('Using logo.png').count()).toBe(1);
    await dialog.getByLabel('Position').selectOption('bottom-right');
    await screenshot(page, 'add-watermark-image-1280-light');
    const result = await download(page, () => processFiles(page));
    const doc = await PDFDocument.load(result.bytes);
    const images = doc.context
      .enumerateIndirectObjects()
      .map(([, o]) => o)
      .filter((o) => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
    expect(images.length).toBeGreaterThanOrEqual(1);
    // Drawn by pdftoppm, each page changes in its bottom-right quarter, where the image goes, and is
    // the input's drawing elsewhere (the top half).
    for (let n = 1; n <= 2; n++) {
      const [before, after] = await drawnPair(contractPath, result.bytes, n);
      const [halfWidth, halfHeight] = [Math.floor(before.width / 2), Math.floor(before.height / 2)];
      const corner = (raster: Raster) => cropRaster(raster, halfWidth, halfHeight, halfWidth, halfHeight);
      const top = (raster: Raster) => cropRaster(raster, 0, 0, before.width, halfHeight);
      expect([after.width, after.height]).toEqual([before.width, before.height]);
      expect(changedShare(corner(before), corner(after)), `page ${n}, bottom right`).toBeGreaterThan(0.05);
      expect(blockSsim(top(before), top(after)), `page ${n}, top half`).toBeGreaterThanOrEqual(0.9);
      expect(changedShare(top(before), top(after)), `page ${n}, top half`).toBe(0);
    }
    rmSync(dir, { recursive: true, force: true });
    expect((await qpdfCheck(result.bytes)).exitCode).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
