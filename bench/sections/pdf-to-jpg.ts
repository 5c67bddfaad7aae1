/**
 * npm run bench -- pdf-to-jpg
 *
 * pdf-to-jpg at 150 dpi, quality 85, over pages 1–50 of a real 117-page corpus document, beside
 * native Poppler `pdftoppm -jpeg -jpegopt quality=85 -r 150` on the same pages in the same run:
 * pages per second, output bytes, and the ratio (goal: at most 2× pdftoppm's time). In Node the
 * engine renders in-process (pdf.js + @napi-rs/canvas, its JPEG encoder), measured after one
 * warm-up page. When dist/ has been built, the same conversion runs in Debian's Chromium through
 * the app itself (the modal, the in-page /api, the engine worker and its render workers), click to
 * download, then through the in-page /api with one render worker or the pool, MozJPEG or the
 * browser's encoder; each page of the modal's ZIP is compared with pdftoppm's (block SSIM on grey).
 * Then a 20,000-page PDF (FOLIO_BENCH_MANY_PAGES to change) at 30 dpi through the modal beside
 * pdftoppm, with the progress bar sampled (pages/s per fifth of the job, longest still time).
 * Also: jpg-to-pdf over the corpus photos (JPEGs embedded as they are), and add-watermark
 * (text, tiled, every page) over the same document.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import type { Download, Page } from 'playwright-core';
import {
  browserPeakSampler,
  CORPUS,
  corpusFile,
  fmtBytes,
  hasCommand,
  loadEngineModules,
  servedApp,
  timed,
  treeCpuSeconds,
  waitedChildrenCpuSeconds,
} from '../lib.ts';
import { blockSsim, decodeImage } from '../../tests/support/images.ts';
import { manyPagesPdf } from '../../tests/support/hostile-recipes.ts';

const DOCUMENT = 'pdf/large/sf-geotopo-komprimiert.pdf';
const PAGES = 50;
const DPI = 150;
const QUALITY = 85;
/** The many-page row (issue #21: big is not hostile): pages and a low resolution. */
const MANY_PAGES = Number(process.env.FOLIO_BENCH_MANY_PAGES ?? 20_000);
const MANY_DPI = 30;

/** The native reference: `pdftoppm -jpeg` at the bench's quality into files named `<prefix>-N.jpg`. */
const pdftoppmJpeg = (pdfPath: string, prefix: string, dpi: number, pageArgs: string[] = []) =>
  execFileSync(
    'pdftoppm',
    ['-jpeg', '-jpegopt', `quality=${QUALITY}`, '-r', String(dpi), ...pageArgs, pdfPath, prefix],
    { stdio: 'ignore' },
  );

async function loadEngines() {
  const { modules, close } = await loadEngineModules({
    pdfToJpg: '/workers/engine/tools/pdf-to-jpg.ts',
    jpgToPdf: '/workers/engine/tools/jpg-to-pdf.ts',
    addWatermark: '/workers/engine/tools/add-watermark.ts',
  });
  return {
    pdfToJpg: modules.pdfToJpg.run,
    jpgToPdf: modules.jpgToPdf.run,
    addWatermark: modules.addWatermark.run,
    close,
  };
}

interface ChromiumFigures {
  /** 50 pages through the modal, click to download (the default: lanes by cores, the browser's JPEG encoder). */
  modal: { seconds: number; cpu: number; peak: number; zip: Uint8Array };
  /** The same job with the modal's backdrop still blurred while it runs (as before that was dropped). */
  modalBlurred: { seconds: number; cpu: number };
  /** The same pages through the in-page /api with other engine settings, for comparison in the same run. */
  variants: Array<{ label: string; seconds: number; cpu: number; peak: number; bytes: number; error?: string }>;
  /** The many-page document through the modal, with the progress bar sampled. */
  many?: {
    seconds: number;
    cpu: number;
    peak: number;
    bytes: number;
    entries: number;
    samples: Array<[number, number]>;
  };
}

/**
 * The same jobs in Chromium through the built app, or undefined without dist/: the modal (the in-page
 * /api, the engine worker, its render workers), click to download; variants posted to the in-page
 * /api from the page (same path minus the click); and the many-page document through the modal,
 * its progress bar read every 250 ms.
 */
/**
 * Clicks Process Files and waits for the download, or fails at once with the modal's error line: a job
 * that fails gives no download, and waiting for one would look like a hang.
 */
async function processAndDownload(page: Page, timeout: number): Promise<Download> {
  const dialog = page.getByRole('dialog');
  const failed = dialog
    .locator('.error-line')
    .filter({ hasText: /\S/ })
    .waitFor({ timeout })
    .then(async () => {
      throw new Error(`the modal says: ${await dialog.locator('.error-line').innerText()}`);
    });
  const [download] = await Promise.all([
    Promise.race([page.waitForEvent('download', { timeout }), failed]),
    dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
  ]);
  failed.catch(() => undefined);
  return download;
}

async function inChromium(bytes: Uint8Array, many?: Uint8Array): Promise<ChromiumFigures | undefined> {
  const app = await servedApp();
  if (!app) return undefined;
  try {
    const context = await app.browser.newContext({ acceptDownloads: true, baseURL: app.baseURL });
    const page = await context.newPage();
    page.setDefaultTimeout(0);
    // On a first visit the service worker precaches the app, then caches the core engine files in the
    // background (~160 files, ~1 s of CPU): heard here, awaited before the timed jobs (it once landed in
    // the modal row).
    await page.addInitScript(() => {
      navigator.serviceWorker?.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
        if (event.data?.type === 'engine-cache-finished')
          (window as { benchEnginesCached?: boolean }).benchEnginesCached = true;
      });
    });
    await page.goto('/tools/pdf-to-jpg');
    // The many-page ZIP is estimated over 200 MB, which would open the save picker (headless Chromium
    // never answers it): without it the result is a Blob download, as in browsers without the picker.
    await page.evaluate(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
    await page.waitForFunction(() => (window as { benchEnginesCached?: boolean }).benchEnginesCached, undefined, {
      timeout: 120_000,
    });
    await page
      .getByRole('button', { name: /Upload Files|Get Started/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'geotopo.pdf', mimeType: 'application/pdf', buffer: Buffer.from(bytes) });
    await dialog.getByLabel('Resolution').selectOption(String(DPI));
    await dialog.getByLabel('JPEG quality').fill(String(QUALITY));
    // Warm-up: one page with MozJPEG (in the engine worker), then two pages with the default (the
    // render workers' code compiled once): one-off costs, left out of the figures as in Node.
    await dialog.getByLabel('Pages').fill('1');
    await dialog.getByLabel('Image format').selectOption('jpeg-smallest');
    await processAndDownload(page, 120_000);
    await dialog.getByLabel('Image format').selectOption('jpeg');
    await dialog.getByLabel('Pages').fill('1-2');
    await processAndDownload(page, 120_000);
    await dialog.getByLabel('Pages').fill(`1-${PAGES}`);
    // CPU time of all of Chromium's processes (children of this one) over each job: what the job
    // costs whatever else the machine is doing.
    const browserCpu = () => treeCpuSeconds(globalThis.process.pid, false);
    let cpuStart = browserCpu();
    // Peak resident memory of all of Chromium's processes above their level before each job.
    let memory = browserPeakSampler();
    const start = performance.now();
    const download = await processAndDownload(page, 600_000);
    const seconds = (performance.now() - start) / 1000;
    const modal = { seconds, cpu: browserCpu() - cpuStart, peak: memory.stop(), zip: new Uint8Array() };
    modal.zip = new Uint8Array(readFileSync(await download.path()));
    console.log(`  (Chromium: modal, ${PAGES} pages: ${seconds.toFixed(1)} s)`);
    // Before/after in one run: the blurred backdrop is recomposited at every progress step (global.css).
    const blur = await page.addStyleTag({
      content: '.modal-backdrop:has(.progress-block) { backdrop-filter: blur(3px) !important; }',
    });
    cpuStart = browserCpu();
    const blurredStart = performance.now();
    await processAndDownload(page, 600_000);
    const modalBlurred = { seconds: (performance.now() - blurredStart) / 1000, cpu: browserCpu() - cpuStart };
    await blur.evaluate((element) => (element as Element).remove());

    // The variants post the file picked in an input of the bench's own (the modal keeps its files to itself).
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'bench-file';
      input.hidden = true;
      document.body.append(input);
    });
    await page
      .locator('#bench-file')
      .setInputFiles({ name: 'geotopo.pdf', mimeType: 'application/pdf', buffer: Buffer.from(bytes) });
    const variants: ChromiumFigures['variants'] = [];
    for (const [label, fields] of [
      ['one worker, MozJPEG (the engine before the pool)', { format: 'jpeg-smallest', renderWorkers: '1' }],
      ['one worker, browser JPEG encoder', { format: 'jpeg', renderWorkers: '1' }],
      ['render pool of 2, MozJPEG ("smallest files")', { format: 'jpeg-smallest', renderWorkers: '2' }],
      ['render pool of 2, browser JPEG encoder', { format: 'jpeg', renderWorkers: '2' }],
      ['one worker, browser JPEG encoder, again', { format: 'jpeg', renderWorkers: '1' }],
      ['render pool of 2, browser JPEG encoder, again', { format: 'jpeg', renderWorkers: '2' }],
      ['the default (lanes by cores), browser JPEG encoder, all pages at 300 dpi', { resolution: '300', pages: '' }],
    ] as const) {
      cpuStart = browserCpu();
      memory = browserPeakSampler();
      const outcome = await page.evaluate(
        async ({ fields }) => {
          const form = new FormData();
          form.append('file', (document.querySelector('#bench-file') as HTMLInputElement).files![0]);
          for (const [key, value] of Object.entries(fields)) form.append(key, value);
          const started = performance.now();
          const response = await fetch('/api/pdf/toJpg', { method: 'POST', body: form });
          const blob = await response.blob();
          const ms = performance.now() - started;
          return { ms, size: blob.size, error: response.ok ? undefined : (await blob.text()).slice(0, 200) };
        },
        {
          fields: { mode: 'pages', resolution: String(DPI), quality: String(QUALITY), pages: `1-${PAGES}`, ...fields },
        },
      );
      variants.push({
        label,
        seconds: outcome.ms / 1000,
        cpu: browserCpu() - cpuStart,
        peak: memory.stop(),
        bytes: outcome.size,
        error: outcome.error,
      });
      console.log(`  (Chromium: ${label}: ${(outcome.ms / 1000).toFixed(1)} s)`);
    }

    let manyFigures: ChromiumFigures['many'];
    if (many) {
      await page
        .locator('input[type=file]')
        .first()
        .setInputFiles({ name: 'many.pdf', mimeType: 'application/pdf', buffer: Buffer.from(many) });
      await dialog.getByLabel('Resolution').selectOption('custom');
      await dialog.getByLabel('Custom resolution').fill(String(MANY_DPI));
      await dialog.getByLabel('Pages').fill('');
      const samples: Array<[number, number]> = [];
      cpuStart = browserCpu();
      memory = browserPeakSampler();
      const manyStart = performance.now();
      const downloaded = processAndDownload(page, 0);
      let finished = false;
      void downloaded.finally(() => (finished = true));
      while (!finished) {
        // Read without waiting: a locator would wait for a <progress> (forever, with the page's timeout 0)
        // once the job has ended and the bar is gone but the download event is not here yet — the
        // bench then hung with Chromium idle.
        const value = await page.evaluate(() => document.querySelector('progress')?.value ?? -1);
        if (value >= 0) samples.push([(performance.now() - manyStart) / 1000, value]);
        await new Promise((r) => setTimeout(r, 250));
      }
      const file = await downloaded;
      const seconds = (performance.now() - manyStart) / 1000;
      const peak = memory.stop();
      const out = new Uint8Array(readFileSync(await file.path()));
      const entries = Object.keys((await JSZip.loadAsync(out)).files).length;
      manyFigures = { seconds, cpu: browserCpu() - cpuStart, peak, bytes: out.length, entries, samples };
    }
    return { modal, modalBlurred, variants, many: manyFigures };
  } finally {
    await app.close();
  }
}

/** Pages per second in each fifth of the job, and the longest time the progress bar stood still. */
function steadiness(samples: Array<[number, number]>, total: number): string {
  if (samples.length < 2) return 'no progress samples';
  let longestStill = 0;
  let lastChange = samples[0][0];
  for (let i = 1; i < samples.length; i++) {
    if (samples[i][1] !== samples[i - 1][1]) lastChange = samples[i][0];
    longestStill = Math.max(longestStill, samples[i][0] - lastChange);
  }
  const rates: string[] = [];
  for (let fifth = 1; fifth <= 5; fifth++) {
    const from = samples.find(([, v]) => v >= ((fifth - 1) * total) / 5);
    const to = samples.find(([, v]) => v >= (fifth * total) / 5) ?? samples[samples.length - 1];
    if (from && to && to[0] > from[0]) rates.push(((to[1] - from[1]) / (to[0] - from[0])).toFixed(0));
  }
  const first = samples.find(([, v]) => v > 0);
  return (
    `pages/s per fifth of the job: ${rates.join(', ')}; first page after ${first ? first[0].toFixed(1) : '?'} s;` +
    ` progress bar never still for more than ${longestStill.toFixed(1)} s`
  );
}

/** Block SSIM of each page Folio drew in Chromium against pdftoppm's JPEG of the same page (both quality 85). */
async function similarity(zipBytes: Uint8Array, pdftoppmDir: string) {
  const zip = await JSZip.loadAsync(zipBytes);
  const references = readdirSync(pdftoppmDir)
    .filter((f) => f.endsWith('.jpg'))
    .sort();
  let sum = 0;
  let lowest = 1;
  let lowestPage = 0;
  let pages = 0;
  for (const name of Object.keys(zip.files).sort()) {
    const page = Number(/-p(\d+)\.jpg$/.exec(name)?.[1]);
    const reference = references.find((f) => Number(/-(\d+)\.jpg$/.exec(f)?.[1]) === page);
    if (!reference) continue;
    const ours = await decodeImage(await zip.file(name)!.async('uint8array'));
    const theirs = await decodeImage(new Uint8Array(readFileSync(join(pdftoppmDir, reference))));
    const ssim = blockSsim(ours, theirs);
    sum += ssim;
    pages++;
    if (ssim < lowest) [lowest, lowestPage] = [ssim, page];
  }
  return { pages, mean: pages ? sum / pages : 0, lowest, lowestPage };
}

export async function run(): Promise<void> {
  const bytes = corpusFile(DOCUMENT);
  if (!bytes) {
    console.log(`corpus document ${DOCUMENT} not found: skipped`);
    return;
  }
  const engines = await loadEngines();
  try {
    const input = [{ name: 'geotopo.pdf', bytes }];
    const options = { mode: 'pages', resolution: String(DPI), format: 'jpeg', quality: QUALITY };
    const warm = await timed(() => engines.pdfToJpg(input, { ...options, pages: '1' }, {}));
    const ours = await timed(() => engines.pdfToJpg(input, { ...options, pages: `1-${PAGES}` }, {}));
    const oursRate = PAGES / (ours.ms / 1000);
    console.log(
      `document: ${DOCUMENT} (${fmtBytes(bytes.length)}), pages 1-${PAGES} at ${DPI} dpi, JPEG quality ${QUALITY}`,
    );
    console.log(
      `Folio pdf-to-jpg (Node ${process.versions.node}, in-process, pdf.js + @napi-rs/canvas): ` +
        `${(ours.ms / 1000).toFixed(1)} s, ${oursRate.toFixed(2)} pages/s, converted.zip ` +
        `${fmtBytes(ours.value.bytes.length)} (first-call warm-up incl. WASM: ${(warm.ms / 1000).toFixed(2)} s)`,
    );

    if (hasCommand('pdftoppm')) {
      const dir = mkdtempSync(join(tmpdir(), 'folio-bench-pdftoppm-'));
      try {
        const source = join(CORPUS, DOCUMENT);
        const nativeCpuStart = waitedChildrenCpuSeconds();
        const native = await timed(() => pdftoppmJpeg(source, join(dir, 'p'), DPI, ['-f', '1', '-l', String(PAGES)]));
        const nativeCpu = waitedChildrenCpuSeconds() - nativeCpuStart;
        const nativeBytes = readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
        const nativeRate = PAGES / (native.ms / 1000);
        console.log(
          `native pdftoppm -jpeg -r ${DPI}: ${(native.ms / 1000).toFixed(1)} s (CPU ${nativeCpu.toFixed(1)} s),` +
            ` ${nativeRate.toFixed(2)} pages/s, ${fmtBytes(nativeBytes)} of JPEGs`,
        );
        console.log(
          `ratio (Node): Folio takes ${(ours.ms / native.ms).toFixed(2)}× pdftoppm's time (goal ≤ 2×); output ` +
            `${(ours.value.bytes.length / nativeBytes).toFixed(2)}× the bytes`,
        );

        // The many-page document: written by the hostile suite's generator, converted by pdftoppm first.
        const many = manyPagesPdf(MANY_PAGES);
        const manyPath = join(dir, 'many.pdf');
        writeFileSync(manyPath, many);
        const manyDir = join(dir, 'many');
        mkdirSync(manyDir);
        const manyCpuStart = waitedChildrenCpuSeconds();
        const manyNative = await timed(() => pdftoppmJpeg(manyPath, join(manyDir, 'p'), MANY_DPI));
        const manyNativeCpu = waitedChildrenCpuSeconds() - manyCpuStart;
        const manyNativeBytes = readdirSync(manyDir).reduce((sum, f) => sum + statSync(join(manyDir, f)).size, 0);
        rmSync(manyDir, { recursive: true, force: true });

        const browser = await inChromium(bytes, many).catch((error: Error) => {
          console.log(`Chromium run failed: ${error.message}`);
          return undefined;
        });
        // pdftoppm again right after Chromium's jobs: how much the machine's load moved meanwhile.
        const nativeAgain = await timed(() =>
          pdftoppmJpeg(source, join(dir, 'q'), DPI, ['-f', '1', '-l', String(PAGES)]),
        );
        console.log(`native pdftoppm again after the Chromium jobs: ${(nativeAgain.ms / 1000).toFixed(1)} s`);
        if (browser) {
          const { modal, modalBlurred, variants } = browser;
          console.log(
            `Folio pdf-to-jpg in Chromium, modal click to download (the default: lanes by cores, browser encoder): ` +
              `${modal.seconds.toFixed(1)} s` +
              (` (browser CPU ${modal.cpu.toFixed(1)} s), ${(PAGES / modal.seconds).toFixed(2)} pages/s, ` +
                `${fmtBytes(modal.zip.length)}, browser peak ${fmtBytes(modal.peak)} above its level before`),
          );
          console.log(
            `ratio (Chromium, ${PAGES} pages ${DPI} dpi): ${((modal.seconds * 1000) / native.ms).toFixed(2)}× ` +
              `pdftoppm's time (goal ≤ 2×); browser CPU ${(modal.cpu / nativeCpu).toFixed(2)}× pdftoppm's`,
          );
          console.log(
            `  the modal with its backdrop blurred during the job (before): ${modalBlurred.seconds.toFixed(1)} s ` +
              `(${((modalBlurred.seconds * 1000) / native.ms).toFixed(2)}× pdftoppm), browser CPU ` +
              `${modalBlurred.cpu.toFixed(1)} s (${(modalBlurred.cpu / nativeCpu).toFixed(2)}× pdftoppm's)`,
          );
          for (const variant of variants) {
            const figures = variant.error
              ? `failed: ${variant.error}`
              : `${variant.seconds.toFixed(1)} s (${((variant.seconds * 1000) / native.ms).toFixed(2)}× pdftoppm),` +
                (` browser CPU ${variant.cpu.toFixed(1)} s (${(variant.cpu / nativeCpu).toFixed(2)}× ` +
                  `pdftoppm's), ${fmtBytes(variant.bytes)}, browser peak ${fmtBytes(variant.peak)}`);
            console.log(`  in-page /api, ${variant.label}: ${figures}`);
          }
          const likeness = await similarity(modal.zip, dir);
          console.log(
            `fidelity (Chromium vs pdftoppm, ${likeness.pages} pages, block SSIM on grey): mean ` +
              `${likeness.mean.toFixed(3)},` +
              ` lowest ${likeness.lowest.toFixed(3)} (page ${likeness.lowestPage})`,
          );
          console.log(
            `${MANY_PAGES.toLocaleString('en')}-page PDF (${fmtBytes(many.length)}, one text line a page) at ` +
              `${MANY_DPI} dpi:` +
              (` pdftoppm ${(manyNative.ms / 1000).toFixed(1)} s (CPU ${manyNativeCpu.toFixed(1)} s), ` +
                `${fmtBytes(manyNativeBytes)} of JPEGs`),
          );
          if (browser.many) {
            const { seconds, cpu, peak, bytes: zipBytes, entries, samples } = browser.many;
            console.log(
              `  Folio in Chromium (modal, click to download): ${seconds.toFixed(1)} s (browser CPU ` +
                `${cpu.toFixed(1)} s),` +
                ` ${entries.toLocaleString('en')} entries,` +
                ` ${fmtBytes(zipBytes)} ZIP, browser peak ${fmtBytes(peak)}; ratio ` +
                `${((seconds * 1000) / manyNative.ms).toFixed(2)}× pdftoppm's time`,
            );
            console.log(`  ${steadiness(samples, MANY_PAGES)}`);
          }
        } else {
          console.log('Chromium run skipped (no dist/ build or no /usr/bin/chromium)');
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else {
      console.log('pdftoppm not installed: no native reference');
    }

    const photos = [
      'images/squoosh-demo-large-photo.jpg',
      'images/pydocx-jpeg420exif.jpg',
      'images/ocrmypdf-baiona-color.jpg',
      'images/squoosh-demo-device-screen.png',
    ]
      .map((file) => ({ name: file.split('/').pop()!, bytes: corpusFile(file) }))
      .filter((f): f is { name: string; bytes: Uint8Array } => f.bytes !== undefined);
    if (photos.length) {
      const pdf = await timed(() => engines.jpgToPdf(photos, { pageSize: 'a4' }, {}));
      const inBytes = photos.reduce((s, p) => s + p.bytes.length, 0);
      console.log(
        `jpg-to-pdf: ${photos.length} images (${fmtBytes(inBytes)}) → ${fmtBytes(pdf.value.bytes.length)} PDF ` +
          `in ${(pdf.ms / 1000).toFixed(2)} s (JPEGs embedded as they are)`,
      );
    }

    const stamped = await timed(() =>
      engines.addWatermark(input, { text: 'CONFIDENTIAL Секретно 机密', position: 'tiled' }, {}),
    );
    console.log(
      `add-watermark: tiled text on all 117 pages in ${(stamped.ms / 1000).toFixed(2)} s, ` +
        `${fmtBytes(bytes.length)} → ${fmtBytes(stamped.value.bytes.length)} (subset CJK font included)`,
    );
    if (process.env.FOLIO_BENCH_KEEP) writeFileSync('/tmp/folio-watermarked.pdf', stamped.value.bytes);
  } finally {
    await engines.close();
  }
}
