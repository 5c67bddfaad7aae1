/**
 * The wide Office corpus (../shared/corpus/office-wide: 468 .docx, .xlsx and .pptx from Apache
 * POI's test data) through Folio's Office → PDF engines, each file in a worker with a 120 s limit:
 * converted / refused / crashed / stopped per format, and the same page count as LibreOffice 7.4
 * (the manifest's count; LibreOffice's PDFs are not stored, so word similarity is measured only in
 * the office-to-pdf section, where soffice runs). OFFICE_WIDE_ONLY=word,… limits the files.
 */
import { runWide, summarise, summaryLines, widePresent } from '../../tests/wide/runner.ts';

export async function run(): Promise<void> {
  if (!widePresent) {
    console.log('office-wide corpus not found: skipped');
    return;
  }
  const only = process.env.OFFICE_WIDE_ONLY?.split(',').filter(Boolean);
  const start = performance.now();
  const outcomes = await runWide({ only });
  const seconds = (performance.now() - start) / 1000;
  for (const line of summaryLines(summarise(outcomes))) console.log(line);
  const times = outcomes.filter((o) => o.status === 'converted').map((o) => o.ms).sort((a, b) => a - b);
  const percentile = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0;
  console.log(`${outcomes.length} files in ${seconds.toFixed(0)} s; per converted file median ${percentile(50).toFixed(0)} ms, 90th percentile ${percentile(90).toFixed(0)} ms, slowest ${(times.at(-1) ?? 0).toFixed(0)} ms`);
  for (const o of outcomes.filter((x) => x.status === 'crashed' || x.status === 'stopped')) console.log(`  ${o.status}: ${o.entry.file} ${(o.message ?? '').split('\n')[0]}`);
}
