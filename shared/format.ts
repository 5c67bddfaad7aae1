/**
 * Words the user reads about files, written one way on every screen: sizes and the names results
 * are given. Both the UI (src/) and the engines (workers/) import this module; it depends on nothing.
 */

const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** 512 → "512 B", 1536 → "1.5 KB", 3_500_000 → "3.3 MB" (binary units, one decimal). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/**
 * The name a result is given after its input: folders and the last extension go, so
 * "C:\\scans\\Report 2024.PDF" → "Report 2024" and "photo.final.jpeg" → "photo.final".
 * A name that ends up empty (".pdf", "") becomes `fallback`.
 */
export function baseName(filename: string, fallback = 'document'): string {
  const name = filename.replace(/^.*[\\/]/, '');
  const base = name.replace(/\.[a-z0-9]{1,5}$/i, '').trim();
  return base || fallback;
}
