/**
 * The wide Office corpus (../shared/corpus/office-wide: 468 .docx, .xlsx and .pptx from Apache
 * POI's test data) through Folio's Office → PDF engines, each file in a worker with a 120 s limit:
 * converted / refused / crashed / stopped per format, the same page count as LibreOffice 7.4 (the
 * manifest's count) and the word similarity of Folio's PDF text to native LibreOffice's (its PDFs are
 * made once with soffice and cached in node_modules/.cache/folio-wide; without soffice and without
 * that cache the similarity is not measured, and the section says so). OFFICE_WIDE_ONLY=word,…
 * limits the files. First, two generated documents at scale beside soffice: a 10,000-row sheet and
 * a 500-page Word document (time, pages, progress reports).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWide, summarise, summaryLines, widePresent } from '../../tests/wide/runner.ts';
import { hasCommand, loadEngineModules, timed } from '../lib.ts';

const pdfPages = (path: string) =>
  Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [path], { encoding: 'utf8' }))?.[1] ?? 0);

async function scaleDocuments(dir: string): Promise<Array<{ name: string; kind: 'xlsx' | 'docx'; path: string }>> {
  const ExcelJS = (await import('exceljs')).default;
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Rows');
  for (let i = 0; i < 10_000; i++) sheet.addRow([`Row ${i + 1}`, i + 1, (i + 1) * 2, `Item ${(i * 7) % 1000}`]);
  const sheetPath = join(dir, 'ten-thousand-rows.xlsx');
  writeFileSync(sheetPath, new Uint8Array(await workbook.xlsx.writeBuffer()));
  const { Document, Packer, Paragraph, HeadingLevel } = await import('docx');
  const paragraphs = Array.from({ length: 500 }, (_, page) => [
    new Paragraph({ text: `Chapter ${page + 1}`, heading: HeadingLevel.HEADING_1, pageBreakBefore: page > 0 }),
    ...Array.from(
      { length: 6 },
      (_, i) => new Paragraph(`Paragraph ${i + 1} of chapter ${page + 1}, some words to fill a line. `.repeat(5)),
    ),
  ]).flat();
  const docPath = join(dir, 'five-hundred-pages.docx');
  writeFileSync(docPath, await Packer.toBuffer(new Document({ sections: [{ children: paragraphs }] })));
  return [
    { name: '10,000-row sheet', kind: 'xlsx', path: sheetPath },
    { name: '500-page Word document', kind: 'docx', path: docPath },
  ];
}

async function atScale(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-scale-bench-'));
  const { modules, close } = await loadEngineModules({
    docx: '/workers/engine/tools/word-to-pdf.ts',
    xlsx: '/workers/engine/tools/excel-to-pdf.ts',
  });
  const haveSoffice = hasCommand('soffice');
  try {
    for (const doc of await scaleDocuments(dir)) {
      let reports = 0;
      const bytes = new Uint8Array(readFileSync(doc.path));
      const ours = await timed(() =>
        modules[doc.kind].run([{ name: doc.path, bytes }], {}, { progress: () => reports++ }),
      );
      writeFileSync(join(dir, 'folio.pdf'), ours.value.bytes);
      let line =
        `${doc.name}: Folio ${(ours.ms / 1000).toFixed(1)} s, ${pdfPages(join(dir, 'folio.pdf'))} pages, ` +
        `${reports} progress reports`;
      if (haveSoffice) {
        const profile = `file://${join(dir, 'lo-profile')}`;
        const lo = await timed(() =>
          execFileSync(
            'soffice',
            [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', dir, doc.path],
            { stdio: 'ignore', timeout: 600_000 },
          ),
        );
        const theirs = join(
          dir,
          doc.path
            .split('/')
            .pop()!
            .replace(/\.[^.]+$/, '.pdf'),
        );
        line +=
          `; soffice ${(lo.ms / 1000).toFixed(1)} s (first start included), ${pdfPages(theirs)} pages; ratio ` +
          `${(ours.ms / lo.ms).toFixed(2)}`;
      } else line += '; soffice not installed';
      console.log(line);
    }
  } finally {
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  await atScale();
  if (!widePresent) {
    console.log('office-wide corpus not found: skipped');
    return;
  }
  const only = process.env.OFFICE_WIDE_ONLY?.split(',').filter(Boolean);
  const start = performance.now();
  const outcomes = await runWide({ only });
  const seconds = (performance.now() - start) / 1000;
  for (const line of summaryLines(summarise(outcomes))) console.log(line);
  const times = outcomes
    .filter((o) => o.status === 'converted')
    .map((o) => o.ms)
    .sort((a, b) => a - b);
  const percentile = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0;
  console.log(
    `${outcomes.length} files in ${seconds.toFixed(0)} s (LibreOffice's PDFs made on the first run); per ` +
      `converted file median ${percentile(50).toFixed(0)} ms, 90th percentile ${percentile(90).toFixed(0)} ms, ` +
      `slowest ${(times.at(-1) ?? 0).toFixed(0)} ms`,
  );
  for (const o of outcomes.filter((x) => x.status === 'crashed' || x.status === 'stopped'))
    console.log(`  ${o.status}: ${o.entry.file} ${(o.message ?? '').split('\n')[0]}`);
  const lowest = outcomes
    .filter((o) => o.similarity !== undefined)
    .sort((a, b) => a.similarity! - b.similarity!)
    .slice(0, 10);
  if (lowest.length)
    console.log(
      `lowest word similarity:\n  ${lowest.map((o) => `${o.entry.file}: ${o.similarity!.toFixed(3)}`).join('\n  ')}`,
    );
}
