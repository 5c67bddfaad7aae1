/**
 * The image tools over the corpus: every PDF → pdf-to-jpg (72 dpi, first 3 pages, to keep it fast)
 * gives JPEGs of the right pixel size, or fails with a clear named error; embedded-image
 * extraction (first 3 pages) works or says why not; add-watermark output passes qpdf --check and its text is
 * found on page 1 by pdf.js; every corpus image goes into one PDF with its JPEG bytes unchanged.
 */
import { expect, test } from 'vitest';
import JSZip from 'jszip';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { corpusPassword, corpusPdfs, describeCorpus, manifest, readCorpus, Tally } from '../support/corpus.ts';
import { qpdfCheck } from '../support/pdf.ts';
import { run as pdfToJpg } from '../../workers/engine/tools/pdf-to-jpg.ts';
import { run as jpgToPdf } from '../../workers/engine/tools/jpg-to-pdf.ts';
import { run as addWatermark } from '../../workers/engine/tools/add-watermark.ts';
import { imageHeader } from '../../workers/engine/lib/image/codecs.ts';
import { isFolioError } from '../../workers/engine/lib/errors.ts';
import { openPdfjs, pageText } from '../../workers/engine/lib/pdf/pdfjs.ts';

const nameOf = (file: string) => file.split('/').pop()!;

/** A failure the user can act on: one of our named errors, with a message that names something. */
function clearFailure(error: unknown): boolean {
  return isFolioError(error) && error.message.length > 10 && !/^Processing failed/.test(error.message);
}

async function imagesOf(result: { bytes: Uint8Array; mime: string }): Promise<Uint8Array[]> {
  if (result.mime !== 'application/zip') return [result.bytes];
  const zip = await JSZip.loadAsync(result.bytes);
  return Promise.all(Object.values(zip.files).map((f) => f.async('uint8array')));
}

describeCorpus('pdf-to-jpg over the corpus', () => {
  test('every PDF renders (first 3 pages, 72 dpi) or fails clearly', async () => {
    const tally = new Tally('pdf-to-jpg');
    for (const entry of corpusPdfs) {
      const bytes = readCorpus(entry);
      const pages = entry.pages ? `1-${Math.min(3, entry.pages)}` : '1';
      try {
        const result = await pdfToJpg(
          [{ name: nameOf(entry.file), bytes, password: corpusPassword(entry) }],
          { mode: 'pages', resolution: '72', format: 'jpeg', quality: 75, pages },
          {},
        );
        const images = await imagesOf(result);
        const headers = images.map((image) => imageHeader(image));
        const expected = entry.pages ? Math.min(3, entry.pages) : 1;
        if (images.length !== expected) tally.fail(`${entry.file}: ${images.length} images for ${expected} pages`);
        else if (headers.some((h) => h?.format !== 'jpeg' || h.width < 1 || h.height < 1 || h.width > 20000))
          tally.fail(`${entry.file}: bad JPEG ${JSON.stringify(headers)}`);
        else tally.pass();
      } catch (error) {
        if (entry.expect === 'error' && clearFailure(error)) tally.pass();
        else tally.fail(`${entry.file}: ${(error as Error).name}: ${(error as Error).message}`);
      }
    }
    tally.print();
    expect(tally.failed).toEqual([]);
  });

  test('extracting embedded images works or says why not', async () => {
    const tally = new Tally('pdf-to-jpg extract images');
    let extracted = 0;
    for (const entry of corpusPdfs) {
      const bytes = readCorpus(entry);
      try {
        const result = await pdfToJpg(
          [{ name: nameOf(entry.file), bytes, password: corpusPassword(entry) }],
          { mode: 'images', pages: entry.pages && entry.pages > 3 ? '1-3' : '' },
          {},
        );
        const images = await imagesOf(result);
        // JPEG/PNG, or a JP2 box
        const bad = images.filter((image) => !imageHeader(image) && !(image[4] === 0x6a && image[5] === 0x50));
        if (bad.length) tally.fail(`${entry.file}: ${bad.length} unreadable images`);
        else tally.pass();
        extracted += images.length;
      } catch (error) {
        if (clearFailure(error)) tally.pass();
        else tally.fail(`${entry.file}: ${(error as Error).name}: ${(error as Error).message}`);
      }
    }
    tally.print();
    console.log(`[corpus] pdf-to-jpg extract images: ${extracted} images written`);
    expect(tally.failed).toEqual([]);
  });
});

describeCorpus('add-watermark over the corpus', () => {
  test('every PDF gets a watermark that passes qpdf --check and is found on page 1, or fails clearly', async () => {
    const tally = new Tally('add-watermark');
    const text = 'Folio Ω Ж 水印';
    for (const entry of corpusPdfs) {
      const bytes = readCorpus(entry);
      try {
        const result = await addWatermark(
          [{ name: nameOf(entry.file), bytes, password: corpusPassword(entry) }],
          { text, position: 'tiled', pages: entry.pages && entry.pages >= 3 ? '1-3' : '1' },
          {},
        );
        const problems: string[] = [];
        const check = await qpdfCheck(result.bytes);
        // A page whose own content stream is damaged stays so (it is kept, not re-encoded): such an
        // output may fail the check only when the input fails it too.
        if (!check.ok && (await qpdfCheck(bytes)).ok) problems.push(`qpdf --check: ${check.output.slice(0, 200)}`);
        const doc = await openPdfjs(result.bytes);
        const first = await pageText(doc, 1);
        await doc.destroy();
        if (!first.includes(text)) problems.push('watermark text not found on page 1');
        if (problems.length) tally.fail(`${entry.file}: ${problems.join('; ')}`);
        else tally.pass();
      } catch (error) {
        if (entry.expect === 'error' && clearFailure(error)) tally.pass();
        else tally.fail(`${entry.file}: ${(error as Error).name}: ${(error as Error).message}`);
      }
    }
    tally.print();
    expect(tally.failed).toEqual([]);
  });
});

describeCorpus('jpg-to-pdf over the corpus images', () => {
  test('every corpus image becomes a page; JPEGs are embedded byte for byte', async () => {
    const images = manifest.filter((e) => /\.(jpe?g|png|webp)$/i.test(e.file));
    const inputs = images.map((entry) => ({ name: nameOf(entry.file), bytes: readCorpus(entry) }));
    const result = await jpgToPdf(inputs, { pageSize: 'a4', orientation: 'auto', margin: 'small' }, {});
    expect((await qpdfCheck(result.bytes)).ok).toBe(true);
    const doc = await PDFDocument.load(result.bytes);
    expect(doc.getPageCount()).toBe(images.length);
    const embedded = doc.context
      .enumerateIndirectObjects()
      .map(([, o]) => o)
      .filter(
        (o): o is PDFRawStream =>
          o instanceof PDFRawStream && o.dict.get(PDFName.of('Filter')) === PDFName.of('DCTDecode'),
      )
      .map((o) => Buffer.from(o.contents));
    const jpegs = inputs.filter((i) => /\.jpe?g$/i.test(i.name));
    for (const jpeg of jpegs)
      expect(
        embedded.some((e) => e.equals(Buffer.from(jpeg.bytes))),
        jpeg.name,
      ).toBe(true);
    console.log(
      `[corpus] jpg-to-pdf: ${images.length} images → ${doc.getPageCount()} pages, ` +
        `${(result.bytes.length / 1e6).toFixed(2)} MB (inputs ` +
        `${(inputs.reduce((s, i) => s + i.bytes.length, 0) / 1e6).toFixed(2)} MB)`,
    );
  });
});
