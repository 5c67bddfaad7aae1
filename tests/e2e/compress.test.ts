/**
 * compress-pdf and image-compressor through their modals in Chromium: options, the preview with
 * its compare slider, Process Files, and the downloaded file checked (smaller, valid, same pages
 * and text / same picture size); an image batch with a 0-byte file is zipped with that file named
 * and skipped. Screenshots at 1280 px (light) and 390 px (dark).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { launchBrowser, screenshot, downloadAfter, openToolModal } from './harness.ts';
import { encodeJpeg, imageHeader, makeImageData } from '../../workers/engine/lib/image/codecs.ts';
import { qpdfCheck } from '../support/pdf.ts';
import { openPdfjs, pageText } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { blockSsim, decodeImage } from '../support/images.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

function photo(width: number, height: number): ImageData {
  const data = new Uint8ClampedArray(width * height * 4);
  let seed = 11;
  const noise = () => ((seed = (seed * 16807) % 2147483647) % 30) - 15;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = 128 + 100 * Math.sin(x / 31) + noise();
      data[i + 1] = 128 + 100 * Math.cos(y / 19) + noise();
      data[i + 2] = (x + 2 * y) % 256;
      data[i + 3] = 255;
    }
  }
  return makeImageData(data, width, height);
}

async function photoPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const image = await doc.embedJpg(await encodeJpeg(photo(1200, 800), { quality: 95 }));
  for (let p = 1; p <= 2; p++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Holiday album page ${p}`, { x: 50, y: 740, size: 18, font });
    page.drawImage(image, { x: 50, y: 300, width: 300, height: 200 });
  }
  return doc.save();
}

const openTool = (toolId: string, options?: { width?: number; theme?: 'light' | 'dark' }) =>
  openToolModal(browser, toolId, options);

const download = downloadAfter;

describe('compress in the browser', () => {
  test('compress-pdf: Strong, page-1 preview with the compare slider, download is smaller and valid', async () => {
    const original = await photoPdf();
    const { page, context, errors, requests } = await openTool('compress-pdf');
    const dialog = page.getByRole('dialog');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'album.pdf', mimeType: 'application/pdf', buffer: Buffer.from(original) });
    await dialog.getByLabel('Compression').selectOption('strong');

    await dialog.getByRole('button', { name: 'Preview page 1' }).click();
    // The preview ends in the compare figure, or in a message saying what went wrong.
    await dialog.locator('figure.compare, .compress-panel [role=note]').first().waitFor({ timeout: 110_000 });
    expect(await dialog.locator('.compress-panel [role=note]').count(), await dialog.innerText()).toBe(0);
    await expect
      .poll(() => dialog.locator('figure.compare figcaption').textContent())
      .toMatch(/Original · .* → Compressed · .*\(−\d+%\)/);
    await screenshot(page, 'compress-pdf-preview-1280-light');

    const result = await download(page, () =>
      dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
    );
    expect(result.name).toBe('album-compressed.pdf');
    expect(result.bytes.length).toBeLessThan(original.length / 2);
    expect((await qpdfCheck(result.bytes)).exitCode).toBe(0);
    const doc = await openPdfjs(result.bytes);
    expect(doc.numPages).toBe(2);
    expect(await pageText(doc, 2)).toContain('Holiday album page 2');
    await doc.destroy();
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/→/);
    await screenshot(page, 'compress-pdf-result-1280-light');

    expect(errors).toEqual([]);
    expect(
      requests.every(
        (url) =>
          url.startsWith('http://localhost') ||
          url.startsWith('http://127.0.0.1') ||
          url.startsWith('blob:') ||
          url.startsWith('data:'),
      ),
    ).toBe(true);
    await context.close();
  });

  test('image-compressor: WebP with preview slider, then a batch with a 0-byte file zipped and the bad file named', async () => {
    const jpeg = await encodeJpeg(photo(640, 480), { quality: 95 });
    const { page, context, errors } = await openTool('image-compressor', { width: 390, theme: 'dark' });
    const dialog = page.getByRole('dialog');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'beach.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(jpeg) });
    await dialog.getByLabel('Output format').selectOption('webp');
    await dialog.getByLabel('Quality').fill('70');

    await dialog.getByRole('button', { name: /^Preview/ }).click();
    await dialog.locator('figure.compare img').first().waitFor({ timeout: 60_000 });
    const slider = dialog.getByLabel(/Divider position/);
    await slider.fill('20');
    await screenshot(page, 'image-compressor-preview-390-dark');

    const single = await download(page, () =>
      dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
    );
    expect(single.name).toBe('beach-compressed.webp');
    expect(single.bytes.length).toBeLessThan(jpeg.length);
    expect(imageHeader(single.bytes)).toMatchObject({ format: 'webp', width: 640, height: 480 });
    // The same picture: the WebP decoded (by Skia, not Folio's codec) against the original JPEG. At
    // quality 70 WebP smooths the photo's ±15 pixel noise away (block SSIM 0.88 measured), hence 0.8.
    expect(blockSsim(await decodeImage(single.bytes), await decodeImage(jpeg))).toBeGreaterThanOrEqual(0.8);

    await dialog.getByLabel('Add more images to compress together').setInputFiles([
      { name: 'empty.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(0) },
      { name: 'beach-2.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(jpeg) },
    ]);
    const zipped = await download(page, () =>
      dialog.getByRole('button', { name: 'Compress all 3 images (ZIP)' }).click(),
    );
    expect(zipped.name).toBe('beach-compressed.zip');
    const zip = await JSZip.loadAsync(zipped.bytes);
    expect(Object.keys(zip.files).sort()).toEqual(['beach-2.webp', 'beach.webp']);
    const second = await decodeImage(await zip.file('beach-2.webp')!.async('uint8array'));
    expect(blockSsim(second, await decodeImage(jpeg))).toBeGreaterThanOrEqual(0.8);
    await expect
      .poll(() => dialog.getByRole('list', { name: 'Compressed images' }).textContent())
      .toContain('empty.jpg: skipped — "empty.jpg" is empty (0 bytes).');
    await screenshot(page, 'image-compressor-batch-390-dark');

    // The failed request for the empty file is expected (a 422 answered in the page); nothing else may fail.
    expect(errors.filter((e) => !/422|Unprocessable/.test(e))).toEqual([]);
    await context.close();
  });

  const cmykPath = resolve(import.meta.dirname, '../../../shared/corpus/images/ocrmypdf-baiona-cmyk.jpg');
  test.skipIf(!existsSync(cmykPath))(
    'image-compressor: a CMYK JPEG (which the WASM decoder refuses) is decoded by the browser and compressed',
    async () => {
      const cmyk = new Uint8Array(readFileSync(cmykPath));
      const original = imageHeader(cmyk);
      const { page, context, errors } = await openTool('image-compressor');
      const dialog = page.getByRole('dialog');
      await page
        .locator('input[type=file]')
        .first()
        .setInputFiles({ name: 'baiona-cmyk.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(cmyk) });
      const result = await download(page, () =>
        dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
      );
      expect(result.name).toBe('baiona-cmyk-compressed.jpg');
      const header = imageHeader(result.bytes);
      expect(header).toMatchObject({ format: 'jpeg', components: 3 });
      expect(Math.min(header!.width, header!.height)).toBe(Math.min(original!.width, original!.height));
      expect(result.bytes.length).toBeLessThan(cmyk.length);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
