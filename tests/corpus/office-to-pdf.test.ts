/**
 * Word, Excel and PowerPoint to PDF over every Office file of the corpus: readable files convert
 * to a PDF that pdf.js opens and qpdf checks; password-protected, truncated and broken packages
 * fail with a clear message. Page counts are printed beside LibreOffice's (from the manifest).
 */
import { afterAll, expect, test } from 'vitest';
import { describeCorpus, manifest, pdfjsPageCount, readCorpus, Tally } from '../support/corpus.ts';
import { qpdfCheck } from '../support/pdf.ts';
import { isFolioError } from '../../workers/engine/lib/errors.ts';
import type { Engine } from '../../workers/engine/lib/types.ts';

const engines: Record<string, () => Promise<{ run: Engine }>> = {
  docx: () => import('../../workers/engine/tools/word-to-pdf.ts'),
  xlsx: () => import('../../workers/engine/tools/excel-to-pdf.ts'),
  pptx: () => import('../../workers/engine/tools/ppt-to-pdf.ts'),
};

/**
 * Files LibreOffice reads but Folio's renderers refuse, each with the clear message they give: none
 * since workbooks exceljs cannot parse (malformed XML, a billion-laughs entity bomb) are read again
 * once normalised (workers/engine/lib/office-to-pdf/xlsx-repair.ts).
 */
const KNOWN_LIMITS = new Set<string>();

const officeFiles = manifest.filter((f) => /\.(docx|xlsx|pptx)$/.test(f.file));

describeCorpus('Office to PDF over the corpus', () => {
  const tally = new Tally('office-to-pdf');
  const pageRows: string[] = [];

  for (const entry of officeFiles) {
    test(entry.file, async () => {
      const kind = entry.file.split('.').pop()!;
      const { run } = await engines[kind]();
      const bytes = readCorpus(entry);
      const job = run([{ name: entry.file.split('/').pop()!, bytes }], {}, {});
      if (entry.expect === 'error' || KNOWN_LIMITS.has(entry.file)) {
        const error = await job.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isFolioError(error), `${entry.file} must fail with a named error`).toBe(true);
        expect((error as Error).message).toMatch(/protected (with|by) a password|damaged|not a|cannot read/);
        tally.pass();
        return;
      }
      try {
        const result = await job;
        const check = await qpdfCheck(result.bytes);
        expect(check.ok, check.output).toBe(true);
        const pages = await pdfjsPageCount(result.bytes);
        expect(pages).toBeGreaterThan(0);
        const reference = /ok, (\d+) pages/.exec(
          JSON.stringify((entry as unknown as { checks?: unknown }).checks ?? ''),
        )?.[1];
        pageRows.push(`${entry.file}: ${pages} page(s)${reference ? `, LibreOffice ${reference}` : ''}`);
        tally.pass();
      } catch (error) {
        tally.fail(`${entry.file}: ${(error as Error).message}`);
        throw error;
      }
    });
  }

  afterAll(() => {
    console.log(`[corpus] office-to-pdf pages (Folio vs LibreOffice):\n  ${pageRows.join('\n  ')}`);
    tally.print();
  });
});
