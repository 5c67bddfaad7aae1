import { expect, test } from 'vitest';
import {
  decodeImage,
  encodeAvif,
  encodeJpeg,
  encodePng,
  encodeWebp,
  imageHeader,
  makeImageData,
  resizeImage,
} from '../../workers/engine/lib/image/codecs.ts';

/** A smooth gradient with a hard edge: compresses like a photo, checkable after decoding. */
export function gradient(width: number, height: number, alpha = 255): ImageData {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 255) / width;
      data[i + 1] = (y * 255) / height;
      data[i + 2] = x < width / 2 ? 40 : 200;
      data[i + 3] = alpha;
    }
  }
  return makeImageData(data, width, height);
}

test('every codec round-trips an image with its size, and the header reader agrees', async () => {
  const image = gradient(120, 80);
  const files = {
    jpeg: await encodeJpeg(image, { quality: 75 }),
    webp: await encodeWebp(image, { quality: 75 }),
    avif: await encodeAvif(image, { quality: 60 }),
    png: await encodePng(image),
  } as const;
  for (const [format, bytes] of Object.entries(files) as Array<[keyof typeof files, Uint8Array]>) {
    expect(imageHeader(bytes), format).toMatchObject({ format, width: 120, height: 80 });
    const decoded = await decodeImage(bytes, format);
    expect([decoded.width, decoded.height]).toEqual([120, 80]);
    // Pixel (90, 40): R ≈ 191, G ≈ 127, B = 200 — lossy codecs stay close.
    const i = (40 * 120 + 90) * 4;
    expect(Math.abs(decoded.data[i] - 191)).toBeLessThan(20);
    expect(Math.abs(decoded.data[i + 2] - 200)).toBeLessThan(20);
  }
  const small = await resizeImage(image, 60, 40);
  expect([small.width, small.height]).toEqual([60, 40]);
  const gray = await encodeJpeg(image, { quality: 75, grayscale: true });
  expect(imageHeader(gray)?.components).toBe(1);
});
