import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { run as split, planParts } from '../../workers/engine/tools/split-pdf.ts';
import { run as rotate } from '../../workers/engine/tools/rotate-pdf.ts';
import { run as organize, parsePageOrder } from '../../workers/engine/tools/organize-pdf.ts';
import { qpdfCheck } from '../support/pdf.ts';
import { labelledPdf, pageLabels, pageRotations } from '../support/page-fixtures.ts';

async function zipEntries(bytes: Uint8Array): Promise<Record<string, Uint8Array>> {
  const zip = await JSZip.loadAsync(bytes);
  const out: Record<string, Uint8Array> = {};
  for (const name of Object.keys(zip.files).sort()) out[name] = await zip.files[name].async('uint8array');
  return out;
}

describe('split-pdf engine', () => {
  test('by ranges: each range one file, named after the input, in a ZIP', async () => {
    const result = await split(
      [{ name: 'Report.pdf', bytes: await labelledPdf('A', 7) }],
      { mode: 'ranges', ranges: '1-3, 5, 6-' },
      {},
    );
    expect(result.filename).toBe('Report-split.zip');
    const entries = await zipEntries(result.bytes);
    expect(Object.keys(entries)).toEqual(['Report-page-5.pdf', 'Report-pages-1-3.pdf', 'Report-pages-6-7.pdf']);
    expect(await pageLabels(entries['Report-pages-1-3.pdf'])).toEqual(['A1', 'A2', 'A3']);
    expect(await pageLabels(entries['Report-pages-6-7.pdf'])).toEqual(['A6', 'A7']);
    for (const bytes of Object.values(entries)) expect((await qpdfCheck(bytes)).ok).toBe(true);
  });

  test('one part gives a PDF, not a ZIP', async () => {
    const result = await split(
      [{ name: 'r.pdf', bytes: await labelledPdf('A', 4) }],
      { mode: 'ranges', ranges: 'even' },
      {},
    );
    expect(result.mime).toBe('application/pdf');
    expect(result.filename).toBe('r-part-1.pdf');
    expect(await pageLabels(result.bytes)).toEqual(['A2', 'A4']);
  });

  test('every page (the default), every N pages, odd/even', async () => {
    const bytes = await labelledPdf('A', 5);
    const each = await zipEntries((await split([{ name: 'x.pdf', bytes }], {}, {})).bytes);
    expect(Object.keys(each)).toEqual(['x-page-1.pdf', 'x-page-2.pdf', 'x-page-3.pdf', 'x-page-4.pdf', 'x-page-5.pdf']);
    expect(planParts('everyN', 5, { everyN: 2 }).map((p) => p.pages)).toEqual([[0, 1], [2, 3], [4]]);
    const oddEven = await zipEntries((await split([{ name: 'x.pdf', bytes }], { mode: 'oddEven' }, {})).bytes);
    expect(await pageLabels(oddEven['x-odd-pages.pdf'])).toEqual(['A1', 'A3', 'A5']);
    expect(await pageLabels(oddEven['x-even-pages.pdf'])).toEqual(['A2', 'A4']);
  });

  test('by size: every part under the limit, all pages kept in order', async () => {
    const bytes = await labelledPdf('A', 12);
    const result = await split([{ name: 's.pdf', bytes }], { mode: 'size', maxSizeMb: 0.004 }, {});
    const entries = await zipEntries(result.bytes);
    const labels: string[] = [];
    const names = Object.keys(entries).sort((a, b) => Number(/(\d+)/.exec(a)?.[1]) - Number(/(\d+)/.exec(b)?.[1]));
    for (const name of names) labels.push(...(await pageLabels(entries[name])));
    expect(labels).toEqual(Array.from({ length: 12 }, (_, i) => `A${i + 1}`));
    expect(names.length).toBeGreaterThan(1);
    for (const part of Object.values(entries)) {
      const pages = (await pageLabels(part)).length;
      if (pages > 1) expect(part.byteLength).toBeLessThanOrEqual(0.004 * 1024 * 1024);
    }
  });

  test('a bad range says what is wrong', async () => {
    await expect(
      split([{ name: 'r.pdf', bytes: await labelledPdf('A', 3) }], { mode: 'ranges', ranges: '1-2, 9' }, {}),
    ).rejects.toThrow(/Page 9 does not exist/);
  });
});

describe('rotate-pdf engine', () => {
  test('adds the angle to each page’s existing rotation, for the chosen pages only', async () => {
    const bytes = await labelledPdf('A', 4, { rotations: [0, 90, 180, 270] });
    const result = await rotate([{ name: 'r.pdf', bytes }], { angle: '90', pages: '1-3' }, {});
    expect(await pageRotations(result.bytes)).toEqual([90, 180, 270, 270]);
    expect(result.filename).toBe('r-rotated.pdf');
    const all = await rotate([{ name: 'r.pdf', bytes }], { angle: '270' }, {});
    expect(await pageRotations(all.bytes)).toEqual([270, 0, 90, 180]);
    expect(await pageLabels(all.bytes)).toEqual(['A1', 'A2', 'A3', 'A4']);
  });

  test('refuses an angle that is not a quarter turn', async () => {
    await expect(rotate([{ name: 'r.pdf', bytes: await labelledPdf('A', 1) }], { angle: '45' }, {})).rejects.toThrow(
      /90, 180 or 270/,
    );
  });
});

describe('organize-pdf engine', () => {
  test('reorders, deletes, duplicates, rotates and inserts blank pages', async () => {
    const bytes = await labelledPdf('A', 4);
    const result = await organize([{ name: 'o.pdf', bytes }], { pageOrder: '3, 1r90, blank, 2, 2' }, {});
    expect(await pageLabels(result.bytes)).toEqual(['A3', 'A1', '', 'A2', 'A2']);
    expect(await pageRotations(result.bytes)).toEqual([0, 90, 90, 0, 0]);
    expect((await qpdfCheck(result.bytes)).ok).toBe(true);
    expect(result.notes).toContain('1 page deleted');
  });

  test('empty order keeps the document; ranges and last work', async () => {
    const bytes = await labelledPdf('A', 3);
    expect(await pageLabels((await organize([{ name: 'o.pdf', bytes }], { pageOrder: '' }, {})).bytes)).toEqual([
      'A1',
      'A2',
      'A3',
    ]);
    expect(await pageLabels((await organize([{ name: 'o.pdf', bytes }], { pageOrder: 'last-1' }, {})).bytes)).toEqual([
      'A3',
      'A2',
      'A1',
    ]);
  });

  test('keeping every page: qpdf rearranges the document itself, reversed runs and thousands of blanks', async () => {
    const bytes = await labelledPdf('A', 3);
    // 9,000 blank pages name one blank page 9,000 times: a page range longer than qpdf's stack holds.
    const order = `3-1, ${Array<string>(9_000).fill('blank').join(',')}, 1r180`;
    const result = await organize([{ name: 'o.pdf', bytes }], { pageOrder: order }, {});
    const { PDFDocument } = await import('pdf-lib');
    const out = await PDFDocument.load(result.bytes);
    expect(out.getPageCount()).toBe(9_004);
    expect(out.getPage(9_003).getRotation().angle).toBe(180);
    // qpdf's file (its binary comment on the second line), not pdf-lib's rewrite.
    expect(new TextDecoder('latin1').decode(result.bytes.subarray(0, 16))).toMatch(/^%PDF-1\.\d+\s+%\xbf\xf7\xa2\xfe/);
    const { openPdfjs, pageText } = await import('../../workers/engine/lib/pdf/pdfjs.ts');
    const doc = await openPdfjs(result.bytes);
    const labels = await Promise.all([1, 2, 3, 4, 9_004].map(async (n) => (await pageText(doc, n)).trim()));
    await doc.destroy();
    expect(labels).toEqual(['A3', 'A2', 'A1', '', 'A1']);
    expect((await qpdfCheck(result.bytes)).ok).toBe(true);
  });

  test('bad items are reported with what is wrong', () => {
    expect(() => parsePageOrder('1, 7', 3)).toThrow(/Page 7 does not exist/);
    expect(() => parsePageOrder('1r45', 3)).toThrow(/r90, r180 or r270/);
    expect(() => parsePageOrder('blank', 3)).toThrow(/at least one page/);
    expect(() => parsePageOrder('1,,2', 3)).toThrow(/empty entry/);
  });
});

describe('form helpers', () => {
  test('page-range syntax is checked before the file is opened', async () => {
    const { pageRangeSyntaxError } = await import('../../shared/page-range.ts');
    expect(pageRangeSyntaxError('1-3, 5, 8-, last, odd, even')).toBeNull();
    expect(pageRangeSyntaxError('')).toBeNull();
    expect(pageRangeSyntaxError('1-3,,4')).toMatch(/empty entry/);
    expect(pageRangeSyntaxError('abc')).toMatch(/"abc" is not a page or a range/);
    expect(pageRangeSyntaxError('0-2')).toMatch(/start at 1/);
  });

  test('thumbnail choices become compact ranges; the organize board writes pageOrder', async () => {
    const { compactRanges } = await import('../../src/tool-ui/forms/rotate-pdf.tsx');
    expect(compactRanges([5, 1, 2, 3, 8, 9])).toBe('1-3, 5, 8-9');
    const { pageOrderOf } = await import('../../src/tool-ui/forms/organize-pdf.tsx');
    const identity = [1, 2, 3].map((page) => ({ key: `p${page}`, page, rotation: 0 }));
    expect(pageOrderOf(identity, 3)).toBe('');
    expect(pageOrderOf([identity[2], { ...identity[0], rotation: 90 }, { key: 'b', rotation: 0 }], 3)).toBe(
      '3,1r90,blank',
    );
    // …which the engine reads back as written.
    expect(parsePageOrder('3,1r90,blank', 3)).toEqual([
      { kind: 'page', page: 3, rotate: 0 },
      { kind: 'page', page: 1, rotate: 90 },
      { kind: 'blank' },
    ]);
  });
});

describe('split-pdf by chapter', () => {
  test('one file per top-level bookmark, named after it, front matter first', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const { writeOutline } = await import('../../workers/engine/lib/pdf/page-copy.ts');
    const doc = await PDFDocument.load(await labelledPdf('A', 6));
    const pages = doc.getPages();
    const dest = (i: number) => doc.context.obj([pages[i].ref, 'Fit']);
    writeOutline(doc, [
      {
        title: 'Intro: why?',
        dest: dest(1),
        open: true,
        children: [{ title: 'Inner', dest: dest(2), open: false, children: [] }],
      },
      { title: 'Part B', dest: dest(3), open: false, children: [] },
    ]);
    const result = await split([{ name: 'book.pdf', bytes: await doc.save() }], { mode: 'outline' }, {});
    const entries = await zipEntries(result.bytes);
    expect(Object.keys(entries)).toEqual(['book-1-front matter.pdf', 'book-2-Intro why.pdf', 'book-3-Part B.pdf']);
    expect(await pageLabels(entries['book-2-Intro why.pdf'])).toEqual(['A2', 'A3']);
    expect(await pageLabels(entries['book-3-Part B.pdf'])).toEqual(['A4', 'A5', 'A6']);
    await expect(
      split([{ name: 'flat.pdf', bytes: await labelledPdf('A', 2) }], { mode: 'outline' }, {}),
    ).rejects.toThrow(/no bookmarks to split by/);
  });
});

describe('organize-pdf with deleted pages', () => {
  test('bookmarks to deleted pages go, the others follow their page; nothing dangles', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const { writeOutline } = await import('../../workers/engine/lib/pdf/page-copy.ts');
    const { openPdfjs } = await import('../../workers/engine/lib/pdf/pdfjs.ts');
    const doc = await PDFDocument.load(await labelledPdf('A', 4));
    doc.setTitle('Organized title');
    const pages = doc.getPages();
    const dest = (i: number) => doc.context.obj([pages[i].ref, 'Fit']);
    writeOutline(doc, [
      { title: 'One', dest: dest(0), open: true, children: [] },
      { title: 'Two', dest: dest(1), open: true, children: [] },
      { title: 'Four', dest: dest(3), open: true, children: [] },
    ]);
    const result = await organize([{ name: 'o.pdf', bytes: await doc.save() }], { pageOrder: '4, 1, 1r90' }, {});
    expect(await pageLabels(result.bytes)).toEqual(['A4', 'A1', 'A1']);
    expect(await pageRotations(result.bytes)).toEqual([0, 0, 90]);
    const out = await openPdfjs(result.bytes);
    const outline = (await out.getOutline()) ?? [];
    const targets = await Promise.all(
      outline.map(async (item) => [
        item.title,
        await out.getPageIndex((item.dest as Array<{ num: number; gen: number }>)[0]),
      ]),
    );
    expect(targets).toEqual([
      ['One', 1],
      ['Four', 0],
    ]);
    expect((await out.getMetadata()).info).toMatchObject({ Title: 'Organized title' });
    await out.destroy();
    expect((await qpdfCheck(result.bytes)).ok).toBe(true);
    expect(result.notes).toContain('2 pages deleted');
  });
});
