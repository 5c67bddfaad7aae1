/**
 * npm run bench -- merge
 *
 * merge-pdf (qpdf WASM page assembly + Folio's bookmarks and links, in Node) over two sets of 20
 * real corpus PDFs — 20 distinct files (582 pages), and the issue's 1,607 pages (files repeated) —
 * beside native `qpdf --empty --pages … -- out.pdf` on the same files in the same run: time (best of
 * 3 each, the machine is shared), the ratio, CPU time (this process's user + system against native
 * qpdf's from GNU time: far steadier than wall time when other jobs load the machine), output size
 * and the peak resident memory of this process during the first measured merge (sampled every 10 ms)
 * above its level before, against the total input size. Goals (issue #20): ≤ 1.5× qpdf's time; ≤ 3×
 * the input in peak memory; output ≤ 1.1× qpdf's size.
 *
 * Note the two do different work: qpdf drops the inputs' bookmarks and breaks their links (forward
 * links become null, named destinations are dropped); merge-pdf keeps and remaps both. Native qpdf is
 * Debian's 11.3, the WASM one 12.2 (npm).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Engine } from '../../workers/engine/lib/types.ts';
import {
  CORPUS,
  corpusFile,
  fmtBytes,
  hasCommand,
  loadEngineModules,
  nativeCpuSeconds,
  nativePeakRss,
  timed,
} from '../lib.ts';

/**
 * The set: 20 files, 1,607 pages — the corpus has only two long PDFs, so this set repeats
 * files (3 × 345 + 3 × 117 + 14 smaller documents). Kept for comparison with earlier figures.
 */
const REPEATED: string[] = [
  ...Array<string>(3).fill('pdf/large/texlive-interface3.pdf'),
  ...Array<string>(3).fill('pdf/large/sf-geotopo-komprimiert.pdf'),
  ...Array<string>(4).fill('pdf/clean/pdflib-us-constitution.pdf'),
  ...Array<string>(4).fill('pdf/clean/pypdf-geobase-nhnc1-data-model-uml-en.pdf'),
  ...Array<string>(2).fill('pdf/rotated/qpdf-rotated.pdf'),
  'pdf/scanned/ocrmypdf-multipage.pdf',
  'pdf/clean/sf-pdflatex-outline.pdf',
  'pdf/rotated/qpdf-overlay-copy-annotations.pdf',
  'pdf/clean/sf-multicolumn.pdf',
];

/**
 * 20 distinct corpus PDFs (the ones with the most pages, then the largest one-page files): 582
 * pages. Repeating a file is an artefact of the corpus (qpdf opens a file named twice once).
 */
const DISTINCT: string[] = [
  'pdf/large/texlive-interface3.pdf',
  'pdf/large/sf-geotopo-komprimiert.pdf',
  'pdf/rotated/qpdf-rotated.pdf',
  'pdf/clean/pdflib-us-constitution.pdf',
  'pdf/clean/pypdf-geobase-nhnc1-data-model-uml-en.pdf',
  'pdf/rotated/qpdf-overlay-copy-annotations.pdf',
  'pdf/rotated/qpdf-boxes.pdf',
  'pdf/scanned/pypdf-seige-of-vicksburg-sample-ocr.pdf',
  'pdf/scanned/ocrmypdf-multipage.pdf',
  'pdf/scanned/ocrmypdf-cardinal.pdf',
  'pdf/clean/sf-pdflatex-outline.pdf',
  'pdf/clean/sf-pdflatex-4-pages.pdf',
  'pdf/rotated/sf-habibi-rotated.pdf',
  'pdf/clean/sf-multicolumn.pdf',
  'pdf/forms/pdflib-with-xfa-fields.pdf',
  'pdf/clean/sf-base64image.pdf',
  'pdf/rotated/pdflib-with-rotated-image-button.pdf',
  'pdf/clean/sf-cmyk-image.pdf',
  'pdf/scanned/ocrmypdf-c02-22.pdf',
  'pdf/scanned/ocrmypdf-2400dpi.pdf',
];

async function loadMerge(): Promise<{ merge: Engine; close: () => Promise<void> }> {
  const { modules, close } = await loadEngineModules({ merge: '/workers/engine/tools/merge-pdf.ts' });
  return { merge: modules.merge.run, close };
}

/** Samples RSS while `fn` runs; returns its result and the peak. */
async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peak: number; base: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peak, base };
  } finally {
    clearInterval(timer);
  }
}

const SETS = { distinct: DISTINCT, repeated: REPEATED };
const CHILD_SET = process.env.FOLIO_BENCH_MERGE_SET as keyof typeof SETS | undefined;

/**
 * Each set is measured in a process of its own: V8 keeps the memory a first merge grew, so a
 * second merge in the same process would show no peak.
 */
export async function run(): Promise<void> {
  if (!corpusFile(REPEATED[0])) {
    console.log(`merge: corpus not found at ${CORPUS}: skipped`);
    return;
  }
  const rows: string[] = [];
  for (const set of Object.keys(SETS)) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      env: { ...process.env, FOLIO_BENCH_MERGE_SET: set },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = (child.stdout ?? '').split('\n');
    console.log(lines.filter((line) => line && !line.startsWith('|')).join('\n'));
    rows.push(...lines.filter((line) => line.startsWith('|')));
    if (child.status !== 0) rows.push(`| merge (${set}) failed: exit ${child.status} | | | | |`);
  }
  console.log(`\n| operation | Folio | native | ratio | goal |\n|---|---|---|---|---|\n${rows.join('\n')}`);
}

async function measureInThisProcess(set: keyof typeof SETS): Promise<void> {
  const { merge, close } = await loadMerge();
  try {
    // Warm-up (module load, JIT) on two small files, not measured.
    await merge(
      [
        { name: 'a.pdf', bytes: corpusFile('pdf/clean/sf-pdflatex-outline.pdf')! },
        { name: 'b.pdf', bytes: corpusFile('pdf/clean/sf-multicolumn.pdf')! },
      ],
      {},
      {},
    );
    for (const row of await measure(merge, set, SETS[set])) console.log(row);
  } finally {
    await close();
  }
}

if (CHILD_SET) await measureInThisProcess(CHILD_SET);

/** Merges `files` (best of 3) beside native qpdf; returns the table rows. */
async function measure(merge: Engine, label: string, files: readonly string[]): Promise<string[]> {
  const inputs = files.map((file) => ({ file, bytes: corpusFile(file) }));
  if (inputs.some((i) => !i.bytes)) return [`| merge (${label}): a corpus file is missing | | | | |`];
  const totalBytes = inputs.reduce((sum, i) => sum + i.bytes!.byteLength, 0);
  let pages = 0;
  const engineInputs = inputs.map((i, n) => ({ name: `${n + 1}-${i.file.split('/').pop()}`, bytes: i.bytes! }));
  // Wall time, and this process's CPU time (all its threads: V8's collector and compiler included),
  // which moves far less than wall time when other jobs share the machine's two cores.
  const cpuTimes: number[] = [];
  const mergeOnce = async () => {
    const cpuBefore = process.cpuUsage();
    const run = await timed(() =>
      merge(engineInputs, { bookmarkEachFile: true }, { progress: (_done, total) => (pages = Math.max(pages, total)) }),
    );
    const cpu = process.cpuUsage(cpuBefore);
    cpuTimes.push((cpu.user + cpu.system) / 1e6);
    return run;
  };
  const measured = await withPeakRss(mergeOnce);
  const { value: result } = measured.value;
  const times = [measured.value.ms, (await mergeOnce()).ms, (await mergeOnce()).ms];
  const ms = Math.min(...times);
  const memory = (measured.peak - measured.base) / totalBytes;
  const what = `merge ${files.length} ${label} PDFs, ${pages} pages`;
  console.log(
    `${what}: ${fmtBytes(totalBytes)} in → ${fmtBytes(result.bytes.byteLength)} out; best of 3 ` +
      `${(ms / 1000).toFixed(2)} s (${times.map((t) => (t / 1000).toFixed(2)).join(' / ')})`,
  );
  console.log(
    `  peak RSS ${fmtBytes(measured.peak)}, ${fmtBytes(measured.peak - measured.base)} above the ` +
      `${fmtBytes(measured.base)} before`,
  );
  if (!hasCommand('qpdf')) return [`| ${what} | ${(ms / 1000).toFixed(2)} s | qpdf (native) not installed | | |`];
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-merge-'));
  try {
    const out = join(dir, 'out.pdf');
    const args = ['--empty', '--pages', ...files.flatMap((f) => [resolve(CORPUS, f), '1-z']), '--', out];
    execFileSync('qpdf', args); // warm the file cache
    const nativeTimes: number[] = [];
    for (let i = 0; i < 3; i++) nativeTimes.push((await timed(() => execFileSync('qpdf', args))).ms);
    const native = Math.min(...nativeTimes);
    const nativeCpu = [0, 1, 2].map(() => nativeCpuSeconds('qpdf', args)).filter((s) => s !== undefined);
    const nativeSize = statSync(out).size;
    execFileSync('qpdf', ['--object-streams=generate', ...args]);
    const compactSize = statSync(out).size;
    // Native qpdf's own peak above its start (qpdf --version), comparable to Folio's figure above its
    // warmed-up baseline: qpdf holds every source's objects too, so this is the floor of any qpdf merge.
    const nativePeak = nativePeakRss('qpdf', args);
    const nativeStart = nativePeakRss('qpdf', ['--version']);
    const nativeAbove = nativePeak === undefined || nativeStart === undefined ? undefined : nativePeak - nativeStart;
    const nativeMemory =
      nativeAbove === undefined
        ? 'native qpdf: GNU time (/usr/bin/time) not installed'
        : `native qpdf ${fmtBytes(nativeAbove)} (${(nativeAbove / totalBytes).toFixed(2)}× input; ` +
          `Folio ${((measured.peak - measured.base) / nativeAbove).toFixed(2)}× native)`;
    const row = (operation: string, folio: string, reference: string, ratio: number, goal: number) =>
      `| ${operation} | ${folio} | ${reference} | ${ratio.toFixed(2)}× | ≤ ${goal}× ` +
      `${ratio <= goal ? 'met' : 'NOT met'} |`;
    const cpu = Math.min(...cpuTimes);
    return [
      row(
        `${what} (Node)`,
        `${(ms / 1000).toFixed(2)} s`,
        `qpdf --empty --pages ${(native / 1000).toFixed(2)} s`,
        ms / native,
        1.5,
      ),
      nativeCpu.length === 0
        ? `|   CPU time | ${cpu.toFixed(2)} s | native qpdf: GNU time (/usr/bin/time) not installed | | |`
        : row(
            `  CPU time (best of 3)`,
            `${cpu.toFixed(2)} s`,
            `${Math.min(...nativeCpu).toFixed(2)} s`,
            cpu / Math.min(...nativeCpu),
            1.5,
          ),
      row(
        `  peak memory above baseline`,
        fmtBytes(measured.peak - measured.base),
        `input ${fmtBytes(totalBytes)}; ${nativeMemory}`,
        memory,
        3,
      ),
      row(
        `  output size`,
        fmtBytes(result.bytes.byteLength),
        `qpdf ${fmtBytes(nativeSize)} (${fmtBytes(compactSize)} with --object-streams=generate)`,
        result.bytes.byteLength / nativeSize,
        1.1,
      ),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
