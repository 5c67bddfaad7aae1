import { useCallback, useSyncExternalStore } from 'react';

/**
 * Theme preference: `localStorage.theme` is 'light' | 'dark' once the user has
 * chosen; until then the system's preference (prefers-color-scheme) decides, and is followed live.
 * index.html applies it to <html> before first paint; this module switches it at once (no reload)
 * and keeps every toggle on the page in step.
 */
export type Theme = 'light' | 'dark';
export const THEME_KEY = 'theme';

const listeners = new Set<() => void>();

const SYSTEM_DARK = '(prefers-color-scheme: dark)';

function storedTheme(): Theme | null {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return stored === 'dark' || stored === 'light' ? stored : null;
  } catch {
    return null;
  }
}

export function readTheme(): Theme {
  return storedTheme() ?? (globalThis.matchMedia?.(SYSTEM_DARK).matches ? 'dark' : 'light');
}

function currentTheme(): Theme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

export function setTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Private mode or storage disabled: the theme still switches for this visit.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed the theme: follow it.
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_KEY) {
      document.documentElement.classList.toggle('dark', readTheme() === 'dark');
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  // The system switched between light and dark: follow it while the user has not chosen.
  const system = window.matchMedia(SYSTEM_DARK);
  const onSystem = () => {
    if (storedTheme() !== null) return;
    document.documentElement.classList.toggle('dark', readTheme() === 'dark');
    listener();
  };
  system.addEventListener('change', onSystem);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
    system.removeEventListener('change', onSystem);
  };
}

export function useTheme(): [Theme, () => void] {
  const theme = useSyncExternalStore(subscribe, currentTheme, () => 'light' as Theme);
  const toggle = useCallback(() => setTheme(currentTheme() === 'dark' ? 'light' : 'dark'), []);
  return [theme, toggle];
}
