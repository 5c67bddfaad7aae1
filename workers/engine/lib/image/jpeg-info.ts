/**
 * Reading a JPEG's header without decoding it: pixel size, colour components, the EXIF Orientation
 * tag, and whether the file is complete. jpg-to-pdf embeds JPEGs byte for byte and applies the
 * orientation with the page transform, so it needs these facts but never the pixels.
 */
import type { Matrix } from '../pdf/matrix.ts';

export interface JpegInfo {
  width: number;
  height: number;
  components: number;
  progressive: boolean;
  /** EXIF Orientation 1–8 (1 = as stored; 6 = rotate 90° clockwise to display; …). */
  orientation: number;
  /** An EOI marker was found at the end: false for a file cut short (an interrupted download). */
  complete: boolean;
}

export class JpegFormatError extends Error {}

/** EXIF Orientation (tag 0x0112) from an APP1 "Exif\0\0" payload, or 1 when absent or unreadable. */
export function exifOrientation(tiff: Uint8Array): number {
  if (tiff.length < 8) return 1;
  const little = tiff[0] === 0x49 && tiff[1] === 0x49; // "II"
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return 1; // not "MM" either
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  if (u16(2) !== 42) return 1;
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return 1;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) break;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** Walks the marker segments up to the first scan. Throws JpegFormatError when they make no sense. */
export function readJpegInfo(bytes: Uint8Array): JpegInfo {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new JpegFormatError('not a JPEG');
  let offset = 2;
  let orientation = 1;
  let frame: { width: number; height: number; components: number; progressive: boolean } | undefined;
  let sawScan = false;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) throw new JpegFormatError(`bad marker at byte ${offset}`);
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset++;
      continue;
    } // fill byte
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2;
      continue;
    }
    const length = (bytes[offset + 2] << 8) | bytes[offset + 3];
    if (length < 2 || offset + 2 + length > bytes.length) throw new JpegFormatError('segment runs past the end');
    const segment = bytes.subarray(offset + 4, offset + 2 + length);
    if (
      marker === 0xe1 &&
      segment.length > 6 &&
      String.fromCharCode(...segment.subarray(0, 4)) === 'Exif' &&
      segment[4] === 0 &&
      segment[5] === 0
    ) {
      orientation = exifOrientation(segment.subarray(6));
    }
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (segment.length < 6) throw new JpegFormatError('short frame header');
      frame = {
        height: (segment[1] << 8) | segment[2],
        width: (segment[3] << 8) | segment[4],
        components: segment[5],
        progressive: marker === 0xc2 || marker === 0xc6 || marker === 0xca || marker === 0xce,
      };
    }
    if (marker === 0xda) {
      sawScan = true;
      break;
    }
    offset += 2 + length;
  }
  if (!frame) throw new JpegFormatError('no frame header');
  if (frame.width === 0 || frame.height === 0) throw new JpegFormatError('zero size');
  if (!sawScan) throw new JpegFormatError('no image data');
  // The end-of-image marker should close the file; some cameras append a little data after it.
  let complete = false;
  for (let i = bytes.length - 2; i >= Math.max(offset, bytes.length - 65536); i--) {
    if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) {
      complete = true;
      break;
    }
  }
  return { ...frame, orientation, complete };
}

/** Whether the orientation swaps width and height on display (the 90° / 270° ones). */
export const orientationSwapsAxes = (orientation: number) => orientation >= 5 && orientation <= 8;

/**
 * The PDF matrix [a b c d e f] that draws an image XObject (the unit square, stored top row at
 * v = 1) into the box (x, y, width, height) as EXIF `orientation` says it should be displayed.
 * width/height are the box's — i.e. the displayed size, already swapped for 5–8.
 */
export function orientationMatrix(orientation: number, x: number, y: number, width: number, height: number): Matrix {
  const W = width,
    H = height;
  switch (orientation) {
    case 2:
      return [-W, 0, 0, H, x + W, y];
    case 3:
      return [-W, 0, 0, -H, x + W, y + H];
    case 4:
      return [W, 0, 0, -H, x, y + H];
    case 5:
      return [0, -H, -W, 0, x + W, y + H];
    case 6:
      return [0, -H, W, 0, x, y + H];
    case 7:
      return [0, H, W, 0, x, y];
    case 8:
      return [0, H, -W, 0, x + W, y];
    default:
      return [W, 0, 0, H, x, y];
  }
}
