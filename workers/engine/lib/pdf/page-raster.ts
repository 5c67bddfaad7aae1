/**
 * Page pictures for the office exports: a page rendered (optionally without its text, so editable
 * text boxes can sit on top of it), regions cut out of it (images placed in Word/PowerPoint) and
 * encoded as PNG or JPEG by the canvas itself — OffscreenCanvas.convertToBlob in a worker,
 * @napi-rs/canvas's encode in Node. (renderPage in pdfjs.ts returns pixels; here we need the canvas.)
 */
import { createCanvas, drawPage, type DrawnKind, type PDFDocumentProxy } from './pdfjs.ts';
import { isNode } from '../wasm.ts';

interface AnyCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): unknown;
}

export interface PageCanvas {
  doc: PDFDocumentProxy;
  canvas: AnyCanvas;
  /** Pixels per PDF point. */
  scale: number;
  width: number;
  height: number;
  /** CJK text on the page could not be drawn in its font (DrawnPage in pdfjs.ts). */
  cjkFontMissing: boolean;
}

function newCanvas(doc: PDFDocumentProxy, width: number, height: number): AnyCanvas {
  return createCanvas(doc, width, height).canvas as unknown as AnyCanvas;
}

/** Renders a page at `dpi` on white (drawPage in pdfjs.ts), leaving out the kinds of drawing in `skip`. */
export async function renderPageCanvas(
  doc: PDFDocumentProxy,
  pageNumber: number,
  dpi: number,
  skip?: DrawnKind[],
): Promise<PageCanvas> {
  const scale = dpi / 72;
  const { canvas, width, height, cjkFontMissing } = await drawPage(doc, pageNumber, scale, { skip });
  return { doc, canvas: canvas as unknown as AnyCanvas, scale, width, height, cjkFontMissing };
}

/** A region (in PDF points, top-left origin) of a rendered page as a new canvas. */
export async function cropCanvas(
  source: PageCanvas,
  box: { x: number; top: number; width: number; height: number },
): Promise<AnyCanvas> {
  const sx = Math.max(0, Math.floor(box.x * source.scale));
  const sy = Math.max(0, Math.floor(box.top * source.scale));
  const sw = Math.max(1, Math.min(source.width - sx, Math.ceil(box.width * source.scale)));
  const sh = Math.max(1, Math.min(source.height - sy, Math.ceil(box.height * source.scale)));
  const target = newCanvas(source.doc, sw, sh);
  const context = target.getContext('2d') as CanvasRenderingContext2D;
  context.drawImage(source.canvas as unknown as CanvasImageSource, sx, sy, sw, sh, 0, 0, sw, sh);
  return target;
}

export async function encodeCanvas(canvas: AnyCanvas, type: 'png' | 'jpeg', quality = 0.85): Promise<Uint8Array> {
  if (isNode) {
    const encoded = await (
      canvas as unknown as { encode(format: string, quality?: number): Promise<Uint8Array> }
    ).encode(type, type === 'jpeg' ? Math.round(quality * 100) : undefined);
    return new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength);
  }
  const blob = await (canvas as unknown as OffscreenCanvas).convertToBlob({ type: `image/${type}`, quality });
  return new Uint8Array(await blob.arrayBuffer());
}

/** Frees a canvas's pixels early (big pages add up in a worker), or keeps it for the next page. */
export { releaseCanvas } from './pdfjs.ts';
