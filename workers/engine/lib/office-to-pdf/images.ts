/**
 * Pictures in Office files that pdf-lib cannot embed as they are — GIF (first frame, with its
 * transparency), BMP, TIFF and WebP — decoded to pixels and re-encoded as PNG (the @jsquash PNG
 * encoder of codecs.ts). Decoders: omggif (MIT) for GIF, utif2 (MIT) for TIFF, the @jsquash WebP
 * decoder, and a small reader here for uncompressed BMP. Metafiles (EMF/WMF) are drawn by metafile/.
 */
import { GifReader } from 'omggif';
import UTIF from 'utif2';
import { decodeImage, encodePng, imageHeader, makeImageData, pixelLimit } from '../image/codecs.ts';

export type ImageMime =
  'image/png' | 'image/jpeg' | 'image/gif' | 'image/bmp' | 'image/tiff' | 'image/webp' | 'image/x-emf' | 'image/x-wmf';

/** The picture's format from its first bytes (file names in packages are not always right). */
export function sniffImage(b: Uint8Array): ImageMime | undefined {
  const at = (i: number, ...bytes: number[]) => bytes.every((v, k) => b[i + k] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (at(0, 0x42, 0x4d)) return 'image/bmp';
  if (at(0, 0x49, 0x49, 0x2a, 0x00) || at(0, 0x4d, 0x4d, 0x00, 0x2a)) return 'image/tiff';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  if (at(0, 0x01, 0x00, 0x00, 0x00) && at(40, 0x20, 0x45, 0x4d, 0x46)) return 'image/x-emf';
  if (at(0, 0xd7, 0xcd, 0xc6, 0x9a) || at(0, 0x01, 0x00, 0x09, 0x00) || at(0, 0x02, 0x00, 0x09, 0x00))
    return 'image/x-wmf';
  return undefined;
}

interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** Refuses a picture whose pixels would not fit in this device's memory (before they are allocated). */
function checkSize(width: number, height: number): void {
  if (!(width > 0 && height > 0) || width * height > pixelLimit())
    throw new Error(`a ${width} × ${height} picture is too large to draw`);
}

function decodeGif(bytes: Uint8Array): Pixels {
  const reader = new GifReader(bytes);
  checkSize(reader.width, reader.height);
  // transparent where the first frame leaves pixels out
  const data = new Uint8ClampedArray(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, data as unknown as Uint8Array);
  return { data, width: reader.width, height: reader.height };
}

function decodeTiff(bytes: Uint8Array): Pixels {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const [ifd] = UTIF.decode(buffer);
  if (!ifd) throw new Error('TIFF without an image');
  checkSize(Number((ifd.t256 as number[] | undefined)?.[0]), Number((ifd.t257 as number[] | undefined)?.[0]));
  UTIF.decodeImage(buffer, ifd);
  return { data: new Uint8ClampedArray(UTIF.toRGBA8(ifd)), width: ifd.width, height: ifd.height };
}

/**
 * Uncompressed Windows bitmaps (BI_RGB, 1/4/8-bit with a palette, 24- and 32-bit; BI_BITFIELDS at
 * 32 bits with the usual masks), bottom-up or top-down — what Office keeps when a BMP is pasted.
 */
function decodeBmp(bytes: Uint8Array): Pixels {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const offset = view.getUint32(10, true);
  const headerSize = view.getUint32(14, true);
  const width = view.getInt32(18, true);
  const signedHeight = view.getInt32(22, true);
  const bits = view.getUint16(28, true);
  const compression = view.getUint32(30, true);
  const height = Math.abs(signedHeight);
  if (
    width <= 0 ||
    height === 0 ||
    !(compression === 0 || (compression === 3 && bits === 32)) ||
    ![1, 4, 8, 24, 32].includes(bits)
  ) {
    throw new Error(`unsupported BMP (${bits} bits, compression ${compression})`);
  }
  checkSize(width, height);
  const paletteSize = bits <= 8 ? view.getUint32(46, true) || 1 << bits : 0;
  const palette = Array.from({ length: paletteSize }, (_, i) => 14 + headerSize + i * 4);
  const stride = Math.ceil((width * bits) / 32) * 4;
  const hasAlpha = bits === 32 && headerSize >= 56 && (compression === 0 || view.getUint32(66, true) !== 0);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = offset + (signedHeight > 0 ? height - 1 - y : y) * stride;
    for (let x = 0; x < width; x++) {
      const out = (y * width + x) * 4;
      let r: number,
        g: number,
        b: number,
        a = 255;
      if (bits <= 8) {
        const index = (bytes[row + Math.floor((x * bits) / 8)] >> (8 - bits - ((x * bits) % 8))) & ((1 << bits) - 1);
        const entry = palette[index] ?? palette[0];
        [b, g, r] = [bytes[entry], bytes[entry + 1], bytes[entry + 2]];
      } else {
        const p = row + x * (bits / 8);
        [b, g, r] = [bytes[p], bytes[p + 1], bytes[p + 2]];
        if (hasAlpha) a = bytes[p + 3];
      }
      data.set([r, g, b, a], out);
    }
  }
  // A 32-bit bitmap whose alpha is all zero means "no alpha" (most writers leave it so).
  if (hasAlpha && data.every((v, i) => i % 4 !== 3 || v === 0)) for (let i = 3; i < data.length; i += 4) data[i] = 255;
  return { data, width, height };
}

/**
 * The picture as bytes pdf-lib embeds: PNG and JPEG as they are, GIF / BMP / TIFF / WebP decoded and
 * re-encoded as PNG. Throws for anything else (metafiles) or a file that does not decode.
 */
export async function embeddable(
  bytes: Uint8Array,
  /** A colour drawn as transparent (a metafile's masked bitmaps); applies to decoded formats. */
  transparentColor?: readonly [number, number, number],
): Promise<{ bytes: Uint8Array; format: 'png' | 'jpeg' }> {
  const mime = sniffImage(bytes);
  if (mime === 'image/png' || mime === 'image/jpeg') return { bytes, format: mime === 'image/png' ? 'png' : 'jpeg' };
  let pixels: Pixels;
  if (mime === 'image/gif') pixels = decodeGif(bytes);
  else if (mime === 'image/bmp') pixels = decodeBmp(bytes);
  else if (mime === 'image/tiff') pixels = decodeTiff(bytes);
  else if (mime === 'image/webp') {
    const header = imageHeader(bytes);
    if (header) checkSize(header.width, header.height);
    pixels = await decodeImage(bytes, 'webp');
  } else throw new Error(`pictures in ${mime ?? 'this'} format cannot be drawn`);
  if (transparentColor) {
    const [r, g, b] = transparentColor;
    const d = pixels.data;
    for (let i = 0; i < d.length; i += 4) if (d[i] === r && d[i + 1] === g && d[i + 2] === b) d[i + 3] = 0;
  }
  return { bytes: await encodePng(makeImageData(pixels.data, pixels.width, pixels.height)), format: 'png' };
}

/**
 * The picture's resolution in dots per inch as its file states it (PNG pHYs, JPEG JFIF), else 96 — Office's natural
 * size.
 */
export function pixelDensity(b: Uint8Array): number {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const mime = sniffImage(b);
  if (mime === 'image/png') {
    for (let at = 8; at + 8 <= b.length;) {
      const length = view.getUint32(at);
      const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
      if (type === 'pHYs' && at + 17 <= b.length && b[at + 16] === 1)
        return Math.round(view.getUint32(at + 8) * 0.0254) || 96;
      if (type === 'IDAT') break;
      at += 12 + length;
    }
  } else if (
    mime === 'image/jpeg' &&
    b.length > 18 &&
    b[3] === 0xe0 &&
    String.fromCharCode(...b.subarray(6, 10)) === 'JFIF'
  ) {
    const units = b[13],
      density = view.getUint16(14);
    if (units === 1 && density > 1) return density;
    if (units === 2 && density > 1) return density * 2.54;
  }
  return 96;
}
