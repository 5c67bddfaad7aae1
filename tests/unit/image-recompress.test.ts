/**
 * compress-pdf's streaming Flate image decoder (inflateToRgba in lib/image/recompress.ts) against
 * the whole-buffer path it replaces, toRgba(unpredict(inflate(stream))): the same RGBA for every
 * PNG predictor row type, one and three components, block sizes 1–3 and sizes that do not divide by
 * them; and the same verdict ('damaged image data') for short streams and unknown row types.
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { inflateToRgba, toRgba } from '../../workers/engine/lib/image/recompress.ts';
import { inflate, unpredict, type PredictorParams } from '../../workers/engine/lib/pdf/stream-decode.ts';

/** Deterministic pseudo-random bytes with some smooth structure (so predictors matter). */
function samples(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out[i] = ((i % 97) + (state >>> 28)) & 0xff;
  }
  return out;
}

/** Stored rows each led by a PNG filter type (cycling through 0–4, or `types`). */
function predictedRows(raw: Uint8Array, rowBytes: number, types: (row: number) => number): Uint8Array {
  const rows = raw.length / rowBytes;
  const out = new Uint8Array(rows * (rowBytes + 1));
  for (let r = 0; r < rows; r++) {
    out[r * (rowBytes + 1)] = types(r);
    out.set(raw.subarray(r * rowBytes, (r + 1) * rowBytes), r * (rowBytes + 1) + 1);
  }
  return out;
}

async function wholeBuffer(
  stream: Uint8Array,
  width: number,
  height: number,
  components: number,
  predictor: PredictorParams | undefined,
  k: number,
): Promise<ImageData | string> {
  let data = await inflate(stream);
  if (predictor) {
    try {
      data = unpredict(data, predictor);
    } catch {
      return 'damaged image data';
    }
  }
  if (data.length < width * height * components) return 'damaged image data';
  return toRgba(data, width, height, components, k);
}

const asComparable = (result: ImageData | string) =>
  typeof result === 'string' ? result : { width: result.width, height: result.height, data: [...result.data] };

describe('inflateToRgba', () => {
  const cases: Array<[number, number, number, number]> = [
    [37, 23, 3, 1],
    [37, 23, 3, 2],
    [40, 31, 1, 3],
    [64, 64, 1, 2],
    [513, 9, 3, 1],
    // Half a megabyte: rows of 3,003 bytes split across the inflater's chunks.
    [1001, 157, 3, 2],
  ];
  test.each(cases)('%i × %i, %i components, k = %i: same RGBA as the whole-buffer path', async (w, h, c, k) => {
    const raw = samples(w * h * c, w + h + c + k);
    const plain = deflateSync(raw);
    expect(asComparable(await inflateToRgba(plain, w, h, c, undefined, k))).toEqual(
      asComparable(await wholeBuffer(plain, w, h, c, undefined, k)),
    );
    const predictor = { predictor: 15, colors: c, bitsPerComponent: 8, columns: w };
    const predicted = deflateSync(predictedRows(raw, w * c, (r) => r % 5));
    const streamed = await inflateToRgba(predicted, w, h, c, predictor, k);
    expect(typeof streamed).not.toBe('string');
    expect(asComparable(streamed)).toEqual(asComparable(await wholeBuffer(predicted, w, h, c, predictor, k)));
  });

  test('short and damaged streams get the same verdict', async () => {
    const [w, h, c] = [30, 20, 3];
    const raw = samples(w * h * c, 5);
    const predictor = { predictor: 12, colors: c, bitsPerComponent: 8, columns: w };
    const stored = predictedRows(raw, w * c, (r) => r % 5);
    const variants = [
      deflateSync(raw.subarray(0, raw.length - 7)), // a plain stream short of its last row
      deflateSync(stored.subarray(0, stored.length - 1 - w * c)), // predicted, a whole row short
      deflateSync(predictedRows(raw, w * c, (r) => (r === 4 ? 9 : 1))), // unknown row type
    ];
    for (const [i, stream] of variants.entries()) {
      const p = i === 0 ? undefined : predictor;
      const streamed = await inflateToRgba(stream, w, h, c, p, 1);
      expect(streamed).toBe('damaged image data');
      expect(streamed).toEqual(await wholeBuffer(stream, w, h, c, p, 1));
    }
    // Predicted data that ends inside the last row is decoded as far as it goes, the rest zero.
    const partial = deflateSync(stored.subarray(0, stored.length - 10));
    expect(asComparable(await inflateToRgba(partial, w, h, c, predictor, 1))).toEqual(
      asComparable(await wholeBuffer(partial, w, h, c, predictor, 1)),
    );
  });
});
