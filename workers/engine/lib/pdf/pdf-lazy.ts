/**
 * A pdf-lib document whose objects are parsed when first looked up, through the file's
 * cross-reference sections (tables and streams, /Prev chains, object streams). Reading the page
 * list, the links and the outline of a 1,000-page file then parses a few thousand small objects
 * instead of every object of the file, and keeps no copy of its content streams and images.
 *
 * For reading only (page assembly on qpdf, qpdf-assembly.ts). Anything unexpected (no usable xref,
 * encryption, a catalog that is not one) gives undefined: the caller opens the file with openPdf,
 * which repairs, decrypts or explains.
 */
import {
  PDFArray,
  PDFCatalog,
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFInvalidObject,
  PDFName,
  PDFNumber,
  PDFObjectParser,
  PDFRawStream,
  PDFRef,
  decodePDFRawStream,
  type PDFObject,
} from 'pdf-lib';
import { inflateSync } from 'fflate';
import { predictorParams } from './filters.ts';
import { unpredict } from './stream-decode.ts';
import { ascii, indexOfBytes, lastStartXref } from './pdf-bytes.ts';

const END_OBJ = ascii('endobj');

/** An object stream decoded: its data, where its objects start, each object's offset from there. */
interface DecodedObjectStream {
  data: Uint8Array;
  first: number;
  offsets: Map<number, number>;
}

/** Where an object is: at an offset in the file (-1: free), or the index-th object of an object stream. */
export type XrefEntry = { offset: number } | { stream: number; index: number };

const latin1 = new TextDecoder('latin1');

/**
 * A stream's data with its filters undone (predictors aside). Plain Flate goes through fflate,
 * several times faster than pdf-lib's decoder on the object streams that hold a file's pages and
 * links; anything else, or data fflate refuses (damaged, no zlib header), through pdf-lib's lenient one.
 */
function decodeStreamData(stream: PDFRawStream): Uint8Array {
  const data = stream.contents;
  const zlibHeader = data.length > 2 && (data[0] & 0x0f) === 8 && ((data[0] << 8) | data[1]) % 31 === 0;
  if (zlibHeader && stream.dict.get(PDFName.of('Filter')) === PDFName.of('FlateDecode') && !(data[1] & 0x20)) {
    try {
      return inflateSync(data.subarray(2));
    } catch {
      // pdf-lib's decoder below recovers what it can
    }
  }
  return decodePDFRawStream(stream).decode();
}

class LazyObjects extends Map<PDFRef, PDFObject> {
  private readonly missing = new Set<PDFRef>();

  constructor(private readonly load: (ref: PDFRef) => void) {
    super();
  }

  override get(ref: PDFRef): PDFObject | undefined {
    const found = super.get(ref);
    if (found !== undefined || this.missing.has(ref)) return found;
    this.missing.add(ref); // also guards against a stream whose /Length refers to itself
    this.load(ref);
    return super.get(ref);
  }

  override has(ref: PDFRef): boolean {
    return this.get(ref) !== undefined;
  }
}

const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;

/**
 * An xref table entry in its usual form (`0000012345 00000 n`, single spaces or more, then only
 * spaces to the end of the line), read from the bytes at `from` (after any line break) without
 * decoding the line: its offset, its kind and where its line ends. Undefined for any other form
 * (the caller reads the line as text).
 */
function plainEntry(bytes: Uint8Array, from: number): [number, string, number] | undefined {
  let at = from;
  while (at < bytes.length && bytes[at] <= 0x20) at++;
  let offset = 0;
  const offsetStart = at;
  for (; at < bytes.length && isDigit(bytes[at]); at++) offset = offset * 10 + bytes[at] - 0x30;
  if (at === offsetStart || at - offsetStart > 15 || bytes[at] !== 0x20) return undefined;
  while (bytes[at] === 0x20) at++;
  const generationStart = at;
  while (at < bytes.length && isDigit(bytes[at])) at++;
  if (at === generationStart || bytes[at] !== 0x20) return undefined;
  while (bytes[at] === 0x20) at++;
  const kind = bytes[at];
  if (kind !== 0x6e && kind !== 0x66) return undefined; // n, f
  at++;
  while (bytes[at] === 0x20) at++;
  if (at < bytes.length && bytes[at] !== 0x0a && bytes[at] !== 0x0d) return undefined;
  return [offset, kind === 0x6e ? 'n' : 'f', at];
}

class LazyReader {
  readonly context = PDFContext.create();
  readonly entries = new Map<number, XrefEntry>();
  private readonly objects: LazyObjects;
  trailer?: PDFDict;

  constructor(private readonly bytes: Uint8Array) {
    this.objects = new LazyObjects((ref) => this.load(ref));
    (this.context as unknown as { indirectObjects: Map<PDFRef, PDFObject> }).indirectObjects = this.objects;
    const start = lastStartXref(bytes);
    if (start === undefined) throw new Error('no startxref');
    const seen = new Set<number>();
    let offset: number | undefined = start;
    while (offset !== undefined && !seen.has(offset) && seen.size < 1000) {
      seen.add(offset);
      const trailer = this.readSection(offset);
      this.trailer ??= trailer;
      const prev = trailer.get(PDFName.of('Prev'));
      offset = prev instanceof PDFNumber ? prev.asNumber() : undefined;
    }
    if (!this.trailer) throw new Error('no trailer');
  }

  /** Reads one xref section (a table, with its /XRefStm if any, or a stream) and returns its trailer. */
  private readSection(offset: number): PDFDict {
    const head = latin1.decode(this.bytes.subarray(offset, offset + 32));
    if (/^\s*xref/.test(head)) {
      const trailer = this.readTable(offset);
      const stream = trailer.get(PDFName.of('XRefStm'));
      if (stream instanceof PDFNumber) this.readStreamSection(stream.asNumber());
      return trailer;
    }
    return this.readStreamSection(offset);
  }

  private add(number: number, entry: XrefEntry): void {
    if (!this.entries.has(number)) this.entries.set(number, entry); // newer sections come first
  }

  private readTable(offset: number): PDFDict {
    const { bytes } = this;
    let pos = offset;
    const line = (): string => {
      while (pos < bytes.byteLength && bytes[pos] <= 0x20) pos++;
      let end = pos;
      while (end < bytes.byteLength && bytes[end] !== 0x0a && bytes[end] !== 0x0d) end++;
      const text = latin1.decode(bytes.subarray(pos, end));
      pos = end;
      return text.trim();
    };
    if (!line().startsWith('xref')) throw new Error('bad xref');
    for (;;) {
      const lineStart = pos;
      const header = line();
      if (header.startsWith('trailer')) {
        pos = lineStart + latin1.decode(bytes.subarray(lineStart, pos)).indexOf('trailer') + 'trailer'.length;
        break;
      }
      const [first, count] = header.split(/\s+/).map(Number);
      if (!Number.isInteger(first) || !Number.isInteger(count) || count < 0) throw new Error('bad xref subsection');
      for (let i = 0; i < count; i++) {
        const plain = plainEntry(bytes, pos);
        let entryOffset: string | number, kind: string;
        if (plain) [entryOffset, kind, pos] = plain;
        else [entryOffset, , kind] = line().split(/\s+/);
        if (kind === 'n') this.add(first + i, { offset: Number(entryOffset) });
        else if (kind === 'f') this.add(first + i, { offset: -1 });
        else throw new Error('bad xref entry');
      }
    }
    const trailer = PDFObjectParser.forBytes(bytes.subarray(pos), this.context).parseObject();
    if (!(trailer instanceof PDFDict)) throw new Error('no trailer dictionary');
    return trailer;
  }

  private readStreamSection(offset: number): PDFDict {
    const stream = this.parseIndirectAt(offset);
    if (!(stream instanceof PDFRawStream)) throw new Error('bad xref stream');
    for (const [number, entry] of xrefStreamEntries(stream)) this.add(number, entry);
    return stream.dict;
  }

  private parseIndirectAt(offset: number): PDFObject {
    const head = latin1.decode(this.bytes.subarray(offset, offset + 48));
    const match = /^\s*\d+\s+\d+\s+obj\b\s*/.exec(head);
    if (!match) throw new Error(`no object at ${offset}`);
    return PDFObjectParser.forBytes(this.bytes.subarray(offset + match[0].length), this.context).parseObject();
  }

  /** Whether an object could not be parsed (see parseObjectAt). */
  damaged = false;

  /**
   * The object at `offset`; one pdf-lib cannot parse is an invalid object of its bytes, as pdf-lib's
   * own lenient load gives it (a damaged dictionary, which qpdf reads with warnings), and the
   * document is marked damaged.
   */
  private parseObjectAt(offset: number): PDFObject {
    try {
      return this.parseIndirectAt(offset);
    } catch (error) {
      const end = indexOfBytes(this.bytes, END_OBJ, offset);
      if (end < 0) throw error;
      this.damaged = true;
      return PDFInvalidObject.of(this.bytes.slice(offset, end));
    }
  }

  private load(ref: PDFRef): void {
    const entry = this.entries.get(ref.objectNumber);
    if (!entry) return;
    if ('offset' in entry) {
      if (entry.offset < 0) return;
      this.objects.set(ref, this.parseObjectAt(entry.offset));
      return;
    }
    this.loadFromObjectStream(ref, entry.stream);
  }

  /** Decoded object streams: their data, where their objects start, and each object's offset. */
  private readonly objectStreams = new Map<number, DecodedObjectStream | null>();

  /** Parses one object out of an object stream (decoded once, on its first use). */
  private loadFromObjectStream(ref: PDFRef, number: number): void {
    let decoded = this.objectStreams.get(number);
    if (decoded === undefined) {
      decoded = null;
      const stream = this.context.lookup(PDFRef.of(number));
      if (stream instanceof PDFRawStream) {
        const data = decodeStreamData(stream);
        const count = stream.dict.lookup(PDFName.of('N'), PDFNumber).asNumber();
        const first = stream.dict.lookup(PDFName.of('First'), PDFNumber).asNumber();
        const header = latin1.decode(data.subarray(0, first)).trim().split(/\s+/).map(Number);
        const offsets = new Map<number, number>();
        for (let i = 0; i < count; i++) offsets.set(header[2 * i], header[2 * i + 1]);
        decoded = { data, first, offsets };
      }
      this.objectStreams.set(number, decoded);
    }
    const offset = decoded?.offsets.get(ref.objectNumber);
    if (!decoded || offset === undefined) return;
    const parser = PDFObjectParser.forBytes(decoded.data.subarray(decoded.first + offset), this.context);
    try {
      this.objects.set(ref, parser.parseObject());
    } catch {
      this.damaged = true; // left out, as pdf-lib's lenient load leaves it
    }
  }

  get size(): number {
    return Math.max(0, ...this.entries.keys()) + 1;
  }
}

/** The entries of a cross-reference stream (`/Type /XRef`), in its order; free entries have offset -1. */
export function xrefStreamEntries(stream: PDFRawStream): Array<[number, XrefEntry]> {
  const { dict } = stream;
  if (dict.get(PDFName.of('Type')) !== PDFName.of('XRef')) throw new Error('bad xref stream');
  const numbers = (array: PDFArray) => array.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : 0));
  const widths = numbers(dict.lookup(PDFName.of('W'), PDFArray));
  const indexArray = dict.lookupMaybe(PDFName.of('Index'), PDFArray);
  const index = indexArray ? numbers(indexArray) : [0, dict.lookup(PDFName.of('Size'), PDFNumber).asNumber()];
  const rowLength = widths.reduce((sum, w) => sum + w, 0);
  const parms = predictorParams(dict.lookup(PDFName.of('DecodeParms')), { columns: rowLength });
  const data = unpredict(decodeStreamData(stream), parms);
  const entries: Array<[number, XrefEntry]> = [];
  let pos = 0;
  const field = (width: number, fallback: number): number => {
    if (width === 0) return fallback;
    let value = 0;
    for (let i = 0; i < width; i++) value = value * 256 + data[pos++];
    return value;
  };
  for (let s = 0; s + 1 < index.length; s += 2) {
    for (let i = 0; i < index[s + 1]; i++) {
      if (pos + rowLength > data.byteLength) throw new Error('short xref stream');
      const type = field(widths[0], 1);
      const second = field(widths[1], 0);
      const third = field(widths[2], 0);
      const number = index[s] + i;
      if (type === 0) entries.push([number, { offset: -1 }]);
      else if (type === 1) entries.push([number, { offset: second }]);
      else if (type === 2) entries.push([number, { stream: second, index: third }]);
    }
  }
  return entries;
}

/** Every object's newest entry in the file's cross-reference sections; undefined when they cannot be read. */
export function xrefEntries(bytes: Uint8Array): ReadonlyMap<number, XrefEntry> | undefined {
  try {
    return new LazyReader(bytes).entries;
  } catch {
    return undefined;
  }
}

const lazyDocuments = new WeakMap<PDFDocument, LazyReader>();

/** Whether `doc` came from openLazily. */
export function isReadLazily(doc: PDFDocument): boolean {
  return lazyDocuments.has(doc);
}

/**
 * Whether an object of a document read lazily could not be parsed so far. pdf-lib leaves such an
 * object out where it expects a dictionary (a damaged page would go missing from the page list),
 * so a caller that finds one opens the file with openPdf, which repairs it.
 */
export function metDamage(doc: PDFDocument): boolean {
  return lazyDocuments.get(doc)?.damaged ?? false;
}

/** The document, read lazily; undefined when it cannot be read this way (see the module comment). */
export function openLazily(bytes: Uint8Array): PDFDocument | undefined {
  try {
    const reader = new LazyReader(bytes);
    const trailer = reader.trailer!;
    if (trailer.get(PDFName.of('Encrypt'))) return undefined;
    const root = trailer.get(PDFName.of('Root'));
    if (!(root instanceof PDFRef) || !(reader.context.lookup(root) instanceof PDFCatalog)) return undefined;
    const info = trailer.get(PDFName.of('Info'));
    reader.context.trailerInfo = { Root: root, Info: info, ID: trailer.get(PDFName.of('ID')), Encrypt: undefined };
    reader.context.largestObjectNumber = reader.size - 1;
    type DocumentConstructor = new (
      context: PDFContext,
      ignoreEncryption: boolean,
      updateMetadata: boolean,
    ) => PDFDocument;
    const Document = PDFDocument as unknown as DocumentConstructor;
    const doc = new Document(reader.context, false, false);
    if (doc.getPageCount() === 0) return undefined;
    lazyDocuments.set(doc, reader);
    return doc;
  } catch {
    return undefined;
  }
}
