/**
 * npm run bench -- pdf-to-jpg
 *
 * pdf-to-jpg (pdf.js render via @napi-rs/canvas + MozJPEG, in Node) at 150 dpi, quality 85, over
 * pages 1–50 of a real 117-page corpus document, beside native Poppler
 * `pdftoppm -jpeg -jpegopt quality=85 -r 150` on the same pages in the same run: pages per
 * second, output bytes, and the ratio. Goal: at most 2× pdftoppm's time. The engine is measured
 * after one warm-up page (WASM compile and font loading are one-off costs, reported separately).
 * When dist/ has been built, the same conversion is also timed in Debian's Chromium through the
 * app itself (the modal, the in-page /api, the engine worker with OffscreenCanvas), click to download,
 * and each page it drew is compared with pdftoppm's (block SSIM on grey: mean and lowest printed).
 * Also: jpg-to-pdf over the corpus photos (JPEGs embedded as they are), and add-watermark
 * (text, tiled, every page) over the same document.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import JSZip from 'jszip';
import { CORPUS, corpusFile, fmtBytes, hasCommand, loadEngineModules, timed } from '../lib.ts';
import { blockSsim, decodeImage } from '../../tests/support/images.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCUMENT = 'pdf/large/sf-geotopo-komprimiert.pdf';
const PAGES = 50;
const DPI = 150;
const QUALITY = 85;

async function loadEngines() {
  const { modules, close } = await loadEngineModules({
    pdfToJpg: '/workers/engine/tools/pdf-to-jpg.ts',
    jpgToPdf: '/workers/engine/tools/jpg-to-pdf.ts',
    addWatermark: '/workers/engine/tools/add-watermark.ts',
  });
  return { pdfToJpg: modules.pdfToJpg.run, jpgToPdf: modules.jpgToPdf.run, addWatermark: modules.addWatermark.run, close };
}

/** Click-to-download time of the same job in Chromium through the built app, or undefined without dist/. */
async function chromiumSeconds(bytes: Uint8Array): Promise<{ seconds: number; bytes: number; zip: Uint8Array } | undefined> {
  if (!existsSync(resolve(ROOT, 'dist/index.html')) || !existsSync('/usr/bin/chromium')) return undefined;
  const { preview } = await import('vite');
  const { chromium } = await import('playwright-core');
  const server = await preview({ root: ROOT, preview: { port: 0, strictPort: false, host: '127.0.0.1' }, logLevel: 'error' });
  const address = server.httpServer.address();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    if (!address || typeof address === 'string') return undefined;
    const context = await browser.newContext({ acceptDownloads: true, baseURL: `http://127.0.0.1:${address.port}` });
    const page = await context.newPage();
    await page.goto('/tools/pdf-to-jpg');
    await page.getByRole('button', { name: /Upload Files|Get Started/ }).first().click();
    const dialog = page.getByRole('dialog');
    await page.locator('input[type=file]').first().setInputFiles({ name: 'geotopo.pdf', mimeType: 'application/pdf', buffer: Buffer.from(bytes) });
    await dialog.getByLabel('Resolution').selectOption(String(DPI));
    await dialog.getByLabel('JPEG quality').fill(String(QUALITY));
    // Warm-up: one page loads the engine, pdf.js and MozJPEG.
    await dialog.getByLabel('Pages').fill('1');
    await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), dialog.getByRole('button', { name: 'Process Files', exact: true }).click()]);
    await dialog.getByLabel('Pages').fill(`1-${PAGES}`);
    const start = performance.now();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 600_000 }),
      dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
    ]);
    const path = await download.path();
    const seconds = (performance.now() - start) / 1000;
    const zip = new Uint8Array(readFileSync(path));
    return { seconds, bytes: zip.length, zip };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Block SSIM of each page Folio drew in Chromium against pdftoppm's JPEG of the same page (both quality 85). */
async function similarity(zipBytes: Uint8Array, pdftoppmDir: string) {
  const zip = await JSZip.loadAsync(zipBytes);
  const references = readdirSync(pdftoppmDir).filter((f) => f.endsWith('.jpg')).sort();
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
    console.log(`document: ${DOCUMENT} (${fmtBytes(bytes.length)}), pages 1-${PAGES} at ${DPI} dpi, JPEG quality ${QUALITY}`);
    console.log(`Folio pdf-to-jpg (Node ${process.versions.node}, pdf.js + @napi-rs/canvas + MozJPEG): ${(ours.ms / 1000).toFixed(1)} s, ${oursRate.toFixed(2)} pages/s, converted.zip ${fmtBytes(ours.value.bytes.length)} (first-call warm-up incl. WASM: ${(warm.ms / 1000).toFixed(2)} s)`);

    if (hasCommand('pdftoppm')) {
      const dir = mkdtempSync(join(tmpdir(), 'folio-bench-pdftoppm-'));
      try {
        const source = join(CORPUS, DOCUMENT);
        const native = await timed(() =>
          execFileSync('pdftoppm', ['-jpeg', '-jpegopt', `quality=${QUALITY}`, '-r', String(DPI), '-f', '1', '-l', String(PAGES), source, join(dir, 'p')], { stdio: 'ignore' }),
        );
        const nativeBytes = readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
        const nativeRate = PAGES / (native.ms / 1000);
        console.log(`native pdftoppm -jpeg -r ${DPI}: ${(native.ms / 1000).toFixed(1)} s, ${nativeRate.toFixed(2)} pages/s, ${fmtBytes(nativeBytes)} of JPEGs`);
        console.log(`ratio (Node): Folio takes ${(ours.ms / native.ms).toFixed(2)}× pdftoppm's time (goal ≤ 2×); output ${(ours.value.bytes.length / nativeBytes).toFixed(2)}× the bytes`);
        const browser = await chromiumSeconds(bytes).catch((error: Error) => {
          console.log(`Chromium run failed: ${error.message}`);
          return undefined;
        });
        if (browser) {
          console.log(`Folio pdf-to-jpg in Chromium (built app, engine worker + OffscreenCanvas): ${browser.seconds.toFixed(1)} s, ${(PAGES / browser.seconds).toFixed(2)} pages/s, ${fmtBytes(browser.bytes)}`);
          console.log(`ratio (Chromium): ${((browser.seconds * 1000) / native.ms).toFixed(2)}× pdftoppm's time (goal ≤ 2×)`);
          const likeness = await similarity(browser.zip, dir);
          console.log(
            `fidelity (Chromium vs pdftoppm, ${likeness.pages} pages, block SSIM on grey): mean ${likeness.mean.toFixed(3)},` +
              ` lowest ${likeness.lowest.toFixed(3)} (page ${likeness.lowestPage})`,
          );
        } else {
          console.log('Chromium run skipped (no dist/ build or no /usr/bin/chromium)');
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else {
      console.log('pdftoppm not installed: no native reference');
    }

    const photos = ['images/squoosh-demo-large-photo.jpg', 'images/pydocx-jpeg420exif.jpg', 'images/ocrmypdf-baiona-color.jpg', 'images/squoosh-demo-device-screen.png']
      .map((file) => ({ name: file.split('/').pop()!, bytes: corpusFile(file) }))
      .filter((f): f is { name: string; bytes: Uint8Array } => f.bytes !== undefined);
    if (photos.length) {
      const pdf = await timed(() => engines.jpgToPdf(photos, { pageSize: 'a4' }, {}));
      const inBytes = photos.reduce((s, p) => s + p.bytes.length, 0);
      console.log(`jpg-to-pdf: ${photos.length} images (${fmtBytes(inBytes)}) → ${fmtBytes(pdf.value.bytes.length)} PDF in ${(pdf.ms / 1000).toFixed(2)} s (JPEGs embedded as they are)`);
    }

    const stamped = await timed(() => engines.addWatermark(input, { text: 'CONFIDENTIAL Секретно 机密', position: 'tiled' }, {}));
    console.log(`add-watermark: tiled text on all 117 pages in ${(stamped.ms / 1000).toFixed(2)} s, ${fmtBytes(bytes.length)} → ${fmtBytes(stamped.value.bytes.length)} (subset CJK font included)`);
    if (process.env.FOLIO_BENCH_KEEP) writeFileSync('/tmp/folio-watermarked.pdf', stamped.value.bytes);
  } finally {
    await engines.close();
  }
}
