/**
 * PDF encryption with qpdf (WASM): reading what protects a file, removing it, adding AES-256.
 * Used by the protect-pdf and unlock-pdf engines.
 *
 * Passwords: they only ever travel as qpdf arguments of one fresh WASM instance (thrown away after
 * the job, see qpdf.ts); they are never logged, never put in notes, file names or error messages.
 * qpdf's own messages do not echo them, and `scrub` removes them from any text we pass on anyway.
 */
import { FolioError, damagedPdf, invalidPassword, isFolioError, passwordRequired } from '../errors.ts';
import { runQpdf, type QpdfResult } from './qpdf.ts';
import { withRebuiltXref } from './xref-rebuild.ts';
import {
  SaslPrepError,
  newPasswordProblem,
  passwordCandidates,
  randomPassword,
  saslPrep,
  toHex,
  typedPasswordProblem,
  ALPHANUMERIC,
} from '../../../../shared/encryption-passwords.ts';

/**
 * Every password reaches qpdf as hex bytes (`--password-mode=hex-bytes`): Folio decides the exact
 * bytes (see passwordCandidates) instead of qpdf's guesses, and no password character is ever
 * parsed as part of a command line.
 */
const HEX_MODE = '--password-mode=hex-bytes';
const EMPTY = new Uint8Array();
const utf8 = (text: string) => new TextEncoder().encode(text);

/** What qpdf's `--json --json-key=encrypt` reports. */
export interface EncryptionReport {
  encrypted: boolean;
  userPasswordMatched: boolean;
  ownerPasswordMatched: boolean;
  /** Revision of the standard security handler: 2, 3 (RC4), 4 (RC4 or AES-128), 5, 6 (AES-256). */
  R: number;
  V: number;
  P: number;
  bits: number;
  /** 'RC4', 'AESv2' (AES-128), 'AESv3' (AES-256) or 'none'. */
  method: string;
  capabilities: Permissions & { printLow: boolean; printHigh: boolean; modifyForms: boolean; accessibility: boolean };
}

/** The permissions protect-pdf can set (PDF 2.0 Table 22; qpdf's --encrypt restriction flags). */
export interface Permissions {
  /** none: no printing; low: degraded (low-resolution) printing only; full: faithful printing. */
  print: 'none' | 'low' | 'full';
  /** Copying text and graphics (bit 5; qpdf --extract). */
  copy: boolean;
  /** Changing the document other than by the flags below (bit 4; qpdf --modify-other). */
  edit: boolean;
  /** Adding and changing comments, and filling in forms (bits 6 and 9; qpdf --annotate, --form). */
  annotate: boolean;
  /** Inserting, rotating, deleting pages, bookmarks, thumbnails (bit 11; qpdf --assemble). */
  assemble: boolean;
  // Accessibility extraction (bit 10) is not among them: PDF 2.0 deprecates restricting it, qpdf 12
  // always sets it for 256-bit encryption (`--accessibility=n` is ignored) and readers ignore it.
}

export const ALL_PERMISSIONS: Permissions = { print: 'full', copy: true, edit: true, annotate: true, assemble: true };

/** Replaces every occurrence of the given secrets in a text we may show or log. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('•••');
  return out;
}

/**
 * True when the file uses the public-key (certificate) security handler, found textually: the
 * encryption dictionary is never inside an object stream (ISO 32000-2 §7.5.7), so its /Filter name
 * is plain text in the file.
 */
function usesCertificate(bytes: Uint8Array): boolean {
  return /\/Filter\s*\/[A-Za-z0-9._#-]*PubSec\b/.test(new TextDecoder('latin1').decode(bytes));
}

function unsupportedEncryption(name: string, bytes: Uint8Array): FolioError {
  if (usesCertificate(bytes)) {
    return new FolioError(
      'UnsupportedEncryption',
      `"${name}" is encrypted with a certificate, not a password — it cannot be unlocked here. Open it in a ` +
        `program that holds the certificate's private key.`,
    );
  }
  return new FolioError(
    'UnsupportedEncryption',
    `"${name}" uses an encryption method Folio cannot open: only password encryption (RC4, AES-128, AES-256) is ` +
      `supported.`,
  );
}

type Classified =
  | { kind: 'ok'; result: QpdfResult }
  | { kind: 'invalid-password' }
  | { kind: 'unsupported' }
  | { kind: 'damaged'; detail: string };

function classify(result: QpdfResult, expectedOutput: string | undefined): Classified {
  const wrote = expectedOutput === undefined ? result.stdout.length > 0 : Boolean(result.files[expectedOutput]);
  // Exit 3 = warnings only (minor damage qpdf worked around): the output is good.
  if ((result.exitCode === 0 || result.exitCode === 3) && wrote) return { kind: 'ok', result };
  if (/invalid password/i.test(result.stderr)) return { kind: 'invalid-password' };
  if (/unsupported encryption|security handler|unknown encryption|encryption filter/i.test(result.stderr))
    return { kind: 'unsupported' };
  return { kind: 'damaged', detail: result.stderr };
}

function parseReport(stdout: string): EncryptionReport {
  const json = JSON.parse(stdout) as {
    encrypt: {
      encrypted: boolean;
      userpasswordmatched: boolean;
      ownerpasswordmatched: boolean;
      parameters: { R: number; V: number; P: number; bits: number; method: string };
      capabilities: Record<string, boolean>;
    };
  };
  const { encrypt } = json;
  const c = encrypt.capabilities;
  return {
    encrypted: encrypt.encrypted,
    userPasswordMatched: encrypt.userpasswordmatched,
    ownerPasswordMatched: encrypt.ownerpasswordmatched,
    R: encrypt.parameters.R,
    V: encrypt.parameters.V,
    P: encrypt.parameters.P,
    bits: encrypt.parameters.bits,
    method: encrypt.parameters.method,
    capabilities: {
      print: c.printhigh ? 'full' : c.printlow ? 'low' : 'none',
      printLow: c.printlow,
      printHigh: c.printhigh,
      copy: c.extract,
      edit: c.modifyother,
      annotate: c.modifyannotations,
      modifyForms: c.modifyforms,
      assemble: c.modifyassembly,
      accessibility: c.accessibility,
    },
  };
}

/**
 * Reads the encryption of a file with a password ('' for none). qpdf only parses the trailer and
 * the encryption dictionary for this, so it is cheap even for large files.
 */
export async function readEncryption(
  bytes: Uint8Array,
  password: Uint8Array = EMPTY,
): Promise<Classified & { report?: EncryptionReport }> {
  const result = await runQpdf([HEX_MODE, `--password=${toHex(password)}`, '--json', '--json-key=encrypt', '/in.pdf'], {
    inputs: { '/in.pdf': bytes },
  });
  const classified = classify(result, undefined);
  if (classified.kind !== 'ok') return classified;
  try {
    return { ...classified, report: parseReport(result.stdout) };
  } catch {
    return { kind: 'damaged', detail: 'unreadable encryption report' };
  }
}

export interface UnlockResult {
  bytes: Uint8Array;
  report: EncryptionReport;
  /** Which password opened it: the user (open) password, the owner (permissions) password, or none at all. */
  openedWith: 'user' | 'owner' | 'none';
  /** qpdf worked around minor damage (exit code 3). */
  repaired: boolean;
}

async function decryptWith(
  name: string,
  bytes: Uint8Array,
  password: Uint8Array,
): Promise<{ bytes: Uint8Array; repaired: boolean }> {
  const result = await runQpdf([HEX_MODE, `--password=${toHex(password)}`, '--decrypt', '/in.pdf', '/out.pdf'], {
    inputs: { '/in.pdf': bytes },
    outputs: ['/out.pdf'],
  });
  const classified = classify(result, '/out.pdf');
  if (classified.kind === 'ok') return { bytes: result.files['/out.pdf'], repaired: result.exitCode === 3 };
  if (classified.kind === 'invalid-password') throw invalidPassword();
  if (classified.kind === 'unsupported') throw unsupportedEncryption(name, bytes);
  throw damagedPdf(name);
}

/** 'Password is required', as a PasswordRequired error so that callers may ask for one. */
export const passwordIsRequired = () => new FolioError('PasswordRequired', 'Password is required');

export const notEncrypted = (name: string) =>
  new FolioError('InvalidInput', `"${name}" is not password-protected — there is nothing to unlock.`);

/**
 * Removes the encryption of a file, with its user or owner password.
 * - An empty password opens files whose user (open) password is empty: files that only carry
 *   permission restrictions open without asking. A file that has an open password but an empty
 *   owner password is NOT opened with an empty password: every reader asks for its password, and so
 *   does Folio ('Password is required').
 * - A typed password is tried SASLprep-prepared and as typed (see passwordCandidates).
 * - When the typed password is wrong but the file needs none, the file is unlocked all the same
 *   (the password was not needed; a note says so).
 */
export async function unlockPdf(name: string, bytes: Uint8Array, password: string): Promise<UnlockResult> {
  try {
    return await unlockAsIs(name, bytes, password);
  } catch (error) {
    // qpdf's WebAssembly build cannot rebuild a cross-reference table that points to the wrong places.
    const rebuilt = isFolioError(error) && error.name === 'DamagedPdf' ? withRebuiltXref(bytes) : undefined;
    if (!rebuilt) throw error;
    return { ...(await unlockAsIs(name, rebuilt, password)), repaired: true };
  }
}

async function unlockAsIs(name: string, bytes: Uint8Array, password: string): Promise<UnlockResult> {
  const tooLong = typedPasswordProblem(password);
  if (tooLong) throw new FolioError('InvalidInput', tooLong);
  const candidates = password === '' ? [EMPTY] : passwordCandidates(password);
  for (const candidate of candidates) {
    const probe = await readEncryption(bytes, candidate);
    if (probe.kind === 'unsupported') throw unsupportedEncryption(name, bytes);
    if (probe.kind === 'damaged') throw damagedPdf(name);
    if (probe.kind === 'invalid-password') continue;
    const report = probe.report!;
    if (!report.encrypted) throw notEncrypted(name);
    if (candidate.length === 0 && !report.userPasswordMatched) throw passwordIsRequired();
    const decrypted = await decryptWith(name, bytes, candidate);
    const openedWith = candidate.length === 0 ? 'none' : report.userPasswordMatched ? 'user' : 'owner';
    return { ...decrypted, report, openedWith };
  }
  if (password === '') throw passwordIsRequired();
  // The typed password is wrong. If the file opens without one, it only carried restrictions.
  const open = await readEncryption(bytes, EMPTY);
  if (open.kind === 'ok' && open.report?.encrypted && open.report.userPasswordMatched) {
    const decrypted = await decryptWith(name, bytes, EMPTY);
    return { ...decrypted, report: open.report, openedWith: 'none' };
  }
  throw invalidPassword();
}

export interface ProtectOptions {
  /** The password needed to open the file (user password). */
  userPassword: string;
  /** The password that lifts the restrictions; a random one is made when empty. */
  ownerPassword?: string;
  permissions: Permissions;
  /** Opens an encrypted input (its user or owner password; '' for none). */
  inputPassword?: string;
}

const yn = (allowed: boolean) => (allowed ? 'y' : 'n');

/** A password prepared for storing in an R6 file, or a clear error when SASLprep refuses it. */
function preparedForStoring(password: string, which: string): string {
  try {
    return saslPrep(password, { stored: true });
  } catch (error) {
    if (!(error instanceof SaslPrepError)) throw error;
    const why =
      error.reason === 'bidi'
        ? 'mixes right-to-left and left-to-right letters, or does not start and end with a right-to-left letter'
        : 'contains control, private-use or unassigned characters';
    throw new FolioError('InvalidInput', `The ${which} ${why}, which PDF passwords cannot hold. Choose another.`);
  }
}

/** qpdf's restriction flags for 256-bit encryption (qpdf 12 `--encrypt … --`). */
export function permissionFlags(p: Permissions): string[] {
  return [
    `--print=${p.print}`,
    `--extract=${yn(p.copy)}`,
    `--modify-other=${yn(p.edit)}`,
    `--annotate=${yn(p.annotate)}`,
    `--form=${yn(p.annotate)}`,
    `--assemble=${yn(p.assemble)}`,
  ];
}

/**
 * Encrypts with AES-256 (PDF 2.0 security handler, R6, AESv3). Without an owner password a random
 * one (about 190 bits) is made, which nobody ever sees: the restrictions then cannot be lifted in
 * readers that honour them.
 */
export async function protectPdf(
  name: string,
  bytes: Uint8Array,
  options: ProtectOptions,
): Promise<{ bytes: Uint8Array; repaired: boolean }> {
  // Refused before anything is written: a longer password would be cut by readers, maybe not where Folio cut it.
  const tooLong =
    newPasswordProblem(options.userPassword) ??
    (options.ownerPassword ? newPasswordProblem(options.ownerPassword, 'permissions password') : undefined) ??
    typedPasswordProblem(options.inputPassword ?? '');
  if (tooLong) throw new FolioError('InvalidInput', tooLong);
  const user = preparedForStoring(options.userPassword, 'password');
  let owner = options.ownerPassword ? preparedForStoring(options.ownerPassword, 'permissions password') : '';
  if (owner === user) {
    if (options.ownerPassword) {
      throw new FolioError(
        'InvalidInput',
        'The permissions password must be different from the password that opens the file.',
      );
    }
  }
  while (!owner || owner === user) owner = randomPassword(32, ALPHANUMERIC);

  // R6 stores passwords as the UTF-8 of their SASLprep form, at most 127 bytes (checked above).
  const encrypt = [
    '--encrypt',
    `--user-password=${toHex(utf8(user))}`,
    `--owner-password=${toHex(utf8(owner))}`,
    '--bits=256',
    ...permissionFlags(options.permissions),
    '--',
  ];
  if (!options.inputPassword) {
    // An encrypted input opens without a password only when its open (user) password is empty. One
    // with an open password but an empty owner password would open in qpdf as owner: it is treated
    // as unlock-pdf treats it, by asking for its password.
    const probe = await readEncryption(bytes);
    if (probe.kind === 'unsupported') throw unsupportedEncryption(name, bytes);
    if (probe.kind === 'invalid-password' || (probe.report?.encrypted && !probe.report.userPasswordMatched))
      throw passwordRequired(name);
  }
  const inputCandidates = options.inputPassword ? passwordCandidates(options.inputPassword) : [EMPTY];
  for (const inputPassword of inputCandidates) {
    const result = await runQpdf([HEX_MODE, `--password=${toHex(inputPassword)}`, '/in.pdf', ...encrypt, '/out.pdf'], {
      inputs: { '/in.pdf': bytes },
      outputs: ['/out.pdf'],
    });
    const classified = classify(result, '/out.pdf');
    if (classified.kind === 'ok') return { bytes: result.files['/out.pdf'], repaired: result.exitCode === 3 };
    if (classified.kind === 'unsupported') throw unsupportedEncryption(name, bytes);
    if (classified.kind === 'damaged') throw damagedPdf(name);
  }
  // The input is encrypted and the password given for it (if any) does not open it.
  if (!options.inputPassword) {
    throw passwordRequired(name);
  }
  throw invalidPassword();
}
