/**
 * Registers the service worker (production builds only) and reports when a new version is waiting,
 * so the update prompt can ask before reloading — a reload mid-job would lose the user's files.
 */
import { registerSW } from 'virtual:pwa-register';

type Listener = () => void;
const listeners = new Set<Listener>();
let needRefresh = false;
let applyUpdate: ((reload?: boolean) => Promise<void>) | undefined;

export function startServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  applyUpdate = registerSW({
    onNeedRefresh() {
      needRefresh = true;
      listeners.forEach((listener) => listener());
    },
  });
}

export function onUpdateReady(listener: Listener): () => void {
  listeners.add(listener);
  if (needRefresh) listener();
  return () => listeners.delete(listener);
}

/** Activates the waiting service worker and reloads into the new version. */
export function reloadIntoUpdate(): void {
  void applyUpdate?.(true);
}
