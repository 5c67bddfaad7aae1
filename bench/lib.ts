/** Small helpers for bench sections: timing, native tools, the corpus. */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const CORPUS = resolve(import.meta.dirname, '../../shared/corpus');

export function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Peak resident set of one run of a native command in bytes (GNU time's %M); undefined without GNU time. */
export function nativePeakRss(command: string, args: string[]): number | undefined {
  if (!existsSync('/usr/bin/time')) return undefined;
  const run = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], { encoding: 'utf8', stdio: 'pipe' });
  const kib = Number(run.stderr.trim().split('\n').pop());
  return run.status === 0 && Number.isFinite(kib) ? kib * 1024 : undefined;
}

/** CPU seconds (user + system) of one run of a native command (GNU time); undefined without GNU time. */
export function nativeCpuSeconds(command: string, args: string[]): number | undefined {
  if (!existsSync('/usr/bin/time')) return undefined;
  const run = spawnSync('/usr/bin/time', ['-f', '%U %S', command, ...args], { encoding: 'utf8', stdio: 'pipe' });
  const [user, system] = run.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return run.status === 0 && Number.isFinite(user + system) ? user + system : undefined;
}

export async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

export function corpusFile(relative: string): Uint8Array | undefined {
  const path = resolve(CORPUS, relative);
  return existsSync(path) ? new Uint8Array(readFileSync(path)) : undefined;
}

export function fmtBytes(n: number): string {
  return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(2)} MB` : `${(n / 1024).toFixed(1)} KB`;
}

/**
 * Loads engine modules through Vite's SSR loader: engines use Vite features (`?url` imports,
 * import.meta.glob) that plain Node cannot resolve. Call `close()` when done.
 */
export async function loadEngineModules<T extends Record<string, string>>(
  paths: T,
): Promise<{
  modules: { [K in keyof T]: { run: import('../workers/engine/lib/types.ts').Engine } };
  close: () => Promise<void>;
}> {
  const { createServer } = await import('vite');
  const server = await createServer({
    root: resolve(import.meta.dirname, '..'),
    configFile: false,
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    appType: 'custom',
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  const modules = {} as { [K in keyof T]: { run: import('../workers/engine/lib/types.ts').Engine } };
  for (const [key, path] of Object.entries(paths))
    (modules as Record<string, unknown>)[key] = await server.ssrLoadModule(path);
  return { modules, close: () => server.close() };
}

export interface GrayPage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Grayscale PGM (P5) pages rendered by poppler's pdftoppm. */
export function renderGray(pdf: string, dir: string, prefix: string, dpi = 100): GrayPage[] {
  execFileSync('pdftoppm', ['-r', String(dpi), '-gray', pdf, join(dir, prefix)], { stdio: 'ignore' });
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.pgm'))
    .sort()
    .map((f) => {
      const bytes = readFileSync(join(dir, f));
      // Header: "P5\n<w> <h>\n<max>\n" (no comments from pdftoppm).
      let offset = 0;
      const fields: string[] = [];
      while (fields.length < 4) {
        let token = '';
        while (bytes[offset] <= 0x20) offset++;
        while (bytes[offset] > 0x20) token += String.fromCharCode(bytes[offset++]);
        fields.push(token);
      }
      offset++;
      return {
        width: Number(fields[1]),
        height: Number(fields[2]),
        data: new Uint8Array(bytes.buffer, bytes.byteOffset + offset),
      };
    });
}

/** Mean SSIM over 8×8 windows with stride 4 (Wang et al. 2004 constants, L = 255). */
export function ssim(a: Uint8Array, b: Uint8Array, width: number, height: number): number {
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  let total = 0;
  let windows = 0;
  for (let y = 0; y + 8 <= height; y += 4) {
    for (let x = 0; x + 8 <= width; x += 4) {
      let sa = 0,
        sb = 0,
        saa = 0,
        sbb = 0,
        sab = 0;
      for (let j = 0; j < 8; j++) {
        const row = (y + j) * width + x;
        for (let i = 0; i < 8; i++) {
          const va = a[row + i];
          const vb = b[row + i];
          sa += va;
          sb += vb;
          saa += va * va;
          sbb += vb * vb;
          sab += va * vb;
        }
      }
      const ma = sa / 64,
        mb = sb / 64;
      const va = saa / 64 - ma * ma,
        vb = sbb / 64 - mb * mb,
        cov = sab / 64 - ma * mb;
      total += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      windows++;
    }
  }
  return windows ? total / windows : 1;
}

/**
 * Per-page SSIM of `candidate` against `original`; undefined when page counts differ. Pages of different sizes score 0.
 */
export function pageSimilarity(
  originalPdf: string,
  candidatePdf: string,
  dir: string,
  tag: string,
  dpi = 100,
): { mean: number; min: number } | undefined {
  const a = renderGray(originalPdf, dir, `${tag}-o`, dpi);
  const b = renderGray(candidatePdf, dir, `${tag}-c`, dpi);
  if (a.length === 0 || a.length !== b.length) return undefined;
  const scores = a.map((page, i) => {
    const other = b[i];
    if (other.width !== page.width || other.height !== page.height) return 0;
    return ssim(page.data, other.data, page.width, page.height);
  });
  return { mean: scores.reduce((s, v) => s + v, 0) / scores.length, min: Math.min(...scores) };
}

/** Word-level similarity of two texts in reading order: 2·LCS / (|a| + |b|) over their words. */
export function wordSimilarity(a: string, b: string): number {
  const wa = a.split(/\s+/).filter(Boolean);
  const wb = b.split(/\s+/).filter(Boolean);
  if (wa.length === 0 && wb.length === 0) return 1;
  return (2 * longestCommonSubsequence(wa, wb)) / (wa.length + wb.length);
}

/**
 * Length of the longest common subsequence of two word lists, bit-parallel (Hyyrö 2004: one row of
 * the LCS table as a bit vector over `b`, 32 cells per operation), after the common start and end
 * are cut off: the same figure as the row-by-row table, fast enough for documents of 100,000 words.
 */
export function longestCommonSubsequence(a: string[], b: string[]): number {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length,
    endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const common = start + (a.length - endA);
  const m = endB - start;
  if (m === 0 || endA === start) return common;
  // Positions of each word of b (the bit vector's side).
  const positions = new Map<string, number[]>();
  for (let j = 0; j < m; j++) {
    const word = b[start + j];
    const list = positions.get(word);
    if (list) list.push(j);
    else positions.set(word, [j]);
  }
  const chunks = Math.ceil(m / 32);
  const v = new Uint32Array(chunks).fill(0xffffffff);
  const match = new Uint32Array(chunks);
  for (let i = start; i < endA; i++) {
    const list = positions.get(a[i]);
    if (!list) continue; // no match anywhere: the row stays as it is
    for (const j of list) match[j >>> 5] |= 1 << (j & 31);
    // V' = (V + (V & M)) | (V & ~M), with the carry running across chunks.
    let carry = 0;
    for (let k = 0; k < chunks; k++) {
      const vk = v[k];
      const u = vk & match[k];
      const sum = vk + (u >>> 0) + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[k] = ((sum >>> 0) | (vk & ~match[k])) >>> 0;
    }
    for (const j of list) match[j >>> 5] = 0;
  }
  let zeros = 0;
  for (let j = 0; j < m; j++) if ((v[j >>> 5] & (1 << (j & 31))) === 0) zeros++;
  return common + zeros;
}

/** Resident memory (bytes) of a process's descendants (and itself unless `withRoot` is false), from /proc (Linux). */
export function treeRss(rootPid: number, withRoot = true): number {
  const { children, info } = processTable();
  let total = 0;
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.pop()!;
    if (pid !== rootPid || withRoot) total += info.get(pid)?.rss ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Every process from /proc (Linux): its children, resident bytes and command-line words. */
function processTable(): { children: Map<number, number[]>; info: Map<number, { rss: number; args: string[] }> } {
  const children = new Map<number, number[]>();
  const info = new Map<number, { rss: number; args: string[] }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      const parent = Number(fields[1]);
      children.set(parent, [...(children.get(parent) ?? []), pid]);
      // Chromium rewrites its children's command lines as one space-separated string.
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split(/[\0 ]/);
      info.set(pid, { rss: Number(fields[21]) * 4096, args });
    } catch {
      /* the process ended meanwhile */
    }
  }
  return { children, info };
}

/**
 * Resident memory (bytes) of Chromium's processes under this one, by kind: `browser` (no --type),
 * `renderer` (pages and their dedicated workers), `gpu`, `utility:<sub-type>` (network, storage…).
 */
export function chromiumRssByKind(): Record<string, number> {
  const byKind: Record<string, number> = {};
  const { children, info } = processTable();
  const kindOf = (args: string[]) => {
    const type = args.find((arg) => arg.startsWith('--type='))?.slice(7);
    const sub = args.find((arg) => arg.startsWith('--utility-sub-type='))?.slice(19);
    return !type ? 'browser' : type === 'gpu-process' ? 'gpu' : sub ? `utility:${sub.split('.')[0]}` : type;
  };
  const queue = [...(children.get(process.pid) ?? [])];
  while (queue.length) {
    const pid = queue.pop()!;
    const process_ = info.get(pid);
    if (process_) {
      const kind = kindOf(process_.args);
      byKind[kind] = (byKind[kind] ?? 0) + process_.rss;
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return byKind;
}

/**
 * Samples the resident memory of all of Chromium's processes (this process's descendants) every
 * 100 ms from now; `stop` returns the peak above the level at the start.
 */
export function browserPeakSampler(): { stop(): number } {
  const sample = () => treeRss(process.pid, false);
  const base = sample();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, sample())), 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, sample()) - base;
    },
  };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) used so far by a process's descendants (and itself unless `withRoot`
 * is false), from /proc (Linux): a figure that does not depend on what else the machine is doing,
 * unlike wall time. Processes that have ended are not counted (Chromium's stay for a page's life).
 */
export function treeCpuSeconds(rootPid: number, withRoot = true): number {
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
      children.set(Number(fields[1]), [...(children.get(Number(fields[1])) ?? []), pid]);
    } catch {
      /* the process ended meanwhile */
    }
  }
  let total = 0;
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.pop()!;
    if (pid !== rootPid || withRoot) total += ticks.get(pid) ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return total / TICKS_PER_SECOND;
}

/** CPU seconds used by this process's ended and waited-for children (e.g. a native tool run with execFileSync). */
export function waitedChildrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

export interface BrowserJob {
  /** Tool page whose modal loads the in-page API, e.g. 'merge-pdf'. */
  tool: string;
  endpoint: string;
  /** Files (paths on disk) and the multipart field they go in. */
  files: string[];
  field: 'file' | 'files';
  fields?: Record<string, string>;
  /**
   * Picked in the modal's own input and run with "Process Files" (Folio's client, src/api/client.ts,
   * with its job channel) instead of a plain fetch; the result is the modal's download. No `fields`.
   */
  viaModal?: boolean;
}

export interface BrowserJobResult {
  ms: number;
  bytes: number;
  peakAbove: number;
  error?: string;
  /** Resident memory by kind of process (chromiumRssByKind) before the job and at its peak. */
  kindsBefore: Record<string, number>;
  kindsAtPeak: Record<string, number>;
  /** Each kind's own peak during the job. */
  kindPeaks: Record<string, number>;
  /** What the engine worker recorded (workers/engine/lib/memory-probe.ts), with the samples then. */
  probes: Array<{ record: Record<string, number | string>; kinds?: Record<string, number> }>;
}

/** The built app (`dist/`) served by `vite preview`, and Debian's headless Chromium to open it. */
export interface ServedApp {
  baseURL: string;
  browser: import('playwright-core').Browser;
  close(): Promise<void>;
}

/** Serves dist/ and starts Chromium; undefined when dist/ is not built or Chromium is not installed. */
export async function servedApp(): Promise<ServedApp | undefined> {
  const root = resolve(import.meta.dirname, '..');
  if (!existsSync(resolve(root, 'dist/index.html')) || !existsSync('/usr/bin/chromium')) return undefined;
  const { preview } = await import('vite');
  const { chromium } = await import('playwright-core');
  const server = await preview({ root, preview: { port: 0, strictPort: false, host: '127.0.0.1' }, logLevel: 'error' });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') {
    await server.close();
    return undefined;
  }
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const close = async () => {
    await browser.close();
    await server.close();
  };
  return { baseURL: `http://127.0.0.1:${address.port}`, browser, close };
}

/**
 * Runs jobs through the built app in Debian's Chromium, as the modal would: the files are picked in
 * the tool's file input, POSTed to the in-page /api (answered by the engine worker) and the result
 * read as a Blob in the page. Per job: wall time, result size, and the peak resident memory of the
 * whole browser (all its processes) above what it used before the job. Undefined without dist/.
 */
export async function inChromium(jobs: BrowserJob[]): Promise<Array<BrowserJobResult> | undefined> {
  const app = await servedApp();
  if (!app) return undefined;
  const results: BrowserJobResult[] = [];
  try {
    // Chromium runs as a child of this process: its memory is that of this process's descendants.
    for (const job of jobs) {
      const context = await app.browser.newContext({ baseURL: app.baseURL });
      const page = await context.newPage();
      const workers: import('playwright-core').Worker[] = [];
      page.on('worker', (worker) => {
        workers.push(worker);
        worker.evaluate(() => ((globalThis as { folioMemoryProbe?: unknown[] }).folioMemoryProbe = [])).catch(() => {});
      });
      await page.goto(`/tools/${job.tool}`);
      await page
        .getByRole('button', { name: /Upload Files|Get Started/ })
        .first()
        .click();
      await page.getByRole('dialog').waitFor();
      if (job.viaModal) {
        // A large result would open the save picker, which headless Chromium never answers: download.
        // The client's memory check (shared/memory-budget.ts) would refuse 1 GB on a device that reports
        // 8 GB, as headless Chromium does; the bench measures the job itself.
        await page.evaluate(() => {
          Object.defineProperty(window, 'showSaveFilePicker', { value: undefined });
          Object.defineProperty(navigator, 'deviceMemory', { value: 64 });
        });
        await page.locator('input[type=file]').setInputFiles(job.files);
      } else await pickForPost(page, job);
      const sum = (kinds: Record<string, number>) => Object.values(kinds).reduce((a, b) => a + b, 0);
      const kindsBefore = chromiumRssByKind();
      const base = sum(kindsBefore);
      let peak = base;
      let kindsAtPeak = kindsBefore;
      const kindPeaks = { ...kindsBefore };
      const samples: Array<{ at: number; kinds: Record<string, number> }> = [];
      const timer = setInterval(() => {
        const kinds = chromiumRssByKind();
        samples.push({ at: Date.now(), kinds });
        for (const [kind, rss] of Object.entries(kinds)) kindPeaks[kind] = Math.max(kindPeaks[kind] ?? 0, rss);
        if (sum(kinds) > peak) {
          peak = sum(kinds);
          kindsAtPeak = kinds;
        }
      }, 100);
      const start = performance.now();
      const outcome = job.viaModal ? await runInModal(page) : await postInPage(page, job);
      const ms = performance.now() - start;
      clearInterval(timer);
      // FOLIO_BENCH_TIMELINE=<file>: each sample as "ms-since-epoch renderer-MB browser-MB", above their levels before.
      const timeline = process.env.FOLIO_BENCH_TIMELINE;
      if (timeline) {
        const above = (kinds: Record<string, number>, kind: string) =>
          Math.round(((kinds[kind] ?? 0) - (kindsBefore[kind] ?? 0)) / 2 ** 20);
        const lines = samples.map(({ at, kinds }) => `${at} ${above(kinds, 'renderer')} ${above(kinds, 'browser')}`);
        writeFileSync(timeline, `${lines.join('\n')}\n`);
      }
      const probes: BrowserJobResult['probes'] = [];
      for (const worker of workers) {
        const records = await worker
          .evaluate(() => (globalThis as { folioMemoryProbe?: unknown[] }).folioMemoryProbe ?? [])
          .catch(() => []);
        for (const record of records as Array<Record<string, number | string>>) {
          const at = Number(record.at);
          const near = samples.reduce<(typeof samples)[number] | undefined>(
            (best, sample) => (!best || Math.abs(sample.at - at) < Math.abs(best.at - at) ? sample : best),
            undefined,
          );
          probes.push({ record, kinds: near?.kinds });
        }
      }
      results.push({
        ms,
        bytes: outcome.size,
        peakAbove: peak - base,
        error: outcome.status === 200 ? undefined : `${outcome.status} ${outcome.text}`,
        kindsBefore,
        kindsAtPeak,
        kindPeaks,
        probes,
      });
      await context.close();
    }
    return results;
  } finally {
    await app.close();
  }
}

/** "Process Files" in the open modal; the outcome is the download it ends with. */
async function runInModal(
  page: import('playwright-core').Page,
): Promise<{ status: number; size: number; text: string }> {
  try {
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 900_000 }),
      page.getByRole('button', { name: 'Process Files', exact: true }).click(),
    ]);
    const path = await download.path();
    return { status: 200, size: statSync(path).size, text: '' };
  } catch (error) {
    return { status: 0, size: 0, text: String(error).slice(0, 300) };
  }
}

/** The job's files picked in an input of the bench's own, for postInPage. */
async function pickForPost(page: import('playwright-core').Page, job: BrowserJob): Promise<void> {
  // The modal takes the files into its own state and clears its input: the job's files are
  // picked in an input of the bench's own instead (the modal is open so the in-page API runs).
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.id = 'bench-files';
    input.hidden = true;
    document.body.append(input);
  });
  await page.locator('#bench-files').setInputFiles(job.files);
}

/** The picked files POSTed with a plain fetch (the multipart path); the result read as a Blob. */
async function postInPage(
  page: import('playwright-core').Page,
  job: BrowserJob,
): Promise<{ status: number; size: number; text: string }> {
  return page
    .evaluate(
      async ({ endpoint, field, fields }) => {
        const input = document.querySelector('#bench-files') as HTMLInputElement;
        const form = new FormData();
        for (const file of Array.from(input.files ?? [])) form.append(field, file);
        for (const [key, value] of Object.entries(fields)) form.append(key, value);
        const response = await fetch(endpoint, { method: 'POST', body: form });
        const blob = await response.blob();
        return {
          status: response.status,
          size: blob.size,
          text: response.ok ? '' : (await blob.text()).slice(0, 300),
        };
      },
      { endpoint: job.endpoint, field: job.field, fields: job.fields ?? {} },
    )
    .catch((error: unknown) => ({ status: 0, size: 0, text: String(error).slice(0, 300) }));
}
