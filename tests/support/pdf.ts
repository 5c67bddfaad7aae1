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
