/**
 * Formats big JSON off the main thread (used by json-client.ts for inputs over ~256 KB). Takes a
 * string or a File/Blob (read here, so a dropped 20 MB file is never copied through the page).
 */
import * as Comlink from 'comlink';
import { formatJson, type JsonFormatOptions, type JsonFormatResult } from './json.ts';

const api = {
  async format(input: string | Blob, options: JsonFormatOptions): Promise<JsonFormatResult> {
    const text = typeof input === 'string' ? input : await input.text();
    const result = formatJson(text, options);
    if (result.ok) result.bytes = new Blob([result.output]).size;
    return result;
  },
};

export type JsonWorkerApi = typeof api;
Comlink.expose(api);
