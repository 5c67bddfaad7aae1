/**
 * merge-pdf: any number of PDFs into one, in the order given, optionally only some pages of each
 * (`ranges`: a JSON array of page-range texts, one per file, '' = all pages). Each input's internal
 * links and bookmarks are kept (lib/page-copy.ts); with `bookmarkEachFile` every file also gets a
 * top-level bookmark (its name) holding its own bookmarks.
 */
import { PDFDocument } from 'pdf-lib';
import type { Engine } from '../lib/types.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import { openPdf } from '../lib/pdf-open.ts';
import { activeContentNote, addReports, emptyReport, removeScriptsChosen, scanActiveContent } from '../lib/active-content.ts';
import { parsePageRanges, PageRangeError } from '../lib/page-range.ts';
import { PageCopier, writeOutline, type OutlineNode } from '../lib/page-copy.ts';
import { baseName, savePdf } from '../lib/pdf-util.ts';

/** `ranges` arrives as a JSON array of strings (one per file) or as nothing. */
export function parseRangesField(raw: unknown, fileCount: number): string[] {
  if (raw === undefined || raw === '' || raw === null) return Array<string>(fileCount).fill('');
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(raw));
  } catch {
    throw new FolioError('InvalidInput', 'ranges must be a JSON array of page ranges, one per file, e.g. ["1-3", "", "2"].');
  }
  if (!Array.isArray(parsed) || parsed.some((r) => typeof r !== 'string')) {
    throw new FolioError('InvalidInput', 'ranges must be a JSON array of page ranges, one per file, e.g. ["1-3", "", "2"].');
  }
  if (parsed.length > fileCount) throw new FolioError('InvalidInput', `ranges lists ${parsed.length} entries for ${fileCount} files.`);
  return Array.from({ length: fileCount }, (_, i) => (parsed as string[])[i] ?? '');
}

export const run: Engine = async (allInputs, options, ctx) => {
  // Only the `files` themselves: extra file fields (EngineInput.field) are not documents to merge.
  const inputs = allInputs.filter((input) => !input.field);
  if (inputs.length === 0) throw new FolioError('InvalidInput', 'Please select at least one file');
  const ranges = parseRangesField(options.ranges, inputs.length);
  const bookmarkEachFile = options.bookmarkEachFile === true;
  const removeScripts = removeScriptsChosen(options);
  const active = emptyReport();

  // Open every input first: a password or damage problem in file 7 is reported before any work.
  const sources = [];
  let total = 0;
  for (const [i, input] of inputs.entries()) {
    throwIfAborted(ctx.signal);
    const opened = await openPdf(input);
    // Cleaned before its pages are copied (the merged file carries no document-level scripts anyway).
    addReports(active, scanActiveContent(opened.doc, { remove: removeScripts }));
    let pages: number[];
    try {
      pages = parsePageRanges(ranges[i], opened.doc.getPageCount()).map((n) => n - 1);
    } catch (error) {
      if (error instanceof PageRangeError) throw new FolioError('InvalidInput', `${input.name}: ${error.message}`);
      throw error;
    }
    sources.push({ input, opened, pages });
    total += pages.length;
  }

  const merged = await PDFDocument.create({ updateMetadata: false });
  merged.setProducer('Folio');
  merged.setCreator('Folio');
  const outline: OutlineNode[] = [];
  let done = 0;
  let fields = 0;
  ctx.progress?.(0, total);
  for (const { input, opened, pages } of sources) {
    throwIfAborted(ctx.signal);
    const copier = new PageCopier(opened.doc, merged);
    const firstPages = copier.appendPages(pages, new Set(pages), () => {
      done += 1;
      if (done % 8 === 0 || done === total) ctx.progress?.(done, total);
    });
    fields += copier.copyFormFields();
    const own = copier.readOutline();
    if (bookmarkEachFile && firstPages.length > 0) {
      outline.push({ title: baseName(input.name), dest: merged.context.obj([firstPages[0].ref, 'Fit']), open: false, children: own });
    } else {
      outline.push(...own);
    }
  }
  writeOutline(merged, outline);
  throwIfAborted(ctx.signal);
  const bytes = await savePdf(merged);
  const notes = [`${total} page${total === 1 ? '' : 's'} from ${inputs.length} file${inputs.length === 1 ? '' : 's'}`];
  if (fields > 0) notes.push(`${fields} form field${fields === 1 ? '' : 's'} kept`);
  if (sources.some((s) => s.opened.wasEncrypted)) notes.push('Encrypted inputs were opened with their password; the result is not encrypted.');
  if (sources.some((s) => s.opened.wasRepaired)) notes.push('A damaged input was repaired before merging.');
  const activeNote = activeContentNote(active, removeScripts, { documentLevelDropped: true });
  if (activeNote) notes.push(activeNote);
  const name = inputs.length === 1 ? `${baseName(inputs[0].name)}-merged.pdf` : 'merged.pdf';
  return { bytes, filename: name, mime: 'application/pdf', notes };
};
