/**
 * split-pdf: one PDF into parts.
 *   mode=ranges  each comma-separated part of `ranges` becomes one file ("1-3, 4-6, 7-" → 3 files)
 *   mode=each    every page its own file (the default: what a plain API call without options gets)
 *   mode=everyN  every `everyN` pages
 *   mode=size    parts of at most `maxSizeMb` MB each (as written; a single page larger than that
 *                becomes a part of its own, and the result notes say so)
 *   mode=oddEven two files: odd pages and even pages
 *   mode=outline one file per top-level bookmark (chapter), named after it; pages before the first
 *                bookmark form a "front matter" part
 * One part → that PDF; several → converted.zip (the contract's default name). Parts are named after the input
 * ("report-pages-1-3.pdf"), keep links between their own pages and the bookmarks that point into them.
 */
import { PDFDocument } from 'pdf-lib';
import type { Engine, EngineInput } from '../lib/types.ts';
import type { OpenedPdf } from '../lib/pdf/pdf-open.ts';
import { isReadLazily } from '../lib/pdf/pdf-lazy.ts';
import {
  AssemblyError,
  assemblePages,
  completeAssembly,
  openForAssembly,
  placeBookmarks,
  prepareSource,
  splitPages,
  type PreparedSource,
} from '../lib/pdf/qpdf-assembly.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import { openPdf } from '../lib/pdf/pdf-open.ts';
import { parsePageGroups } from '../../../shared/page-range.ts';
import { PageCopier, topLevelBookmarks, writeOutline } from '../lib/pdf/page-copy.ts';
import { baseName } from '../../../shared/format.ts';
import {
  activeContentNote,
  addReports,
  documentLevelActiveContent,
  handleAssembledActiveContent,
  mayHoldActiveContent,
  removeScriptsChosen,
  type ActiveContentReport,
} from '../lib/pdf/active-content.ts';
import { savePdf } from '../lib/pdf/pdf-util.ts';
import { ZipBuilder } from '../lib/zip.ts';

interface Part {
  /** 0-based source page indices, in order. */
  pages: number[];
  label: string;
}

/** "1-3" for a contiguous run, else "part-2". */
function rangeLabel(pages: number[], partNumber: number): string {
  const contiguous = pages.every((p, i) => i === 0 || p === pages[i - 1] + 1);
  if (pages.length === 1) return `page-${pages[0] + 1}`;
  return contiguous ? `pages-${pages[0] + 1}-${pages[pages.length - 1] + 1}` : `part-${partNumber}`;
}

function chunk(pageCount: number, size: number): number[][] {
  const parts: number[][] = [];
  for (let start = 0; start < pageCount; start += size) {
    parts.push(Array.from({ length: Math.min(size, pageCount - start) }, (_, i) => start + i));
  }
  return parts;
}

/**
 * Writes source pages as PDFs: on qpdf (qpdf-assembly.ts) with the source's links and bookmarks
 * that point into each part, or with pdf-lib's page copier for sources qpdf cannot read.
 */
class PartWriter {
  private prepared?: PreparedSource;
  private pdfLibSource?: PDFDocument;

  constructor(
    private readonly opened: OpenedPdf,
    private readonly input: EngineInput,
    removeActiveContent: boolean,
  ) {
    try {
      const all = new Set(Array.from({ length: opened.doc.getPageCount() }, (_, i) => i));
      this.prepared = prepareSource(opened.doc, opened.bytes, 'folio0', all, { removeActiveContent });
    } catch (error) {
      if (!(error instanceof AssemblyError)) throw error;
    }
  }

  /** What the source's pages held, when every part was written on qpdf from the prepared source. */
  get sourceActiveContent(): { report: ActiveContentReport; removed: boolean } | undefined {
    return this.prepared && { report: this.prepared.activeContent, removed: this.prepared.activeContentRemoved };
  }

  private placed(pages: readonly number[]) {
    const place = new Map<number, number>();
    pages.forEach((page, i) => {
      if (!place.has(page)) place.set(page, i);
    });
    const bookmarks = placeBookmarks(this.prepared!.bookmarks, (page) => place.get(page));
    const links = new Map<string, { page: number; view: string[] }>();
    for (const [name, target] of this.prepared!.linkTargets) {
      const page = place.get(target.page);
      if (page !== undefined) links.set(name, { page, view: target.view });
    }
    return { bookmarks, links };
  }

  async write(pages: number[]): Promise<Uint8Array> {
    if (this.prepared) {
      try {
        const { bookmarks, links } = this.placed(pages);
        const options = { title: this.prepared.title };
        return (await assemblePages([this.prepared.bytes], [{ source: 0, pages }], bookmarks, links, options)).bytes;
      } catch (error) {
        if (!(error instanceof AssemblyError)) throw error;
        this.prepared = undefined;
      }
    }
    return this.writeWithPdfLib(pages);
  }

  /** Consecutive parts of `size` pages each, in one qpdf run. */
  async writeChunks(size: number, onPart: () => void, onWritten?: (parts: number) => void): Promise<Uint8Array[]> {
    const pageCount = this.opened.doc.getPageCount();
    if (this.prepared) {
      try {
        const parts = await splitPages(this.prepared.bytes, pageCount, size, onWritten);
        return parts.map((bytes, i) => {
          const pages = Array.from({ length: Math.min(size, pageCount - i * size) }, (_, k) => i * size + k);
          const { bookmarks, links } = this.placed(pages);
          const done = completeAssembly(bytes, pages.length, bookmarks, links, { title: this.prepared!.title }).bytes;
          parts[i] = new Uint8Array(0);
          onPart();
          return done;
        });
      } catch (error) {
        if (!(error instanceof AssemblyError)) throw error;
        this.prepared = undefined;
      }
    }
    const out: Uint8Array[] = [];
    for (const pages of chunk(pageCount, size)) {
      out.push(await this.writeWithPdfLib(pages));
      onPart();
    }
    return out;
  }

  private async writeWithPdfLib(pages: number[]): Promise<Uint8Array> {
    // A lazily read source is opened in full: qpdf refused it, so it deserves openPdf's repairs.
    this.pdfLibSource ??= isReadLazily(this.opened.doc) ? (await openPdf(this.input)).doc : this.opened.doc;
    const src = this.pdfLibSource;
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.setProducer('Folio');
    const title = src.getTitle();
    if (title) doc.setTitle(title);
    const copier = new PageCopier(src, doc);
    copier.appendPages(pages, new Set(pages));
    copier.copyFormFields();
    copier.copyLayers();
    writeOutline(doc, copier.readOutline());
    return savePdf(doc);
  }
}

/** A bookmark title as a file-name part: no path or reserved characters, at most 60 characters. */
function fileSafe(title: string): string {
  const printable = [...title].map((c) => (c.charCodeAt(0) < 32 ? ' ' : c)).join('');
  const safe = printable
    .replace(/[\\/:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 60)
    .trim();
  return safe || 'untitled';
}

/** Parts that start at each top-level bookmark (chapters), in page order. */
export function planOutlineParts(src: PDFDocument): Part[] {
  const pageCount = src.getPageCount();
  const starts = new Map<number, string>();
  for (const { title, pageIndex } of topLevelBookmarks(src)) if (!starts.has(pageIndex)) starts.set(pageIndex, title);
  if (starts.size === 0)
    throw new FolioError('InvalidInput', 'This PDF has no bookmarks to split by: choose another way to split it.');
  const ordered = [...starts.entries()].sort((a, b) => a[0] - b[0]);
  if (ordered[0][0] > 0) ordered.unshift([0, 'front matter']);
  const width = String(ordered.length).length;
  return ordered.map(([start, title], i) => {
    const end = i + 1 < ordered.length ? ordered[i + 1][0] : pageCount;
    return {
      pages: Array.from({ length: end - start }, (_, k) => start + k),
      label: `${String(i + 1).padStart(width, '0')}-${fileSafe(title)}`,
    };
  });
}

export function planParts(mode: string, pageCount: number, options: Record<string, unknown>): Part[] {
  const pad = (n: number) => String(n).padStart(String(pageCount).length, '0');
  switch (mode) {
    case 'ranges':
      return parsePageGroups(String(options.ranges ?? ''), pageCount).map((group, i) => {
        const pages = group.map((n) => n - 1);
        return { pages, label: rangeLabel(pages, i + 1) };
      });
    case 'everyN': {
      const n = Number(options.everyN ?? 1);
      if (!Number.isInteger(n) || n < 1)
        throw new FolioError('InvalidInput', 'Pages per file must be a whole number of at least 1.');
      return chunk(pageCount, n).map((pages, i) => ({ pages, label: rangeLabel(pages, i + 1) }));
    }
    case 'oddEven': {
      const odd = Array.from({ length: Math.ceil(pageCount / 2) }, (_, i) => i * 2);
      const even = Array.from({ length: Math.floor(pageCount / 2) }, (_, i) => i * 2 + 1);
      return [{ pages: odd, label: 'odd-pages' }, ...(even.length ? [{ pages: even, label: 'even-pages' }] : [])];
    }
    case 'each':
    default:
      return Array.from({ length: pageCount }, (_, i) => ({ pages: [i], label: `page-${pad(i + 1)}` }));
  }
}

/**
 * Size mode: pages are packed greedily by their own saved size (a page alone, shared fonts
 * counted in full, so the estimate errs on the large side); a part that still comes out too big
 * is halved until it fits or is a single page.
 */
async function splitBySize(
  src: PDFDocument,
  writer: PartWriter,
  limitBytes: number,
  ctx: Parameters<Engine>[2],
): Promise<{ parts: Array<{ pages: number[]; bytes: Uint8Array }>; oversized: number[] }> {
  const pageCount = src.getPageCount();
  const sizes: number[] = [];
  for (let i = 0; i < pageCount; i++) {
    throwIfAborted(ctx.signal);
    sizes.push((await writer.write([i])).byteLength);
    ctx.progress?.(i + 1, pageCount * 2);
  }
  const groups: number[][] = [];
  let current: number[] = [];
  let currentSize = 0;
  for (let i = 0; i < pageCount; i++) {
    if (current.length > 0 && currentSize + sizes[i] > limitBytes) {
      groups.push(current);
      current = [];
      currentSize = 0;
    }
    current.push(i);
    currentSize += sizes[i];
  }
  if (current.length) groups.push(current);

  const parts: Array<{ pages: number[]; bytes: Uint8Array }> = [];
  const oversized: number[] = [];
  const queue = [...groups];
  let written = 0;
  while (queue.length > 0) {
    throwIfAborted(ctx.signal);
    const pages = queue.shift()!;
    const bytes = await writer.write(pages);
    if (bytes.byteLength > limitBytes && pages.length > 1) {
      const half = Math.ceil(pages.length / 2);
      queue.unshift(pages.slice(0, half), pages.slice(half));
      continue;
    }
    if (bytes.byteLength > limitBytes) oversized.push(pages[0] + 1);
    parts.push({ pages, bytes });
    written += pages.length;
    ctx.progress?.(pageCount + written, pageCount * 2);
  }
  return { parts, oversized };
}

export const run: Engine = async (inputs, options, ctx) => {
  const input: EngineInput | undefined = inputs.find((i) => !i.field);
  if (!input) throw new FolioError('InvalidInput', 'Please select at least one file');
  const opened = await openForAssembly(input);
  const src = opened.doc;
  const removeActiveContent = removeScriptsChosen(options);
  const writer = new PartWriter(opened, input, removeActiveContent);
  const pageCount = src.getPageCount();
  const base = baseName(input.name);
  const mode = String(options.mode ?? 'each');
  const notes: string[] = [];

  let outputs: Array<{ name: string; bytes: Uint8Array; pages: number }>;
  if (mode === 'size') {
    const limitMb = Number(options.maxSizeMb ?? 5);
    if (!(limitMb > 0)) throw new FolioError('InvalidInput', 'Maximum size must be more than 0 MB.');
    const { parts, oversized } = await splitBySize(src, writer, limitMb * 1024 * 1024, ctx);
    outputs = parts.map((part, i) => ({
      name: `${base}-${rangeLabel(part.pages, i + 1)}.pdf`,
      bytes: part.bytes,
      pages: part.pages.length,
    }));
    if (oversized.length) {
      notes.push(
        `Page${oversized.length > 1 ? 's' : ''} ${oversized.join(', ')} alone ` +
          `${oversized.length > 1 ? 'are' : 'is'} larger than ${limitMb} MB, so ` +
          `${oversized.length > 1 ? 'each is a part' : 'it is a part'} of its own.`,
      );
    }
  } else {
    const parts = mode === 'outline' ? planOutlineParts(src) : planParts(mode, pageCount, options);
    const total = parts.reduce((sum, p) => sum + p.pages.length, 0);
    let done = 0;
    ctx.progress?.(0, total);
    outputs = [];
    const equalParts = mode === 'everyN' ? parts[0].pages.length : 0;
    const size = mode === 'each' || !['ranges', 'everyN', 'oddEven', 'outline'].includes(mode) ? 1 : equalParts;
    if (size > 0 && parts.length > 1) {
      // Consecutive parts of one size: one qpdf run writes them all.
      let index = 0;
      // qpdf writes the parts in runs of a few thousand pages: each run's end keeps the progress (and
      // the watchdog) alive, as a status line; the bar moves as each part is completed.
      const count = parts.length.toLocaleString('en');
      const onWritten = (n: number) =>
        ctx.progress?.(done, total, `Writing the files: ${n.toLocaleString('en')} of ${count}`);
      const onPart = () => ctx.progress?.((done += parts[index++].pages.length), total);
      const written = await writer.writeChunks(size, onPart, onWritten);
      written.forEach((bytes, i) => {
        outputs.push({ name: `${base}-${parts[i].label}.pdf`, bytes, pages: parts[i].pages.length });
      });
    } else {
      for (const part of parts) {
        throwIfAborted(ctx.signal);
        outputs.push({
          name: `${base}-${part.label}.pdf`,
          bytes: await writer.write(part.pages),
          pages: part.pages.length,
        });
        done += part.pages.length;
        ctx.progress?.(done, total);
      }
    }
  }

  // The parts carry their pages' actions (never the document's own scripts). On qpdf they were
  // scanned (and cleaned) on the source; a part is scanned in full with pdf-lib only if a quick look
  // still finds a name actions use, or when it was written with pdf-lib.
  const active = documentLevelActiveContent(src);
  const fromSource = writer.sourceActiveContent;
  if (fromSource && (!removeActiveContent || fromSource.removed)) addReports(active, fromSource.report);
  for (const output of outputs) {
    if (fromSource && !(removeActiveContent && mayHoldActiveContent(output.bytes))) continue;
    const cleaned = await handleAssembledActiveContent(output.bytes, options, { documentLevelDropped: true });
    output.bytes = cleaned.bytes;
    addReports(active, cleaned.report);
  }
  const activeNote = activeContentNote(active, removeActiveContent, { documentLevelDropped: true });
  if (activeNote) notes.push(activeNote);

  notes.unshift(
    `${outputs.length} file${outputs.length === 1 ? '' : 's'} from ${pageCount} page${pageCount === 1 ? '' : 's'}`,
  );
  if (outputs.length === 1) {
    return { bytes: outputs[0].bytes, filename: outputs[0].name, mime: 'application/pdf', notes };
  }
  const zip = new ZipBuilder(ctx.output);
  for (const output of outputs) zip.add(output.name, output.bytes);
  return { ...(await zip.finish()), filename: `${base}-split.zip`, mime: 'application/zip', notes };
};
