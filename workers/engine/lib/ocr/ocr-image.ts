/**
 * The picture of a page that tesseract reads: the page drawn at 300 dpi (less for pages so big
 * that a side would pass MAX_SIDE pixels) and encoded as PNG. Drawn in the engine worker or in a
 * render worker of the pool (workers/render.worker.ts), the same code either way; kept apart from
 * ./ocr.ts so a render worker does not load tesseract's side.
 */
import type { PDFDocumentProxy } from '../pdf/pdfjs.ts';
import { encodeCanvas, releaseCanvas, renderPageCanvas } from '../pdf/page-raster.ts';

/** Resolution scans are read at; bigger pages are scaled down to stay under MAX_SIDE pixels a side. */
const OCR_DPI = 300;
const MAX_SIDE = 4200;

/** The resolution a page of `width` × `height` points is read at. */
export function ocrDpi(width: number, height: number): number {
  return Math.min(OCR_DPI, (MAX_SIDE / Math.max(width, height)) * 72);
}

/** Pixels per point of page `pageNumber`'s OCR picture. */
export async function ocrScale(doc: PDFDocumentProxy, pageNumber: number): Promise<number> {
  const { width, height } = (await doc.getPage(pageNumber)).getViewport({ scale: 1 });
  return ocrDpi(width, height) / 72;
}

/** The picture OCR reads, and whether CJK text on it could not be drawn in its font (DrawnPage). */
export interface OcrImage {
  png: Uint8Array;
  cjkFontMissing: boolean;
}

/** Page `pageNumber` (1-based) drawn for OCR, as PNG. */
export async function renderOcrImage(doc: PDFDocumentProxy, pageNumber: number): Promise<OcrImage> {
  const canvas = await renderPageCanvas(doc, pageNumber, (await ocrScale(doc, pageNumber)) * 72);
  try {
    return { png: await encodeCanvas(canvas.canvas, 'png'), cjkFontMissing: canvas.cjkFontMissing };
  } finally {
    releaseCanvas(canvas.canvas);
  }
}
