/**
 * npm run bench -- merge
 *
 * merge-pdf (pdf-lib + Folio's page copier, in Node) over 20 real corpus PDFs of ~1,500 pages in
 * total (the 345-page and 117-page documents repeated, plus smaller ones), beside native
 * `qpdf --empty --pages … -- out.pdf` on the same files in the same run: time, the ratio, output
 * size and the peak resident memory of this process during the merge (sampled every 10 ms) against
 * the total input size. Goals (issue #3): ≤ 1.5× qpdf's time; peak memory ≤ 3× the input size.
 *
 * Note the two do different work: qpdf drops the inputs' bookmarks, merge-pdf keeps and remaps them
 * (and every internal link), so merge-pdf's output has the 20 outlines qpdf's has not.
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
    const measured = await withPeakRss(() => timed(() => merge(engineInputs, { bookmarkEachFile: true }, { progress: (_done, total) => (pages = total) })));
    const { value: result, ms } = measured.value;
    console.log(`merge-pdf: ${FILES.length} files, ${pages} pages, ${fmtBytes(totalBytes)} in → ${fmtBytes(result.bytes.byteLength)} out in ${(ms / 1000).toFixed(2)} s (${Math.round(pages / (ms / 1000))} pages/s)`);
    console.log(`  peak RSS ${fmtBytes(measured.peak)} (${fmtBytes(measured.peak - measured.base)} above the ${fmtBytes(measured.base)} before) = ${(measured.peak / totalBytes).toFixed(1)}× the input size in total, ${((measured.peak - measured.base) / totalBytes).toFixed(1)}× above baseline (goal ≤ 3×)`);

    if (hasCommand('qpdf')) {
      const dir = mkdtempSync(join(tmpdir(), 'folio-bench-merge-'));
      try {
        const out = join(dir, 'out.pdf');
        const args = ['--empty', '--pages', ...FILES.map((f) => resolve(CORPUS, f)), '--', out];
        execFileSync('qpdf', args); // warm the file cache
        const native = await timed(() => execFileSync('qpdf', args));
        const ratio = ms / native.ms;
        console.log(`qpdf --empty --pages (native): ${(native.ms / 1000).toFixed(2)} s, ${fmtBytes(statSync(out).size)} out`);
        console.log(`  ratio merge-pdf / qpdf: ${ratio.toFixed(2)}× (goal ≤ 1.5×)`);
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
