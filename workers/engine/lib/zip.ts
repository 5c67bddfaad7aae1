/**
 * ZIP output for engines that produce many files (pdf-to-jpg, split-pdf): entries are added as they
 * are produced, and the archive is written with jszip's internal stream (`streamFiles`), chunk by
 * chunk, so that no second, compressed copy of every entry is built up before the final bytes.
 * Entries that are already compressed (JPEG, PNG, PDF with object streams) are STOREd: deflating
 * them again costs time and saves next to nothing.
 */
import JSZip from 'jszip';

export interface ZipEntryOptions {
  /** Deflate this entry (text, XML, uncompressed PDF). Default: store as is. */
  compress?: boolean;
}

export class ZipBuilder {
  private readonly zip = new JSZip();
  private readonly names = new Set<string>();

  get size(): number {
    return this.names.size;
  }

  /** Adds an entry under a safe name (safeEntryName); a repeated name gets " (2)", " (3)"… before its extension. */
  add(name: string, bytes: Uint8Array, { compress = false }: ZipEntryOptions = {}): string {
    const unique = this.uniqueName(safeEntryName(name));
    this.names.add(unique);
    this.zip.file(unique, bytes, { binary: true, compression: compress ? 'DEFLATE' : 'STORE', createFolders: false });
    return unique;
  }

  /** Writes the archive; `onProgress` gets the percentage jszip reports while streaming. */
  finish(onProgress?: (percent: number) => void): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const chunks: Uint8Array[] = [];
      let total = 0;
      this.zip
        .generateInternalStream({ type: 'uint8array', streamFiles: true, compression: 'STORE', platform: 'UNIX' })
        .on('data', (chunk: Uint8Array, meta: { percent: number }) => {
          chunks.push(chunk);
          total += chunk.byteLength;
          onProgress?.(meta.percent);
        })
        .on('error', reject)
        .on('end', () => {
          const out = new Uint8Array(total);
          let offset = 0;
          for (const chunk of chunks) {
            out.set(chunk, offset);
            offset += chunk.byteLength;
          }
          chunks.length = 0;
          resolve(out);
        })
        .resume();
    });
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
