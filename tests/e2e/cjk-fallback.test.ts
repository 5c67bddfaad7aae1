/**
 * Chinese, Japanese and Korean text in fonts a PDF does not embed, through the built app's in-page
 * /api in Chromium (the worker a visitor's browser draws pages in, the Noto fonts fetched from our
 * own origin on first use): PDF → JPG's picture of each page must match, glyph for glyph, poppler's
 * drawing of the same text with the bundled Noto font embedded. Without the fallback
 * (pdfjs-cjk-fallback.ts) the worker's canvas drew empty boxes (recall 0.21–0.25, precision 0.33–0.41).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './harness.ts';
import { pageWithApi, postInPage } from './page-api.ts';
import { CJK_SAMPLES, embeddedReferencePdf, inkAgreement, nonEmbeddedPdf } from '../support/cjk-fixtures.ts';
import { decodeImage, pdftoppmPng } from '../support/images.ts';

const DPI = 100;
let browser: Browser;
let scratch: string;
beforeAll(async () => {
  browser = await launchBrowser();
  scratch = mkdtempSync(join(tmpdir(), 'folio-cjk-'));
});
afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('PDF → JPG in the browser: CJK text in fonts that are not embedded', () => {
  test('each page is drawn in the bundled Noto font where the text is', async () => {
    const { page, context, errors } = await pageWithApi(browser, 'pdf-to-jpg');
    for (const sample of CJK_SAMPLES) {
      const name = `${sample.baseFont} (${sample.encoding})`;
      const answer = await postInPage(page, '/api/pdf/toJpg', [['file', 'cjk.pdf', await nonEmbeddedPdf(sample)]], {
        mode: 'pages',
        resolution: 'custom',
        dpi: String(DPI),
        format: 'png',
      });
      expect(answer.status, `${name}: ${answer.text}`).toBe(200);
      const referencePath = join(scratch, `${sample.baseFont}.pdf`);
      writeFileSync(referencePath, await embeddedReferencePdf(sample));
      const reference = await decodeImage(pdftoppmPng(referencePath, 1, DPI));
      const { recall, precision } = inkAgreement(await decodeImage(answer.bytes), reference);
      expect(recall, `${name}: the reference text inked in the picture`).toBeGreaterThan(0.95);
      expect(precision, `${name}: the picture's ink where the reference has text`).toBeGreaterThan(0.95);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
