/**
 * Files that reach Folio from the operating system — "Open with Folio" (file_handlers +
 * launchQueue) or the share sheet (share_target, via the service worker) — wait here, in memory
 * only, until the user picks a tool for them on /open.
 */
type Listener = (files: File[]) => void;

let pending: File[] = [];
const listeners = new Set<Listener>();

function publish(files: File[]) {
  pending = files;
  listeners.forEach((listener) => listener(files));
}

export function onIncomingFiles(listener: Listener): () => void {
  listeners.add(listener);
  if (pending.length) listener(pending);
  return () => listeners.delete(listener);
}

/** The files waiting for a tool (read in a state initialiser, which React may call twice). */
export function peekIncomingFiles(): File[] {
  return pending;
}

/** Forgets the waiting files once a tool has taken them. */
export function clearIncomingFiles(): void {
  pending = [];
}

interface LaunchParams {
  files: Array<{ getFile(): Promise<File> }>;
}

/** Listens for files opened with Folio from the OS (Chromium's File Handling API). */
export function listenForLaunchedFiles(): void {
  const launchQueue = (
    window as unknown as { launchQueue?: { setConsumer(consumer: (params: LaunchParams) => void): void } }
  ).launchQueue;
  launchQueue?.setConsumer(async (params) => {
    if (!params.files.length) return;
    publish(await Promise.all(params.files.map((handle) => handle.getFile())));
  });
}

/** Collects files shared to Folio: the service worker holds them until this page asks. */
export async function collectSharedFiles(): Promise<void> {
  const controller = navigator.serviceWorker?.controller;
  if (!controller) return;
  const channel = new MessageChannel();
  const files = await new Promise<File[]>((resolve) => {
    channel.port1.onmessage = (event) => resolve((event.data as File[]) ?? []);
    controller.postMessage({ type: 'TAKE_SHARED_FILES' }, [channel.port2]);
    setTimeout(() => resolve([]), 3000);
  });
  if (files.length) publish(files);
}
