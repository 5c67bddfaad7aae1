/// <reference lib="webworker" />
/**
 * Folio's one service worker (vite-plugin-pwa, injectManifest).
 * - The app shell and every route are precached: after one visit Folio starts offline.
 * - Engines (worker chunks under /assets/engine/), WebAssembly, pdf.js data and fonts go into one
 *   engine cache. After the first page has loaded and the browser is idle, the page asks for the core
 *   set (every tool's engine: the "core" group of /engine-assets.json) and this worker downloads what
 *   is missing in the background, telling open pages how far it has got. The optional groups (CJK
 *   fonts, OCR languages other than English, LibreOffice) are cached when first used or when asked
 *   for on the About page. Anything else under those paths is cached on first use (cache-first).
 *   While a tool works in any window, no new background download starts (HOLD_ENGINE_DOWNLOADS).
 * - On activation, caches of an older layout are deleted and every engine file that this version no
 *   longer lists (an update's old chunks, WASM, a previous LibreOffice) is removed.
 * - The share target (POST /share-target from the OS share sheet) is answered here: only a top-level
 *   navigation that does not come from another site is taken; the files stay in this worker's memory
 *   until the page at /open asks for them.
 * - A new version waits until the user accepts the update prompt (no skipWaiting on install).
 * No /api request is handled here: the page answers those itself (see mock-api/browser.ts).
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { ENGINE_CACHE, type EngineAssetList, type EngineGroup } from './pwa/engine-files.ts';
import { pruneEngineCaches } from './pwa/engine-cache-prune.ts';
import type { EngineCacheMessage } from './pwa/engine-cache-messages.ts';
import { isShareFromOs } from './pwa/share-target.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every route of the single-page app is index.html.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/share-target/] }),
);

// Heavy, immutable (content-hashed or versioned) files: fetched once, then served from the cache.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    request.method === 'GET' &&
    (url.pathname.startsWith('/assets/engine/') ||
      url.pathname.startsWith('/pdfjs/') ||
      url.pathname.startsWith('/engine-data/') ||
      url.pathname.endsWith('.wasm')),
  // ignoreVary: a module import sends an Origin header that a plain fetch() does not, and the server
  // answers with `Vary: Origin`; without this, files cached by "Make all tools available offline"
  // would not match the worker's imports.
  new CacheFirst({ cacheName: ENGINE_CACHE, matchOptions: { ignoreVary: true } }),
);

// ---- Background caching of engine files -------------------------------------------------------

/** This version's list of engine files, from the precache (so it always matches this worker). */
async function engineList(): Promise<EngineAssetList | undefined> {
  const response = await matchPrecache('/engine-assets.json');
  return response ? ((await response.json()) as EngineAssetList) : undefined;
}

async function broadcast(message: EngineCacheMessage): Promise<void> {
  for (const client of await self.clients.matchAll({ type: 'window', includeUncontrolled: true }))
    client.postMessage(message);
}

/** Downloads at once: enough to keep the connection busy, few enough not to crowd out a tool's own requests. */
const PARALLEL_DOWNLOADS = 3;
const running = new Map<string, Promise<void>>();

/**
 * Windows with a tool at work (HOLD_ENGINE_DOWNLOADS): no new download starts until none is left.
 * On a two-core device, inflating and storing engine files beside a job slowed a first visit's
 * first job by a third (docs/benchmarks.md). A window that closes mid-job stops holding.
 */
const busyWindows = new Set<string>();
/** The waits of the download lanes held, each ended when the last busy window is done. */
const heldLanes = new Set<() => void>();
/** How often a hold is checked for windows that have gone without saying so. */
const HOLD_RECHECK_MS = 5_000;

async function whileWindowsBusy(): Promise<void> {
  for (;;) {
    for (const id of busyWindows) if (!(await self.clients.get(id))) busyWindows.delete(id);
    if (busyWindows.size === 0) return;
    await new Promise<void>((resolve) => {
      const wake = () => {
        heldLanes.delete(wake);
        resolve();
      };
      heldLanes.add(wake);
      setTimeout(wake, HOLD_RECHECK_MS);
    });
  }
}

function holdDownloads(windowId: string, busy: boolean): void {
  if (busy) busyWindows.add(windowId);
  else if (busyWindows.delete(windowId) && busyWindows.size === 0) {
    for (const wake of [...heldLanes]) wake();
  }
}

/** Fetches every file of `group` that is not in the engine cache yet, reporting progress to the pages. */
function cacheGroup(group: EngineGroup): Promise<void> {
  let job = running.get(group);
  if (!job) {
    job = downloadGroup(group).finally(() => running.delete(group));
    running.set(group, job);
  }
  return job;
}

async function downloadGroup(group: EngineGroup): Promise<void> {
  const list = await engineList();
  if (!list) return;
  const files = list.files.filter((file) => file.group === group);
  const cache = await caches.open(ENGINE_CACHE);
  const cached = new Set((await cache.keys()).map((request) => new URL(request.url).pathname));
  const missing = files.filter((file) => !cached.has(file.url));
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  let done = total - missing.reduce((sum, file) => sum + file.bytes, 0);
  let failed = 0;
  await broadcast({ type: 'engine-cache-progress', group, done, total });
  const queue = [...missing];
  const download = async () => {
    for (;;) {
      if (busyWindows.size > 0) {
        await broadcast({ type: 'engine-cache-progress', group, done, total, held: true });
        await whileWindowsBusy();
      }
      const file = queue.shift();
      if (!file) return;
      try {
        const response = await fetch(file.url);
        if (!response.ok) throw new Error(String(response.status));
        await cache.put(file.url, response);
        done += file.bytes;
      } catch {
        failed += 1;
      }
      await broadcast({ type: 'engine-cache-progress', group, done, total });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_DOWNLOADS }, download));
  await broadcast({ type: 'engine-cache-finished', group, done, total, failed });
}

/** Deletes older cache layouts and every engine file this version does not list. */
async function pruneEngineCache(): Promise<void> {
  const list = await engineList();
  if (list) await pruneEngineCaches(caches, list);
}

self.addEventListener('activate', (event) => event.waitUntil(pruneEngineCache()));

// ---- Share target ------------------------------------------------------------------------------

// Files shared to Folio from another app, kept in memory until /open collects them.
let sharedFiles: File[] = [];

async function receiveShare(event: FetchEvent): Promise<Response> {
  if (!isShareFromOs(event.request, self.location.origin)) {
    sharedFiles = [];
    return new Response("Files can be shared to Folio only from your device's share menu.", {
      status: 403,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  const form = await event.request.formData();
  sharedFiles = form.getAll('files').filter((value): value is File => value instanceof File);
  return Response.redirect('/open?source=share', 303);
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method === 'POST' && url.origin === self.location.origin && url.pathname === '/share-target') {
    event.respondWith(receiveShare(event));
  }
});

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; group?: EngineGroup; busy?: boolean } | undefined;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  if (data?.type === 'TAKE_SHARED_FILES') {
    event.ports[0]?.postMessage(sharedFiles);
    sharedFiles = [];
  }
  if (data?.type === 'CACHE_ENGINES' && data.group) event.waitUntil(cacheGroup(data.group));
  const source = event.source;
  if (data?.type === 'HOLD_ENGINE_DOWNLOADS' && source && 'id' in source) holdDownloads(source.id, data.busy === true);
});
