/** The job watchdog (workers/watchdog.ts): the bridge's, the Node runner's, and every tool's stall limit. */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { DEFAULT_STALL_SECONDS, startWatchdog, superviseJob } from '../../workers/watchdog.ts';
import { stallSecondsOf } from '../../mock-api/api-core.ts';
import { recycleAfterJob } from '../../workers/bridge.ts';
import { fileTools } from '../../src/catalogue/index.ts';
import { FolioError, describeFailure } from '../../workers/engine/lib/errors.ts';

afterEach(() => vi.useRealTimers());

describe('watchdog', () => {
  test('fires after the given time without a sign of life, running its handler first', async () => {
    vi.useFakeTimers();
    const onFire = vi.fn(() => new Error('stuck'));
    const dog = startWatchdog(1000, onFire);
    vi.advanceTimersByTime(999);
    expect(onFire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    await expect(dog.fired).rejects.toThrow('stuck');
    expect(onFire).toHaveBeenCalledTimes(1);
  });

  test('every pet gives it the full time again; stop ends it', () => {
    vi.useFakeTimers();
    const onFire = vi.fn(() => new Error('stuck'));
    const dog = startWatchdog(1000, onFire);
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(900);
      dog.pet();
    }
    expect(onFire).not.toHaveBeenCalled();
    dog.stop();
    vi.advanceTimersByTime(5000);
    expect(onFire).not.toHaveBeenCalled();
  });

  test('without a time it never fires', () => {
    vi.useFakeTimers();
    const onFire = vi.fn(() => new Error('stuck'));
    startWatchdog(undefined, onFire);
    vi.advanceTimersByTime(10 ** 9);
    expect(onFire).not.toHaveBeenCalled();
  });
});

describe('every tool is watched', () => {
  test.each(fileTools.map((tool) => [tool.id, tool] as const))('%s has a stall limit of 1 to 3 minutes', (_, tool) => {
    const seconds = stallSecondsOf(tool);
    expect(seconds).toBeGreaterThanOrEqual(60);
    expect(seconds).toBeLessThanOrEqual(180);
    if (!tool.stallSeconds) expect(seconds).toBe(DEFAULT_STALL_SECONDS);
  });
});

describe('superviseJob (the Node runner)', () => {
  test('a job that stops reporting progress is aborted and fails with TimedOut and a plain message', async () => {
    vi.useFakeTimers();
    let seen: AbortSignal | undefined;
    const job = superviseJob(2, undefined, undefined, (signal, progress) => {
      seen = signal;
      progress(1, 10);
      return new Promise<never>(() => undefined); // stuck for ever
    });
    const outcome = job.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1999);
    expect(seen!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(FolioError);
    expect((error as FolioError).name).toBe('TimedOut');
    expect(describeFailure(error).message).toMatch(
      /^This job stopped making progress for 2 seconds, so it was stopped/,
    );
    expect(seen!.aborted).toBe(true);
  });

  test('a slow job that keeps reporting progress is never stopped', async () => {
    vi.useFakeTimers();
    const job = superviseJob(2, undefined, undefined, async (_signal, progress) => {
      for (let page = 1; page <= 10; page++) {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        progress(page, 10);
      }
      return 'done';
    });
    await vi.advanceTimersByTimeAsync(15_000);
    await expect(job).resolves.toBe('done');
  });

  test("the caller's cancel reaches the job's signal", async () => {
    const outer = new AbortController();
    let seen: AbortSignal | undefined;
    const job = superviseJob(60, outer.signal, undefined, (signal) => {
      seen = signal;
      return new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('stopped')));
    });
    outer.abort();
    await expect(job).resolves.toBe('stopped');
    expect(seen!.aborted).toBe(true);
  });
});

describe('recycleAfterJob (the bridge)', () => {
  const MB = 2 ** 20;
  test('a worker is not reused after a job that failed on its size, depth or time, or an unnamed failure', () => {
    for (const code of ['TooLarge', 'TooComplex', 'TimedOut'] as const) {
      expect(recycleAfterJob('rotate-pdf', [MB], new FolioError(code, 'x'), 8)).toBe(true);
    }
    expect(recycleAfterJob('rotate-pdf', [MB], Object.assign(new Error('x'), { name: 'InternalError' }), 8)).toBe(true);
    expect(recycleAfterJob('rotate-pdf', [MB], new FolioError('InvalidPassword', 'x'), 8)).toBe(false);
  });
  test('nor after a job estimated past half the memory budget of the device', () => {
    // 8 GB device: a 4 GB budget; rotate-pdf peaks at about 8× its input plus 150 MB.
    expect(recycleAfterJob('rotate-pdf', [100 * MB], undefined, 8)).toBe(false);
    expect(recycleAfterJob('rotate-pdf', [250 * MB], undefined, 8)).toBe(true);
    // 2 GB device: a 1 GB budget.
    expect(recycleAfterJob('rotate-pdf', [50 * MB], undefined, 2)).toBe(true);
  });
});
