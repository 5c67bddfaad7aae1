/**
 * When the bundled CJK font cannot be loaded (offline before the optional CJK fonts were saved),
 * the canvas draws that text itself (empty boxes): PDF → JPG, and OCR of scanned pages (the office
 * exports), must say so in their notes, naming the pages; the page previews (thumbnails) must mark
 * such pages for the UI's note. The font loader is replaced through
 * pdfjs-cjk-fallback.ts's seam, setFallbackFontLoader.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { run } from '../../workers/engine/tools/pdf-to-jpg.ts';
import { run as toPpt } from '../../workers/engine/tools/pdf-to-ppt.ts';
import { setFallbackFontLoader } from '../../workers/engine/lib/pdf/pdfjs-cjk-fallback.ts';
import { renderThumbnail } from '../../workers/engine/lib/pdf/page-image.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { cjkFontNote } from '../../shared/cjk-font-note.ts';
import { decodeImage } from '../support/images.ts';
import { CJK_SAMPLES, nonEmbeddedPdf } from '../support/cjk-fixtures.ts';
import { buildScannedPages } from '../support/ocr-fixtures.ts';

afterAll(() => setFallbackFontLoader());

const japanese = CJK_SAMPLES.find((sample) => sample.language === 'Japanese')!;
const korean = CJK_SAMPLES.find((sample) => sample.language === 'Korean')!;

/** Pages 1 and 3 Latin text only, page 2 Japanese and page 4 Korean in fonts that are not embedded. */
async function mixedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const helvetica = await doc.embedFont(StandardFonts.Helvetica);
  const latinPage = () => doc.addPage([400, 450]).drawText('Latin text only', { x: 40, y: 400, font: helvetica });
  const [cjkJapanese] = await doc.copyPages(await PDFDocument.load(await nonEmbeddedPdf(japanese)), [0]);
  const [cjkKorean] = await doc.copyPages(await PDFDocument.load(await nonEmbeddedPdf(korean)), [0]);
  latinPage();
  doc.addPage(cjkJapanese);
  latinPage();
  doc.addPage(cjkKorean);
  return doc.save();
}

const toPng = (bytes: Uint8Array, pages: string) =>
  run([{ name: 'mixed.pdf', bytes }], { mode: 'pages', resolution: 'custom', dpi: 50, format: 'png', pages }, {});

const cjkNote = (notes: string[] | undefined) => notes?.find((note) => note.includes('Chinese/Japanese/Korean'));

describe('PDF → JPG: CJK text whose bundled font could not be loaded', () => {
  test('the notes name the pages drawn without it', async () => {
    setFallbackFontLoader(() => Promise.reject(new Error('Failed to fetch (offline)')));
    const pdf = await mixedPdf();
    const all = await toPng(pdf, '');
    expect(all.mime).toBe('application/zip');
    expect(cjkNote(all.notes)).toMatch(/^Pages 2, 4: Chinese\/Japanese\/Korean text is in fonts the PDF does not/);
    // One page: a single image, its note too; a Latin-only page gets none.
    expect(cjkNote((await toPng(pdf, '4')).notes)).toMatch(/^Page 4: /);
    expect(cjkNote((await toPng(pdf, '3')).notes)).toBeUndefined();
  });

  test('with the font available there is no such note', async () => {
    setFallbackFontLoader();
    const all = await toPng(await mixedPdf(), '');
    expect(all.notes?.[0]).toBe('4 pages as PNG at 50 dpi');
    expect(cjkNote(all.notes)).toBeUndefined();
  });
});

/**
 * Two scanned pages (pictures, no text layer); page 2 also has a short Japanese caption in a font
 * that is not embedded: few enough characters that the page still reads as scanned, so OCR reads
 * its picture, caption included.
 */
async function scanWithCaption(): Promise<Uint8Array> {
  const doc = await PDFDocument.load((await buildScannedPages(2)).bytes);
  const [caption] = await doc.embedPdf(await nonEmbeddedPdf({ ...japanese, lines: ['日本語'] }));
  doc.getPage(1).drawPage(caption, { x: 20, y: 400 });
  return doc.save();
}

describe('OCR of scanned pages: CJK text whose bundled font could not be loaded', () => {
  const ocrNotes = async (bytes: Uint8Array) => (await toPpt([{ name: 'scan.pdf', bytes }], { ocr: true }, {})).notes;

  test('the notes name the pages whose picture was drawn without it; with the font, none', async () => {
    const scan = await scanWithCaption();
    setFallbackFontLoader(() => Promise.reject(new Error('Failed to fetch (offline)')));
    const blocked = await ocrNotes(scan);
    expect(blocked?.join(' ')).toContain('on 2 scanned pages');
    expect(cjkNote(blocked)).toMatch(/^Page 2: Chinese\/Japanese\/Korean text is in fonts the PDF does not/);
    setFallbackFontLoader();
    const available = await ocrNotes(scan);
    expect(available?.join(' ')).toContain('on 2 scanned pages');
    expect(cjkNote(available)).toBeUndefined();
  }, 180_000);
});

describe('Page previews: CJK text whose bundled font could not be loaded', () => {
  /** Each page's thumbnail (longer side 110 px): whether it is marked, and its picture's size. */
  const thumbnails = async (bytes: Uint8Array) => {
    const doc = await openPdfjs(bytes);
    try {
      const marks: boolean[] = [];
      for (let page = 1; page <= doc.numPages; page++) {
        const { bytes: jpeg, cjkFontMissing } = await renderThumbnail(doc, page, 110);
        const picture = await decodeImage(jpeg);
        expect(Math.max(picture.width, picture.height), `page ${page}'s longer side`).toBe(110);
        marks.push(cjkFontMissing);
      }
      return marks;
    } finally {
      await doc.destroy();
    }
  };

  test('the pages drawn without it are marked; with the font, none', async () => {
    const pdf = await mixedPdf();
    setFallbackFontLoader(() => Promise.reject(new Error('Failed to fetch (offline)')));
    expect(await thumbnails(pdf)).toEqual([false, true, false, true]);
    setFallbackFontLoader();
    expect(await thumbnails(pdf)).toEqual([false, false, false, false]);
  });

  test("the previews' note names the pages and says what to do there", () => {
    expect(cjkFontNote([4, 2], 'previews')).toBe(
      'Pages 2, 4: Chinese/Japanese/Korean text is in fonts the PDF does not include, and ' +
        "Folio's font for it could not be loaded, so the page previews may show it as empty boxes. " +
        'Pick the file again while online, or first save "Chinese, Japanese and Korean fonts" for offline use ' +
        '(About page).',
    );
    expect(cjkFontNote([3, 1, 2, 7])).toMatch(/^Pages 1–3, 7: .* so it may show as empty boxes\. Convert again/);
  });
});
