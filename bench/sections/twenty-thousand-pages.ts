/**
 * npm run bench -- twenty
 *
 * Big is not hostile (issue #21): a 20,000-page PDF (one text line per page, generated here by the
 * hostile suite's recipe) split into 20,000 one-page PDFs (split-pdf, mode "each": a ZIP) and
 * rotated by 90° (rotate-pdf), in Node, beside native `qpdf --split-pages` and `qpdf --rotate=+90`
 * on the same file in the same run: time, the ratio, and how steady the progress is — the number
 * of progress reports and the longest gap between two of them (the watchdog stops a job after
 * DEFAULT_STALL_SECONDS without one). PDF → JPG of the same file is the pdf-to-jpg section's row.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../../workers/engine/lib/types.ts';
import { manyPagesPdf } from '../../tests/support/hostile-recipes.ts';
import { DEFAULT_STALL_SECONDS } from '../../workers/watchdog.ts';
import { fmtBytes, hasCommand, loadEngineModules, timed } from '../lib.ts';

const PAGES = 20_000;

interface Steadiness {
  reports: number;
  longestGapMs: number;
  /** Share done when the longest gap began (1 = after the last report: the gap is the finishing). */
  longestGapFrom: number;
  lastDone: number;
}

/** Runs `engine` on the file, recording when progress is reported. */
async function runWatched(engine: Engine, bytes: Uint8Array, options: Record<string, string>) {
  const steadiness: Steadiness = { reports: 0, longestGapMs: 0, longestGapFrom: 0, lastDone: 0 };
  let last = performance.now();
  const progress = (done: number, total: number) => {
    const now = performance.now();
    if (now - last > steadiness.longestGapMs) {
      steadiness.longestGapMs = now - last;
      steadiness.longestGapFrom = steadiness.reports === 0 ? -1 : steadiness.lastDone;
    }
    last = now;
    steadiness.reports++;
    steadiness.lastDone = total > 0 ? done / total : 0;
  };
  const { value, ms } = await timed(() => engine([{ name: 'big.pdf', bytes: bytes.slice() }], options, { progress }));
  if (performance.now() - last > steadiness.longestGapMs) {
    steadiness.longestGapMs = performance.now() - last;
    steadiness.longestGapFrom = 1;
  }
  return { result: value, ms, steadiness };
}

function timedNative(args: string[]): number {
  const start = performance.now();
  try {
    execFileSync('qpdf', args, { stdio: 'ignore' });
  } catch (error) {
    // Exit code 3: warnings, output written.
    if ((error as { status?: number }).status !== 3) throw error;
  }
  return performance.now() - start;
}

const gapPlace = (from: number) =>
  from < 0 ? 'before the first report' : from >= 1 ? 'after the last report' : `after ${Math.round(from * 100)}% done`;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function run(): Promise<void> {
  const bytes = manyPagesPdf(PAGES);
  console.log(`input: ${PAGES.toLocaleString('en')} pages, ${fmtBytes(bytes.byteLength)} (generated)`);
  const { modules, close } = await loadEngineModules({
    split: '/workers/engine/tools/split-pdf.ts',
    rotate: '/workers/engine/tools/rotate-pdf.ts',
  });
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-20000-'));
  try {
    const input = join(dir, 'big.pdf');
    writeFileSync(input, bytes);
    const native = hasCommand('qpdf');
    const rows: Array<[string, Awaited<ReturnType<typeof runWatched>>, number | undefined, string]> = [];

    const split = await runWatched(modules.split.run, bytes, { mode: 'each' });
    const splitNative = native ? timedNative(['--split-pages', input, join(dir, 'page-%d.pdf')]) : undefined;
    const nativeFiles = readdirSync(dir).filter((f) => f.startsWith('page-')).length;
    if (native) console.log(`qpdf --split-pages wrote ${nativeFiles} files`);
    rows.push(['split into pages', split, splitNative, `ZIP ${fmtBytes(split.result.bytes.byteLength)}`]);

    const rotate = await runWatched(modules.rotate.run, bytes, { angle: '90' });
    const rotateNative = native ? timedNative(['--rotate=+90', input, join(dir, 'rotated.pdf')]) : undefined;
    rows.push(['rotate 90°', rotate, rotateNative, `PDF ${fmtBytes(rotate.result.bytes.byteLength)}`]);

    for (const [label, { ms, steadiness }, nativeMs, output] of rows) {
      const versus =
        nativeMs === undefined
          ? 'qpdf not installed'
          : `qpdf ${seconds(nativeMs)}, ratio ${(ms / nativeMs).toFixed(1)}×`;
      const gap = `${seconds(steadiness.longestGapMs)} ${gapPlace(steadiness.longestGapFrom)}`;
      console.log(
        `${label}: Folio ${seconds(ms)} (${versus}); ${output}; ` +
          `${steadiness.reports.toLocaleString('en')} progress reports, ` +
          `longest gap ${gap} (stall limit ${DEFAULT_STALL_SECONDS} s)`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await close();
  }
}
