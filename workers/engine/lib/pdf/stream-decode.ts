/**
 * Stream data decoding that needs no PDF objects (ISO 32000-1 §7.4): Flate through the platform's
 * native inflater, and the PNG row predictors (/Predictor 10–15) of image and cross-reference
 * streams. The parameters come from the stream's dictionary (filters.ts, predictorParams). Kept free
 * of pdf-lib: the image worker (workers/image.worker.ts) imports it.
 */

/** Inflates a zlib stream with the platform's DecompressionStream (browser workers and Node 18+). */
export async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The /DecodeParms entries that shape predicted data (ISO 32000-1 table 8), with their defaults. */
export interface PredictorParams {
  /** 1: none; 2: TIFF predictor 2; 10–15: PNG predictors (each row carries its own filter type). */
  predictor: number;
  colors: number;
  bitsPerComponent: number;
  columns: number;
}

/** Predicted data Folio cannot undo (damaged or unsupported); pdf.js rejects the same data. */
export class PredictorError extends Error {
  override name = 'PredictorError';
}

/**
 * Undoes the PNG predictors (/Predictor ≥ 10): each row starts with its filter type, 0 None, 1 Sub,
 * 2 Up, 3 Average, 4 Paeth (PNG specification §9), computed on whole bytes, the left neighbour
 * being one pixel back (at least one byte). Data that ends inside a row is decoded as far as it
 * goes, the rest of that row left zero, as pdf.js does. An unknown filter type means the data is
 * damaged: it throws a PredictorError, as pdf.js does, rather than guessing at the rows after it.
 * Predictor 1 returns the data as it is; the TIFF predictor (2) also throws.
 */
export function unpredict(data: Uint8Array, params: PredictorParams): Uint8Array {
  if (params.predictor <= 1) return data;
  if (params.predictor < 10 || params.predictor > 15)
    throw new PredictorError(`Unsupported predictor ${params.predictor}`);
  const bitsPerPixel = params.colors * params.bitsPerComponent;
  const pixelBytes = Math.max(1, Math.ceil(bitsPerPixel / 8));
  const rowBytes = Math.ceil((params.columns * bitsPerPixel) / 8);
  if (!(rowBytes > 0)) throw new PredictorError('Invalid predictor row size');
  // A last row with no byte after its filter type is no row (pdf.js stops there too).
  const rows = Math.floor(data.length / (rowBytes + 1)) + (data.length % (rowBytes + 1) > 1 ? 1 : 0);
  const out = new Uint8Array(rows * rowBytes);
  for (let r = 0; r < rows; r++) {
    const src = r * (rowBytes + 1);
    unpredictRow(data[src], data.subarray(src + 1, src + 1 + rowBytes), out, r * rowBytes, rowBytes, pixelBytes);
  }
  return out;
}

/** One PNG row into out[at…at+rowBytes); the previous row is the rowBytes before `at` (zero for the first). */
export function unpredictRow(
  type: number,
  raw: Uint8Array,
  out: Uint8Array,
  at: number,
  rowBytes: number,
  pixelBytes: number,
): void {
  const up = at - rowBytes;
  for (let i = 0; i < raw.length; i++) {
    const value = raw[i];
    const left = i >= pixelBytes ? out[at + i - pixelBytes] : 0;
    const above = up >= 0 ? out[up + i] : 0;
    switch (type) {
      case 0:
        out[at + i] = value;
        break;
      case 1:
        out[at + i] = value + left;
        break;
      case 2:
        out[at + i] = value + above;
        break;
      case 3:
        out[at + i] = value + ((left + above) >> 1);
        break;
      case 4: {
        const upperLeft = up >= 0 && i >= pixelBytes ? out[up + i - pixelBytes] : 0;
        out[at + i] = value + paeth(left, above, upperLeft);
        break;
      }
      default:
        throw new PredictorError(`Unknown PNG filter type ${type}`);
    }
  }
}

/** PNG's Paeth predictor: whichever neighbour is nearest to left + above − upper-left. */
function paeth(left: number, above: number, upperLeft: number): number {
  const p = left + above - upperLeft;
  const pa = Math.abs(p - left);
  const pb = Math.abs(p - above);
  const pc = Math.abs(p - upperLeft);
  return pa <= pb && pa <= pc ? left : pb <= pc ? above : upperLeft;
}
