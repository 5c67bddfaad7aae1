/**
 * Password helpers for PDF encryption, free of any library so that both the engine (worker) and
 * the protect / unlock option panels (page) can import them:
 *
 * - `saslPrep`: the SASLprep profile (RFC 4013) that PDF 2.0 puts in front of AES-256 (R5 / R6)
 *   passwords (ISO 32000-2 §7.6.4.3.3). qpdf passes passwords through as UTF-8 without preparing
 *   them, so Folio prepares them itself. Written compactly in the manner of pdf.js's
 *   src/core/sasl_prep.js (the full RFC 3454 tables would weigh ~0.5 MB): mapping and NFKC are
 *   exact; the bidirectional rule uses the Unicode ranges of the right-to-left scripts.
 * - `randomPassword`: uniform random characters from crypto.getRandomValues (rejection sampling,
 *   so no character is likelier than another).
 * - `passwordStrength`: a rough entropy estimate for the strength hint.
 */

type Range = readonly [number, number];
const inRanges = (code: number, ranges: readonly Range[]) => ranges.some(([from, to]) => code >= from && code <= to);

/** RFC 3454 C.1.2, non-ASCII spaces: mapped to U+0020 (RFC 4013 §2.1). */
const NON_ASCII_SPACES: readonly Range[] = [
  [0x00a0, 0x00a0],
  [0x1680, 0x1680],
  [0x2000, 0x200b],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];
/** RFC 3454 B.1, "commonly mapped to nothing" (soft hyphen, joiners, variation selectors, BOM). */
const MAPPED_TO_NOTHING: readonly Range[] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x1806, 0x1806],
  [0x180b, 0x180d],
  [0x200c, 0x200d],
  [0x2060, 0x2060],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
];
/**
 * RFC 4013 §2.3 prohibited output: controls (C.2.1, C.2.2), private use (C.3), non-characters (C.4),
 * surrogates (C.5), inappropriate for plain text / canonical representation (C.6, C.7), change
 * display properties (C.8) and tagging characters (C.9).
 */
const PROHIBITED: readonly Range[] = [
  [0x0000, 0x001f],
  [0x007f, 0x009f],
  [0x0340, 0x0341],
  [0x06dd, 0x06dd],
  [0x070f, 0x070f],
  [0x180e, 0x180e],
  [0x200e, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2063],
  [0x206a, 0x206f],
  [0x2ff0, 0x2ffb],
  [0xd800, 0xdfff],
  [0xe000, 0xf8ff],
  [0xfdd0, 0xfdef],
  [0xfeff, 0xfeff],
  [0xfff9, 0xffff],
  [0x1d173, 0x1d17a],
  [0xe0001, 0xe0001],
  [0xe0020, 0xe007f],
  [0xf0000, 0x10ffff],
];
/** Right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko…): where RFC 3454 D.1's letters live. */
const RTL_BLOCKS: readonly Range[] = [
  [0x0590, 0x08ff],
  [0xfb1d, 0xfdff],
  [0xfe70, 0xfefc],
  [0x10800, 0x10fff],
  [0x1e800, 0x1efff],
];
/**
 * stringprep is pinned to Unicode 3.2, before Corrigendum #4 changed the decomposition of five CJK
 * compatibility ideographs; today's String.normalize applies the corrected ones. SASLprep keeps the
 * 3.2 forms (the PDF Association's SafeDocs "corrigendum4" files test exactly this).
 */
const UNICODE_3_2_DECOMPOSITIONS: Record<string, string> = {
  '\u{2f868}': '\u{2136a}',
  '\u{2f874}': '\u5f33',
  '\u{2f91f}': '\u43ab',
  '\u{2f95f}': '\u7aae',
  '\u{2f9bf}': '\u4d57',
};
const LETTER = /\p{L}/u;
const UNASSIGNED = /\p{Cn}/u;
const isRtlLetter = (char: string) => LETTER.test(char) && inRanges(char.codePointAt(0)!, RTL_BLOCKS);
/** C.4 also holds the last two code points of every plane (U+1FFFE, U+1FFFF, …). */
const isPlaneNonCharacter = (code: number) => (code & 0xfffe) === 0xfffe;

export class SaslPrepError extends Error {
  constructor(readonly reason: 'prohibited' | 'bidi' | 'unassigned') {
    super(`password not allowed by SASLprep (${reason})`);
    this.name = 'SaslPrepError';
  }
}

/**
 * Prepares a password with SASLprep. `stored` is true when a password is being set (unassigned
 * code points are refused, RFC 4013 §2.5) and false when one is being checked.
 * Throws SaslPrepError for strings the profile prohibits.
 */
export function saslPrep(password: string, { stored }: { stored: boolean }): string {
  let mapped = '';
  for (const char of password) {
    const code = char.codePointAt(0)!;
    if (inRanges(code, NON_ASCII_SPACES)) mapped += ' ';
    else if (!inRanges(code, MAPPED_TO_NOTHING)) mapped += UNICODE_3_2_DECOMPOSITIONS[char] ?? char;
  }
  const prepared = mapped.normalize('NFKC');
  const chars = [...prepared];
  if (chars.some((c) => inRanges(c.codePointAt(0)!, PROHIBITED) || isPlaneNonCharacter(c.codePointAt(0)!))) {
    throw new SaslPrepError('prohibited');
  }
  if (stored && UNASSIGNED.test(prepared)) throw new SaslPrepError('unassigned');
  if (chars.some(isRtlLetter)) {
    // RFC 3454 §6: a string with right-to-left letters holds no left-to-right letters and both
    // begins and ends with a right-to-left letter.
    const ltr = chars.some((c) => LETTER.test(c) && !isRtlLetter(c));
    if (ltr || !isRtlLetter(chars[0]) || !isRtlLetter(chars[chars.length - 1])) throw new SaslPrepError('bidi');
  }
  return prepared;
}

/** PDFDocEncoding (ISO 32000-2 Annex D) where it differs from Latin-1: the bytes R2–R4 passwords are stored in. */
const PDF_DOC_SPECIALS: Record<string, number> = {
  '\u02d8': 0x18,
  '\u02c7': 0x19,
  '\u02c6': 0x1a,
  '\u02d9': 0x1b,
  '\u02dd': 0x1c,
  '\u02db': 0x1d,
  '\u02da': 0x1e,
  '\u02dc': 0x1f,
  '\u2022': 0x80,
  '\u2020': 0x81,
  '\u2021': 0x82,
  '\u2026': 0x83,
  '\u2014': 0x84,
  '\u2013': 0x85,
  '\u0192': 0x86,
  '\u2044': 0x87,
  '\u2039': 0x88,
  '\u203a': 0x89,
  '\u2212': 0x8a,
  '\u2030': 0x8b,
  '\u201e': 0x8c,
  '\u201c': 0x8d,
  '\u201d': 0x8e,
  '\u2018': 0x8f,
  '\u2019': 0x90,
  '\u201a': 0x91,
  '\u2122': 0x92,
  '\ufb01': 0x93,
  '\ufb02': 0x94,
  '\u0141': 0x95,
  '\u0152': 0x96,
  '\u0160': 0x97,
  '\u0178': 0x98,
  '\u017d': 0x99,
  '\u0131': 0x9a,
  '\u0142': 0x9b,
  '\u0153': 0x9c,
  '\u0161': 0x9d,
  '\u017e': 0x9e,
  '\u20ac': 0xa0,
};

/** The password in PDFDocEncoding, or undefined when a character has no place in it. */
export function pdfDocEncode(password: string): Uint8Array | undefined {
  const bytes: number[] = [];
  for (const char of password) {
    const code = char.codePointAt(0)!;
    const special = PDF_DOC_SPECIALS[char];
    if (special !== undefined) bytes.push(special);
    else if (
      (code >= 0x20 && code < 0x7f) ||
      (code >= 0xa1 && code <= 0xff && code !== 0xad) ||
      code === 0x09 ||
      code === 0x0a ||
      code === 0x0d
    )
      bytes.push(code);
    else return undefined;
  }
  return new Uint8Array(bytes);
}

/** The password as Latin-1 bytes (what pdf.js and several writers use for R2–R4), or undefined. */
function latin1Encode(password: string): Uint8Array | undefined {
  const codes = [...password].map((c) => c.codePointAt(0)!);
  return codes.every((c) => c <= 0xff) ? new Uint8Array(codes) : undefined;
}

/**
 * The byte strings worth trying to open a file with, most likely first:
 * 1. UTF-8 of the SASLprep-prepared password: what conforming R5/R6 writers (Acrobat, Folio) store;
 * 2. UTF-8 of the password as typed: what writers that skip SASLprep (qpdf among them) store;
 * 3. PDFDocEncoding and 4. Latin-1: what R2–R4 writers store for non-ASCII passwords.
 * For an ASCII password all four are the same single candidate. Wrong candidates cost one quick
 * qpdf attempt each; they can never open a file whose password is something else.
 */
export function passwordCandidates(password: string): Uint8Array[] {
  const utf8 = new TextEncoder();
  let prepared = password;
  try {
    prepared = saslPrep(password, { stored: false });
  } catch {
    /* not preparable: only the typed form can have been used */
  }
  // Today's NFKC too, for writers that prepare with a current Unicode (see UNICODE_3_2_DECOMPOSITIONS).
  const modern = password.normalize('NFKC');
  const all = [
    utf8.encode(prepared),
    utf8.encode(password),
    utf8.encode(modern),
    pdfDocEncode(password),
    latin1Encode(password),
  ];
  const seen = new Set<string>();
  return all.filter((bytes): bytes is Uint8Array => {
    if (!bytes) return false;
    const key = toHex(bytes);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Lower-case hex of the bytes: how passwords are handed to qpdf (`--password-mode=hex-bytes`). */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/**
 * The longest password an AES-256 (R6) file can hold: 127 bytes of UTF-8 after SASLprep (ISO 32000-2
 * §7.6.4.3.3). Readers and qpdf cut longer ones at 127 bytes, but not all at the same place of a
 * character, so Folio refuses to set one rather than risk a file nobody can open.
 */
export const MAX_PASSWORD_BYTES = 127;
/**
 * The longest password Folio takes as input at all (to open a file, or to set one): far above any
 * real password, far below what would overwhelm qpdf's command line in WebAssembly.
 */
export const MAX_TYPED_PASSWORD_CHARS = 1024;

export const utf8Length = (text: string): number => new TextEncoder().encode(text).byteLength;

/** 'Password is too long…' when a typed password exceeds MAX_TYPED_PASSWORD_CHARS, else undefined. */
export function typedPasswordProblem(password: string): string | undefined {
  if (password.length <= MAX_TYPED_PASSWORD_CHARS) return undefined;
  return `Password is too long: Folio accepts at most ${MAX_TYPED_PASSWORD_CHARS.toLocaleString('en')} characters.`;
}

/** The UTF-8 length of the password as an R6 file stores it (SASLprep'd when it can be). */
export function storedPasswordBytes(password: string): number {
  let prepared = password;
  try {
    prepared = saslPrep(password, { stored: true });
  } catch {
    /* refused by SASLprep: the engine explains that; measure it as typed */
  }
  return utf8Length(prepared);
}

/** The message for a password to set that is too long for AES-256, naming the limit; undefined when it fits. */
export function newPasswordProblem(password: string, which = 'password'): string | undefined {
  const typed = typedPasswordProblem(password);
  if (typed) return typed;
  const bytes = storedPasswordBytes(password);
  if (bytes <= MAX_PASSWORD_BYTES) return undefined;
  return (
    `The ${which} is ${bytes} bytes long; PDF encryption (AES-256) allows at most ${MAX_PASSWORD_BYTES} bytes — ` +
    (`${MAX_PASSWORD_BYTES} Latin letters or digits, 63 Cyrillic or Greek letters, 42 Chinese characters. Please ` +
      `choose a shorter one.`)
  );
}

export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const PASSWORD_SYMBOLS = '!@#$%^&*()';

/** `length` characters drawn uniformly from `alphabet` with crypto.getRandomValues. */
export function randomPassword(length: number, alphabet: string = ALPHANUMERIC + PASSWORD_SYMBOLS): string {
  const chars = [...alphabet];
  if (chars.length < 2 || chars.length > 256) throw new RangeError('alphabet must hold 2 to 256 characters');
  // Bytes at or above the largest multiple of the alphabet size are rejected, so that every
  // character is equally likely (a plain `byte % size` favours the first characters).
  const limit = 256 - (256 % chars.length);
  let out = '';
  const buffer = new Uint8Array(Math.min(65_536, Math.max(16, length * 2)));
  while (out.length < length) {
    crypto.getRandomValues(buffer);
    for (const byte of buffer) {
      if (byte < limit) out += chars[byte % chars.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export type StrengthLevel = 0 | 1 | 2 | 3 | 4;
export interface PasswordStrength {
  level: StrengthLevel;
  label: 'Too short' | 'Too long' | 'Weak' | 'Fair' | 'Strong' | 'Very strong';
  /** Estimated entropy in bits, if the password were random over the character classes it uses. */
  bits: number;
}

const COMMON = /^(password|passwort|motdepasse|qwerty|azerty|letmein|welcome|admin|123456|abc123|iloveyou|secret)/i;

/**
 * A rough strength estimate: length × log2(size of the character classes used), discounted for
 * repeats, runs and common words. Only a hint, besides the two rules: at least 4 characters, and
 * at most MAX_PASSWORD_BYTES bytes ('Too long', level 0).
 */
export function passwordStrength(password: string): PasswordStrength {
  const chars = [...password];
  if (chars.length < 4) return { level: 0, label: 'Too short', bits: 0 };
  if (password.length > MAX_TYPED_PASSWORD_CHARS || storedPasswordBytes(password) > MAX_PASSWORD_BYTES)
    return { level: 0, label: 'Too long', bits: 0 };
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/[0-9]/.test(password)) pool += 10;
  if (/[^A-Za-z0-9]/.test(password)) pool += /[^\x20-\x7e]/.test(password) ? 100 : 33;
  const distinct = new Set(chars).size;
  // Repeated characters add little: count each distinct character fully, repeats at a quarter.
  const effectiveLength = distinct + (chars.length - distinct) / 4;
  let bits = effectiveLength * Math.log2(Math.max(pool, 2));
  if (COMMON.test(password)) bits /= 2;
  if (/^(?:0?1?2?3?4?5?6?7?8?9?0?|a?b?c?d?e?f?g?h?)$/i.test(password)) bits /= 2;
  bits = Math.round(bits);
  const level: StrengthLevel = bits < 28 ? 1 : bits < 45 ? 2 : bits < 70 ? 3 : 4;
  const labels = ['Too short', 'Weak', 'Fair', 'Strong', 'Very strong'] as const;
  return { level, label: labels[level], bits };
}
