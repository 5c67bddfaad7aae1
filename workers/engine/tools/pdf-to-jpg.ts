/**
 * PDF → images. Each chosen page is rendered by pdf.js (OffscreenCanvas in the worker, @napi-rs/canvas
 * in Node) at the chosen resolution and encoded (page-image.ts: the canvas's own JPEG encoder, or
 * MozJPEG for the smallest files, or PNG). In a browser the pages are spread over a pool of render
 * workers (render-pool.ts); each finished page is written into the ZIP at once, in page order, so
 * only a few pages' images are ever held. One image → that image; several → `<name>-pages.zip` with
 * `<name>-p001.jpg` names. A page pdf.js cannot draw is named in the result's notes
 * and left out; the others are still converted. Mode "images" instead extracts the embedded image
 * streams as stored (JPEGs byte for byte; others decoded losslessly to PNG).
 */
import type { Engine, EngineInput, EngineResult } from '../lib/types.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import { parsePageRanges } from '../../../shared/page-range.ts';
import { openPdfjs, type PDFDocumentProxy } from '../lib/pdf/pdfjs.ts';
import { withBalancedPageTree } from '../lib/pdf/balanced-page-tree.ts';
import {
  pagePixelSize,
  renderPageImage,
  type PageImage,
  type PageImageFormat,
  type PageImageSettings,
} from '../lib/pdf/page-image.ts';
import {
  canStartRenderWorkers,
  deviceLaneCount,
  openWorkerLane,
  runInPageOrder,
  type PageLane,
} from '../lib/pdf/render-pool.ts';
import { assertLooksLikePdf, openPdf } from '../lib/pdf/pdf-open.ts';
import { cjkFontNote } from '../lib/pdf/pdfjs-cjk-fallback.ts';
import { baseName } from '../../../shared/format.ts';
import { savePdf } from '../lib/pdf/pdf-util.ts';
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
 * pdf.js gets that copy. Returns the document and the bytes (and password) it was opened from, for
 * the render workers to open the same.
 */
async function openForRendering(
  input: EngineInput,
): Promise<{ doc: PDFDocumentProxy; bytes: Uint8Array; password?: string }> {
  assertLooksLikePdf(input);
  try {
    // Thousands of pages listed flat under the root: pdf.js's lookup of each would be linear.
    const bytes = withBalancedPageTree(input.bytes) ?? input.bytes;
    const doc = await openPdfjs(bytes, { name: input.name, password: input.password });
    // A page tree pdf.js cannot count (a negative /Count) or walk (a loop: reaching the last page
    // walks it) is read again from openPdf's rebuilt copy.
    if (
      doc.numPages >= 1 &&
      (await doc.getPage(doc.numPages).then(
        () => true,
        () => false,
      ))
    ) {
      return { doc, bytes, password: input.password };
    }
    await doc.destroy();
  } catch (error) {
    const code = (error as Error).name;
    if (code === 'PasswordRequired' && !input.password) throw error;
  }
  const opened = await openPdf(input);
  return { doc: await openPdfjs(opened.bytes, { name: input.name }), bytes: opened.bytes };
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

/** The page format chosen: `format` jpeg (the browser's encoder), jpeg-smallest (MozJPEG) or png. */
export function resolveFormat(options: Record<string, unknown>): PageImageFormat {
  return options.format === 'png' ? 'png' : options.format === 'jpeg-smallest' ? 'jpeg-smallest' : 'jpeg';
}

/** Render workers to use: `renderWorkers` when given (tests, bench), else what this device affords. */
function lanesFor(options: Record<string, unknown>, inputBytes: number, pagePixels: number, pageCount: number): number {
  const asked = Number(options.renderWorkers);
  const lanes = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, 16) : deviceLaneCount(inputBytes, pagePixels);
  return canStartRenderWorkers() ? Math.min(lanes, pageCount) : 1;
}

/**
 * Pages each lane works on at once: the browser encodes a page's JPEG (convertToBlob) off the
 * lane's thread, so a lane draws its next page meanwhile instead of waiting (docs/benchmarks.md).
 */
const PAGES_IN_FLIGHT_PER_LANE = 2;

/** Errors that end the job rather than leave one page out. */
const isFatal = (error: unknown) => ['TooLarge', 'Cancelled'].includes((error as Error)?.name);

async function renderPages(
  input: EngineInput,
  options: Record<string, unknown>,
  ctx: Parameters<Engine>[2],
): Promise<EngineResult> {
  const dpi = resolveDpi(options);
  const format = resolveFormat(options);
  const quality = Math.min(100, Math.max(1, Number(options.quality ?? 85) || 85));
  const settings: PageImageSettings = { dpi, format, quality };
  throwIfAborted(ctx.signal);
  const opened = await openForRendering(input);
  const doc = opened.doc;
  const lanes: PageLane[] = [];
  let repaired: Promise<PDFDocumentProxy> | undefined;
  let docOpen = true;
  try {
    const pageCount = doc.numPages;
    const pages = [...new Set(parsePageRanges(String(options.pages ?? ''), pageCount))];
    const name = baseName(input.name);
    const extension = format === 'png' ? 'png' : 'jpg';
    const mime = format === 'png' ? 'image/png' : 'image/jpeg';
    const zip = pages.length > 1 ? new ZipBuilder(ctx.output) : undefined;
    let single: Uint8Array | undefined;
    /** Pages pdf.js could not draw, with why: reported, while the other pages are still converted. */
    const undrawn: { page: number; reason: string }[] = [];
    /** Pages with CJK text drawn without its font (the bundled one could not be loaded). */
    const fontless: number[] = [];

    const [firstWidth, firstHeight] = await pagePixelSize(doc, pages[0], dpi);
    const laneTotal = lanesFor(options, opened.bytes.byteLength, firstWidth * firstHeight, pages.length);
    const inProcess: PageLane = {
      render: (pageNumber) => renderPageImage(doc, pageNumber, settings),
      close: () => undefined,
    };
    if (laneTotal > 1) {
      const started = await Promise.allSettled(
        Array.from({ length: laneTotal }, () =>
          openWorkerLane({ bytes: opened.bytes, name: input.name, password: opened.password, settings }),
        ),
      );
      for (const lane of started) if (lane.status === 'fulfilled') lanes.push(lane.value);
    }
    if (lanes.length === 0) lanes.push(inProcess);
    else {
      // The workers hold the document now: the engine's own copy is only needed again for repairs.
      docOpen = false;
      await doc.destroy();
    }
    const fallbackLane = async (): Promise<PageLane> => {
      const again = await openPdfjs(opened.bytes, { name: input.name, password: opened.password });
      return {
        render: (pageNumber) => renderPageImage(again, pageNumber, settings),
        close: () => void again.destroy(),
      };
    };

    /** A page that failed: once per document, the file's object table is rebuilt and the page tried on it. */
    const retry = async (pageNumber: number, error: Error): Promise<PageImage | undefined> => {
      repaired ??= rewritten(input).then((bytes) => openPdfjs(bytes, { name: input.name }));
      try {
        return await renderPageImage(await repaired, pageNumber, settings);
      } catch (again) {
        if (isFatal(again)) throw again;
        undrawn.push({ page: pageNumber, reason: (again as Error).message || error.message });
        return undefined;
      }
    };

    let done = 0;
    ctx.progress?.(0, pages.length);
    await runInPageOrder(
      pages,
      lanes,
      async (outcome) => {
        const image = 'bytes' in outcome ? outcome : await retry(outcome.pageNumber, outcome.error);
        if (image?.cjkFontMissing) fontless.push(outcome.pageNumber);
        const bytes = image?.bytes;
        if (bytes) {
          if (zip) zip.add(`${name}${pageSuffix(outcome.pageNumber, pageCount)}.${extension}`, bytes);
          else single = bytes;
        }
        ctx.progress?.(++done, pages.length);
      },
      { signal: ctx.signal, isFatal, fallbackLane, perLane: PAGES_IN_FLIGHT_PER_LANE },
    );
    if (undrawn.length === pages.length) {
      const why = undrawn.map((u) => `page ${u.page}: ${u.reason}`).join('; ');
      throw new FolioError('DamagedPdf', `No page of "${input.name}" could be drawn (${why}).`);
    }
    const undrawnNote = undrawn.map((u) => `Page ${u.page} could not be drawn and is left out: ${u.reason}`);
    const fontNote = fontless.length ? [cjkFontNote(fontless)] : [];
    if (!zip) {
      const filename = `${name}${pageSuffix(pages[0], pageCount)}.${extension}`;
      return { bytes: single!, filename, mime, ...(fontNote.length ? { notes: fontNote } : {}) };
    }
    const drawn = pages.length - undrawn.length;
    const kind = format === 'png' ? 'PNG' : 'JPEG';
    const notes = [`${drawn} page${drawn === 1 ? '' : 's'} as ${kind} at ${dpi} dpi`, ...undrawnNote, ...fontNote];
    return { ...(await zip.finish()), filename: `${name}-pages.zip`, mime: 'application/zip', notes };
  } finally {
    for (const lane of lanes) lane.close();
    if (docOpen) await doc.destroy();
    await (await repaired?.catch(() => undefined))?.destroy();
  }
}

async function extractImages(
  input: EngineInput,
  options: Record<string, unknown>,
  ctx: Parameters<Engine>[2],
): Promise<EngineResult> {
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
      const filename = zip.add(
        `${name}${pageSuffix(pageNumber, doc.getPageCount())}-img${String(index).padStart(2, '0')}.${extension}`,
        bytes,
      );
      first ??= { filename, bytes, extension };
    }
    ctx.progress?.(done + 1, pages.length);
  }
  const skippedNote = [...skipped].map(([why, count]) => `${count} skipped (${why})`).join(', ');
  if (!first) {
    throw new FolioError(
      'InvalidInput',
      `No embedded images could be extracted from the chosen pages of ` +
        `"${input.name}"${skippedNote ? ` — ${skippedNote}` : ''}. Choose "Every page to an image" to render the ` +
        `pages instead.`,
    );
  }
  const notes = [
    `${zip.size} image${zip.size === 1 ? '' : 's'} extracted as stored`,
    ...(skippedNote ? [skippedNote] : []),
  ];
  if (zip.size === 1) {
    const mime = first.extension === 'jpg' ? 'image/jpeg' : first.extension === 'png' ? 'image/png' : 'image/jp2';
    return { bytes: first.bytes, filename: first.filename, mime, notes };
  }
  return { ...(await zip.finish()), filename: `${name}-images.zip`, mime: 'application/zip', notes };
}

export const run: Engine = async (inputs, options, ctx) => {
  const input = inputs[0];
  if (!input) throw new FolioError('InvalidInput', 'Please select at least one file');
  return options.mode === 'images' ? extractImages(input, options, ctx) : renderPages(input, options, ctx);
};
