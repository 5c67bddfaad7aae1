/**
 * The page's side of the engine worker, in the manner of Squoosh's worker-bridge: the worker is
 * started on first use, a cancelled job terminates it (the only way to stop WASM mid-call and
 * free its memory), and an idle worker is released after a while. Input buffers are transferred,
 * not copied. Results come back as Blobs: an engine that writes its result piece by piece
 * (`ctx.output`, e.g. a ZIP) has each piece moved here as it is written and gathered into Blobs (or
 * written into the file the user picked), so no whole-result buffer is ever held in the page.
 */
import * as Comlink from 'comlink';
import type { EngineWorkerApi } from './engine.worker.ts';
import type { EngineInput, EngineOptions, EngineResult, ProgressCallback } from './engine/lib/types.ts';
import { FolioError, cancelled, stalled } from './engine/lib/errors.ts';
import { startWatchdog } from './watchdog.ts';
import { estimatePeakBytes, memoryBudgetBytes } from '../shared/memory-budget.ts';

// Until the worker says how long it wants to be kept (workers/engine/lib/keep-alive.ts).
const IDLE_RELEASE_MS = 30_000;

/** Failures after which a worker is not reused: whatever the job grew (WASM heaps never shrink) goes with it. */
const RECYCLE_AFTER: ReadonlySet<string> = new Set(['TooLarge', 'TooComplex', 'TimedOut', 'InternalError']);

/**
 * Whether a worker should be terminated right after its job instead of kept warm: after a job
 * estimated to have come close to this device's memory budget (shared/memory-budget.ts: more than half
 * of it), or one that failed on its size or complexity. Its WASM modules (codecs, pdf.js, OCR)
 * keep their grown memory for as long as the worker lives, so the next job, on top of it, would be
 * the one to crash the tab; a fresh worker starts from nothing.
 */
export function recycleAfterJob(
  toolId: string,
  inputSizes: readonly number[],
  error: unknown,
  deviceMemoryGb: number | undefined,
): boolean {
  if (error instanceof Error && RECYCLE_AFTER.has(error.name)) return true;
  return estimatePeakBytes(toolId, inputSizes) > memoryBudgetBytes(deviceMemoryGb) / 2;
}

interface LiveWorker {
  worker: Worker;
  api: Comlink.Remote<EngineWorkerApi>;
  busy: boolean;
  idleTimer?: ReturnType<typeof setTimeout>;
  /** Called when the worker's script could not be loaded (offline, not cached): its job fails at once. */
  onLoadFailure?: () => void;
}

/** The worker's own script could not be loaded: offline before the engine was ever saved on this device. */
export const engineNotLoaded = () =>
  new FolioError(
    'Offline',
    "Folio's tool engine is not on this device yet. Connect to the internet once, then the tools work offline.",
  );

const pool: LiveWorker[] = [];

function startWorker(): LiveWorker {
  const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'folio-engine' });
  const live: LiveWorker = { worker, api: Comlink.wrap<EngineWorkerApi>(worker), busy: false };
  // A script that cannot be fetched fires a plain `error` event and Comlink would wait for ever; an
  // exception inside a running engine is an ErrorEvent with a message, which its job reports itself.
  worker.addEventListener('error', (event) => {
    if (event instanceof ErrorEvent && event.message) return;
    release(live);
    live.onLoadFailure?.();
  });
  pool.push(live);
  return live;
}

function release(live: LiveWorker): void {
  clearTimeout(live.idleTimer);
  live.worker.terminate();
  const index = pool.indexOf(live);
  if (index >= 0) pool.splice(index, 1);
}

/** A job's result as the page holds it. */
export interface PageResult extends Omit<EngineResult, 'bytes' | 'streamedBytes'> {
  /** The result; empty when it was written into `RunOptions.saveTo`. */
  blob: Blob;
  /** True when the result's pieces were written into `RunOptions.saveTo`. */
  saved: boolean;
}

/** Pieces are gathered into Blobs of about this size, so at most this much of a result waits in page memory. */
const BLOB_PART_BYTES = 8 * 1024 * 1024;

/**
 * Parts of a whole result handed to the browser one at a time (blobInParts). A 1 GB result reached
 * the browser in 9 s in 64 MB parts, 15 s in 8 MB parts, 5 s in one piece (2-core VM).
 */
const RESULT_PART_BYTES = 64 * 1024 * 1024;

/**
 * Gathers the pieces of a result, in order, into Blobs: a Blob's bytes go to the browser's blob
 * storage (outside the page's heap, paged out to disk when large where the browser can), and a
 * Blob made of Blobs refers to them without copying.
 */
export class BlobCollector {
  private readonly parts: Blob[] = [];
  private pending: Uint8Array<ArrayBuffer>[] = [];
  private pendingBytes = 0;
  size = 0;

  add(chunk: Uint8Array): void {
    this.pending.push(chunk as Uint8Array<ArrayBuffer>);
    this.pendingBytes += chunk.byteLength;
    this.size += chunk.byteLength;
    if (this.pendingBytes >= BLOB_PART_BYTES) this.seal();
  }

  blob(type: string): Blob {
    this.seal();
    return new Blob(this.parts, { type });
  }

  private seal(): void {
    if (this.pending.length === 0) return;
    this.parts.push(new Blob(this.pending));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/**
 * A whole result as a Blob, handed to the browser's blob storage one part at a time. `new Blob`
 * copies the bytes it is given and the page keeps that copy until the browser has taken it: for a
 * 1 GB result in one piece, 1 GB more in the page at the job's peak (docs/benchmarks.md). Reading
 * a part's first byte waits until the browser holds the part, so at most one part's copy is
 * waiting at a time. Parts of RESULT_PART_BYTES: each wait is a round trip to the browser.
 */
export async function blobInParts(bytes: Uint8Array, type: string): Promise<Blob> {
  const whole = bytes as Uint8Array<ArrayBuffer>;
  if (whole.byteLength <= RESULT_PART_BYTES) return new Blob([whole], { type });
  const parts: Blob[] = [];
  for (let at = 0; at < whole.byteLength; at += RESULT_PART_BYTES) {
    const part = new Blob([whole.subarray(at, at + RESULT_PART_BYTES)]);
    await part.slice(0, 1).arrayBuffer();
    parts.push(part);
  }
  return new Blob(parts, { type });
}

export interface RunOptions {
  /**
   * A file the user picked for the result (save-target.ts): a result written piece by piece goes
   * straight into it (the stream is locked only while it does). Not closed here.
   */
  saveTo?: WritableStream<Uint8Array>;
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
  /** Stop the job (terminate its worker) when it reports no progress for this long. */
  stallMs?: number;
}

/**
 * Starts a worker and warms up a tool's engine in it (the tool's window has just opened), so the
 * first job does not wait for the engine's code and data. Failures are ignored: the job itself
 * will report them.
 */
export function prepareInWorker(toolId: string, options?: EngineOptions): void {
  const live = pool.find((w) => !w.busy) ?? startWorker();
  clearTimeout(live.idleTimer);
  void live.api
    .prepare(toolId, options)
    .catch(() => undefined)
    .finally(() => {
      if (pool.includes(live) && !live.busy) releaseWhenIdle(live);
    });
}

/** Releases an idle worker after the time it asks for (long while it holds LibreOffice). */
function releaseWhenIdle(live: LiveWorker): void {
  clearTimeout(live.idleTimer);
  live.idleTimer = setTimeout(() => release(live), IDLE_RELEASE_MS);
  void live.api.idleMs().then(
    (ms) => {
      if (!pool.includes(live) || live.busy) return;
      clearTimeout(live.idleTimer);
      live.idleTimer = setTimeout(() => release(live), ms);
    },
    () => undefined,
  );
}

/** Runs one tool's engine in a worker. Rejects with a named FolioError (see engine/lib/errors.ts). */
export async function runInWorker(
  toolId: string,
  inputs: EngineInput[],
  options: EngineOptions,
  { signal, onProgress, stallMs, saveTo }: RunOptions = {},
): Promise<PageResult> {
  if (signal?.aborted) throw cancelled();
  const live = pool.find((w) => !w.busy) ?? startWorker();
  clearTimeout(live.idleTimer);
  live.busy = true;

  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      release(live);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const loadFailed = new Promise<never>((_, reject) => {
    live.onLoadFailure = () => reject(engineNotLoaded());
  });
  // Every progress report pets the watchdog; when it fires, the worker (and whatever it is stuck
  // in) is terminated and the job fails with TimedOut. The next job gets a fresh worker.
  const watchdog = startWatchdog(stallMs, () => {
    release(live);
    return stalled(Math.round((stallMs ?? 0) / 1000));
  });
  const reportProgress: ProgressCallback = (done, total, status) => {
    watchdog.pet();
    onProgress?.(done, total, status);
  };

  const inputSizes = inputs.map((input) => input.bytes.byteLength);
  const collected = new BlobCollector();
  let writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  const onChunk = async (chunk: Uint8Array) => {
    if (!saveTo) return collected.add(chunk);
    writer ??= saveTo.getWriter();
    // Written in order; the worker answers only once every write has finished.
    await writer.write(chunk);
  };
  let failure: unknown;
  try {
    const transfers = inputs.map((input) => input.bytes.buffer as ArrayBuffer);
    const job = live.api.run(
      toolId,
      Comlink.transfer(inputs, transfers),
      options,
      onProgress || stallMs ? Comlink.proxy(reportProgress) : undefined,
      Comlink.proxy(onChunk),
    );
    const { bytes, streamedBytes, ...result } = await Promise.race([job, aborted, watchdog.fired, loadFailed]);
    if (streamedBytes === undefined) return { ...result, blob: await blobInParts(bytes, result.mime), saved: false };
    if (writer) {
      return { ...result, blob: new Blob([], { type: result.mime }), saved: true };
    }
    if (collected.size !== streamedBytes)
      throw new Error(`Result incomplete: ${collected.size} of ${streamedBytes} bytes`);
    return { ...result, blob: collected.blob(result.mime), saved: false };
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    writer?.releaseLock();
    watchdog.stop();
    live.onLoadFailure = undefined;
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    live.busy = false;
    const { deviceMemory } = navigator as { deviceMemory?: number };
    if (pool.includes(live) && recycleAfterJob(toolId, inputSizes, failure, deviceMemory)) release(live);
    if (pool.includes(live)) releaseWhenIdle(live);
  }
}

/**
 * Page thumbnails, rendered by pdf.js in a worker of their own (so a running job, or its
 * cancellation, never waits for or kills them). The worker starts with the first document and is
 * released when the last one is closed.
 */
export interface ThumbnailSource {
  pages: Array<{ width: number; height: number; rotate: number }>;
  /** A JPEG of page `pageNumber` (1-based), longer side `maxPx` pixels. */
  render(pageNumber: number, maxPx: number): Promise<PageThumbnail>;
  close(): void;
}

export interface PageThumbnail {
  image: Blob;
  /**
   * The page has CJK text in a font the PDF does not embed, and Folio's font for it could not be
   * loaded (offline before the CJK fonts were saved): the picture shows empty boxes there.
   */
  cjkFontMissing: boolean;
}

/**
 * The file's own resource check refused it (a decompression bomb): any job on it would be refused
 * with the same message, which is this error's.
 */
export class InputRefused extends Error {
  override name = 'InputRefused';
}

let thumbnailWorker:
  { worker: Worker; api: Comlink.Remote<EngineWorkerApi>; open: number; loadFailed: Promise<never> } | undefined;

export async function openThumbnails(file: Blob, password?: string): Promise<ThumbnailSource> {
  if (!thumbnailWorker) {
    const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), {
      type: 'module',
      name: 'folio-thumbnails',
    });
    // As for jobs: a script that cannot be fetched must fail the thumbnails, not leave them waiting.
    const loadFailed = new Promise<never>((_, reject) => {
      worker.addEventListener('error', (event) => {
        if (event instanceof ErrorEvent && event.message) return;
        if (thumbnailWorker?.worker === worker) thumbnailWorker = undefined;
        worker.terminate();
        reject(engineNotLoaded());
      });
    });
    loadFailed.catch(() => undefined);
    thumbnailWorker = { worker, api: Comlink.wrap<EngineWorkerApi>(worker), open: 0, loadFailed };
  }
  const live = thumbnailWorker;
  live.open += 1;
  const key = crypto.randomUUID();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    live.open -= 1;
    void live.api.closeThumbnails(key).catch(() => undefined);
    if (live.open === 0 && thumbnailWorker === live) {
      // Give a quick re-open (e.g. React's strict double effect) the chance to reuse the worker.
      setTimeout(() => {
        if (live.open === 0 && thumbnailWorker === live) {
          live.worker.terminate();
          thumbnailWorker = undefined;
        }
      }, 5_000);
    }
  };
  try {
    const name = file instanceof File ? file.name : undefined;
    // The Blob itself (a reference to the file, not its bytes): the worker reads what it needs.
    const pages = await Promise.race([live.api.openThumbnails(key, file, password, name), live.loadFailed]);
    if (!Array.isArray(pages)) throw new InputRefused(pages.refused);
    return { pages, render: (pageNumber, maxPx) => live.api.thumbnail(key, pageNumber, maxPx), close };
  } catch (error) {
    close();
    throw error;
  }
}
