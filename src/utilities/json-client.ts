/**
 * Where JSON gets formatted: on the main thread when it is small (instant feedback), in a
 * dedicated worker when it is big, so the tab stays responsive. The worker is started on first
 * big job, terminated on cancel (the only way to stop a running parse) and after a minute idle.
 */
import * as Comlink from 'comlink';
import { formatJson, type JsonFormatOptions, type JsonFormatResult } from './json.ts';
import type { JsonWorkerApi } from './json.worker.ts';

/** Inputs up to this many characters/bytes are formatted in the page. */
export const MAIN_THREAD_LIMIT = 256 * 1024;
const IDLE_RELEASE_MS = 60_000;

let live: { worker: Worker; api: Comlink.Remote<JsonWorkerApi>; idle?: ReturnType<typeof setTimeout> } | null = null;

function release() {
  if (!live) return;
  clearTimeout(live.idle);
  live.worker.terminate();
  live = null;
}

export class FormatCancelled extends Error {
  constructor() {
    super('Cancelled');
  }
}

export async function formatAnywhere(
  input: string | Blob,
  options: JsonFormatOptions,
  signal?: AbortSignal,
): Promise<JsonFormatResult> {
  const size = typeof input === 'string' ? input.length : input.size;
  if (size <= MAIN_THREAD_LIMIT) return formatJson(typeof input === 'string' ? input : await input.text(), options);
  if (signal?.aborted) throw new FormatCancelled();
  if (!live) {
    const worker = new Worker(new URL('./json.worker.ts', import.meta.url), { type: 'module', name: 'folio-json' });
    live = { worker, api: Comlink.wrap<JsonWorkerApi>(worker) };
  }
  clearTimeout(live.idle);
  const current = live;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      release();
      reject(new FormatCancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([current.api.format(input, options), aborted]);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    if (live === current) live.idle = setTimeout(release, IDLE_RELEASE_MS);
  }
}
