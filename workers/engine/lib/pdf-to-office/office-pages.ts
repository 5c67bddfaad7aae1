/**
 * What the three office exports share: opening the input (decrypting / repairing through openPdf),
 * choosing pages, reading each page's layout with progress and Cancel between pages, and — when
 * asked — recognising the text of scanned pages with OCR.
 */
import type { EngineContext, EngineInput, EngineOptions } from '../types.ts';
import { FolioError, throwIfAborted } from '../errors.ts';
import { openPdf } from '../pdf/pdf-open.ts';
import { openPdfjs, type PDFDocumentProxy } from '../pdf/pdfjs.ts';
import { cjkFontNote } from '../pdf/pdfjs-cjk-fallback.ts';
import { parsePageRanges } from '../../../../shared/page-range.ts';
import { readPageLayout, type PageLayout } from '../pdf/pdf-layout.ts';
import { withoutOverprints } from './overprint.ts';
import type { RecognisedPage } from '../ocr/ocr-pipeline.ts';

export interface OfficeSource {
  doc: PDFDocumentProxy;
  layouts: PageLayout[];
  /** Pages whose text came from OCR. */
  ocrPages: number[];
  /** Pages that look scanned but were not recognised (OCR off). */
  scannedPages: number[];
  notes: string[];
  /** Reports page `index` (0-based) of the writing half as done. */
  written(index: number): void;
}

/** Image-only page: (almost) no text, and pictures cover most of it. */
export function looksScanned(layout: PageLayout): boolean {
  const chars = layout.items.reduce((n, i) => n + i.text.trim().length, 0);
  if (chars > 10) return false;
  const pageArea = layout.width * layout.height;
  const imageArea = layout.images.reduce((a, b) => a + Math.min(b.width * b.height, pageArea), 0);
  return imageArea >= pageArea * 0.3;
}

export interface ReadOptions {
  /** Page-range text ('' = all). */
  pages?: string;
  ocr?: boolean;
  /** OCR language code of shared/ocr-languages.ts ('eng' when absent). */
  ocrLanguage?: string;
  /** Upper bound on pages read (the corpus suite caps work); undefined = all. */
  maxPages?: number;
  /** Keep copies of text drawn over itself (PowerPoint rebuilds them as the boxes they were). */
  keepOverprints?: boolean;
  /** Read pages as printed spreadsheets (readPageLayout's `cells`). */
  cells?: boolean;
  /** Render workers drawing scanned pages for OCR (tests, bench); undefined = as the device affords. */
  renderWorkers?: number;
  /** Tesseract workers (bench); undefined = the default of ocr-pipeline.ts. */
  recognisers?: number;
  /** Scanned pages drawn ahead of recognition (bench); undefined = the default of ocr-pipeline.ts. */
  ocrAhead?: number;
}

/** Page `pageNumber`'s layout; a page that cannot be read is noted and left empty. */
async function readLayout(
  doc: PDFDocumentProxy,
  pageNumber: number,
  options: ReadOptions,
  notes: string[],
): Promise<PageLayout> {
  let layout: PageLayout;
  try {
    layout = await readPageLayout(doc, pageNumber, { cells: options.cells });
  } catch (error) {
    if ((error as Error).name === 'Cancelled') throw error;
    notes.push(`Page ${pageNumber} could not be read (${(error as Error).message}); it was left empty.`);
    const viewport = (await doc.getPage(pageNumber)).getViewport({ scale: 1 });
    layout = {
      pageNumber,
      width: viewport.width,
      height: viewport.height,
      items: [],
      rulings: [],
      images: [],
      hasVectorArt: false,
    };
  }
  if (!options.keepOverprints) layout.items = withoutOverprints(layout.items);
  return layout;
}

/** Layouts read ahead of the page being finished: enough to find the next scanned pages to draw. */
const MAX_LAYOUTS_AHEAD = 32;

export async function readOfficeSource(
  inputs: EngineInput[],
  options: ReadOptions,
  ctx: EngineContext,
): Promise<OfficeSource> {
  const input = inputs[0];
  if (!input) throw new FolioError('InvalidInput', 'Please select at least one file');
  // An unknown OCR language is refused before any work (only when OCR is asked for).
  const ocr = options.ocr ? await import('../ocr/ocr.ts') : undefined;
  const ocrLanguage = ocr?.ocrLanguageFor(options.ocrLanguage);
  const opened = await openPdf(input);
  throwIfAborted(ctx.signal);
  const doc = await openPdfjs(opened.bytes, { name: input.name });
  const notes: string[] = [];
  let pageNumbers = [...new Set(parsePageRanges(options.pages ?? '', doc.numPages))];
  if (options.maxPages && pageNumbers.length > options.maxPages) pageNumbers = pageNumbers.slice(0, options.maxPages);
  const layouts: PageLayout[] = [];
  const ocrPages: number[] = [];
  const scannedPages: number[] = [];
  /** Scanned pages whose picture drew CJK text without its font (OCR read empty boxes there). */
  const fontlessPages: number[] = [];
  // Progress: reading (and recognising) the pages is the first half, writing them the second.
  const total = pageNumbers.length * 2;
  ctx.progress?.(0, total);
  // Scanned pages are drawn ahead (a few at a time) while tesseract recognises an earlier one.
  let pipeline: import('../ocr/ocr-pipeline.ts').OcrPipeline | undefined;
  const read: Array<{ layout: PageLayout; recognised?: Promise<RecognisedPage> }> = [];
  let nextToRead = 0;
  const readNext = async (finished: number) => {
    const pageNumber = pageNumbers[nextToRead++];
    const layout = await readLayout(doc, pageNumber, options, notes);
    let recognised: Promise<RecognisedPage> | undefined;
    if (ocr && ocrLanguage && looksScanned(layout)) {
      // The first scanned page starts tesseract; the progress line says while its data loads.
      const { openOcrPipeline } = await import('../ocr/ocr-pipeline.ts');
      pipeline ??= await openOcrPipeline(
        {
          doc,
          bytes: opened.bytes,
          name: input.name,
          signal: ctx.signal,
          renderWorkers: options.renderWorkers,
          recognisers: options.recognisers,
          ahead: options.ocrAhead,
          createRecogniser: () =>
            ocr.createRecogniser(ctx.signal, ocrLanguage.code, (status) => ctx.progress?.(finished, total, status)),
        },
        pageNumber,
      );
      recognised = pipeline.recognise(pageNumber);
      recognised.catch(() => undefined);
    }
    read.push({ layout, recognised });
  };
  const startedAhead = () => read.filter((entry) => entry.recognised).length;
  try {
    for (let index = 0; index < pageNumbers.length; index++) {
      throwIfAborted(ctx.signal);
      if (read.length === 0) await readNext(index);
      while (
        pipeline &&
        nextToRead < pageNumbers.length &&
        startedAhead() <= pipeline.ahead &&
        nextToRead - index < MAX_LAYOUTS_AHEAD
      ) {
        throwIfAborted(ctx.signal);
        await readNext(index);
      }
      const { layout, recognised } = read.shift()!;
      if (recognised) {
        const page = await recognised;
        layout.items = page.items;
        if (page.cjkFontMissing) fontlessPages.push(layout.pageNumber);
        layout.ocr = true;
        ocrPages.push(layout.pageNumber);
      } else if (looksScanned(layout)) scannedPages.push(layout.pageNumber);
      layouts.push(layout);
      ctx.progress?.(index + 1, total);
    }
  } finally {
    await pipeline?.close();
  }
  if (ocrPages.length)
    notes.push(
      `Text recognised (OCR, ${ocrLanguage?.name ?? 'English'}) on ${ocrPages.length} scanned ` +
        `page${ocrPages.length === 1 ? '' : 's'}.`,
    );
  if (fontlessPages.length) notes.push(cjkFontNote(fontlessPages));
  if (scannedPages.length) {
    notes.push(
      `${scannedPages.length} page${scannedPages.length === 1 ? ' looks' : 's look'} scanned (no text layer). ` +
        `Tick "Recognise text in scanned pages" to make ${scannedPages.length === 1 ? 'it' : 'them'} editable.`,
    );
  }
  if (options.maxPages && doc.numPages > options.maxPages && !options.pages)
    notes.push(`Only the first ${options.maxPages} pages were converted.`);
  return {
    doc,
    layouts,
    ocrPages,
    scannedPages,
    notes,
    written: (index) => ctx.progress?.(layouts.length + index + 1, layouts.length * 2),
  };
}

/** Options every office export reads. */
export function commonOptions(options: EngineOptions): ReadOptions {
  return {
    pages: typeof options.pages === 'string' ? options.pages : '',
    ocr: options.ocr === true || options.ocr === 'true',
    ocrLanguage: typeof options.ocrLanguage === 'string' ? options.ocrLanguage : undefined,
    maxPages: typeof options.maxPages === 'number' ? options.maxPages : undefined,
    renderWorkers: countOption(options.renderWorkers),
    recognisers: countOption(options.ocrWorkers),
    ocrAhead: countOption(options.ocrAhead, 0),
  };
}

/** A count from the options (a number, or a form field's text), `least`–16; undefined when absent or not one. */
function countOption(value: unknown, least = 1): number | undefined {
  const count = Number(value);
  const given = value !== undefined && value !== '' && Number.isInteger(count) && count >= least;
  return given ? Math.min(count, 16) : undefined;
}
