/**
 * Pages rendered in parallel: a pool of render workers (workers/render.worker.ts), each opening the
 * document once with pdf.js and drawing the pages it is handed (page-image.ts, the same code as
 * in-process), sized by the device's cores and the memory budget.
 *
 * The pool lives inside the engine as nested workers (../worker-pool.ts says why, and why Node renders
 * in-process, one page at a time).
 *
 * Outcomes are delivered in page order, each as soon as it and every page before it are done, so
 * an archive is written in page order while at most a bounded window of finished pages waits.
 */
import { cancelled } from '../errors.ts';
import { canStartNestedWorkers, deviceResources, LaneLost, poolSize, startNestedWorker } from '../worker-pool.ts';
import type { PageImage, PageImageSettings } from './page-image.ts';

/** Draws and encodes pages, one at a time. */
export interface PageLane {
  render(pageNumber: number): Promise<PageImage>;
  close(): void;
}

export { LaneLost };

export type PageOutcome = ({ pageNumber: number } & PageImage) | { pageNumber: number; error: Error };

/** Memory of one render worker besides the document: pdf.js, its own worker, the codecs. */
const LANE_FIXED_BYTES = 80 * 1024 * 1024;
/** What the engine worker itself holds before lanes start (the page, the engine, pdf.js). */
const ENGINE_FIXED_BYTES = 150 * 1024 * 1024;
/** Cores one lane keeps busy (see laneCount). */
const CORES_PER_LANE = 2;
/** More lanes than this gain nothing measurable while each costs a copy of the document. */
const MAX_LANES = 8;

export interface LaneSizing {
  /** navigator.hardwareConcurrency (undefined when the browser does not say). */
  cores: number | undefined;
  /** memoryBudgetBytes(navigator.deviceMemory). */
  budgetBytes: number;
  inputBytes: number;
  /** Pixels of the largest page to draw. */
  pagePixels: number;
}

/**
 * How many render workers fit: one per two cores (at most MAX_LANES), fewer when the budget cannot hold
 * that many copies of the document (each worker and its pdf.js worker hold one) plus a page's
 * pixels (canvas, its read-back, the encoder's copy); at least one.
 */
export function laneCount({ cores, budgetBytes, inputBytes, pagePixels }: LaneSizing): number {
  // A lane keeps two threads busy (it draws while its pdf.js worker parses and decodes the next
  // page), so one lane already fills two cores: on this 2-core machine one lane beat two in every
  // run (docs/benchmarks.md).
  return poolSize({
    cores,
    budgetBytes,
    engineBytes: ENGINE_FIXED_BYTES + 2 * inputBytes,
    laneBytes: LANE_FIXED_BYTES + 2 * inputBytes + 3 * 4 * pagePixels,
    coresPerLane: CORES_PER_LANE,
    maxLanes: MAX_LANES,
  });
}

/** Whether render workers can be started here: a browser context that has Worker (workers do, nested). */
export const canStartRenderWorkers = canStartNestedWorkers;

/** laneCount for this device (browser globals; in Node, 1). */
export function deviceLaneCount(inputBytes: number, pagePixels: number): number {
  if (!canStartRenderWorkers()) return 1;
  return laneCount({ ...deviceResources(), inputBytes, pagePixels });
}

export interface OpenLaneOptions {
  bytes: Uint8Array;
  name: string;
  password?: string;
  settings: PageImageSettings;
}

/**
 * Starts a render worker and opens the document in it. The bytes are copied to it (every lane
 * needs its own). Browser only.
 */
export async function openWorkerLane({ bytes, name, password, settings }: OpenLaneOptions): Promise<PageLane> {
  const worker = await startNestedWorker<import('../../../render.worker.ts').RenderWorkerApi>(
    () => new Worker(new URL('../../../render.worker.ts', import.meta.url), { type: 'module', name: 'folio-render' }),
    'render worker',
  );
  try {
    await worker.call(worker.api.open(bytes, name, password));
  } catch (error) {
    worker.close();
    throw error;
  }
  return {
    render: (pageNumber) => worker.call(worker.api.render(pageNumber, settings)),
    close: worker.close,
  };
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Errors that stop the whole job (every other page error is that page's outcome). */
  isFatal: (error: unknown) => boolean;
  /** A lane to carry on with when every lane was lost. */
  fallbackLane: () => Promise<PageLane>;
  /** Finished pages allowed to wait for an earlier one (default: 4 per lane, at least 8). */
  window?: number;
  /**
   * Pages a lane is given at once (default 1). With 2, a lane draws the next page while the
   * browser's encoder (asynchronous, off the lane's thread) is still encoding the one before.
   */
  perLane?: number;
}

/**
 * Renders `pages` across `lanes` (each lane one page at a time; the next page goes to the first
 * lane free) and hands each outcome to `deliver` in page order. A lost lane's page is delivered as
 * an error and the lane dropped; when none is left, `fallbackLane` takes over. The first fatal
 * error (or a failure of `deliver`) stops every lane and is thrown.
 */
export async function runInPageOrder(
  pages: readonly number[],
  lanes: PageLane[],
  deliver: (outcome: PageOutcome) => void | Promise<void>,
  { signal, isFatal, fallbackLane, window = Math.max(8, 4 * lanes.length), perLane = 1 }: RunOptions,
): Promise<void> {
  let next = 0;
  let delivered = 0;
  let failure: { error: unknown } | undefined;
  const ready = new Map<number, PageOutcome>();
  let chain: Promise<void> = Promise.resolve();
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const resolve of waiting) resolve();
    waiting.clear();
  };
  const waitForDelivery = () => new Promise<void>((resolve) => waiting.add(resolve));
  const stop = (error: unknown) => {
    failure ??= { error };
    wake();
  };

  const flush = async () => {
    while (!failure && ready.has(delivered)) {
      const outcome = ready.get(delivered)!;
      ready.delete(delivered);
      try {
        await deliver(outcome);
      } catch (error) {
        stop(error);
        return;
      }
      delivered++;
      wake();
    }
  };

  // Drivers, not lanes: each lane has `perLane` of them; a lost lane's drivers each drop out.
  let live = lanes.length * perLane;
  const drive = async (lane: PageLane): Promise<void> => {
    while (!failure && next < pages.length) {
      if (signal?.aborted) return stop(cancelled());
      if (next - delivered >= window) {
        await waitForDelivery();
        continue;
      }
      const index = next++;
      const pageNumber = pages[index];
      let outcome: PageOutcome;
      let lost = false;
      try {
        outcome = { pageNumber, ...(await lane.render(pageNumber)) };
      } catch (error) {
        if (isFatal(error)) return stop(error);
        lost = error instanceof LaneLost;
        outcome = { pageNumber, error: asError(error) };
      }
      ready.set(index, outcome);
      chain = chain.then(flush);
      await chain;
      if (lost) {
        lane.close();
        live--;
        if (live === 0 && !failure && next < pages.length) {
          const fallback = await fallbackLane().catch((error: unknown) => {
            stop(error);
            return undefined;
          });
          if (!fallback) return;
          live++;
          lanes.push(fallback);
          return drive(fallback);
        }
        return;
      }
    }
  };
  await Promise.all(lanes.flatMap((lane) => Array.from({ length: perLane }, () => drive(lane))));
  await chain;
  if (failure) throw failure.error;
  if (signal?.aborted) throw cancelled();
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
