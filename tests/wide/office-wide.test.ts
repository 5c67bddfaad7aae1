/**
 * `npm run test:wide`: every .docx, .xlsx and .pptx of ../shared/corpus/office-wide (468 files from
 * Apache POI's test data, many of them bug reproductions; not in `npm test`: a full run takes
 * 2.5 minutes on two idle cores, over 15 when the machine is busy) converted by Folio's own Office → PDF engines, each
 * with a time
 * limit. No file may crash or be stopped; no file LibreOffice converts may be called damaged. Page
 * counts are compared with LibreOffice 7.4's (from the manifest) and printed, not asserted; so is the
 * word similarity to LibreOffice's PDF text when soffice is installed or its text is cached.
 */
import { expect, test } from 'vitest';
import { runWide, summarise, summaryLines, widePresent, type WideOutcome } from './runner.ts';

const describeOrSkip = widePresent ? test : test.skip;

describeOrSkip('the wide Office corpus converts without a crash, a stall or a false "damaged"', async () => {
  const outcomes: WideOutcome[] = await runWide({ only: process.env.WIDE_ONLY?.split(',').filter(Boolean) });
  const lines = summaryLines(summarise(outcomes));
  const problems = outcomes.filter(
    (o) =>
      o.status === 'crashed' ||
      o.status === 'stopped' ||
      (o.status === 'refused' && o.entry.expect === 'ok' && /damaged/.test(o.message ?? '')),
  );
  const nothingToPrint = outcomes.filter(
    (o) => o.status === 'refused' && o.entry.expect === 'ok' && !/damaged/.test(o.message ?? ''),
  );
  console.log(`[wide] ${lines.join('\n[wide] ')}`);
  if (nothingToPrint.length)
    console.log(
      `[wide] refused with a reason other than damage (an empty workbook, a password):\n  ` +
        `${nothingToPrint.map((o) => `${o.entry.file}: ${o.message}`).join('\n  ')}`,
    );
  const pageDiffs = outcomes.filter(
    (o) => o.status === 'converted' && o.entry.libreoffice_pages && o.pages !== o.entry.libreoffice_pages,
  );
  console.log(
    `[wide] page count differs from LibreOffice's:\n  ` +
      `${pageDiffs.map((o) => `${o.entry.file}: ${o.pages} (LibreOffice ${o.entry.libreoffice_pages})`).join('\n  ')}`,
  );
  expect(problems.map((o) => `${o.status} ${o.entry.file}: ${(o.message ?? '').split('\n')[0]}`)).toEqual([]);
});
