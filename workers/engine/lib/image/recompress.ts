/**
 * One PDF image recompressed, from its stored bytes to a MozJPEG stream: decoded (JPEG, or Flate
 * with or without PNG predictors), shrunk towards the target resolution, made gray when it is gray
 * anyway (or when asked), re-encoded. Pure (bytes and numbers in and out, no PDF objects), so the
 * same code runs in an image worker of the pool (image-pool.ts) and in-process in Node.
 * compress-pdf decides from the image's dictionary which images come here.
 */
import { decodeJpeg, encodeJpeg, imageHeader, makeImageData, resizeImage } from './codecs.ts';
import { inflate, PredictorError, unpredictRow, type PredictorParams } from '../pdf/stream-decode.ts';
import { labToSrgb, type LabParams } from './lab.ts';

/** Downsample only when the image is this much above the target (as Ghostscript's threshold does). */
export const DOWNSAMPLE_THRESHOLD = 1.2;
/** A recompressed image must be at least this much smaller to replace the original. */
const MIN_SAVING = 0.9;

/** An image as stored in the PDF, with what its dictionary says about it. */
export interface ImageJob {
  /** 'deflated-jpeg': /Filter [/FlateDecode /DCTDecode]. */
  encoding: 'jpeg' | 'deflated-jpeg' | 'flate';
  /** The stream's bytes as stored (their length is what the result must beat). */
  contents: Uint8Array;
  width: number;
  height: number;
  /** Colour components of the colour space (1 gray, 3 RGB or Lab). */
  components: number;
  /** Lab colour: the samples are L*, a*, b*, turned into sRGB once decoded. */
  lab?: LabParams;
  /** Flate only: the /DecodeParms predictor (predictor 1 when none). */
  predictor?: PredictorParams;
  /** Flate only: bits per sample, 8 or 16 (16-bit samples are read as their high byte); 8 when absent. */
  bitsPerComponent?: 8 | 16;
  /** The sharpest resolution at which a page draws it (pixels per inch). */
  dpi: number;
}

export interface ImageJobSettings {
  /** MozJPEG quality, 0–100. */
  quality: number;
  /** Images above this resolution are downsampled to it. */
  maxDpi: number;
  grayscale: boolean;
}

export type RecompressedImage =
  { jpeg: Uint8Array; width: number; height: number; gray: boolean } | { skipped: string };

/**
 * 8-bit samples to RGBA, averaging k×k blocks on the way when k > 1: a 9000 × 9000 scan headed for
 * 150 dpi never exists as full-size RGBA (memory and time), and the exact resize does the rest.
 */
export function toRgba(samples: Uint8Array, width: number, height: number, components: number, k = 1): ImageData {
  const outWidth = Math.floor(width / k);
  const outHeight = Math.floor(height / k);
  const rgba = new Uint8ClampedArray(outWidth * outHeight * 4);
  const area = k * k;
  for (let oy = 0; oy < outHeight; oy++) {
    for (let ox = 0; ox < outWidth; ox++) {
      let r = 0,
        g = 0,
        b = 0;
      for (let dy = 0; dy < k; dy++) {
        let s = ((oy * k + dy) * width + ox * k) * components;
        for (let dx = 0; dx < k; dx++, s += components) {
          r += samples[s];
          if (components === 3) {
            g += samples[s + 1];
            b += samples[s + 2];
          }
        }
      }
      const o = (oy * outWidth + ox) * 4;
      rgba[o] = r / area;
      rgba[o + 1] = components === 3 ? g / area : r / area;
      rgba[o + 2] = components === 3 ? b / area : r / area;
      rgba[o + 3] = 255;
    }
  }
  return makeImageData(rgba, outWidth, outHeight);
}

/** True when (almost) every pixel has R = G = B, allowing for JPEG's chroma noise. */
export function isGray(image: ImageData): boolean {
  const { data } = image;
  const pixels = data.length / 4;
  let colourful = 0;
  const allowed = pixels / 1000;
  for (let o = 0; o < data.length; o += 4) {
    const r = data[o];
    if (Math.abs(r - data[o + 1]) > 6 || Math.abs(r - data[o + 2]) > 6) {
      if (++colourful > allowed) return false;
    }
  }
  return true;
}

/** ITU-R BT.601 luma into R, G and B, so a one-component JPEG of the R channel is the gray image. */
export function toGray(image: ImageData): void {
  const { data } = image;
  for (let o = 0; o < data.length; o += 4) {
    const y = Math.round(0.299 * data[o] + 0.587 * data[o + 1] + 0.114 * data[o + 2]);
    data[o] = data[o + 1] = data[o + 2] = y;
  }
}

/** The image's pixels as RGBA (pre-shrunk by whole blocks for Flate), or why it is skipped. */
async function decodeJob(job: ImageJob, settings: ImageJobSettings): Promise<ImageData | string> {
  const { width, height, components } = job;
  if (job.encoding !== 'flate') {
    const contents = job.encoding === 'deflated-jpeg' ? await inflate(job.contents) : job.contents;
    const header = imageHeader(contents);
    if (!header || header.format !== 'jpeg') return 'unreadable JPEG';
    if (header.components !== components) return 'JPEG/colour space mismatch';
    if (header.width !== width || header.height !== height) return 'JPEG size mismatch';
    return decodeJpeg(contents, { applyOrientation: false });
  }
  // Whole-block pre-shrink towards the target resolution (the exact Lanczos resize follows).
  const k = job.dpi > settings.maxDpi * DOWNSAMPLE_THRESHOLD ? Math.max(1, Math.floor(job.dpi / settings.maxDpi)) : 1;
  return inflateToRgba(job.contents, width, height, components, job.predictor, k, job.bitsPerComponent ?? 8);
}

/**
 * What toRgba(unpredict(inflate(contents))) gives, or 'damaged image data' where that would be
 * short or unreadable, but row by row as the stream inflates: a 9000 × 9000 scan's 243 MB of
 * samples never exist at once (a phone's memory; the time to allocate and join them).
 */
export async function inflateToRgba(
  contents: Uint8Array,
  width: number,
  height: number,
  components: number,
  predictor: PredictorParams | undefined,
  k: number,
  bitsPerComponent: 8 | 16 = 8,
): Promise<ImageData | string> {
  const rowBytes = width * components * (bitsPerComponent / 8);
  const predicted = predictor !== undefined && predictor.predictor >= 10;
  const pixelBytes = predicted ? Math.max(1, Math.ceil((predictor.colors * predictor.bitsPerComponent) / 8)) : 1;
  const storedRow = predicted ? rowBytes + 1 : rowBytes;
  const rows = new BlockRows(width, height, components, k);
  // 16-bit samples (big-endian) go on as their high byte: JPEG takes 8 bits anyway.
  const narrow = bitsPerComponent === 16 ? new Uint8Array(width * components) : undefined;
  const addRow = (samples: Uint8Array) => {
    if (!narrow) return rows.add(samples);
    for (let i = 0; i < narrow.length; i++) narrow[i] = samples[2 * i];
    rows.add(narrow);
  };
  const pending = new Uint8Array(storedRow);
  // Predicted rows: the previous row in the first half (zero before the first), this one in the second.
  const pair = predicted ? new Uint8Array(2 * rowBytes) : undefined;
  let filled = 0;
  let y = 0;
  /** One stored row (shorter only at the end of a predicted stream). */
  const takeRow = (stored: Uint8Array) => {
    y++;
    if (!pair) return addRow(stored);
    pair.copyWithin(0, rowBytes);
    if (y === 1) pair.fill(0, 0, rowBytes);
    if (stored.length < storedRow) pair.fill(0, rowBytes);
    unpredictRow(stored[0], stored.subarray(1), pair, rowBytes, rowBytes, pixelBytes);
    addRow(pair.subarray(rowBytes));
  };
  const reader = new Blob([contents as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream('deflate'))
    .getReader();
  try {
    while (y < height) {
      const { done, value } = await reader.read();
      if (done) break;
      let at = 0;
      if (filled > 0) {
        const n = Math.min(storedRow - filled, value.length);
        pending.set(value.subarray(0, n), filled);
        filled += n;
        at = n;
        if (filled === storedRow) {
          takeRow(pending);
          filled = 0;
        }
      }
      // Whole rows straight from the chunk; what is left over waits for the next one.
      for (; at + storedRow <= value.length && y < height; at += storedRow) takeRow(value.subarray(at, at + storedRow));
      if (at < value.length && y < height) {
        pending.set(value.subarray(at), 0);
        filled = value.length - at;
      }
    }
    // A predicted stream that ends inside its last row is decoded as far as it goes (as unpredict does).
    if (y < height && predicted && filled > 1) takeRow(pending.subarray(0, filled));
  } catch (error) {
    if (error instanceof PredictorError) return 'damaged image data';
    throw error;
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return y < height ? 'damaged image data' : rows.image();
}

/** Rows of 8-bit samples averaged k×k into RGBA as they come (toRgba's arithmetic, row by row). */
class BlockRows {
  private readonly outWidth: number;
  private readonly outHeight: number;
  private readonly rgba: Uint8ClampedArray;
  private readonly sums: Uint32Array;
  private row = 0;

  constructor(
    width: number,
    height: number,
    private readonly components: number,
    private readonly k: number,
  ) {
    this.outWidth = Math.floor(width / k);
    this.outHeight = Math.floor(height / k);
    this.rgba = new Uint8ClampedArray(this.outWidth * this.outHeight * 4);
    this.sums = new Uint32Array(this.outWidth * 3);
  }

  add(samples: Uint8Array): void {
    const { k, components, sums } = this;
    const oy = Math.floor(this.row / k);
    this.row++;
    if (oy >= this.outHeight) return;
    let s = 0;
    for (let t = 0; t < sums.length; t += 3) {
      for (let dx = 0; dx < k; dx++, s += components) {
        sums[t] += samples[s];
        if (components === 3) {
          sums[t + 1] += samples[s + 1];
          sums[t + 2] += samples[s + 2];
        }
      }
    }
    if (this.row % k !== 0) return;
    const area = k * k;
    const { rgba } = this;
    let o = oy * this.outWidth * 4;
    for (let t = 0; t < sums.length; t += 3, o += 4) {
      const r = sums[t] / area;
      rgba[o] = r;
      rgba[o + 1] = components === 3 ? sums[t + 1] / area : r;
      rgba[o + 2] = components === 3 ? sums[t + 2] / area : r;
      rgba[o + 3] = 255;
    }
    sums.fill(0);
  }

  image(): ImageData {
    return makeImageData(this.rgba, this.outWidth, this.outHeight);
  }
}

/** Decodes, resizes, grays and encodes one image; skipped when it cannot be read or would not shrink. */
export async function recompressImageJob(job: ImageJob, settings: ImageJobSettings): Promise<RecompressedImage> {
  let image: ImageData;
  try {
    const decoded = await decodeJob(job, settings);
    if (typeof decoded === 'string') return { skipped: decoded };
    image = decoded;
    if (job.lab) labToSrgb(image.data, job.lab);
  } catch {
    return { skipped: 'undecodable image' };
  }
  const dpi = job.dpi * (image.width / job.width); // lower when the decoder already shrank it
  if (dpi > settings.maxDpi * DOWNSAMPLE_THRESHOLD || (image.width < job.width && dpi > settings.maxDpi)) {
    const scale = Math.min(1, settings.maxDpi / dpi);
    image = await resizeImage(
      image,
      Math.max(1, Math.round(image.width * scale)),
      Math.max(1, Math.round(image.height * scale)),
    );
  }
  let gray = job.components === 1;
  if (!gray && (settings.grayscale || isGray(image))) {
    toGray(image);
    gray = true;
  }
  const jpeg = await encodeJpeg(image, { quality: settings.quality, grayscale: gray });
  if (jpeg.length >= job.contents.length * MIN_SAVING) return { skipped: 'would not shrink' };
  return { jpeg, width: image.width, height: image.height, gray };
}
