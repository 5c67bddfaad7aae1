/**
 * npm run bench -- ocr
 *
 * OCR of a scanned document of several pages (issue #20: "OCR page images" on the render pool):
 * PDF → Word with "Recognise text in scanned pages" over a generated 6-page scan (200 dpi, a
 * sentence of its own on each page; character error rate against the known text) and over the
 * corpus's pdf/scanned/ocrmypdf-multipage.pdf. Before/after in the same run: each page drawn only
 * once the one before is recognised (`ocrAhead: 0`, the engine before the look-ahead) against the
 * default (pages drawn ahead while tesseract works), plus two tesseract workers, and drawing on two
 * render workers. In Node (in-process drawing) and, when dist/ is built, in Chromium through the
 * in-page /api (the engine worker, its tesseract worker, its render workers). Wall time and the CPU
 * time of the whole process tree (what the job costs whatever else the machine does). The native
 * reference would be the `tesseract` CLI; it is reported when installed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusFile, hasCommand, loadEngineModules, servedApp, treeCpuSeconds } from '../lib.ts';
import { characterErrorRate, readDocx } from '../../tests/support/office-fixtures.ts';
import { buildScannedPages } from '../../tests/support/ocr-fixtures.ts';

const PAGES = 6;

interface Variant {
  label: string;
  fields: Record<string, string>;
}

const VARIANTS: Variant[] = [
  { label: 'before: draw, then recognise, page by page', fields: { ocrAhead: '0' } },
  { label: 'after: the default (pages drawn ahead)', fields: {} },
  { label: 'pages drawn ahead, 2 tesseract workers', fields: { ocrWorkers: '2' } },
  { label: 'pages drawn ahead on 2 render workers', fields: { renderWorkers: '2' } },
  { label: 'before again', fields: { ocrAhead: '0' } },
  { label: 'after again', fields: {} },
];

interface Document {
  name: string;
  bytes: Uint8Array;
  /** The text on the pages, when known (the generated scan). */
  text?: string;
}

interface Figure {
  seconds: number;
  cpu: number;
  text: string;
  error?: string;
}

const line = (doc: Document, variant: Variant, figure: Figure, pages: number) => {
  if (figure.error) return `  ${variant.label}: failed — ${figure.error}`;
  const cer = doc.text === undefined ? '' : `, CER ${(characterErrorRate(doc.text, figure.text) * 100).toFixed(1)} %`;
  const perPage = (figure.seconds / pages).toFixed(1);
  return (
    `  ${variant.label.padEnd(48)} ${figure.seconds.toFixed(1).padStart(6)} s (${perPage} s/page), ` +
    `CPU ${figure.cpu.toFixed(1)} s${cer}`
  );
};

async function inNode(docs: Document[]): Promise<void> {
  const { modules, close } = await loadEngineModules({ word: '/workers/engine/tools/pdf-to-word.ts' });
  try {
    for (const doc of docs) {
      const pages = await pageCount(doc.bytes);
      console.log(`Node, ${doc.name} (${pages} pages), PDF → Word with OCR:`);
      // Warm-up (tesseract's WASM and model loaded once; later workers find them cached by Node).
      await modules.word.run([{ name: doc.name, bytes: doc.bytes }], { ocr: true, pages: '1' }, {});
      for (const variant of VARIANTS.filter((v) => !v.fields.renderWorkers)) {
        const cpuStart = process.cpuUsage();
        const start = performance.now();
        const result = await modules.word.run(
          [{ name: doc.name, bytes: doc.bytes }],
          { ocr: true, ...variant.fields },
          {},
        );
        const seconds = (performance.now() - start) / 1000;
        const used = process.cpuUsage(cpuStart);
        const text = (await readDocx(result.bytes)).text;
        console.log(line(doc, variant, { seconds, cpu: (used.user + used.system) / 1e6, text }, pages));
      }
    }
  } finally {
    await close();
  }
}

async function pageCount(bytes: Uint8Array): Promise<number> {
  const { PDFDocument } = await import('pdf-lib');
  return (await PDFDocument.load(bytes)).getPageCount();
}

async function inChromium(docs: Document[]): Promise<void> {
  const app = await servedApp();
  if (!app) {
    console.log('Chromium: dist/ not built, skipped.');
    return;
  }
  try {
    const context = await app.browser.newContext({ baseURL: app.baseURL });
    const page = await context.newPage();
    page.setDefaultTimeout(0);
    await page.goto('/tools/pdf-to-word');
    await page
      .getByRole('button', { name: /Upload Files|Get Started/ })
      .first()
      .click();
    await page.getByRole('dialog').waitFor();
    const post = (doc: Document, fields: Record<string, string>) =>
      page.evaluate(
        async ({ bytes, name, fields }) => {
          const form = new FormData();
          form.append('file', new File([new Uint8Array(bytes)], name, { type: 'application/pdf' }));
          for (const [key, value] of Object.entries({ ocr: 'true', ...fields })) form.append(key, value);
          const started = performance.now();
          const response = await fetch('/api/pdf/toWord', { method: 'POST', body: form });
          const body = new Uint8Array(await response.arrayBuffer());
          return { ms: performance.now() - started, ok: response.ok, body: [...body] };
        },
        { bytes: [...doc.bytes], name: doc.name, fields },
      );
    for (const doc of docs) {
      const pages = await pageCount(doc.bytes);
      console.log(`Chromium, ${doc.name} (${pages} pages), PDF → Word with OCR through the in-page /api:`);
      await post(doc, { pages: '1' }); // warm-up: tesseract's files fetched and compiled once
      for (const variant of VARIANTS) {
        const cpuStart = treeCpuSeconds(process.pid, false);
        const outcome = await post(doc, variant.fields);
        const cpu = treeCpuSeconds(process.pid, false) - cpuStart;
        const bytes = new Uint8Array(outcome.body);
        const figure: Figure = outcome.ok
          ? { seconds: outcome.ms / 1000, cpu, text: (await readDocx(bytes)).text }
          : { seconds: 0, cpu, text: '', error: new TextDecoder().decode(bytes).slice(0, 200) };
        console.log(line(doc, variant, figure, pages));
      }
    }
  } finally {
    await app.close();
  }
}

/** The native reference: `tesseract` over pdftoppm's 300 dpi pages, when installed. */
function nativeReference(doc: Document): void {
  if (!hasCommand('tesseract')) {
    console.log('native reference: the tesseract CLI is not installed on this machine (no figure).');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-ocr-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), doc.bytes);
    const start = performance.now();
    execFileSync('pdftoppm', ['-r', '300', '-gray', '-png', join(dir, 'in.pdf'), join(dir, 'p')]);
    for (const file of execFileSync('ls', [dir])
      .toString()
      .split('\n')
      .filter((f) => f.endsWith('.png')))
      execFileSync('tesseract', [join(dir, file), join(dir, file), '--oem', '1', '-l', 'eng'], { stdio: 'ignore' });
    console.log(
      `native reference: pdftoppm + tesseract CLI, ${doc.name}: ${((performance.now() - start) / 1000).toFixed(1)} s`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const generated = await buildScannedPages(PAGES);
  const docs: Document[] = [{ name: 'scan-6-pages.pdf', bytes: generated.bytes, text: generated.pageTexts.join(' ') }];
  const corpus = corpusFile('pdf/scanned/ocrmypdf-multipage.pdf');
  if (corpus) docs.push({ name: 'ocrmypdf-multipage.pdf', bytes: corpus });
  const only = process.env.OCR_BENCH_ONLY;
  if (only !== 'chromium') await inNode(docs);
  if (only !== 'node') await inChromium(docs);
  nativeReference(docs[0]);
}
