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

/**
 * One name for a result made of several inputs: what their names share, without the numbering
 * ("holiday-photos-1.jpg", "holiday-photos-2.jpg" → "holiday-photos"); the first input's name when
 * they share nothing useful.
 */
export function commonName(filenames: readonly string[], fallback = 'document'): string {
  const bases = filenames.map((name) => baseName(name, fallback));
  if (bases.length <= 1) return bases[0] ?? fallback;
  let prefix = bases[0];
  for (const base of bases.slice(1)) {
    let i = 0;
    while (i < prefix.length && i < base.length && prefix[i] === base[i]) i += 1;
    prefix = prefix.slice(0, i);
  }
  const shared = prefix.replace(/[\s_\-.(]*\d*$/, '').replace(/[\s_\-.(]+$/, '');
  return shared.length >= 2 ? shared : bases[0];
}
