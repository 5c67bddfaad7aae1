/**
 * Reading and amending a PDF without parsing all of it: the trailer and a few objects found through
 * the cross-reference table, and an incremental update (new versions of some objects appended after
 * %%EOF, with their own xref section and a trailer whose /Prev points at the previous one). The page
 * assembly on qpdf (qpdf-assembly.ts) uses it to add what qpdf's --pages leaves out (bookmarks,
 * link targets) without loading the assembled document into pdf-lib.
 */
import { PDFContext, PDFDict, PDFObjectParser, PDFRef, type PDFObject } from 'pdf-lib';
import { probeMemory } from '../memory-probe.ts';
import { lastStartXref } from './pdf-bytes.ts';

export interface UpdatedObject {
  ref: PDFRef;
  /** The object in PDF syntax, e.g. `<< /Type /Catalog … >>` (written byte per character). */
  body: string;
  /**
   * A stream's data: `body` is then its dictionary, and the data is written after it as it is
   * (`stream` … `endstream`), not turned into text and back.
   */
  data?: Uint8Array;
}

const latin1 = new TextDecoder('latin1');

function bytesOf(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

/** Text (byte per character) and bytes, one after the other. */
function joinedBytes(parts: ReadonlyArray<string | Uint8Array>): Uint8Array {
  const chunks: Uint8Array[] = [];
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    chunks.push(bytesOf(text), part);
    text = '';
  }
  chunks.push(bytesOf(text));
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * Appends new versions of `objects` to `base` as an incremental update. `trailer` lists the entries
 * of the new trailer besides /Size and /Prev (at least /Root), in PDF syntax.
 * `baseOwned`: nothing else uses `base`'s buffer past its end (e.g. qpdf's written file, whose
 * buffer has room to spare): the update is then written there when it fits, instead of copying the
 * whole document into a new array (for a 1 GB result, a second gigabyte while both are alive).
 */
export function appendUpdate(
  base: Uint8Array,
  objects: readonly UpdatedObject[],
  size: number,
  trailer: string,
  { baseOwned = false }: { baseOwned?: boolean } = {},
): Uint8Array {
  const tail = updateAfter(base, objects, size, trailer);
  const end = base.byteOffset + base.byteLength;
  if (baseOwned && end + tail.byteLength <= base.buffer.byteLength) {
    const grown = new Uint8Array(base.buffer, base.byteOffset, base.byteLength + tail.byteLength);
    grown.set(tail, base.byteLength);
    probeMemory('update appended in place', { baseBytes: base.byteLength, baseBuffer: base.buffer.byteLength });
    return grown;
  }
  const out = new Uint8Array(base.byteLength + tail.byteLength);
  out.set(base, 0);
  out.set(tail, base.byteLength);
  probeMemory('update appended', {
    baseBytes: base.byteLength,
    baseBuffer: base.buffer.byteLength,
    outBytes: out.byteLength,
  });
  return out;
}

/**
 * A PDF written with a classic cross-reference table (as qpdf writes without object streams), read
 * only as far as asked: the trailer and single objects by number.
 */
export class XrefTableReader {
  readonly context: PDFContext = PDFContext.create();
  private readonly offsets = new Map<number, number>();
  private largest = 0;
  readonly trailer: PDFDict;

  constructor(private readonly bytes: Uint8Array) {
    const start = lastStartXref(bytes);
    if (start === undefined) throw new Error('No startxref');
    // One xref section (qpdf writes one); reading stops at the trailer.
    let pos = start;
    const line = () => {
      let end = pos;
      while (end < bytes.byteLength && bytes[end] !== 0x0a && bytes[end] !== 0x0d) end++;
      const text = latin1.decode(bytes.subarray(pos, end));
      while (end < bytes.byteLength && (bytes[end] === 0x0a || bytes[end] === 0x0d)) end++;
      pos = end;
      return text.trim();
    };
    if (line() !== 'xref') throw new Error('Not a classic xref table');
    for (;;) {
      const header = line();
      if (header.startsWith('trailer')) {
        pos -= header.length - 'trailer'.length; // the dictionary may start on the same line
        break;
      }
      const [first, count] = header.split(/\s+/).map(Number);
      if (!Number.isInteger(first) || !Number.isInteger(count)) throw new Error('Bad xref subsection');
      for (let i = 0; i < count; i++) {
        // Entries are 20 bytes: "oooooooooo ggggg n\r\n", whatever the line end; the digits are read in place.
        if (bytes[pos + 17] === 0x6e) {
          let offset = 0;
          for (let d = 0; d < 10; d++) offset = offset * 10 + bytes[pos + d] - 0x30;
          this.offsets.set(first + i, offset);
          this.largest = Math.max(this.largest, first + i);
        }
        pos += 20;
      }
    }
    const trailer = this.parseAt(pos);
    if (!(trailer instanceof PDFDict)) throw new Error('No trailer dictionary');
    this.trailer = trailer;
  }

  private parseAt(offset: number): PDFObject {
    return PDFObjectParser.forBytes(this.bytes.subarray(offset), this.context).parseObject();
  }

  /** The object with this number (its latest version in this section), parsed on its own. */
  object(ref: PDFRef): PDFObject | undefined {
    const offset = this.offsets.get(ref.objectNumber);
    if (offset === undefined) return undefined;
    const head = latin1.decode(this.bytes.subarray(offset, offset + 40));
    const match = /^\s*\d+\s+\d+\s+obj\s*/.exec(head);
    if (!match) return undefined;
    return this.parseAt(offset + match[0].length);
  }

  /** The object whose text holds byte `position`: the one starting last at or before it. */
  objectContaining(position: number): PDFRef | undefined {
    let found: number | undefined;
    let start = -1;
    for (const [number, offset] of this.offsets) {
      if (offset <= position && offset > start) [found, start] = [number, offset];
    }
    return found === undefined ? undefined : PDFRef.of(found);
  }

  get size(): number {
    return this.largest + 1;
  }
}

/**
 * The incremental update appendUpdate appends: `base` followed by these bytes is the updated
 * document. For a reader that takes a file in pieces (qpdf.ts's QpdfInput), `[base, update]` is
 * that document without copying `base`.
 */
export function updateAfter(
  base: Uint8Array,
  objects: readonly UpdatedObject[],
  size: number,
  trailer: string,
): Uint8Array {
  const prev = lastStartXref(base);
  if (prev === undefined) throw new Error('No cross-reference table to update');
  const parts: Array<string | Uint8Array> = ['\n'];
  let offset = base.byteLength + 1;
  const offsets = new Map<number, { offset: number; gen: number }>();
  for (const { ref, body, data } of objects) {
    offsets.set(ref.objectNumber, { offset, gen: ref.generationNumber });
    const head = `${ref.objectNumber} ${ref.generationNumber} obj\n${body}\n`;
    if (data) {
      const streamHead = `${head}stream\n`;
      parts.push(streamHead, data, '\nendstream\nendobj\n');
      offset += streamHead.length + data.byteLength + '\nendstream\nendobj\n'.length;
    } else {
      parts.push(`${head}endobj\n`);
      offset += head.length + 'endobj\n'.length;
    }
  }
  const xrefOffset = offset;
  const numbers = [...offsets.keys()].sort((a, b) => a - b);
  const xref: string[] = ['xref\n'];
  for (let i = 0; i < numbers.length;) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j++;
    xref.push(`${numbers[i]} ${j - i + 1}\n`);
    for (let k = i; k <= j; k++) {
      const entry = offsets.get(numbers[k])!;
      xref.push(`${String(entry.offset).padStart(10, '0')} ${String(entry.gen).padStart(5, '0')} n\r\n`);
    }
    i = j + 1;
  }
  parts.push(...xref, `trailer\n<< /Size ${size} /Prev ${prev} ${trailer} >>\nstartxref\n${xrefOffset}\n%%EOF\n`);
  return joinedBytes(parts);
}
