/**
 * The streams of an encrypted PDF are ciphertext: the input check (lib/input-limits.ts) cannot
 * measure how far they inflate as they are, and a reader that decrypts by itself (pdf.js in
 * PDF → JPG) or qpdf rewriting the file (unlock) would inflate a bomb hidden in them. So a copy
 * decrypted by qpdf with the stream data left as it is (`--stream-data=preserve`: nothing is
 * inflated, each stream is only deciphered) is measured instead, with the passwords known.
 */
import { runQpdf } from './qpdf.ts';
import { passwordCandidates, toHex, typedPasswordProblem } from '../../../../shared/encryption-passwords.ts';

/**
 * The bytes of `bytes` decrypted with the stream data still compressed, or undefined when none of
 * the passwords (an empty one is tried first) opens it, or qpdf cannot read it: the tool itself
 * then asks for the password or reports the damage, and is checked again with the password.
 */
export async function decryptedForMeasuring(
  bytes: Uint8Array,
  passwords: ReadonlyArray<string | undefined>,
): Promise<Uint8Array | undefined> {
  const typed = passwords.filter((p): p is string => !!p && !typedPasswordProblem(p));
  const candidates = [...new Set(['', ...typed.flatMap((p) => passwordCandidates(p).map(toHex))])];
  for (const hex of candidates) {
    const result = await runQpdf(
      ['--password-mode=hex-bytes', `--password=${hex}`, '--decrypt', '--stream-data=preserve', '/in.pdf', '/out.pdf'],
      { inputs: { '/in.pdf': bytes }, outputs: ['/out.pdf'] },
    );
    const out = result.files['/out.pdf'];
    if (out && result.exitCode !== 2) return out;
    if (!/invalid password/i.test(result.stderr)) return undefined;
  }
  return undefined;
}
