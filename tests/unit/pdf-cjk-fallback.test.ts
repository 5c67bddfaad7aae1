/**
 * Chinese, Japanese and Korean text in fonts a PDF does not embed is drawn in the bundled Noto fonts
 * by PDF → JPG in Node (pdfjs-cjk-fallback.ts): each page must match, glyph for glyph, poppler's
 * drawing of the same text with that Noto font embedded. Before the fallback these pages came out
 * as rows of empty boxes (recall 0.12–0.16, precision 0.36–0.53; after: 1.000 and 1.000).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { run } from '../../workers/engine/tools/pdf-to-jpg.ts';
import { CJK_SAMPLES, embeddedReferencePdf, inkAgreement, nonEmbeddedPdf } from '../support/cjk-fixtures.ts';
import { decodeImage, pdftoppmPng, popplerPresent } from '../support/images.ts';

const DPI = 100;
const dir = mkdtempSync(join(tmpdir(), 'folio-cjk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(popplerPresent())('PDF → JPG: CJK text in fonts that are not embedded', () => {
  test.each(CJK_SAMPLES.map((sample) => [`${sample.language}, ${sample.baseFont} (${sample.encoding})`, sample]))(
    '%s is drawn in the bundled Noto font where the text is',
    async (_, sample) => {
      const pdf = await nonEmbeddedPdf(sample);
      const result = await run(
        [{ name: 'cjk.pdf', bytes: pdf }],
        { mode: 'pages', resolution: 'custom', dpi: DPI, format: 'png', pages: '1' },
        {},
      );
      const picture = await decodeImage(result.bytes);
      const referencePath = join(dir, `${sample.baseFont}.pdf`);
      writeFileSync(referencePath, await embeddedReferencePdf(sample));
      const reference = await decodeImage(pdftoppmPng(referencePath, 1, DPI));
      const { recall, precision } = inkAgreement(picture, reference);
      // The measure fails a blank page (as it failed the empty boxes drawn before the fallback).
      expect(inkAgreement({ ...picture, data: picture.data.map(() => 255) }, reference).recall).toBe(0);
      expect(recall, 'the reference text inked in the picture').toBeGreaterThan(0.95);
      expect(precision, "the picture's ink where the reference has text").toBeGreaterThan(0.95);
    },
  );
});
