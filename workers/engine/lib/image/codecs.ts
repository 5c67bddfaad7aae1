/**
 * Image codecs for engines (@jsquash, Apache-2.0: the Squoosh codecs compiled to WebAssembly), the
 * same way in a browser worker and in Node: each codec's .wasm is compiled by compileWasm (fetched
 * from our own origin in the browser, read from node_modules in Node) and handed to the codec's
 * init, so no codec ever fetches anything by itself. Everything loads on first use.
 *
 * - MozJPEG encode/decode, WebP, AVIF, PNG (+ OxiPNG lossless optimisation), high-quality resize.
 * - `imageHeader` reads format and dimensions from the first bytes, so callers can refuse an image
 *   that is too large for the device before a decoder allocates its pixels.
 *
 * Used by compress-pdf and image-compressor; other engines (e.g. JPEG export) should reuse it.
 */
import { init as initJpegEncoder } from '@jsquash/jpeg/encode.js';
import encodeJpegRaw from '@jsquash/jpeg/encode.js';
import { init as initJpegDecoder } from '@jsquash/jpeg/decode.js';
import decodeJpegRaw from '@jsquash/jpeg/decode.js';
import { init as initWebpEncoder } from '@jsquash/webp/encode.js';
import encodeWebpRaw from '@jsquash/webp/encode.js';
import { init as initWebpDecoder } from '@jsquash/webp/decode.js';
import decodeWebpRaw from '@jsquash/webp/decode.js';
import { init as initAvifEncoder } from '@jsquash/avif/encode.js';
import encodeAvifRaw from '@jsquash/avif/encode.js';
import { init as initAvifDecoder } from '@jsquash/avif/decode.js';
import decodeAvifRaw from '@jsquash/avif/decode.js';
import { init as initPngEncoder } from '@jsquash/png/encode.js';
import encodePngRaw from '@jsquash/png/encode.js';
import { init as initPngDecoder } from '@jsquash/png/decode.js';
import decodePngRaw from '@jsquash/png/decode.js';
import { init as initOxipng } from '@jsquash/oxipng/optimise.js';
import optimisePngRaw from '@jsquash/oxipng/optimise.js';
import resizeRaw, { initResize } from '@jsquash/resize';
import { simd, threads } from 'wasm-feature-detect';
import jpegEncUrl from '@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm?url';
import jpegDecUrl from '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm?url';
import webpEncUrl from '@jsquash/webp/codec/enc/webp_enc.wasm?url';
import webpEncSimdUrl from '@jsquash/webp/codec/enc/webp_enc_simd.wasm?url';
import webpDecUrl from '@jsquash/webp/codec/dec/webp_dec.wasm?url';
import avifEncUrl from '@jsquash/avif/codec/enc/avif_enc.wasm?url';
import avifEncMtUrl from '@jsquash/avif/codec/enc/avif_enc_mt.wasm?url';
import avifDecUrl from '@jsquash/avif/codec/dec/avif_dec.wasm?url';
import pngUrl from '@jsquash/png/codec/pkg/squoosh_png_bg.wasm?url';
import oxipngUrl from '@jsquash/oxipng/codec/pkg/squoosh_oxipng_bg.wasm?url';
import oxipngMtUrl from '@jsquash/oxipng/codec/pkg-parallel/squoosh_oxipng_bg.wasm?url';
import resizeUrl from '@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm?url';
import { compileWasm, isNode } from '../wasm.ts';
import { pixelLimit } from '../input-limits.ts';
import { FolioError } from '../errors.ts';

declare const WorkerGlobalScope: { new (): unknown } | undefined;

/** Node has no ImageData; the codecs construct and accept objects of this shape. */
function ensureImageData(): void {
  if (typeof globalThis.ImageData !== 'undefined') return;
  class ImageDataShim {
    readonly data: Uint8ClampedArray;
    readonly width: number;
    readonly height: number;
    readonly colorSpace = 'srgb';
    constructor(dataOrWidth: Uint8ClampedArray | number, widthOrHeight: number, height?: number) {
      if (typeof dataOrWidth === 'number') {
        this.width = dataOrWidth;
        this.height = widthOrHeight;
        this.data = new Uint8ClampedArray(dataOrWidth * widthOrHeight * 4);
      } else {
        this.data = dataOrWidth;
        this.width = widthOrHeight;
        this.height = height ?? dataOrWidth.length / 4 / widthOrHeight;
      }
    }
  }
  (globalThis as { ImageData?: unknown }).ImageData = ImageDataShim;
}

/** Makes an ImageData in either world. */
export function makeImageData(data: Uint8ClampedArray, width: number, height: number): ImageData {
  ensureImageData();
  return new ImageData(data as Uint8ClampedArray<ArrayBuffer>, width, height);
}

type Init = (module: WebAssembly.Module) => unknown;
const ready = new Map<string, Promise<unknown>>();

/** Compiles a codec's wasm once and initialises the codec with it, once. */
function once(key: string, url: string, specifier: string, init: Init): Promise<unknown> {
  let promise = ready.get(key);
  if (!promise) {
    ensureImageData();
    promise = compileWasm(url, specifier).then((module) => init(module));
    ready.set(key, promise);
    promise.catch(() => ready.delete(key));
  }
  return promise;
}

const J = '@jsquash/';
const asInit = (fn: unknown) => fn as Init;
/**
 * An Emscripten pthread build sends its thread workers the compiled module it was given back by
 * the instantiate callback; jsquash's callback gives back only the instance, so every AVIF thread
 * failed to start (console errors) and the encoder ran on one thread. This one passes it on.
 */
const withThreadsModule =
  (init: unknown): Init =>
  (module) =>
    (init as (module: WebAssembly.Module, overrides: object) => unknown)(module, {
      instantiateWasm: (
        imports: WebAssembly.Imports,
        receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
      ) => {
        const instance = new WebAssembly.Instance(module, imports);
        receive(instance, module);
        return instance.exports;
      },
    });
const inWorker = () => typeof WorkerGlobalScope !== 'undefined' && typeof self !== 'undefined';

// The codecs choose between their single-threaded / SIMD / multi-threaded glue by themselves
// (same checks as below); the wasm we hand them must be the one that glue expects.
const loaders = {
  jpegEncoder: () => once('jpeg-enc', jpegEncUrl, `${J}jpeg/codec/enc/mozjpeg_enc.wasm`, asInit(initJpegEncoder)),
  jpegDecoder: () => once('jpeg-dec', jpegDecUrl, `${J}jpeg/codec/dec/mozjpeg_dec.wasm`, asInit(initJpegDecoder)),
  webpEncoder: async () =>
    (await simd())
      ? once('webp-enc', webpEncSimdUrl, `${J}webp/codec/enc/webp_enc_simd.wasm`, asInit(initWebpEncoder))
      : once('webp-enc', webpEncUrl, `${J}webp/codec/enc/webp_enc.wasm`, asInit(initWebpEncoder)),
  webpDecoder: () => once('webp-dec', webpDecUrl, `${J}webp/codec/dec/webp_dec.wasm`, asInit(initWebpDecoder)),
  avifEncoder: async () =>
    !isNode && (await threads())
      ? once('avif-enc', avifEncMtUrl, `${J}avif/codec/enc/avif_enc_mt.wasm`, withThreadsModule(initAvifEncoder))
      : once('avif-enc', avifEncUrl, `${J}avif/codec/enc/avif_enc.wasm`, asInit(initAvifEncoder)),
  avifDecoder: () => once('avif-dec', avifDecUrl, `${J}avif/codec/dec/avif_dec.wasm`, asInit(initAvifDecoder)),
  pngEncoder: () => once('png-enc', pngUrl, `${J}png/codec/pkg/squoosh_png_bg.wasm`, asInit(initPngEncoder)),
  pngDecoder: () => once('png-dec', pngUrl, `${J}png/codec/pkg/squoosh_png_bg.wasm`, asInit(initPngDecoder)),
  oxipng: async () =>
    inWorker() && (globalThis.navigator?.hardwareConcurrency ?? 1) > 1 && (await threads())
      ? once('oxipng', oxipngMtUrl, `${J}oxipng/codec/pkg-parallel/squoosh_oxipng_bg.wasm`, asInit(initOxipng))
      : once('oxipng', oxipngUrl, `${J}oxipng/codec/pkg/squoosh_oxipng_bg.wasm`, asInit(initOxipng)),
  resize: () => once('resize', resizeUrl, `${J}resize/lib/resize/pkg/squoosh_resize_bg.wasm`, asInit(initResize)),
};

const toBytes = (buffer: ArrayBuffer | ArrayBufferLike) => new Uint8Array(buffer);
/** A standalone ArrayBuffer with exactly these bytes (codecs take ArrayBuffers, not views). */
const toBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? bytes.buffer
    : (bytes.slice().buffer as ArrayBuffer);

// ---------------------------------------------------------------------------------------------
// Header sniffing

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
  /** JPEG only: number of colour components (1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK). */
  components?: number;
  /** JPEG only: the EXIF orientation (1–8) when present. */
  orientation?: number;
}

const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

function jpegOrientation(b: Uint8Array, app1: number, length: number): number | undefined {
  const start = app1 + 4;
  if (ascii(b, start, 4) !== 'Exif') return undefined;
  const tiff = start + 6;
  const little = ascii(b, tiff, 2) === 'II';
  const r16 = (i: number) => (little ? u16le(b, i) : u16be(b, i));
  const r32 = (i: number) => (little ? (u16le(b, i) | (u16le(b, i + 2) << 16)) >>> 0 : u32be(b, i));
  const ifd = tiff + r32(tiff + 4);
  if (ifd + 2 > app1 + 2 + length) return undefined;
  const count = r16(ifd);
  for (let n = 0; n < count; n++) {
    const entry = ifd + 2 + n * 12;
    if (entry + 12 > b.length) break;
    if (r16(entry) === 0x0112) return r16(entry + 8);
  }
  return undefined;
}

/** Format and pixel size from the first bytes, or undefined when this is not an image we read. */
export function imageHeader(b: Uint8Array): ImageHeader | undefined {
  if (b.length >= 24 && b[0] === 0x89 && ascii(b, 1, 3) === 'PNG') {
    return { format: 'png', width: u32be(b, 16), height: u32be(b, 20) };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    let orientation: number | undefined;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1];
      if (marker === 0xff) {
        i++;
        continue;
      }
      const length = u16be(b, i + 2);
      if (marker === 0xe1 && orientation === undefined) orientation = jpegOrientation(b, i, length);
      // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC)
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { format: 'jpeg', height: u16be(b, i + 5), width: u16be(b, i + 7), components: b[i + 9], orientation };
      }
      i += 2 + length;
    }
    return undefined;
  }
  if (b.length >= 30 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') {
    const chunk = ascii(b, 12, 4);
    if (chunk === 'VP8X')
      return {
        format: 'webp',
        width: 1 + (b[24] | (b[25] << 8) | (b[26] << 16)),
        height: 1 + (b[27] | (b[28] << 8) | (b[29] << 16)),
      };
    if (chunk === 'VP8 ') return { format: 'webp', width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
      return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    return undefined;
  }
  if (b.length >= 16 && ascii(b, 4, 4) === 'ftyp' && /avi[fs]/.test(ascii(b, 8, Math.min(u32be(b, 0), 64) - 8))) {
    // The first 'ispe' (image spatial extents) box: version/flags, width, height.
    const limit = Math.min(b.length - 16, 1 << 16);
    for (let i = 0; i < limit; i++) {
      if (b[i] === 0x69 && ascii(b, i, 4) === 'ispe')
        return { format: 'avif', width: u32be(b, i + 8), height: u32be(b, i + 12) };
    }
    return undefined;
  }
  return undefined;
}

/** The most pixels this device should decode at once (defined with the other resource limits). */
export { pixelLimit };

export function assertDecodable(name: string, header: ImageHeader): void {
  const pixels = header.width * header.height;
  if (pixels > pixelLimit()) {
    const mp = (pixels / 1e6).toFixed(0);
    throw new FolioError(
      'TooLarge',
      `"${name}" is ${header.width} × ${header.height} pixels (${mp} megapixels): too large to process on this device.`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding

export interface JpegDecodeOptions {
  /** Rotate the pixels by the EXIF orientation (true for photos; false inside PDFs, which ignore EXIF). */
  applyOrientation?: boolean;
}

export async function decodeJpeg(
  bytes: Uint8Array,
  { applyOrientation = false }: JpegDecodeOptions = {},
): Promise<ImageData> {
  await loaders.jpegDecoder();
  return decodeJpegRaw(toBuffer(bytes), { preserveOrientation: applyOrientation });
}

export async function decodeImage(
  bytes: Uint8Array,
  format: ImageFormat,
  options: JpegDecodeOptions = {},
): Promise<ImageData> {
  switch (format) {
    case 'jpeg':
      return decodeJpeg(bytes, options);
    case 'png':
      await loaders.pngDecoder();
      return decodePngRaw(toBuffer(bytes));
    case 'webp':
      await loaders.webpDecoder();
      return decodeWebpRaw(toBuffer(bytes));
    case 'avif': {
      await loaders.avifDecoder();
      const image = await decodeAvifRaw(toBuffer(bytes));
      if (!image) throw new Error('AVIF decoding failed');
      return image;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Encoding

export interface JpegEncodeOptions {
  /** 0–100 (MozJPEG scale). */
  quality: number;
  /** Write a one-component JPEG (the pixels' R channel is taken as gray). */
  grayscale?: boolean;
  progressive?: boolean;
}

/** MozJPEG with its defaults (trellis quantisation, optimised Huffman, progressive, 4:2:0). */
export async function encodeJpeg(
  image: ImageData,
  { quality, grayscale = false, progressive = true }: JpegEncodeOptions,
): Promise<Uint8Array> {
  await loaders.jpegEncoder();
  return toBytes(
    await encodeJpegRaw(image, {
      quality,
      progressive,
      baseline: false,
      optimize_coding: true,
      color_space: grayscale ? 1 /* GRAYSCALE */ : 3 /* YCbCr */,
    }),
  );
}

export async function encodeWebp(
  image: ImageData,
  { quality, lossless = false }: { quality: number; lossless?: boolean },
): Promise<Uint8Array> {
  await loaders.webpEncoder();
  return toBytes(await encodeWebpRaw(image, { quality, method: 4, lossless: lossless ? 1 : 0 }));
}

export async function encodeAvif(image: ImageData, { quality }: { quality: number }): Promise<Uint8Array> {
  await loaders.avifEncoder();
  // speed 6 of 10: Squoosh's default trade-off; slower settings gain little for much more time.
  return toBytes(await encodeAvifRaw(image, { quality, speed: 6 }));
}

/** Lossless PNG of the pixels (8-bit RGBA), then OxiPNG picks the smallest lossless form. */
export async function encodePng(image: ImageData, { level = 2 }: { level?: number } = {}): Promise<Uint8Array> {
  await loaders.pngEncoder();
  const png = await encodePngRaw(image);
  return optimisePng(toBytes(png), { level });
}

/** OxiPNG over an existing PNG file (lossless: bit depth, palette, filters and deflate). */
export async function optimisePng(png: Uint8Array, { level = 2 }: { level?: number } = {}): Promise<Uint8Array> {
  await loaders.oxipng();
  return toBytes(await optimisePngRaw(toBuffer(png), { level, interlace: false, optimiseAlpha: true }));
}

/** Lanczos3 resize (premultiplied alpha, so transparent edges do not darken). */
export async function resizeImage(image: ImageData, width: number, height: number): Promise<ImageData> {
  if (width === image.width && height === image.height) return image;
  await loaders.resize();
  return resizeRaw(image, {
    width,
    height,
    method: 'lanczos3',
    fitMethod: 'stretch',
    premultiply: true,
    linearRGB: false,
  });
}
