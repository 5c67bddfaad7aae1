/**
 * Installing Folio as an app. Chromium fires `beforeinstallprompt` when the manifest is installable:
 * we keep the event and offer an Install button that calls its prompt(). Safari has no such event:
 * iPhone and iPad install through Share → Add to Home Screen, Safari on a Mac through File → Add to
 * Dock, so there the button shows those steps. Nothing is offered when Folio already runs installed
 * (display-mode: standalone).
 */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export type InstallOffer = { kind: 'prompt' } | { kind: 'how-to'; steps: string } | { kind: 'none' };

let deferred: BeforeInstallPromptEvent | undefined;
let installed = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Registered at start-up: the event can fire before any component is there to hear it. */
export function listenForInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
    notify();
  });
  window.addEventListener('appinstalled', () => {
    deferred = undefined;
    installed = true;
    notify();
  });
}

export function runsInstalled(): boolean {
  return (
    installed ||
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

/** Safari (iOS, iPadOS, macOS), which installs from its own menus. */
function safariSteps(): string | undefined {
  const ua = navigator.userAgent;
  const apple = /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
  if (apple) return 'In Safari, tap the Share button, then "Add to Home Screen".';
  const safari = /Safari\//.test(ua) && !/Chrome|Chromium|CriOS|Edg|OPR|Firefox|FxiOS/.test(ua);
  if (safari && /Macintosh/.test(ua)) return 'In Safari, choose File → "Add to Dock".';
  return undefined;
}

export function installOffer(): InstallOffer {
  // Rendered outside a browser (the shell's render test): nothing to offer.
  if (typeof window === 'undefined') return { kind: 'none' };
  if (runsInstalled()) return { kind: 'none' };
  if (deferred) return { kind: 'prompt' };
  const steps = safariSteps();
  return steps ? { kind: 'how-to', steps } : { kind: 'none' };
}

export function onInstallOfferChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows the browser's install dialog (the saved event can be used once). */
export async function promptInstall(): Promise<void> {
  const event = deferred;
  if (!event) return;
  deferred = undefined;
  await event.prompt();
  const { outcome } = await event.userChoice;
  if (outcome === 'accepted') installed = true;
  notify();
}
