import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PDFArray, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { manyPagesPdf } from '../support/hostile-recipes.ts';
import { REBUILD_ABOVE, withBalancedPageTree } from '../../workers/engine/lib/pdf/balanced-page-tree.ts';
import { openPdfjs, pageText } from '../../workers/engine/lib/pdf/pdfjs.ts';

describe('balanced page tree', () => {
  test(
    'a flat tree of 5,000 pages gets intermediate nodes; every page is where it was, for pdf.js, pdf-lib, qpdf ' +
      'and Poppler',
    async () => {
      const flat = manyPagesPdf(5000);
      const balanced = withBalancedPageTree(flat)!;
      expect(balanced).toBeDefined();
      const doc = await PDFDocument.load(balanced);
      expect(doc.getPageCount()).toBe(5000);
      const rootKids = doc.catalog.Pages().lookup(PDFName.of('Kids'), PDFArray);
      expect(rootKids.size()).toBeLessThanOrEqual(64);
      expect(rootKids.lookup(0, PDFDict).get(PDFName.of('Type'))).toBe(PDFName.of('Pages'));
      const pdfjs = await openPdfjs(balanced);
      expect(pdfjs.numPages).toBe(5000);
      for (const n of [1, 64, 65, 2500, 4096, 4097, 5000]) expect((await pageText(pdfjs, n)).trim()).toBe(`Page ${n}`);
      await pdfjs.destroy();
      const dir = mkdtempSync(join(tmpdir(), 'folio-balanced-'));
      try {
        writeFileSync(join(dir, 'b.pdf'), balanced);
        execFileSync('qpdf', ['--check', join(dir, 'b.pdf')], { stdio: 'pipe' });
        const text = execFileSync('pdftotext', ['-f', '4999', '-l', '5000', join(dir, 'b.pdf'), '-'], {
          encoding: 'utf8',
        });
        expect(text.split(/\s+/).filter(Boolean)).toEqual(['Page', '4999', 'Page', '5000']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test('a tree small enough, or a file that cannot be read lazily, is left alone', () => {
    expect(withBalancedPageTree(manyPagesPdf(REBUILD_ABOVE))).toBeUndefined();
    expect(withBalancedPageTree(new TextEncoder().encode('%PDF-1.7\nnot really'))).toBeUndefined();
  });
});
