/** The job watchdog of the worker bridge (workers/watchdog.ts). */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { startWatchdog } from '../../workers/watchdog.ts';

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
