import { describe, expect, test } from 'vitest';
import {
  LaneLost,
  laneCount,
  runInPageOrder,
  type PageLane,
  type PageOutcome,
} from '../../workers/engine/lib/pdf/render-pool.ts';
import { FolioError, cancelled } from '../../workers/engine/lib/errors.ts';

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** A lane that "renders" page n as the bytes [n] after `delay(n)` ms; it throws what `fail(n)` returns. */
function fakeLane(
  delay: (page: number) => number,
  fail?: (page: number) => Error | undefined,
  log?: number[],
): PageLane {
  return {
    async render(page) {
      log?.push(page);
      await new Promise((resolve) => setTimeout(resolve, delay(page)));
      const error = fail?.(page);
      if (error) throw error;
      return { bytes: new Uint8Array([page]), cjkFontMissing: false };
    },
    close: () => undefined,
  };
}

const neverFatal = { isFatal: () => false, fallbackLane: () => Promise.reject(new Error('no fallback expected')) };
const pageOf = (outcome: PageOutcome) => outcome.pageNumber;

describe('render pool: lane count', () => {
  test('one lane per two cores while memory allows, at most 8, at least 1', () => {
    const small = { budgetBytes: 4 * GB, inputBytes: 2 * MB, pagePixels: 2e6 };
    expect(laneCount({ ...small, cores: 1 })).toBe(1);
    expect(laneCount({ ...small, cores: 2 })).toBe(1);
    expect(laneCount({ ...small, cores: 4 })).toBe(2);
    expect(laneCount({ ...small, cores: 8 })).toBe(4);
    expect(laneCount({ ...small, cores: 32 })).toBe(8);
    expect(laneCount({ ...small, cores: undefined })).toBe(1);
    // A 700 MB document: each lane holds it twice (its worker and pdf.js's), the engine too.
    expect(laneCount({ cores: 8, budgetBytes: 4 * GB, inputBytes: 700 * MB, pagePixels: 2e6 })).toBe(1);
    expect(laneCount({ cores: 8, budgetBytes: 4 * GB, inputBytes: 300 * MB, pagePixels: 2e6 })).toBe(4);
    // A phone's budget (2 GB device → 1 GB) and a page of 50 Mpx: one lane, never zero.
    expect(laneCount({ cores: 8, budgetBytes: 1 * GB, inputBytes: 50 * MB, pagePixels: 50e6 })).toBe(1);
  });
});

describe('render pool: pages in order', () => {
  test('outcomes arrive in page order whatever order the lanes finish in, each page drawn once', async () => {
    const pages = Array.from({ length: 40 }, (_, i) => i + 1);
    // Lane A is slow on every third page, lane B fast: they finish out of order.
    const drawn: number[] = [];
    const lanes = [fakeLane((p) => (p % 3 === 0 ? 12 : 1), undefined, drawn), fakeLane(() => 2, undefined, drawn)];
    const delivered: number[] = [];
    await runInPageOrder(
      pages,
      lanes,
      (outcome) => {
        delivered.push(pageOf(outcome));
        expect('bytes' in outcome && outcome.bytes[0]).toBe(outcome.pageNumber);
      },
      neverFatal,
    );
    expect(delivered).toEqual(pages);
    expect(drawn.sort((a, b) => a - b)).toEqual(pages);
  });

  test('perLane 2: each lane has two pages under way at once, outcomes still in page order', async () => {
    const pages = Array.from({ length: 20 }, (_, i) => i + 1);
    let underWay = 0;
    let mostUnderWay = 0;
    const lane: PageLane = {
      async render(page) {
        mostUnderWay = Math.max(mostUnderWay, ++underWay);
        await new Promise((resolve) => setTimeout(resolve, page % 2 ? 6 : 1));
        underWay--;
        return { bytes: new Uint8Array([page]), cjkFontMissing: false };
      },
      close: () => undefined,
    };
    const delivered: number[] = [];
    await runInPageOrder(pages, [lane], (outcome) => void delivered.push(pageOf(outcome)), {
      ...neverFatal,
      perLane: 2,
    });
    expect(delivered).toEqual(pages);
    expect(mostUnderWay).toBe(2);
  });

  test('perLane 2: a lost lane drops out with both its pages reported, the fallback finishes', async () => {
    const pages = Array.from({ length: 10 }, (_, i) => i + 1);
    let lost = false;
    const dying: PageLane = {
      async render(page) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (page >= 3 || lost) {
          lost = true;
          throw new LaneLost('gone');
        }
        return { bytes: new Uint8Array([page]), cjkFontMissing: false };
      },
      close: () => undefined,
    };
    const outcomes: PageOutcome[] = [];
    await runInPageOrder(pages, [dying], (outcome) => void outcomes.push(outcome), {
      isFatal: () => false,
      fallbackLane: async () => fakeLane(() => 1),
      perLane: 2,
    });
    expect(outcomes.map(pageOf)).toEqual(pages);
    const failed = outcomes.filter((o) => 'error' in o).map(pageOf);
    // The pages under way when the lane died are reported as failures; every later page was drawn.
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.length).toBeLessThanOrEqual(2);
    expect(outcomes.filter((o) => 'bytes' in o)).toHaveLength(pages.length - failed.length);
  });

  test('a lane never runs more than `window` pages ahead of the last delivered one', async () => {
    const pages = Array.from({ length: 30 }, (_, i) => i + 1);
    let delivered = 0;
    let furthestAhead = 0;
    const started: number[] = [];
    const slowFirst = fakeLane((p) => (p === 1 ? 80 : 1), undefined, started);
    const fast: PageLane = {
      async render(page) {
        started.push(page);
        furthestAhead = Math.max(furthestAhead, page - delivered);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return { bytes: new Uint8Array([page]), cjkFontMissing: false };
      },
      close: () => undefined,
    };
    await runInPageOrder(
      pages,
      [slowFirst, fast],
      () => {
        delivered++;
      },
      { ...neverFatal, window: 5 },
    );
    expect(delivered).toBe(30);
    // Page 1 held everything back: the fast lane stopped at page 5 until it was delivered.
    expect(furthestAhead).toBeLessThanOrEqual(5);
  });

  test("a page error is that page's outcome; a fatal error stops every lane and is thrown", async () => {
    const outcomes: PageOutcome[] = [];
    await runInPageOrder(
      [1, 2, 3],
      [
        fakeLane(
          () => 1,
          (p) => (p === 2 ? new Error('bad xref') : undefined),
        ),
      ],
      (o) => {
        outcomes.push(o);
      },
      neverFatal,
    );
    expect(outcomes.map((o) => ('error' in o ? `${o.pageNumber}: ${o.error.message}` : o.pageNumber))).toEqual([
      1,
      '2: bad xref',
      3,
    ]);

    const tooLarge = new FolioError('TooLarge', 'Page 7 would be too large');
    const drawn: number[] = [];
    const lanes = [0, 1].map(() =>
      fakeLane(
        () => 1,
        (p) => (p === 7 ? tooLarge : undefined),
        drawn,
      ),
    );
    const job = runInPageOrder(
      Array.from({ length: 100 }, (_, i) => i + 1),
      lanes,
      () => undefined,
      {
        ...neverFatal,
        isFatal: (error) => (error as Error).name === 'TooLarge',
      },
    );
    await expect(job).rejects.toBe(tooLarge);
    expect(drawn.length).toBeLessThan(20);
  });

  test('a lost lane gives up its page as an error; when no lane is left the fallback finishes the job', async () => {
    const lost = fakeLane(
      () => 1,
      (p) => (p === 3 ? new LaneLost('A render worker stopped') : undefined),
    );
    let fallbackStarted = 0;
    const delivered: Array<number | string> = [];
    await runInPageOrder(
      [1, 2, 3, 4, 5, 6],
      [lost],
      (o) => {
        delivered.push('error' in o ? `${o.pageNumber} lost` : o.pageNumber);
      },
      {
        isFatal: () => false,
        fallbackLane: async () => {
          fallbackStarted++;
          return fakeLane(() => 1);
        },
      },
    );
    expect(delivered).toEqual([1, 2, '3 lost', 4, 5, 6]);
    expect(fallbackStarted).toBe(1);
  });

  test('an abort stops the lanes with Cancelled; a failing delivery stops them with its error', async () => {
    const controller = new AbortController();
    const job = runInPageOrder(
      Array.from({ length: 50 }, (_, i) => i + 1),
      [fakeLane(() => 2)],
      (o) => {
        if (o.pageNumber === 3) controller.abort();
      },
      { ...neverFatal, signal: controller.signal },
    );
    await expect(job).rejects.toMatchObject({ name: cancelled().name });

    const full = new FolioError('TooLarge', 'The ZIP archive would pass 4 GB');
    const stopped = runInPageOrder(
      [1, 2, 3, 4],
      [fakeLane(() => 1), fakeLane(() => 1)],
      (o) => {
        if (o.pageNumber === 2) throw full;
      },
      neverFatal,
    );
    await expect(stopped).rejects.toBe(full);
  });
});
