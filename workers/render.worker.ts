/// <reference lib="webworker" />
/**
 * A render worker of the page pool (workers/engine/lib/pdf/render-pool.ts): started by the engine
 * worker as a nested worker, it opens the document once with pdf.js and draws and encodes the
 * pages it is asked for (page-image.ts), or the pictures OCR reads (ocr/ocr-image.ts). Terminated
 * with its engine worker (cancel, watchdog) or when the job ends.
 */
import * as Comlink from 'comlink';
import { openPdfjs, type PDFDocumentProxy } from './engine/lib/pdf/pdfjs.ts';
import { renderPageImage, type PageImage, type PageImageSettings } from './engine/lib/pdf/page-image.ts';
import { renderOcrImage, type OcrImage } from './engine/lib/ocr/ocr-image.ts';

let doc: PDFDocumentProxy | undefined;

const api = {
  /** Opens the document (the bytes pdf.js already opened in the engine worker); returns its page count. */
  async open(bytes: Uint8Array, name: string, password?: string): Promise<number> {
    doc = await openPdfjs(bytes, { name, password });
    return doc.numPages;
  },

  /**
   * One page (1-based) drawn and encoded, with whether CJK text on it lacked its font; the image's
   * buffer is transferred, not copied.
   */
  async render(pageNumber: number, settings: PageImageSettings): Promise<PageImage> {
    if (!doc) throw new Error('No document is open in this render worker');
    const image = await renderPageImage(doc, pageNumber, settings);
    return Comlink.transfer(image, [image.bytes.buffer as ArrayBuffer]);
  },

  /** One page (1-based) drawn as OCR reads it (ocr-image.ts), PNG; transferred, not copied. */
  async ocrImage(pageNumber: number): Promise<OcrImage> {
    if (!doc) throw new Error('No document is open in this render worker');
    const image = await renderOcrImage(doc, pageNumber);
    return Comlink.transfer(image, [image.png.buffer as ArrayBuffer]);
  },
};

export type RenderWorkerApi = typeof api;
Comlink.expose(api);
