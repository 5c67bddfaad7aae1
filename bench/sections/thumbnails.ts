/**
 * npm run bench -- thumbnails
 *
 * Page thumbnails for an organize grid of 300 pages (issue #20: "Same for thumbnails"): does a
 * second thumbnail worker get every thumbnail sooner? In Chromium, with the built app: the page
 * starts one or two of the engine workers the bridge uses for thumbnails (workers/bridge.ts,
 * openThumbnails), speaking Comlink's messages to them directly; each opens the document, and the
 * 300 pages are shared out with two in flight per worker (as the grid's own queue keeps two in
 * flight, src/tool-ui/page-thumbnails.tsx). Time until the last thumbnail, and CPU seconds of all
 * of Chromium's processes; runs alternate (1, 2, 1, 2) so that the machine's other load falls on both.
 */
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { corpusFile, servedApp, treeCpuSeconds } from '../lib.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGES = 300;
/** The grid's tiles are 110 CSS pixels; at a device pixel ratio of 2 a thumbnail is 220 pixels. */
const MAX_PX = 220;

export async function run(): Promise<void> {
  const bytes = corpusFile('pdf/large/texlive-interface3.pdf');
  const engineDir = resolve(ROOT, 'dist/assets/engine');
  if (!bytes || !existsSync(engineDir) || !existsSync('/usr/bin/chromium')) {
    console.log('thumbnails: the corpus, dist/ or Chromium is missing; skipped.');
    return;
  }
  const script = readdirSync(engineDir).find((f) => /^engine\.worker-[^.]+\.js$/.test(f));
  if (!script) throw new Error('dist/ has no engine worker script');
  const app = await servedApp();
  if (!app) return;
  try {
    const context = await app.browser.newContext({ baseURL: app.baseURL });
    const page = await context.newPage();
    page.setDefaultTimeout(0);
    await page.goto('/tools/organize-pdf');
    // tsx names the nested functions of allThumbnails with a helper of its own; the page needs it too.
    await page.evaluate('globalThis.__name = (f) => f');
    console.log(`thumbnails of texlive-interface3.pdf pages 1–${PAGES}, ${MAX_PX} px, in Chromium:`);
    const figures: Record<number, number[]> = { 1: [], 2: [] };
    for (const lanes of [1, 2, 1, 2, 1, 2]) {
      const cpuStart = treeCpuSeconds(process.pid, false);
      const ms = await page.evaluate(allThumbnails, {
        url: `/assets/engine/${script}`,
        bytes: [...bytes],
        lanes,
        pages: PAGES,
        maxPx: MAX_PX,
      });
      const cpu = treeCpuSeconds(process.pid, false) - cpuStart;
      figures[lanes].push(ms / 1000);
      const label = `${lanes} worker${lanes === 1 ? ' ' : 's'}`;
      console.log(`  ${label}: all ${PAGES} in ${(ms / 1000).toFixed(1)} s, CPU ${cpu.toFixed(1)} s`);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    console.log(
      `  median: 1 worker ${median(figures[1]).toFixed(1)} s, 2 workers ${median(figures[2]).toFixed(1)} s ` +
        `(${(median(figures[1]) / median(figures[2])).toFixed(2)}× with the second)`,
    );
  } finally {
    await app.close();
  }
}

/** In the page: `lanes` engine workers open the document, then draw every thumbnail; milliseconds from the start. */
async function allThumbnails({
  url,
  bytes,
  lanes,
  pages,
  maxPx,
}: {
  url: string;
  bytes: number[];
  lanes: number;
  pages: number;
  maxPx: number;
}): Promise<number> {
  const start = performance.now();
  const workers = Array.from({ length: lanes }, () => new Worker(url, { type: 'module', name: 'folio-thumbnails' }));
  // Comlink's wire format (comlink 4): APPLY a method with RAW arguments; the answer carries the same id.
  const call = (worker: Worker, method: string, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const id = crypto.randomUUID();
      const listen = (event: MessageEvent<{ id: string; type: string; value: unknown }>) => {
        if (event.data?.id !== id) return;
        worker.removeEventListener('message', listen);
        if (event.data.type === 'RAW') resolve(event.data.value);
        else reject(new Error(JSON.stringify(event.data.value)));
      };
      worker.addEventListener('message', listen);
      worker.postMessage({
        id,
        type: 'APPLY',
        path: [method],
        argumentList: args.map((value) => ({ type: 'RAW', value })),
      });
    });
  try {
    await Promise.all(
      workers.map((worker) => call(worker, 'openThumbnails', ['doc', new Uint8Array(bytes), undefined])),
    );
    let next = 1;
    const drive = async (worker: Worker) => {
      while (next <= pages) {
        const pageNumber = next++;
        const { image } = (await call(worker, 'thumbnail', ['doc', pageNumber, maxPx])) as { image: Blob };
        if (!(image instanceof Blob) || image.size === 0) throw new Error(`page ${pageNumber}: no thumbnail`);
      }
    };
    await Promise.all(workers.flatMap((worker) => [drive(worker), drive(worker)]));
    return performance.now() - start;
  } finally {
    for (const worker of workers) worker.terminate();
  }
}
