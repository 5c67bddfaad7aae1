/**
 * The optional LibreOffice engine (LibreOffice compiled to WebAssembly, @matbee/libreoffice-converter
 * 2.7.2, MPL-2.0): highest fidelity, and the reader of legacy binary .doc/.xls/.ppt files. Browser
 * only, desktop only (≈ 2.3 GB of memory), on a cross-origin isolated page (its threads need
 * SharedArrayBuffer).
 *
 * The engine worker keeps ONE host worker (workers/libreoffice/lo-host.ts, a classic worker that
 * loads soffice.js) alive between jobs: starting LibreOffice takes seconds. The first start
 * downloads soffice.wasm and soffice.data (247 MB uncompressed) with progress, and hands the bytes to
 * the host, so nothing is downloaded twice; the service worker keeps the files. Time limits: 180 s to
 * start, 120 s per conversion; past them the host is terminated (the next job starts a fresh one) and
 * the job fails with TimedOut. Cancelling a job terminates the engine worker, and with it the host and
 * LibreOffice's threads (nested workers die with their owner).
 *
 * Node (tests, bench): not available — LibreOffice would need ≈ 2 GB and worker threads per test run;
 * it is tested in the browser (tests/e2e/libreoffice.test.ts). Called in Node it refuses clearly.
 */
import type { EngineContext, EngineInput, ProgressCallback } from '../types.ts';
import { FolioError, cancelled } from '../errors.ts';
import { fetchLargeAssets, reportingFirstDownloads } from '../assets.ts';
import { isNode } from '../wasm.ts';
import { holdWorker } from '../keep-alive.ts';
import {
  LIBREOFFICE_BASE,
  LIBREOFFICE_FILES,
  libreOfficeDownloadSize,
  type LibreOfficeSizes,
} from '../../../../shared/libreoffice-files.ts';

declare const __LIBREOFFICE_REVISION__: string | undefined;

/** The revision of the small files (glue, host), defined by build/libreoffice-assets.ts. */
const REVISION = typeof __LIBREOFFICE_REVISION__ === 'string' ? __LIBREOFFICE_REVISION__ : 'dev';

export const INIT_LIMIT_MS = 180_000;
export const CONVERT_LIMIT_MS = 120_000;
/** What the progress line says while the files download (same words as the built-in engine's fonts). */
export const LIBREOFFICE_PREPARING = 'Preparing the document engine';

/** Formats LibreOffice is asked to save as: PDF, or (tests) the legacy binary formats. */
export type LibreOfficeFormat = 'pdf' | 'doc' | 'xls' | 'ppt';

export const NOT_ISOLATED =
  'The LibreOffice engine needs a cross-origin isolated page (see docs/deploying.md); the built-in engine works ' +
  'everywhere.';

/** Why LibreOffice cannot run here, or undefined when it can. */
export function libreOfficeUnavailable(
  scope: { crossOriginIsolated?: boolean; navigator?: { deviceMemory?: number } } = globalThis as object,
  node = isNode,
): string | undefined {
  if (node)
    return (
      'The LibreOffice engine runs in the browser only (it is not available in Node); the built-in engine works ' +
      'everywhere.'
    );
  if (scope.crossOriginIsolated !== true) return NOT_ISOLATED;
  const memory = scope.navigator?.deviceMemory;
  if (typeof memory === 'number' && memory < 4) {
    return (
      `The LibreOffice engine needs about 2.5 GB of memory, and this device reports ${memory} GB: it is meant for ` +
      `desktop computers; the built-in engine works here.`
    );
  }
  return undefined;
}

interface Host {
  worker: Worker;
  ready: Promise<void>;
  /** Progress lines of the jobs waiting for this host to start (it may have been started early). */
  listeners: Set<ProgressCallback>;
}

let host: Host | undefined;
let queue: Promise<unknown> = Promise.resolve();
let nextId = 1;

function stopHost(stopping: Host | undefined): void {
  stopping?.worker.terminate();
  if (host === stopping) {
    host = undefined;
    holdWorker('libreoffice', false);
  }
}

const url = (name: string, revised = false) => `${LIBREOFFICE_BASE}${name}${revised ? `?v=${REVISION}` : ''}`;

async function download(): Promise<{ wasm: Uint8Array; data: Uint8Array }> {
  let sizes: LibreOfficeSizes | undefined;
  try {
    const response = await fetch(url(LIBREOFFICE_FILES.sizes, true));
    if (response.ok) sizes = (await response.json()) as LibreOfficeSizes;
  } catch {
    /* sizes are only for the progress total */
  }
  try {
    const [wasm, data] = await fetchLargeAssets([
      { url: url(LIBREOFFICE_FILES.wasm), bytes: sizes?.wasm },
      { url: url(LIBREOFFICE_FILES.data), bytes: sizes?.data },
    ]);
    return { wasm, data };
  } catch (error) {
    throw new FolioError(
      'NotImplemented',
      `The LibreOffice engine could not be downloaded (${(error as Error).message}). It is downloaded once, ` +
        `while online (${libreOfficeDownloadSize()}); the built-in engine works offline.`,
    );
  }
}

function startHost(): Host {
  holdWorker('libreoffice', true);
  const worker = new Worker(url(LIBREOFFICE_FILES.host, true), { name: 'folio-libreoffice' });
  const started: Host = { worker, ready: Promise.resolve(), listeners: new Set() };
  started.ready = (async () => {
    // Waiting jobs hear the download through reportingFirstDownloads (convertOnce).
    const { wasm, data } = await download();
    // A line that counts the seconds: the user sees it is alive, and the bridge's stall watchdog
    // leaves the start to this limit.
    const startedAt = Date.now();
    const say = () => {
      for (const listener of started.listeners)
        listener(0, 1, `Starting LibreOffice (${Math.round((Date.now() - startedAt) / 1000)} s)…`);
    };
    say();
    const ticker = setInterval(say, 5_000);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new FolioError(
                'TimedOut',
                `LibreOffice did not start within ${INIT_LIMIT_MS / 1000} seconds and was stopped. Please try ` +
                  `again, or use the built-in engine.`,
              ),
            ),
          INIT_LIMIT_MS,
        );
        worker.onmessage = (event: MessageEvent<{ type: string; message?: string }>) => {
          if (event.data.type === 'ready') {
            clearTimeout(timer);
            resolve();
          } else if (event.data.type === 'fatal') {
            clearTimeout(timer);
            reject(
              new FolioError(
                'NotImplemented',
                `LibreOffice could not start: ${event.data.message}. The built-in engine works everywhere.`,
              ),
            );
          }
        };
        worker.onerror = (event) => {
          clearTimeout(timer);
          event.preventDefault();
          reject(
            new FolioError(
              'NotImplemented',
              `LibreOffice could not start: ${event.message || 'its worker failed to load'}. The built-in ` +
                `engine works everywhere.`,
            ),
          );
        };
        worker.postMessage(
          {
            type: 'init',
            glueUrl: new URL(url(LIBREOFFICE_FILES.glue, true), self.location.href).href,
            wasm: wasm.buffer,
            data: data.buffer,
          },
          [wasm.buffer, data.buffer],
        );
      });
    } finally {
      clearInterval(ticker);
    }
  })();
  started.ready.catch(() => stopHost(started));
  return started;
}

async function convertOnce(input: EngineInput, ctx: EngineContext, format: LibreOfficeFormat): Promise<Uint8Array> {
  const current = (host ??= startHost());
  const onAbort = () => stopHost(current);
  ctx.signal?.addEventListener('abort', onAbort, { once: true });
  if (ctx.progress) current.listeners.add(ctx.progress);
  try {
    // The host may be downloading or starting already (chosen in the tool's window): this job's
    // progress line follows it from here.
    await reportingFirstDownloads(ctx.progress, LIBREOFFICE_PREPARING, () => current.ready);
    if (ctx.progress) current.listeners.delete(ctx.progress);
    if (ctx.signal?.aborted) throw cancelled();
    ctx.progress?.(0, 1, 'Converting with LibreOffice…');
    const id = nextId++;
    const copy = input.bytes.slice();
    const extension = /\.([a-z0-9]+)$/i.exec(input.name)?.[1].toLowerCase() ?? 'bin';
    return await new Promise<Uint8Array>((resolve, reject) => {
      const timer = setTimeout(() => {
        stopHost(current);
        reject(
          new FolioError(
            'TimedOut',
            `LibreOffice took longer than ${CONVERT_LIMIT_MS / 1000} seconds on "${input.name}" and was ` +
              `stopped. Please try again (LibreOffice starts afresh), or use the built-in engine.`,
          ),
        );
      }, CONVERT_LIMIT_MS);
      ctx.signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(cancelled());
        },
        { once: true },
      );
      current.worker.onmessage = (
        event: MessageEvent<{ type: string; id: number; bytes?: ArrayBuffer; message?: string }>,
      ) => {
        if (event.data.type === 'fatal') {
          clearTimeout(timer);
          stopHost(current);
          reject(
            new FolioError(
              'InvalidInput',
              `LibreOffice stopped while converting "${input.name}" (${event.data.message}). Please try again, ` +
                `or use the built-in engine.`,
            ),
          );
          return;
        }
        if (event.data.id !== id) return;
        clearTimeout(timer);
        if (event.data.type === 'done') resolve(new Uint8Array(event.data.bytes!));
        else
          reject(
            new FolioError('InvalidInput', `LibreOffice could not convert "${input.name}": ${event.data.message}.`),
          );
      };
      current.worker.onerror = (event) => {
        clearTimeout(timer);
        event.preventDefault();
        stopHost(current);
        reject(
          new FolioError(
            'InvalidInput',
            `LibreOffice stopped while converting "${input.name}" (${event.message || 'its worker failed'}). ` +
              `Please try again, or use the built-in engine.`,
          ),
        );
      };
      current.worker.postMessage({ type: 'convert', id, extension, bytes: copy.buffer, format }, [copy.buffer]);
    });
  } finally {
    if (ctx.progress) current.listeners.delete(ctx.progress);
    ctx.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Starts LibreOffice ahead of the first job (the user chose the LibreOffice engine in the tool's
 * window): the download and start-up then overlap with picking a file. Silent where it cannot run;
 * the job itself says why.
 */
export function startLibreOfficeEarly(): void {
  if (libreOfficeUnavailable()) return;
  const early = (host ??= startHost());
  early.ready.catch(() => undefined);
}

/**
 * Converts one Office file with LibreOffice: to PDF, or (for tests) to a legacy binary format.
 * Throws FolioError NotImplemented (with the reason) where LibreOffice cannot run, TimedOut past the
 * time limits, InvalidInput when LibreOffice cannot read the file.
 */
export function convertWithLibreOffice(
  input: EngineInput,
  ctx: EngineContext,
  format: LibreOfficeFormat = 'pdf',
): Promise<Uint8Array> {
  const unavailable = libreOfficeUnavailable();
  if (unavailable) return Promise.reject(new FolioError('NotImplemented', unavailable));
  // One job at a time in the one host.
  const job = queue.then(() => convertOnce(input, ctx, format));
  queue = job.catch(() => undefined);
  return job;
}
