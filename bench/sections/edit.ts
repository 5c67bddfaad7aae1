/**
 * npm run bench -- edit
 *
 * edit-pdf (in Node) on the corpus' 345-page LaTeX manual: a 120 pt redaction band across the middle of
 * every page (content streams parsed, glyphs removed, rewritten) plus one line of added text per
 * page; then the same file through the simple form (text on every page, no redaction). Beside
 * them: native `qpdf in.pdf out.pdf` (a plain rewrite, the floor for touching every page) and a
 * check with poppler's pdftotext that no text is left inside the redacted bands.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusFile, fmtBytes, hasCommand, loadEngineModules, timed } from '../lib.ts';

const FILE = 'pdf/large/texlive-interface3.pdf';

export async function run(): Promise<void> {
  const input = corpusFile(FILE);
  if (!input) {
    console.log(`corpus file ${FILE} not found: skipped`);
    return;
  }
  const { modules, close } = await loadEngineModules({ edit: '/workers/engine/tools/edit-pdf.ts' });
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-edit-'));
  try {
    const { PDFDocument } = await import('pdf-lib');
    const pages = (await PDFDocument.load(input, { updateMetadata: false })).getPageCount();
    const operations: Array<Record<string, unknown>> = [];
    for (let page = 1; page <= pages; page++) {
      operations.push({ type: 'redact', page, x: 0, y: 300, width: 700, height: 120 });
      operations.push({
        type: 'text',
        page,
        x: 40,
        y: 40,
        text: `Reviewed — page ${page}`,
        size: 12,
        color: '#cc0000',
        font: 'sans',
      });
    }
    const redacted = await timed(() =>
      modules.edit.run([{ name: 'manual.pdf', bytes: input }], { operations: JSON.stringify(operations) }, {}),
    );
    console.log(
      `redact band + add text, ${pages} pages: ${redacted.ms.toFixed(0)} ms ` +
        `(${(pages / (redacted.ms / 1000)).toFixed(0)} pages/s), ${fmtBytes(input.length)} → ` +
        `${fmtBytes(redacted.value.bytes.length)}; ${redacted.value.notes?.join(' ')}`,
    );
    const simple = await timed(() =>
      modules.edit.run([{ name: 'manual.pdf', bytes: input }], { text: 'DRAFT', position: 'top' }, {}),
    );
    console.log(
      `simple form (text on every page): ${simple.ms.toFixed(0)} ms (${(pages / (simple.ms / 1000)).toFixed(0)} ` +
        `pages/s)`,
    );

    const inPath = join(dir, 'in.pdf');
    const outPath = join(dir, 'out.pdf');
    writeFileSync(inPath, input);
    writeFileSync(outPath, redacted.value.bytes);
    if (hasCommand('qpdf')) {
      const native = await timed(() => execFileSync('qpdf', [inPath, join(dir, 'qpdf.pdf')], { stdio: 'ignore' }));
      console.log(
        `native qpdf rewrite (reference): ${native.ms.toFixed(0)} ms → edit-pdf is ` +
          `${(redacted.ms / native.ms).toFixed(1)}× a plain rewrite`,
      );
    }
    if (hasCommand('pdftotext')) {
      // pdftotext -y/-H crop in pixels at 72 dpi: the band, inside its edges.
      const band = (path: string) =>
        execFileSync('pdftotext', ['-x', '0', '-y', '305', '-W', '700', '-H', '110', path, '-'], {
          encoding: 'utf8',
        }).replace(/\s+/g, '');
      console.log(
        `pdftotext in the redacted bands: before ${band(inPath).length} characters, after ${band(outPath).length}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await close();
  }
}
