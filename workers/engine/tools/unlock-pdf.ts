/**
 * unlock-pdf: removes the password and the permission restrictions of a PDF encrypted with the
 * standard security handler — RC4 40/128-bit (R2, R3), RC4 or AES-128 (R4), AES-256 (R5, R6) —
 * with its user (open) or owner (permissions) password. Files that only carry restrictions unlock
 * with an empty password. The work is qpdf's `--decrypt` (WASM, one fresh instance per job);
 * the content streams are copied as they are, so text, images, forms and bookmarks are kept.
 *
 * The password comes from the `password` field; `inputPassword` (the field every other
 * tool uses for an encrypted input, filled by the frame's prompt after a failure) is accepted too.
 */
import type { Engine } from '../lib/types.ts';
import { FolioError, isFolioError, throwIfAborted } from '../lib/errors.ts';
import { assertLooksLikePdf } from '../lib/pdf/pdf-open.ts';
import { unlockPdf } from '../lib/pdf/encryption.ts';
import { describeEncryption, outputName } from '../lib/pdf/encryption-names.ts';

export const run: Engine = async (inputs, options, ctx) => {
  const [input] = inputs;
  assertLooksLikePdf(input);
  // The frame's "PDF password" prompt (inputPassword) appears only after a failed attempt, so when
  // it is filled in it is the newer answer and wins over the `password` field.
  const typed = typeof options.password === 'string' ? options.password : '';
  const password = input.password ? input.password : typed;
  throwIfAborted(ctx.signal);
  ctx.progress?.(0, 1);
  const unlocked = await unlockPdf(input.name, input.bytes, password).catch((error: unknown) => {
    throw asFieldError(error);
  });
  throwIfAborted(ctx.signal);
  ctx.progress?.(1, 1);

  const notes = [
    unlocked.openedWith === 'none'
      ? `Removed the restrictions (${describeEncryption(unlocked.report)}); this file needed no password to open.`
      : `Removed the ${unlocked.openedWith === 'owner' ? 'owner (permissions)' : 'open'} password and all ` +
        `restrictions (${describeEncryption(unlocked.report)}).`,
  ];
  if (password !== '' && unlocked.openedWith === 'none') notes.push('The password you typed was not needed.');
  if (unlocked.repaired) notes.push('Minor structural damage in the file was repaired on the way.');
  return { bytes: unlocked.bytes, filename: outputName(input.name, 'unlocked'), mime: 'application/pdf', notes };
};

/**
 * For this tool the password is the tool's own form field ('Password is required' when
 * empty), not the password of an encrypted input that the frame asks for in its "PDF password"
 * prompt on PasswordRequired / InvalidPassword. So the two answers about it travel as InvalidInput
 * (400) with the same messages ('Password is required', 'Invalid Password'), the way the catalogue's
 * validation messages do, and the modal shows them under the tool's own password field instead of
 * opening a second password prompt.
 */
function asFieldError(error: unknown): unknown {
  if (isFolioError(error) && (error.name === 'PasswordRequired' || error.name === 'InvalidPassword')) {
    return new FolioError(
      'InvalidInput',
      error.name === 'PasswordRequired' ? 'Password is required' : 'Invalid Password',
    );
  }
  return error;
}
