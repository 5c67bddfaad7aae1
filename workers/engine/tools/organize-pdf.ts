/**
 * organize-pdf: reorders, deletes, duplicates and rotates pages and inserts blank ones, from one
 * `pageOrder` text (the /api field). The document itself is kept (bookmarks, forms, metadata, links):
 * only its page list changes.
 *
 * pageOrder syntax — comma-separated items, in the order of the result:
 *   3            page 3                         2-5, 8-, last, odd, even   ranges (page-range language)
 *   3r90         page 3 turned 90° clockwise    (r90, r180, r270 after any page or range: "1-4r180")
 *   blank        a blank page (size of the page before it, else of page 1)
 * A page listed twice is duplicated; a page not listed is deleted. Empty = unchanged.
 * Example: "3, 1r90, blank, 2, 2" → page 3, page 1 rotated, a blank page, page 2 twice.
 *
 * When every page is kept, the pages are rearranged by qpdf in the document itself (rearrangePages
 * in lib/pdf/qpdf-assembly.ts), so everything at document level stays; pdf-lib rearranges the page
 * list instead when qpdf cannot, or when the document's own scripts are to be removed. When pages
 * are deleted, the kept pages go into a fresh document so that nothing points at a deleted page:
 * bookmarks and links to deleted pages are dropped, the others follow their page; form fields of
 * kept pages stay; title, author, subject and keywords are carried over. That document is assembled
 * by qpdf (lib/pdf/qpdf-assembly.ts: shared resources stay shared, blank pages come from a small PDF
 * of blank pages, rotations by --rotate), or, for a file qpdf cannot assemble, by pdf-lib's page
 * copier (lib/pdf/page-copy.ts).
 */
import { PDFDocument, type PDFPage } from 'pdf-lib';
import type { Engine, EngineOptions } from '../lib/types.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import { openPdf, type OpenedPdf } from '../lib/pdf/pdf-open.ts';
import { isReadLazily } from '../lib/pdf/pdf-lazy.ts';
import {
  activeContentNote,
  addReports,
  documentLevelActiveContent,
  handleActiveContent,
  handleAssembledActiveContent,
  hasActiveContent,
  mayHoldActiveContent,
  removeScriptsChosen,
} from '../lib/pdf/active-content.ts';
import {
  AssemblyError,
  assemblePages,
  cleanSource,
  openForAssembly,
  placeBookmarks,
  prepareSource,
  rearrangePages,
  type PageRun,
} from '../lib/pdf/qpdf-assembly.ts';
import { MAX_LISTED_PAGES, parsePageRanges, PageRangeError } from '../../../shared/page-range.ts';
import { baseName } from '../../../shared/format.ts';
import { rotatePageBy, savePdf } from '../lib/pdf/pdf-util.ts';
import { PageCopier, writeOutline } from '../lib/pdf/page-copy.ts';

export type OrderItem = { kind: 'page'; page: number; rotate: number } | { kind: 'blank' };

/** Parses pageOrder into items (1-based pages); errors say which item is wrong. */
export function parsePageOrder(text: string, pageCount: number): OrderItem[] {
  const trimmed = text.trim();
  if (trimmed === '') return Array.from({ length: pageCount }, (_, i) => ({ kind: 'page', page: i + 1, rotate: 0 }));
  const items: OrderItem[] = [];
  for (const raw of trimmed.split(/\s*[,;]\s*/)) {
    const part = raw.trim().toLowerCase();
    if (part === '')
      throw new FolioError('InvalidInput', `Page order: there is an empty entry in "${text}" (two commas in a row?).`);
    if (items.length >= MAX_LISTED_PAGES) {
      throw new FolioError(
        'InvalidInput',
        `Page order: the result would have more than ${MAX_LISTED_PAGES.toLocaleString('en')} pages, the most ` +
          `Folio makes in one document.`,
      );
    }
    if (part === 'blank' || part === 'b') {
      items.push({ kind: 'blank' });
      continue;
    }
    const rotation = /^(.*?)\s*r\s*(-?\d+)$/.exec(part);
    const range = rotation ? rotation[1] : part;
    const rotate = rotation ? Number(rotation[2]) : 0;
    if (rotation && ![90, 180, 270, -90].includes(rotate)) {
      throw new FolioError('InvalidInput', `Page order: "${raw}" — rotation must be r90, r180 or r270.`);
    }
    try {
      for (const page of parsePageRanges(range, pageCount)) items.push({ kind: 'page', page, rotate });
    } catch (error) {
      if (error instanceof PageRangeError) throw new FolioError('InvalidInput', `Page order: ${error.message}`);
      throw error;
    }
  }
  if (items.length > MAX_LISTED_PAGES) {
    throw new FolioError(
      'InvalidInput',
      `Page order: the result would have more than ${MAX_LISTED_PAGES.toLocaleString('en')} pages, the most ` +
        `Folio makes in one document.`,
    );
  }
  if (!items.some((item) => item.kind === 'page'))
    throw new FolioError('InvalidInput', 'Page order: keep at least one page of the document.');
  return items;
}

export const run: Engine = async (inputs, options, ctx) => {
  const input = inputs.find((i) => !i.field);
  if (!input) throw new FolioError('InvalidInput', 'Please select at least one file');
  const opened = await openForAssembly(input);
  const { wasEncrypted } = opened;
  const pageCount = opened.doc.getPageCount();
  const items = parsePageOrder(String(options.pageOrder ?? ''), pageCount);

  const uses = new Map<number, number>();
  for (const item of items) if (item.kind === 'page') uses.set(item.page, (uses.get(item.page) ?? 0) + 1);
  const deleted = pageCount - uses.size;
  let bytes: Uint8Array | undefined;
  let activeNote: string | undefined;
  try {
    ({ bytes, activeNote } = await (deleted > 0 ? organizeOnQpdf : rearrangeOnQpdf)(opened, items, options, ctx));
  } catch (error) {
    if (!(error instanceof AssemblyError)) throw error;
  }
  if (!bytes) {
    // A lazily read file is opened in full: the pages are rearranged (or copied) by pdf-lib.
    const { doc } = isReadLazily(opened.doc) ? await openPdf(input) : opened;
    const active = handleActiveContent(doc, options);
    activeNote = active.note;
    bytes = deleted > 0 ? await rebuildWithout(doc, items, ctx) : await rearrangeInPlace(doc, items, uses, ctx);
  }

  const kept = items.filter((item) => item.kind === 'page').length;
  const notes = [`${pageCount} page${pageCount === 1 ? '' : 's'} in, ${items.length} out`];
  if (deleted > 0) notes.push(`${deleted} page${deleted === 1 ? '' : 's'} deleted`);
  if (kept > uses.size) notes.push(`${kept - uses.size} duplicate${kept - uses.size === 1 ? '' : 's'} added`);
  if (wasEncrypted) notes.push('The file was opened with its password; the result is not encrypted.');
  if (activeNote) notes.push(activeNote);
  return { bytes, filename: `${baseName(input.name)}-organized.pdf`, mime: 'application/pdf', notes };
};

type Ctx = Parameters<Engine>[2];

/**
 * Pages deleted, on qpdf: the kept pages (repeats allowed) and blank pages assembled into a fresh
 * document with the source's bookmarks and links that lead to kept pages. Throws AssemblyError when
 * qpdf cannot do it (the caller copies the pages with pdf-lib).
 */
async function organizeOnQpdf(opened: OpenedPdf, items: OrderItem[], options: EngineOptions, ctx: Ctx) {
  const src = opened.doc;
  const remove = removeScriptsChosen(options);
  const willCopy = new Set(items.flatMap((item) => (item.kind === 'page' ? [item.page - 1] : [])));
  const prepared = prepareSource(src, opened.bytes, 'folio0', willCopy, { removeActiveContent: remove });
  throwIfAborted(ctx.signal);

  const { runs, rotate, blanks, firstPlace } = layOut(src, items);
  const sources = [prepared.bytes];
  if (blanks.length > 0) sources.push(await blankPages(blanks));

  const bookmarks = placeBookmarks(prepared.bookmarks, (page) => firstPlace.get(page));
  const links = new Map<string, { page: number; view: string[] }>();
  for (const [name, target] of prepared.linkTargets) {
    const page = firstPlace.get(target.page);
    if (page !== undefined) links.set(name, { page, view: target.view });
  }
  const info = {
    title: src.getTitle(),
    author: src.getAuthor(),
    subject: src.getSubject(),
    keywords: src.getKeywords(),
  };
  const assembled = await assemblePages(sources, runs, bookmarks, links, { ...info, rotate });
  ctx.progress?.(items.length, items.length);

  // What belongs to the document itself never reaches the fresh one; the pages' actions were
  // scanned (and removed when asked) on the source, and the result is scanned in full only if a
  // quick look still finds a name actions use.
  const report = documentLevelActiveContent(src);
  if (!remove || prepared.activeContentRemoved) addReports(report, prepared.activeContent);
  let bytes = assembled.bytes;
  if (remove && mayHoldActiveContent(bytes)) {
    const active = await handleAssembledActiveContent(bytes, options, { documentLevelDropped: true });
    bytes = active.bytes;
    addReports(report, active.report);
  }
  return { bytes, activeNote: activeContentNote(report, remove, { documentLevelDropped: true }) };
}

interface BlankPage {
  width: number;
  height: number;
  rotation: number;
}

/**
 * The result in runs of source pages (source 0) and blank pages (source 1: page i of blankPages(blanks));
 * a blank page takes the size and rotation of the page before it (of page 1 for a leading one), as on
 * pdf-lib's path. Blank pages of one size and rotation are one page of that PDF, repeated.
 */
function layOut(src: PDFDocument, items: readonly OrderItem[]) {
  const sourcePages = src.getPages();
  const runs: Array<{ source: number; pages: number[] }> = [];
  const rotate: Array<{ page: number; angle: number }> = [];
  const blanks: BlankPage[] = [];
  const blankIndex = new Map<string, number>();
  const firstPlace = new Map<number, number>();
  let model: BlankPage = { ...sourcePages[0].getSize(), rotation: sourcePages[0].getRotation().angle };
  items.forEach((item, place) => {
    const source = item.kind === 'blank' ? 1 : 0;
    let run = runs[runs.length - 1];
    if (run?.source !== source) runs.push((run = { source, pages: [] }));
    if (item.kind === 'blank') {
      const key = `${model.width} ${model.height} ${model.rotation}`;
      let index = blankIndex.get(key);
      if (index === undefined) blankIndex.set(key, (index = blanks.push(model) - 1));
      run.pages.push(index);
      return;
    }
    const page = sourcePages[item.page - 1];
    run.pages.push(item.page - 1);
    if (!firstPlace.has(item.page - 1)) firstPlace.set(item.page - 1, place);
    if (item.rotate) rotate.push({ page: place, angle: item.rotate });
    model = { ...page.getSize(), rotation: page.getRotation().angle + item.rotate };
  });
  return { runs: runs satisfies PageRun[], rotate, blanks, firstPlace };
}

/**
 * Every page kept, on qpdf: the document's own pages rearranged in the document itself
 * (rearrangePages), so everything at document level stays, as on pdf-lib's path. The document's own
 * scripts are removed by pdf-lib's path (AssemblyError here); the pages' are cleaned on the source.
 */
async function rearrangeOnQpdf(opened: OpenedPdf, items: OrderItem[], options: EngineOptions, ctx: Ctx) {
  const src = opened.doc;
  const remove = removeScriptsChosen(options);
  const report = documentLevelActiveContent(src);
  if (remove && hasActiveContent(report)) throw new AssemblyError("The document's own scripts are to be removed");
  const cleaned = cleanSource(src, opened.bytes, { removeActiveContent: remove });
  addReports(report, cleaned.activeContent);
  throwIfAborted(ctx.signal);
  const { runs, rotate, blanks } = layOut(src, items);
  const sources = [cleaned.bytes];
  if (blanks.length > 0) sources.push(await blankPages(blanks));
  let bytes = await rearrangePages(sources, runs, rotate);
  ctx.progress?.(items.length, items.length);
  if (remove && mayHoldActiveContent(bytes)) {
    const active = await handleAssembledActiveContent(bytes, options);
    bytes = active.bytes;
    addReports(report, active.report);
  }
  return { bytes, activeNote: activeContentNote(report, remove) };
}

/** A PDF of blank pages of these sizes and rotations, for qpdf to take pages from. */
async function blankPages(sizes: readonly BlankPage[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (const { width, height, rotation } of sizes) {
    const page = doc.addPage([width, height]);
    if (rotation % 360 !== 0) rotatePageBy(page, rotation);
  }
  return doc.save({ useObjectStreams: false });
}

/** Every page kept, with pdf-lib: the document's own page list is rearranged (duplicates are copies). */
export async function rearrangeInPlace(
  doc: PDFDocument,
  items: OrderItem[],
  uses: Map<number, number>,
  ctx: Ctx,
): Promise<Uint8Array> {
  const original = doc.getPages();
  // Extra copies of duplicated pages are made before the page list is cleared (copyPages reads it).
  const spare = new Map<number, PDFPage[]>();
  for (const [page, count] of uses) {
    if (count > 1) spare.set(page, await doc.copyPages(doc, Array<number>(count - 1).fill(page - 1)));
  }

  for (let i = original.length - 1; i >= 0; i--) doc.removePage(i);
  const used = new Set<number>();
  let previous: PDFPage | undefined;
  ctx.progress?.(0, items.length);
  for (const [i, item] of items.entries()) {
    throwIfAborted(ctx.signal);
    if (item.kind === 'blank') {
      const model = previous ?? original[0];
      const { width, height } = model.getSize();
      const blank = doc.addPage([width, height]);
      blank.setRotation(model.getRotation());
      previous = blank;
    } else {
      const page = used.has(item.page) ? spare.get(item.page)!.shift()! : original[item.page - 1];
      used.add(item.page);
      doc.addPage(page);
      if (item.rotate) rotatePageBy(page, item.rotate);
      previous = page;
    }
    ctx.progress?.(i + 1, items.length);
  }
  return savePdf(doc);
}

/** Pages deleted, with pdf-lib: the kept ones are copied into a fresh document, so nothing points at a deleted page. */
export async function rebuildWithout(src: PDFDocument, items: OrderItem[], ctx: Ctx): Promise<Uint8Array> {
  const out = await PDFDocument.create({ updateMetadata: false });
  out.setProducer('Folio');
  const title = src.getTitle();
  if (title) out.setTitle(title);
  const author = src.getAuthor();
  if (author) out.setAuthor(author);
  const subject = src.getSubject();
  if (subject) out.setSubject(subject);
  const keywords = src.getKeywords();
  if (keywords) out.setKeywords([keywords]);
  const copier = new PageCopier(src, out);
  const willCopy = new Set(items.flatMap((item) => (item.kind === 'page' ? [item.page - 1] : [])));
  const sourcePages = src.getPages();
  let previous: PDFPage | undefined;
  ctx.progress?.(0, items.length);
  for (const [i, item] of items.entries()) {
    throwIfAborted(ctx.signal);
    if (item.kind === 'blank') {
      const model = previous ?? sourcePages[0];
      const { width, height } = model.getSize();
      const blank = out.addPage([width, height]);
      blank.setRotation(model.getRotation());
      previous = blank;
    } else {
      const [page] = copier.appendPages([item.page - 1], willCopy);
      if (item.rotate) rotatePageBy(page, item.rotate);
      previous = page;
    }
    ctx.progress?.(i + 1, items.length);
  }
  copier.copyFormFields();
  copier.copyLayers();
  writeOutline(out, copier.readOutline());
  return savePdf(out);
}
