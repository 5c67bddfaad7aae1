/**
 * Chinese, Japanese and Korean text in fonts a PDF does not embed, through the built app's in-page
 * /api in Chromium (the worker a visitor's browser draws pages in, the Noto fonts fetched from our
 * own origin on first use): PDF → JPG's picture of each page must match, glyph for glyph, poppler's
 * drawing of the same text with the bundled Noto font embedded; so must the page thumbnails (the
 * engine worker's renderThumbnail, the same drawPage) of a page in large type. Without the fallback
 * (pdfjs-cjk-fallback.ts) the worker's canvas drew empty boxes (recall 0.21–0.25, precision 0.33–0.41).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { openToolModal, pdfUpload, sharedBrowser } from './harness.ts';
import { pageWithApi, postInPage } from './page-api.ts';
import { CJK_SAMPLES, embeddedReferencePdf, inkAgreement, nonEmbeddedPdf } from '../support/cjk-fixtures.ts';
import { decodeImage, pdftoppmPng, type Raster } from '../support/images.ts';

const DPI = 100;
const shared = sharedBrowser('folio-cjk-');

describe('PDF → JPG in the browser: CJK text in fonts that are not embedded', () => {
  test('each page is drawn in the bundled Noto font where the text is', async () => {
    const { page, context, errors } = await pageWithApi(shared.browser, 'pdf-to-jpg');
    for (const sample of CJK_SAMPLES) {
      const name = `${sample.baseFont} (${sample.encoding})`;
      const answer = await postInPage(page, '/api/pdf/toJpg', [['file', 'cjk.pdf', await nonEmbeddedPdf(sample)]], {
        mode: 'pages',
        resolution: 'custom',
        dpi: String(DPI),
        format: 'png',
      });
      expect(answer.status, `${name}: ${answer.text}`).toBe(200);
      const referencePath = join(shared.scratch, `${sample.baseFont}.pdf`);
      writeFileSync(referencePath, await embeddedReferencePdf(sample));
      const reference = await decodeImage(pdftoppmPng(referencePath, 1, DPI));
      const { recall, precision } = inkAgreement(await decodeImage(answer.bytes), reference);
      expect(recall, `${name}: the reference text inked in the picture`).toBeGreaterThan(0.95);
      expect(precision, `${name}: the picture's ink where the reference has text`).toBeGreaterThan(0.95);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  test('when the font cannot be fetched, the result notes say so, naming the pages', async () => {
    const { page, context } = await pageWithApi(shared.browser, 'pdf-to-jpg');
    // As offline before the CJK fonts were saved: the bundled Noto SC/KR files do not arrive.
    await context.route(/NotoSans(SC|KR)_400Regular/, (route) => route.abort('internetdisconnected'));
    const toPng = (pdf: Uint8Array, fields: Record<string, string> = {}) =>
      postInPage(page, '/api/pdf/toJpg', [['file', 'cjk.pdf', pdf]], {
        mode: 'pages',
        resolution: 'custom',
        dpi: String(DPI),
        format: 'png',
        ...fields,
      });
    const single = await toPng(await nonEmbeddedPdf(CJK_SAMPLES[0]));
    expect(single.status, single.text).toBe(200);
    expect(single.notes.join('\n')).toMatch(/^Page 1: Chinese\/Japanese\/Korean text is in fonts the PDF does not/m);
    // Three pages over two render workers, which pass the fact back with each page's image.
    const three = await PDFDocument.create();
    const [cjkPage] = await three.copyPages(await PDFDocument.load(await nonEmbeddedPdf(CJK_SAMPLES[0])), [0]);
    three.addPage([200, 200]);
    three.addPage(cjkPage);
    three.addPage([200, 200]);
    const pages = await toPng(await three.save(), { renderWorkers: '2' });
    expect(pages.status, pages.text).toBe(200);
    expect(pages.type).toContain('zip');
    expect(pages.notes.join('\n')).toMatch(/^Page 2: Chinese\/Japanese\/Korean text/m);
    await context.close();
  });

  test('the page thumbnails draw it too', async () => {
    const { page, context, errors } = await openToolModal(shared.browser, 'rotate-pdf');
    // Three characters large enough to keep their shape in a 110-pixel thumbnail.
    const sample = { ...CJK_SAMPLES[0], lines: ['日本語'], size: 110 };
    await page.locator('input[type=file]').setInputFiles([pdfUpload('cjk.pdf', await nonEmbeddedPdf(sample))]);
    const thumbnail = page.locator('.page-tile img');
    await thumbnail.waitFor({ timeout: 30_000 });
    const picture = await decodeImage(
      Buffer.from(
        await thumbnail.evaluate(async (img: HTMLImageElement) => {
          const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
          return btoa(String.fromCharCode(...bytes));
        }),
        'base64',
      ),
    );
    const referencePath = join(shared.scratch, 'thumbnail-reference.pdf');
    writeFileSync(referencePath, await embeddedReferencePdf(sample));
    const reference = await popplerScaledTo(referencePath, Math.max(picture.width, picture.height));
    const { recall, precision } = inkAgreement(picture, reference);
    expect(recall, 'the reference text inked in the thumbnail').toBeGreaterThan(0.9);
    expect(precision, "the thumbnail's ink where the reference has text").toBeGreaterThan(0.9);
    // Drawn with its font: no note about the previews.
    expect(await page.locator('.result-notes').count()).toBe(0);
    expect(await page.locator('.file-thumb').getAttribute('title')).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  test('when the font cannot be fetched, the page previews say so, naming the pages', async () => {
    const { page, context } = await openToolModal(shared.browser, 'rotate-pdf');
    // As offline before the CJK fonts were saved: the bundled Noto SC/KR files do not arrive.
    await context.route(/NotoSans(SC|KR)_400Regular/, (route) => route.abort('internetdisconnected'));
    const pdf = await PDFDocument.create();
    const cjk = await PDFDocument.load(await nonEmbeddedPdf(CJK_SAMPLES[0]));
    const [first, third] = await pdf.copyPages(cjk, [0, 0]);
    pdf.addPage(first);
    pdf.addPage([200, 200]);
    pdf.addPage(third);
    await page.locator('input[type=file]').setInputFiles([pdfUpload('cjk.pdf', await pdf.save())]);
    const note = page.locator('.result-notes li');
    await note.waitFor({ timeout: 30_000 });
    // Each tile's picture is in before the note is complete: wait for all three.
    await page.locator('.page-tile img').nth(2).waitFor({ timeout: 30_000 });
    expect(await note.textContent()).toMatch(
      /^Pages 1, 3: Chinese\/Japanese\/Korean text is in fonts the PDF does not include, .* the page previews may show/,
    );
    // The file list's first-page picture carries it as its tooltip.
    await page.getByTestId('first-page').waitFor({ timeout: 30_000 });
    expect(await page.locator('.file-thumb').getAttribute('title')).toMatch(/^Page 1: Chinese\/Japanese\/Korean/);
    await context.close();
  });
});

/** Page 1 drawn by pdftoppm with its longer side `pixels` long, as a thumbnail is. */
async function popplerScaledTo(pdfPath: string, pixels: number): Promise<Raster> {
  const prefix = join(shared.scratch, 'scaled');
  execFileSync('pdftoppm', ['-png', '-singlefile', '-scale-to', String(pixels), pdfPath, prefix]);
  return decodeImage(new Uint8Array(readFileSync(`${prefix}.png`)));
}
