/**
 * One page of a PDF as an image file: drawn by drawPage (pdfjs.ts, the one drawing path) and
 * encoded. The same function runs in-process (Node, one-page jobs) and in each render worker of the
 * pool (render-pool.ts), so a page comes out the same whichever lane drew it.
 *
 * JPEG is encoded by the canvas itself by default — OffscreenCanvas.convertToBlob in a browser
 * (libjpeg-turbo inside the browser, no pixel copy out of the canvas), @napi-rs/canvas in Node —
 * several times faster than MozJPEG in WebAssembly. MozJPEG stays as the "smallest files" choice;
 * PNG goes through OxiPNG (lossless, smaller than the canvas's PNG).
 */
import { drawPage, releaseCanvas, type DrawnPage, type PDFDocumentProxy } from './pdfjs.ts';
import { encodeCanvas } from './page-raster.ts';
import { encodeJpeg, encodePng, makeImageData } from '../image/codecs.ts';
import { pixelLimit } from '../input-limits.ts';
import { FolioError } from '../errors.ts';

/** `jpeg`: the platform's encoder; `jpeg-smallest`: MozJPEG; `png`: OxiPNG. */
export type PageImageFormat = 'jpeg' | 'jpeg-smallest' | 'png';

export interface PageImageSettings {
  dpi: number;
  format: PageImageFormat;
  /** JPEG quality, 1–100. */
  quality: number;
}

/** Width × height in pixels of page `pageNumber` at `dpi`, without drawing it. */
export async function pagePixelSize(doc: PDFDocumentProxy, pageNumber: number, dpi: number): Promise<[number, number]> {
  const page = await doc.getPage(pageNumber);
  const { width, height } = page.getViewport({ scale: dpi / 72 });
  return [Math.max(1, Math.round(width)), Math.max(1, Math.round(height))];
}

/** A page's image file, and whether CJK text on it could not be drawn in its font (DrawnPage). */
export interface PageImage {
  bytes: Uint8Array;
  cjkFontMissing: boolean;
}

/** Draws page `pageNumber` (1-based) at `settings.dpi` on white and returns it encoded. */
export async function renderPageImage(
  doc: PDFDocumentProxy,
  pageNumber: number,
  settings: PageImageSettings,
): Promise<PageImage> {
  const drawn = await drawPageChecked(doc, pageNumber, settings.dpi);
  return { bytes: await encodePage(drawn, settings), cjkFontMissing: drawn.cjkFontMissing };
}

/**
 * A small picture of one page (1-based) whose longer side is `maxPx`, as a JPEG, for the page
 * previews (the engine worker's thumbnail call): the page as a reader shows it, /Rotate applied.
 */
export async function renderThumbnail(doc: PDFDocumentProxy, pageNumber: number, maxPx: number): Promise<PageImage> {
  const page = await doc.getPage(pageNumber);
  const unit = page.getViewport({ scale: 1 });
  const drawn = await drawPage(doc, pageNumber, maxPx / Math.max(unit.width, unit.height, 1));
  try {
    return { bytes: await encodeCanvas(drawn.canvas, 'jpeg', 0.82), cjkFontMissing: drawn.cjkFontMissing };
  } finally {
    releaseCanvas(drawn);
  }
}

async function drawPageChecked(doc: PDFDocumentProxy, pageNumber: number, dpi: number): Promise<DrawnPage> {
  const [width, height] = await pagePixelSize(doc, pageNumber, dpi);
  if (width * height > pixelLimit()) {
    throw new FolioError(
      'TooLarge',
      `Page ${pageNumber} would be ${width} × ${height} pixels at ${dpi} dpi — too large. Choose a lower resolution.`,
    );
  }
  return drawPage(doc, pageNumber, dpi / 72);
}

async function encodePage(drawn: DrawnPage, { format, quality }: PageImageSettings): Promise<Uint8Array> {
  try {
    if (format === 'jpeg') return await encodeCanvas(drawn.canvas, 'jpeg', quality / 100);
    const { data } = drawn.context.getImageData(0, 0, drawn.width, drawn.height);
    releaseCanvas(drawn);
    const image = makeImageData(data, drawn.width, drawn.height);
    // OxiPNG level 1: most of level 2's gain, far faster. Baseline MozJPEG: a third faster than
    // progressive for ~15 % more bytes, still the smallest of the three encoders.
    return format === 'png'
      ? await encodePng(image, { level: 1 })
      : await encodeJpeg(image, { quality, progressive: false });
  } finally {
    releaseCanvas(drawn);
  }
}
