/**
 * Reading a PDF back in a test: each page's text through pdf.js, `qpdf --check` (the WASM build the
 * app ships), and poppler's pdftotext as an independent reader.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPdfjs, pageText } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { runQpdf } from '../../workers/engine/lib/pdf/qpdf.ts';
import { pdftotext } from './images.ts';

/** Each page's text as pdf.js extracts it, opened with `password` when given; `collapse` folds runs of white space. */
export async function pageTexts(
  bytes: Uint8Array,
  { password, collapse = false }: { password?: string; collapse?: boolean } = {},
): Promise<string[]> {
  const doc = await openPdfjs(bytes, { password });
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const text = await pageText(doc, n);
      pages.push(collapse ? text.replace(/\s+/g, ' ').trim() : text);
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

export interface QpdfCheck {
  /** 0: no problem found; 3: warnings only; 2: errors. */
  exitCode: number;
  /** Exit 0 or 3: qpdf reads the whole file (warnings allowed, as for repaired corpus files). */
  ok: boolean;
  output: string;
}

/** `qpdf --check` of the bytes. */
export async function qpdfCheck(bytes: Uint8Array): Promise<QpdfCheck> {
  const result = await runQpdf(['--check', '/in.pdf'], { inputs: { '/in.pdf': bytes } });
  return {
    exitCode: result.exitCode,
    ok: result.exitCode === 0 || result.exitCode === 3,
    output: `${result.stdout}\n${result.stderr}`,
  };
}

/** Poppler's pdftotext of the bytes (with a user password); throws when poppler cannot open them. */
export function popplerText(bytes: Uint8Array, password?: string): string {
  return popplerTextWith(bytes, [], password);
}

/** A word as `pdftotext -bbox` reads it: points from the page's top left (negative x: off the page). */
export interface PopplerWord {
  text: string;
  /** 1 for the first page printed (with `-f n`: the document's page n). */
  page: number;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** The words of the bytes with their boxes, from `pdftotext -bbox` with further `options` (`-f 2 -l 2`). */
export function popplerWords(bytes: Uint8Array, options: string[] = [], password?: string): PopplerWord[] {
  return popplerWordPages(bytes, options, password).flat();
}

/** popplerWords by page: element 0 holds the first printed page's words (an empty page: an empty list). */
export function popplerWordPages(bytes: Uint8Array, options: string[] = [], password?: string): PopplerWord[][] {
  const html = popplerTextWith(bytes, ['-bbox', ...options], password);
  const pages: PopplerWord[][] = [];
  const number = '(-?[\\d.]+)';
  const word = new RegExp(
    `<page |<word xMin="${number}" yMin="${number}" xMax="${number}" yMax="${number}">([^<]*)<`,
    'g',
  );
  for (const m of html.matchAll(word)) {
    if (m[0] === '<page ') pages.push([]);
    else pages.at(-1)?.push({ text: m[5], page: pages.length, xMin: +m[1], yMin: +m[2], xMax: +m[3], yMax: +m[4] });
  }
  return pages;
}

/** Poppler's pdftotext of the bytes with its `options` (`-layout`, `-bbox`, `-bbox-layout` …). */
export function popplerTextWith(bytes: Uint8Array, options: string[], password?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-poppler-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    return pdftotext(join(dir, 'in.pdf'), { user: password }, options);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
