/**
 * compress-pdf over every corpus PDF at "Recommended": each either compresses (output opens in
 * pdf.js and pdf-lib, passes qpdf --check, keeps its page count, and is never larger than the
 * input) or fails with a clear named error when the manifest expects an error. The image
 * compressor runs over every corpus image.
 */
import { afterAll, expect, test } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import {
  corpusPassword,
  corpusPdfs,
  describeCorpus,
  manifest,
  pdfjsPageCount,
  readCorpus,
  Tally,
} from '../support/corpus.ts';
import { qpdfCheck } from '../support/pdf.ts';
import { run as compressPdf } from '../../workers/engine/tools/compress-pdf.ts';
import { run as compressImage } from '../../workers/engine/tools/image-compressor.ts';
import { imageHeader } from '../../workers/engine/lib/image/codecs.ts';
import { isFolioError } from '../../workers/engine/lib/errors.ts';

describeCorpus('compress-pdf over the corpus', () => {
  const tally = new Tally('compress-pdf');
  let before = 0;
  let after = 0;
  afterAll(() => {
    tally.print();
    console.log(
      `[corpus] compress-pdf: ${(before / 1e6).toFixed(2)} MB → ${(after / 1e6).toFixed(2)} MB over the files ` +
        `that compressed`,
    );
  });

  for (const entry of corpusPdfs) {
    test(`${entry.file} compresses (never larger, valid, same pages) or fails clearly`, async () => {
      const bytes = readCorpus(entry);
      const name = entry.file.split('/').pop()!;
      const problems: string[] = [];
      try {
        const result = await compressPdf(
          [{ name, bytes, password: corpusPassword(entry) }],
          { level: 'recommended' },
          {},
        );
        before += bytes.length;
        after += result.bytes.length;
        if (result.bytes.length > bytes.length) problems.push(`grew ${bytes.length} → ${result.bytes.length}`);
        if (result.bytes === bytes) {
          // Nothing helped: the original comes back as it was (damaged files included), with a note.
          if (!/already well compressed/.test(result.notes?.[0] ?? '')) problems.push('unchanged without saying so');
        } else {
          // (A file the manifest expects to fail may still be recovered: then its output must be valid.)
          const check = await qpdfCheck(result.bytes);
          if (!check.ok) problems.push(`qpdf --check: ${check.output.slice(0, 200)}`);
          const pages = await pdfjsPageCount(result.bytes).catch((e: Error) => `pdf.js: ${e.message}`);
          if (typeof pages === 'string') problems.push(pages);
          else if (entry.pages !== null && pages !== entry.pages) problems.push(`pages ${entry.pages} → ${pages}`);
          await PDFDocument.load(result.bytes).catch((e: Error) => problems.push(`pdf-lib: ${e.message}`));
        }
      } catch (error) {
        if (!(entry.expect === 'error' && isFolioError(error)))
          problems.push(`${(error as Error).name}: ${(error as Error).message}`);
      }
      if (problems.length) tally.fail(`${entry.file}: ${problems.join('; ')}`);
      else tally.pass();
      expect(problems).toEqual([]);
    }, 900_000);
  }
});

describeCorpus('image-compressor over the corpus images', () => {
  test('every image compresses to a valid, not larger image of the same size, or fails clearly', async () => {
    const tally = new Tally('image-compressor');
    for (const entry of manifest.filter((f) => f.kind === 'images')) {
      const bytes = readCorpus(entry);
      const name = entry.file.split('/').pop()!;
      try {
        const result = await compressImage([{ name, bytes }], { quality: 75 }, {});
        const header = imageHeader(result.bytes);
        const original = imageHeader(bytes);
        if (!header || !original) tally.fail(`${entry.file}: output is not an image`);
        else if (result.bytes.length > bytes.length)
          tally.fail(`${entry.file}: grew ${bytes.length} → ${result.bytes.length}`);
        else if (Math.min(header.width, header.height) !== Math.min(original.width, original.height))
          tally.fail(`${entry.file}: size changed`);
        else tally.pass();
      } catch (error) {
        // A CMYK JPEG cannot be decoded by MozJPEG's RGB path: it must say so by name.
        if (isFolioError(error) && error.message.includes(`"${name}"`)) tally.pass();
        else tally.fail(`${entry.file}: ${(error as Error).name}: ${(error as Error).message}`);
      }
    }
    tally.print();
    expect(tally.failed).toEqual([]);
  });
});
