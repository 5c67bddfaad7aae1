/**
 * A PDF as bytes, before any parser: searching them without making a string of the whole file, and
 * the file's end. No dependency, so the engine registry can use it for every tool.
 */

/** The bytes of an ASCII text, e.g. a PDF keyword. */
export const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

const latin1 = new TextDecoder('latin1');

/** The first index of `needle` in `bytes` at or after `from`, or -1. */
export function indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from = 0): number {
  for (
    let i = bytes.indexOf(needle[0], from);
    i >= 0 && i + needle.length <= bytes.length;
    i = bytes.indexOf(needle[0], i + 1)
  ) {
    let j = 1;
    while (j < needle.length && bytes[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/** The last index of `needle` in `bytes` that starts before `before`, or -1. */
export function lastIndexOfBytes(bytes: Uint8Array, needle: Uint8Array, before = bytes.length): number {
  const last = Math.min(before, bytes.length - needle.length + 1) - 1;
  for (
    let i = last < 0 ? -1 : bytes.lastIndexOf(needle[0], last);
    i >= 0;
    i = i > 0 ? bytes.lastIndexOf(needle[0], i - 1) : -1
  ) {
    let j = 1;
    while (j < needle.length && bytes[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

export const isWhiteSpace = (byte: number): boolean =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0;
export const isDigit = (byte: number): boolean => byte >= 0x30 && byte <= 0x39;

/**
 * The object number of `<number> <number> <keyword>` whose keyword starts at `at` (and the header at
 * or after `from`), or -1 when the bytes before the keyword are not two numbers.
 */
function numberBefore(bytes: Uint8Array, at: number, from: number): number {
  let i = at - 1;
  for (const part of [isWhiteSpace, isDigit, isWhiteSpace, isDigit]) {
    const start = i;
    while (i >= from && part(bytes[i])) i--;
    if (i === start) return -1;
  }
  let number = 0;
  for (let digit = i + 1; isDigit(bytes[digit]); digit++) number = number * 10 + bytes[digit] - 0x30;
  return number;
}

const endsObjectHeader = (bytes: Uint8Array, at: number, from: number) => numberBefore(bytes, at, from) >= 0;

const PDF_HEADER = ascii('%PDF-');
const STARTXREF = ascii('startxref');
const EOF_MARKER = ascii('%%EOF');
export const OBJ = ascii('obj');

/** Whether the bytes have a PDF header where readers look for it, in the first kilobyte. */
/** Where the `%PDF-` header is, in the first kilobyte where readers look for it; -1 when it is not there. */
export const pdfHeaderAt = (bytes: Uint8Array): number => indexOfBytes(bytes.subarray(0, 1024), PDF_HEADER);

export const looksLikePdf = (bytes: Uint8Array): boolean => pdfHeaderAt(bytes) >= 0;

/**
 * How far from the end qpdf looks for `startxref` (it reads the last 1,054 bytes): beyond it, qpdf
 * rebuilds the cross-reference table from the objects, and cannot when the table is a stream.
 */
const QPDF_TAIL_BYTES = 1024;

/**
 * A PDF without bytes appended after its end (anything else as it is): padding to a block size,
 * an HTML error page, a mail footer. pdf.js and poppler find the last `startxref` anywhere, so such
 * a file opens in readers; qpdf only looks near the end and then fails on a file whose
 * cross-reference table is a stream (most of today's producers) — every qpdf step, decrypting
 * included, refused a file that opens everywhere. Cut only when `startxref` is not near the end,
 * the last `%%EOF` follows a `startxref <offset>`, and what comes after holds no object: objects
 * there are a later revision cut short, which qpdf's rebuild may still read (cutting would silently
 * give the older revision). Returns `bytes` itself, or a view of it.
 */
export function withoutTrailingBytes(bytes: Uint8Array): Uint8Array {
  // Only a PDF (its header where readers look for it): an Office file or image may hold one inside.
  if (bytes.length <= QPDF_TAIL_BYTES || !looksLikePdf(bytes)) return bytes;
  if (indexOfBytes(bytes, STARTXREF, bytes.length - QPDF_TAIL_BYTES) >= 0) return bytes;
  const eof = lastIndexOfBytes(bytes, EOF_MARKER);
  if (eof < 0) return bytes;
  const before = latin1.decode(bytes.subarray(Math.max(0, eof - 48), eof));
  if (!/startxref\s+\d+\s*$/.test(before)) return bytes;
  let end = eof + EOF_MARKER.length;
  if (bytes[end] === 0x0d) end++;
  if (bytes[end] === 0x0a) end++;
  for (let at = indexOfBytes(bytes, OBJ, end); at >= 0; at = indexOfBytes(bytes, OBJ, at + OBJ.length)) {
    if (endsObjectHeader(bytes, at, end)) return bytes;
  }
  return bytes.subarray(0, end);
}

/**
 * Whether a PDF ends early: its last kilobyte holds neither `startxref` nor `%%EOF`, so the end of
 * the file — its cross-reference table and trailer, maybe pages — is missing: a download or copy
 * cut short. (Bytes appended after a complete file are cut first, see withoutTrailingBytes.)
 */
export function endsEarly(bytes: Uint8Array): boolean {
  if (!looksLikePdf(bytes)) return false;
  const tail = Math.max(0, bytes.length - QPDF_TAIL_BYTES);
  return indexOfBytes(bytes, STARTXREF, tail) < 0 && indexOfBytes(bytes, EOF_MARKER, tail) < 0;
}

const END_OBJ = ascii('endobj');

/**
 * A PDF that ends early, up to the end of its last whole object: an object cut in the middle stops
 * a parser that reads the file object by object, while everything before it is still good.
 * `bytes` itself when there is no `endobj`.
 */
export function throughLastWholeObject(bytes: Uint8Array): Uint8Array {
  const at = lastIndexOfBytes(bytes, END_OBJ);
  return at < 0 ? bytes : bytes.subarray(0, at + END_OBJ.length);
}

/** The number after the last `startxref` of the file that has one, or undefined. */
function lastStartXrefNumber(bytes: Uint8Array): number | undefined {
  for (let at = lastIndexOfBytes(bytes, STARTXREF); at >= 0; at = lastIndexOfBytes(bytes, STARTXREF, at)) {
    const match = /^startxref\s+(\d+)/.exec(latin1.decode(bytes.subarray(at, at + 48)));
    if (match) return Number(match[1]);
  }
  return undefined;
}

/**
 * The offset given by the last `startxref <offset>` of the file, or undefined when there is none (or
 * it points past the end). A search of the bytes: no string of the whole file.
 */
export function lastStartXref(bytes: Uint8Array): number | undefined {
  const offset = lastStartXrefNumber(bytes);
  return offset !== undefined && offset < bytes.byteLength ? offset : undefined;
}

const XREF = ascii('xref');

/** The object number of the `<number> <generation> obj` header at `at` (after white space), or -1. */
export function objectNumberAt(bytes: Uint8Array, at: number): number {
  while (at < bytes.length && isWhiteSpace(bytes[at])) at++;
  let number = 0;
  const start = at;
  for (; at < bytes.length && isDigit(bytes[at]); at++) number = number * 10 + bytes[at] - 0x30;
  if (at === start || !isWhiteSpace(bytes[at])) return -1;
  while (at < bytes.length && isWhiteSpace(bytes[at])) at++;
  const generation = at;
  while (at < bytes.length && isDigit(bytes[at])) at++;
  if (at === generation || !isWhiteSpace(bytes[at])) return -1;
  while (at < bytes.length && isWhiteSpace(bytes[at])) at++;
  return OBJ.every((byte, i) => bytes[at + i] === byte) ? number : -1;
}

/** Whether an indirect object's header (`12 0 obj`) or the keyword `xref` starts at `at`, after white space. */
function sectionStartsAt(bytes: Uint8Array, at: number): boolean {
  let keyword = at;
  while (keyword < bytes.length && isWhiteSpace(bytes[keyword])) keyword++;
  return XREF.every((byte, i) => bytes[keyword + i] === byte) || objectNumberAt(bytes, at) >= 0;
}

/**
 * Whether a PDF's last `startxref` points where no cross-reference section starts — counted from
 * the file's first byte or from its `%PDF-` header, as readers count. Such a file was changed after
 * it was written (bytes added or removed before its end, line breaks converted) or written by a
 * producer that counted characters instead of bytes: readers rebuild the table from the objects;
 * qpdf's WebAssembly build cannot. False when there is no `startxref` or no PDF header.
 */
export function pointsIntoNowhere(bytes: Uint8Array): boolean {
  const header = pdfHeaderAt(bytes);
  const offset = header < 0 ? undefined : lastStartXrefNumber(bytes);
  if (offset === undefined) return false;
  return !sectionStartsAt(bytes, offset) && !sectionStartsAt(bytes, header + offset);
}
