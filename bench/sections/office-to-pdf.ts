/**
 * Word / Excel / PowerPoint to PDF: Folio's own renderers (Node) beside native LibreOffice
 * (`soffice --headless --convert-to pdf`) when it is installed, over the corpus's Office files.
 * Prints per file: time, pages (Folio / LibreOffice), word-level text similarity of the two PDFs
 * (pdftotext, reading order) and mean page SSIM at 72 dpi when the page counts agree; then the
 * totals, cold start, a warm 10-page .docx beside soffice, reliability over two passes, peak RSS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CORPUS, hasCommand, loadEngineModules, pageSimilarity, timed, wordSimilarity } from '../lib.ts';

interface ManifestEntry {
  file: string;
  expect: string;
}

/** F1 of the two texts' word multisets: which words both have, wherever they stand. */
function bagOfWords(a: string, b: string): number {
  const count = (text: string) =>
    text
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean)
      .reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>());
  const [ca, cb] = [count(a), count(b)];
  let common = 0;
  for (const [w, n] of ca) common += Math.min(n, cb.get(w) ?? 0);
  const total = [...ca.values(), ...cb.values()].reduce((x, y) => x + y, 0);
  return total === 0 ? 1 : (2 * common) / total;
}

export async function run(): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as ManifestEntry[];
  // OFFICE_TO_PDF_ONLY=chart,comments compares only the files whose names contain one of those words.
  const only = process.env.OFFICE_TO_PDF_ONLY?.split(',').filter(Boolean);
  const files = manifest.filter(
    (f) =>
      f.expect === 'ok' &&
      /\.(docx|xlsx|pptx)$/.test(f.file) &&
      !/xmlbomb|invalid-xml/.test(f.file) &&
      (!only || only.some((w) => f.file.includes(w))),
  );
  const haveSoffice = hasCommand('soffice');
  const dir = mkdtempSync(join(tmpdir(), 'folio-office-bench-'));
  const profile = `file://${join(dir, 'lo-profile')}`;
  const soffice = (input: string) =>
    execFileSync(
      'soffice',
      [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', dir, input],
      { stdio: 'ignore', timeout: 180_000 },
    );
  const pdftotext = (pdf: string) => execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);

  const { modules, close } = await loadEngineModules({
    docx: '/workers/engine/tools/word-to-pdf.ts',
    xlsx: '/workers/engine/tools/excel-to-pdf.ts',
    pptx: '/workers/engine/tools/ppt-to-pdf.ts',
  });
  try {
    if (!haveSoffice)
      console.log(
        'soffice not installed: LibreOffice figures skipped (apt-get install libreoffice-writer-nogui ' +
          'libreoffice-calc-nogui libreoffice-impress-nogui)',
      );
    if (haveSoffice) soffice(join(CORPUS, files[0].file)); // LibreOffice's own first start, not counted
    console.log('file | Folio ms | LO ms | pages Folio/LO | words sim | SSIM@72');
    let samePages = 0;
    let compared = 0;
    let similaritySum = 0;
    let bagSum = 0;
    let folioTotal = 0;
    let loTotal = 0;
    let cold: number | undefined;
    for (const entry of files) {
      const kind = entry.file.split('.').pop() as 'docx' | 'xlsx' | 'pptx';
      const input = join(CORPUS, entry.file);
      const { value: result, ms } = await timed(() =>
        modules[kind].run([{ name: basename(input), bytes: new Uint8Array(readFileSync(input)) }], {}, {}),
      );
      cold ??= ms;
      folioTotal += ms;
      const ours = join(dir, `${basename(input)}.folio.pdf`);
      writeFileSync(ours, result.bytes);
      const ourPages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [ours], { encoding: 'utf8' }))?.[1]);
      let row = `${entry.file} | ${ms.toFixed(0)}`;
      if (haveSoffice) {
        const lo = await timed(() => soffice(input));
        loTotal += lo.ms;
        const theirs = join(dir, basename(input).replace(/\.[^.]+$/, '.pdf'));
        const loPages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [theirs], { encoding: 'utf8' }))?.[1]);
        const similarity = wordSimilarity(pdftotext(theirs), pdftotext(ours));
        bagSum += bagOfWords(pdftotext(theirs), pdftotext(ours));
        const visual = ourPages === loPages ? pageSimilarity(theirs, ours, dir, basename(input), 72) : undefined;
        compared++;
        if (ourPages === loPages) samePages++;
        similaritySum += similarity;
        row +=
          ` | ${lo.ms.toFixed(0)} | ${ourPages}/${loPages} | ${similarity.toFixed(3)} | ` +
          `${visual ? visual.mean.toFixed(3) : '—'}`;
      } else row += ` | — | ${ourPages}/— | — | —`;
      console.log(row);
    }
    console.log(
      `\nFolio total ${(folioTotal / 1000).toFixed(1)} s over ${files.length} files; cold start (first file, ` +
        `fonts loading) ${cold?.toFixed(0)} ms`,
    );
    if (compared) {
      console.log(
        `LibreOffice total ${(loTotal / 1000).toFixed(1)} s; same page count on ${samePages}/${compared} ` +
          `(${((100 * samePages) / compared).toFixed(0)} %, goal ≥ 90 %); mean word similarity ` +
          `${(similaritySum / compared).toFixed(3)} (goal ≥ 0.98)`,
      );
      console.log(
        `  the same words, order ignored (bag-of-words F1, separates missing text from reading-order ` +
          `differences of pdftotext's layout): ${(bagSum / compared).toFixed(3)}`,
      );
    }

    if (only) return; // a quick comparison of a few files: no timing or reliability passes
    // Warm conversion of a 10-page .docx, beside soffice.
    const { Document, Packer, Paragraph, HeadingLevel } = await import('docx');
    const paragraphs = Array.from({ length: 10 }, (_, page) => [
      new Paragraph({ text: `Chapter ${page + 1}`, heading: HeadingLevel.HEADING_1, pageBreakBefore: page > 0 }),
      ...Array.from({ length: 12 }, (_, i) => new Paragraph(`Paragraph ${i + 1} of chapter ${page + 1}. `.repeat(6))),
    ]).flat();
    const tenPages = join(dir, 'ten-pages.docx');
    writeFileSync(tenPages, await Packer.toBuffer(new Document({ sections: [{ children: paragraphs }] })));
    const runs: number[] = [];
    for (let i = 0; i < 3; i++)
      runs.push(
        (
          await timed(() =>
            modules.docx.run([{ name: 'ten-pages.docx', bytes: new Uint8Array(readFileSync(tenPages)) }], {}, {}),
          )
        ).ms,
      );
    const warm = Math.min(...runs);
    let line = `10-page .docx warm: Folio ${warm.toFixed(0)} ms`;
    if (haveSoffice) {
      const lo = Math.min(
        ...[0, 1].map(() => {
          const t = performance.now();
          soffice(tenPages);
          return performance.now() - t;
        }),
      );
      line += `, soffice ${lo.toFixed(0)} ms (process start included), ratio ${(warm / lo).toFixed(2)} (goal ≤ 2)`;
    }
    console.log(line);

    // Reliability: every file twice more, with a time limit per conversion.
    let attempted = 0,
      completed = 0,
      timedOut = 0;
    for (let pass = 0; pass < 2; pass++) {
      for (const entry of files) {
        attempted++;
        const kind = entry.file.split('.').pop() as 'docx' | 'xlsx' | 'pptx';
        const job = modules[kind].run(
          [{ name: entry.file, bytes: new Uint8Array(readFileSync(join(CORPUS, entry.file))) }],
          {},
          {},
        );
        const outcome = await Promise.race([
          job.then(() => 'done'),
          new Promise((r) => setTimeout(() => r('timeout'), 60_000)),
        ]);
        if (outcome === 'done') completed++;
        else timedOut++;
      }
    }
    console.log(`reliability: ${attempted} attempted, ${completed} completed, ${timedOut} timed out (two passes)`);
    console.log(`peak RSS ${(peak / (1 << 20)).toFixed(0)} MB`);
  } finally {
    clearInterval(sampler);
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
}
