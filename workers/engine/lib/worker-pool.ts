/**
 * What the engine's pools of nested workers share (the page render pool, pdf/render-pool.ts, and the
 * image pool, image/image-pool.ts): starting a nested worker and noticing when it dies, sizing a pool
 * by the device's cores and memory budget, and cancelling waits on an AbortSignal.
 *
 * Pools live inside the engine: the engine worker starts its lanes as its own nested workers, so the
 * bridge's cancel or watchdog, which terminates the engine worker, ends them with it (a dedicated
 * worker's nested workers die with it). In Node (tests, corpus, bench, the /api server) work runs
 * in-process instead: engines load there through Vite's SSR loader (`?url` imports,
 * import.meta.glob), which a worker_threads thread cannot load without a loader of its own, and Node
 * is not where users wait.
 */
import type { Remote } from 'comlink';
import { cancelled } from './errors.ts';
import { memoryBudgetBytes } from '../../../shared/memory-budget.ts';
import { isNode } from './wasm.ts';

/** A lane whose worker died (crashed, ran out of memory): its item is reported, the lane is dropped. */
export class LaneLost extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LaneLost';
  }
}

/** Whether nested workers can be started here: a browser context that has Worker (workers do, nested). */
export function canStartNestedWorkers(): boolean {
  return !isNode && typeof Worker !== 'undefined';
}

export interface DeviceResources {
  /** navigator.hardwareConcurrency (undefined when the browser does not say). */
  cores: number | undefined;
  /** memoryBudgetBytes(navigator.deviceMemory). */
  budgetBytes: number;
}

/** This device's cores and memory budget, from the browser's globals. */
export function deviceResources(): DeviceResources {
  const nav = globalThis.navigator as { hardwareConcurrency?: number; deviceMemory?: number } | undefined;
  return { cores: nav?.hardwareConcurrency, budgetBytes: memoryBudgetBytes(nav?.deviceMemory) };
}

export interface PoolSizing extends DeviceResources {
  /** What the engine worker holds whatever the lane count (its own code, the document). */
  engineBytes: number;
  /** What each lane holds at its peak. */
  laneBytes: number;
  /** Cores one lane keeps busy. */
  coresPerLane: number;
  /** More lanes than this gain nothing measurable. */
  maxLanes: number;
  /** Lanes that could be kept busy at all (e.g. how many items there are). */
  limit?: number;
}

/**
 * How many lanes fit: one per `coresPerLane` cores (two cores assumed when the browser does not
 * say), at most `maxLanes` and `limit`, fewer when the budget cannot hold that many lanes beside
 * the engine; at least one.
 */
export function poolSize({ cores, budgetBytes, engineBytes, laneBytes, coresPerLane, maxLanes, limit }: PoolSizing) {
  const byMemory = Math.floor((budgetBytes - engineBytes) / laneBytes);
  const byCores = Math.min(maxLanes, Math.floor((cores && cores > 0 ? cores : 2) / coresPerLane));
  return Math.max(1, Math.min(byCores, byMemory, limit ?? Infinity));
}

/** A started nested worker, wrapped with Comlink. */
export interface NestedWorker<Api> {
  api: Remote<Api>;
  /** `call`, failed with LaneLost instead if the worker dies first (a dead worker never answers). */
  call<T>(call: Promise<T>): Promise<T>;
  /** Releases the proxy and terminates the worker (again is a no-op). */
  close(): void;
}

/**
 * Starts a nested worker. `create` must call `new Worker(new URL('…', import.meta.url))` itself so
 * that the bundler finds and builds the worker's script; `role` names it in LaneLost's message
 * ("A render worker stopped"). Browser only.
 */
export async function startNestedWorker<Api>(create: () => Worker, role: string): Promise<NestedWorker<Api>> {
  const Comlink = await import('comlink');
  const worker = create();
  const api = Comlink.wrap<Api>(worker);
  // A worker that dies (its script failed to load, or it ran out of memory) never answers: its
  // pending call is failed here instead, and the pool drops the lane.
  let fail: (error: Error) => void = () => undefined;
  const died = new Promise<never>((_, reject) => {
    fail = reject;
  });
  died.catch(() => undefined);
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    const article = /^[aeiou]/i.test(role) ? 'An' : 'A';
    fail(new LaneLost(`${article} ${role} stopped${event.message ? `: ${event.message}` : ''}`));
  });
  let closed = false;
  return {
    api,
    call: (call) => Promise.race([call, died]),
    close: () => {
      if (closed) return;
      closed = true;
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

/** Rejects with `cancelled()` when the signal aborts, so that a wait on a busy lane can end at once. */
export interface AbortRace {
  race<T>(work: Promise<T>): Promise<T>;
  /** Stops listening to the signal. */
  dispose(): void;
}

export function abortRace(signal: AbortSignal | undefined): AbortRace {
  if (!signal) return { race: (work) => work, dispose: () => undefined };
  let onAbort = () => undefined as void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(cancelled());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  return {
    race: (work) => Promise.race([work, aborted]),
    dispose: () => signal.removeEventListener('abort', onAbort),
  };
}

/**
 * The lanes to use: `asked` nested workers (tests, bench) or, when none is asked, as many as
 * `affordable()` says; the in-process lane in Node, or when only one would fit (a single worker
 * would only add a copy of the work's input and a thread start).
 */
export function openPool<Lane>(
  asked: number | undefined,
  affordable: () => number,
  openWorkerLane: () => Promise<Lane>,
  inProcessLane: Lane,
): Promise<Lane[]> {
  if (!canStartNestedWorkers()) return Promise.resolve([inProcessLane]);
  const count = asked ?? affordable();
  if (count < 2 && asked === undefined) return Promise.resolve([inProcessLane]);
  return Promise.all(Array.from({ length: count }, () => openWorkerLane()));
}
