/** Counts long text (over ~100,000 characters) off the main thread; see words-client.ts. */
import * as Comlink from 'comlink';
import { analyzeText, type TextStats } from './words.ts';

const api = {
  analyze(text: string): TextStats {
    return analyzeText(text);
  },
};

export type WordsWorkerApi = typeof api;
Comlink.expose(api);
