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

  /** Adds an entry; a repeated name gets " (2)", " (3)"… before its extension. */
  add(name: string, bytes: Uint8Array, { compress = false }: ZipEntryOptions = {}): string {
    const unique = this.uniqueName(name);
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
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot) : '';
    for (let n = 2; ; n++) {
      const candidate = `${stem} (${n})${ext}`;
      if (!this.names.has(candidate)) return candidate;
    }
  }
}
