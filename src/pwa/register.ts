/**
 * Registers the service worker (production builds only) and reports when a new version is waiting,
 * so the update prompt can ask before reloading — a reload mid-job would lose the user's files.
 * workbox-window is imported statically (≈ 3 KB gzip): a lazily loaded registration chunk was one
 * more request on every first load, aborted when the visitor navigated away at once.
 */
import { Workbox } from 'workbox-window';
import { cacheEnginesWhenIdle } from './offline-engines.ts';

type Listener = () => void;
const listeners = new Set<Listener>();
let needRefresh = false;
let workbox: Workbox | undefined;

export function startServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => {
    needRefresh = true;
    listeners.forEach((listener) => listener());
  });
  // A browser may refuse the worker (private modes, policies, automation): every tool still works online.
  workbox.register().catch(() => undefined);
  // Every tool's engine, in the background, once the page is idle (src/pwa/offline-engines.ts).
  cacheEnginesWhenIdle();
}

export function onUpdateReady(listener: Listener): () => void {
  listeners.add(listener);
  if (needRefresh) listener();
  return () => listeners.delete(listener);
}

/** Activates the waiting service worker (src/sw.ts answers SKIP_WAITING) and reloads into the new version. */
export function reloadIntoUpdate(): void {
  if (!workbox) return;
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}
