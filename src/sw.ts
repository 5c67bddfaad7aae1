/// <reference lib="webworker" />
/**
 * Folio's one service worker (vite-plugin-pwa, injectManifest).
 * - The app shell and every route are precached: after one visit Folio starts offline.
 * - Engines (worker chunks under /assets/engine/), WebAssembly, pdf.js data and fonts are cached on
 *   first use (cache-first), or all at once by "Make all tools available offline" on the About page.
 *   OCR languages other than English (/engine-data/tesseract/lang/) are optional: cached the first
 *   time they are used, never by that button.
 * - The share target (POST /share-target from the phone's share sheet) is answered here: the shared
 *   files are held in this worker's memory only until the page at /open asks for them.
 * - A new version waits until the user accepts the update prompt (no skipWaiting on install).
 * No /api request is handled here: the page answers those itself (see mock-api/browser.ts).
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

export const ENGINE_CACHE = 'folio-engines-v1';

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every route of the single-page app is index.html.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/share-target/] }));

// Heavy, immutable (content-hashed or versioned) files: fetched once, then served from the cache.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    request.method === 'GET' &&
    (url.pathname.startsWith('/assets/engine/') || url.pathname.startsWith('/pdfjs/') || url.pathname.startsWith('/engine-data/') || url.pathname.endsWith('.wasm')),
  // ignoreVary: a module import sends an Origin header that a plain fetch() does not, and the server
  // answers with `Vary: Origin`; without this, files cached by "Make all tools available offline"
  // would not match the worker's imports.
  new CacheFirst({ cacheName: ENGINE_CACHE, matchOptions: { ignoreVary: true } }),
);

// Files shared to Folio from another app, kept in memory until /open collects them.
let sharedFiles: File[] = [];

async function receiveShare(event: FetchEvent): Promise<Response> {
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
  const data = event.data as { type?: string } | undefined;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  if (data?.type === 'TAKE_SHARED_FILES') {
    event.ports[0]?.postMessage(sharedFiles);
    sharedFiles = [];
  }
});
