/**
 * Korean in Excel → PDF through the in-page /api in Chromium: the Hangul comes out as text (poppler's
 * pdftotext of the answer), drawn with Noto Sans KR fetched from our own origin when the workbook
 * needed it, and the build lists that font outside the core offline set (with the Chinese one).
 * Arabic likewise (Noto Sans Arabic, bidi-js in the worker bundle), read back in logical order.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { baseUrl, sharedBrowser } from './harness.ts';
import { pageWithApi, postInPage } from './page-api.ts';
import { popplerText } from '../support/pdf.ts';

const shared = sharedBrowser();

function fontNames(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-e2e-fonts-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    return execFileSync('pdffonts', [join(dir, 'in.pdf')], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('excel-to-pdf via /api: Korean cells come out as Hangul, not "?"', async () => {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('명단');
  sheet.columns = [{ width: 24 }, { width: 24 }];
  sheet.addRow(['이름', '부서']).font = { bold: true };
  sheet.addRow(['김민수', '영업팀']);
  sheet.addRow(['이서연', '개발팀 😀']);
  const { page, context, errors, requests } = await pageWithApi(shared.browser, 'excel-to-pdf');
  const answer = await postInPage(page, '/api/pdf/fromExcel', [
    ['file', 'names.xlsx', new Uint8Array(await wb.xlsx.writeBuffer())],
  ]);
  expect(answer.status, answer.text).toBe(200);
  const text = popplerText(answer.bytes);
  for (const word of ['이름', '부서', '김민수', '영업팀', '이서연', '개발팀', '😀']) expect(text).toContain(word);
  expect(text).not.toContain('?');
  expect(answer.notes.filter((note) => /printed as/.test(note))).toEqual([]);
  expect(fontNames(answer.bytes)).toMatch(/NotoSansKR-Bold[\s\S]*NotoSansKR-Regular|NotoSansKR-Regular[\s\S]*Bold/);

  // The fonts came from our origin; the Chinese font was not needed. Font files only: a chunk of font
  // URLs that code shares may be named after one of them (it is code, in the core set).
  const origin = new URL(baseUrl()).origin;
  expect(requests.filter((url) => /^https?:/.test(url) && !url.startsWith(origin))).toEqual([]);
  expect(requests.filter((url) => /NotoSansKR_[^/]*\.ttf$/.test(url)).length).toBeGreaterThan(0);
  expect(requests.filter((url) => /NotoSansSC_/.test(url))).toEqual([]);
  const list = (await page.evaluate(async () => (await fetch('/engine-assets.json')).json())) as {
    files: Array<{ url: string; group: string }>;
  };
  const groups = Object.fromEntries(
    list.files
      .filter((f) => /\/Noto(SansKR|SansSC|Emoji|SansSymbols2|SansArabic|SansHebrew)_[^/]*\.ttf$/.test(f.url))
      .map((f) => [f.url, f.group]),
  );
  expect(Object.keys(groups).length).toBeGreaterThanOrEqual(9);
  for (const [url, group] of Object.entries(groups))
    expect(group, url).toBe(/KR|SC/.test(url) ? 'cjk-fonts' : /Arabic|Hebrew/.test(url) ? 'rtl-fonts' : 'symbol-fonts');
  expect(errors).toEqual([]);
  await context.close();
});

test('excel-to-pdf via /api: an Arabic cell reads back in logical order, drawn with Noto Sans Arabic', async () => {
  const words = ['كتب', 'الطالب', '250', 'صفحة', 'اليوم'];
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('ورقة');
  // Wide enough: right-aligned, a longer text would run on to the left of column A, off the page, as in LibreOffice.
  sheet.columns = [{ width: 60 }];
  sheet.addRow([words.join(' ')]);
  const { page, context, errors, requests, failedRequests } = await pageWithApi(shared.browser, 'excel-to-pdf');
  const answer = await postInPage(page, '/api/pdf/fromExcel', [
    ['file', 'arabic.xlsx', new Uint8Array(await wb.xlsx.writeBuffer())],
  ]);
  expect(answer.status, answer.text).toBe(200);
  // pdftotext wraps right-to-left lines in embedding marks; the words between them are the cell's, in order.
  const read = popplerText(answer.bytes)
    .replace(/[\u202a-\u202e]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  expect(read.slice(read.indexOf(words[0]), read.indexOf(words[0]) + words.length)).toEqual(words);
  expect(answer.notes.filter((note) => /printed as/.test(note))).toEqual([]);
  expect(fontNames(answer.bytes)).toMatch(/NotoSansArabic-Regular/);
  expect(requests.filter((url) => /NotoSansArabic_400Regular[^/]*\.ttf$/.test(url)).length).toBeGreaterThan(0);
  expect(requests.filter((url) => /NotoSans(SC|KR)_[^/]*\.ttf$/.test(url))).toEqual([]);
  expect(errors, failedRequests.join('\n')).toEqual([]);
  await context.close();
});
