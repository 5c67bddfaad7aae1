/**
 * PDF → JPG's render pool in Chromium (workers/engine/lib/pdf/render-pool.ts): the pooled ZIP has
 * every page in order, each one looking like pdftoppm's drawing of that page (and not like its
 * neighbours'); Cancel terminates the render workers with the engine worker; a large result asks
 * where to save when Process Files is pressed and its ZIP is written into that file page by page
 * while the job runs (workers/bridge.ts), and without the picker it downloads as a Blob gathered
 * from the same pieces. (Headless Chromium has `showSaveFilePicker` but never answers it: the
 * tests put a page-side stand-in in its place, which records when it was asked and what was written.)
 * That decision needs the pages' sizes, so Process Files waits for the file's check where a picker exists.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Page, Worker } from 'playwright-core';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { downloadAfter, openToolModal, pdfUpload, sharedBrowser } from './harness.ts';
import { blockSsim, decodeImage, pdftoppmPng } from '../support/images.ts';
import { imageHeader } from '../../workers/engine/lib/image/codecs.ts';

/**
 * Reading a 100-page file's pages takes over a second on a busy machine: wait as long as the UI does
 * before it says the check timed out (CHECK_TIMEOUT_MS in src/tool-ui/pdf-checks.ts).
 */
const checkWait = { timeout: 30_000 };

const shared = sharedBrowser('folio-render-pool-');

/**
 * Pages that cannot be mistaken for one another: page n fills cell n (modulo 12) of a 4 × 3 grid
 * in black, and carries its number; geometry rather than glyphs tells them apart (pdf.js and
 * Poppler substitute different Helvetica shapes).
 */
async function numberedPdf(
  pages: number,
  sizeOf: (n: number) => [number, number] = () => [300, 400],
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const [width, height] = sizeOf(n);
    const cellWidth = width / 4;
    const cellHeight = (height - 40) / 3;
    const page = doc.addPage([width, height]);
    const cell = (n - 1) % 12;
    page.drawRectangle({
      x: (cell % 4) * cellWidth,
      y: Math.floor(cell / 4) * cellHeight,
      width: cellWidth,
      height: cellHeight,
      color: rgb(0, 0, 0),
    });
    page.drawText(`Page ${n}`, { x: 10, y: height - 28, size: 16, font, color: rgb(0.1, 0.3, 0.8) });
  }
  return doc.save();
}

const isRenderWorker = (worker: Worker) => /\/render\.worker-[^/]+\.js$/.test(worker.url());

/** Render workers the page starts from now on, as they start. */
function watchRenderWorkers(page: Page): Worker[] {
  const seen: Worker[] = [];
  page.on('worker', (worker) => {
    if (isRenderWorker(worker)) seen.push(worker);
  });
  return seen;
}

const processFiles = (page: Page) =>
  page.getByRole('dialog').getByRole('button', { name: 'Process Files', exact: true }).click();

describe('PDF → JPG render pool in the browser', () => {
  test("three render workers: every page in the ZIP, in order, each like pdftoppm's drawing of that page", async () => {
    const pages = 12;
    const pdf = await numberedPdf(pages);
    const pdfPath = join(shared.scratch, 'numbered.pdf');
    writeFileSync(pdfPath, pdf);
    const { page, context, errors } = await openToolModal(shared.browser, 'pdf-to-jpg');
    const workers = watchRenderWorkers(page);
    await page.locator('input[type=file]').first().setInputFiles(pdfUpload('numbered.pdf', pdf));
    // The modal has no worker-count field: the in-page /api is posted to directly, asking for three
    // (more than this machine's cores, so the pool is used whatever the machine).
    const answer = await page.evaluate(
      async (bytes) => {
        const form = new FormData();
        form.append('file', new File([new Uint8Array(bytes)], 'numbered.pdf', { type: 'application/pdf' }));
        for (const [key, value] of Object.entries({
          resolution: '72',
          format: 'jpeg',
          quality: '90',
          renderWorkers: '3',
        }))
          form.append(key, value);
        const response = await fetch('/api/pdf/toJpg', { method: 'POST', body: form });
        return {
          status: response.status,
          name: response.headers.get('Content-Disposition'),
          bytes: [...new Uint8Array(await response.arrayBuffer())],
        };
      },
      [...pdf],
    );
    expect(answer.status).toBe(200);
    expect(workers.length).toBe(3);

    const zip = await JSZip.loadAsync(new Uint8Array(answer.bytes));
    const expected = Array.from({ length: pages }, (_, i) => `numbered-p${String(i + 1).padStart(3, '0')}.jpg`);
    // Archive order is the order entries were written: page order, though the workers finished in any order.
    expect(Object.keys(zip.files)).toEqual(expected);
    const references = await Promise.all(expected.map((_, i) => decodeImage(pdftoppmPng(pdfPath, i + 1, 72))));
    for (const [index, name] of expected.entries()) {
      const jpeg = await zip.file(name)!.async('uint8array');
      expect(imageHeader(jpeg)).toMatchObject({ format: 'jpeg', width: 300, height: 400 });
      const ours = await decodeImage(jpeg);
      const own = blockSsim(ours, references[index]);
      const neighbour = blockSsim(ours, references[(index + 1) % pages]);
      expect(own, `${name} vs pdftoppm's page ${index + 1}`).toBeGreaterThanOrEqual(0.9);
      // The check tells pages apart: a page out of place would match its neighbour's drawing instead.
      expect(neighbour, `${name} vs pdftoppm's page ${((index + 1) % pages) + 1}`).toBeLessThan(own - 0.1);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  test('one lane drawing page after page on kept canvases (pdfjs-offscreen.ts): each image is its own page, at its own size', async () => {
    // Two portrait pages, then a landscape one, and again: a kept canvas is reused only for a page
    // of its size, cleared and with its drawing state reset; PNG releases a canvas twice (page-image.ts).
    const pages = 9;
    const sizeOf = (n: number): [number, number] => (n % 3 === 0 ? [400, 300] : [300, 400]);
    const pdf = await numberedPdf(pages, sizeOf);
    const pdfPath = join(shared.scratch, 'kept-canvases.pdf');
    writeFileSync(pdfPath, pdf);
    const references = await Promise.all(
      Array.from({ length: pages }, (_, i) => decodeImage(pdftoppmPng(pdfPath, i + 1, 72))),
    );
    const { page, context, errors } = await openToolModal(shared.browser, 'pdf-to-jpg');
    for (const format of ['jpeg', 'png']) {
      const answer = await page.evaluate(
        async ({ bytes, format }) => {
          const form = new FormData();
          form.append('file', new File([new Uint8Array(bytes)], 'kept.pdf', { type: 'application/pdf' }));
          for (const [key, value] of Object.entries({ resolution: '72', format, quality: '90', renderWorkers: '1' }))
            form.append(key, value);
          const response = await fetch('/api/pdf/toJpg', { method: 'POST', body: form });
          return { status: response.status, bytes: [...new Uint8Array(await response.arrayBuffer())] };
        },
        { bytes: [...pdf], format },
      );
      expect(answer.status).toBe(200);
      const zip = await JSZip.loadAsync(new Uint8Array(answer.bytes));
      const names = Object.keys(zip.files);
      expect(names).toHaveLength(pages);
      for (const [index, name] of names.entries()) {
        const image = await zip.file(name)!.async('uint8array');
        const [width, height] = sizeOf(index + 1);
        expect(imageHeader(image), name).toMatchObject({ format: format === 'png' ? 'png' : 'jpeg', width, height });
        const ours = await decodeImage(image);
        const own = blockSsim(ours, references[index]);
        expect(own, `${format} ${name} vs pdftoppm's page ${index + 1}`).toBeGreaterThanOrEqual(0.9);
        // The page drawn last on the canvas this one may have reused: the previous page of its size.
        const previous = [...references.keys()].findLast((other) => other < index && sizeOf(other + 1)[0] === width);
        if (previous === undefined) continue;
        const before = blockSsim(ours, references[previous]);
        expect(before, `${format} ${name} vs page ${previous + 1}, drawn before it`).toBeLessThan(own - 0.1);
      }
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  test('Cancel terminates the render workers with the engine worker; the next job works', async () => {
    const pdf = await numberedPdf(40, () => [612, 792]);
    const { page, context } = await openToolModal(shared.browser, 'pdf-to-jpg');
    const workers = watchRenderWorkers(page);
    const dialog = page.getByRole('dialog');
    // Two render workers asked for explicitly (the default on a 2-core machine is one lane, in the
    // engine worker itself); the request's abort is what the modal's Cancel does to the job.
    await page.evaluate(
      async (bytes) => {
        const controller = new AbortController();
        const form = new FormData();
        form.append('file', new File([new Uint8Array(bytes)], 'long.pdf', { type: 'application/pdf' }));
        for (const [key, value] of Object.entries({ resolution: '300', format: 'jpeg', renderWorkers: '2' }))
          form.append(key, value);
        const answer = fetch('/api/pdf/toJpg', { method: 'POST', body: form, signal: controller.signal }).then(
          (response) => `status ${response.status}`,
          (error: Error) => error.name,
        );
        Object.assign(window, { cancelJob: () => controller.abort(), jobAnswer: answer });
      },
      [...pdf],
    );
    await expect.poll(() => workers.length, { timeout: 120_000 }).toBe(2);
    const closed = Promise.all(workers.map((worker) => worker.waitForEvent('close', { timeout: 30_000 })));
    await page.evaluate(() => (window as unknown as { cancelJob(): void }).cancelJob());
    await closed;
    expect(await page.evaluate(() => (window as unknown as { jobAnswer: Promise<string> }).jobAnswer)).toBe(
      'AbortError',
    );

    await page.locator('input[type=file]').first().setInputFiles(pdfUpload('long.pdf', pdf));

    await dialog.getByLabel('Resolution').selectOption('72');
    await dialog.getByLabel('Pages').fill('7');
    const single = await downloadAfter(page, () => processFiles(page));
    expect(single.name).toBe('long-p007.jpg');
    expect(imageHeader(single.bytes)).toMatchObject({ format: 'jpeg', width: 612, height: 792 });
    await context.close();
  });

  test(
    'a result estimated over 200 MB: the save picker is asked before the job and gets the ZIP; without it, a ' +
      'download',
    async () => {
      // 100 letter pages at 300 dpi: 842 million pixels, estimated at 252 MB of JPEG (0.3 byte a pixel).
      const pdf = await numberedPdf(100, () => [612, 792]);
      const pdfPath = join(shared.scratch, 'big.pdf');
      writeFileSync(pdfPath, pdf);
      const { page, context, errors } = await openToolModal(shared.browser, 'pdf-to-jpg');
      const dialog = page.getByRole('dialog');
      await page.evaluate(() => {
        const record = {
          asked: [] as Array<{ name: string; working: boolean }>,
          chunks: [] as Uint8Array[],
          /** The progress bar's value (pages done of 100) when each piece was written. */
          progressAtWrite: [] as number[],
          closed: false,
        };
        Object.assign(window, { pickerRecord: record });
        Object.defineProperty(window, 'showSaveFilePicker', {
          configurable: true,
          value: async ({ suggestedName }: { suggestedName: string }) => {
            record.asked.push({ name: suggestedName, working: document.querySelector('progress') !== null });
            return {
              name: `chosen-${suggestedName}`,
              createWritable: async () =>
                new WritableStream<Uint8Array>({
                  write: (chunk) => {
                    record.chunks.push(chunk);
                    record.progressAtWrite.push(document.querySelector('progress')?.value ?? -1);
                  },
                  close: () => void (record.closed = true),
                }),
              getFile: async () => new File(record.chunks as BlobPart[], `chosen-${suggestedName}`),
            };
          },
        });
      });
      await page.locator('input[type=file]').first().setInputFiles(pdfUpload('big.pdf', pdf));
      await dialog.getByLabel('Resolution').selectOption('300');
      // The estimate needs the pages' sizes, known once the file's check has read it.
      await expect.poll(() => dialog.locator('.file-pages').textContent(), checkWait).toBe('100 pages');
      let downloads = 0;
      page.on('download', () => downloads++);
      await processFiles(page);
      await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: 240_000 }).toContain('was saved');
      const record = await page.evaluate(async () => {
        const { asked, chunks, closed, progressAtWrite } = (
          window as unknown as {
            pickerRecord: { asked: unknown[]; chunks: Uint8Array[]; closed: boolean; progressAtWrite: number[] };
          }
        ).pickerRecord;
        const bytes = new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer());
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return { asked, closed, progressAtWrite, base64: btoa(binary) };
      });
      // Streamed: the first pages were in the file while the job was still drawing the others
      // (the progress bar is gone once the job ends), and no single piece was the whole archive.
      expect(record.progressAtWrite[0]).toBeGreaterThanOrEqual(0);
      expect(record.progressAtWrite[0]).toBeLessThan(100);
      expect(record.progressAtWrite.length).toBeGreaterThan(100);
      expect(record.asked).toEqual([{ name: 'big-pages.zip', working: false }]);
      expect(record.closed).toBe(true);
      expect(downloads).toBe(0);
      expect(await dialog.getByRole('status').textContent()).toContain('chosen-big-pages.zip was saved');
      const zip = await JSZip.loadAsync(Buffer.from(record.base64, 'base64'));
      const names = Object.keys(zip.files);
      expect(names).toHaveLength(100);
      expect([names[0], names[99]]).toEqual(['big-p001.jpg', 'big-p100.jpg']);
      for (const n of [1, 100]) {
        const ours = await decodeImage(await zip.file(`big-p${String(n).padStart(3, '0')}.jpg`)!.async('uint8array'));
        expect(blockSsim(ours, await decodeImage(pdftoppmPng(pdfPath, n, 300)))).toBeGreaterThanOrEqual(0.9);
      }

      // A browser without the picker: the same job downloads the ZIP.
      await page.evaluate(() =>
        Object.defineProperty(window, 'showSaveFilePicker', { configurable: true, value: undefined }),
      );
      await dialog.getByRole('button', { name: 'Start over' }).click();
      await page.locator('input[type=file]').first().setInputFiles(pdfUpload('big.pdf', pdf));
      await dialog.getByLabel('Resolution').selectOption('300');
      await expect.poll(() => dialog.locator('.file-pages').textContent(), checkWait).toBe('100 pages');
      const downloaded = await downloadAfter(page, () => processFiles(page), 240_000);
      expect(downloaded.name).toBe('big-pages.zip');
      const downloadedZip = await JSZip.loadAsync(downloaded.bytes);
      expect(Object.keys(downloadedZip.files)).toHaveLength(100);
      for (const n of [1, 57, 100]) {
        const entry = downloadedZip.file(`big-p${String(n).padStart(3, '0')}.jpg`)!;
        const ours = await decodeImage(await entry.async('uint8array'));
        const own = blockSsim(ours, await decodeImage(pdftoppmPng(pdfPath, n, 300)));
        expect(own, `page ${n} of the Blob download vs pdftoppm`).toBeGreaterThanOrEqual(0.9);
        const other = blockSsim(ours, await decodeImage(pdftoppmPng(pdfPath, (n % 100) + 1, 300)));
        expect(other, `page ${n} vs pdftoppm's page ${(n % 100) + 1}`).toBeLessThan(own - 0.1);
      }
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  test(
    'the picker decision waits for the PDF check: "Checking the PDF…" until the pages are read, then the same ' +
      'job always asks',
    async () => {
      // 100 letter pages at 300 dpi are estimated at 252 MB from the pages, but the file is far under
      // 200 MB: a click that estimated from the file's size would not ask.
      const pdf = await numberedPdf(100, () => [612, 792]);
      expect(pdf.byteLength).toBeLessThan(10 * 1024 * 1024);
      const { page, context, errors } = await openToolModal(shared.browser, 'pdf-to-jpg');
      const dialog = page.getByRole('dialog');
      const button = dialog.getByRole('button', { name: 'Process Files', exact: true });
      const reason = dialog.locator('.process-reason');
      // The check (the thumbnail worker, workers/bridge.ts openThumbnails) gets its messages only once
      // the test releases them; the picker stand-in records its calls and is dismissed.
      await page.evaluate(() => {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        const asked: string[] = [];
        Object.assign(window, { releaseCheck: release, pickerAsked: asked });
        const PageWorker = window.Worker;
        window.Worker = class extends PageWorker {
          constructor(url: string | URL, options?: WorkerOptions) {
            super(url, options);
            if (options?.name !== 'folio-thumbnails') return;
            const post = this.postMessage.bind(this) as (...args: unknown[]) => void;
            this.postMessage = ((...args: unknown[]) =>
              void held.then(() => post(...args))) as (typeof PageWorker)['prototype']['postMessage'];
          }
        };
        Object.defineProperty(window, 'showSaveFilePicker', { configurable: true, value: undefined });
      });
      await page.locator('input[type=file]').first().setInputFiles(pdfUpload('big.pdf', pdf));
      // Without a picker there is nothing to decide: the button does not wait for the check.
      await expect.poll(() => button.isEnabled()).toBe(true);
      expect(await dialog.locator('.file-pages').textContent()).toBe('Reading…');

      await page.evaluate(() =>
        Object.defineProperty(window, 'showSaveFilePicker', {
          configurable: true,
          value: async ({ suggestedName }: { suggestedName: string }) => {
            (window as unknown as { pickerAsked: string[] }).pickerAsked.push(suggestedName);
            throw new DOMException('The user aborted a request.', 'AbortError');
          },
        }),
      );
      await dialog.getByLabel('Resolution').selectOption('300');
      await expect.poll(() => reason.textContent()).toBe('Checking the PDF…');
      expect(await button.isDisabled()).toBe(true);
      expect(await dialog.locator('.file-pages').textContent()).toBe('Reading…');

      await page.evaluate(() => (window as unknown as { releaseCheck(): void }).releaseCheck());
      await expect.poll(() => dialog.locator('.file-pages').textContent(), checkWait).toBe('100 pages');
      await expect.poll(() => button.isEnabled()).toBe(true);
      expect(await reason.count()).toBe(0);
      await processFiles(page);
      await expect
        .poll(() => dialog.getByRole('alert').textContent())
        .toBe('Not started: no place was chosen to save the result.');
      expect(await page.evaluate(() => (window as unknown as { pickerAsked: string[] }).pickerAsked)).toEqual([
        'big-pages.zip',
      ]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
