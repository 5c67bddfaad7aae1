import { afterEach, describe, expect, test } from 'vitest';
import {
  LARGE_OUTPUT_BYTES,
  SaveDeclined,
  askWhereToSave,
  estimateOutputBytes,
  hasSavePicker,
  shouldAskWhereToSave,
  suggestedName,
} from '../../src/api/save-target.ts';

const MB = 1024 * 1024;
const letter = { width: 612, height: 792 };
const pdfToJpg = { id: 'pdf-to-jpg', defaultFilename: 'converted.zip' } as const;

describe('save target: when to ask where to save', () => {
  test("PDF → JPG is estimated from the chosen pages' pixels at the chosen resolution", () => {
    const pages = Array.from({ length: 100 }, () => letter);
    // 100 letter pages at 300 dpi: 2550 × 3300 px each, 0.3 byte a pixel as JPEG.
    const at300 = estimateOutputBytes(
      pdfToJpg,
      [2 * MB],
      { mode: 'pages', resolution: '300', format: 'jpeg', pages: '' },
      pages,
    );
    expect(at300).toBeCloseTo(100 * 2550 * 3300 * 0.3, -3);
    expect(shouldAskWhereToSave(at300, true)).toBe(true);
    // The same document at 150 dpi, or only ten of its pages at 300 dpi, stays a download.
    const at150 = estimateOutputBytes(
      pdfToJpg,
      [2 * MB],
      { mode: 'pages', resolution: '150', format: 'jpeg', pages: '' },
      pages,
    );
    expect(shouldAskWhereToSave(at150, true)).toBe(false);
    const tenPages = estimateOutputBytes(
      pdfToJpg,
      [2 * MB],
      { mode: 'pages', resolution: '300', format: 'jpeg', pages: '1-10' },
      pages,
    );
    expect(tenPages).toBeCloseTo(at300 / 10, -3);
    // PNG counts a byte a pixel; a custom resolution is read from `dpi`.
    const png = estimateOutputBytes(
      pdfToJpg,
      [2 * MB],
      { mode: 'pages', resolution: 'custom', dpi: 72, format: 'png', pages: '1' },
      pages,
    );
    expect(png).toBe(612 * 792);
  });

  test(
    '20,000 pages at low resolution count as large; extracting images or an unreadable range falls back to the ' +
      'input size',
    () => {
      const many = Array.from({ length: 20_000 }, () => letter);
      const at30 = estimateOutputBytes(
        pdfToJpg,
        [5 * MB],
        { mode: 'pages', resolution: 'custom', dpi: 30, format: 'jpeg', pages: '' },
        many,
      );
      expect(at30).toBeGreaterThan(LARGE_OUTPUT_BYTES);
      expect(estimateOutputBytes(pdfToJpg, [5 * MB], { mode: 'images', resolution: '300' }, many)).toBe(5 * MB);
      expect(estimateOutputBytes(pdfToJpg, [5 * MB], { mode: 'pages', resolution: '300', pages: '30000' }, many)).toBe(
        5 * MB,
      );
      // Page sizes not known yet (the file is still being read): the input size.
      expect(estimateOutputBytes(pdfToJpg, [5 * MB], { mode: 'pages', resolution: '300' })).toBe(5 * MB);
    },
  );

  test('other tools: as large as their inputs; the picker only where the browser has it', () => {
    const merge = { id: 'merge-pdf' } as const;
    expect(estimateOutputBytes(merge, [150 * MB, 60 * MB], {})).toBe(210 * MB);
    expect(shouldAskWhereToSave(210 * MB, true)).toBe(true);
    expect(shouldAskWhereToSave(210 * MB, false)).toBe(false);
    expect(shouldAskWhereToSave(LARGE_OUTPUT_BYTES, true)).toBe(false);
  });

  test("suggested names follow the engines' naming", () => {
    expect(suggestedName(pdfToJpg, 'Annual report.pdf')).toBe('Annual report-pages.zip');
    expect(suggestedName({ id: 'split-pdf', defaultFilename: 'converted.zip' } as const, 'a.pdf')).toBe('a-split.zip');
    expect(suggestedName({ id: 'merge-pdf', defaultFilename: 'merge-pdf-result.pdf' } as const, 'a.pdf')).toBe(
      'merge-pdf-result.pdf',
    );
  });
});

describe('save target: the picker', () => {
  const global = globalThis as { showSaveFilePicker?: unknown };
  afterEach(() => {
    delete global.showSaveFilePicker;
  });

  test('no picker: nothing asked, the result is downloaded', async () => {
    expect(hasSavePicker()).toBe(false);
    expect(await askWhereToSave('x.zip')).toBeUndefined();
  });

  test('a chosen file is returned; a dismissed picker stops the job; a refused one falls back to a download', async () => {
    const handle = { name: 'mine.zip' };
    const asked: unknown[] = [];
    global.showSaveFilePicker = async (options: unknown) => {
      asked.push(options);
      return handle;
    };
    expect(hasSavePicker()).toBe(true);
    expect(await askWhereToSave('report-pages.zip')).toBe(handle);
    expect(asked).toEqual([
      {
        suggestedName: 'report-pages.zip',
        types: [{ description: 'ZIP archive', accept: { 'application/zip': ['.zip'] } }],
      },
    ]);

    global.showSaveFilePicker = () => Promise.reject(new DOMException('The user aborted a request.', 'AbortError'));
    await expect(askWhereToSave('report-pages.zip')).rejects.toBeInstanceOf(SaveDeclined);

    global.showSaveFilePicker = () =>
      Promise.reject(new DOMException('Must be handling a user gesture', 'SecurityError'));
    expect(await askWhereToSave('report-pages.zip')).toBeUndefined();
  });
});
