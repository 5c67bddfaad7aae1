/**
 * Where text gets counted: in the page when short (instant), in a worker when long, so typing in
 * a megabyte of text never stalls the page (1 MB takes about a second to segment). The worker
 * starts on first long text and is released after a minute idle.
 */
import * as Comlink from 'comlink';
import { analyzeText, type TextStats } from './words.ts';
import type { WordsWorkerApi } from './words.worker.ts';

export const WORDS_MAIN_THREAD_LIMIT = 100_000;
const IDLE_RELEASE_MS = 60_000;

let live: { worker: Worker; api: Comlink.Remote<WordsWorkerApi>; idle?: ReturnType<typeof setTimeout> } | null = null;

export async function analyzeAnywhere(text: string): Promise<TextStats> {
  if (text.length <= WORDS_MAIN_THREAD_LIMIT || typeof Worker === 'undefined') return analyzeText(text);
  if (!live) {
    const worker = new Worker(new URL('./words.worker.ts', import.meta.url), { type: 'module', name: 'folio-words' });
    live = { worker, api: Comlink.wrap<WordsWorkerApi>(worker) };
  }
  const current = live;
  clearTimeout(current.idle);
  try {
    return await current.api.analyze(text);
  } finally {
    current.idle = setTimeout(() => {
      current.worker.terminate();
      if (live === current) live = null;
    }, IDLE_RELEASE_MS);
  }
}
