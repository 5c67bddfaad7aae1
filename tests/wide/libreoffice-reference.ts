/**
 * Native LibreOffice's PDF of each wide-corpus file, as page count and `pdftotext -layout` text (what
 * the bench's word similarity compares), made once with `soffice --headless --convert-to pdf` and kept
 * in node_modules/.cache/folio-wide/ (outside the repository and the shared corpus), keyed by the
 * file's SHA-256 and LibreOffice's version. Without soffice, only what is already cached is known.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { WIDE_DIR, wideManifest, type WideEntry } from './runner.ts';

export const REFERENCE_CACHE = resolve(import.meta.dirname, '../../node_modules/.cache/folio-wide');

export interface Reference {
  /** LibreOffice's page count, or undefined when it could not convert the file. */
  pages?: number;
  text?: string;
  error?: string;
}

function sofficeVersion(): string | undefined {
  try {
    return /LibreOffice ([\d.]+)/.exec(
      execFileSync('soffice', ['--version'], { encoding: 'utf8', timeout: 60_000 }),
    )?.[1];
  } catch {
    return undefined;
  }
}

let version: string | null | undefined;
/** LibreOffice's version when soffice is installed (asked once). */
export function libreOfficeVersion(): string | undefined {
  if (version === undefined) version = sofficeVersion() ?? null;
  return version ?? undefined;
}

function cachePath(entry: WideEntry, lo: string): string {
  return join(REFERENCE_CACHE, `${entry.sha256 ?? basename(entry.file)}.lo${lo}.json`);
}

/** The cached reference of any LibreOffice version (when soffice is gone, what an earlier run made). */
function anyCached(entry: WideEntry): Reference | undefined {
  if (!existsSync(REFERENCE_CACHE)) return undefined;
  const prefix = `${entry.sha256 ?? basename(entry.file)}.lo`;
  const name = readdirSync(REFERENCE_CACHE).find((f) => f.startsWith(prefix));
  return name ? (JSON.parse(readFileSync(join(REFERENCE_CACHE, name), 'utf8')) as Reference) : undefined;
}

/** The reference for one file: from the cache, else converted now when soffice is installed. */
export function libreOfficeReference(entry: WideEntry): Reference | undefined {
  const lo = libreOfficeVersion();
  if (!lo) return anyCached(entry);
  const path = cachePath(entry, lo);
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as Reference;
  mkdirSync(REFERENCE_CACHE, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'folio-wide-lo-'));
  let reference: Reference;
  try {
    const input = resolve(WIDE_DIR, '..', entry.file);
    const profile = `file://${join(REFERENCE_CACHE, 'lo-profile')}`;
    execFileSync(
      'soffice',
      [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', dir, input],
      { stdio: 'ignore', timeout: 180_000 },
    );
    const pdf = join(dir, basename(input).replace(/\.[^.]+$/, '.pdf'));
    if (!existsSync(pdf)) reference = { error: 'no PDF' };
    else {
      const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1] ?? 0);
      const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8', maxBuffer: 1 << 30 });
      reference = { pages, text };
    }
  } catch (error) {
    reference = { error: String((error as Error).message ?? error).split('\n')[0] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  writeFileSync(path, JSON.stringify(reference));
  return reference;
}

/**
 * Fills the cache for every file (or those whose path contains one of `only`): `npx tsx
 * tests/wide/libreoffice-reference.ts`.
 */
export function fillReferenceCache(only?: string[]): void {
  const entries = wideManifest().filter(
    (e) => /\.(docx|xlsx|pptx)$/.test(e.file) && (!only || only.some((w) => e.file.includes(w))),
  );
  entries.forEach((entry, i) => {
    const start = performance.now();
    const reference = libreOfficeReference(entry);
    const ms = performance.now() - start;
    console.log(
      `${i + 1}/${entries.length} ${entry.file}: ${reference?.pages ?? reference?.error} (${ms.toFixed(0)} ms)`,
    );
  });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  fillReferenceCache(process.argv.length > 2 ? process.argv.slice(2) : undefined);
