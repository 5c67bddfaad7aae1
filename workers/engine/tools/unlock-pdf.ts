/**
 * unlock-pdf: removes the password and the permission restrictions of a PDF encrypted with the
 * standard security handler — RC4 40/128-bit (R2, R3), RC4 or AES-128 (R4), AES-256 (R5, R6) —
 * with its user (open) or owner (permissions) password. Files that only carry restrictions unlock
 * with an empty password. The work is qpdf's `--decrypt` (WASM, one fresh instance per job);
 * the content streams are copied as they are, so text, images, forms and bookmarks are kept.
 *
 * The password comes from the `password` field (spec §7); `inputPassword` (the field every other
 * tool uses for an encrypted input) is accepted as well.
 */
import type { Engine } from '../lib/types.ts';
import { throwIfAborted } from '../lib/errors.ts';
import { assertLooksLikePdf } from '../lib/pdf-open.ts';
import { unlockPdf } from '../lib/encryption.ts';
import { describeEncryption, outputName } from '../lib/encryption-names.ts';

export const run: Engine = async (inputs, options, ctx) => {
  const [input] = inputs;
  assertLooksLikePdf(input);
  const typed = typeof options.password === 'string' ? options.password : '';
  const password = typed !== '' ? typed : (input.password ?? '');
  throwIfAborted(ctx.signal);
  ctx.progress?.(0, 1);
  const unlocked = await unlockPdf(input.name, input.bytes, password);
  throwIfAborted(ctx.signal);
  ctx.progress?.(1, 1);

  const notes = [
    unlocked.openedWith === 'none'
      ? `Removed the restrictions (${describeEncryption(unlocked.report)}); this file needed no password to open.`
      : `Removed the ${unlocked.openedWith === 'owner' ? 'owner (permissions)' : 'open'} password and all restrictions (${describeEncryption(unlocked.report)}).`,
  ];
  if (password !== '' && unlocked.openedWith === 'none') notes.push('The password you typed was not needed.');
  if (unlocked.repaired) notes.push('Minor structural damage in the file was repaired on the way.');
  return { bytes: unlocked.bytes, filename: outputName(input.name, 'unlocked'), mime: 'application/pdf', notes };
};
