/**
 * A cross-reference table rebuilt from the objects of a file whose table points to the wrong places
 * (`xrefNeedsRebuilding`, or qpdf refusing the file). Native qpdf, pdf.js and mutool rebuild
 * such a table themselves; qpdf's WebAssembly build, which decrypts, assembles pages and checks for
 * Folio, never does (docs/decisions.md) — so a locked file whose table was off by a few bytes could
 * not be opened in any tool. The rebuilt table is appended as a cross-reference stream (it can name
 * objects inside object streams), without `/Prev`, so readers use it alone; nothing before it is
 * changed, and it needs no decryption: cross-reference streams are never encrypted.
 */
import { PDFDict, PDFName, PDFObjectParser, PDFContext, PDFRawStream, PDFRef, type PDFObject } from 'pdf-lib';
import {
  OBJ,
  ascii,
  endsEarly,
  indexOfBytes,
  isDigit,
  isWhiteSpace,
  looksLikePdf,
  objectNumberAt,
  pdfHeaderAt,
  pointsIntoNowhere,
} from './pdf-bytes.ts';
import { xrefEntries, xrefStreamEntries, type XrefEntry } from './pdf-lazy.ts';

const STREAM = ascii('stream');
const END_STREAM = ascii('endstream');
const END_OBJ = ascii('endobj');
const TRAILER = ascii('trailer');
const latin1 = new TextDecoder('latin1');

/**
 * Whether a PDF's cross-reference table must be rebuilt before qpdf's WebAssembly build can read
 * it (pdf.js and poppler rebuild it themselves): its last `startxref` points into nowhere, its
 * sections cannot be read, or an entry sends a reader to where its object is not (its own number's
 * header not there) — objects shifted by bytes added or removed in the middle, or a producer that
 * counted characters for bytes. False for a file that ends early (pdf-open.ts reads those object by
 * object) and for anything that is not a PDF.
 */
export function xrefNeedsRebuilding(bytes: Uint8Array): boolean {
  if (!looksLikePdf(bytes) || endsEarly(bytes)) return false;
  if (pointsIntoNowhere(bytes)) return true;
  // Offsets count from the header, as readers count them (bytes before it are someone else's).
  const pdf = bytes.subarray(pdfHeaderAt(bytes));
  const entries = xrefEntries(pdf);
  if (!entries) return true;
  for (const [number, entry] of entries) {
    if ('offset' in entry && entry.offset >= 0 && objectNumberAt(pdf, entry.offset) !== number) return true;
  }
  return false;
}

/** `<number> <generation> obj` ending at the keyword at `at`: where it starts and its numbers. */
function objectHeaderBefore(
  bytes: Uint8Array,
  at: number,
): { start: number; number: number; generation: number } | undefined {
  const after = bytes[at + OBJ.length];
  if (after !== undefined && !isWhiteSpace(after) && !'<[/('.includes(String.fromCharCode(after))) return undefined;
  let i = at - 1;
  const bounds: number[] = [];
  for (const part of [isWhiteSpace, isDigit, isWhiteSpace, isDigit]) {
    const end = i;
    while (i >= 0 && part(bytes[i])) i--;
    if (i === end) return undefined;
    bounds.push(i + 1, end + 1);
  }
  // At the start of a line, as pdf.js looks for them: "(see 12 0 obj)" in a string is no header.
  if (i >= 0 && bytes[i] !== 0x0a && bytes[i] !== 0x0d) return undefined;
  const numberAt = (from: number, to: number) => Number(latin1.decode(bytes.subarray(from, to)));
  const number = numberAt(bounds[6], bounds[7]);
  const generation = numberAt(bounds[2], bounds[3]);
  if (!Number.isSafeInteger(number) || number <= 0 || generation > 65535) return undefined;
  return { start: bounds[6], number, generation };
}

interface Found {
  /** Where each object is: its newest header's offset (or object stream), and where that claim was found. */
  entries: Map<number, { entry: XrefEntry; generation: number; foundAt: number }>;
  /** What cross-reference streams say is inside object streams, and where each said so. */
  inStreams: Array<{ number: number; entry: XrefEntry; foundAt: number }>;
  /** The trailers and cross-reference streams' dictionaries, in file order. */
  trailers: PDFDict[];
}

/** The position of `needle` at or after `from`, remembered, so that a scan forward stays linear. */
function nextFinder(bytes: Uint8Array, needle: Uint8Array) {
  let found = -2;
  return (from: number) => {
    if (found !== -1 && found < from) found = indexOfBytes(bytes, needle, from);
    return found;
  };
}

/**
 * Where each object is: its newest header, unless a later cross-reference stream puts it in an
 * object stream that is in the file (a claim about a missing one is not believed).
 */
function located(found: Found): Found['entries'] {
  const { entries } = found;
  const headers = new Map(entries);
  for (const claim of found.inStreams) {
    const header = headers.get(claim.number);
    const stream = 'stream' in claim.entry ? headers.get(claim.entry.stream) : undefined;
    if (stream && 'offset' in stream.entry && (!header || header.foundAt < claim.foundAt)) {
      entries.set(claim.number, { entry: claim.entry, generation: 0, foundAt: claim.foundAt });
    }
  }
  return entries;
}

/**
 * Whether the `stream` keyword at `at` opens a stream: right after a dictionary's `>>`. Not the end
 * of `endstream`, nor a word in a string ("(Upstream report)" in a title).
 */
function opensStream(bytes: Uint8Array, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && isWhiteSpace(bytes[i])) i--;
  return bytes[i] === 0x3e && bytes[i - 1] === 0x3e;
}

/** Every object header and trailer of the file, skipping stream data (which may hold anything). */
function scan(bytes: Uint8Array, context: PDFContext): Found {
  const found: Found = { entries: new Map(), inStreams: [], trailers: [] };
  const nextObj = nextFinder(bytes, OBJ);
  const nextTrailer = nextFinder(bytes, TRAILER);
  const nextStream = nextFinder(bytes, STREAM);
  const nextEndObj = nextFinder(bytes, END_OBJ);
  let at = 0;
  for (;;) {
    const obj = nextObj(at);
    const trailer = nextTrailer(at);
    if (obj < 0 && trailer < 0) return found;
    if (trailer >= 0 && (obj < 0 || trailer < obj)) {
      const dict = parseQuietly(bytes.subarray(trailer + TRAILER.length), context);
      if (dict instanceof PDFDict) found.trailers.push(dict);
      at = trailer + TRAILER.length;
      continue;
    }
    at = obj + OBJ.length;
    const header = objectHeaderBefore(bytes, obj);
    if (!header) continue;
    found.entries.set(header.number, {
      entry: { offset: header.start },
      generation: header.generation,
      foundAt: header.start,
    });
    const endObj = nextEndObj(at);
    const beforeEnd = (position: number) => position >= 0 && (endObj < 0 || position < endObj);
    let stream = nextStream(at);
    while (beforeEnd(stream) && !opensStream(bytes, stream)) stream = nextStream(stream + 1);
    if (!beforeEnd(stream)) continue;
    readXrefStream(bytes, at, stream, context, found);
    const end = indexOfBytes(bytes, END_STREAM, stream + STREAM.length);
    if (end < 0) return found;
    at = end + END_STREAM.length;
  }
}

function parseQuietly(bytes: Uint8Array, context: PDFContext): PDFObject | undefined {
  try {
    return PDFObjectParser.forBytes(bytes, context).parseObject();
  } catch {
    return undefined;
  }
}

/** A cross-reference stream starting at `body`: its object-stream entries, and its dictionary as a trailer. */
function readXrefStream(bytes: Uint8Array, body: number, stream: number, context: PDFContext, found: Found): void {
  if (!latin1.decode(bytes.subarray(body, stream)).includes('/XRef')) return;
  const object = parseQuietly(bytes.subarray(body), context);
  if (!(object instanceof PDFRawStream)) return;
  found.trailers.push(object.dict);
  let entries: Array<[number, XrefEntry]>;
  try {
    entries = xrefStreamEntries(object);
  } catch {
    return;
  }
  for (const [number, entry] of entries) {
    if ('stream' in entry) found.inStreams.push({ number, entry, foundAt: body });
  }
}

/** The trailer's entries that say what the file is (the newest of each), in PDF syntax. */
function trailerEntries(trailers: readonly PDFDict[]): string | undefined {
  const kept = new Map<string, PDFObject>();
  for (const dict of trailers) {
    for (const key of ['Root', 'Info', 'Encrypt', 'ID']) {
      const value = dict.get(PDFName.of(key));
      if (value !== undefined) kept.set(key, value);
    }
  }
  if (!(kept.get('Root') instanceof PDFRef)) return undefined;
  return [...kept].map(([key, value]) => `/${key} ${value.toString()}`).join(' ');
}

const bytesFor = (value: number) => Math.max(1, Math.ceil(Math.log2(value + 1) / 8));

/**
 * The PDF with a cross-reference stream rebuilt from its objects appended, counted from its `%PDF-`
 * header (bytes before it are dropped, as readers skip them); undefined when no catalog is named.
 */
export function withRebuiltXref(pdf: Uint8Array): Uint8Array | undefined {
  const header = pdfHeaderAt(pdf);
  if (header < 0) return undefined;
  const bytes = pdf.subarray(header);
  const context = PDFContext.create();
  const found = scan(bytes, context);
  const { trailers } = found;
  const entries = located(found);
  const trailer = trailerEntries(trailers);
  const root = trailers.map((dict) => dict.get(PDFName.of('Root'))).findLast((value) => value instanceof PDFRef);
  if (!trailer || !(root instanceof PDFRef) || !entries.has(root.objectNumber)) return undefined;

  // (Loops, not Math.max(...): a file may have more objects than a call has room for arguments.)
  let own = 1;
  let largestStream = 0;
  for (const [number, { entry }] of entries) {
    own = Math.max(own, number + 1);
    if ('stream' in entry) largestStream = Math.max(largestStream, entry.stream);
  }
  const at = bytes.length + 1; // after the line break below
  entries.set(own, { entry: { offset: at }, generation: 0, foundAt: at });
  const size = own + 1;
  const widths = [1, bytesFor(Math.max(at, largestStream)), 2];
  const row = widths[0] + widths[1] + widths[2];
  const data = new Uint8Array(size * row);
  const put = (offset: number, width: number, value: number) => {
    for (let i = width - 1; i >= 0; i--, value = Math.floor(value / 256)) data[offset + i] = value % 256;
  };
  for (let number = 0; number < size; number++) {
    const known = entries.get(number);
    const start = number * row;
    if (!known) put(start, widths[0], 0);
    else if ('stream' in known.entry) {
      put(start, widths[0], 2);
      put(start + 1, widths[1], known.entry.stream);
      put(start + 1 + widths[1], widths[2], known.entry.index);
    } else {
      put(start, widths[0], 1);
      put(start + 1, widths[1], known.entry.offset);
      put(start + 1 + widths[1], widths[2], known.generation);
    }
  }
  const dict = `/Type /XRef /Size ${size} /W [${widths.join(' ')}] ${trailer} /Length ${data.length}`;
  const head = ascii(`\n${own} 0 obj\n<< ${dict} >>\nstream\n`);
  const tail = ascii(`\nendstream\nendobj\nstartxref\n${at}\n%%EOF\n`);
  const out = new Uint8Array(bytes.length + head.length + data.length + tail.length);
  out.set(bytes, 0);
  out.set(head, bytes.length);
  out.set(data, bytes.length + head.length);
  out.set(tail, bytes.length + head.length + data.length);
  return out;
}
