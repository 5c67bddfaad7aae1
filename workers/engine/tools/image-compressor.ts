/**
 * Image compressor (/api/pdf/compressImg): JPEG, PNG, WebP or AVIF in; MozJPEG, WebP, AVIF or PNG
 * (OxiPNG, optionally reduced to a 256-colour palette with image-q) out, with optional resizing.
 *
 * The /api contract takes one `file`; the engine itself takes any number of inputs and answers a
 * ZIP when given several (the panel compresses a batch one request per file, so each shows its
 * own before → after, and zips them itself). A 0-byte or non-image input is named and skipped
 * (with several inputs) or refused (alone); an image whose header says it is too large for the
 * device is refused before any pixel is decoded.
 *
 * Output is never larger than the input when the format stays the same: the original is kept.
 */
import type { Engine, EngineInput, EngineOptions, EngineResult } from '../lib/types.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import {
  assertDecodable,
  decodeImage,
  encodeAvif,
  encodeJpeg,
  encodePng,
  encodeWebp,
  imageHeader,
  makeImageData,
  optimisePng,
  resizeImage,
  type ImageFormat,
  type ImageHeader,
} from '../lib/image/codecs.ts';
import { ZipBuilder } from '../lib/zip.ts';
import { baseName, commonName, formatBytes } from '../../../shared/format.ts';

export type OutputFormat = 'auto' | ImageFormat;

export interface ImageCompressSettings {
  format: OutputFormat;
  /** 1–100 for JPEG, WebP and AVIF. */
  quality: number;
  /** 0 = no limit. The image is scaled down, keeping its aspect ratio, to fit inside both. */
  maxWidth: number;
  maxHeight: number;
  /** PNG output: reduce to at most 256 colours (lossy, often 3–5× smaller for screenshots). */
  palette: boolean;
  /** Drop EXIF/XMP (the orientation is applied to the pixels first). Off keeps a JPEG's EXIF and ICC profile. */
  stripMetadata: boolean;
}

const MIME: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
};
const EXTENSION: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif' };

export function settingsFromOptions(options: EngineOptions): ImageCompressSettings {
  const format = String(options.format ?? 'auto');
  return {
    format: (['auto', 'jpeg', 'png', 'webp', 'avif'].includes(format) ? format : 'auto') as OutputFormat,
    quality: Math.min(100, Math.max(1, Number(options.quality ?? 75))),
    maxWidth: Math.max(0, Number(options.maxWidth ?? 0)),
    maxHeight: Math.max(0, Number(options.maxHeight ?? 0)),
    palette: options.palette === true,
    stripMetadata: options.stripMetadata !== false,
  };
}

/** Fits (width, height) inside the limits, keeping the aspect ratio; never enlarges. */
export function fitInside(width: number, height: number, maxWidth: number, maxHeight: number): [number, number] {
  const scale = Math.min(1, maxWidth > 0 ? maxWidth / width : 1, maxHeight > 0 ? maxHeight / height : 1);
  return [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
}

/** APP1 (EXIF/XMP) and APP2 (ICC) segments of a JPEG, to carry over when metadata is kept. */
function jpegMetadataSegments(bytes: Uint8Array): Uint8Array[] {
  const segments: Uint8Array[] = [];
  let i = 2;
  while (i + 4 < bytes.length && bytes[i] === 0xff) {
    const marker = bytes[i + 1];
    if (marker === 0xda || marker === 0xd9) break;
    const length = (bytes[i + 2] << 8) | bytes[i + 3];
    if (marker === 0xe1 || marker === 0xe2) segments.push(bytes.subarray(i, i + 2 + length));
    i += 2 + length;
  }
  return segments;
}

/** Inserts segments right after SOI / the JFIF APP0 of a freshly encoded JPEG. */
function withSegments(jpeg: Uint8Array, segments: Uint8Array[]): Uint8Array {
  if (segments.length === 0) return jpeg;
  let at = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) at = 4 + ((jpeg[4] << 8) | jpeg[5]);
  const extra = segments.reduce((sum, s) => sum + s.length, 0);
  const out = new Uint8Array(jpeg.length + extra);
  out.set(jpeg.subarray(0, at), 0);
  let offset = at;
  for (const s of segments) {
    out.set(s, offset);
    offset += s.length;
  }
  out.set(jpeg.subarray(at), offset);
  return out;
}

/** Reduces to a ≤256-colour palette (image-q, MIT: Wu quantiser, no dithering for crisp screenshots). */
async function quantise(image: ImageData): Promise<ImageData> {
  const iq = await import('image-q');
  const container = iq.utils.PointContainer.fromUint8Array(
    new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength),
    image.width,
    image.height,
  );
  const palette = iq.buildPaletteSync([container], {
    colors: 256,
    paletteQuantization: 'wuquant',
    colorDistanceFormula: 'euclidean-bt709',
  });
  const reduced = iq.applyPaletteSync(container, palette, {
    imageQuantization: 'nearest',
    colorDistanceFormula: 'euclidean-bt709',
  });
  return makeImageData(new Uint8ClampedArray(reduced.toUint8Array()), image.width, image.height);
}

/** createImageBitmap + OffscreenCanvas (browser workers only); undefined where unavailable or failing. */
async function decodeWithBrowser(
  bytes: Uint8Array,
  type: string,
  applyOrientation: boolean,
): Promise<ImageData | undefined> {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') return undefined;
  try {
    const bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), {
      imageOrientation: applyOrientation ? 'from-image' : 'none',
      premultiplyAlpha: 'none',
      colorSpaceConversion: 'default',
    });
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    if (!context) return undefined;
    context.drawImage(bitmap, 0, 0);
    bitmap.close();
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    return makeImageData(pixels.data, pixels.width, pixels.height);
  } catch {
    return undefined;
  }
}

/**
 * JPEG has no alpha: the encoder would drop it and show whatever colour the transparent pixels
 * hold (black, usually), so a logo on a transparent background became a black box. Composites
 * over white, as image editors do when they flatten; returns undefined when nothing is see-through.
 */
export function flattenOnWhite(image: ImageData): ImageData | undefined {
  const { data } = image;
  let seeThrough = false;
  for (let i = 3; i < data.length; i += 4) {
    if (data[i] !== 255) {
      seeThrough = true;
      break;
    }
  }
  if (!seeThrough) return undefined;
  const flat = new Uint8ClampedArray(data.length);
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3] / 255;
    const white = 255 * (1 - alpha);
    flat[i] = data[i] * alpha + white;
    flat[i + 1] = data[i + 1] * alpha + white;
    flat[i + 2] = data[i + 2] * alpha + white;
    flat[i + 3] = 255;
  }
  return makeImageData(flat, image.width, image.height);
}

export interface CompressedImage {
  bytes: Uint8Array;
  format: ImageFormat;
  /** As displayed (after the EXIF orientation, when the tag is kept). */
  width: number;
  height: number;
  /** True when the original was kept because nothing smaller came out. */
  keptOriginal: boolean;
  /** True when transparent areas were made white (JPEG output of an image with transparency). */
  flattened?: boolean;
}

/**
 * An animated WebP (VP8X with the animation flag) or PNG (an acTL chunk before the image data).
 * The codecs decode one frame only, so the result would be a still picture.
 */
export function isAnimated(bytes: Uint8Array, format: ImageFormat): boolean {
  const ascii = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (format === 'webp') return ascii(12) === 'VP8X' && (bytes[20] & 0x02) !== 0;
  if (format !== 'png') return false;
  for (let at = 8; at + 8 <= bytes.length;) {
    const length = ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
    const type = ascii(at + 4);
    if (type === 'acTL') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    at += 12 + length;
  }
  return false;
}

function describe(input: EngineInput, header: ImageHeader | undefined): FolioError | undefined {
  if (input.bytes.length === 0) return new FolioError('InvalidImage', `"${input.name}" is empty (0 bytes).`);
  if (!header) return new FolioError('InvalidImage', `"${input.name}" is not a JPEG, PNG, WebP or AVIF image.`);
  if (isAnimated(input.bytes, header.format)) {
    const kind = header.format === 'png' ? 'PNG (APNG)' : 'WebP';
    return new FolioError(
      'InvalidImage',
      `"${input.name}" is an animated ${kind}: Folio compresses still images only, ` +
        'and would keep just its first frame.',
    );
  }
  return undefined;
}

export async function compressImage(input: EngineInput, settings: ImageCompressSettings): Promise<CompressedImage> {
  const header = imageHeader(input.bytes);
  const problem = describe(input, header);
  if (problem || !header) throw problem;
  assertDecodable(input.name, header);
  const format: ImageFormat = settings.format === 'auto' ? header.format : settings.format;
  const keepMetadata = !settings.stripMetadata && header.format === 'jpeg' && format === 'jpeg';

  // Without its EXIF the orientation must live in the pixels; with it, the tag still applies.
  const applyOrientation = !keepMetadata;
  const undecodable = () =>
    new FolioError(
      'InvalidImage',
      `"${input.name}" could not be decoded: the file is damaged or uses an unsupported variant (e.g. CMYK JPEG).`,
    );
  let image: ImageData | undefined;
  // MozJPEG's decoder only converts to RGB from gray or YCbCr: CMYK / YCCK JPEGs go straight to
  // the browser's own decoder (which also handles their colour), and fail clearly where there is none.
  const cmykJpeg = header.format === 'jpeg' && header.components === 4;
  if (!cmykJpeg) {
    try {
      image = await decodeImage(input.bytes, header.format, { applyOrientation });
    } catch {
      image = undefined;
    }
  }
  image ??= await decodeWithBrowser(input.bytes, MIME[header.format], applyOrientation);
  if (!image) throw undecodable();
  // With the EXIF tag kept the pixels stay as stored; for orientations 5–8 a viewer turns them a
  // quarter, so the user's width limit is a limit on the stored height, and the sizes shown swap.
  const turned = keepMetadata && (header.orientation ?? 1) >= 5 && (header.orientation ?? 1) <= 8;
  const [width, height] = turned
    ? fitInside(image.width, image.height, settings.maxHeight, settings.maxWidth)
    : fitInside(image.width, image.height, settings.maxWidth, settings.maxHeight);
  image = await resizeImage(image, width, height);

  let bytes: Uint8Array;
  let flattened = false;
  switch (format) {
    case 'jpeg': {
      const flat = flattenOnWhite(image);
      flattened = flat !== undefined;
      const jpeg = await encodeJpeg(flat ?? image, { quality: settings.quality });
      bytes = keepMetadata ? withSegments(jpeg, jpegMetadataSegments(input.bytes)) : jpeg;
      break;
    }
    case 'webp':
      bytes = await encodeWebp(image, { quality: settings.quality });
      break;
    case 'avif':
      bytes = await encodeAvif(image, { quality: settings.quality });
      break;
    case 'png':
      // An untouched PNG is optimised as it is (keeps 16-bit and exact palettes); otherwise re-encoded.
      bytes =
        header.format === 'png' && !settings.palette && width === header.width && height === header.height
          ? await optimisePng(input.bytes)
          : await encodePng(settings.palette ? await quantise(image) : image);
      // A palette only helps images with many colours; a lossless file that is smaller wins.
      if (settings.palette && header.format === 'png' && width === header.width && height === header.height) {
        const lossless = await optimisePng(input.bytes);
        if (lossless.length < bytes.length) bytes = lossless;
      }
      break;
  }
  const sameSize = width === header.width && height === header.height;
  const [shownWidth, shownHeight] = turned ? [height, width] : [width, height];
  if (format === header.format && sameSize && bytes.length >= input.bytes.length) {
    return { bytes: input.bytes, format, width: shownWidth, height: shownHeight, keptOriginal: true };
  }
  return { bytes, format, width: shownWidth, height: shownHeight, keptOriginal: false, flattened };
}

function sizeNote(name: string, before: number, after: CompressedImage): string {
  if (after.keptOriginal)
    return `${name}: already as small as Folio can make it in this format; kept the original (${formatBytes(before)}).`;
  const change = Math.round((1 - after.bytes.length / before) * 100);
  return (
    `${name}: ${formatBytes(before)} → ${formatBytes(after.bytes.length)} ` +
    `(${change >= 0 ? '−' : '+'}${Math.abs(change)}%), ${after.width} × ${after.height}.` +
    (after.flattened ? ' JPEG has no transparency: the transparent areas are white.' : '')
  );
}

export const run: Engine = async (inputs, options, ctx): Promise<EngineResult> => {
  if (inputs.length === 0) throw new FolioError('InvalidInput', 'Please select at least one file');
  const settings = settingsFromOptions(options);
  const progress = ctx.progress ?? (() => {});

  if (inputs.length === 1) {
    const input = inputs[0];
    progress(0, 1);
    const result = await compressImage(input, settings);
    progress(1, 1);
    return {
      bytes: result.bytes,
      filename: `${baseName(input.name, 'image')}-compressed.${EXTENSION[result.format]}`,
      mime: MIME[result.format],
      notes: [sizeNote(input.name, input.bytes.length, result)],
    };
  }

  const zip = new ZipBuilder();
  const notes: string[] = [];
  const skipped: string[] = [];
  for (const [index, input] of inputs.entries()) {
    throwIfAborted(ctx.signal);
    try {
      const result = await compressImage(input, settings);
      zip.add(`${baseName(input.name, 'image')}.${EXTENSION[result.format]}`, result.bytes);
      notes.push(sizeNote(input.name, input.bytes.length, result));
    } catch (error) {
      if (!(error instanceof FolioError)) throw error;
      skipped.push(`Skipped ${error.message}`);
    }
    progress(index + 1, inputs.length);
  }
  if (zip.size === 0) {
    throw new FolioError('InvalidImage', `None of the files could be compressed. ${skipped.join(' ')}`);
  }
  return {
    ...(await zip.finish()),
    filename: `${commonName(
      inputs.map((input) => input.name),
      'images',
    )}-compressed.zip`,
    mime: 'application/zip',
    notes: [...notes, ...skipped],
  };
};
