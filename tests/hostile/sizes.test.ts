/**
 * Huge declared sizes and long lists (issue #21): images of 30,000 × 30,000 pixels in a PDF, a
 * sheet reaching cell XFD1048576, a CSV field of 10 million characters, page lists of 200,000
 * entries, deep and entity-laden XML. Each gets a valid output or a named error that names the
 * limit — checked before the work, so the answer comes quickly — and a small job works afterwards.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import { expectClearAnswer, expectRefused, expectSmallJobWorks, post, startApi } from './harness.ts';
import {
  deepXmlDocx,
  hugeDimensionXlsx,
  hugeImagePdf,
  longLineCsv,
  manyPagesPdf,
  xxeDocx,
} from '../support/hostile-recipes.ts';

let api: { close(): void };
beforeAll(() => {
  api = startApi();
});
afterAll(() => api.close());

describe('a PDF showing a 30,000 × 30,000 pixel image (900 megapixels)', () => {
  const bytes = hugeImagePdf(30_000, 30_000);
  test.each([
    ['/api/pdf/toWord', {}],
    ['/api/pdf/toPowerPoint', {}],
    ['/api/pdf/toJpg', {}],
    ['/api/pdf/compress', {}],
  ])('%s answers without allocating it', async (endpoint, fields) => {
    await expectClearAnswer(await post(endpoint, [['file', 'image.pdf', bytes]], fields));
  });
  test('extracting images names the image as too large', async () => {
    const answer = await post('/api/pdf/toJpg', [['file', 'image.pdf', bytes]], { mode: 'images' });
    expectRefused(answer, ['InvalidInput'], /30000 × 30000 pixels: too large/);
  });
  test('a small job still works afterwards', expectSmallJobWorks);
});

describe('spreadsheets', () => {
  test('a sheet whose cells reach XFD1048576 but hold two values is refused as too sparse', async () => {
    const answer = await post('/api/pdf/fromExcel', [['file', 'far.xlsx', await hugeDimensionXlsx(true)]]);
    expectRefused(answer, ['TooLarge'], /spans 17,179,869,184 cells up to XFD1048576, but only 2 hold a value/);
  });
  test('a sheet that only declares A1:XFD1048576 prints its real cell', async () => {
    const answer = await post('/api/pdf/fromExcel', [['file', 'declared.xlsx', await hugeDimensionXlsx(false)]]);
    expect(answer.status).toBe(200);
    expect((await PDFDocument.load(answer.bytes!)).getPageCount()).toBe(1);
  });
  // (10 MB rather than #21's 50 MB: the check stops at the 32,768th character either way, and the
  // multipart body of 50 MB alone takes seconds to build and parse in Node.)
  test('a CSV with one 10 MB line is refused before it is parsed', async () => {
    const answer = await post('/api/pdf/fromExcel', [['file', 'long.csv', longLineCsv(10e6)]]);
    expectRefused(answer, ['TooLarge'], /line 1 has a field longer than 32,767 characters/);
    expect(answer.ms).toBeLessThan(30_000);
  });
  test('a small job still works afterwards', expectSmallJobWorks);
});

describe('page lists', () => {
  test('pageOrder of 200,000 blanks is refused, naming the limit', async () => {
    const pageOrder = `1,${Array(200_000).fill('blank').join(',')}`;
    const answer = await post('/api/pdf/organize', [['file', 'o.pdf', manyPagesPdf(3)]], { pageOrder });
    expectRefused(answer, ['InvalidInput'], /more than 50,000 pages/);
    expect(answer.ms).toBeLessThan(10_000);
  });
  test('split ranges listing 1-1 100,000 times are refused, naming the limit', async () => {
    const ranges = Array(100_000).fill('1-1').join(',');
    const answer = await post('/api/pdf/split', [['file', 's.pdf', manyPagesPdf(3)]], { mode: 'ranges', ranges });
    expectRefused(answer, ['InvalidInput'], /the most Folio takes in one list is 50,000/);
    expect(answer.error!.error.length).toBeLessThan(300);
    expect(answer.ms).toBeLessThan(10_000);
  });
  test('a small job still works afterwards', expectSmallJobWorks);
});

describe('XML built to hurt', () => {
  test('XXE and billion laughs: no file content and no expansion reach the PDF', async () => {
    const answer = await post('/api/pdf/fromWord', [['file', 'xxe.docx', await xxeDocx()]]);
    await expectClearAnswer(answer);
    if (answer.bytes) {
      const text = new TextDecoder('latin1').decode(answer.bytes);
      expect(text).not.toMatch(/root:x:0:0/);
      expect(answer.bytes.byteLength).toBeLessThan(1_000_000);
    }
  });
  test('tables nested 5,000 deep are refused by the nesting limit, before the stack runs out', async () => {
    const answer = await post('/api/pdf/fromWord', [['file', 'deep.docx', await deepXmlDocx(5000)]]);
    await expectClearAnswer(answer);
    expectRefused(answer, ['TooComplex'], /tables nested deeper than 64 levels/);
    // A named refusal, not a stack overflow described afterwards (that one carries the overflow in `detail`).
    expect(answer.error!.detail).toBeUndefined();
  });
  test('tables nested 64 deep, the limit, still convert', async () => {
    const answer = await post('/api/pdf/fromWord', [['file', 'deep64.docx', await deepXmlDocx(64)]]);
    expect(answer.error).toBeUndefined();
    expect(answer.mime).toBe('application/pdf');
    expect((await PDFDocument.load(answer.bytes!)).getPageCount()).toBeGreaterThanOrEqual(1);
  });
  test('a small job still works afterwards', expectSmallJobWorks);
});

describe('hostile file names', () => {
  const names = ['../../x.pdf', '<img src=x onerror=alert(1)>.pdf', '..\\..\\windows.pdf'];
  test.each(names)('%s: the download name and ZIP entries hold no path', async (name) => {
    const split = await post('/api/pdf/split', [['file', name, manyPagesPdf(2)]]);
    expect(split.status).toBe(200);
    const entries = Object.keys((await JSZip.loadAsync(split.bytes!)).files);
    expect(entries).toHaveLength(2);
    for (const entry of entries) expect(entry).not.toMatch(/[\\/]|^\.\.|\.\.$/);
    const merged = await post('/api/pdf/merge', [['files', name, manyPagesPdf(1)]]);
    const filename = decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(merged.filename ?? '')?.[1] ?? '');
    expect(filename).toMatch(/\.pdf$/);
    expect(filename).not.toMatch(/[\\/]/);
  });
});

describe('a 6,000-page PDF split into pages (big, not hostile: three qpdf runs of 2,500 pages)', () => {
  test('gives 6,000 one-page files in page order, and progress between the runs', async () => {
    const { run } = await import('../../workers/engine/tools/split-pdf.ts');
    const statuses: string[] = [];
    const result = await run(
      [{ name: 'big.pdf', bytes: manyPagesPdf(6000) }],
      { mode: 'each' },
      {
        progress: (_done, _total, status) => status && statuses.push(status),
      },
    );
    expect(statuses).toEqual([
      'Writing the files: 2,500 of 6,000',
      'Writing the files: 5,000 of 6,000',
      'Writing the files: 6,000 of 6,000',
    ]);
    const zip = await JSZip.loadAsync(result.bytes);
    const names = Object.keys(zip.files).sort();
    expect(names).toHaveLength(6000);
    // Each part is its own page: the text drawn on it names the page it came from.
    const { decodePDFRawStream, PDFRawStream } = await import('pdf-lib');
    for (const index of [0, 2499, 2500, 4999, 5000, 5999]) {
      const part = await PDFDocument.load(await zip.file(names[index])!.async('uint8array'));
      expect(part.getPageCount()).toBe(1);
      const contents = part.context.lookup(part.getPage(0).node.Contents());
      const raw = contents instanceof PDFRawStream ? decodePDFRawStream(contents).decode() : new Uint8Array();
      expect(new TextDecoder('latin1').decode(raw)).toContain(`(Page ${index + 1})`);
    }
  });
});
