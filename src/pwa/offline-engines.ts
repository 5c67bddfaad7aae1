/**
 * The page's side of offline engines (the service worker, src/sw.ts, does the downloading):
 * - after the first page has loaded and the browser is idle, ask the service worker to cache the
 *   core set (every tool's engine) — unless the visitor asked to save data (Save-Data), then the
 *   About page asks first;
 * - what is on this device: the engine cache read against this version's /engine-assets.json;
 * - whether a tool can run now: offline with some of its files missing, it says what it needs.
 */
import {
  ENGINE_CACHE,
  needsDownloadMessage,
  toolFiles,
  type EngineAssetList,
  type EngineGroup,
} from './engine-files.ts';
import type { EngineCacheMessage } from './engine-cache-messages.ts';

let listPromise: Promise<EngineAssetList> | undefined;

/** This version's list of engine files (precached with the app, so it loads offline too). */
export function fetchEngineAssetList(): Promise<EngineAssetList> {
  listPromise ??= fetch('/engine-assets.json').then(async (response) => {
    if (!response.ok) throw new Error('The list of tool engines could not be loaded.');
    return (await response.json()) as EngineAssetList;
  });
  listPromise.catch(() => (listPromise = undefined));
  return listPromise;
}

/** Paths of the files in the engine cache. */
export async function cachedEngineUrls(): Promise<Set<string>> {
  if (typeof caches === 'undefined') return new Set();
  try {
    const cache = await caches.open(ENGINE_CACHE);
    return new Set((await cache.keys()).map((request) => new URL(request.url).pathname));
  } catch {
    return new Set();
  }
}

export interface GroupState {
  group: EngineGroup;
  /** Bytes of the group's files on this device, and of all of them. */
  cachedBytes: number;
  totalBytes: number;
}

export async function groupStates(list: EngineAssetList): Promise<Map<EngineGroup, GroupState>> {
  const cached = await cachedEngineUrls();
  const states = new Map<EngineGroup, GroupState>();
  for (const file of list.files) {
    const state = states.get(file.group) ?? { group: file.group, cachedBytes: 0, totalBytes: 0 };
    state.totalBytes += file.bytes;
    if (cached.has(file.url)) state.cachedBytes += file.bytes;
    states.set(file.group, state);
  }
  return states;
}

/** True when the visitor's browser or OS asks sites to save data. */
export function savesData(): boolean {
  return (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
}

/** Groups this page asked for that have not finished (asked again after a job, see holdEngineDownloads). */
const unfinished = new Set<EngineGroup>();
let unfinishedWatched = false;

/** Asks the service worker to download a group of engine files (progress: onEngineCacheMessage). */
export async function requestEngineGroup(group: EngineGroup): Promise<void> {
  if (!('serviceWorker' in navigator)) throw new Error('This browser cannot keep Folio for offline use.');
  unfinished.add(group);
  if (!unfinishedWatched) {
    unfinishedWatched = true;
    onEngineCacheMessage((message) => {
      if (message.type === 'engine-cache-finished') unfinished.delete(message.group);
    });
  }
  const registration = await navigator.serviceWorker.ready;
  registration.active?.postMessage({ type: 'CACHE_ENGINES', group });
}

let jobsAtWork = 0;
/** Messages to the service worker about jobs, in the order they were given. */
let holdsSent: Promise<unknown> = Promise.resolve();

/**
 * Called as a tool's job starts in this window; the returned function as it ends. Meanwhile the
 * service worker starts no background download (src/sw.ts): the job has the device's cores to
 * itself. After the last job, the groups this page asked for and that have not finished are asked
 * for again — a download held longer than the browser lets a service worker wait may have been
 * stopped (files already stored are not fetched again).
 */
export function holdEngineDownloads(): () => void {
  if (!('serviceWorker' in navigator)) return () => undefined;
  const tell = (busy: boolean) => {
    holdsSent = holdsSent
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => registration.active?.postMessage({ type: 'HOLD_ENGINE_DOWNLOADS', busy }))
      .catch(() => undefined);
  };
  if (jobsAtWork++ === 0) tell(true);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--jobsAtWork > 0) return;
    tell(false);
    for (const group of unfinished) void requestEngineGroup(group).catch(() => undefined);
  };
}

export function onEngineCacheMessage(listener: (message: EngineCacheMessage) => void): () => void {
  if (!('serviceWorker' in navigator)) return () => undefined;
  const handler = (event: MessageEvent) => {
    const data = event.data as EngineCacheMessage | undefined;
    if (data?.type === 'engine-cache-progress' || data?.type === 'engine-cache-finished') listener(data);
  };
  navigator.serviceWorker.addEventListener('message', handler);
  return () => navigator.serviceWorker.removeEventListener('message', handler);
}

function whenIdle(run: () => void): void {
  const idle = (window as Window & { requestIdleCallback?: (cb: () => void, options?: { timeout: number }) => number })
    .requestIdleCallback;
  if (idle) idle(run, { timeout: 10_000 });
  else setTimeout(run, 2_000);
}

/**
 * Once the first page has loaded and the browser is idle, the core set is cached in the background
 * (the service worker downloads only what it does not have). With Save-Data on, nothing starts:
 * the About page offers the download with its size.
 */
export function cacheEnginesWhenIdle(): void {
  if (savesData()) return;
  const start = () => whenIdle(() => void requestEngineGroup('core').catch(() => undefined));
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

/**
 * Why a tool cannot run right now, or undefined when it can (or when we cannot tell): offline, with
 * some of the files its engine needs not on this device.
 */
export async function toolOfflineProblem(tool: { id: string; name: string }): Promise<string | undefined> {
  if (navigator.onLine) return undefined;
  try {
    const files = toolFiles(await fetchEngineAssetList(), tool.id);
    if (!files) return undefined;
    const cached = await cachedEngineUrls();
    const missing = files.filter((file) => !cached.has(file.url)).reduce((sum, file) => sum + file.bytes, 0);
    return missing > 0 ? needsDownloadMessage(tool.name, missing) : undefined;
  } catch {
    return undefined;
  }
}
