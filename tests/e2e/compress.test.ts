/**
 * compress-pdf and image-compressor through their modals in Chromium: options, the preview with
 * its compare slider, Process Files, and the downloaded file checked (smaller, valid, same pages
 * and text / same picture size); an image batch with a 0-byte file is zipped with that file named
 * and skipped. Screenshots at 1280 px (light) and 390 px (dark). compress-pdf's image workers: the
 * pooled result's pages look like the original's (pdftoppm, each page against its own and its
 * neighbour), Process Files after the preview hands over the previewed result (no API call, no
 * worker), and Cancel ends the image workers. Lab images, turned into sRGB in the image workers,
 * draw as poppler draws the original (in gray when asked).
 */
import { describe, expect, test } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page, Worker } from 'playwright-core';
import JSZip from 'jszip';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, StandardFonts } from 'pdf-lib';
import { screenshot, downloadAfter, openToolModal, pdfUpload, sharedBrowser } from './harness.ts';
import { encodeJpeg, encodePng, imageHeader, makeImageData } from '../../workers/engine/lib/image/codecs.ts';
import { qpdfCheck } from '../support/pdf.ts';
import { openPdfjs, pageText } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { blockSsim, decodeImage, grey, pdftoppmPng } from '../support/images.ts';
import { addLabPage } from '../support/lab-fixtures.ts';

const shared = sharedBrowser('folio-compress-');

/** A noisy synthetic photo; each `variant` draws a different picture. */
function photo(width: number, height: number, variant = 0): ImageData {
  const data = new Uint8ClampedArray(width * height * 4);
  let seed = 11 + variant;
  const fx = 31 + 17 * variant;
  const fy = 19 + 11 * variant;
  const noise = () => ((seed = (seed * 16807) % 2147483647) % 30) - 15;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = 128 + 100 * Math.sin(x / fx) + noise();
      data[i + 1] = 128 + 100 * Math.cos(y / fy) + noise();
      data[i + 2] = (x + (2 + variant) * y) % 256;
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

/**
 * Four pages, each with its own photo drawn at 300 dpi (1200 × 800 pixels on 4 × 2.67 inches) and a
 * caption: three stored as JPEG, one as Flate (an embedded PNG), so both decoders run in the pool.
 */
async function albumPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < 4; p++) {
    const picture = photo(1200, 800, p + 1);
    const image =
      p === 2
        ? await doc.embedPng(await encodePng(picture))
        : await doc.embedJpg(await encodeJpeg(picture, { quality: 95 }));
    const page = doc.addPage([612, 792]);
    page.drawText(`Album page ${p + 1}`, { x: 50, y: 740, size: 18, font });
    page.drawImage(image, { x: 50 + 40 * p, y: 200 + 60 * p, width: 288, height: 192 });
  }
  return doc.save();
}

const isImageWorker = (worker: Worker) => /\/image\.worker-[^/]+\.js$/.test(worker.url());

/** Image workers the page starts from now on, as they start. */
function watchImageWorkers(page: Page): Worker[] {
  const seen: Worker[] = [];
  page.on('worker', (worker) => {
    if (isImageWorker(worker)) seen.push(worker);
  });
  return seen;
}

/** Widths of the image XObjects of a PDF, with their filters. */
async function imageWidths(bytes: Uint8Array): Promise<Array<{ width: number; filter: string }>> {
  const doc = await PDFDocument.load(bytes);
  const found: Array<{ width: number; filter: string }> = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream) || object.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    if (object.dict.has(PDFName.of('SMask')) === false && object.dict.get(PDFName.of('Width'))) {
      found.push({
        width: (object.dict.get(PDFName.of('Width')) as PDFNumber).asNumber(),
        filter: String(object.dict.get(PDFName.of('Filter'))),
      });
    }
  }
  return found;
}

const openTool = (toolId: string, options?: { width?: number; theme?: 'light' | 'dark' }) =>
  openToolModal(shared.browser, toolId, options);

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

  test(
    'compress-pdf: image workers recompress the images, every page still looks like the original (pdftoppm), ' +
      'and Process Files after the preview downloads the previewed result without a second run',
    async () => {
      const original = await albumPdf();
      const originalPath = join(shared.scratch, 'album4.pdf');
      writeFileSync(originalPath, original);
      const { page, context, errors } = await openTool('compress-pdf');
      const workers = watchImageWorkers(page);
      const dialog = page.getByRole('dialog');
      await page.locator('input[type=file]').first().setInputFiles(pdfUpload('album4.pdf', original));

      // 1. The in-page /api, asking for three image workers (more than this machine's cores, so the
      //    pool is used whatever the machine). The file goes through an input of the test's own.
      await page.evaluate(() => {
        const input = Object.assign(document.createElement('input'), { type: 'file', id: 'api-file', hidden: true });
        document.body.append(input);
      });
      await page.locator('#api-file').setInputFiles(pdfUpload('album4.pdf', original));
      const answer = await page.evaluate(async () => {
        const form = new FormData();
        form.append('file', (document.querySelector('#api-file') as HTMLInputElement).files![0]);
        form.append('level', 'recommended');
        form.append('imageWorkers', '3');
        const response = await fetch('/api/pdf/compress', { method: 'POST', body: form });
        return { status: response.status, bytes: [...new Uint8Array(await response.arrayBuffer())] };
      });
      expect(answer.status).toBe(200);
      expect(workers.length).toBe(3);
      const pooled = new Uint8Array(answer.bytes);
      expect(pooled.length).toBeLessThan(original.length / 2);
      expect((await qpdfCheck(pooled)).exitCode).toBe(0);
      // Every photo was brought down from 300 to 150 dpi (1200 → 600 pixels) and stored as a JPEG.
      expect(await imageWidths(pooled)).toEqual(
        Array.from({ length: 4 }, () => ({ width: 600, filter: '/DCTDecode' })),
      );
      const pooledPath = join(shared.scratch, 'album4-pooled.pdf');
      writeFileSync(pooledPath, pooled);
      const drawn = async (path: string, n: number) => decodeImage(pdftoppmPng(path, n, 72));
      for (let n = 1; n <= 4; n++) {
        const ours = await drawn(pooledPath, n);
        const own = blockSsim(ours, await drawn(originalPath, n));
        const neighbour = blockSsim(ours, await drawn(originalPath, (n % 4) + 1));
        expect(own, `page ${n} vs the original's page ${n}`).toBeGreaterThanOrEqual(0.9);
        // Each page carries its own photo: a photo put on the wrong page would match a neighbour instead.
        expect(neighbour, `page ${n} vs the original's page ${(n % 4) + 1}`).toBeLessThan(own - 0.05);
      }

      // 2. The modal: Preview page 1 compresses the file (in image workers when this device has
      //    the cores for it)…
      const beforePreview = workers.length;
      await dialog.getByRole('button', { name: 'Preview page 1' }).click();
      await dialog.locator('figure.compare, .compress-panel [role=note]').first().waitFor({ timeout: 110_000 });
      expect(await dialog.locator('.compress-panel [role=note]').count(), await dialog.innerText()).toBe(0);
      const cores = await page.evaluate(() => navigator.hardwareConcurrency);
      if (cores >= 2) expect(workers.length).toBeGreaterThan(beforePreview);
      // …then Process Files hands over that result: no call to the API and no image worker at all.
      await page.evaluate(() => {
        const calls: string[] = [];
        (window as unknown as { apiCalls: string[] }).apiCalls = calls;
        const passOn = window.fetch.bind(window);
        window.fetch = (input, init) => {
          calls.push(input instanceof Request ? input.url : String(input));
          return passOn(input, init);
        };
      });
      const afterPreview = workers.length;
      const result = await download(page, () =>
        dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
      );
      expect(await page.evaluate(() => (window as unknown as { apiCalls: string[] }).apiCalls)).toEqual([]);
      expect(workers.length).toBe(afterPreview);
      expect(result.name).toBe('album4-compressed.pdf');
      // The same settings as the /api call above: the same images (only the save date may differ).
      expect(Math.abs(result.bytes.length - pooled.length)).toBeLessThanOrEqual(16);
      await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/→/);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  test('compress-pdf: Lab images go through the image workers as sRGB, gray when asked, drawn as poppler draws them', async () => {
    const doc = await PDFDocument.create();
    await addLabPage(doc, 'flate');
    await addLabPage(doc, 'jpeg');
    const original = await doc.save();
    writeFileSync(join(shared.scratch, 'lab.pdf'), original);
    const { page, context, errors } = await openTool('compress-pdf');
    const workers = watchImageWorkers(page);
    await page.evaluate(() => {
      const input = Object.assign(document.createElement('input'), { type: 'file', id: 'api-file', hidden: true });
      document.body.append(input);
    });
    await page.locator('#api-file').setInputFiles(pdfUpload('lab.pdf', original));
    const answers = await page.evaluate(async () => {
      const answered: Array<{ status: number; bytes: number[] }> = [];
      for (const grayscale of ['false', 'true']) {
        const form = new FormData();
        form.append('file', (document.querySelector('#api-file') as HTMLInputElement).files![0]);
        form.append('level', 'recommended');
        form.append('grayscale', grayscale);
        form.append('imageWorkers', '2');
        const response = await fetch('/api/pdf/compress', { method: 'POST', body: form });
        answered.push({ status: response.status, bytes: [...new Uint8Array(await response.arrayBuffer())] });
      }
      return answered;
    });
    expect(workers.length).toBeGreaterThanOrEqual(2);
    for (const [i, grayscale] of [false, true].entries()) {
      expect(answers[i].status).toBe(200);
      const output = new Uint8Array(answers[i].bytes);
      expect(output.length).toBeLessThan(original.length / 2);
      const spaces = (await PDFDocument.load(output)).getPages().map((p) => {
        const xobjects = p.node.Resources()!.lookup(PDFName.of('XObject'), PDFDict);
        const image = p.doc.context.lookup(xobjects.get(PDFName.of('Im'))) as PDFRawStream;
        return `${String(image.dict.get(PDFName.of('Filter')))} ${String(image.dict.get(PDFName.of('ColorSpace')))}`;
      });
      expect(spaces).toEqual(Array(2).fill(`/DCTDecode ${grayscale ? '/DeviceGray' : '/DeviceRGB'}`));
      const outputPath = join(shared.scratch, `lab-${grayscale}.pdf`);
      writeFileSync(outputPath, output);
      for (const n of [1, 2]) {
        const source = await decodeImage(pdftoppmPng(join(shared.scratch, 'lab.pdf'), n, 72));
        const ours = await decodeImage(pdftoppmPng(outputPath, n, 72));
        const expected = new Uint8ClampedArray(source.data);
        if (grayscale) {
          const luma = grey(source);
          for (let j = 0; j < luma.length; j++) expected.fill(luma[j], j * 4, j * 4 + 3);
        }
        expect(blockSsim(ours, { ...source, data: expected })).toBeGreaterThan(0.9);
        // Colour as well as structure: mean difference per channel, out of 255.
        const difference = [0, 0, 0];
        for (let j = 0; j < expected.length; j += 4)
          for (let c = 0; c < 3; c++) difference[c] += Math.abs(ours.data[j + c] - expected[j + c]);
        for (const d of difference) expect(d / (expected.length / 4), `page ${n}`).toBeLessThan(6);
      }
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  const scanPath = resolve(import.meta.dirname, '../../../shared/corpus/pdf/scanned/ocrmypdf-multipage.pdf');
  test.skipIf(!existsSync(scanPath))(
    'compress-pdf: Cancel terminates the image workers with the engine worker; the next job works',
    async (ctx) => {
      const scan = new Uint8Array(readFileSync(scanPath));
      const { page, context } = await openTool('compress-pdf');
      // The pool has one worker per core: a one-core device recompresses in-process, with nothing to end.
      if ((await page.evaluate(() => navigator.hardwareConcurrency)) < 2) ctx.skip();
      const workers = watchImageWorkers(page);
      const dialog = page.getByRole('dialog');
      await page.locator('input[type=file]').first().setInputFiles(pdfUpload('scan.pdf', scan));
      await dialog.getByRole('button', { name: 'Process Files', exact: true }).click();
      // Under way: the pool's workers are recompressing the scan's six images.
      await expect.poll(() => workers.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
      const closed = Promise.all(workers.map((worker) => worker.waitForEvent('close', { timeout: 30_000 })));
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await closed;
      await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('Cancelled: nothing was changed.');

      const result = await download(
        page,
        () => dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
        120_000,
      );
      expect(result.name).toBe('scan-compressed.pdf');
      expect(result.bytes.length).toBeLessThan(scan.length);
      expect((await qpdfCheck(result.bytes)).exitCode).toBe(0);
      await context.close();
    },
  );

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
