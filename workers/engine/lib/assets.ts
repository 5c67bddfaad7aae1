/**
 * Loading a data file that a package ships (a font, a language model…) the same way in a browser
 * worker and in Node: the browser fetches the URL Vite gave us (`import url from 'pkg/file?url'`,
 * served from our own origin and cached by the service worker), Node reads the file from
 * node_modules. Each file is loaded once per realm.
 */
import type { ProgressCallback } from './types.ts';
import { isNode } from './wasm.ts';

const loaded = new Map<string, Promise<Uint8Array>>();

/** Bytes received and expected (when known) over the downloads running now. */
export interface AssetDownloads {
  loaded: number;
  total?: number;
}

const watchers = new Set<(downloads: AssetDownloads) => void>();
const running = new Map<string, { loaded: number; total?: number }>();

function notify(): void {
  const all = [...running.values()];
  const downloads = { loaded: all.reduce((sum, d) => sum + d.loaded, 0), total: all.every((d) => d.total) ? all.reduce((sum, d) => sum + d.total!, 0) : undefined };
  for (const watcher of watchers) watcher(downloads);
}

async function isCached(url: string): Promise<boolean> {
  try {
    return typeof caches !== 'undefined' && Boolean(await caches.match(url, { ignoreVary: true }));
  } catch {
    return false;
  }
}

/** The file's size before compression: Content-Length, or the build's list when it came compressed. */
let assetSizes: Promise<Map<string, number>> | undefined;
async function expectedSize(response: Response, url: string): Promise<number | undefined> {
  const encoding = response.headers.get('Content-Encoding');
  if (!encoding || encoding === 'identity') return Number(response.headers.get('Content-Length')) || undefined;
  assetSizes ??= fetch('/engine-assets.json')
    .then((r) => r.json() as Promise<{ files: Array<{ url: string; bytes: number }> }>)
    .then(({ files }) => new Map(files.map((f) => [f.url, f.bytes])))
    .catch(() => new Map());
  return (await assetSizes).get(new URL(url, self.location.href).pathname);
}

async function readWithProgress(response: Response, url: string): Promise<Uint8Array> {
  const entry = { loaded: 0, total: await expectedSize(response, url) };
  running.set(url, entry);
  const chunks: Uint8Array[] = [];
  try {
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      entry.loaded += value.byteLength;
      notify();
    }
  } finally {
    running.delete(url);
  }
  const bytes = new Uint8Array(entry.loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Runs `work`, telling `progress` about package assets (fonts…) downloaded for the first time
 * meanwhile: "Preparing the document engine — 4.2 MB of 10.6 MB (once)…". Files already in the
 * cache, and Node, say nothing.
 */
export async function reportingFirstDownloads<T>(progress: ProgressCallback | undefined, label: string, work: () => Promise<T>): Promise<T> {
  if (!progress) return work();
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const watcher = ({ loaded, total }: AssetDownloads) => progress(loaded, total ?? loaded, `${label} — ${mb(loaded)}${total ? ` of ${mb(total)}` : ''} (once)…`);
  watchers.add(watcher);
  try {
    return await work();
  } finally {
    watchers.delete(watcher);
  }
}

/**
 * @param browserUrl the URL from a `?url` import of the file
 * @param nodeSpecifier the same file as a package path, e.g. '@fontsource/carlito/files/carlito-latin-400-normal.woff'
 */
export function loadPackageAsset(browserUrl: string, nodeSpecifier: string): Promise<Uint8Array> {
  let bytes = loaded.get(nodeSpecifier);
  if (!bytes) {
    bytes = (async () => {
      if (isNode) {
        const { createRequire } = await import(/* @vite-ignore */ 'node:module');
        const { readFile } = await import(/* @vite-ignore */ 'node:fs/promises');
        return new Uint8Array(await readFile(createRequire(import.meta.url).resolve(nodeSpecifier)));
      }
      const firstUse = watchers.size > 0 && !(await isCached(browserUrl));
      const response = await fetch(browserUrl);
      if (!response.ok) throw new Error(`Could not load ${nodeSpecifier} (${response.status})`);
      if (!firstUse || !response.body) return new Uint8Array(await response.arrayBuffer());
      return readWithProgress(response, browserUrl);
    })();
    loaded.set(nodeSpecifier, bytes);
    bytes.catch(() => loaded.delete(nodeSpecifier));
  }
  return bytes;
}
