/**
 * The /api contract of spec §7 in Chromium, answered in the page (mock-api/browser.ts): plain
 * fetch + FormData from the page once a tool has opened — status codes, JSON { error } for
 * failures, Content-Disposition filenames, defaults — and a 300 MB merge through the modal
 * (its time is printed: the figure quoted at the top of mock-api/browser.ts).
 */
import { describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { openPage, sharedBrowser } from './harness.ts';
import { pageWithApi } from './page-api.ts';
import { labelledPdf, pageLabels } from '../support/page-fixtures.ts';

const shared = sharedBrowser();

interface PageAnswer {
  status: number;
  type: string | null;
  disposition: string | null;
  body: number[] | string;
}

/** POSTs from inside the page; `files` are [field, name, bytes]. */
async function postFromPage(
  page: Page,
  path: string,
  files: Array<[string, string, number[]]>,
  fields: Array<[string, string]> = [],
  method = 'POST',
): Promise<PageAnswer> {
  return page.evaluate(
    async ({ path, files, fields, method }) => {
      const form = new FormData();
      for (const [field, name, bytes] of files)
        form.append(field, new File([new Uint8Array(bytes)], name, { type: 'application/pdf' }));
      for (const [name, value] of fields) form.append(name, value);
      const response = await fetch(path, method === 'POST' ? { method, body: form } : { method });
      const type = response.headers.get('Content-Type');
      const body = type?.includes('json') ? await response.text() : [...new Uint8Array(await response.arrayBuffer())];
      return { status: response.status, type, disposition: response.headers.get('Content-Disposition'), body };
    },
    { path, files, fields, method },
  );
}

describe('/api contract in Chromium', () => {
  test('success: file with Content-Disposition; defaults; JSON errors with status', async () => {
    const { page, context } = await pageWithApi(shared.browser, 'merge-pdf');
    const a = [...(await labelledPdf('A', 2))];
    const b = [...(await labelledPdf('B', 1))];

    const merged = await postFromPage(page, '/api/pdf/merge', [
      ['files', 'a.pdf', a],
      ['files', 'b.pdf', b],
    ]);
    expect(merged.status).toBe(200);
    expect(merged.type).toBe('application/pdf');
    expect(merged.disposition).toBe(`attachment; filename="merged.pdf"; filename*=UTF-8''merged.pdf`);
    expect(await pageLabels(new Uint8Array(merged.body as number[]))).toEqual(['A1', 'A2', 'B1']);

    const split = await postFromPage(page, '/api/pdf/split', [['file', 'doc.pdf', a]]);
    expect(split.status).toBe(200);
    expect(split.type).toBe('application/zip');
    expect(split.disposition).toContain('filename="doc-split.zip"');

    const organized = await postFromPage(page, '/api/pdf/organize', [['file', 'doc.pdf', a]], [['pageOrder', '2,1']]);
    expect(await pageLabels(new Uint8Array(organized.body as number[]))).toEqual(['A2', 'A1']);

    const empty = await postFromPage(page, '/api/pdf/merge', []);
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.body as string)).toEqual({
      error: 'Please select at least one file',
      code: 'InvalidInput',
    });

    const notPdf = await postFromPage(page, '/api/pdf/rotate', [['file', 'x.pdf', [1, 2, 3]]]);
    expect(notPdf.status).toBe(422);
    expect(JSON.parse(notPdf.body as string).error).toBe('"x.pdf" is not a valid PDF.');

    const unknown = await postFromPage(page, '/api/pdf/nothing', []);
    expect(unknown.status).toBe(404);
    const wrongMethod = await postFromPage(page, '/api/pdf/merge', [], [], 'GET');
    expect(wrongMethod.status).toBe(405);
    await context.close();
  });

  test('a 300 MB merge works through the modal (time printed)', async () => {
    // One page carrying a 290 MB stream of incompressible bytes, plus a small labelled file.
    const dir = mkdtempSync(join(tmpdir(), 'folio-300mb-'));
    try {
      const big = await PDFDocument.create();
      const font = await big.embedFont(StandardFonts.Helvetica);
      const page = big.addPage([400, 400]);
      page.drawText('BIG1', { x: 40, y: 300, size: 36, font });
      const payload = new Uint8Array(290 * 1024 * 1024);
      for (let offset = 0; offset < payload.length; offset += 65536)
        crypto.getRandomValues(payload.subarray(offset, offset + 65536));
      const blob = big.context.register(big.context.stream(payload, { Type: 'EmbeddedFile' }));
      page.node.set(PDFName.of('FolioBlob'), blob); // referenced from the page, so it is copied with it
      const bigPath = join(dir, 'big.pdf');
      writeFileSync(bigPath, await big.save({ useObjectStreams: false }));
      const smallPath = join(dir, 'small.pdf');
      writeFileSync(smallPath, await labelledPdf('S', 2));

      const { page: tab, context } = await openPage(shared.browser, '/tools/merge-pdf');
      // A 300 MB result would open the save picker (src/api/save-target.ts), which headless Chromium
      // never answers: without it the modal downloads the Blob, the path measured here.
      await tab.evaluate(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
      await tab.getByRole('button', { name: 'Upload Files' }).first().click();
      await tab.locator('input[type=file]').setInputFiles([bigPath, smallPath]);
      const started = Date.now();
      const [download] = await Promise.all([
        tab.waitForEvent('download', { timeout: 240_000 }),
        tab.getByRole('button', { name: 'Process Files', exact: true }).click(),
      ]);
      const seconds = (Date.now() - started) / 1000;
      const out = readFileSync(await download.path());
      console.log(
        `[300MB] merge of ${(290 + 0.001).toFixed(0)} MB + 2 pages through the in-page API: ` +
          `${seconds.toFixed(1)} s, output ${(out.byteLength / 1048576).toFixed(1)} MB`,
      );
      expect(out.byteLength).toBeGreaterThan(290 * 1024 * 1024);
      expect(download.suggestedFilename()).toBe('merged.pdf');
      await context.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 400_000);
});
