/**
 * PDF → images. Each chosen page is rendered by pdf.js (OffscreenCanvas in the worker, @napi-rs/canvas
 * in Node) at the chosen resolution and encoded with MozJPEG (or PNG), one page at a time, so a
 * 300-page document never holds more than one page of pixels. One image → that image; several →
 * converted.zip with `<name>-p001.jpg` names. A page pdf.js cannot draw is named in the result's notes
 * and left out; the others are still converted. Mode "images" instead extracts the embedded image
 * streams as stored (JPEGs byte for byte; others decoded losslessly to PNG).
 */
import type { Engine, EngineInput, EngineResult } from '../lib/types.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import { parsePageRanges } from '../../../shared/page-range.ts';
import { openPdfjs, renderPage, type PDFDocumentProxy } from '../lib/pdf/pdfjs.ts';
import { assertLooksLikePdf, openPdf } from '../lib/pdf/pdf-open.ts';
import { baseName } from '../../../shared/format.ts';
import { savePdf } from '../lib/pdf/pdf-util.ts';
import { encodeJpeg, encodePng, makeImageData, pixelLimit } from '../lib/image/codecs.ts';
import { ZipBuilder } from '../lib/zip.ts';
import { extractImage, pageImageRefs } from '../lib/pdf/pdf-image-extract.ts';

export function resolveDpi(options: Record<string, unknown>): number {
  const choice = String(options.resolution ?? '150');
  const dpi = choice === 'custom' ? Number(options.dpi ?? 150) : Number(choice);
  if (!Number.isFinite(dpi) || dpi < 10 || dpi > 1200) {
    throw new FolioError('InvalidInput', 'Resolution must be between 10 and 1200 dpi.');
  }
  return dpi;
}

/** "-p001" with at least three digits, more when the document has 1000+ pages. */
export function pageSuffix(page: number, pageCount: number): string {
  return `-p${String(page).padStart(Math.max(3, String(pageCount).length), '0')}`;
}

/**
 * pdf.js opens most files directly (it decrypts with the password itself). When it cannot — a
 * damaged file, or an encryption it does not handle — openPdf repairs or decrypts with qpdf and
 * pdf.js gets that copy.
 */
async function openForRendering(input: EngineInput): Promise<PDFDocumentProxy> {
  assertLooksLikePdf(input);
  try {
    const doc = await openPdfjs(input.bytes, { name: input.name, password: input.password });
    // A page tree pdf.js cannot count (a negative /Count) or walk (a loop: reaching the last page
    // walks it) is read again from openPdf's rebuilt copy.
    if (doc.numPages >= 1 && (await doc.getPage(doc.numPages).then(() => true, () => false))) return doc;
    await doc.destroy();
  } catch (error) {
    const code = (error as Error).name;
    if (code === 'PasswordRequired' && !input.password) throw error;
  }
  const opened = await openPdf(input);
  return openPdfjs(opened.bytes, { name: input.name });
}

/**
 * A rewritten copy, for files pdf.js opens but then cannot draw (e.g. a bad cross-reference entry
 * met only when a page is read): pdf-lib's parser reads objects where they really are, and saving
 * writes a fresh cross-reference table. (qpdf's WASM build gives up on some of these files.)
 */
async function rewritten(input: EngineInput): Promise<Uint8Array> {
  const { doc } = await openPdf(input); // decrypted, and repaired by qpdf when pdf-lib could not load it
  return savePdf(doc);
}

async function renderPages(input: EngineInput, options: Record<string, unknown>, ctx: Parameters<Engine>[2]): Promise<EngineResult> {
  const dpi = resolveDpi(options);
  const format = options.format === 'png' ? 'png' : 'jpeg';
  const quality = Number(options.quality ?? 85);
  let doc = await openForRendering(input);
  let rewrote = false;
  try {
    const pages = [...new Set(parsePageRanges(String(options.pages ?? ''), doc.numPages))];
    const name = baseName(input.name);
    const extension = format === 'png' ? 'png' : 'jpg';
    const mime = format === 'png' ? 'image/png' : 'image/jpeg';
    const zip = pages.length > 1 ? new ZipBuilder() : undefined;
    let single: Uint8Array | undefined;
    /** Pages pdf.js could not draw, with why: reported, while the other pages are still converted. */
    const undrawn: { page: number; reason: string }[] = [];
    ctx.progress?.(0, pages.length);
    for (const [done, pageNumber] of pages.entries()) {
      throwIfAborted(ctx.signal);
      const draw = async (from: PDFDocumentProxy) => {
        const page = await from.getPage(pageNumber);
        const { width, height } = page.getViewport({ scale: dpi / 72 });
        if (width * height > pixelLimit()) {
          throw new FolioError(
            'TooLarge',
            `Page ${pageNumber} would be ${Math.round(width)} × ${Math.round(height)} pixels at ${dpi} dpi — too large. Choose a lower resolution.`,
          );
        }
        return renderPage(from, pageNumber, dpi);
      };
      let rendered;
      try {
        rendered = await draw(doc);
      } catch (error) {
        if (error instanceof FolioError && error.name === 'TooLarge') throw error;
        if ((error as Error).name === 'Cancelled') throw error;
        if (!rewrote) {
          // Once per document: rebuild the file's object table, then try this page again.
          rewrote = true;
          const repaired = await rewritten(input);
          await doc.destroy();
          doc = await openPdfjs(repaired, { name: input.name });
          rendered = await renderPage(doc, pageNumber, dpi).catch((again: Error) => {
            undrawn.push({ page: pageNumber, reason: again.message });
            return undefined;
          });
        } else {
          undrawn.push({ page: pageNumber, reason: (error as Error).message });
        }
      }
      if (!rendered) {
        ctx.progress?.(done + 1, pages.length);
        continue;
      }
      const image = makeImageData(rendered.data, rendered.width, rendered.height);
      // Baseline MozJPEG: a third faster than progressive for ~15 % more bytes (still smaller than
      // libjpeg's output at the same quality). OxiPNG level 1: most of level 2's gain, far faster.
      const bytes = format === 'png' ? await encodePng(image, { level: 1 }) : await encodeJpeg(image, { quality, progressive: false });
      if (zip) zip.add(`${name}${pageSuffix(pageNumber, doc.numPages)}.${extension}`, bytes);
      else single = bytes;
      ctx.progress?.(done + 1, pages.length);
    }
    if (undrawn.length === pages.length) {
      const why = undrawn.map((u) => `page ${u.page}: ${u.reason}`).join('; ');
      throw new FolioError('DamagedPdf', `No page of "${input.name}" could be drawn (${why}).`);
    }
    const undrawnNote = undrawn.map((u) => `Page ${u.page} could not be drawn and is left out: ${u.reason}`);
    if (!zip) {
      return { bytes: single!, filename: `${name}${pageSuffix(pages[0], doc.numPages)}.${extension}`, mime };
    }
    const drawn = pages.length - undrawn.length;
    const notes = [`${drawn} page${drawn === 1 ? '' : 's'} as ${format === 'png' ? 'PNG' : 'JPEG'} at ${dpi} dpi`, ...undrawnNote];
    return { bytes: await zip.finish(), filename: `${name}-pages.zip`, mime: 'application/zip', notes };
  } finally {
    await doc.destroy();
  }
}

async function extractImages(input: EngineInput, options: Record<string, unknown>, ctx: Parameters<Engine>[2]): Promise<EngineResult> {
  const { doc } = await openPdf(input);
  const pages = [...new Set(parsePageRanges(String(options.pages ?? ''), doc.getPageCount()))];
  const name = baseName(input.name);
  const zip = new ZipBuilder();
  const seen = new Set<string>();
  const skipped = new Map<string, number>();
  let first: { filename: string; bytes: Uint8Array; extension: string } | undefined;
  ctx.progress?.(0, pages.length);
  for (const [done, pageNumber] of pages.entries()) {
    throwIfAborted(ctx.signal);
    let index = 0;
    for (const ref of pageImageRefs(doc, pageNumber - 1)) {
      if (seen.has(ref.toString())) continue; // an image drawn on many pages (a logo) is written once
      seen.add(ref.toString());
      const outcome = await extractImage(doc, ref);
      if ('skipped' in outcome) {
        skipped.set(outcome.skipped, (skipped.get(outcome.skipped) ?? 0) + 1);
        continue;
      }
      index++;
      const { extension, bytes } = outcome.image;
      const filename = zip.add(`${name}${pageSuffix(pageNumber, doc.getPageCount())}-img${String(index).padStart(2, '0')}.${extension}`, bytes);
      first ??= { filename, bytes, extension };
    }
    ctx.progress?.(done + 1, pages.length);
  }
  const skippedNote = [...skipped].map(([why, count]) => `${count} skipped (${why})`).join(', ');
  if (!first) {
    throw new FolioError(
      'InvalidInput',
      `No embedded images could be extracted from the chosen pages of "${input.name}"${skippedNote ? ` — ${skippedNote}` : ''}. Choose "Every page to an image" to render the pages instead.`,
    );
  }
  const notes = [`${zip.size} image${zip.size === 1 ? '' : 's'} extracted as stored`, ...(skippedNote ? [skippedNote] : [])];
  if (zip.size === 1) {
    const mime = first.extension === 'jpg' ? 'image/jpeg' : first.extension === 'png' ? 'image/png' : 'image/jp2';
    return { bytes: first.bytes, filename: first.filename, mime, notes };
  }
  return { bytes: await zip.finish(), filename: `${name}-images.zip`, mime: 'application/zip', notes };
}

export const run: Engine = async (inputs, options, ctx) => {
  const input = inputs[0];
  if (!input) throw new FolioError('InvalidInput', 'Please select at least one file');
  return options.mode === 'images' ? extractImages(input, options, ctx) : renderPages(input, options, ctx);
};
