import { describe, expect, test, vi } from 'vitest';
import JSZip from 'jszip';
import { run, fitInside } from '../../workers/engine/tools/image-compressor.ts';
import {
  decodeImage,
  encodeJpeg,
  encodePng,
  encodeWebp,
  imageHeader,
  makeImageData,
} from '../../workers/engine/lib/image/codecs.ts';
import { createApiServer } from '../../mock-api/node.ts';
import { animatedWebp, withAnimationControl } from '../support/image-fixtures.ts';
import { tool as imageTool } from '../../src/catalogue/tools/image-compressor.ts';

function photo(width: number, height: number): ImageData {
  const data = new Uint8ClampedArray(width * height * 4);
  let seed = 3;
  const noise = () => ((seed = (seed * 16807) % 2147483647) % 30) - 15;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = 128 + 100 * Math.sin(x / 29) + noise();
      data[i + 1] = 128 + 100 * Math.cos(y / 17) + noise();
      data[i + 2] = (x * 2 + y) % 256;
      data[i + 3] = 255;
    }
  }
  return makeImageData(data, width, height);
}

/** A noisy photo with a half-transparent top band: thousands of colours, so a palette is lossy but much smaller. */
function screenshot(width: number, height: number): ImageData {
  const image = photo(width, height);
  for (let i = 3; i < width * 10 * 4; i += 4) image.data[i] = 128;
  return image;
}

/** Inserts an EXIF APP1 with Orientation = 6 (rotate 90° clockwise to display) after SOI. */
function withOrientation6(jpeg: Uint8Array): Uint8Array {
  const tiff = [0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const app1 = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  const out = new Uint8Array(jpeg.length + app1.length);
  out.set(jpeg.subarray(0, 2));
  out.set(app1, 2);
  out.set(jpeg.subarray(2), 2 + app1.length);
  return out;
}

describe('image-compressor engine', () => {
  test('a high-quality JPEG becomes a smaller JPEG of the same size at quality 75', async () => {
    const original = await encodeJpeg(photo(800, 600), { quality: 97 });
    const result = await run([{ name: 'holiday.jpg', bytes: original }], { format: 'auto', quality: 75 }, {});
    expect(result.filename).toBe('holiday-compressed.jpg');
    expect(result.mime).toBe('image/jpeg');
    expect(result.bytes.length).toBeLessThan(original.length * 0.6);
    expect(imageHeader(result.bytes)).toMatchObject({ format: 'jpeg', width: 800, height: 600 });
    expect(result.notes?.[0]).toMatch(/^holiday\.jpg: .* → .* \(−\d+%\), 800 × 600\.$/);
  });

  test('resize keeps the aspect ratio and never enlarges', async () => {
    expect(fitInside(4000, 3000, 1000, 0)).toEqual([1000, 750]);
    expect(fitInside(4000, 3000, 1000, 500)).toEqual([667, 500]);
    expect(fitInside(400, 300, 1000, 1000)).toEqual([400, 300]);
    const original = await encodeJpeg(photo(800, 600), { quality: 90 });
    const result = await run([{ name: 'a.jpg', bytes: original }], { maxWidth: 200, quality: 75 }, {});
    expect(imageHeader(result.bytes)).toMatchObject({ width: 200, height: 150 });
  });

  test('format choice: WebP, AVIF and PNG outputs decode to the same picture size', async () => {
    const original = await encodeJpeg(photo(320, 240), { quality: 95 });
    for (const [format, mime, extension] of [
      ['webp', 'image/webp', 'webp'],
      ['avif', 'image/avif', 'avif'],
      ['png', 'image/png', 'png'],
    ] as const) {
      const result = await run([{ name: 'p.jpg', bytes: original }], { format, quality: 60 }, {});
      expect(result.mime).toBe(mime);
      expect(result.filename).toBe(`p-compressed.${extension}`);
      const decoded = await decodeImage(result.bytes, format);
      expect([decoded.width, decoded.height]).toEqual([320, 240]);
    }
  });

  test('PNG: lossless OxiPNG never grows; the 256-colour palette shrinks a screenshot further and keeps alpha', async () => {
    const image = screenshot(400, 300);
    const png = await encodePng(image, { level: 0 });
    const lossless = await run([{ name: 's.png', bytes: png }], {}, {});
    expect(lossless.bytes.length).toBeLessThanOrEqual(png.length);
    const decoded = await decodeImage(lossless.bytes, 'png');
    expect(Array.from(decoded.data.subarray(0, 4))).toEqual(Array.from(image.data.subarray(0, 4)));

    const palette = await run([{ name: 's.png', bytes: png }], { palette: true }, {});
    expect(palette.bytes.length).toBeLessThan(lossless.bytes.length);
    const reduced = await decodeImage(palette.bytes, 'png');
    expect(reduced.data[3]).toBe(128); // top rows stay half transparent
    expect(reduced.data[(200 * 400 + 10) * 4 + 3]).toBe(255);
  });

  test('EXIF orientation is applied when metadata is removed, and kept (with the tag) when not', async () => {
    const rotated = withOrientation6(await encodeJpeg(photo(300, 200), { quality: 95 }));
    expect(imageHeader(rotated)?.orientation).toBe(6);
    const stripped = await run([{ name: 'r.jpg', bytes: rotated }], { stripMetadata: true }, {});
    expect(imageHeader(stripped.bytes)).toMatchObject({ width: 200, height: 300 });
    expect(imageHeader(stripped.bytes)?.orientation).toBeUndefined();
    const kept = await run([{ name: 'r.jpg', bytes: rotated }], { stripMetadata: false }, {});
    expect(imageHeader(kept.bytes)).toMatchObject({ width: 300, height: 200, orientation: 6 });
    expect(kept.notes?.[0]).toMatch(/, 200 × 300\.$/); // the size as displayed
    // Shown 200 × 300: at most 100 wide means shown 100 × 150, i.e. stored 150 × 100 with the tag.
    const limited = await run([{ name: 'r.jpg', bytes: rotated }], { stripMetadata: false, maxWidth: 100 }, {});
    expect(imageHeader(limited.bytes)).toMatchObject({ width: 150, height: 100, orientation: 6 });
    expect(limited.notes?.[0]).toMatch(/, 100 × 150\.$/);
    const stripped100 = await run([{ name: 'r.jpg', bytes: rotated }], { maxWidth: 100 }, {});
    expect(imageHeader(stripped100.bytes)).toMatchObject({ width: 100, height: 150 });
  });

  test('transparency becomes white in a JPEG (not the black hidden under it), and the note says so', async () => {
    // A dark logo on a transparent background, a half-transparent red band below it: what a PNG
    // from an editor looks like, with the colour under transparent pixels left black.
    const [width, height] = [120, 80];
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const pixel =
          y >= 60 ? [255, 0, 0, 128] : x >= 40 && x < 80 && y >= 20 && y < 40 ? [20, 20, 20, 255] : [0, 0, 0, 0];
        data.set(pixel, (y * width + x) * 4);
      }
    }
    const png = await encodePng(makeImageData(data, width, height));
    const result = await run([{ name: 'logo.png', bytes: png }], { format: 'jpeg', quality: 90 }, {});
    expect(result.filename).toBe('logo-compressed.jpg');
    const out = await decodeImage(result.bytes, 'jpeg');
    const at = (x: number, y: number) => Array.from(out.data.subarray((y * width + x) * 4, (y * width + x) * 4 + 3));
    const near = (actual: number[], expected: number[]) =>
      actual.every((value, i) => Math.abs(value - expected[i]) <= 6) || `${actual} is not ${expected}`;
    expect(near(at(5, 5), [255, 255, 255])).toBe(true);
    expect(near(at(60, 30), [20, 20, 20])).toBe(true);
    expect(near(at(60, 70), [255, 127, 127])).toBe(true);
    expect(result.notes?.[0]).toMatch(/transparent areas are white/);
    // Opaque images are untouched and get no such note.
    const opaque = await run([{ name: 'p.png', bytes: await encodePng(photo(60, 40)) }], { format: 'jpeg' }, {});
    expect(opaque.notes?.[0]).not.toMatch(/transparen/);
  });

  test('animated WebP and PNG are refused by name rather than turned into their first frame', async () => {
    const frames = [photo(90, 60), screenshot(90, 60)];
    const animated = await animatedWebp(frames);
    expect(imageHeader(animated)).toMatchObject({ format: 'webp', width: 90, height: 60 });
    for (const format of ['auto', 'webp', 'png']) {
      await expect(run([{ name: 'sticker.webp', bytes: animated }], { format }, {})).rejects.toThrow(
        '"sticker.webp" is an animated WebP: Folio compresses still images only, and would keep just its first frame.',
      );
    }
    const apng = withAnimationControl(await encodePng(photo(40, 30)));
    await expect(run([{ name: 'a.png', bytes: apng }], {}, {})).rejects.toThrow(/"a\.png" is an animated PNG \(APNG\)/);
    // A still WebP with an extended header (VP8X, alpha flag only) is compressed as before.
    const still = await encodeWebp(screenshot(90, 60), { quality: 95 });
    expect(String.fromCharCode(...still.subarray(12, 16))).toBe('VP8X');
    const result = await run([{ name: 'still.webp', bytes: still }], { format: 'png' }, {});
    expect(imageHeader(result.bytes)).toMatchObject({ format: 'png', width: 90, height: 60 });
  });

  test('a JPEG that cannot shrink comes back as it was', async () => {
    const small = await encodeJpeg(photo(200, 150), { quality: 40 });
    const result = await run([{ name: 'small.jpg', bytes: small }], { quality: 95 }, {});
    expect(result.bytes).toEqual(small);
    expect(result.notes?.[0]).toMatch(/kept the original/);
  });

  test('bad input is named: empty, not an image, too many pixels for the device (refused before decoding)', async () => {
    await expect(run([{ name: 'empty.jpg', bytes: new Uint8Array() }], {}, {})).rejects.toMatchObject({
      name: 'InvalidImage',
      message: '"empty.jpg" is empty (0 bytes).',
    });
    await expect(
      run([{ name: 'notes.png', bytes: new TextEncoder().encode('not an image') }], {}, {}),
    ).rejects.toMatchObject({
      name: 'InvalidImage',
      message: '"notes.png" is not a JPEG, PNG, WebP or AVIF image.',
    });
    // A PNG header claiming 30000 × 30000 pixels (900 MP): refused from the header alone.
    const huge = await encodePng(photo(16, 16));
    new DataView(huge.buffer, huge.byteOffset).setUint32(16, 30000);
    new DataView(huge.buffer, huge.byteOffset).setUint32(20, 30000);
    await expect(run([{ name: 'panorama.png', bytes: huge }], {}, {})).rejects.toMatchObject({
      name: 'TooLarge',
      message: expect.stringContaining('"panorama.png" is 30000 × 30000 pixels (900 megapixels): too large'),
    });
  });

  test('several inputs give a ZIP; bad files are skipped and named', async () => {
    const a = await encodeJpeg(photo(300, 200), { quality: 95 });
    const result = await run(
      [
        { name: 'a.jpg', bytes: a },
        { name: 'empty.png', bytes: new Uint8Array() },
        { name: 'b.jpg', bytes: a },
      ],
      { quality: 70 },
      {},
    );
    expect(result.filename).toBe('a-compressed.zip');
    const zip = await JSZip.loadAsync(result.bytes);
    expect(Object.keys(zip.files).sort()).toEqual(['a.jpg', 'b.jpg']);
    expect(result.notes?.join('\n')).toContain('Skipped "empty.png" is empty (0 bytes).');
  });
});

test('POST /api/pdf/compressImg: file in, compressed file out with its name', async () => {
  vi.stubGlobal('location', new URL('http://localhost/'));
  const server = createApiServer();
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const original = await encodeJpeg(photo(640, 480), { quality: 95 });
    const form = new FormData();
    form.append('file', new File([original as Uint8Array<ArrayBuffer>], 'Foto.jpg', { type: 'image/jpeg' }));
    form.append('format', 'webp');
    form.append('quality', '70');
    const response = await fetch(`http://localhost${imageTool.endpoint}`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('image/webp');
    expect(response.headers.get('Content-Disposition')).toContain('Foto-compressed.webp');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(imageHeader(bytes)).toMatchObject({ format: 'webp', width: 640, height: 480 });

    const empty = new FormData();
    empty.append('file', new File([], 'blank.jpg', { type: 'image/jpeg' }));
    const refused = await fetch(`http://localhost${imageTool.endpoint}`, { method: 'POST', body: empty });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ error: '"blank.jpg" is empty (0 bytes).', code: 'InvalidImage' });
  } finally {
    server.close();
    vi.unstubAllGlobals();
  }
});
