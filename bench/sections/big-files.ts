/**
 * npm run bench -- big
 *
 * A ~1 GB PDF generated here from corpus pages (native qpdf merges distinct copies of an image page
 * and of a 117-page linked document, so nothing is shared), then merged (with a 2-page file), split
 * in two and rotated:
 *   - in Debian's Chromium through the built app (files picked in the modal's input, POSTed to the
 *     in-page /api, engine worker): time and the browser's peak resident memory above its level
 *     before the job (all Chromium processes, sampled every 100 ms);
 *   - in Node (the same engines) beside native qpdf doing the same page work in the same run.
 * Goal (issue #20): all three complete in Chromium on this machine. Needs `npm run build` for the
 * Chromium part. FOLIO_BENCH_BIG_NODE=0 leaves out the Node part (minutes of its own);
 * FOLIO_BENCH_BIG_MODAL_ONLY=1 runs only the merge started from the modal (Folio's own client).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  CORPUS,
  fmtBytes,
  hasCommand,
  inChromium,
  loadEngineModules,
  timed,
  type BrowserJob,
  type BrowserJobResult,
} from '../lib.ts';

const TARGET_BYTES = 1024 ** 3;
const IMAGE_PAGE = 'pdf/clean/sf-base64image.pdf';
const LINKED = 'pdf/large/sf-geotopo-komprimiert.pdf';
const SMALL = 'pdf/clean/sf-pdflatex-outline.pdf';

/** Writes the big PDF into `dir` with native qpdf; returns its path and page count. */
function generate(dir: string): { path: string; pages: number } {
  let serial = 0;
  const copies = (source: string, count: number) =>
    Array.from({ length: count }, () => {
      // qpdf shares objects between pages of one file; distinct names make every copy a file of its own.
      const link = join(dir, `copy-${serial++}.pdf`);
      symlinkSync(resolve(CORPUS, source), link);
      return link;
    });
  const merge = (files: string[], out: string) =>
    execFileSync('qpdf', ['--empty', '--pages', ...files.flatMap((f) => [f, '1-z']), '--', out]);
  // What one copy of each adds once written by qpdf (its streams may come out larger than they went in).
  const probe = join(dir, 'probe.pdf');
  merge(copies(IMAGE_PAGE, 4), probe);
  const perImage = statSync(probe).size / 4;
  merge(copies(LINKED, 1), probe);
  const perLinked = statSync(probe).size;
  const linkedCopies = 8;
  const imageCopies = Math.max(0, Math.round((TARGET_BYTES - linkedCopies * perLinked) / perImage));
  const images = copies(IMAGE_PAGE, imageCopies);
  const linked = copies(LINKED, linkedCopies);
  const spacing = Math.max(1, Math.floor(images.length / linkedCopies));
  const files = images.flatMap((file, i) => (i % spacing === 0 && linked.length ? [linked.pop()!, file] : [file]));
  files.push(...linked);
  const path = join(dir, 'big.pdf');
  merge(files, path);
  const pages = Number(execFileSync('qpdf', ['--show-npages', path], { encoding: 'utf8' }).trim());
  return { path, pages };
}

/** Where the browser's peak is: by kind of process, and what the engine worker held at its stages. */
function printBreakdown(r: BrowserJobResult, input: number): void {
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MB`;
  const x = (n: number) => `${(n / input).toFixed(2)}×`;
  for (const kind of Object.keys(r.kindPeaks).sort()) {
    const before = r.kindsBefore[kind] ?? 0;
    const atPeak = (r.kindsAtPeak[kind] ?? 0) - before;
    console.log(
      `    ${kind.padEnd(26)} before ${mb(before).padStart(8)}, at the peak +${mb(atPeak)} ` +
        `(${x(atPeak)}), own peak +${mb(r.kindPeaks[kind] - before)} ` +
        `(${x(r.kindPeaks[kind] - before)})`,
    );
  }
  for (const { record, kinds } of r.probes) {
    const { at, stage, ...sizes } = record;
    const figures = Object.entries(sizes).map(([key, value]) => `${key} ${mb(Number(value))}`);
    const renderer = kinds ? (kinds.renderer ?? 0) - (r.kindsBefore.renderer ?? 0) : NaN;
    console.log(`    worker @${String(at).slice(-6)} ${stage}: ${figures.join(', ')}; renderer then +${mb(renderer)}`);
  }
}

export async function run(): Promise<void> {
  if (!hasCommand('qpdf')) {
    console.log('big-files: native qpdf is needed to generate the 1 GB PDF: skipped');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-big-'));
  try {
    const { path, pages } = generate(dir);
    const size = statSync(path).size;
    const small = resolve(CORPUS, SMALL);
    const half = Math.ceil(pages / 2);
    console.log(`generated ${fmtBytes(size)}, ${pages} pages (${path})`);

    console.log('\nin Chromium (built app, in-page /api, engine worker):');
    const modalOnly = process.env.FOLIO_BENCH_BIG_MODAL_ONLY === '1';
    const labels = ['merge (+ 2-page file)', 'split in two (ZIP)', 'rotate every page', 'merge, modal'];
    const jobs: BrowserJob[] = [
      { tool: 'merge-pdf', endpoint: '/api/pdf/merge', files: [path, small], field: 'files' },
      {
        tool: 'split-pdf',
        endpoint: '/api/pdf/split',
        files: [path],
        field: 'file',
        fields: { mode: 'everyN', everyN: String(half) },
      },
      { tool: 'rotate-pdf', endpoint: '/api/pdf/rotate', files: [path], field: 'file', fields: { angle: '90' } },
      // The same merge started from the modal: Folio's client and its job channel, the result downloaded.
      { tool: 'merge-pdf', endpoint: '/api/pdf/merge', files: [path, small], field: 'files', viaModal: true },
    ];
    const browser = await inChromium(modalOnly ? jobs.slice(3) : jobs);
    if (!browser) console.log('  dist/ or /usr/bin/chromium missing: run `npm run build` first');
    else {
      (modalOnly ? labels.slice(3) : labels).forEach((label, i) => {
        const r = browser[i];
        console.log(
          `  ${label.padEnd(22)} ` +
            `${r.error ? `FAILED: ${r.error}` : `${(r.ms / 1000).toFixed(1)} s, ${fmtBytes(r.bytes)} out`}, ` +
            `browser peak ${fmtBytes(r.peakAbove)} above its level before (${(r.peakAbove / size).toFixed(1)}× ` +
            `the input)`,
        );
        printBreakdown(r, size);
      });
    }

    if (process.env.FOLIO_BENCH_BIG_NODE === '0') return;
    console.log('\nin Node (same engines) beside native qpdf:');
    const { modules, close } = await loadEngineModules({
      merge: '/workers/engine/tools/merge-pdf.ts',
      split: '/workers/engine/tools/split-pdf.ts',
      rotate: '/workers/engine/tools/rotate-pdf.ts',
    });
    try {
      const bytes = new Uint8Array(readFileSync(path));
      const smallBytes = new Uint8Array(readFileSync(small));
      const out = join(dir, 'native.pdf');
      const rows: Array<[string, () => Promise<{ bytes: Uint8Array }>, string[]]> = [
        [
          'merge',
          () =>
            modules.merge.run(
              [
                { name: 'big.pdf', bytes },
                { name: 'small.pdf', bytes: smallBytes },
              ],
              {},
              {},
            ),
          ['--empty', '--pages', path, '1-z', small, '1-z', '--', out],
        ],
        [
          'split in two',
          () => modules.split.run([{ name: 'big.pdf', bytes }], { mode: 'everyN', everyN: half }, {}),
          ['--split-pages=' + half, path, join(dir, 'part-%d.pdf')],
        ],
        [
          'rotate',
          () => modules.rotate.run([{ name: 'big.pdf', bytes }], { angle: '90' }, {}),
          ['--rotate=+90', path, out],
        ],
      ];
      for (const [label, folio, nativeArgs] of rows) {
        const f = await timed(folio);
        const n = await timed(() => execFileSync('qpdf', nativeArgs));
        console.log(
          `  ${label.padEnd(14)} Folio ${(f.ms / 1000).toFixed(1)} s (${fmtBytes(f.value.bytes.byteLength)}) | ` +
            `qpdf ${(n.ms / 1000).toFixed(1)} s | ratio ${(f.ms / n.ms).toFixed(2)}×`,
        );
      }
    } finally {
      await close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
