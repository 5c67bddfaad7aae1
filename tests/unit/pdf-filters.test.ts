/** Stream filters: the PNG predictor decoder shared by compression, image extraction and xref streams. */
import { describe, expect, test } from 'vitest';
import { PDFDocument, PDFName } from 'pdf-lib';
import { deflateSync } from 'node:zlib';
import { filterNames, predictorParams } from '../../workers/engine/lib/pdf/filters.ts';
import {
  PredictorError,
  inflate,
  unpredict,
  type PredictorParams,
} from '../../workers/engine/lib/pdf/stream-decode.ts';
import { extractImage } from '../../workers/engine/lib/pdf/pdf-image-extract.ts';
import { decodeImage } from '../../workers/engine/lib/image/codecs.ts';

const png = (columns: number, colors = 1, bitsPerComponent = 8): PredictorParams => ({
  predictor: 12,
  colors,
  bitsPerComponent,
  columns,
});

/** PNG filtering (the encoder's side, PNG specification §9.2), written independently of the decoder. */
function filterRows(rows: number[][], type: number, pixelBytes: number): Uint8Array {
  const out: number[] = [];
  rows.forEach((row, r) => {
    const above = r > 0 ? rows[r - 1] : row.map(() => 0);
    out.push(type);
    row.forEach((x, i) => {
      const a = i >= pixelBytes ? row[i - pixelBytes] : 0;
      const b = above[i];
      const c = i >= pixelBytes ? above[i - pixelBytes] : 0;
      const p = a + b - c;
      const nearest =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predicted = [0, a, b, Math.floor((a + b) / 2), nearest][type];
      out.push((x - predicted + 256) % 256);
    });
  });
  return Uint8Array.from(out);
}

/** Three rows of three RGB pixels, with values that make every predictor wrap around 255. */
const RGB_ROWS = [
  [250, 10, 128, 5, 255, 0, 200, 100, 50],
  [3, 250, 129, 240, 2, 255, 90, 180, 60],
  [128, 128, 128, 0, 0, 0, 255, 255, 255],
];

describe('unpredict: PNG predictors (/Predictor 10–15)', () => {
  test('hand-computed rows: None, Sub, Up, Average, Paeth', () => {
    // Gray, 4 columns. Row 1 None: 10 20 30 40. Row 2 Sub: 5 +1 +1 +1 → 5 6 7 8.
    // Row 3 Up: +1 each → 6 7 8 9. Row 4 Average: 6+(0+6)>>1=9, 1+((9+7)>>1)=9, 0+((9+8)>>1)=8, 2+((8+9)>>1)=10.
    // Row 5 Paeth, raw 1 2 3 4: the first byte is predicted from above (9 → 10); then p = left + above
    // − upper-left is nearest to left each time: 10 + 2 = 12, 12 + 3 = 15, 15 + 4 = 19.
    const data = Uint8Array.from([0, 10, 20, 30, 40, 1, 5, 1, 1, 1, 2, 1, 1, 1, 1, 3, 6, 1, 0, 2, 4, 1, 2, 3, 4]);
    const out = unpredict(data, png(4));
    expect([...out]).toEqual([10, 20, 30, 40, 5, 6, 7, 8, 6, 7, 8, 9, 9, 9, 8, 10, 10, 12, 15, 19]);
  });

  for (const [type, name] of ['None', 'Sub', 'Up', 'Average', 'Paeth'].entries()) {
    test(`filter type ${type} (${name}) round-trips 8-bit RGB`, () => {
      expect([...unpredict(filterRows(RGB_ROWS, type, 3), png(3, 3))]).toEqual(RGB_ROWS.flat());
    });
  }

  test('rows may mix filter types, and 16-bit samples use a 2-byte-per-sample left neighbour', () => {
    // 2 columns of 16-bit gray: 4 bytes a row, the left neighbour 2 bytes back.
    const rows = [
      [1, 2, 3, 4],
      [200, 100, 50, 25],
      [7, 7, 7, 7],
      [255, 0, 255, 0],
    ];
    const data = Uint8Array.from(rows.flatMap((_, r) => [...filterRows(rows.slice(0, r + 1), r + 1, 2).slice(-5)]));
    expect([...unpredict(data, png(2, 1, 16))]).toEqual(rows.flat());
  });

  test('1-bit samples: rows of ceil(columns / 8) bytes, the left neighbour one byte back', () => {
    const rows = [
      [0b10101010, 0b11000000],
      [0b01010101, 0b00000000],
    ];
    expect([...unpredict(filterRows(rows, 1, 1), png(10, 1, 1))]).toEqual(rows.flat());
  });

  test('an unknown filter type is damaged data: it throws, as pdf.js does, instead of passing bytes through', () => {
    const data = Uint8Array.from([0, 1, 2, 3, 5, 9, 9, 9]);
    expect(() => unpredict(data, png(3))).toThrow(PredictorError);
    expect(() => unpredict(data, png(3))).toThrow(/filter type 5/);
  });

  test('predictor 1 is no prediction; TIFF (2) and out-of-range predictors are refused', () => {
    const data = Uint8Array.from([9, 8, 7]);
    expect(unpredict(data, { ...png(3), predictor: 1 })).toBe(data);
    expect(() => unpredict(data, { ...png(3), predictor: 2 })).toThrow(PredictorError);
    expect(() => unpredict(data, { ...png(3), predictor: 16 })).toThrow(PredictorError);
  });

  test('data ending inside a row: decoded as far as it goes, the rest zero; a lone type byte is no row', () => {
    expect([...unpredict(Uint8Array.from([0, 1, 2, 3, 2, 1]), png(3))]).toEqual([1, 2, 3, 2, 0, 0]);
    expect([...unpredict(Uint8Array.from([0, 1, 2, 3, 2]), png(3))]).toEqual([1, 2, 3]);
  });
});

describe('stream dictionaries', () => {
  test("predictorParams reads /DecodeParms, with the defaults of ISO 32000-1 table 8 or the caller's", async () => {
    const doc = await PDFDocument.create();
    const parms = doc.context.obj({ Predictor: 12, Columns: 5, Colors: 3 });
    expect(predictorParams(parms)).toEqual({ predictor: 12, colors: 3, bitsPerComponent: 8, columns: 5 });
    expect(predictorParams(undefined)).toEqual({ predictor: 1, colors: 1, bitsPerComponent: 8, columns: 1 });
    expect(predictorParams(doc.context.obj({ Predictor: 15 }), { columns: 7 }).columns).toBe(7);
  });

  test("filterNames lists a stream's filters in decoding order", async () => {
    const doc = await PDFDocument.create();
    const dict = (filter: unknown) => doc.context.obj(filter === undefined ? {} : { Filter: filter as never });
    expect(filterNames(dict(undefined))).toEqual([]);
    expect(filterNames(dict(PDFName.of('FlateDecode')))).toEqual(['FlateDecode']);
    expect(filterNames(dict([PDFName.of('ASCII85Decode'), PDFName.of('DCTDecode')]))).toEqual([
      'ASCII85Decode',
      'DCTDecode',
    ]);
  });

  test('inflate undoes zlib deflate with the platform decoder', async () => {
    const bytes = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) % 251);
    expect(await inflate(deflateSync(bytes))).toEqual(bytes);
  });
});

describe('the decoder as image extraction uses it', () => {
  async function predictedImage(
    data: Uint8Array,
  ): Promise<{ doc: PDFDocument; ref: ReturnType<PDFDocument['context']['register']> }> {
    const doc = await PDFDocument.create();
    const stream = doc.context.flateStream(data, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: 3,
      Height: 3,
      BitsPerComponent: 8,
      ColorSpace: 'DeviceRGB',
      DecodeParms: { Predictor: 15, Colors: 3, Columns: 3 },
    });
    return { doc, ref: doc.context.register(stream) };
  }

  test('a Paeth-predicted Flate image comes out as a PNG; an unknown filter type is reported, not guessed at', async () => {
    const good = await predictedImage(filterRows(RGB_ROWS, 4, 3));
    const outcome = await extractImage(good.doc, good.ref);
    if (!('image' in outcome)) throw new Error(`skipped: ${outcome.skipped}`);
    expect(outcome.image.extension).toBe('png');
    const pixels = await decodeImage(outcome.image.bytes, 'png');
    const rgb = [...pixels.data].filter((_, i) => i % 4 !== 3);
    expect(rgb).toEqual(RGB_ROWS.flat());

    const damaged = filterRows(RGB_ROWS, 4, 3);
    damaged[10] = 7; // the second row's filter type
    const bad = await predictedImage(damaged);
    expect(await extractImage(bad.doc, bad.ref)).toEqual({ skipped: 'damaged image data' });
  });
});
