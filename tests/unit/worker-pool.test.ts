/**
 * The pools' shared basics (workers/engine/lib/worker-pool.ts): sizing by cores and memory, a nested
 * worker's death failing its pending call with LaneLost, closing once, cancel ending a wait at once,
 * and Node falling back to the in-process lane.
 */
import { describe, expect, test } from 'vitest';
import {
  abortRace,
  canStartNestedWorkers,
  LaneLost,
  openPool,
  poolSize,
  startNestedWorker,
} from '../../workers/engine/lib/worker-pool.ts';

const MB = 1024 * 1024;
const GB = 1024 * MB;
const sizing = { engineBytes: 100 * MB, laneBytes: 100 * MB, coresPerLane: 1, maxLanes: 8 };

describe('poolSize', () => {
  test('one lane per coresPerLane cores, at most maxLanes', () => {
    expect(poolSize({ ...sizing, cores: 4, budgetBytes: 8 * GB })).toBe(4);
    expect(poolSize({ ...sizing, cores: 8, budgetBytes: 8 * GB, coresPerLane: 2 })).toBe(4);
    expect(poolSize({ ...sizing, cores: 64, budgetBytes: 64 * GB })).toBe(8);
  });

  test('two cores assumed when the browser does not say', () => {
    expect(poolSize({ ...sizing, cores: undefined, budgetBytes: 8 * GB })).toBe(2);
    expect(poolSize({ ...sizing, cores: 0, budgetBytes: 8 * GB })).toBe(2);
  });

  test('fewer lanes when the budget cannot hold them beside the engine, at least one', () => {
    expect(poolSize({ ...sizing, cores: 8, budgetBytes: 400 * MB })).toBe(3);
    expect(poolSize({ ...sizing, cores: 8, budgetBytes: 50 * MB })).toBe(1);
  });

  test('at most `limit`, at least one even when there is nothing to do', () => {
    expect(poolSize({ ...sizing, cores: 8, budgetBytes: 8 * GB, limit: 3 })).toBe(3);
    expect(poolSize({ ...sizing, cores: 8, budgetBytes: 8 * GB, limit: 0 })).toBe(1);
  });
});

/** Stands in for a Worker: records messages, never answers, can be made to fail. */
class FakeWorker extends EventTarget {
  posted: unknown[] = [];
  terminated = 0;
  postMessage(message: unknown) {
    this.posted.push(message);
  }
  terminate() {
    this.terminated++;
  }
  crash(message: string) {
    this.dispatchEvent(Object.assign(new Event('error', { cancelable: true }), { message }));
  }
}

describe('startNestedWorker', () => {
  test('a worker that dies fails its pending and later calls with LaneLost naming its role', async () => {
    const fake = new FakeWorker();
    const worker = await startNestedWorker<{ work(): number }>(() => fake as unknown as Worker, 'image worker');
    const pending = worker.call(worker.api.work());
    expect(fake.posted.length).toBe(1);
    fake.crash('out of memory');
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LaneLost);
    expect((error as Error).message).toBe('An image worker stopped: out of memory');
    await expect(worker.call(new Promise(() => undefined))).rejects.toThrow('An image worker stopped');
  });

  test('an answered call passes through; close terminates once', async () => {
    const fake = new FakeWorker();
    const worker = await startNestedWorker(() => fake as unknown as Worker, 'render worker');
    await expect(worker.call(Promise.resolve(42))).resolves.toBe(42);
    worker.close();
    worker.close();
    expect(fake.terminated).toBe(1);
    fake.crash('');
    await expect(worker.call(new Promise(() => undefined))).rejects.toThrow(/^A render worker stopped$/);
  });
});

describe('abortRace', () => {
  test('a wait ends with cancelled as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const race = abortRace(controller.signal);
    const pending = race.race(new Promise(() => undefined));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'Cancelled' });
    race.dispose();
  });

  test('already aborted: rejects at once; no signal: the work itself', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(abortRace(controller.signal).race(new Promise(() => undefined))).rejects.toMatchObject({
      name: 'Cancelled',
    });
    await expect(abortRace(undefined).race(Promise.resolve(7))).resolves.toBe(7);
  });

  test('results pass through before any abort', async () => {
    const controller = new AbortController();
    const race = abortRace(controller.signal);
    await expect(race.race(Promise.resolve('done'))).resolves.toBe('done');
    race.dispose();
    controller.abort();
  });
});

describe('openPool in Node', () => {
  test('no nested workers here: the in-process lane, without opening any worker', async () => {
    expect(canStartNestedWorkers()).toBe(false);
    let opened = 0;
    const open = async () => {
      opened++;
      return 'worker';
    };
    await expect(openPool(4, () => 4, open, 'in-process')).resolves.toEqual(['in-process']);
    await expect(openPool(undefined, () => 4, open, 'in-process')).resolves.toEqual(['in-process']);
    expect(opened).toBe(0);
  });
});
