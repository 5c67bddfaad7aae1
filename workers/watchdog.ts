import { stalled } from './engine/lib/errors.ts';
import type { ProgressCallback } from './engine/lib/types.ts';

/**
 * Stall limit of a tool without one of its own (catalogue `stallSeconds`): every job reports
 * progress at least per page or per step; none of the measured steps of an ordinary file comes near
 * this (the slowest seen: qpdf over a 300 MB file, 7 s; one OCR page, under 30 s).
 */
export const DEFAULT_STALL_SECONDS = 120;

/**
 * A job's watchdog: `pet()` on every sign of life; after `ms` without one, `fired` rejects with
 * the error `onFire` makes (after running it, e.g. to terminate a worker). Without `ms` it never
 * fires.
 */
export interface Watchdog {
  pet(): void;
  stop(): void;
  fired: Promise<never>;
}

export function startWatchdog(ms: number | undefined, onFire: () => Error): Watchdog {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fire: (error: Error) => void = () => undefined;
  const fired = new Promise<never>((_, reject) => {
    fire = reject;
  });
  // Nobody may be listening when it never fires: keep it from being an unhandled rejection.
  fired.catch(() => undefined);
  const pet = () => {
    if (!ms) return;
    clearTimeout(timer);
    timer = setTimeout(() => fire(onFire()), ms);
  };
  pet();
  return { pet, stop: () => clearTimeout(timer), fired };
}

/**
 * Runs `work` under a watchdog where the job cannot be terminated from outside (Node: engines run
 * on the calling thread): every progress report pets it; when it fires, the signal `work` was given
 * is aborted (engines stop at their next check) and the job rejects with TimedOut at once.
 */
export async function superviseJob<T>(
  stallSeconds: number | undefined,
  outer: AbortSignal | undefined,
  onProgress: ProgressCallback | undefined,
  work: (signal: AbortSignal, progress: ProgressCallback) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const stopOnOuter = () => controller.abort(outer?.reason);
  if (outer?.aborted) stopOnOuter();
  outer?.addEventListener('abort', stopOnOuter, { once: true });
  const watchdog = startWatchdog(stallSeconds && stallSeconds * 1000, () => {
    controller.abort();
    return stalled(stallSeconds ?? 0);
  });
  const progress: ProgressCallback = (done, total, status) => {
    watchdog.pet();
    onProgress?.(done, total, status);
  };
  try {
    return await Promise.race([work(controller.signal, progress), watchdog.fired]);
  } finally {
    watchdog.stop();
    outer?.removeEventListener('abort', stopOnOuter);
  }
}
