/**
 * Fixtures for the protect-pdf / unlock-pdf tests, made in code: a text PDF from pdf-lib, encrypted
 * by qpdf (WASM) with every standard security handler revision, and a checker that reads a file's
 * encryption with the native qpdf when it is installed (an independent build), else with the WASM.
 */
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDict, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { runQpdf } from '../../workers/engine/lib/pdf/qpdf.ts';

export const PAGE_TEXTS = [
  'First page: the quick brown fox',
  'Second page: jumps over the lazy dog',
  'Third page: 0123456789',
];

/** A three-page PDF whose pages carry PAGE_TEXTS. */
export async function textPdf(texts: readonly string[] = PAGE_TEXTS): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of texts) doc.addPage([400, 300]).drawText(text, { x: 30, y: 150, size: 14, font });
  return doc.save();
}

/** The standard security handlers, as qpdf `--encrypt` arguments (passwords excluded). */
export const HANDLERS = {
  'RC4 40-bit (R2)': { bits: '40', extra: [], R: 2, method: 'RC4' },
  'RC4 128-bit (R3)': { bits: '128', extra: ['--use-aes=n'], R: 3, method: 'RC4' },
  'AES-128 (R4)': { bits: '128', extra: ['--use-aes=y'], R: 4, method: 'AESv2' },
  'AES-256 (R5, deprecated)': { bits: '256', extra: ['--force-R5'], R: 5, method: 'AESv3' },
  'AES-256 (R6)': { bits: '256', extra: [], R: 6, method: 'AESv3' },
} as const;
export type HandlerName = keyof typeof HANDLERS;

/** Encrypts with qpdf (WASM) exactly as given: no SASLprep, as a writer that skips it would. */
export async function encryptWithQpdf(
  bytes: Uint8Array,
  handler: HandlerName,
  user: string,
  owner: string,
): Promise<Uint8Array> {
  const { bits, extra } = HANDLERS[handler];
  // The positional form (`--encrypt user owner bits`): every qpdf reads it (11.x has no --user-password).
  const args = ['--allow-weak-crypto', '/in.pdf', '--encrypt', user, owner, bits, ...extra];
  if (owner === '' && bits === '256') args.push('--allow-insecure');
  const result = await runQpdf([...args, '--', '/out.pdf'], { inputs: { '/in.pdf': bytes }, outputs: ['/out.pdf'] });
  const out = result.files['/out.pdf'];
  if (!out || result.exitCode === 2) throw new Error(`qpdf could not encrypt: ${result.stderr}`);
  return out;
}

export const nativeQpdf = existsSync('/usr/bin/qpdf') ? '/usr/bin/qpdf' : undefined;

/**
 * `qpdf --show-encryption` output: native qpdf when installed (independent of our WASM), else the
 * WASM build. Throws when the password opens nothing (native qpdf 11 then still prints the
 * parameters after "Incorrect password supplied" and exits 0; qpdf 12 exits 2).
 */
export async function showEncryption(bytes: Uint8Array, password: string): Promise<string> {
  const output = await showEncryptionRaw(bytes, password);
  if (/Incorrect password supplied|invalid password/i.test(output)) throw new Error('qpdf: invalid password');
  return output;
}

async function showEncryptionRaw(bytes: Uint8Array, password: string): Promise<string> {
  if (nativeQpdf) {
    const dir = mkdtempSync(join(tmpdir(), 'folio-secure-'));
    try {
      const file = join(dir, 'in.pdf');
      writeFileSync(file, bytes);
      // The password goes in an argument file (not argv) so it never shows in a process list.
      writeFileSync(join(dir, 'args'), `--password=${password}\n--show-encryption\n${file}\n`);
      return execFileSync(nativeQpdf, [`@${join(dir, 'args')}`], { encoding: 'utf8' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const result = await runQpdf([`--password=${password}`, '--show-encryption', '/in.pdf'], {
    inputs: { '/in.pdf': bytes },
  });
  if (result.exitCode === 2) throw new Error(result.stderr);
  return result.stdout;
}

/** The permission lines of `--show-encryption`, e.g. { 'print high resolution': 'allowed', … }. */
export function permissionLines(showEncryption: string): Record<string, string> {
  const lines: Record<string, string> = {};
  for (const match of showEncryption.matchAll(
    /^(extract for [^:]+|print [^:]+|modify [^:]+): (allowed|not allowed)$/gm,
  )) {
    lines[match[1]] = match[2];
  }
  return lines;
}

/** A PDF whose trailer names the public-key (certificate) security handler, as certificate-encrypted files do. */
export async function certificateEncryptedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  const encrypt = doc.context.obj({
    Filter: PDFName.of('Adobe.PubSec'),
    SubFilter: PDFName.of('adbe.pkcs7.s5'),
    V: 4,
    R: 4,
    Length: 128,
  });
  doc.context.trailerInfo.Encrypt = doc.context.register(encrypt as PDFDict);
  return doc.save({ useObjectStreams: false });
}
