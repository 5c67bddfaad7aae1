/**
 * EMF and WMF pictures in a Word document, converted through the in-page /api in Chromium (the engine
 * worker of the built app): the EMF's text and the WMF equation's text are real text where the
 * records put them, and the EMF's filled polygon is red inside and white outside (poppler's pixels).
 */
import { expect, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedBrowser } from './harness.ts';
import { pageWithApi, postInPage } from './page-api.ts';
import { popplerWords } from '../support/pdf.ts';
import { decodeImage, pdftoppmPng } from '../support/images.ts';
import { docxWithMetafiles, equationWmf, shapesAndTextEmf } from '../support/metafile-builder.ts';

const shared = sharedBrowser();

test('Word: an EMF picture and a WMF equation preview are drawn, their text searchable', async () => {
  const docx = await docxWithMetafiles(shapesAndTextEmf(), equationWmf());
  const { page, context } = await pageWithApi(shared.browser, 'word-to-pdf');
  const answer = await postInPage(page, '/api/pdf/fromWord', [['file', 'metafiles.docx', docx]]);
  await context.close();
  expect(answer.status, answer.text).toBe(200);
  expect(answer.notes.join(' ')).not.toMatch(/EMF|WMF|empty frame/);

  const words = popplerWords(answer.bytes).map((w) => ({ text: w.text, x: w.xMin, top: w.yMin, bottom: w.yMax }));
  const text = words.map((w) => w.text).join(' ');
  expect(text).toContain('Metafile');
  expect(text).toContain('E = mc');
  expect(text).toContain('π');
  // The EMF is 200 × 100 pt from the text column's left edge; its text's origin 120 pt in, 80 pt down.
  const left = words.find((w) => w.text === 'Before')!.x;
  const metafile = words.find((w) => w.text === 'Metafile')!;
  expect(metafile.x - left).toBeCloseTo(120, 0);

  const dir = mkdtempSync(join(tmpdir(), 'folio-metafile-e2e-'));
  try {
    writeFileSync(join(dir, 'out.pdf'), answer.bytes);
    const raster = await decodeImage(pdftoppmPng(join(dir, 'out.pdf'), 1, 72));
    const rgb = (x: number, y: number) => {
      const i = (Math.round(y) * raster.width + Math.round(x)) * 4;
      return Array.from(raster.data.subarray(i, i + 3));
    };
    // The picture's top is 80 pt above the text's baseline (about 2 pt above its box's bottom).
    const top = metafile.bottom - 82;
    const red = rgb(left + 50, top + 50);
    expect(red[0]).toBeGreaterThan(180);
    expect(red[1]).toBeLessThan(60);
    expect(rgb(left + 150, top + 50)).toEqual([255, 255, 255]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
