/**
 * npm run bench -- libreoffice
 *
 * Reliability of the optional LibreOffice engine (workers/engine/lib/libreoffice/libreoffice.ts) in Debian's
 * Chromium, through the built app: the page's /api, the engine worker, the LibreOffice host worker
 * and its pthreads. Several cold starts (a new browser context each: LibreOffice downloaded from the
 * local server, started, then every file converted in a row with Engine = LibreOffice), the corpus's
 * .docx/.xlsx/.pptx files plus legacy .doc/.xls/.ppt made from corpus files by the native `soffice`
 * (in a temporary folder; they are routed to LibreOffice without naming the engine). Prints, per
 * start and in total: attempted / completed / timed out / failed, the first job's time (download +
 * start + first document), warm times, and the peak memory of Chromium's processes. Figures only:
 * timings never fail the bench.
 *
 * Serves a hard-linked snapshot of dist/ (taken under /tmp/folio-build.lock, so a colleague's build
 * does not change files under a run) with `vite preview`, the server `npm start` uses; builds first
 * when dist/ has no LibreOffice files. Skips, saying why, without Chromium, the corpus or the
 * LibreOffice package.
 *
 * FOLIO_BENCH_LO_STARTS   cold starts (default 3)
 * FOLIO_BENCH_LO_FILES    files per start (default: all, ≥ 20 different ones)
 * FOLIO_BENCH_LO_BURN=1   also a CPU-burning child process per core during the run
 * FOLIO_BENCH_LO_DIST     serve this built folder instead of a snapshot of dist/ (e.g. an older build)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { CORPUS, hasCommand } from '../lib.ts';
import { LIBREOFFICE_BASE, LIBREOFFICE_FILES, LIBREOFFICE_PACKAGE } from '../../shared/libreoffice-files.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BUILD_LOCK = '/tmp/folio-build.lock';
const STARTS = Number(process.env.FOLIO_BENCH_LO_STARTS ?? 3);
const FILES_PER_START = process.env.FOLIO_BENCH_LO_FILES ? Number(process.env.FOLIO_BENCH_LO_FILES) : Infinity;
const BURN = process.env.FOLIO_BENCH_LO_BURN === '1';

/** Corpus files made into legacy binaries by the native soffice (never written into the corpus). */
const LEGACY = [
  { from: 'office/docx/pydocx-blk-paras-and-tables.docx', to: 'doc' },
  { from: 'office/xlsx/exceljs-formulas.xlsx', to: 'xls' },
  { from: 'office/pptx/pypptx-test.pptx', to: 'ppt' },
];

interface Input {
  name: string;
  path: string;
  legacy: boolean;
}

interface Job {
  name: string;
  status: number;
  ms: number;
  bytes: number;
  pdf: boolean;
  notes: string[];
  error?: string;
  missed?: string;
}

const ENDPOINT: Record<string, string> = {
  docx: '/api/pdf/fromWord',
  doc: '/api/pdf/fromWord',
  xlsx: '/api/pdf/fromExcel',
  xls: '/api/pdf/fromExcel',
  pptx: '/api/pdf/fromPowerPoint',
  ppt: '/api/pdf/fromPowerPoint',
};

const extension = (name: string) => name.slice(name.lastIndexOf('.') + 1).toLowerCase();
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const median = (values: number[]) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** The corpus's Office files that should convert (manifest: expect ok), in a fixed order. */
function corpusInputs(): Input[] {
  const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as Array<{
    file: string;
    kind: string;
    expect: string;
  }>;
  return manifest
    .filter(
      (entry) =>
        /^office\/(docx|xlsx|pptx)$/.test(entry.kind) && entry.expect === 'ok' && existsSync(join(CORPUS, entry.file)),
    )
    .map((entry) => ({ name: basename(entry.file), path: join(CORPUS, entry.file), legacy: false }));
}

/** Legacy .doc/.xls/.ppt made by the native soffice from corpus files, in `dir`; none without soffice. */
function legacyInputs(dir: string): Input[] {
  if (!hasCommand('soffice')) return [];
  const made: Input[] = [];
  for (const { from, to } of LEGACY) {
    const source = join(CORPUS, from);
    if (!existsSync(source)) continue;
    try {
      execFileSync(
        'soffice',
        [
          '--headless',
          '--norestore',
          `-env:UserInstallation=file://${dir}/profile`,
          '--convert-to',
          to,
          '--outdir',
          dir,
          source,
        ],
        { stdio: 'ignore', timeout: 300_000 },
      );
    } catch {
      continue;
    }
    const name = basename(from).replace(/\.[a-z]+$/, `.${to}`);
    if (existsSync(join(dir, name))) made.push({ name, path: join(dir, name), legacy: true });
  }
  return made;
}

/** A snapshot of dist/ (hard links: instant, and immune to a rebuild), built first if it lacks LibreOffice. */
function distSnapshot(into: string): string {
  const lock = (command: string[]) => (hasCommand('flock') ? ['flock', BUILD_LOCK, ...command] : command);
  const hasLibreOffice = () => existsSync(join(ROOT, 'dist', LIBREOFFICE_BASE, LIBREOFFICE_FILES.wasm));
  if (!existsSync(join(ROOT, 'dist/index.html')) || !hasLibreOffice()) {
    console.log('dist/ has no LibreOffice files: building (npx vite build)…');
    const [command, ...args] = lock(['npx', 'vite', 'build', '--logLevel', 'error']);
    execFileSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  }
  const out = join(into, 'dist');
  try {
    const [command, ...args] = lock(['cp', '-al', join(ROOT, 'dist'), out]);
    execFileSync(command, args, { stdio: 'ignore' });
  } catch {
    cpSync(join(ROOT, 'dist'), out, { recursive: true });
  }
  return out;
}

/** Resident memory (bytes) of every Chromium process under this one, or undefined off Linux. */
function chromiumRss(): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone */
    }
  }
  let total = 0;
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (/chrom/i.test(names.get(child) ?? '')) {
        try {
          const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child}/status`, 'utf8'));
          if (rss) total += Number(rss[1]) * 1024;
        } catch {
          /* gone */
        }
      }
      walk(child);
    }
  };
  walk(process.pid);
  return total;
}

/**
 * Opens Word to PDF's window, which starts the in-page /api (and warms the built-in engine, as for
 * a user), and waits until /api answers.
 */
async function openApi(page: import('playwright-core').Page): Promise<void> {
  await page.goto('/tools/word-to-pdf');
  await page
    .getByRole('button', { name: /Upload Files|Get Started/ })
    .first()
    .click();
  await page.getByRole('dialog').waitFor();
  await page.waitForFunction(
    async () => {
      const response = await fetch('/api/pdf/fromWord', { method: 'POST', body: new FormData() });
      return (response.headers.get('Content-Type') ?? '').includes('json');
    },
    undefined,
    { timeout: 30_000, polling: 250 },
  );
}

function summary(jobs: Job[]): string {
  const completed = jobs.filter((job) => job.status === 200 && job.pdf).length;
  const timedOut = jobs.filter((job) => job.status === 504).length;
  return (
    `attempted ${jobs.length}, completed ${completed}, timed out ${timedOut}, failed ` +
    `${jobs.length - completed - timedOut}`
  );
}

export async function run(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`Chromium not found at ${CHROMIUM}: LibreOffice bench skipped`);
    return;
  }
  if (!existsSync(join(CORPUS, 'manifest.json'))) {
    console.log(`corpus not found at ${CORPUS}: LibreOffice bench skipped`);
    return;
  }
  if (!existsSync(join(ROOT, 'node_modules', LIBREOFFICE_PACKAGE, 'wasm', LIBREOFFICE_FILES.wasm))) {
    console.log(`${LIBREOFFICE_PACKAGE} not installed (npm ci): LibreOffice bench skipped`);
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'folio-bench-lo-'));
  const burners: ChildProcess[] = [];
  let sampler: NodeJS.Timeout | undefined;
  try {
    const legacy = legacyInputs(work);
    const corpus = corpusInputs();
    const inputs = [...corpus, ...legacy];
    console.log(
      `${inputs.length} files: ${inputs.length - legacy.length} corpus .docx/.xlsx/.pptx, ${legacy.length} ` +
        `legacy (${legacy.map((i) => extension(i.name)).join(', ') || 'none: soffice not installed'}) made by the ` +
        `native soffice`,
    );
    const dist = process.env.FOLIO_BENCH_LO_DIST ? resolve(process.env.FOLIO_BENCH_LO_DIST) : distSnapshot(work);
    const { preview } = await import('vite');
    const { chromium } = await import('playwright-core');
    const server = await preview({
      root: ROOT,
      build: { outDir: dist },
      preview: { port: 0, strictPort: false, host: '127.0.0.1' },
      logLevel: 'error',
    });
    const address = server.httpServer.address();
    if (!address || typeof address === 'string') throw new Error('vite preview did not start');
    if (BURN) {
      for (let i = 0; i < cpus().length; i++)
        burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
      console.log(`CPU burners: ${burners.length} child processes (one per core) busy during the run`);
    }
    let peak = 0;
    sampler = setInterval(() => {
      peak = Math.max(peak, chromiumRss() ?? 0);
    }, 500);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const all: Job[] = [];
    const firsts: number[] = [];
    const firstJobs = new Set<Job>();
    try {
      const count = Math.min(FILES_PER_START, inputs.length);
      for (let start = 0; start < STARTS; start++) {
        // Each start begins with a different corpus file (the first document after a start is the one
        // that stalled), the legacy files come right after it, then the next corpus files in turn.
        const rotated = Array.from({ length: corpus.length }, (_, i) => corpus[(start * 7 + i) % corpus.length]);
        const order = [rotated[0], ...legacy, ...rotated.slice(1)].slice(0, count);
        const context = await browser.newContext({ baseURL: `http://127.0.0.1:${address.port}` });
        const page = await context.newPage();
        await openApi(page);
        const jobs: Job[] = [];
        for (const input of order) {
          const job = await page.evaluate(
            async ({ endpoint, name, base64, legacy }) => {
              const form = new FormData();
              form.append('file', new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name));
              // Legacy files go to LibreOffice by themselves; the others name the engine.
              if (!legacy) form.append('engine', 'libreoffice');
              // A 404 that is not the in-page API's JSON: the request went past /api to the server
              // (seen once, on a page whose /api had answered just before): say so and try again.
              let missed = 0;
              let started = performance.now();
              let response = await fetch(endpoint, { method: 'POST', body: form });
              while (
                response.status === 404 &&
                !(response.headers.get('Content-Type') ?? '').includes('json') &&
                missed < 20
              ) {
                missed++;
                await new Promise((resolve) => setTimeout(resolve, 500));
                started = performance.now();
                response = await fetch(endpoint, { method: 'POST', body: form });
              }
              const body = new Uint8Array(await response.arrayBuffer());
              const ms = performance.now() - started;
              const notes = response.headers.get('X-Folio-Notes');
              const text = new TextDecoder().decode(body.subarray(0, 5));
              return {
                name,
                status: response.status,
                ms,
                bytes: body.length,
                pdf: text === '%PDF-',
                notes: notes ? (JSON.parse(decodeURIComponent(notes)) as string[]) : [],
                error: response.ok ? undefined : new TextDecoder().decode(body).slice(0, 300),
                missed: missed
                  ? `${missed} × not answered by the in-page /api at ${location.pathname} ` +
                    `(${document.querySelector('[role=dialog]') ? 'window open' : 'no window'})`
                  : undefined,
              };
            },
            {
              endpoint: ENDPOINT[extension(input.name)],
              name: input.name,
              base64: readFileSync(input.path).toString('base64'),
              legacy: input.legacy,
            },
          );
          jobs.push(job);
          if (job.missed) console.log(`  start ${start + 1}: ${job.name}: ${job.missed}, then sent again`);
          if (job.status !== 200 || !job.pdf)
            console.log(
              `  start ${start + 1}: ${job.name} → HTTP ${job.status} after ${seconds(job.ms)}: ` +
                `${job.error ?? 'not a PDF'}`,
            );
          else if (input.legacy && !job.notes.some((note) => /LibreOffice/.test(note)))
            console.log(
              `  start ${start + 1}: ${job.name} converted, but without the LibreOffice note (${job.notes.join('; ')})`,
            );
        }
        await context.close();
        const [first, ...warm] = jobs;
        firsts.push(first.ms);
        firstJobs.add(first);
        const warmOk = warm.filter((job) => job.status === 200).map((job) => job.ms);
        console.log(
          `start ${start + 1}: ${summary(jobs)}; first job (download + start + ${first.name}) ` +
            `${seconds(first.ms)}${first.status === 200 ? '' : ` HTTP ${first.status}`}; warm median ` +
            `${seconds(median(warmOk))}, max ${seconds(Math.max(...warmOk))}`,
        );
        all.push(...jobs);
      }
    } finally {
      await browser.close();
      await server.close();
    }
    const legacyJobs = all.filter((job) => /\.(doc|xls|ppt)$/.test(job.name));
    console.log(`total over ${STARTS} starts: ${summary(all)}`);
    console.log(`first job per start: ${firsts.map(seconds).join(', ')}`);
    if (legacyJobs.length) console.log(`legacy .doc/.xls/.ppt: ${summary(legacyJobs)}`);
    const warmAll = all.filter((job) => !firstJobs.has(job) && job.status === 200).map((job) => job.ms);
    console.log(
      `warm jobs: median ${seconds(median(warmAll))}, max ${seconds(Math.max(...warmAll))} (${warmAll.length} jobs)`,
    );
    if (peak)
      console.log(`peak memory of Chromium's processes (RSS, sampled every 0.5 s): ${(peak / 2 ** 30).toFixed(2)} GB`);
  } finally {
    if (sampler) clearInterval(sampler);
    for (const burner of burners) burner.kill();
    rmSync(work, { recursive: true, force: true });
  }
}
