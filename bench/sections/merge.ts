/**
 * npm run bench -- merge
 *
 * merge-pdf (qpdf WASM page assembly + Folio's bookmarks and links, in Node) over 20 real corpus
 * PDFs of 1,607 pages in total (the 345-page and 117-page documents repeated, plus smaller ones),
 * beside native `qpdf --empty --pages … -- out.pdf` on the same files in the same run: time (best of
 * 3 each, the machine is shared), the ratio, output size and the peak resident memory of this
 * process during the first measured merge (sampled every 10 ms) above its level before, against the
 * total input size. Goals (issue #20): ≤ 1.5× qpdf's time; ≤ 3× the input in peak memory; output
 * ≤ 1.1× qpdf's size.
 *
 * Note the two do different work: qpdf drops the inputs' bookmarks and breaks their links (forward
 * links become null, named destinations are dropped); merge-pdf keeps and remaps both. The native
 * qpdf here is Debian's 11.3, the WASM one 12.2 (which copies the annotations of a repeated page
 * instead of sharing them, so repeated inputs come out larger).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Engine } from '../../workers/engine/lib/types.ts';
import { CORPUS, corpusFile, fmtBytes, hasCommand, loadEngineModules, timed } from '../lib.ts';


/** 20 files, ~1,500 pages: 3 × 345 + 3 × 117 + 14 smaller documents. */
const FILES: string[] = [
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

export async function run(): Promise<void> {
  const inputs = FILES.map((file) => ({ file, bytes: corpusFile(file) }));
  if (inputs.some((i) => !i.bytes)) {
    console.log(`merge: corpus not found at ${CORPUS}: skipped`);
    return;
  }
  const totalBytes = inputs.reduce((sum, i) => sum + i.bytes!.byteLength, 0);
  const { merge, close } = await loadMerge();
  try {
    // Warm-up (module load, JIT) on two small files, not measured.
    await merge([{ name: 'a.pdf', bytes: corpusFile('pdf/clean/sf-pdflatex-outline.pdf')! }, { name: 'b.pdf', bytes: corpusFile('pdf/clean/sf-multicolumn.pdf')! }], {}, {});

    let pages = 0;
    const engineInputs = inputs.map((i, n) => ({ name: `${n + 1}-${i.file.split('/').pop()}`, bytes: i.bytes! }));
    const mergeOnce = () => timed(() => merge(engineInputs, { bookmarkEachFile: true }, { progress: (_done, total) => (pages = Math.max(pages, total)) }));
    const measured = await withPeakRss(mergeOnce);
    const { value: result } = measured.value;
    const times = [measured.value.ms, (await mergeOnce()).ms, (await mergeOnce()).ms];
    const ms = Math.min(...times);
    const memory = (measured.peak - measured.base) / totalBytes;
    console.log(`merge-pdf: ${FILES.length} files, ${pages} pages, ${fmtBytes(totalBytes)} in → ${fmtBytes(result.bytes.byteLength)} out; best of 3 ${(ms / 1000).toFixed(2)} s (${times.map((t) => (t / 1000).toFixed(2)).join(' / ')})`);
    console.log(`  peak RSS ${fmtBytes(measured.peak)}, ${fmtBytes(measured.peak - measured.base)} above the ${fmtBytes(measured.base)} before`);

    if (hasCommand('qpdf')) {
      const dir = mkdtempSync(join(tmpdir(), 'folio-bench-merge-'));
      try {
        const out = join(dir, 'out.pdf');
        const args = ['--empty', '--pages', ...FILES.flatMap((f) => [resolve(CORPUS, f), '1-z']), '--', out];
        execFileSync('qpdf', args); // warm the file cache
        const nativeTimes: number[] = [];
        for (let i = 0; i < 3; i++) nativeTimes.push((await timed(() => execFileSync('qpdf', args))).ms);
        const native = Math.min(...nativeTimes);
        const nativeSize = statSync(out).size;
        const row = (what: string, folio: string, reference: string, ratio: number, goal: number) =>
          console.log(`| ${what} | ${folio} | ${reference} | ${ratio.toFixed(2)}× | ≤ ${goal}× ${ratio <= goal ? 'met' : 'NOT met'} |`);
        console.log(`\n| operation | Folio | native | ratio | goal |\n|---|---|---|---|---|`);
        row(`merge ${FILES.length} PDFs, ${pages} pages (Node)`, `${(ms / 1000).toFixed(2)} s`, `qpdf --empty --pages ${(native / 1000).toFixed(2)} s`, ms / native, 1.5);
        row('merge peak memory above baseline', `${fmtBytes(measured.peak - measured.base)}`, `input ${fmtBytes(totalBytes)}`, memory, 3);
        row('merge output size', fmtBytes(result.bytes.byteLength), `qpdf ${fmtBytes(nativeSize)}`, result.bytes.byteLength / nativeSize, 1.1);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else {
      console.log('qpdf (native) not installed: no reference time');
    }
  } finally {
    await close();
  }
}
