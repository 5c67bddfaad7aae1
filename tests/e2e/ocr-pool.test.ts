/**
 * OCR of a scanned document of several pages in Chromium (workers/engine/lib/ocr/ocr-pipeline.ts):
 * with the page pictures drawn on two render workers while tesseract recognises, every page's text
 * comes back on its own slide, in page order; Cancel during OCR terminates the render workers and
 * the tesseract worker with the engine worker, and the next job works.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Page, Worker } from 'playwright-core';
import { openToolModal, sharedBrowser } from './harness.ts';
import { characterErrorRate, readPptx } from '../support/office-fixtures.ts';
import { buildScannedPages } from '../support/ocr-fixtures.ts';

const shared = sharedBrowser();
let scan: { bytes: Uint8Array; pageTexts: string[] };
beforeAll(async () => {
  scan = await buildScannedPages(4);
});

const isRenderWorker = (worker: Worker) => /\/render\.worker-[^/]+\.js$/.test(worker.url());
const isTesseractWorker = (worker: Worker) => worker.url().includes('/engine-data/tesseract/');

/** Workers the page starts from now on that `matches`, as they start. */
function watchWorkers(page: Page, matches: (worker: Worker) => boolean): Worker[] {
  const seen: Worker[] = [];
  page.on('worker', (worker) => {
    if (matches(worker)) seen.push(worker);
  });
  return seen;
}

/** Posts the scan to the in-page /api's PDF → PowerPoint with OCR; the answer is kept on `window.jobAnswer`. */
async function startJob(page: Page, bytes: Uint8Array, fields: Record<string, string>): Promise<void> {
  await page.evaluate(
    async ({ bytes, fields }) => {
      const controller = new AbortController();
      const form = new FormData();
      form.append('file', new File([new Uint8Array(bytes)], 'scan.pdf', { type: 'application/pdf' }));
      for (const [key, value] of Object.entries({ ocr: 'true', ...fields })) form.append(key, value);
      const answer = fetch('/api/pdf/toPowerPoint', { method: 'POST', body: form, signal: controller.signal }).then(
        async (response) => ({ status: response.status, bytes: [...new Uint8Array(await response.arrayBuffer())] }),
        (error: Error) => ({ status: 0, error: error.name, bytes: [] as number[] }),
      );
      Object.assign(window, { cancelJob: () => controller.abort(), jobAnswer: answer });
    },
    { bytes: [...bytes], fields },
  );
}

const jobAnswer = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { jobAnswer: Promise<{ status: number; error?: string; bytes: number[] }> }).jobAnswer,
  );

describe('OCR with pages drawn on the render pool, in the browser', () => {
  test("two render workers: each slide has its own page's recognised text, in page order", async () => {
    const { page, context, errors } = await openToolModal(shared.browser, 'pdf-to-ppt');
    const renderWorkers = watchWorkers(page, isRenderWorker);
    // Two render workers asked for explicitly (on a 2-core machine the engine's own thread draws).
    await startJob(page, scan.bytes, { renderWorkers: '2' });
    const answer = await jobAnswer(page);
    expect(answer.status).toBe(200);
    expect(renderWorkers.length).toBe(2);
    const pptx = await readPptx(new Uint8Array(answer.bytes));
    expect(pptx.slides).toHaveLength(4);
    for (const [index, text] of scan.pageTexts.entries()) {
      const own = characterErrorRate(text, pptx.slides[index]);
      expect(own, `slide ${index + 1}: ${pptx.slides[index]}`).toBeLessThanOrEqual(0.03);
      // The check tells pages apart: a page out of place would carry its neighbour's sentence.
      const neighbour = characterErrorRate(scan.pageTexts[(index + 1) % 4], pptx.slides[index]);
      expect(neighbour, `slide ${index + 1} vs page ${((index + 1) % 4) + 1}`).toBeGreaterThan(own + 0.3);
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);

  test('Cancel during OCR terminates the render workers and tesseract with the engine worker; the next job works', async () => {
    const { page, context } = await openToolModal(shared.browser, 'pdf-to-ppt');
    const renderWorkers = watchWorkers(page, isRenderWorker);
    const tesseractWorkers = watchWorkers(page, isTesseractWorker);
    await startJob(page, scan.bytes, { renderWorkers: '2' });
    // Both lanes drawing and tesseract started: the job is in its OCR stage.
    await expect.poll(() => renderWorkers.length, { timeout: 120_000 }).toBe(2);
    await expect.poll(() => tesseractWorkers.length, { timeout: 120_000 }).toBe(1);
    const closed = Promise.all(
      [...renderWorkers, ...tesseractWorkers].map((worker) => worker.waitForEvent('close', { timeout: 30_000 })),
    );
    await page.evaluate(() => (window as unknown as { cancelJob(): void }).cancelJob());
    await closed;
    expect((await jobAnswer(page)).error).toBe('AbortError');

    await startJob(page, scan.bytes, { pages: '3' });
    const again = await jobAnswer(page);
    expect(again.status).toBe(200);
    const pptx = await readPptx(new Uint8Array(again.bytes));
    expect(pptx.slides).toHaveLength(1);
    expect(characterErrorRate(scan.pageTexts[2], pptx.slides[0])).toBeLessThanOrEqual(0.03);
    await context.close();
  }, 300_000);
});
