/**
 * ZIP output for engines that produce many files (pdf-to-jpg, split-pdf, image-compressor…), written
 * with fflate's streaming `Zip`: each entry is written into the archive the moment it is added (its
 * header, its bytes, its data descriptor), so an engine that adds pages as they finish never holds
 * them twice — once written, a page's image can be let go. Entries that are already compressed
 * (JPEG, PNG, PDF with object streams) pass through STOREd (`ZipPassThrough`): deflating them again
 * costs time and saves next to nothing. Given a ResultSink (an engine's `ctx.output`), the archive's
 * pieces go to it as they are written and are not kept here at all: in a browser they leave the
 * engine worker at once (workers/bridge.ts). No ZIP64: fflate writes 32-bit sizes, so an archive must stay
 * under 4 GB and 65,535 entries (checked, with a plain message).
 */
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { FolioError } from './errors.ts';
import type { EngineResult, ResultSink } from './types.ts';

export interface ZipEntryOptions {
  /** Deflate this entry (text, XML, uncompressed PDF). Default: store as is. */
  compress?: boolean;
}

/** Limits of a ZIP without ZIP64 (what fflate writes). */
const MAX_ENTRIES = 65_535;
const MAX_ARCHIVE_BYTES = 2 ** 32 - 1;

/** Unix file mode 0644 of a regular file, in the high half of the external attributes. */
const REGULAR_FILE_ATTRS = 0o100644 << 16;

/** The finished archive as an engine returns it: whole in `bytes`, or written to the sink (`streamedBytes`). */
export type ZipOutput = Pick<EngineResult, 'bytes' | 'streamedBytes'>;

export class ZipBuilder {
  private readonly names = new Set<string>();
  private readonly chunks: Uint8Array[] = [];
  private written = 0;
  private failure: Error | undefined;
  private ended: ((output: ZipOutput) => void) | undefined;
  private readonly zip = new Zip((error, chunk, final) => {
    if (error) {
      this.failure = error;
      return;
    }
    this.written += chunk.byteLength;
    if (this.sink) {
      try {
        this.sink.write(chunk);
      } catch (sinkError) {
        this.failure = sinkError instanceof Error ? sinkError : new Error(String(sinkError));
        return;
      }
    } else this.chunks.push(chunk);
    if (final)
      this.ended?.(this.sink ? { bytes: new Uint8Array(0), streamedBytes: this.written } : { bytes: this.concat() });
  });

  /**
   * With `sink`, every piece of the archive is written to it as soon as it exists; an entry's bytes
   * are handed over with it (do not use them after `add`).
   */
  constructor(private readonly sink?: ResultSink) {}

  get size(): number {
    return this.names.size;
  }

  /** Bytes of the archive written so far. */
  get bytesWritten(): number {
    return this.written;
  }

  /**
   * Writes an entry under a safe name (safeEntryName) into the archive now; a repeated name gets
   * " (2)", " (3)"… before its extension. Returns the name used.
   */
  add(name: string, bytes: Uint8Array, { compress = false }: ZipEntryOptions = {}): string {
    if (this.failure) throw this.failure;
    if (this.names.size >= MAX_ENTRIES) {
      throw new FolioError(
        'TooLarge',
        `A ZIP archive holds at most ${MAX_ENTRIES.toLocaleString('en')} files; choose fewer.`,
      );
    }
    if (this.written + bytes.byteLength > MAX_ARCHIVE_BYTES) {
      throw new FolioError('TooLarge', 'The ZIP archive would pass 4 GB; choose fewer pages or a lower resolution.');
    }
    const unique = this.uniqueName(safeEntryName(name));
    this.names.add(unique);
    const entry = compress ? new ZipDeflate(unique, { level: 6 }) : new ZipPassThrough(unique);
    entry.os = 3; // Unix: unzip tools then read the file mode below
    entry.attrs = REGULAR_FILE_ATTRS;
    this.zip.add(entry);
    entry.push(bytes, true);
    if (this.failure) throw this.failure;
    return unique;
  }

  /** Writes the central directory; returns the whole archive, or its size when it went to the sink. */
  finish(): Promise<ZipOutput> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.ended = resolve;
      this.zip.end();
      if (this.failure) reject(this.failure);
    });
  }

  /** The chunks as one array, each chunk let go as soon as it is copied. */
  private concat(): Uint8Array {
    const out = new Uint8Array(this.written);
    let offset = 0;
    for (let i = 0; i < this.chunks.length; i++) {
      out.set(this.chunks[i], offset);
      offset += this.chunks[i].byteLength;
      this.chunks[i] = EMPTY;
    }
    this.chunks.length = 0;
    return out;
  }

  private uniqueName(name: string): string {
    if (!this.names.has(name)) return name;
    const { stem, ext } = splitExtension(name);
    for (let n = 2; ; n++) {
      const suffix = ` (${n})`;
      const candidate = `${cutToBytes(stem, MAX_ENTRY_NAME_BYTES - byteLength(suffix + ext))}${suffix}${ext}`;
      if (!this.names.has(candidate)) return candidate;
    }
  }
}

/** Entry names longer than this (UTF-8 bytes) are cut: file systems allow 255, and unzip tools add folders. */
export const MAX_ENTRY_NAME_BYTES = 150;

const byteLength = (text: string) => new TextEncoder().encode(text).byteLength;

/** The longest prefix of `text` within `bytes` UTF-8 bytes, cut between characters. */
function cutToBytes(text: string, bytes: number): string {
  let out = '';
  let used = 0;
  for (const char of text) {
    const size = byteLength(char);
    if (used + size > bytes) break;
    out += char;
    used += size;
  }
  return out;
}

/** "report.final.pdf" → { stem: "report.final", ext: ".pdf" }; an extension is short and plain. */
function splitExtension(name: string): { stem: string; ext: string } {
  const match = /^(.+?)(\.[A-Za-z0-9]{1,10})$/.exec(name);
  return match ? { stem: match[1], ext: match[2] } : { stem: name, ext: '' };
}

/**
 * A file name safe as a ZIP entry anywhere: no control characters (NUL…), no bidirectional overrides
 * (which can disguise an extension), no folders (`/`, `\`), no leading dots, at most
 * MAX_ENTRY_NAME_BYTES bytes, cut in the middle with the extension kept; "file" when nothing is left.
 */
export function safeEntryName(name: string): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[\\/]+/g, '_')
    .replace(/^[\s.]+/, '')
    .trim();
  const { stem, ext } = splitExtension(cleaned || 'file');
  if (byteLength(stem + ext) <= MAX_ENTRY_NAME_BYTES) return stem + ext;
  // Cut in the middle: the end of a name often tells entries apart ("…-page-12").
  const budget = MAX_ENTRY_NAME_BYTES - byteLength(ext + ELLIPSIS);
  const tail = [...cutToBytes([...stem].reverse().join(''), Math.floor(budget / 3))].reverse().join('');
  return `${cutToBytes(stem, budget - byteLength(tail)).trimEnd()}${ELLIPSIS}${tail}${ext}`;
}

const ELLIPSIS = '…';
const EMPTY = new Uint8Array(0);
