/**
 * pdf.js for engines, in a browser worker and in Node alike: opening a document (with a password),
 * rendering a page to RGBA pixels, and reading its text. pdfjs-dist 5 (the 6.x line needs Node 22).
 *
 * In a worker there is no `document`, so pages render on OffscreenCanvas through our own
 * CanvasFactory, and pdf.js gets its own nested worker (otherwise its "fake worker" posts a stray
 * message into ours). In Node, pdf.js renders with @napi-rs/canvas by itself. Character maps,
 * standard fonts and the JPX/JBIG2 decoders are served from our own origin (/pdfjs/…, copied at
 * build time by vite.config.ts) or read from node_modules in Node.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api';
import { FolioError, invalidPassword, passwordRequired } from './errors.ts';
import { isNode } from './wasm.ts';
import { pixelLimit } from './input-limits.ts';

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type { PDFDocumentProxy };

let pdfjsPromise: Promise<Pdfjs> | undefined;
let assetBase: string | undefined;

export function loadPdfjs(): Promise<Pdfjs> {
  pdfjsPromise ??= (async () => {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    if (isNode) {
      const { createRequire } = await import(/* @vite-ignore */ 'node:module');
      const { dirname } = await import(/* @vite-ignore */ 'node:path');
      const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
      assetBase = `${root}/`;
    } else {
      const { default: workerUrl } = await import('pdfjs-dist/legacy/build/pdf.worker.mjs?url');
      pdfjs.GlobalWorkerOptions.workerPort = new Worker(workerUrl, { type: 'module', name: 'pdfjs' });
      assetBase = `${self.location.origin}/pdfjs/`;
    }
    return pdfjs;
  })();
  return pdfjsPromise;
}

/** Canvases for pdf.js inside a Web Worker. */
class OffscreenCanvasFactory {
  create(width: number, height: number) {
    if (width <= 0 || height <= 0) throw new Error('Invalid canvas size');
    const canvas = new OffscreenCanvas(width, height);
    return { canvas, context: canvas.getContext('2d', { willReadFrequently: true }) };
  }
  reset(target: { canvas: OffscreenCanvas }, width: number, height: number) {
    target.canvas.width = width;
    target.canvas.height = height;
  }
  destroy(target: { canvas: OffscreenCanvas | null; context: unknown }) {
    if (target.canvas) target.canvas.width = target.canvas.height = 0;
    target.canvas = null;
    target.context = null;
  }
}

/**
 * Opens a PDF with pdf.js. The bytes are copied: pdf.js transfers what it is given to its worker.
 * Throws PasswordRequired / InvalidPassword / InvalidPdf as named errors.
 */
export async function openPdfjs(bytes: Uint8Array, { name = 'document.pdf', password }: { name?: string; password?: string } = {}): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    password,
    cMapUrl: `${assetBase}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${assetBase}standard_fonts/`,
    wasmUrl: `${assetBase}wasm/`,
    iccUrl: `${assetBase}iccs/`,
    isEvalSupported: false,
    verbosity: 0,
    // An image over the device's pixel budget is left undrawn instead of allocating its canvas
    // (a 30,000 × 30,000 image failed with "Create skia surface failed"): issue #21.
    maxImageSize: pixelLimit(),
    // In a worker there is no `document`: pdf.js would read document.baseURI to decide whether its
    // own worker may fetch the cMaps/fonts/wasm; they are absolute same-origin URLs, so it may.
    ...(isNode ? {} : { CanvasFactory: OffscreenCanvasFactory, isOffscreenCanvasSupported: true, useWorkerFetch: true }),
  } as Parameters<Pdfjs['getDocument']>[0]);
  try {
    return await task.promise;
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

/** Renders one page (1-based) at `dpi` on a white background. */
export async function renderPage(doc: PDFDocumentProxy, pageNumber: number, dpi: number): Promise<RenderedPage> {
  const page = await doc.getPage(pageNumber);
  const viewport = page.getViewport({ scale: dpi / 72 });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const factory = isNode
    ? ((doc as unknown as { canvasFactory: OffscreenCanvasFactory }).canvasFactory)
    : new OffscreenCanvasFactory();
  const { canvas, context } = factory.create(width, height) as { canvas: OffscreenCanvas; context: OffscreenCanvasRenderingContext2D };
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as unknown as CanvasRenderingContext2D, viewport, background: 'white' }).promise;
  const { data } = context.getImageData(0, 0, width, height);
  page.cleanup();
  factory.destroy({ canvas, context });
  return { width, height, data };
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

/**
 * A small picture of one page (1-based) whose longer side is `maxPx`, as a JPEG Blob, rendered on
 * OffscreenCanvas in a worker (browser only: Node callers use renderPage). Shows the page as a
 * reader does, i.e. with its /Rotate applied.
 */
export async function renderThumbnail(doc: PDFDocumentProxy, pageNumber: number, maxPx: number): Promise<Blob> {
  const page = await doc.getPage(pageNumber);
  const unit = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: maxPx / Math.max(unit.width, unit.height, 1) });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as unknown as CanvasRenderingContext2D, viewport, background: 'white' }).promise;
  page.cleanup();
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.82 });
  canvas.width = canvas.height = 0;
  return blob;
}
