/**
 * PDFs with bytes appended after their end (padding to a block size, an HTML page, a mail footer):
 * readers open them, qpdf could not when the cross-reference table is a stream — so unlocking,
 * and every tool on such a file that was also locked, failed as "damaged". The registry now hands
 * engines the file without those bytes (lib/pdf/pdf-bytes.ts withoutTrailingBytes).
 */
import { describe, expect, test } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { loadEngine } from '../../workers/engine/registry.ts';
import { withoutTrailingBytes } from '../../workers/engine/lib/pdf/pdf-bytes.ts';
import { encryptWithQpdf } from '../support/protect-unlock-fixtures.ts';
import { labelledPdf } from '../support/page-fixtures.ts';
import { popplerText, qpdfCheck } from '../support/pdf.ts';

const joined = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.byteLength), 0);
  return out;
};
const text = (value: string) => new TextEncoder().encode(value);
const zeros = new Uint8Array(4096);
const htmlPage = text('<html><body>Download failed: the object was not found.</body></html>\n'.repeat(40));

/** Two pages "Q1", "Q2" written by pdf-lib: its cross-reference table is a stream, as most producers' are. */
const plain = () => labelledPdf('Q', 2);
const words = (bytes: Uint8Array, password?: string) => popplerText(bytes, password).split(/\s+/).filter(Boolean);

describe('withoutTrailingBytes', () => {
  test('cuts zero padding and an HTML page after the last %%EOF, back to the file as written', async () => {
    const pdf = await plain();
    expect(withoutTrailingBytes(joined(pdf, zeros))).toEqual(pdf);
    expect(withoutTrailingBytes(joined(pdf, htmlPage))).toEqual(pdf);
  });

  test('leaves a file alone when qpdf finds its end: nothing after it, or less than 1 KB', async () => {
    const pdf = await plain();
    expect(withoutTrailingBytes(pdf)).toBe(pdf);
    const short = joined(pdf, new Uint8Array(200));
    expect(withoutTrailingBytes(short)).toBe(short);
  });

  test('keeps objects after the last %%EOF (a later revision cut short), so it is repaired, not rolled back', async () => {
    const pdf = await plain();
    const cutRevision = joined(pdf, text('7 0 obj\n<< /Type /Annot >>\nendobj\n'), zeros);
    expect(withoutTrailingBytes(cutRevision)).toBe(cutRevision);
  });

  test('leaves files that are not PDFs alone, even when they hold one', async () => {
    const archive = joined(text('PK\x03\x04'), new Uint8Array(2000), await plain(), zeros);
    expect(withoutTrailingBytes(archive)).toBe(archive);
  });
});

describe('tools on a file with bytes after its end', () => {
  test('a locked file (AES-256) padded with 4 KB of zeros unlocks with its password', async () => {
    const locked = joined(await encryptWithQpdf(await plain(), 'AES-256 (R6)', 'user-pw', 'owner-pw'), zeros);
    const unlock = await loadEngine('unlock-pdf');
    const result = await unlock.run([{ name: 'padded.pdf', bytes: locked }], { password: 'user-pw' }, {});
    expect(words(result.bytes)).toEqual(['Q1', 'Q2']);
    expect((await qpdfCheck(result.bytes)).exitCode).toBe(0);
  });

  test('the same file merges and rotates when opened with its password', async () => {
    const locked = joined(await encryptWithQpdf(await plain(), 'AES-256 (R6)', 'user-pw', 'owner-pw'), htmlPage);
    const input = { name: 'padded.pdf', bytes: locked, password: 'user-pw' };
    const merge = await loadEngine('merge-pdf');
    const merged = await merge.run([input, { name: 'b.pdf', bytes: await labelledPdf('B', 1) }], {}, {});
    expect(words(merged.bytes)).toEqual(['Q1', 'Q2', 'B1']);
    const rotate = await loadEngine('rotate-pdf');
    const rotated = await rotate.run([input], { angle: 90 }, {});
    expect(words(rotated.bytes)).toEqual(['Q1', 'Q2']);
    expect((await PDFDocument.load(rotated.bytes)).getPages().map((page) => page.getRotation().angle)).toEqual([
      90, 90,
    ]);
  });

  test('an unlocked file with bytes after its end is "not password-protected", not damaged', async () => {
    const unlock = await loadEngine('unlock-pdf');
    await expect(
      unlock.run([{ name: 'padded.pdf', bytes: joined(await plain(), zeros) }], { password: 'x' }, {}),
    ).rejects.toThrow('"padded.pdf" is not password-protected');
  });
});
