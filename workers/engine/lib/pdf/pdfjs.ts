/**
 * pdf.js for engines, in a browser worker and in Node alike: opening a document (with a password),
 * rendering a page to RGBA pixels, and reading its text. pdfjs-dist 5 (the 6.x line needs Node 22).
 *
 * In a worker there is no `document`, and pdf.js's defaults for a browser assume one:
 * - fonts: pdf.js would load each embedded font as a FontFace on `document.fonts` (or a <style>
 *   rule); without a document that fails and text comes out as empty boxes or not at all. With
 *   `disableFontFace` pdf.js turns every glyph into a path itself (as it does in Node), which a
 *   worker's OffscreenCanvas draws like any other path; non-embedded fonts get the standard font
 *   data (no system fonts: what a worker could find there differs from one device to the next);
 * - filters: soft masks and transfer functions become SVG filters in the document, addressed by
 *   `document.URL` (the "reading 'URL'" crash) — WorkerFilterFactory does that work on pixels;
 * - canvases: pages render on OffscreenCanvas through our own CanvasFactory.
 * pdf.js gets its own nested worker (otherwise its "fake worker" posts a stray message into ours).
 * In Node, pdf.js draws on @napi-rs/canvas (loaded as pdf.js loads it) and turns glyphs into paths
 * too. In both, Chinese/Japanese/Korean text in fonts a PDF does not embed would come out as empty
 * boxes: the canvases draw it in the bundled Noto fonts instead (pdfjs-cjk-fallback.ts).
 * Character maps, standard fonts and the JPX/JBIG2 decoders are served from our own origin
 * (/pdfjs/…, copied at build time by vite.config.ts) or read from node_modules in Node.
 */
import type { DocumentInitParameters, PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api';
import { FolioError, invalidPassword, passwordRequired } from '../errors.ts';
import { isNode } from '../wasm.ts';
import { pixelLimit } from '../input-limits.ts';
import {
  CanvasFactoryBase,
  type CanvasTarget,
  isIdleCanvas,
  keepIdleCanvas,
  OffscreenCanvasFactory,
  PixelFilterFactory,
  takeIdleCanvas,
} from './pdfjs-offscreen.ts';
import {
  fontlessGlyphs,
  loadMissedFonts,
  missedGlyphs,
  retryUnavailableFonts,
  withCjkFallback,
} from './pdfjs-cjk-fallback.ts';

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type { PDFDocumentProxy };

let pdfjsPromise: Promise<Pdfjs> | undefined;
let pdfjsModule: Pdfjs | undefined;
let assetBase: string | undefined;
/**
 * pdf.js's worker, shared by every document of this realm and owned by none. A document given no
 * worker takes the port's cached one and destroys it when it is destroyed: closing one file's
 * thumbnails while another opened failed the other ("the worker is being destroyed", listed as
 * damaged) or left it without a worker.
 */
let sharedWorker: InstanceType<Pdfjs['PDFWorker']> | undefined;

/** The part of @napi-rs/canvas used here. */
interface NodeCanvasModule {
  createCanvas(width: number, height: number): { width: number; height: number; getContext(kind: '2d'): unknown };
}
/** @napi-rs/canvas as pdf.js requires it (one module: pdf.js's Path2D objects must be its own). */
let nodeCanvas: NodeCanvasModule | undefined;

/** A browser context without a DOM (a Web Worker): where pdf.js's document-based defaults fail. */
function inWorker(): boolean {
  return !isNode && typeof document === 'undefined';
}

export function loadPdfjs(): Promise<Pdfjs> {
  pdfjsPromise ??= (async () => {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    if (isNode) {
      const { createRequire } = await import(/* @vite-ignore */ 'node:module');
      const { dirname } = await import(/* @vite-ignore */ 'node:path');
      const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
      assetBase = `${root}/`;
      nodeCanvas = createRequire(`${root}/legacy/build/pdf.mjs`)('@napi-rs/canvas') as NodeCanvasModule;
    } else {
      const { default: workerUrl } = await import('pdfjs-dist/legacy/build/pdf.worker.mjs?url');
      pdfjs.GlobalWorkerOptions.workerPort = new Worker(workerUrl, { type: 'module', name: 'pdfjs' });
      sharedWorker = pdfjs.PDFWorker.create({ port: pdfjs.GlobalWorkerOptions.workerPort });
      assetBase = `${self.location.origin}/pdfjs/`;
    }
    pdfjsModule = pdfjs;
    return pdfjs;
  })();
  return pdfjsPromise;
}

/** Canvases for documents opened in a worker: OffscreenCanvas, drawing CJK text of missing fonts. */
class WorkerCanvasFactory extends OffscreenCanvasFactory {
  override create(
    width: number,
    height: number,
  ): { canvas: OffscreenCanvas; context: OffscreenCanvasRenderingContext2D } {
    const target = super.create(width, height);
    withCjkFallback(target.context);
    return target;
  }
}

/** The CanvasFactory interface of pdf.js on @napi-rs/canvas, drawing CJK text of missing fonts. */
class NodeCanvasFactory extends CanvasFactoryBase {
  create(width: number, height: number): CanvasTarget {
    if (width <= 0 || height <= 0) throw new Error('Invalid canvas size');
    const canvas = nodeCanvas!.createCanvas(width, height);
    return { canvas, context: withCjkFallback(canvas.getContext('2d') as OffscreenCanvasRenderingContext2D) };
  }
}

/**
 * The canvases pdf.js draws on. In a page (the main thread) pdf.js loads fonts as FontFaces and
 * draws every glyph with fillText, so its contexts are left as they are there.
 */
function canvasFactory(): object {
  if (isNode) return NodeCanvasFactory;
  return inWorker() ? WorkerCanvasFactory : OffscreenCanvasFactory;
}

/**
 * Opens a PDF with pdf.js. The bytes are copied: pdf.js transfers what it is given to its worker.
 * Throws PasswordRequired / InvalidPassword / InvalidPdf as named errors.
 */
export async function openPdfjs(
  bytes: Uint8Array,
  options: { name?: string; password?: string } = {},
): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({ ...documentParams(options.password), data: bytes.slice() });
  return openWith(task.promise, options.name);
}

/** Bytes pdf.js asks for at a time when it reads a file by ranges (its own default is 64 KiB). */
const RANGE_CHUNK_BYTES = 256 * 1024;

/**
 * Opens a PDF that stays in a Blob (a picked File), pdf.js reading only the byte ranges it needs
 * (its PDFDataRangeTransport, without fetching the rest in the background): the page sizes and a
 * few page pictures of a 1 GB file cost megabytes, not a copy of the file held while it is open.
 * A damaged file whose object table pdf.js must rebuild is read whole, by pdf.js's own choice.
 * Errors as openPdfjs.
 */
export async function openPdfjsBlob(
  blob: Blob,
  options: { name?: string; password?: string } = {},
): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfjs();
  const transport = new pdfjs.PDFDataRangeTransport(blob.size, null);
  let failRead: (error: Error) => void = () => undefined;
  const unreadable = new Promise<never>((_, reject) => (failRead = reject));
  unreadable.catch(() => undefined);
  transport.requestDataRange = (begin: number, end: number) => {
    blob
      .slice(begin, end)
      .arrayBuffer()
      .then(
        (buffer) => transport.onDataRange(begin, new Uint8Array(buffer)),
        // The file changed or went away on disk: end the document rather than leave pdf.js waiting.
        () => {
          failRead(new Error('the file can no longer be read (changed or removed since it was chosen)'));
          void task.destroy();
        },
      );
  };
  const task = pdfjs.getDocument({
    ...documentParams(options.password),
    range: transport,
    rangeChunkSize: RANGE_CHUNK_BYTES,
    disableAutoFetch: true,
  });
  return openWith(Promise.race([task.promise, unreadable]), options.name);
}

/** What every document is opened with, however its bytes arrive. */
function documentParams(password: string | undefined): DocumentInitParameters {
  return {
    password,
    worker: sharedWorker,
    cMapUrl: `${assetBase}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${assetBase}standard_fonts/`,
    wasmUrl: `${assetBase}wasm/`,
    iccUrl: `${assetBase}iccs/`,
    isEvalSupported: false,
    verbosity: 0,
    // An image over the device's pixel budget is left undrawn instead of allocating its canvas
    // (a 30,000 × 30,000 image failed with "Create skia surface failed").
    maxImageSize: pixelLimit(),
    // In a browser, pdf.js would read document.baseURI to decide whether its own worker may fetch
    // the cMaps/fonts/wasm; they are absolute same-origin URLs, so it may.
    CanvasFactory: canvasFactory(),
    ...(isNode ? {} : { isOffscreenCanvasSupported: true, useWorkerFetch: true }),
    ...(inWorker() ? { disableFontFace: true, useSystemFonts: false, FilterFactory: PixelFilterFactory } : {}),
  } as DocumentInitParameters;
}

async function openWith(loading: Promise<PDFDocumentProxy>, name = 'document.pdf'): Promise<PDFDocumentProxy> {
  retryUnavailableFonts();
  try {
    return await loading;
  } catch (error) {
    const errorName = (error as { name?: string }).name;
    const code = (error as { code?: number }).code;
    if (errorName === 'PasswordException') {
      throw code === 2 /* INCORRECT_PASSWORD */ ? invalidPassword() : passwordRequired(name);
    }
    throw new FolioError('InvalidPdf', `"${name}" could not be read: ${(error as Error).message}`);
  }
}

export interface RenderedPage {
  width: number;
  height: number;
  /** RGBA, width × height × 4 bytes. */
  data: Uint8ClampedArray;
}

/** A canvas with its 2-D context, in the kind the opened document's pdf.js draws on. */
export interface PageCanvasTarget {
  canvas: OffscreenCanvas;
  context: OffscreenCanvasRenderingContext2D;
}

/**
 * A canvas for pdf.js to draw on, from the document's own factory (canvasFactory() above): in Node
 * @napi-rs/canvas as pdf.js loaded it, in a browser an OffscreenCanvas whose context applies soft
 * masks without a document — a page canvas of the same size kept from an earlier page when there is
 * one (takeIdleCanvas in pdfjs-offscreen.ts). Give it back with releaseCanvas.
 */
export function createCanvas(doc: PDFDocumentProxy, width: number, height: number): PageCanvasTarget {
  const factory = (doc as unknown as { canvasFactory: OffscreenCanvasFactory }).canvasFactory;
  if (isNode) return factory.create(width, height) as PageCanvasTarget;
  const target = takeIdleCanvas(factory.constructor, width, height) ?? factory.create(width, height);
  pageCanvases.set(target.canvas, { kind: factory.constructor, target: target as PageCanvasTarget });
  return target as PageCanvasTarget;
}

type SizedCanvas = { width: number; height: number };

/** Each canvas createCanvas made in a browser, with its factory class: it may be kept for reuse. */
const pageCanvases = new WeakMap<object, { kind: object; target: PageCanvasTarget }>();

/** Frees a canvas made by createCanvas, or keeps it for the next page of its size. */
export function releaseCanvas(target: { canvas: SizedCanvas } | SizedCanvas): void {
  const canvas = 'canvas' in target ? target.canvas : target;
  const made = pageCanvases.get(canvas);
  if (made) {
    pageCanvases.delete(canvas);
    keepIdleCanvas(made.kind, made.target);
    return;
  }
  // Released twice (page-image.ts frees a page before encoding PNG): the kept canvas stays kept.
  if (!isIdleCanvas(canvas)) discardCanvas(canvas);
}

/** Frees a canvas's pixels, never keeping it: after a failed drawing its state is unknown. */
function discardCanvas(canvas: SizedCanvas): void {
  pageCanvases.delete(canvas);
  canvas.width = 0;
  canvas.height = 0;
}

export interface DrawnPage extends PageCanvasTarget {
  width: number;
  height: number;
  /**
   * The page has CJK text in a font the PDF does not embed, and the bundled font for it could not
   * be loaded (offline before the optional CJK fonts were saved): the canvas drew it (empty boxes).
   */
  cjkFontMissing: boolean;
}

/** Kinds of drawing a picture of a page can leave out. */
export type DrawnKind = 'text' | 'images';

export interface DrawOptions {
  /** Left out: 'text' (an export writes it again as editable text), 'images' (placed as pictures). */
  skip?: DrawnKind[];
}

/** The operators that draw each kind, merged forms included (pdf.js merges runs of glyphs and images). */
function operatorsOf(OPS: Pdfjs['OPS'], kinds: DrawnKind[] = []): Set<number> {
  const text = [OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText];
  const images = [
    OPS.paintImageXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintInlineImageXObject,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageMaskXObject,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintImageMaskXObjectRepeat,
    OPS.paintSolidColorImageMask,
  ];
  return new Set(kinds.flatMap((kind) => (kind === 'text' ? text : images)));
}

interface OperatorListHolder {
  _internalRenderTask?: { operatorList?: { fnArray: number[] } };
}

/** Drawings begun so far and drawings under way in this realm, to tell whose characters were counted. */
let drawingsStarted = 0;
let drawingsInFlight = 0;

/**
 * The one way Folio draws a page (1-based) with pdf.js, on white at `scale` pixels per point:
 * every engine (images, thumbnails, OCR, Office exports, previews) comes through here, so each
 * gets the same fonts, soft masks and annotations. Annotations are drawn from their appearance
 * streams, form fields included (AnnotationMode.ENABLE: there is no HTML form layer on top of a
 * picture), as a reader shows them on screen.
 */
export async function drawPage(
  doc: PDFDocumentProxy,
  pageNumber: number,
  scale: number,
  options: DrawOptions = {},
): Promise<DrawnPage> {
  const pdfjs = pdfjsModule ?? (await loadPdfjs());
  const page = await doc.getPage(pageNumber);
  const drawing = ++drawingsStarted;
  drawingsInFlight++;
  try {
    // CJK text in a font the PDF does not embed, met before its bundled font was loaded, was left
    // out: the page is drawn again once the font is (pdfjs-cjk-fallback.ts).
    for (let redraws = 0; ; redraws++) {
      const missed = missedGlyphs();
      const fontless = fontlessGlyphs();
      const overlapped = drawingsInFlight > 1;
      const drawn = await drawOnce(pdfjs, doc, page, scale, options);
      if (missedGlyphs() === missed || redraws === REDRAWS_FOR_FONTS) {
        // Text inside a transparency group is drawn on another canvas of pdf.js's: the count over
        // all canvases is this page's own when no other page was drawn meanwhile.
        const alone = !overlapped && drawingsInFlight === 1 && drawingsStarted === drawing;
        const { fontlessBefore, ...page } = drawn;
        const cjkFontMissing = fontlessGlyphs(drawn.context) > fontlessBefore || (alone && fontlessGlyphs() > fontless);
        return { ...page, cjkFontMissing };
      }
      releaseCanvas(drawn);
      await loadMissedFonts();
    }
  } finally {
    drawingsInFlight--;
    page.cleanup();
  }
}

/** At most one redraw per bundled CJK font: Noto Sans SC, then Noto Sans KR for what SC lacks. */
const REDRAWS_FOR_FONTS = 2;

type PDFPageProxy = Awaited<ReturnType<PDFDocumentProxy['getPage']>>;

async function drawOnce(
  pdfjs: Pdfjs,
  doc: PDFDocumentProxy,
  page: PDFPageProxy,
  scale: number,
  options: DrawOptions,
): Promise<Omit<DrawnPage, 'cjkFontMissing'> & { fontlessBefore: number }> {
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const target = createCanvas(doc, width, height);
  const { canvas, context } = target;
  // A kept canvas (createCanvas) has counted the characters of the pages drawn on it before.
  const fontlessBefore = fontlessGlyphs(context);
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  const skipped = operatorsOf(pdfjs.OPS, options.skip);
  // The filter gets an index into the list being drawn, which pdf.js has optimised (runs of glyphs,
  // images and paths merged): an index from getOperatorList() names another operation there, so
  // the kind is read from the drawn list itself.
  let drawn: { fnArray: number[] } | undefined;
  try {
    const task = page.render({
      canvas: canvas as unknown as HTMLCanvasElement,
      canvasContext: context as unknown as CanvasRenderingContext2D,
      viewport,
      background: 'white',
      annotationMode: pdfjs.AnnotationMode.ENABLE,
      ...(skipped.size ? { operationsFilter: (index: number) => !skipped.has(drawn!.fnArray[index]) } : {}),
    } as Parameters<typeof page.render>[0]);
    drawn = (task as unknown as OperatorListHolder)._internalRenderTask?.operatorList;
    if (skipped.size && !drawn) throw new Error('This pdf.js version does not let a drawing leave out text or images');
    await task.promise;
  } catch (error) {
    discardCanvas(canvas);
    throw error;
  }
  return { canvas, context, width, height, fontlessBefore };
}

/** Renders one page (1-based) at `dpi` on a white background, as RGBA pixels. */
export async function renderPage(doc: PDFDocumentProxy, pageNumber: number, dpi: number): Promise<RenderedPage> {
  const drawn = await drawPage(doc, pageNumber, dpi / 72);
  const { data } = drawn.context.getImageData(0, 0, drawn.width, drawn.height);
  releaseCanvas(drawn);
  return { width: drawn.width, height: drawn.height, data };
}

/** The page's text, items joined in content order with line breaks where pdf.js reports them. */
export async function pageText(doc: PDFDocumentProxy, pageNumber: number): Promise<string> {
  const page = await doc.getPage(pageNumber);
  const content = await page.getTextContent();
  let text = '';
  for (const item of content.items) {
    if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
  }
  return text;
}

export interface PageInfo {
  /** Size in PDF points as displayed, i.e. after the page's own /Rotate. */
  width: number;
  height: number;
  /** The page's /Rotate (0, 90, 180, 270). */
  rotate: number;
}

/** Size and rotation of every page (cheap: no rendering). */
export async function pageInfos(doc: PDFDocumentProxy): Promise<PageInfo[]> {
  const infos: PageInfo[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const viewport = page.getViewport({ scale: 1 });
    infos.push({ width: viewport.width, height: viewport.height, rotate: page.rotate });
  }
  return infos;
}
