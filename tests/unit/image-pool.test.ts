/**
 * compress-pdf's image pool (workers/engine/lib/image/image-pool.ts) with stand-in lanes: sizing
 * by cores and memory, largest image first, results in the images' order whatever lane finished
 * first, a dead worker's image left as it was, the rest carried on in-process when every worker
 * died, and cancel ending every lane.
 */
import { describe, expect, test } from 'vitest';
import { imageLaneCount, recompressAll, type ImageLane } from '../../workers/engine/lib/image/image-pool.ts';
import { LaneLost } from '../../workers/engine/lib/pdf/render-pool.ts';
import type { ImageJob, RecompressedImage } from '../../workers/engine/lib/image/recompress.ts';
import { encodeJpeg, makeImageData } from '../../workers/engine/lib/image/codecs.ts';

const MB = 1024 * 1024;
const GB = 1024 * MB;
const settings = { quality: 70, maxDpi: 150, grayscale: false };

/** A job whose width tells it apart (its bytes are never read by the stand-in lanes). */
const job = (width: number): ImageJob => ({
  encoding: 'jpeg',
  contents: new Uint8Array(10),
  width,
  height: 10,
  components: 3,
  dpi: 72,
});

/** A lane that answers job w with a 1-byte "JPEG" [w % 256] after `delay(w)` ms, or throws `fail(w)`. */
function fakeLane(delay: (width: number) => number, log: number[], fail?: (width: number) => Error | undefined) {
  const lane: ImageLane & { closed: boolean } = {
    closed: false,
    async recompress(j): Promise<RecompressedImage> {
      log.push(j.width);
      await new Promise((resolve) => setTimeout(resolve, delay(j.width)));
      const error = fail?.(j.width);
      if (error) throw error;
      return { jpeg: new Uint8Array([j.width % 256]), width: j.width, height: 10, gray: false };
    },
    close() {
      lane.closed = true;
    },
  };
  return lane;
}

describe('image pool: lane count', () => {
  test('one lane per core and at most one per image, fewer when the largest image would not fit', () => {
    const base = { budgetBytes: 4 * GB, inputBytes: 2 * MB, largestPixels: 2e6, images: 10 };
    expect(imageLaneCount({ ...base, cores: 2 })).toBe(2);
    expect(imageLaneCount({ ...base, cores: 4 })).toBe(4);
    expect(imageLaneCount({ ...base, cores: 32 })).toBe(8);
    expect(imageLaneCount({ ...base, cores: undefined })).toBe(2);
    expect(imageLaneCount({ ...base, cores: 8, images: 3 })).toBe(3);
    // 100 MP images at 12 bytes a pixel: 1.2 GB a worker, three fit in a 4 GB budget, one in 2 GB.
    expect(imageLaneCount({ ...base, cores: 8, largestPixels: 100e6 })).toBe(3);
    expect(imageLaneCount({ ...base, cores: 8, largestPixels: 100e6, budgetBytes: 2 * GB })).toBe(1);
    expect(imageLaneCount({ ...base, cores: 8, largestPixels: 100e6, budgetBytes: 1 * GB })).toBe(1);
  });
});

describe('image pool: recompressAll', () => {
  test('largest image first, results in the images’ order, every lane used and closed', async () => {
    const widths = [20, 900, 40, 300, 10, 600];
    const log: number[] = [];
    // Lane 2 is slow, so the order in which results arrive is not the images' order.
    const lanes = [fakeLane(() => 1, log), fakeLane((w) => (w === 900 ? 40 : 1), log)];
    const finished: number[] = [];
    const results = await recompressAll(widths.map(job), settings, {
      inputBytes: 0,
      lanes,
      onResult: (index) => finished.push(index),
    });
    expect(log.slice(0, 2).sort((a, b) => b - a)).toEqual([900, 600]);
    expect(results.map((r) => ('jpeg' in r ? r.width : r.skipped))).toEqual(widths);
    expect(finished.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(finished.length).toBe(6);
    expect(lanes.every((lane) => lane.closed)).toBe(true);
  });

  test('a worker that dies leaves its image as it was; the other lane carries on', async () => {
    const log: number[] = [];
    const dying = fakeLane(
      () => 1,
      log,
      (w) => (w === 500 ? new LaneLost('out of memory') : undefined),
    );
    const healthy = fakeLane(() => 5, log);
    const results = await recompressAll([500, 40, 30, 20, 10].map(job), settings, {
      inputBytes: 0,
      lanes: [dying, healthy],
    });
    expect(results[0]).toEqual({ skipped: 'image worker stopped' });
    expect(results.slice(1).every((r) => 'jpeg' in r)).toBe(true);
    expect(dying.closed).toBe(true);
  });

  test('when every worker died, the rest is recompressed in-process', async () => {
    const photo = makeImageData(new Uint8ClampedArray(64 * 64 * 4).fill(200), 64, 64);
    const real: ImageJob = { ...job(64), height: 64, contents: await encodeJpeg(photo, { quality: 100 }) };
    const lanes = [
      fakeLane(
        () => 1,
        [],
        () => new LaneLost('gone'),
      ),
    ];
    const results = await recompressAll([job(900), real], settings, { inputBytes: 0, lanes });
    expect(results[0]).toEqual({ skipped: 'image worker stopped' });
    // The in-process lane really decoded and re-encoded it.
    expect('jpeg' in results[1] && results[1].width).toBe(64);
  });

  test('cancel stops at once with the cancel error and closes every lane', async () => {
    const controller = new AbortController();
    const lanes = [fakeLane(() => 10_000, []), fakeLane(() => 10_000, [])];
    const running = recompressAll([1, 2, 3].map(job), settings, {
      inputBytes: 0,
      lanes,
      signal: controller.signal,
    });
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'Cancelled' });
    expect(lanes.every((lane) => lane.closed)).toBe(true);
  });
});
