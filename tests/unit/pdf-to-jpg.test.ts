import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { run, pageSuffix, resolveDpi } from '../../workers/engine/tools/pdf-to-jpg.ts';
import {
  decodeImage,
  decodeJpeg,
  encodeJpeg,
  encodePng,
  makeImageData,
} from '../../workers/engine/lib/image/codecs.ts';

const decodePng = (bytes: Uint8Array) => decodeImage(bytes, 'png');

/** Pages of known sizes in points, each with a label so renders are not blank. */
async function makePdf(sizes: Array<[number, number]>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  sizes.forEach(([w, h], i) => {
    const page = doc.addPage([w, h]);
    page.drawText(`Page ${i + 1}`, { x: 20, y: h - 40, size: 18, font, color: rgb(0, 0, 0) });
    page.drawRectangle({ x: 0, y: 0, width: w / 2, height: h / 2, color: rgb(1, 0, 0) });
  });
  return doc.save();
}

const input = (bytes: Uint8Array, name = 'report.pdf') => [{ name, bytes }];

describe('pdf-to-jpg: rendering pages', () => {
  test('a single chosen page gives one JPEG whose pixel size matches the dpi', async () => {
    const pdf = await makePdf([
      [612, 792],
      [300, 200],
    ]);
    const result = await run(
      input(pdf),
      { mode: 'pages', resolution: '150', format: 'jpeg', quality: 80, pages: '1' },
      {},
    );
    expect(result.mime).toBe('image/jpeg');
    expect(result.filename).toBe('report-p001.jpg');
    const image = await decodeJpeg(result.bytes);
    expect([image.width, image.height]).toEqual([1275, 1650]); // 8.5 × 11 in at 150 dpi
    // Top-left is white paper, bottom-left the red rectangle: the page really was drawn.
    const at = (x: number, y: number) =>
      Array.from(image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3));
    expect(at(5, 5).every((v) => v > 240)).toBe(true);
    const [r, g, b] = at(10, image.height - 10);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(60);
    expect(b).toBeLessThan(60);
  });

  test('several pages give <name>-pages.zip with <name>-p001.jpg names, at 72, 300 and custom dpi', async () => {
    const pdf = await makePdf([
      [300, 200],
      [200, 300],
      [100, 100],
    ]);
    const progress: number[] = [];
    for (const [resolution, dpi, expected] of [
      [
        '72',
        0,
        [
          [300, 200],
          [100, 100],
        ],
      ],
      [
        '300',
        0,
        [
          [1250, 833],
          [417, 417],
        ],
      ],
      [
        'custom',
        144,
        [
          [600, 400],
          [200, 200],
        ],
      ],
    ] as const) {
      const result = await run(
        input(pdf, 'My scan.pdf'),
        { mode: 'pages', resolution, dpi, format: 'jpeg', quality: 70, pages: '1, 3' },
        { progress: (done) => progress.push(done) },
      );
      expect(result.filename).toBe('My scan-pages.zip');
      const zip = await JSZip.loadAsync(result.bytes);
      expect(Object.keys(zip.files).sort()).toEqual(['My scan-p001.jpg', 'My scan-p003.jpg']);
      const first = await decodeJpeg(await zip.file('My scan-p001.jpg')!.async('uint8array'));
      const third = await decodeJpeg(await zip.file('My scan-p003.jpg')!.async('uint8array'));
      expect([
        [first.width, first.height],
        [third.width, third.height],
      ]).toEqual(expected);
    }
    expect(progress).toContain(2);
  });

  test('PNG output is lossless PNG of the right size', async () => {
    const pdf = await makePdf([[144, 72]]);
    const result = await run(input(pdf), { mode: 'pages', resolution: '72', format: 'png', pages: '' }, {});
    expect(result.mime).toBe('image/png');
    expect(result.filename).toBe('report-p001.png');
    const image = await decodePng(result.bytes);
    expect([image.width, image.height]).toEqual([144, 72]);
  });

  test('bad input fails with clear messages', async () => {
    const pdf = await makePdf([[100, 100]]);
    await expect(run(input(pdf), { pages: '4' }, {})).rejects.toThrow('Page 4 does not exist');
    await expect(run(input(new Uint8Array(0)), {}, {})).rejects.toThrow('"report.pdf" is empty (0 bytes).');
    await expect(run(input(new TextEncoder().encode('hello')), {}, {})).rejects.toThrow('is not a valid PDF');
    await expect(run(input(pdf), { resolution: 'custom', dpi: 5000 }, {})).rejects.toThrow('between 10 and 1200 dpi');
    const huge = await makePdf([[14400, 14400]]);
    await expect(run(input(huge), { resolution: '300' }, {})).rejects.toThrow('too large');
    const aborted = AbortSignal.abort();
    await expect(run(input(pdf), {}, { signal: aborted })).rejects.toThrow('Cancelled');
  });

  test('helpers', () => {
    expect(pageSuffix(7, 12)).toBe('-p007');
    expect(pageSuffix(7, 1200)).toBe('-p0007');
    expect(resolveDpi({ resolution: 'custom', dpi: 96 })).toBe(96);
  });
});

describe('pdf-to-jpg: extracting embedded images', () => {
  test('a JPEG comes out byte for byte, a PNG losslessly, logos once, and names tell the page', async () => {
    const pixels = new Uint8ClampedArray(64 * 48 * 4);
    for (let i = 0; i < 64 * 48; i++) pixels.set([(i * 7) % 256, (i * 3) % 256, 90, 255], i * 4);
    const jpeg = await encodeJpeg(makeImageData(pixels, 64, 48), { quality: 90 });
    const png = await encodePng(makeImageData(pixels, 64, 48));

    const doc = await PDFDocument.create();
    const jpegImage = await doc.embedJpg(jpeg);
    const pngImage = await doc.embedPng(png);
    const p1 = doc.addPage([400, 400]);
    p1.drawImage(jpegImage, { x: 10, y: 10, width: 64, height: 48 });
    const p2 = doc.addPage([400, 400]);
    p2.drawImage(pngImage, { x: 10, y: 10, width: 64, height: 48 });
    p2.drawImage(jpegImage, { x: 100, y: 100, width: 64, height: 48 });
    doc.addPage([400, 400]); // no images
    const pdf = await doc.save();

    const result = await run(input(pdf, 'photos.pdf'), { mode: 'images', pages: '' }, {});
    expect(result.filename).toBe('photos-images.zip');
    const zip = await JSZip.loadAsync(result.bytes);
    expect(Object.keys(zip.files).sort()).toEqual(['photos-p001-img01.jpg', 'photos-p002-img01.png']);
    const extractedJpeg = await zip.file('photos-p001-img01.jpg')!.async('uint8array');
    expect(Buffer.from(extractedJpeg).equals(Buffer.from(jpeg))).toBe(true);
    const extractedPng = await decodePng(await zip.file('photos-p002-img01.png')!.async('uint8array'));
    expect([extractedPng.width, extractedPng.height]).toEqual([64, 48]);
    expect(Buffer.from(extractedPng.data).equals(Buffer.from(pixels))).toBe(true);

    const one = await run(input(pdf, 'photos.pdf'), { mode: 'images', pages: '1' }, {});
    expect(one.filename).toBe('photos-p001-img01.jpg');
    expect(Buffer.from(one.bytes).equals(Buffer.from(jpeg))).toBe(true);

    await expect(run(input(pdf, 'photos.pdf'), { mode: 'images', pages: '3' }, {})).rejects.toThrow(
      'No embedded images',
    );
  });
});
