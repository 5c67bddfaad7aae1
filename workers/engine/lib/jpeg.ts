/**
 * Image codecs for engines, the same in a browser worker and in Node: MozJPEG encode/decode
 * (@jsquash/jpeg), PNG encode/decode (@jsquash/png) and WebP decode (@jsquash/webp). The WASM is
 * served from our own origin in the browser (Vite `?url`) and read from node_modules in Node, and
 * compiled once per realm (wasm.ts). Free for every engine: pdf-to-jpg, jpg-to-pdf, the image
 * compressor, compress-pdf's image recompression.
 *
 * Why not canvas.toBlob/convertToBlob: its JPEG quality and chroma subsampling differ per browser
 * and it does not exist in Node; MozJPEG gives the same, smaller files everywhere.
 */
import encodeJpegWasm, { init as initJpegEncoder } from '@jsquash/jpeg/encode.js';
import decodeJpegWasm, { init as initJpegDecoder } from '@jsquash/jpeg/decode.js';
import encodePngWasm, { init as initPngEncoder } from '@jsquash/png/encode.js';
import decodePngWasm, { init as initPngDecoder } from '@jsquash/png/decode.js';
import decodeWebpWasm, { init as initWebpDecoder } from '@jsquash/webp/decode.js';
import mozjpegEncUrl from '@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm?url';
import mozjpegDecUrl from '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm?url';
import pngWasmUrl from '@jsquash/png/codec/pkg/squoosh_png_bg.wasm?url';
import webpDecUrl from '@jsquash/webp/codec/dec/webp_dec.wasm?url';
import { compileWasm } from './wasm.ts';

/** RGBA pixels, the shape of ImageData without needing the DOM class. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/**
 * The codecs' glue builds and reads `ImageData`, which Node lacks. A minimal stand-in with the same
 * fields is enough for them (they only read width, height and data).
 */
function ensureImageData(): void {
  if (typeof globalThis.ImageData !== 'undefined') return;
  class NodeImageData {
    readonly colorSpace = 'srgb';
    constructor(
      readonly data: Uint8ClampedArray,
      readonly width: number,
      readonly height: number,
    ) {}
  }
  (globalThis as unknown as { ImageData: unknown }).ImageData = NodeImageData;
}

function asImageData(image: RgbaImage): ImageData {
  ensureImageData();
  return new ImageData(image.data as Uint8ClampedArray<ArrayBuffer>, image.width, image.height);
}

/** The d.ts files type `init` by its options overload; the functions also take a compiled module. */
type InitWithModule = (module: WebAssembly.Module) => Promise<unknown>;
const withModule = (init: unknown) => init as InitWithModule;

const ready = new Map<string, Promise<void>>();
function once(key: string, start: () => Promise<void>): Promise<void> {
  let promise = ready.get(key);
  if (!promise) {
    promise = start();
    ready.set(key, promise);
    promise.catch(() => ready.delete(key));
  }
  return promise;
}

const jpegEncoderReady = () =>
  once('jpeg-enc', async () => {
    ensureImageData();
    await withModule(initJpegEncoder)(await compileWasm(mozjpegEncUrl, '@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm'));
  });
const jpegDecoderReady = () =>
  once('jpeg-dec', async () => {
    ensureImageData();
    await withModule(initJpegDecoder)(await compileWasm(mozjpegDecUrl, '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm'));
  });
const pngReady = () =>
  once('png', async () => {
    ensureImageData();
    const module = await compileWasm(pngWasmUrl, '@jsquash/png/codec/pkg/squoosh_png_bg.wasm');
    // encode and decode share one wasm-bindgen module; both init functions accept the compiled module.
    await withModule(initPngEncoder)(module);
    await withModule(initPngDecoder)(module);
  });
const webpDecoderReady = () =>
  once('webp-dec', async () => {
    ensureImageData();
    await withModule(initWebpDecoder)(await compileWasm(webpDecUrl, '@jsquash/webp/codec/dec/webp_dec.wasm'));
  });

export interface JpegEncodeOptions {
  /** 1–100, MozJPEG's scale (75 is its default, 85 looks like the original to most people). */
  quality: number;
  /** Progressive JPEGs are a little smaller; baseline ones decode in every old viewer. */
  progressive?: boolean;
}

/** RGBA → JPEG with MozJPEG (alpha is ignored: callers render on white). */
export async function encodeJpeg(image: RgbaImage, { quality, progressive = true }: JpegEncodeOptions): Promise<Uint8Array> {
  await jpegEncoderReady();
  const buffer = await encodeJpegWasm(asImageData(image), {
    quality: Math.round(Math.min(100, Math.max(1, quality))),
    progressive,
    baseline: !progressive,
    optimize_coding: true,
  });
  return new Uint8Array(buffer);
}

export async function decodeJpeg(bytes: Uint8Array): Promise<RgbaImage> {
  await jpegDecoderReady();
  return decodeJpegWasm(bytes.slice().buffer);
}

export async function encodePng(image: RgbaImage): Promise<Uint8Array> {
  await pngReady();
  return new Uint8Array(await encodePngWasm(asImageData(image)));
}

export async function decodePng(bytes: Uint8Array): Promise<RgbaImage> {
  await pngReady();
  return decodePngWasm(bytes.slice().buffer);
}

export async function decodeWebp(bytes: Uint8Array): Promise<RgbaImage> {
  await webpDecoderReady();
  return decodeWebpWasm(bytes.slice().buffer);
}

/** What the first bytes say a file is (names and MIME types lie). */
export type ImageKind = 'jpeg' | 'png' | 'webp' | 'gif' | 'pdf' | 'unknown';
export function sniffImage(bytes: Uint8Array): ImageKind {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return 'gif';
  if (at(0, 0x25, 0x50, 0x44, 0x46)) return 'pdf';
  return 'unknown';
}
