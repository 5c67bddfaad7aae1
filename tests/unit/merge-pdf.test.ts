import { describe, expect, test } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { run, parseRangesField } from '../../workers/engine/tools/merge-pdf.ts';
import { qpdfCheck } from '../support/pdf.ts';
import { encrypt, labelledPdf, pageLabels } from '../support/page-fixtures.ts';

describe('merge-pdf engine', () => {
  test('merges files in the order given, with progress up to the total', async () => {
    const a = await labelledPdf('A', 2);
    const b = await labelledPdf('B', 3);
    const progress: Array<[number, number]> = [];
    const result = await run(
      [
        { name: 'a.pdf', bytes: a },
        { name: 'b.pdf', bytes: b },
      ],
      {},
      { progress: (done, total) => progress.push([done, total]) },
    );
    expect(await pageLabels(result.bytes)).toEqual(['A1', 'A2', 'B1', 'B2', 'B3']);
    expect(progress.at(-1)).toEqual([5, 5]);
    expect(result.filename).toBe('merged.pdf');
    expect((await qpdfCheck(result.bytes)).ok).toBe(true);
  });

  test('takes page ranges per file, repeats included', async () => {
    const a = await labelledPdf('A', 4);
    const b = await labelledPdf('B', 3);
    const result = await run(
      [
        { name: 'a.pdf', bytes: a },
        { name: 'b.pdf', bytes: b },
      ],
      { ranges: JSON.stringify(['4-3, 1', 'last,1,1']) },
      {},
    );
    expect(await pageLabels(result.bytes)).toEqual(['A4', 'A3', 'A1', 'B3', 'B1', 'B1']);
    expect((await qpdfCheck(result.bytes)).ok).toBe(true);
  });

  test('a bad range names the file and what is wrong', async () => {
    const a = await labelledPdf('A', 2);
    await expect(run([{ name: 'a.pdf', bytes: a }], { ranges: '["5"]' }, {})).rejects.toThrow(
      /a\.pdf: Page 5 does not exist/,
    );
    expect(() => parseRangesField('{oops', 1)).toThrow(/JSON array/);
  });

  test('adds one bookmark per file when asked', async () => {
    const a = await labelledPdf('A', 2);
    const b = await labelledPdf('B', 1);
    const result = await run(
      [
        { name: 'first.pdf', bytes: a },
        { name: 'second.pdf', bytes: b },
      ],
      { bookmarkEachFile: true },
      {},
    );
    const { openPdfjs } = await import('../../workers/engine/lib/pdf/pdfjs.ts');
    const doc = await openPdfjs(result.bytes);
    const outline = await doc.getOutline();
    expect(outline.map((item) => item.title)).toEqual(['first', 'second']);
    const secondDest = outline[1].dest as unknown[];
    expect(await doc.getPageIndex(secondDest[0] as { num: number; gen: number })).toBe(2);
    await doc.destroy();
  });

  test('opens an encrypted input with its password and asks for it otherwise', async () => {
    const secret = await encrypt(await labelledPdf('S', 2), 'pw1234');
    const plain = await labelledPdf('P', 1);
    await expect(
      run(
        [
          { name: 'p.pdf', bytes: plain },
          { name: 'secret.pdf', bytes: secret },
        ],
        {},
        {},
      ),
    ).rejects.toMatchObject({ name: 'PasswordRequired' });
    const result = await run(
      [
        { name: 'p.pdf', bytes: plain },
        { name: 'secret.pdf', bytes: secret, password: 'pw1234' },
      ],
      {},
      {},
    );
    expect(await pageLabels(result.bytes)).toEqual(['P1', 'S1', 'S2']);
    expect((await PDFDocument.load(result.bytes)).isEncrypted).toBe(false);
  });

  test('a cancelled job stops with Cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      run([{ name: 'a.pdf', bytes: await labelledPdf('A', 1) }], {}, { signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'Cancelled' });
  });
});
