import { describe, expect, test } from 'vitest';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { run, layout } from '../../workers/engine/tools/jpg-to-pdf.ts';
import { encodeJpeg, encodePng, makeImageData } from '../../workers/engine/lib/image/codecs.ts';
import { orientationMatrix, readJpegInfo } from '../../workers/engine/lib/image/jpeg-info.ts';
import { openPdfjs, renderPage } from '../../workers/engine/lib/pdf/pdfjs.ts';

/** width × height pixels, white, with a red top-left quarter (so orientation can be seen). */
function redCornerPixels(width: number, height: number): Uint8ClampedArray {
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  for (let y = 0; y < height / 2; y++)
    for (let x = 0; x < width / 2; x++) data.set([230, 0, 0, 255], (y * width + x) * 4);
  return data;
}

/** Inserts an EXIF APP1 segment carrying only the Orientation tag right after SOI. */
function withOrientation(jpeg: Uint8Array, orientation: number): Uint8Array {
  const tiff = [0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const length = payload.length + 2;
  const app1 = [0xff, 0xe1, length >> 8, length & 0xff, ...payload];
  return new Uint8Array([...jpeg.subarray(0, 2), ...app1, ...jpeg.subarray(2)]);
}

/** The contents of every DCTDecode image stream in the PDF. */
async function embeddedJpegs(pdf: Uint8Array): Promise<Uint8Array[]> {
  const doc = await PDFDocument.load(pdf);
  return doc.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .filter(
      (o): o is PDFRawStream =>
        o instanceof PDFRawStream && o.dict.get(PDFName.of('Filter')) === PDFName.of('DCTDecode'),
    )
    .map((o) => o.contents);
}

const pageSizes = async (pdf: Uint8Array) => (await PDFDocument.load(pdf)).getPages().map((p) => p.getSize());
const isRed = ([r, g, b]: number[]) => r > 180 && g < 80 && b < 80;

describe('jpg-to-pdf', () => {
  test('JPEG bytes are embedded unchanged and the page has the image aspect; PNG with alpha works; order is kept', async () => {
    const jpeg = await encodeJpeg(makeImageData(redCornerPixels(200, 100), 200, 100), { quality: 85 });
    const rgba = redCornerPixels(60, 90);
    rgba[3] = 0; // one transparent pixel → the PNG has alpha
    const png = await encodePng(makeImageData(rgba, 60, 90));
    const result = await run(
      [
        { name: 'wide.jpg', bytes: jpeg },
        { name: 'tall.png', bytes: png },
      ],
      {},
      {},
    );
    expect(result.mime).toBe('application/pdf');
    expect(result.filename).toBe('wide.pdf');
    const sizes = await pageSizes(result.bytes);
    expect(sizes).toHaveLength(2);
    expect(sizes[0].width / sizes[0].height).toBeCloseTo(2, 5);
    expect(sizes[0].width).toBeCloseTo(150, 3); // 200 px at 96 dpi
    expect(sizes[1].width / sizes[1].height).toBeCloseTo(60 / 90, 5);
    const jpegs = await embeddedJpegs(result.bytes);
    expect(jpegs).toHaveLength(1);
    expect(Buffer.from(jpegs[0]).equals(Buffer.from(jpeg))).toBe(true);
  });

  test('A4 and Letter: auto orientation follows the image, margins shrink the image, it stays centred', async () => {
    const jpeg = await encodeJpeg(makeImageData(redCornerPixels(300, 200), 300, 200), { quality: 80 });
    const files = [{ name: 'a.jpg', bytes: jpeg }];
    const [a4auto] = await pageSizes(
      (await run(files, { pageSize: 'a4', orientation: 'auto', margin: 'none' }, {})).bytes,
    );
    expect([a4auto.width, a4auto.height]).toEqual([841.89, 595.28]);
    const [letterPortrait] = await pageSizes(
      (await run(files, { pageSize: 'letter', orientation: 'portrait', margin: 'large' }, {})).bytes,
    );
    expect([letterPortrait.width, letterPortrait.height]).toEqual([612, 792]);
    const { box } = layout(300, 200, { pageSize: 'letter', orientation: 'portrait', margin: 'large' });
    expect(box[2]).toBeCloseTo(612 - 100, 5); // fills the width inside 50 pt margins
    expect(box[2] / box[3]).toBeCloseTo(1.5, 5);
    expect(box[1] + box[3] / 2).toBeCloseTo(396, 5); // vertically centred
  });

  test('fit to image: a 1 × 1 px image gets the smallest page readers accept (3 units), image centred', () => {
    const fit = { pageSize: 'fit', orientation: 'auto', margin: 'none' };
    const tiny = layout(1, 1, fit);
    expect(tiny.page).toEqual([3, 3]);
    expect(tiny.box).toEqual([1.125, 1.125, 0.75, 0.75]);
    const thin = layout(1, 40_000, fit);
    expect(thin.page[0]).toBe(3);
    expect(thin.page[1]).toBeCloseTo(14_400, 5);
    expect(layout(400, 200, fit).page).toEqual([300, 150]);
  });

  test('EXIF orientation 6 is honoured by the page transform without re-encoding', async () => {
    const raw = await encodeJpeg(makeImageData(redCornerPixels(160, 80), 160, 80), { quality: 90 });
    const rotated = withOrientation(raw, 6);
    expect(readJpegInfo(rotated).orientation).toBe(6);
    const result = await run([{ name: 'phone.jpg', bytes: rotated }], {}, {});
    expect(result.filename).toBe('phone.pdf');
    const [size] = await pageSizes(result.bytes);
    expect(size.width / size.height).toBeCloseTo(0.5, 5); // displayed portrait
    expect(Buffer.from((await embeddedJpegs(result.bytes))[0]).equals(Buffer.from(rotated))).toBe(true);
    // Rotated 90° clockwise, the stored top-left red quarter is shown top-right.
    const doc = await openPdfjs(result.bytes);
    const page = await renderPage(doc, 1, 96);
    const px = (x: number, y: number) =>
      Array.from(page.data.subarray((y * page.width + x) * 4, (y * page.width + x) * 4 + 3));
    expect(isRed(px(page.width - 5, 5))).toBe(true);
    expect(isRed(px(5, 5))).toBe(false);
    expect(isRed(px(page.width - 5, page.height - 5))).toBe(false);
    await doc.destroy();
  });

  test('every orientation matrix maps the stored top-left corner where EXIF says', () => {
    // Stored top-left is image-space (0, 1); expected display corner in a 10 × 20 box at the origin.
    const expected: Record<number, [number, number]> = {
      1: [0, 20],
      2: [10, 20],
      3: [10, 0],
      4: [0, 0],
      5: [0, 20],
      6: [10, 20],
      7: [10, 0],
      8: [0, 0],
    };
    for (const [orientation, corner] of Object.entries(expected)) {
      const [a, b, c, d, e, f] = orientationMatrix(Number(orientation), 0, 0, 10, 20);
      expect([a * 0 + c * 1 + e, b * 0 + d * 1 + f]).toEqual(corner);
    }
  });

  test('non-images, empty and truncated files are named; skipInvalid converts the others', async () => {
    const jpeg = await encodeJpeg(makeImageData(redCornerPixels(40, 40), 40, 40), { quality: 80 });
    const files = [
      { name: 'good.jpg', bytes: jpeg },
      { name: 'notes.txt', bytes: new TextEncoder().encode('hello') },
      { name: 'empty.png', bytes: new Uint8Array(0) },
      { name: 'cut.jpg', bytes: jpeg.subarray(0, Math.floor(jpeg.length / 2)) },
    ];
    const failure = run(files, {}, {});
    await expect(failure).rejects.toThrow(
      '"notes.txt" is not a JPEG, PNG or WebP image; "empty.png" is empty (0 bytes); "cut.jpg" is cut short',
    );
    await expect(run(files, {}, {})).rejects.toThrow(
      'tick "Skip files that cannot be read" to convert the other image',
    );
    const result = await run(files, { skipInvalid: true }, {});
    expect(await pageSizes(result.bytes)).toHaveLength(1);
    expect(result.notes?.join(' ')).toContain('"cut.jpg"');
    await expect(run(files.slice(1), { skipInvalid: true }, {})).rejects.toThrow('"notes.txt"');
  });
});
