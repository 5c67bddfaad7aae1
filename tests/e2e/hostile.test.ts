/**
 * The worst hostile recipes of issue #21 in Chromium, through the tool modal: a PDF page whose
 * content stream inflates to 4 GB, a sheet reaching cell XFD1048576 and a CSV with a 10 MB line
 * (which crashed or hung the tab before). Each must end in the error line with a message for
 * people, the tab alive, and a small job in the same modal must then succeed.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Page, Worker } from 'playwright-core';
import { baseUrl, openPage, type Upload, sharedBrowser } from './harness.ts';
import {
  contentBombPdf,
  encryptedPdf,
  hugeDimensionXlsx,
  hugeImagePdf,
  longLineCsv,
  manyPagesPdf,
  manyRowsCsv,
} from '../support/hostile-recipes.ts';
import { INTERNAL_WORDING } from '../support/messages.ts';
import { postInPage } from './page-api.ts';

const shared = sharedBrowser();

/** Engine workers of the page (job and thumbnails: same script), with when each closed, if it did. */
interface TrackedWorker {
  worker: Worker;
  /** The name the bridge gave it: 'folio-engine' (jobs) or 'folio-thumbnails'. */
  name?: string;
  closed: boolean;
}

async function openTool(toolId: string) {
  const watched = await openPage(shared.browser, `/tools/${toolId}`);
  const workers: TrackedWorker[] = [];
  watched.page.on('worker', (worker) => {
    if (!worker.url().includes('engine.worker')) return;
    const tracked: TrackedWorker = { worker, closed: false };
    workers.push(tracked);
    worker.on('close', () => (tracked.closed = true));
    void worker
      .evaluate(() => self.name)
      .then(
        (name) => (tracked.name = name),
        () => undefined,
      );
  });
  await watched.page.getByRole('button', { name: 'Upload Files' }).first().click();
  await watched.page.getByRole('dialog').waitFor();
  return { ...watched, workers };
}

/** Picks `file`, processes, and returns the error line's text once it shows one. */
async function processExpectingError(page: Page, file: Upload, previous = ''): Promise<string> {
  await page.locator('input[type=file]').setInputFiles([file]);
  // The button waits ('Checking the PDF…') until the file's check answers, which gives up after 30 s.
  await page.getByRole('button', { name: 'Process Files', exact: true }).click({ timeout: 60_000 });
  const alert = page.locator('.error-line');
  await expect
    .poll(
      async () => {
        const text = (await alert.textContent())?.trim() ?? '';
        return text !== '' && text !== previous;
      },
      { timeout: 90_000 },
    )
    .toBe(true);
  return (await alert.textContent())!.trim();
}

/** The error line's text, once it has one. */
async function errorLine(page: Page): Promise<string> {
  const line = page.locator('.error-line');
  await expect.poll(async () => (await line.textContent())?.trim() ?? '').not.toBe('');
  return (await line.textContent())!.trim();
}

/** After an error: start over with a small file and expect a download. */
async function smallJobWorks(page: Page, file: Upload): Promise<Uint8Array> {
  const remove = page.getByRole('button', { name: /^Remove/ });
  while ((await remove.count()) > 0) await remove.first().click();
  await page.locator('input[type=file]').setInputFiles([file]);
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 90_000 }),
    page.getByRole('button', { name: 'Process Files', exact: true }).click(),
  ]);
  return new Uint8Array(readFileSync(await download.path()));
}

describe('hostile inputs in Chromium', () => {
  test('PDF to JPG: a 4 GB content-stream bomb is refused as soon as it is picked; the tab lives and renders a small PDF next', async () => {
    const { page, context } = await openTool('pdf-to-jpg');
    await page
      .locator('input[type=file]')
      .setInputFiles([{ name: 'bomb.pdf', mimeType: 'application/pdf', buffer: Buffer.from(contentBombPdf(4)) }]);
    // The file's own check (the thumbnail worker) refuses it; Process Files then says why without a job.
    await page.getByText('Refused: too large to open safely').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Process Files', exact: true }).click();
    const message = await errorLine(page);
    expect(message).toMatch(/^"bomb\.pdf": .*decompression bomb/);
    expect(message).not.toMatch(INTERNAL_WORDING);
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    const jpeg = await smallJobWorks(page, {
      name: 'small.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(manyPagesPdf(1)),
    });
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    await context.close();
  });

  test('PDF to JPG: the same bomb in an AES-256 stream is refused once its password is typed, by the check and by the job', async () => {
    const { page, context } = await openTool('pdf-to-jpg');
    const locked = await encryptedPdf(contentBombPdf(4), 'AES-256', 'secret');
    await page
      .locator('input[type=file]')
      .setInputFiles([{ name: 'locked-bomb.pdf', mimeType: 'application/pdf', buffer: Buffer.from(locked) }]);
    await page.getByText('Needs its password').waitFor();
    await page.getByLabel('PDF password').fill('secret');
    await page.getByText('Refused: too large to open safely').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Process Files', exact: true }).click();
    const message = await errorLine(page);
    expect(message).toMatch(/^"locked-bomb\.pdf": .*decompression bomb/);
    expect(message).not.toMatch(INTERNAL_WORDING);
    // The job's own check, which an /api caller meets (no file check before it), refuses it the same way.
    const answer = await postInPage(page, '/api/pdf/toJpg', [['file', 'locked-bomb.pdf', locked]], {
      inputPassword: 'secret',
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text ?? '{}').error).toBe(message);
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    await context.close();
  });

  test('Excel to PDF: a sheet reaching XFD1048576 and a CSV with a 10 MB line are refused; a small CSV converts next', async () => {
    const { page, context } = await openTool('excel-to-pdf');
    const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const sparse = await processExpectingError(page, {
      name: 'far.xlsx',
      mimeType: xlsxType,
      buffer: Buffer.from(await hugeDimensionXlsx(true)),
    });
    expect(sparse).toMatch(/too sparse to print/);
    const remove = page.getByRole('button', { name: /^Remove/ });
    while ((await remove.count()) > 0) await remove.first().click();
    const long = await processExpectingError(
      page,
      { name: 'long.csv', mimeType: 'text/csv', buffer: Buffer.from(longLineCsv(10e6)) },
      sparse,
    );
    expect(long).toMatch(/longer than 32,767 characters/);
    expect(long).not.toMatch(INTERNAL_WORDING);
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    const pdf = await smallJobWorks(page, {
      name: 'small.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(manyRowsCsv(20)),
    });
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    await context.close();
  });
});

/**
 * Memory given back (issue #21): the resident memory of the browser's renderer processes, read from
 * /proc/<pid>/status (VmRSS) for the pids Chromium lists (CDP SystemInfo.getProcessInfo). A
 * dedicated worker runs inside its page's renderer process, so this counts the tab and all its
 * workers, WASM heaps and canvases included — which performance.getMetrics (the page's JS heap only)
 * and performance.measureUserAgentSpecificMemory (JS heaps, after a GC of its own choosing) do not.
 */
async function rendererBytes(): Promise<number> {
  const cdp = await shared.browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
      processInfo: Array<{ type: string; id: number }>;
    };
    let total = 0;
    for (const { id } of processInfo.filter((p) => p.type === 'renderer')) {
      try {
        total += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0) * 1024;
      } catch {
        /* the process ended meanwhile */
      }
    }
    return total;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** Samples rendererBytes() every 250 ms until stopped; returns the highest seen. */
function samplePeak(): { stop(): Promise<number> } {
  let running = true;
  let peak = 0;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, await rendererBytes());
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return { stop: async () => ((running = false), await loop, peak) };
}

const MB = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;

/** After a first small job (engine loaded, worker warm): the level memory must come back to. */
async function baseline(page: Page, small: Upload): Promise<number> {
  await smallJobWorks(page, small);
  await page.getByRole('button', { name: 'Start over' }).click();
  return rendererBytes();
}

/**
 * Runs the heavy job (`start`), then checks that its job worker was terminated and that the tab's
 * memory comes back within 1.5× of `before`; logs the figures for docs/hostile-inputs.md.
 */
async function expectMemoryGivenBack(
  label: string,
  before: number,
  workers: TrackedWorker[],
  start: () => Promise<void>,
  { workerEnds = true } = {},
): Promise<void> {
  const sampler = samplePeak();
  let peak = 0;
  try {
    await start();
  } finally {
    peak = await sampler.stop();
  }
  if (workerEnds)
    await expect
      .poll(() => workers.filter((w) => w.name === 'folio-engine' && !w.closed).length, { timeout: 30_000 })
      .toBe(0);
  let after = 0;
  await expect
    .poll(async () => (after = await rendererBytes()), { timeout: 60_000, interval: 500 })
    .toBeLessThanOrEqual(before * 1.5);
  console.log(
    `memory ${label}: before ${MB(before)}, peak ${MB(peak)}, after ${MB(after)} (${(after / before).toFixed(2)}×)`,
  );
}

const pdf = (name: string, bytes: Uint8Array): Upload => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from(bytes),
});

describe('memory given back, and workers terminated, after heavy jobs (Chromium, renderer RSS)', () => {
  test('PDF to JPG: the 4 GB bomb', async () => {
    const { page, context, workers } = await openTool('pdf-to-jpg');
    const before = await baseline(page, pdf('small.pdf', manyPagesPdf(1)));
    await expectMemoryGivenBack('PDF to JPG, 4 GB bomb', before, workers, async () => {
      expect(await processExpectingError(page, pdf('bomb.pdf', contentBombPdf(4)))).toMatch(/decompression bomb/);
    });
    await context.close();
  });

  test('PDF to Word: a 30,000 × 30,000 image gives a .docx', async () => {
    const { page, context, workers } = await openTool('pdf-to-word');
    const before = await baseline(page, pdf('small.pdf', manyPagesPdf(1)));
    // The job succeeds and is small by its estimate: its worker may stay warm, memory must come back all the same.
    await expectMemoryGivenBack(
      'PDF to Word, 30,000² image',
      before,
      workers,
      async () => {
        const docx = await smallJobWorks(page, pdf('huge-image.pdf', hugeImagePdf(30_000, 30_000)));
        expect(new TextDecoder().decode(docx.subarray(0, 2))).toBe('PK');
      },
      { workerEnds: false },
    );
    await context.close();
  });

  test('Excel to PDF: a sheet reaching XFD1048576', async () => {
    const { page, context, workers } = await openTool('excel-to-pdf');
    const before = await baseline(page, {
      name: 'small.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(manyRowsCsv(20)),
    });
    const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    await expectMemoryGivenBack('Excel to PDF, XFD1048576', before, workers, async () => {
      const far = { name: 'far.xlsx', mimeType: xlsxType, buffer: Buffer.from(await hugeDimensionXlsx(true)) };
      expect(await processExpectingError(page, far)).toMatch(/too sparse to print/);
    });
    await context.close();
  });

  test('a cancelled job terminates its worker: PDF to JPG at 300 dpi PNG, cancelled after its first pages', async () => {
    const { page, context, workers } = await openTool('pdf-to-jpg');
    // Its estimated result (300 pages at 300 dpi, PNG) is over 200 MB, so Process Files would ask where
    // to save it first, and headless Chromium never answers the save picker: this test is about Cancel,
    // so it runs as a browser without the picker does (the picker path: render-pool.test.ts).
    await page.evaluate(() =>
      Object.defineProperty(window, 'showSaveFilePicker', { configurable: true, value: undefined }),
    );
    const before = await baseline(page, pdf('small.pdf', manyPagesPdf(1)));
    await expectMemoryGivenBack('PDF to JPG 300 dpi PNG, cancelled', before, workers, async () => {
      await page.locator('input[type=file]').setInputFiles([pdf('long.pdf', manyPagesPdf(300))]);
      await page.getByLabel('Resolution').selectOption('custom');
      await page.getByLabel('Custom resolution').fill('300');
      await page.getByLabel('Image format').selectOption('png');
      await page.getByRole('button', { name: 'Process Files', exact: true }).click();
      const progress = page.getByRole('progressbar');
      await expect
        .poll(async () => Number((await progress.getAttribute('value').catch(() => null)) ?? 0), { timeout: 90_000 })
        .toBeGreaterThanOrEqual(2);
      expect(workers.filter((w) => w.name === 'folio-engine' && !w.closed)).toHaveLength(1);
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    });
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    await context.close();
  });
});

describe('no internal message reaches a user', () => {
  test('an engine bug (a TypeError) shows a plain sentence, with the details folded under "Copy details"', async () => {
    // The fault is injected by serving rotate-pdf's engine chunk as a module whose run() has a bug;
    // the service worker is blocked so the worker's module request reaches this route.
    const context = await shared.browser.newContext({
      baseURL: baseUrl(),
      serviceWorkers: 'block',
      acceptDownloads: true,
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const buggyEngine = 'export const run = async (inputs) => inputs[0].pages.length;';
    let served = 0;
    await context.route(/\/assets\/engine\/rotate-pdf-[^/]+\.js$/, (route) => {
      served++;
      return route.fulfill({ contentType: 'text/javascript', body: buggyEngine });
    });
    const page = await context.newPage();
    await page.goto('/tools/rotate-pdf');
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    const message = await processExpectingError(page, pdf('small.pdf', manyPagesPdf(1)));
    expect(served).toBeGreaterThan(0);
    expect(message).toMatch(/^Something went wrong in Folio while processing this file\. Nothing left your device\./);
    expect(message).not.toMatch(INTERNAL_WORDING);
    const details = page.locator('details.error-details');
    await details.locator('summary', { hasText: 'Details for a bug report' }).click();
    await expect
      .poll(() => details.locator('pre').textContent())
      .toMatch(/TypeError: Cannot read properties of undefined \(reading 'length'\)/);
    await details.getByRole('button', { name: 'Copy details' }).click();
    await expect.poll(() => details.getByRole('button', { name: 'Copied' }).count()).toBe(1);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('Folio rotate-pdf');
    expect(copied).toContain("TypeError: Cannot read properties of undefined (reading 'length')");
    await context.close();
  });
});
