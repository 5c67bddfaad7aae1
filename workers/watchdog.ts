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
