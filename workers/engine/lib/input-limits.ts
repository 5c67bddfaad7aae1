/**
 * Resource limits checked before any work (issue #21): a file from the internet may be built so
 * that a few kilobytes expand to gigabytes. Every input is looked at before its tool runs (the
 * engine registry calls guardInputs): the compressed streams of a PDF and the entries of a ZIP
 * package (Office files) are inflated as a stream, counting, and never kept — a stream that
 * expands past the limit is refused as a decompression bomb after reading just past the limit.
 * Only what could exceed a limit is measured (a deflate stream expands at most 1032-fold per
 * layer), so ordinary files cost nothing.
 */
import { FolioError } from './errors.ts';
import { isNode } from './wasm.ts';
import { OBJ, ascii, indexOfBytes, lastIndexOfBytes } from './pdf/pdf-bytes.ts';

/** Deflate's largest expansion ratio (RFC 1951: 258 bytes from 2 bits, plus block overhead). */
const DEFLATE_MAX_RATIO = 1032;
const GiB = 2 ** 30;
const MiB = 2 ** 20;

/**
 * The memory one job may count on: in Node 2 GiB; in a browser it follows the device's memory
 * where the browser tells it (Chromium's navigator.deviceMemory, in GB, capped at 8), else 1 GiB —
 * a renderer process dies at about 4 GB whatever the device has.
 */
export function memoryBudget(): number {
  if (isNode) return 2 * GiB;
  const memory = (globalThis.navigator as { deviceMemory?: number } | undefined)?.deviceMemory;
  if (memory === undefined) return GiB;
  return memory >= 8 ? 2 * GiB : memory >= 4 ? GiB : 512 * MiB;
}

/**
 * The most pixels this device should decode at once. Decoding holds RGBA pixels in the codec's
 * memory and a copy in JavaScript (8 bytes per pixel, more while resizing), so the bound follows
 * the device's memory where the browser tells it (Chromium's navigator.deviceMemory, capped at 8).
 */
export function pixelLimit(): number {
  if (isNode) return 120e6;
  const memory = (globalThis.navigator as { deviceMemory?: number } | undefined)?.deviceMemory;
  if (memory === undefined) return 64e6;
  return memory >= 8 ? 120e6 : memory >= 4 ? 50e6 : 24e6;
}

export interface InputLimits {
  /** Bytes one compressed stream (PDF stream, ZIP entry) may expand to. */
  inflatedStream: number;
  /** Bytes all the compressed streams of one file may expand to together. */
  inflatedTotal: number;
  /** Bytes of one XML part of an Office package (parsed into a DOM: many times its size in memory). */
  xmlPart: number;
  /** Elements of one XML part (a DOM node costs a few hundred bytes). */
  xmlElements: number;
}

/**
 * The limits for a file of `fileSize` bytes. One stream: a quarter of the budget (a 120-megapixel
 * RGB image is 360 MB). All streams together: the budget, or 64 times the file's own size when
 * that is more — a big scanned document legitimately expands to gigabytes, page by page, while
 * a bomb expands a thousandfold.
 */
export function inputLimits(fileSize = 0, budget = memoryBudget()): InputLimits {
  return {
    inflatedStream: budget / 4,
    inflatedTotal: Math.max(budget, fileSize * 64),
    xmlPart: budget / 8,
    xmlElements: Math.floor(budget / 512),
  };
}

/** "1 GB", "512 MB", "1.5 GB": a limit for people (binary units, named as people name them). */
export function formatLimit(bytes: number): string {
  if (bytes >= GiB) return `${Number((bytes / GiB).toFixed(1))} GB`;
  return `${Math.round(bytes / MiB)} MB`;
}

const bomb = (name: string, what: string, limit: number) =>
  new FolioError(
    'TooLarge',
    `"${name}": ${what} expands to more than ${formatLimit(limit)} — it looks like a decompression bomb, so it ` +
      `was not opened.`,
  );

/**
 * Inflates `data` through `layers` (zlib 'deflate' or ZIP 'deflate-raw') as a stream and counts the
 * output, stopping once it passes `stopAt`. Damaged data simply ends the count (readers stop there
 * too). `onChunk` sees each output chunk (e.g. to count XML elements) and may ask to stop.
 */
async function inflatedSize(
  data: Uint8Array,
  layers: CompressionFormat[],
  stopAt: number,
  onChunk?: (chunk: Uint8Array) => boolean,
): Promise<number> {
  let stream = slices(data);
  for (const format of layers) stream = stream.pipeThrough(await inflater(format));
  const reader = stream.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > stopAt || onChunk?.(value) === false) break;
    }
  } catch {
    /* damaged or truncated data: what came out so far is what any reader gets */
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return total;
}

/**
 * `data` as a stream of 16 KiB slices, handed out as they are pulled. Chromium's DecompressionStream
 * fails a whole chunk that has bytes after the end of the compressed data ("Junk found after end
 * of compressed data") and drops what it had decoded: with small slices, junk at the end (as a PDF
 * stream's end-of-line before `endstream`, or one added to slip past this check) costs only the
 * last slice, after everything before it has been counted.
 */
function slices(data: Uint8Array, size = 16 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= data.byteLength) {
        controller.close();
        return;
      }
      controller.enqueue(data.slice(offset, offset + size));
      offset += size;
    },
  });
}

type Inflater = ReadableWritablePair<Uint8Array, Uint8Array>;

/**
 * The platform's DecompressionStream; in Node, zlib with 1 MiB chunks instead (Node's web-stream
 * DecompressionStream hands out 16 KiB chunks through promises: 8.7 s per GiB against zlib's 0.5 s).
 */
async function inflater(format: CompressionFormat): Promise<Inflater> {
  if (!isNode) return new DecompressionStream(format) as unknown as Inflater;
  const zlib = await import(/* @vite-ignore */ 'node:zlib');
  const { Duplex } = await import(/* @vite-ignore */ 'node:stream');
  const options = { chunkSize: 1 << 20 };
  const node = format === 'deflate-raw' ? zlib.createInflateRaw(options) : zlib.createInflate(options);
  return Duplex.toWeb(node) as unknown as Inflater;
}

// ---------------------------------------------------------------------------------------------
// PDF

interface PdfStream {
  objectName: string;
  data: Uint8Array;
  /** Deflate layers applied first (a stream whose first filter is not Flate is not inflated here). */
  layers: number;
}

const latin1 = new TextDecoder('latin1');
const STREAM = ascii('stream');
const END_STREAM = ascii('endstream');

/**
 * The deflated streams of a PDF, found in its bytes (not through a parser, so that every tool —
 * pdf-lib, pdf.js or qpdf based — is covered the same way, damaged files included): each
 * `stream` keyword after a dictionary naming /FlateDecode as its first filter(s), up to the next
 * `endstream`. Encrypted streams are not deflate data and measure as nothing.
 */
function deflatedPdfStreams(bytes: Uint8Array): PdfStream[] {
  const streams: PdfStream[] = [];
  for (let at = indexOfBytes(bytes, STREAM, 0); at >= 0; at = indexOfBytes(bytes, STREAM, at + STREAM.length)) {
    let start = at + STREAM.length;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] !== 0x0a || (at >= 3 && latin1.decode(bytes.subarray(at - 3, at)) === 'end')) continue;
    start++;
    // The stream's dictionary: from its object's 'obj' (within 4 KB before), decoded alone — a file
    // has thousands of streams, and every PDF input is scanned.
    const head = bytes.subarray(Math.max(0, at - 4096), at);
    const objStart = lastIndexOfBytes(head, OBJ);
    const dict = latin1.decode(objStart >= 0 ? head.subarray(objStart) : head);
    const end = indexOfBytes(bytes, END_STREAM, start);
    let stop = end < 0 ? bytes.byteLength : end;
    while (stop > start && (bytes[stop - 1] === 0x0a || bytes[stop - 1] === 0x0d)) stop--;
    const filters = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict)?.[1];
    const names = filters?.match(/\/[A-Za-z0-9]+/g) ?? [];
    let layers = 0;
    while (layers < names.length && (names[layers] === '/FlateDecode' || names[layers] === '/Fl')) layers++;
    if (layers > 0) {
      const before = objStart >= 0 ? latin1.decode(head.subarray(Math.max(0, objStart - 24), objStart)) : '';
      const number = /(\d+)\s+(\d+)\s+$/.exec(before);
      streams.push({
        objectName: number ? `object ${number[1]} ${number[2]}` : `the stream at byte ${start}`,
        data: bytes.subarray(start, stop),
        layers,
      });
    }
    at = Math.max(at, (end < 0 ? bytes.byteLength : end) - STREAM.length);
  }
  return streams;
}

const bound = (compressed: number, layers: number) => compressed * DEFLATE_MAX_RATIO ** layers;

/** Whether any stream, or all together, could expand past the limits (else nothing needs inflating). */
function couldPassLimits(streams: PdfStream[], limits: InputLimits): boolean {
  const total = streams.reduce((sum, s) => sum + bound(s.data.byteLength, s.layers), 0);
  const overOne = streams.some((s) => bound(s.data.byteLength, s.layers) > limits.inflatedStream);
  return overOne || total > limits.inflatedTotal;
}

const ENCRYPT = ascii('/Encrypt');

/**
 * An encrypted PDF's streams are ciphertext, measured above as nothing. When they are large enough
 * to hide a bomb, a copy decrypted with `passwords` (stream data left compressed) is measured too;
 * a file no password opens is left to its tool, which asks for the password and comes back here.
 */
async function assertNoEncryptedPdfBomb(
  name: string,
  bytes: Uint8Array,
  passwords: ReadonlyArray<string | undefined>,
  streams: PdfStream[],
): Promise<void> {
  const limits = inputLimits(bytes.byteLength);
  if (!couldPassLimits(streams, limits) || indexOfBytes(bytes, ENCRYPT, 0) < 0) return;
  const { decryptedForMeasuring } = await import('./pdf/encrypted-streams.ts');
  const decrypted = await decryptedForMeasuring(bytes, passwords);
  if (decrypted) await assertNoPdfBomb(name, decrypted, limits);
}

/**
 * Refuses a PDF whose deflated streams expand past the limits (one stream, or all together).
 * Streams that cannot reach a limit are not inflated; the others are, largest bound first, only as
 * far as needed to decide.
 */
export async function assertNoPdfBomb(
  name: string,
  bytes: Uint8Array,
  limits = inputLimits(bytes.byteLength),
  streams = deflatedPdfStreams(bytes),
): Promise<void> {
  let bounded = streams.reduce((sum, s) => sum + bound(s.data.byteLength, s.layers), 0);
  if (!couldPassLimits(streams, limits)) return;
  const order = [...streams].sort((a, b) => bound(b.data.byteLength, b.layers) - bound(a.data.byteLength, a.layers));
  let measured = 0;
  for (const stream of order) {
    const streamBound = bound(stream.data.byteLength, stream.layers);
    if (streamBound <= limits.inflatedStream && measured + bounded <= limits.inflatedTotal) return;
    const stopAt = Math.min(limits.inflatedStream, limits.inflatedTotal - measured);
    const size = await inflatedSize(stream.data, Array<CompressionFormat>(stream.layers).fill('deflate'), stopAt);
    if (size > limits.inflatedStream) throw bomb(name, `${stream.objectName} of this PDF`, limits.inflatedStream);
    measured += size;
    bounded -= streamBound;
    if (measured > limits.inflatedTotal) throw bomb(name, 'the compressed data of this PDF', limits.inflatedTotal);
  }
}

// ---------------------------------------------------------------------------------------------
// ZIP packages (Office files)

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  declaredSize: number;
  localHeader: number;
}

/** The central directory's entries (no ZIP64: a package that needs it is over every limit anyway). */
function zipEntries(bytes: Uint8Array): ZipEntry[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.byteLength - 22; i >= Math.max(0, bytes.byteLength - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return undefined;
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count && offset + 46 <= bytes.byteLength; i++) {
    if (view.getUint32(offset, true) !== 0x02014b50) break;
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    entries.push({
      name: new TextDecoder().decode(bytes.subarray(offset + 46, offset + 46 + nameLength)),
      method: view.getUint16(offset + 10, true),
      compressedSize: view.getUint32(offset + 20, true),
      declaredSize: view.getUint32(offset + 24, true),
      localHeader: view.getUint32(offset + 42, true),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeader;
  if (at + 30 > bytes.byteLength || view.getUint32(at, true) !== 0x04034b50) return new Uint8Array();
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  return bytes.subarray(start, Math.min(bytes.byteLength, start + entry.compressedSize));
}

const isXmlPart = (name: string) => /\.(xml|rels|vml)$/i.test(name);

/**
 * Refuses a ZIP package (an Office file) whose entries expand past the limits, or whose XML parts
 * are larger or hold more elements than a DOM of them could fit in the budget. Declared sizes are
 * checked first; then deflated entries that could pass a limit are inflated, counting.
 */
export async function assertNoZipBomb(
  name: string,
  bytes: Uint8Array,
  limits = inputLimits(bytes.byteLength),
): Promise<void> {
  const entries = zipEntries(bytes);
  if (!entries) return; // not a readable ZIP: the tool's own reader says so
  let total = 0;
  for (const entry of entries) {
    const xml = isXmlPart(entry.name);
    const partLimit = xml ? limits.xmlPart : limits.inflatedStream;
    if (entry.declaredSize > partLimit) throw tooBigPart(name, entry.name, xml, partLimit);
    const couldExceed =
      entry.method === 8 &&
      (bound(entry.compressedSize, 1) > partLimit || (xml && bound(entry.compressedSize, 1) > limits.xmlElements * 4));
    let size = entry.method === 8 ? Math.min(entry.declaredSize, bound(entry.compressedSize, 1)) : entry.compressedSize;
    if (couldExceed) {
      let elements = 0;
      const countElements = (chunk: Uint8Array) => {
        for (let i = chunk.indexOf(0x3c); i >= 0; i = chunk.indexOf(0x3c, i + 1)) elements++;
        return elements <= limits.xmlElements;
      };
      size = await inflatedSize(entryData(bytes, entry), ['deflate-raw'], partLimit, xml ? countElements : undefined);
      if (size > partLimit) throw tooBigPart(name, entry.name, xml, partLimit);
      if (elements > limits.xmlElements) {
        throw new FolioError(
          'TooLarge',
          `"${name}" is too large to convert on this device: its part ${entry.name} holds more than ` +
            `${limits.xmlElements.toLocaleString('en')} XML elements.`,
        );
      }
    }
    total += size;
    if (total > limits.inflatedTotal) throw bomb(name, 'this package', limits.inflatedTotal);
  }
}

function tooBigPart(name: string, part: string, xml: boolean, limit: number): FolioError {
  if (!xml) return bomb(name, `its part ${part}`, limit);
  return new FolioError(
    'TooLarge',
    `"${name}" is too large to convert on this device: its part ${part} expands to more than ` +
      `${formatLimit(limit)} of XML (it may be a decompression bomb).`,
  );
}

// ---------------------------------------------------------------------------------------------

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/**
 * Checks every input a tool is given, by what it is (PDF or ZIP package); others pass. An encrypted
 * PDF is measured decrypted, with its own password or one of `passwords` (unlock-pdf's field).
 */
export async function guardInputs(
  inputs: ReadonlyArray<{ name: string; bytes: Uint8Array; password?: string }>,
  passwords: readonly string[] = [],
): Promise<void> {
  for (const { name, bytes, password } of inputs) {
    if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) await assertNoZipBomb(name, bytes);
    else if (latin1.decode(bytes.subarray(0, 1024)).includes('%PDF-')) {
      const streams = deflatedPdfStreams(bytes);
      await assertNoPdfBomb(name, bytes, undefined, streams);
      await assertNoEncryptedPdfBomb(name, bytes, [password, ...passwords], streams);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Spreadsheets

/** Excel's own limits: what a spreadsheet can hold, so what a CSV may ask a sheet to hold. */
export const SHEET_MAX_ROWS = 1_048_576;
export const CELL_MAX_CHARACTERS = 32_767;
/** A used range may be sparse, but not this much: beyond a million cells it must be a twentieth full. */
const SPARSE_RANGE_CELLS = 1_000_000;
const SPARSE_RANGE_FILL = 20;

/**
 * Refuses a sheet whose used range (from its farthest cells) is vast and nearly empty — a value
 * placed at XFD1048576 makes a range of 17 billion cells to lay out — before any layout starts.
 */
export function assertPrintableRange(
  file: string,
  sheet: string,
  rows: number,
  columns: number,
  cellsWithValues: number,
  lastCell: string,
): void {
  const area = rows * columns;
  if (area <= SPARSE_RANGE_CELLS || area <= cellsWithValues * SPARSE_RANGE_FILL) return;
  throw new FolioError(
    'TooLarge',
    `"${file}": sheet "${sheet}" spans ${area.toLocaleString('en')} cells up to ${lastCell}, but only ` +
      `${cellsWithValues.toLocaleString('en')} hold a value — too sparse to print. Set a print area, or delete ` +
      `the far-away cells.`,
  );
}

/**
 * Before parsing: a run of more than a cell's characters with no separator or line break in it is
 * a field too long for any cell (found in one pass over the text, before a parser builds it).
 */
export function assertCsvTextFits(file: string, text: string): void {
  let run = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) line++;
    if (code === 10 || code === 13 || code === 44 || code === 59 || code === 9) run = 0;
    else if (++run > CELL_MAX_CHARACTERS) {
      throw new FolioError(
        'TooLarge',
        `"${file}": line ${line.toLocaleString('en')} has a field longer than ` +
          `${CELL_MAX_CHARACTERS.toLocaleString('en')} characters, the most a cell holds (Excel's limit).`,
      );
    }
  }
}

/** Refuses a CSV that no spreadsheet could hold: more rows than Excel's, or a field longer than a cell's. */
export function assertCsvFits(file: string, rows: ReadonlyArray<readonly string[]>): void {
  if (rows.length > SHEET_MAX_ROWS) {
    throw new FolioError(
      'TooLarge',
      `"${file}" has ${rows.length.toLocaleString('en')} rows: a sheet holds at most ` +
        `${SHEET_MAX_ROWS.toLocaleString('en')} (Excel's limit).`,
    );
  }
  for (let r = 0; r < rows.length; r++) {
    for (const field of rows[r]) {
      if (field.length > CELL_MAX_CHARACTERS) {
        throw new FolioError(
          'TooLarge',
          `"${file}": line ${(r + 1).toLocaleString('en')} has a field of ${field.length.toLocaleString('en')} ` +
            `characters; a cell holds at most ${CELL_MAX_CHARACTERS.toLocaleString('en')} (Excel's limit).`,
        );
      }
    }
  }
}
