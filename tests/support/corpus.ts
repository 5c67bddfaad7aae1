/**
 * The shared corpus (../shared/corpus, read-only; never copied into the project). Suites call
 * `describeCorpus` so that a fresh clone without the corpus still passes and says why it skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, test } from 'vitest';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';

export const CORPUS_DIR = resolve(import.meta.dirname, '../../../shared/corpus');
export const corpusPresent = existsSync(resolve(CORPUS_DIR, 'manifest.json'));

export interface CorpusEntry {
  file: string;
  kind: string;
  pages: number | null;
  encryption: null | { R: number | null; method: string; user_password: string | null; owner_password: string | null };
  expect: 'ok' | 'error';
  notes: string;
  bytes: number;
}

export const manifest: CorpusEntry[] = corpusPresent
  ? (JSON.parse(readFileSync(resolve(CORPUS_DIR, 'manifest.json'), 'utf8')) as CorpusEntry[])
  : [];

export const corpusPdfs = manifest.filter((f) => f.file.endsWith('.pdf'));

/**
 * Listed as expect:"error" in the manifest (qpdf, poppler and pdf.js give up on it: it has no
 * cross-reference table or trailer), but read object by object, as mutool does, it is one page with
 * its real text: Folio now reads it that way (openPdf, a file that ends early). Suites accept a clear
 * error or that page, and check the page when they get it.
 */
export const RECOVERED_FROM_OBJECTS: Record<string, { pages: number; text: RegExp }> = {
  'pdf/malformed/pdflib-missing-xref-trailer-dict.pdf': { pages: 1, text: /This is a PDF 2\.0 document/ },
};

export function readCorpus(entry: CorpusEntry): Uint8Array {
  return new Uint8Array(readFileSync(resolve(CORPUS_DIR, entry.file)));
}

/** The password that opens an entry (user password first; '' means none needed). */
export function corpusPassword(entry: CorpusEntry): string | undefined {
  const enc = entry.encryption;
  if (!enc) return undefined;
  return enc.user_password || enc.owner_password || undefined;
}

/** A describe block that runs only when the corpus is present, and says so when it is not. */
export function describeCorpus(name: string, body: () => void): void {
  if (corpusPresent) {
    describe(name, body);
  } else {
    describe(name, () => {
      test.skip(`corpus not found at ${CORPUS_DIR}: skipped`, () => {});
    });
    console.log(`[corpus] ${name}: ../shared/corpus is absent, suite skipped`);
  }
}

/** Opens with pdf.js and returns the page count (throws if pdf.js cannot open it). */
export async function pdfjsPageCount(bytes: Uint8Array): Promise<number> {
  const doc = await openPdfjs(bytes);
  const count = doc.numPages;
  await doc.destroy();
  return count;
}

/** Tallies results and prints the suite's summary line. */
export class Tally {
  passed = 0;
  failed: string[] = [];
  constructor(readonly name: string) {}
  pass() {
    this.passed++;
  }
  fail(what: string) {
    this.failed.push(what);
  }
  print() {
    console.log(
      `[corpus] ${this.name}: ${this.passed} passed, ${this.failed.length} ` +
        `failed${this.failed.length ? `\n  ${this.failed.join('\n  ')}` : ''}`,
    );
  }
}
