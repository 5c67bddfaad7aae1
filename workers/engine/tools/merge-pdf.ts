/**
 * merge-pdf: any number of PDFs into one, in the order given, optionally only some pages of each
 * (`ranges`: a JSON array of page-range texts, one per file, '' = all pages). The pages are
 * assembled by qpdf (lib/pdf/qpdf-assembly.ts: shared resources stay shared, form fields kept); each
 * input's internal links and bookmarks are kept and remapped; with `bookmarkEachFile` every file also
 * gets a top-level bookmark (its name) holding its own bookmarks.
 */
import { PDFDocument } from 'pdf-lib';
import type { Engine, EngineInput } from '../lib/types.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import { openPdf } from '../lib/pdf/pdf-open.ts';
import { parsePageRanges, PageRangeError } from '../../../shared/page-range.ts';
import { PageCopier, writeOutline, type OutlineNode } from '../lib/pdf/page-copy.ts';
import { baseName } from '../../../shared/format.ts';
import {
  activeContentNote,
  addReports,
  documentLevelActiveContent,
  emptyReport,
  handleAssembledActiveContent,
  mayHoldActiveContent,
  removeScriptsChosen,
} from '../lib/pdf/active-content.ts';
import { savePdf } from '../lib/pdf/pdf-util.ts';
import {
  AssemblyError,
  assemblePages,
  openForAssembly,
  placeBookmarks,
  prepareSource,
  type PreparedSource,
  type ResultBookmark,
} from '../lib/pdf/qpdf-assembly.ts';

/** `ranges` arrives as a JSON array of strings (one per file) or as nothing. */
export function parseRangesField(raw: unknown, fileCount: number): string[] {
  if (raw === undefined || raw === '' || raw === null) return Array<string>(fileCount).fill('');
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(raw));
  } catch {
    throw new FolioError(
      'InvalidInput',
      'ranges must be a JSON array of page ranges, one per file, e.g. ["1-3", "", "2"].',
    );
  }
  if (!Array.isArray(parsed) || parsed.some((r) => typeof r !== 'string')) {
    throw new FolioError(
      'InvalidInput',
      'ranges must be a JSON array of page ranges, one per file, e.g. ["1-3", "", "2"].',
    );
  }
  if (parsed.length > fileCount)
    throw new FolioError('InvalidInput', `ranges lists ${parsed.length} entries for ${fileCount} files.`);
  return Array.from({ length: fileCount }, (_, i) => (parsed as string[])[i] ?? '');
}

interface MergeUse {
  input: EngineInput;
  /** 0-based pages of the input, in order. */
  pages: number[];
  /** Index of its prepared source (two uses of the same bytes share one). */
  source: number;
}

export const run: Engine = async (allInputs, options, ctx) => {
  // Only the `files` themselves: extra file fields (EngineInput.field) are not documents to merge.
  const inputs = allInputs.filter((input) => !input.field);
  if (inputs.length === 0) throw new FolioError('InvalidInput', 'Please select at least one file');
  const ranges = parseRangesField(options.ranges, inputs.length);
  const bookmarkEachFile = options.bookmarkEachFile === true;
  const removeActiveContent = removeScriptsChosen(options);

  // Every input is opened (and its bookmarks and links read) before any page is assembled: a
  // password or damage problem in file 7 is reported first. Each pdf-lib document is released as
  // soon as it is read; qpdf then assembles the pages (qpdf-assembly.ts).
  const uses: MergeUse[] = [];
  const sources: Array<{ original: Uint8Array; prepared: PreparedSource; pages: Set<number> }> = [];
  const documentLevel = emptyReport();
  let onQpdf = true;
  let encrypted = false;
  let repaired = false;
  let total = 0;
  for (const [i, input] of inputs.entries()) {
    throwIfAborted(ctx.signal);
    // The same bytes again (a file added twice) share one source, as qpdf shares its objects.
    let pages: number[] | undefined;
    const same = sources.findIndex((s) => sameBytes(s.original, input.bytes));
    if (same >= 0) {
      pages = pagesOf(input, ranges[i], sources[same].prepared.pageCount);
      if (pages.every((p) => sources[same].pages.has(p))) {
        uses.push({ input, pages, source: same });
        total += pages.length;
        continue;
      }
    }
    const opened = await openForAssembly(input);
    addReports(documentLevel, documentLevelActiveContent(opened.doc));
    encrypted ||= opened.wasEncrypted;
    repaired ||= opened.wasRepaired;
    pages ??= pagesOf(input, ranges[i], opened.doc.getPageCount());
    const readable = opened.bytes;
    const willCopy = new Set(pages);
    let prepared: PreparedSource;
    try {
      prepared = prepareSource(opened.doc, readable, `folio${sources.length}`, willCopy, { removeActiveContent });
    } catch (error) {
      if (!(error instanceof AssemblyError)) throw error;
      onQpdf = false;
      const pageCount = opened.doc.getPageCount();
      const activeContent = emptyReport();
      prepared = {
        bytes: readable,
        pageCount,
        linkTargets: new Map(),
        bookmarks: [],
        activeContent,
        activeContentRemoved: false,
      };
    }
    sources.push({ original: input.bytes, prepared, pages: willCopy });
    uses.push({ input, pages, source: sources.length - 1 });
    total += pages.length;
    ctx.progress?.(i + 1, inputs.length + 1, 'Reading the files…');
  }
  throwIfAborted(ctx.signal);

  let bytes: Uint8Array;
  let fields: number;
  // The document-level scripts of the inputs never reach a merged file; their pages' actions may.
  const pageLevel = emptyReport();
  try {
    if (!onQpdf) throw new AssemblyError('A source cannot be prepared for qpdf');
    ({ bytes, formFields: fields } = await assemble(
      uses,
      sources.map((s) => s.prepared),
      bookmarkEachFile,
    ));
    // The sources' copied pages were scanned (and cleaned) before qpdf ran; the exact scan of the
    // whole result with pdf-lib runs only if a quick look still finds a name actions use (e.g. the
    // pages of a source opened in full, which were not cleaned: that scan counts theirs).
    for (const { prepared } of sources) {
      if (!removeActiveContent || prepared.activeContentRemoved) addReports(pageLevel, prepared.activeContent);
    }
    if (removeActiveContent && mayHoldActiveContent(bytes)) {
      const active = await handleAssembledActiveContent(bytes, options, { documentLevelDropped: true });
      bytes = active.bytes;
      addReports(pageLevel, active.report);
    }
  } catch (error) {
    if (!(error instanceof AssemblyError)) throw error;
    // qpdf refused a source or its result does not have the expected pages: pdf-lib copies them.
    ({ bytes, fields } = await mergeWithPdfLib(uses, bookmarkEachFile, ctx));
    const active = await handleAssembledActiveContent(bytes, options, { documentLevelDropped: true });
    bytes = active.bytes;
    addReports(pageLevel, active.report);
  }
  const activeNote = activeContentNote(addReports(documentLevel, pageLevel), removeActiveContent, {
    documentLevelDropped: true,
  });
  ctx.progress?.(total, total);
  const notes = [`${total} page${total === 1 ? '' : 's'} from ${inputs.length} file${inputs.length === 1 ? '' : 's'}`];
  if (fields > 0) notes.push(`${fields} form field${fields === 1 ? '' : 's'} kept`);
  if (encrypted) notes.push('Encrypted inputs were opened with their password; the result is not encrypted.');
  if (repaired) notes.push('A damaged input was repaired before merging.');
  if (activeNote) notes.push(activeNote);
  const name = inputs.length === 1 ? `${baseName(inputs[0].name)}-merged.pdf` : 'merged.pdf';
  return { bytes, filename: name, mime: 'application/pdf', notes };
};

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.byteLength !== b.byteLength) return false;
  let from = 0;
  // A file given twice is compared whole: four bytes at a time where both views allow it.
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = a.byteLength >>> 2;
    const wordsA = new Uint32Array(a.buffer, a.byteOffset, words);
    const wordsB = new Uint32Array(b.buffer, b.byteOffset, words);
    for (let i = 0; i < words; i++) if (wordsA[i] !== wordsB[i]) return false;
    from = words * 4;
  }
  for (let i = from; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

function pagesOf(input: EngineInput, range: string, pageCount: number): number[] {
  try {
    return parsePageRanges(range, pageCount).map((n) => n - 1);
  } catch (error) {
    if (error instanceof PageRangeError) throw new FolioError('InvalidInput', `${input.name}: ${error.message}`);
    throw error;
  }
}

/** The pages on qpdf, the bookmarks and link targets of every use placed where its pages landed. */
async function assemble(uses: readonly MergeUse[], sources: readonly PreparedSource[], bookmarkEachFile: boolean) {
  const outline: ResultBookmark[] = [];
  const linkTargets = new Map<string, { page: number; view: string[] }>();
  let offset = 0;
  for (const use of uses) {
    const firstPlace = new Map<number, number>();
    use.pages.forEach((page, i) => {
      if (!firstPlace.has(page)) firstPlace.set(page, offset + i);
    });
    const source = sources[use.source];
    const placed = placeBookmarks(source.bookmarks, (page) => firstPlace.get(page));
    if (bookmarkEachFile && use.pages.length > 0) {
      const title = baseName(use.input.name);
      outline.push({ title, target: { page: offset, view: ['/Fit'] }, open: false, children: placed });
    } else {
      outline.push(...placed);
    }
    for (const [name, target] of source.linkTargets) {
      const page = firstPlace.get(target.page);
      if (page !== undefined && !linkTargets.has(name)) linkTargets.set(name, { page, view: target.view });
    }
    offset += use.pages.length;
  }
  const runs = uses.map((use) => ({ source: use.source, pages: use.pages }));
  const named = sources.reduce((sum, source) => sum + source.linkTargets.size, 0);
  return assemblePages(
    sources.map((s) => s.bytes),
    runs,
    outline,
    linkTargets,
    { everyLinkPlaced: linkTargets.size === named, noLayersMarked: sources.every((s) => s.layersMarked === false) },
  );
}

/** The same merge with pdf-lib's page copier, for sources qpdf cannot assemble. */
async function mergeWithPdfLib(uses: readonly MergeUse[], bookmarkEachFile: boolean, ctx: Parameters<Engine>[2]) {
  const merged = await PDFDocument.create({ updateMetadata: false });
  merged.setProducer('Folio');
  merged.setCreator('Folio');
  const outline: OutlineNode[] = [];
  let fields = 0;
  for (const { input, pages } of uses) {
    throwIfAborted(ctx.signal);
    const opened = await openPdf(input);
    const copier = new PageCopier(opened.doc, merged);
    const firstPages = copier.appendPages(pages, new Set(pages));
    fields += copier.copyFormFields();
    copier.copyLayers();
    const own = copier.readOutline();
    if (bookmarkEachFile && firstPages.length > 0) {
      outline.push({
        title: baseName(input.name),
        dest: merged.context.obj([firstPages[0].ref, 'Fit']),
        open: false,
        children: own,
      });
    } else {
      outline.push(...own);
    }
  }
  writeOutline(merged, outline);
  throwIfAborted(ctx.signal);
  return { bytes: await savePdf(merged), fields };
}
