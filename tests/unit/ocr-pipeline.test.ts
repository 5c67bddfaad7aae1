/**
 * OCR over several pages (workers/engine/lib/ocr/ocr-pipeline.ts): pages drawn ahead of recognition
 * come back in page order with their own text, progress moves page by page, Cancel stops the job;
 * the lane queue hands jobs to the first free lane in order, passes a dead lane's job on, and
 * rejects what still waits when closed.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { LaneLost } from '../../workers/engine/lib/worker-pool.ts';
import { laneQueue, pagesAhead } from '../../workers/engine/lib/ocr/ocr-pipeline.ts';
import { run as toPpt } from '../../workers/engine/tools/pdf-to-ppt.ts';
import { characterErrorRate, readPptx } from '../support/office-fixtures.ts';
import { buildScannedPages } from '../support/ocr-fixtures.ts';

const MB = 1024 * 1024;

describe('laneQueue', () => {
  test('jobs go to the first free lane, each result to its own job', async () => {
    const done: string[] = [];
    const lanes = ['a', 'b'].map((name) => ({ name, close: () => undefined }));
    const queue = laneQueue(lanes, async (lane, job: number) => {
      await new Promise((resolve) => setTimeout(resolve, job % 2 ? 5 : 1));
      done.push(`${lane.name}${job}`);
      return job * 10;
    });
    expect(await Promise.all([1, 2, 3, 4, 5].map((job) => queue.run(job)))).toEqual([10, 20, 30, 40, 50]);
    expect(new Set(done.map((entry) => entry[0]))).toEqual(new Set(['a', 'b']));
  });

  test("a dead lane is closed and its job handed on; with none left, the fallback's lane takes over", async () => {
    const closed: string[] = [];
    const dying = { name: 'dying', close: () => void closed.push('dying') };
    const fallback = { name: 'fallback', close: () => void closed.push('fallback') };
    const queue = laneQueue(
      [dying],
      async (lane, job: number) => {
        if (lane === dying) throw new LaneLost('A render worker stopped');
        return `${lane.name} ${job}`;
      },
      () => fallback,
    );
    expect(await Promise.all([queue.run(1), queue.run(2)])).toEqual(['fallback 1', 'fallback 2']);
    expect(closed).toEqual(['dying']);
    queue.close();
    expect(closed).toEqual(['dying', 'fallback']);
  });

  test('close rejects the waiting jobs with Cancelled and closes the lanes', async () => {
    let closes = 0;
    let release = () => undefined as void;
    const queue = laneQueue([{ close: () => void closes++ }], (_, job: number) =>
      job === 1 ? new Promise<number>((resolve) => (release = () => resolve(1))) : Promise.resolve(job),
    );
    const first = queue.run(1);
    const second = queue.run(2);
    queue.close();
    await expect(second).rejects.toMatchObject({ name: 'Cancelled' });
    release();
    expect(await first).toBe(1);
    expect(closes).toBe(1);
    await expect(queue.run(3)).rejects.toMatchObject({ name: 'Cancelled' });
  });
});

describe('pagesAhead', () => {
  const page = 2550 * 3300; // a letter page at 300 dpi
  test('two pages per recogniser when memory allows, fewer on a small budget, never none', () => {
    expect(pagesAhead({ cores: 2, budgetBytes: 4096 * MB, inputBytes: 10 * MB, pagePixels: page }, 1)).toBe(2);
    expect(pagesAhead({ cores: 8, budgetBytes: 4096 * MB, inputBytes: 10 * MB, pagePixels: page }, 2)).toBe(4);
    expect(pagesAhead({ cores: 2, budgetBytes: 320 * MB, inputBytes: 10 * MB, pagePixels: page }, 1)).toBe(1);
    expect(pagesAhead({ cores: 2, budgetBytes: 100 * MB, inputBytes: 10 * MB, pagePixels: page }, 1)).toBe(1);
  });
});

describe('OCR of a scanned document of several pages', () => {
  let scan: { bytes: Uint8Array; pageTexts: string[] };
  beforeAll(async () => {
    scan = await buildScannedPages(4);
  }, 60_000);

  test("each slide has its own page's recognised text, in page order, with progress page by page", async () => {
    const progress: number[] = [];
    const result = await toPpt(
      [{ name: 'scan.pdf', bytes: scan.bytes }],
      { ocr: true },
      { progress: (done) => progress.push(done) },
    );
    const pptx = await readPptx(result.bytes);
    expect(pptx.slides).toHaveLength(4);
    for (const [index, text] of scan.pageTexts.entries()) {
      const own = characterErrorRate(text, pptx.slides[index]);
      expect(own, `slide ${index + 1}: ${pptx.slides[index]}`).toBeLessThanOrEqual(0.03);
      const neighbour = characterErrorRate(scan.pageTexts[(index + 1) % 4], pptx.slides[index]);
      expect(neighbour).toBeGreaterThan(own + 0.3);
    }
    // Reading and recognising is the first half of the progress: every page counted, one at a time
    // (0 comes again with the line saying that the recognition data loads).
    const firstHalf = progress.filter((done) => done <= 4);
    expect([...new Set(firstHalf)]).toEqual([0, 1, 2, 3, 4]);
    expect(firstHalf).toEqual([...firstHalf].sort((a, b) => a - b));
    expect(result.notes?.join(' ')).toContain('on 4 scanned pages');
  }, 180_000);

  test('Cancel while pages are drawn ahead and recognised stops with Cancelled', async () => {
    const controller = new AbortController();
    const job = toPpt(
      [{ name: 'scan.pdf', bytes: scan.bytes }],
      { ocr: true },
      { signal: controller.signal, progress: (done) => done === 1 && controller.abort() },
    );
    await expect(job).rejects.toMatchObject({ name: 'Cancelled' });
  }, 120_000);
});
