/**
 * Loading a data file that a package ships (a font, a language model…) the same way in a browser
 * worker and in Node: the browser fetches the URL Vite gave us (`import url from 'pkg/file?url'`,
 * served from our own origin and cached by the service worker), Node reads the file from
 * node_modules. Each file is loaded once per realm.
 */
import type { ProgressCallback } from './types.ts';
import { isNode } from './wasm.ts';
import { formatBytes } from '../../../shared/format.ts';

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
  const downloads = {
    loaded: all.reduce((sum, d) => sum + d.loaded, 0),
    total: all.every((d) => d.total) ? all.reduce((sum, d) => sum + d.total!, 0) : undefined,
  };
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

async function readWithProgress(
  response: Response,
  url: string,
  groupEntry?: { loaded: number; total?: number },
): Promise<Uint8Array> {
  const entry = groupEntry ?? { loaded: 0, total: undefined as number | undefined };
  entry.total ??= await expectedSize(response, url);
  running.set(url, entry);
  const chunks: Uint8Array[] = [];
  // A known size: one buffer, filled as the chunks arrive (no second copy of a 147 MB file).
  let whole = entry.total ? new Uint8Array(entry.total) : undefined;
  try {
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (whole && entry.loaded + value.byteLength <= whole.length) whole.set(value, entry.loaded);
      else {
        if (whole) chunks.push(whole.subarray(0, entry.loaded));
        whole = undefined;
        chunks.push(value);
      }
      entry.loaded += value.byteLength;
      notify();
    }
  } finally {
    // A file of a group (fetchLargeAssets) stays counted until the group's last file is in: the total
    // shown must not drop to what is left ("… of 95 MB" once LibreOffice's 147 MB module was in).
    if (!groupEntry) running.delete(url);
  }
  if (whole) return entry.loaded === whole.length ? whole : whole.slice(0, entry.loaded);
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
export async function reportingFirstDownloads<T>(
  progress: ProgressCallback | undefined,
  label: string,
  work: () => Promise<T>,
): Promise<T> {
  if (!progress) return work();
  const watcher = ({ loaded, total }: AssetDownloads) =>
    progress(
      loaded,
      total ?? loaded,
      `${label} — ${formatBytes(loaded)}${total ? ` of ${formatBytes(total)}` : ''} (once)…`,
    );
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

/**
 * Large optional files (the LibreOffice engine's 147 MB module and 96 MB data), fetched together
 * with first-download progress against their known uncompressed sizes, and NOT kept here: the caller
 * hands the bytes on (transfers them), and the service worker's cache keeps the files for next time.
 */
export async function fetchLargeAssets(files: Array<{ url: string; bytes?: number }>): Promise<Uint8Array[]> {
  // Progress is kept whoever listens now: a job may start listening while the download runs
  // (an engine started early, as its tool's window opened).
  const firstUse = !(await Promise.all(files.map((f) => isCached(f.url)))).every(Boolean);
  // Every file is counted from the start, so the total ("… of 247 MB") does not jump.
  const entries = files.map((f) => ({ loaded: 0, total: f.bytes }));
  if (firstUse) files.forEach((f, i) => running.set(f.url, entries[i]));
  try {
    return await Promise.all(
      files.map(async (file, i) => {
        const response = await fetch(file.url);
        if (!response.ok) throw new Error(`Could not load ${file.url} (${response.status})`);
        if (!firstUse || !response.body) return new Uint8Array(await response.arrayBuffer());
        return readWithProgress(response, file.url, entries[i]);
      }),
    );
  } finally {
    for (const file of files) running.delete(file.url);
  }
}
