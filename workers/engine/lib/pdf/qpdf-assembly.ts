/**
 * Page assembly on qpdf (`qpdf --empty --pages …`): qpdf copies the pages with the objects they use,
 * shared resources (fonts, images) once per source, form fields included, at a fraction of the memory
 * pdf-lib needs to copy them. What qpdf's --pages leaves out is added around it without loading the
 * result into pdf-lib:
 *
 * - Internal links. qpdf keeps a link's explicit destination only when its target page was copied
 *   before it (a forward link becomes null) and drops the source's named destinations. So before
 *   qpdf runs, every GoTo link of a source is given a unique named destination (an incremental update
 *   of the source, new versions of the link annotations only); links to pages that are not copied are
 *   removed. After qpdf, those names are defined in the result's /Names /Dests on the result's pages.
 * - Bookmarks. Each source's outline is read (page index + view), and written into the result by an
 *   incremental update of the result (pdf-update.ts), remapped to where its pages landed.
 *
 * Sources are read with pdf-lib one at a time by the caller and released before qpdf runs.
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFObject,
} from 'pdf-lib';
import { scanActiveContent, type ActiveContentReport } from './active-content.ts';
import { PageCopier } from './page-copy.ts';
import { isReadLazily, metDamage, openLazily } from './pdf-lazy.ts';
import { assertLooksLikePdf, openPdf, type OpenedPdf } from './pdf-open.ts';
import { savePdf } from './pdf-util.ts';
import type { EngineInput } from '../types.ts';
import { appendUpdate, updateAfter, XrefTableReader, type UpdatedObject } from './pdf-update.ts';
import { lastStartXref } from './pdf-bytes.ts';
import { runQpdf, type QpdfInput } from './qpdf.ts';
import { markLayers, OC_PROPERTIES, restoreLayers } from './optional-content.ts';

import { N } from './pdf-names.ts';

/**
 * The input read lazily (only the objects the assembly looks at are parsed), or, when that is not
 * possible (encrypted, damaged), opened by openPdf, which decrypts, repairs or explains. `bytes` are
 * what qpdf can read: the input, its decrypted or repaired copy, or pdf-lib's rewrite of a file only
 * pdf-lib could recover.
 */
export async function openForAssembly(input: EngineInput): Promise<OpenedPdf> {
  assertLooksLikePdf(input);
  const doc = openLazily(input.bytes);
  if (doc && everyPageHasSize(doc) && !metDamage(doc))
    return { doc, bytes: input.bytes, wasEncrypted: false, wasRepaired: false };
  const opened = await openPdf(input);
  if (opened.wasRepaired && opened.bytes === input.bytes) {
    return { ...opened, bytes: await savePdf(opened.doc, { objectStreams: false }) };
  }
  return opened;
}

/**
 * Whether every page states its size, itself or through its parents. qpdf copies a page without
 * one as it is (a page no reader can size but by guessing, and a /Parent loop may hide it);
 * openPdf's page-tree repair writes the size readers assume instead.
 */
function everyPageHasSize(doc: PDFDocument): boolean {
  return doc.getPages().every((page) => {
    const seen = new Set<PDFDict>();
    for (let node: PDFDict | undefined = page.node; node && !seen.has(node);) {
      if (node.has(N.MediaBox)) return true;
      seen.add(node);
      const parent: PDFObject | undefined = node.lookup(N.Parent);
      node = parent instanceof PDFDict ? parent : undefined;
    }
    return false;
  });
}

/** A place in a source: its 0-based page and the rest of the destination array, in PDF syntax. */
export interface SourceTarget {
  page: number;
  view: string[];
}

/** A bookmark of a source, its destination still as a source page. */
export interface SourceBookmark {
  title: string;
  target?: SourceTarget;
  /** A non-GoTo action without references (e.g. a web link), in PDF syntax. */
  action?: string;
  color?: string;
  flags?: string;
  open: boolean;
  children: SourceBookmark[];
}

export interface PreparedSource {
  /**
   * The source with its links renamed, as qpdf reads it: the source and its incremental update as
   * two pieces (not joined: that would be a second copy of the source for the whole job).
   */
  bytes: QpdfInput;
  pageCount: number;
  /** Named destination (given to a link) → where it points in this source. */
  linkTargets: Map<string, SourceTarget>;
  bookmarks: SourceBookmark[];
  title?: string;
  /** Scripts and actions found on the pages copied and in the bookmarks. */
  activeContent: ActiveContentReport;
  /** Whether they were removed from `bytes` (asked, and `doc` was read lazily, see prepareSource). */
  activeContentRemoved: boolean;
  /** Whether `bytes` mark layers for restoreLayers (optional-content.ts); false: the source lists none. */
  layersMarked?: boolean;
}

/** qpdf cannot assemble these sources (the caller copies the pages with pdf-lib instead). */
export class AssemblyError extends Error {}

const text = (value: PDFObject | undefined): string | undefined =>
  value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;

/** Whether an object holds no indirect reference (then it can be written into another file as it is). */
function isSelfContained(value: PDFObject, depth = 0): boolean {
  if (value instanceof PDFRef || depth > 16) return false;
  if (value instanceof PDFArray) return value.asArray().every((item) => isSelfContained(item, depth + 1));
  if (value instanceof PDFDict) return [...value.values()].every((item) => isSelfContained(item, depth + 1));
  return true;
}

/**
 * Keys not followed when collecting what qpdf copies with a page: drawing (contents, resources,
 * appearances and their icons), embedded files, metadata and the structure tree (reached from a
 * bookmark's /SE) — none of them holds actions, and some are large.
 */
const NOT_FOLLOWED = new Set(
  ['Contents', 'Resources', 'AP', 'MK', 'Thumb', 'Metadata', 'PieceInfo', 'EF', 'SE'].map((key) => PDFName.of(key)),
);
const PAGE_TREE_TYPES = new Set(['Page', 'Pages', 'Catalog'].map((type) => PDFName.of(type)));

/**
 * The indirect objects qpdf copies with these pages that may hold actions — the pages, their
 * annotations, the actions and form fields these refer to — and the outline (Folio writes the
 * bookmarks' actions into the result). Drawing (contents, resources, appearance streams) holds no
 * actions and is not read; other pages met through a reference are not entered.
 */
function objectsThatMayHoldActions(doc: PDFDocument, pageRefs: readonly PDFRef[]): Array<[PDFRef, PDFObject]> {
  const ctx = doc.context;
  const found = new Map<PDFRef, PDFObject>();
  const roots = new Set<PDFRef>(pageRefs);
  const outlines = doc.catalog.get(N.Outlines);
  const queue: PDFObject[] = [...pageRefs];
  if (outlines instanceof PDFRef) queue.push(outlines);
  while (queue.length > 0 && found.size < 1_000_000) {
    const item = queue.pop()!;
    if (item instanceof PDFRef) {
      if (found.has(item)) continue;
      const object = ctx.lookup(item);
      if (object === undefined) continue;
      const dict = object instanceof PDFStream ? object.dict : object;
      const type = dict instanceof PDFDict ? dict.get(N.Type) : undefined;
      // PDFName.of gives one object per name: names are compared as objects, not decoded per entry.
      if (!roots.has(item) && type instanceof PDFName && PAGE_TREE_TYPES.has(type)) continue;
      found.set(item, object);
      queue.push(dict);
    } else if (item instanceof PDFDict) {
      for (const [key, value] of item.entries()) if (!NOT_FOLLOWED.has(key)) queue.push(value);
    } else if (item instanceof PDFArray) {
      queue.push(...item.asArray());
    }
  }
  return [...found];
}

const latin1 = new TextDecoder('latin1');

/** A new version of an object for an incremental update (a stream's data passed on as bytes). */
function updateOf(ref: PDFRef, object: PDFObject): UpdatedObject {
  if (!(object instanceof PDFRawStream)) return { ref, body: object.toString() };
  return { ref, body: object.dict.toString(), data: object.contents };
}

/**
 * Scans what qpdf will copy from `doc` (objectsThatMayHoldActions) for scripts and actions and, with
 * `remove`, takes them out: the changed objects as new versions, removed ones as null. qpdf copies
 * only what the newest versions refer to, so the result never holds what was removed.
 */
function cleanCopiedObjects(doc: PDFDocument, pageRefs: readonly PDFRef[], remove: boolean) {
  const objects = objectsThatMayHoldActions(doc, pageRefs);
  if (!remove) return { report: scanActiveContent(doc, { remove, objects }), updates: [] };
  // The scan says which objects it changed; those it deleted (removed actions, dead links) are gone.
  const changed = new Set<PDFRef>();
  const report = scanActiveContent(doc, { remove, objects, changed });
  const updates: UpdatedObject[] = [];
  const scanned = new Set<PDFRef>();
  for (const [ref] of objects) {
    scanned.add(ref);
    const now = doc.context.lookup(ref);
    if (now === undefined) updates.push({ ref, body: 'null' });
    else if (changed.has(ref)) updates.push(updateOf(ref, now));
  }
  for (const ref of changed) {
    const now = scanned.has(ref) ? undefined : doc.context.lookup(ref);
    if (now !== undefined) updates.push(updateOf(ref, now));
  }
  return { report, updates };
}

const isSpace = (byte: number | undefined) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
const FLATE_DECODE = 'FlateDecode';
const FILTER_KEY = 'Filter';
const OBJECT_HEADER = /(\d+)\s+(\d+)\s+obj\b/g;

/** Whether `bytes` hold `text` at `at`. */
function holds(bytes: Uint8Array, at: number, text: string): boolean {
  if (at < 0 || at + text.length > bytes.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** The object whose header comes last before `at` (a dictionary is far shorter than 64 KB before its /Filter). */
function lastObjectHeader(bytes: Uint8Array, at: number): PDFRef | undefined {
  for (let span = 512; span <= 65_536; span *= 8) {
    const window = latin1.decode(bytes.subarray(Math.max(0, at - span), at));
    let header: RegExpExecArray | null = null;
    OBJECT_HEADER.lastIndex = 0;
    for (let match = OBJECT_HEADER.exec(window); match; match = OBJECT_HEADER.exec(window)) header = match;
    if (header) return PDFRef.of(Number(header[1]), Number(header[2]));
    if (at - span <= 0) return undefined;
  }
  return undefined;
}

/**
 * The objects whose dictionary holds `/Filter [/FlateDecode]` in the file's own bytes. Stream
 * dictionaries are never inside object streams, so the plain bytes show them all (a match in binary
 * data only costs a look-up that finds no such stream).
 */
function flateArrayCandidates(bytes: Uint8Array): PDFRef[] {
  const found = new Map<string, PDFRef>();
  for (let open = bytes.indexOf(0x5b); open >= 0; open = bytes.indexOf(0x5b, open + 1)) {
    let at = open + 1;
    while (isSpace(bytes[at])) at++;
    if (bytes[at] !== 0x2f || !holds(bytes, at + 1, FLATE_DECODE)) continue;
    at += 1 + FLATE_DECODE.length;
    while (isSpace(bytes[at])) at++;
    if (bytes[at] !== 0x5d) continue;
    let key = open - 1;
    while (isSpace(bytes[key])) key--;
    if (!holds(bytes, key - FILTER_KEY.length + 1, FILTER_KEY) || bytes[key - FILTER_KEY.length] !== 0x2f) continue;
    const header = lastObjectHeader(bytes, open);
    if (header) found.set(header.toString(), header);
  }
  return [...found.values()];
}

/**
 * New versions of the streams whose only filter is Flate written as a one-element array
 * (`/Filter [/FlateDecode]`, as OCRmyPDF writes page images), with the name itself: qpdf passes Flate
 * data through untouched only when /Filter is the name, and otherwise inflates and deflates it again
 * for the same bytes — for one 2400 dpi scan, as long as the rest of a 20-file merge. Data unchanged.
 */
function singleFlateFilters(doc: PDFDocument, bytes: Uint8Array): UpdatedObject[] {
  const updates: UpdatedObject[] = [];
  for (const ref of flateArrayCandidates(bytes)) {
    const stream = doc.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    const filter = stream.dict.get(N.Filter);
    if (!(filter instanceof PDFArray) || filter.size() !== 1 || filter.get(0) !== N.FlateDecode) continue;
    const parms = stream.dict.get(N.DecodeParms);
    if (parms instanceof PDFArray && parms.size() !== 1) continue;
    // Only data whose declared length pdf-lib read exactly is written again.
    const length = doc.context.lookup(stream.dict.get(N.Length));
    if (!(length instanceof PDFNumber) || length.asNumber() !== stream.contents.length) continue;
    const dict = stream.dict.clone(doc.context);
    dict.set(N.Filter, N.FlateDecode);
    dict.set(N.Length, PDFNumber.of(stream.contents.length));
    if (parms instanceof PDFArray) dict.set(N.DecodeParms, parms.get(0));
    updates.push(updateOf(ref, PDFRawStream.of(dict, stream.contents)));
  }
  return updates;
}

/**
 * Reads what qpdf will not carry (bookmarks, link targets) from `doc` and gives every GoTo link on
 * the pages in `willCopy` a named destination `<tag>-<n>`. `bytes` are the bytes `doc` was loaded from.
 * Scripts and actions on those pages and in the bookmarks are reported and, with `removeActiveContent`,
 * removed (see cleanCopiedObjects) — only from a document read lazily: one opened in full may be the
 * pdf-lib fallback's source, which must not change under it.
 */
export function prepareSource(
  doc: PDFDocument,
  bytes: Uint8Array,
  tag: string,
  willCopy: ReadonlySet<number>,
  { removeActiveContent = false } = {},
): PreparedSource {
  const ctx = doc.context;
  const resolver = new PageCopier(doc, doc);
  const pages = doc.getPages();
  const copiedRefs = [...willCopy].map((index) => pages[index]?.ref).filter((ref): ref is PDFRef => ref !== undefined);
  const activeContentRemoved = removeActiveContent && isReadLazily(doc);
  const cleaned = cleanCopiedObjects(doc, copiedRefs, activeContentRemoved);
  const viewOf = (dest: PDFArray): string[] => {
    const view: string[] = [];
    for (let i = 1; i < dest.size(); i++) view.push((ctx.lookup(dest.get(i)) ?? dest.get(i)).toString());
    return view;
  };
  const linkTargets = new Map<string, SourceTarget>();
  const updates = new Map<number, UpdatedObject>(cleaned.updates.map((update) => [update.ref.objectNumber, update]));
  const done = new Set<string>();
  let count = 0;

  for (const index of [...willCopy].sort((a, b) => a - b)) {
    const page = pages[index];
    const annots = page?.node.lookupMaybe(N.Annots, PDFArray);
    if (!annots) continue;
    const kept: PDFObject[] = [];
    let containerChanged = false;
    for (let i = 0; i < annots.size(); i++) {
      const entry = annots.get(i);
      const annot = ctx.lookup(entry);
      const key = entry instanceof PDFRef ? entry.toString() : undefined;
      if (!(annot instanceof PDFDict) || annot.lookup(N.Subtype) !== N.Link || (key && done.has(key))) {
        kept.push(entry);
        continue;
      }
      const action = annot.lookupMaybe(N.A, PDFDict);
      const rawDest = annot.get(N.Dest) ?? (action?.lookup(N.S) === N.GoTo ? action.get(N.D) : undefined);
      if (rawDest === undefined) {
        kept.push(entry); // a web link or another action: kept as it is
        continue;
      }
      const target = resolver.resolveDestination(rawDest);
      if (!target || !willCopy.has(target.index)) {
        containerChanged = true; // a link into a page left out (or nowhere) goes
        continue;
      }
      const name = `${tag}-${String(count++).padStart(6, '0')}`;
      linkTargets.set(name, { page: target.index, view: viewOf(target.dest) });
      const renamed = annot.clone(ctx);
      renamed.delete(N.A);
      renamed.set(N.Dest, PDFString.of(name));
      if (entry instanceof PDFRef) {
        done.add(key!);
        updates.set(entry.objectNumber, { ref: entry, body: renamed.toString() });
        kept.push(entry);
      } else {
        kept.push(renamed);
        containerChanged = true;
      }
    }
    if (containerChanged) {
      const list = ctx.obj(kept);
      const holder = page.node.get(N.Annots);
      if (holder instanceof PDFRef) updates.set(holder.objectNumber, { ref: holder, body: list.toString() });
      else {
        const node = page.node.clone(ctx);
        node.set(N.Annots, list);
        updates.set(page.ref.objectNumber, { ref: page.ref, body: node.toString() });
      }
    }
  }

  const readBookmarks = (first: PDFObject | undefined, seen: Set<string>, depth: number): SourceBookmark[] => {
    const nodes: SourceBookmark[] = [];
    let current = first;
    while (current && depth < 64 && seen.size < 100_000) {
      const key = current.toString();
      if (seen.has(key)) break;
      seen.add(key);
      const item = ctx.lookup(current);
      if (!(item instanceof PDFDict)) break;
      const children = readBookmarks(item.get(N.First), seen, depth + 1);
      const action = item.lookupMaybe(N.A, PDFDict);
      const rawDest = item.get(N.Dest) ?? (action?.lookup(N.S) === N.GoTo ? action.get(N.D) : undefined);
      const resolved = rawDest === undefined ? undefined : resolver.resolveDestination(rawDest);
      const target =
        resolved && willCopy.has(resolved.index) ? { page: resolved.index, view: viewOf(resolved.dest) } : undefined;
      const other = action && action.lookup(N.S) !== N.GoTo && isSelfContained(action) ? action.toString() : undefined;
      const color = item.lookup(N.C);
      const flags = item.lookup(N.F);
      if (target || other || children.length > 0) {
        nodes.push({
          title: text(item.lookup(N.Title)) ?? '',
          target,
          action: other,
          color: color && isSelfContained(color) ? color.toString() : undefined,
          flags: flags instanceof PDFNumber ? flags.toString() : undefined,
          open: (item.lookupMaybe(N.Count, PDFNumber)?.asNumber() ?? 0) > 0,
          children,
        });
      }
      current = item.get(N.Next);
    }
    return nodes;
  };
  const root = doc.catalog.lookupMaybe(N.Outlines, PDFDict);
  const bookmarks = root ? readBookmarks(root.get(N.First), new Set(), 0) : [];

  // Layers carry whether they start hidden through qpdf (optional-content.ts).
  const layerMarks = markLayers(doc);
  for (const update of [...layerMarks, ...singleFlateFilters(doc, bytes)]) {
    if (!updates.has(update.ref.objectNumber)) updates.set(update.ref.objectNumber, update);
  }

  const rootRef = ctx.trailerInfo.Root;
  if (updates.size > 0 && (!rootRef || lastStartXref(bytes) === undefined)) {
    throw new AssemblyError('The source cannot be updated');
  }
  const size = ctx.largestObjectNumber + 1;
  const patched =
    updates.size === 0
      ? bytes
      : [bytes, updateAfter(bytes, [...updates.values()], size, `/Root ${rootRef!.toString()}`)];
  return {
    bytes: patched,
    pageCount: pages.length,
    linkTargets,
    bookmarks,
    title: doc.getTitle(),
    activeContent: cleaned.report,
    activeContentRemoved,
    layersMarked: layerMarks.length > 0,
  };
}

/** A source cleaned for a rearrangement of the document itself (see rearrangePages). */
export interface CleanedSource {
  /** The source, and the cleaned objects as an incremental update (a second piece) when anything was removed. */
  bytes: QpdfInput;
  /** Scripts and actions found on the pages and in the bookmarks. */
  activeContent: ActiveContentReport;
}

/**
 * Scans (and with `removeActiveContent`, cleans) what the pages and the outline of `doc` hold, for
 * rearrangePages: its links and bookmarks stay as they are, since its pages keep their objects. Only
 * for a document read lazily (AssemblyError otherwise: the caller's pdf-lib path works on `doc`).
 */
export function cleanSource(doc: PDFDocument, bytes: Uint8Array, { removeActiveContent = false } = {}): CleanedSource {
  if (!isReadLazily(doc)) throw new AssemblyError('The source was opened in full');
  const ctx = doc.context;
  const cleaned = cleanCopiedObjects(
    doc,
    doc.getPages().map((page) => page.ref),
    removeActiveContent,
  );
  if (cleaned.updates.length === 0) return { bytes, activeContent: cleaned.report };
  const { Root, Info, ID } = ctx.trailerInfo;
  if (!Root || lastStartXref(bytes) === undefined) throw new AssemblyError('The source cannot be updated');
  // qpdf keeps this document's trailer: the update's trailer carries its /Info and /ID on.
  const trailer = [`/Root ${Root.toString()}`];
  if (Info) trailer.push(`/Info ${Info.toString()}`);
  if (ID) trailer.push(`/ID ${ID.toString()}`);
  const size = ctx.largestObjectNumber + 1;
  return {
    bytes: [bytes, updateAfter(bytes, cleaned.updates, size, trailer.join(' '))],
    activeContent: cleaned.report,
  };
}

/** One run of pages from one source, in the order of the result. */
export interface PageRun {
  /** Index into the `sources` given to assemblePages. */
  source: number;
  /** 0-based pages of that source, in order; repeats allowed. */
  pages: readonly number[];
}

/** A bookmark of the result: `target` is a place in the result (0-based page of the result). */
export interface ResultBookmark {
  title: string;
  target?: { page: number; view: string[] };
  action?: string;
  color?: string;
  flags?: string;
  open: boolean;
  children: ResultBookmark[];
}

/** Bookmarks of a source mapped onto the result, where source page p is at `placeOf(p)` (or nowhere). */
export function placeBookmarks(
  nodes: readonly SourceBookmark[],
  placeOf: (page: number) => number | undefined,
): ResultBookmark[] {
  const out: ResultBookmark[] = [];
  for (const node of nodes) {
    const children = placeBookmarks(node.children, placeOf);
    const page = node.target ? placeOf(node.target.page) : undefined;
    if (page === undefined && !node.action && children.length === 0) continue;
    out.push({
      title: node.title,
      target: page === undefined ? undefined : { page, view: node.target!.view },
      action: page === undefined ? node.action : undefined,
      color: node.color,
      flags: node.flags,
      open: node.open,
      children,
    });
  }
  return out;
}

/** qpdf's page-range text for 0-based pages: ascending and descending runs joined ("1-345,2,2,9-7"). */
export function qpdfRange(pages: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < pages.length;) {
    const step = i + 1 < pages.length && Math.abs(pages[i + 1] - pages[i]) === 1 ? pages[i + 1] - pages[i] : 0;
    let j = i;
    while (step !== 0 && j + 1 < pages.length && pages[j + 1] === pages[j] + step) j++;
    parts.push(i === j ? `${pages[i] + 1}` : `${pages[i] + 1}-${pages[j] + 1}`);
    i = j + 1;
  }
  return parts.join(',');
}

export interface AssemblyResult {
  bytes: Uint8Array;
  /** Top-level form fields of the result (qpdf carries them with their widgets). */
  formFields: number;
}

export interface CompleteOptions {
  /** Document information of the result (qpdf's --empty result has none). */
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  /**
   * Every link name given to the sources has a place in `linkTargets` (a merge of whole uses): the
   * result's pages need not be read for links to remove.
   */
  everyLinkPlaced?: boolean;
  /**
   * No source marks a layer (every PreparedSource's `layersMarked` is false): the result holds no
   * marker, and is not searched for one (a pass over the whole file).
   */
  noLayersMarked?: boolean;
}

export interface AssembleOptions extends CompleteOptions {
  /** Pages of the result (0-based) turned clockwise by a multiple of 90° (added to their /Rotate). */
  rotate?: ReadonlyArray<{ page: number; angle: number }>;
}

const LINK_NAME = /^folio\d+-\d+$/;

/**
 * Runs qpdf over the sources and adds the bookmarks and the named destinations of the links.
 * `linkTargets` maps each link name to its place in the result (0-based page + view).
 */
export async function assemblePages(
  sources: readonly QpdfInput[],
  runs: readonly PageRun[],
  bookmarks: readonly ResultBookmark[],
  linkTargets: ReadonlyMap<string, { page: number; view: string[] }>,
  options: AssembleOptions = {},
): Promise<AssemblyResult> {
  const inputs: Record<string, QpdfInput> = {};
  sources.forEach((bytes, i) => (inputs[`/in${i}.pdf`] = bytes));
  const args = ['--empty', '--object-streams=disable', ...rotateArgs(options.rotate), '--pages'];
  for (const run of runs) if (run.pages.length > 0) args.push(`/in${run.source}.pdf`, qpdfRange(run.pages));
  args.push('--', '/out.pdf');
  const result = await runQpdf(args, { inputs, outputs: ['/out.pdf'] });
  const assembled = result.files['/out.pdf'];
  // Exit 3 is "succeeded with warnings": qpdf repaired or dropped something (an object it could not
  // number, a broken stream), and its output may lack content; pdf-lib's path writes the file instead.
  if (result.exitCode !== 0 || !assembled) {
    throw new AssemblyError(`qpdf could not assemble the pages cleanly: ${result.stderr.slice(0, 300)}`);
  }
  for (const key of Object.keys(inputs)) delete inputs[key];
  const expected = runs.reduce((sum, run) => sum + run.pages.length, 0);
  return completeAssembly(assembled, expected, bookmarks, linkTargets, options);
}

/** qpdf's --rotate options for these pages of the result (qpdf numbers them in the result). */
function rotateArgs(rotate: AssembleOptions['rotate'] = []): string[] {
  const byAngle = new Map<number, number[]>();
  for (const { page, angle } of rotate) {
    const turn = ((angle % 360) + 360) % 360;
    if (turn !== 0) byAngle.set(turn, [...(byAngle.get(turn) ?? []), page]);
  }
  return [...byAngle].map(([turn, pages]) => `--rotate=+${turn}:${pages.map((page) => page + 1).join(',')}`);
}

/**
 * The pages of `sources[0]` rearranged by qpdf in that document itself (`qpdf in.pdf --pages . …`):
 * its catalog stays — bookmarks, named destinations, form, page labels (qpdf renumbers them),
 * metadata, attachments — and its pages keep their objects, so bookmarks and links still lead to
 * them (a repeated page's first use is the page itself, later ones are copies). Runs of other
 * sources (e.g. blank pages) are inserted; `rotate` turns pages of the result.
 */
export async function rearrangePages(
  sources: readonly QpdfInput[],
  runs: readonly PageRun[],
  rotate: AssembleOptions['rotate'] = [],
): Promise<Uint8Array> {
  const inputs: Record<string, QpdfInput> = {};
  sources.forEach((bytes, i) => (inputs[`/in${i}.pdf`] = bytes));
  const args = ['/in0.pdf', '--object-streams=disable', ...rotateArgs(rotate), '--pages'];
  for (const run of runs) {
    if (run.pages.length > 0) args.push(run.source === 0 ? '.' : `/in${run.source}.pdf`, qpdfRange(run.pages));
  }
  args.push('--', '/out.pdf');
  const result = await runQpdf(args, { inputs, outputs: ['/out.pdf'] });
  const rearranged = result.files['/out.pdf'];
  if (result.exitCode !== 0 || !rearranged) {
    throw new AssemblyError(`qpdf could not rearrange the pages cleanly: ${result.stderr.slice(0, 300)}`);
  }
  const expected = runs.reduce((sum, run) => sum + run.pages.length, 0);
  const found = resultPages(new XrefTableReader(rearranged)).pageRefs.length;
  if (found !== expected) throw new AssemblyError(`qpdf's result has ${found} pages instead of ${expected}`);
  return rearranged;
}

/** Pages one qpdf run splits off: a run reports nothing until it ends (20,000 pages: 20 s and more in one run). */
const PAGES_PER_SPLIT_RUN = 2_500;

/**
 * Splits `source` into parts of `size` pages with qpdf (`--split-pages`); each part as qpdf wrote it,
 * in page order (complete each with completeAssembly). Big documents are split in runs of about
 * PAGES_PER_SPLIT_RUN pages, each reported to `onWritten` (parts written so far): steady progress,
 * for the cost of reading the source once per run.
 */
export async function splitPages(
  source: QpdfInput,
  pageCount: number,
  size: number,
  onWritten?: (parts: number) => void,
): Promise<Uint8Array[]> {
  const perRun = Math.max(size, Math.floor(PAGES_PER_SPLIT_RUN / size) * size);
  const parts: Uint8Array[] = [];
  for (let from = 1; from <= pageCount; from += perRun) {
    const to = Math.min(pageCount, from + perRun - 1);
    // qpdf names each file by its pages within this run's output, padded to that output's page count.
    const runPages = to - from + 1;
    const digits = String(runPages).length;
    const pad = (n: number) => String(n).padStart(digits, '0');
    const names: string[] = [];
    for (let first = 1; first <= runPages; first += size) {
      const last = Math.min(runPages, first + size - 1);
      names.push(size === 1 ? `/part-${pad(first)}.pdf` : `/part-${pad(first)}-${pad(last)}.pdf`);
    }
    const args = ['--empty', '--object-streams=disable', `--split-pages=${size}`];
    args.push('--pages', '/in.pdf', `${from}-${to}`, '--', '/part-%d.pdf');
    const result = await runQpdf(args, { inputs: { '/in.pdf': source }, outputs: names });
    const written = names.map((name) => result.files[name]);
    if (result.exitCode !== 0 || written.some((part) => !part)) {
      throw new AssemblyError(`qpdf could not split the pages cleanly: ${result.stderr.slice(0, 300)}`);
    }
    parts.push(...written);
    onWritten?.(parts.length);
  }
  return parts;
}

/** The catalog and the pages of a file qpdf wrote (a flat page tree: /Pages /Kids lists every page). */
function resultPages(reader: XrefTableReader) {
  const rootRef = reader.trailer.get(N.Root);
  const catalog = rootRef instanceof PDFRef ? reader.object(rootRef) : undefined;
  const pagesRef = catalog instanceof PDFDict ? catalog.get(N.Pages) : undefined;
  const pagesNode = pagesRef instanceof PDFRef ? reader.object(pagesRef) : undefined;
  const kids = pagesNode instanceof PDFDict ? pagesNode.get(N.Kids) : undefined;
  const pageRefs = kids instanceof PDFArray ? kids.asArray().filter((kid): kid is PDFRef => kid instanceof PDFRef) : [];
  return { rootRef, catalog, pageRefs };
}

/**
 * Adds to a document qpdf assembled: the bookmarks, the named destinations of the links (links whose
 * name has no destination here, i.e. into pages left out, are removed) and the document information.
 * `assembled` must be a file qpdf wrote (runQpdf's `files`) that nothing else holds: the update is
 * written into its buffer's spare room when it fits (appendUpdate's `baseOwned`).
 */
export function completeAssembly(
  assembled: Uint8Array,
  expected: number,
  bookmarks: readonly ResultBookmark[],
  linkTargets: ReadonlyMap<string, { page: number; view: string[] }>,
  options: CompleteOptions = {},
): AssemblyResult {
  const reader = new XrefTableReader(assembled);
  const { rootRef, catalog, pageRefs } = resultPages(reader);
  if (!(catalog instanceof PDFDict) || !(rootRef instanceof PDFRef) || pageRefs.length !== expected) {
    throw new AssemblyError(`qpdf's result has ${pageRefs.length} pages instead of ${expected}`);
  }

  let formFields = 0;
  const acroForm = catalog.get(N.AcroForm);
  const form = acroForm instanceof PDFRef ? reader.object(acroForm) : acroForm;
  if (form instanceof PDFDict) {
    const fields = form.get(N.Fields);
    const list = fields instanceof PDFRef ? reader.object(fields) : fields;
    if (list instanceof PDFArray) formFields = list.size();
  }

  let next = reader.size;
  const objects: UpdatedObject[] = [];
  const allocate = () => PDFRef.of(next++);
  const destination = (target: { page: number; view: string[] }) =>
    `[${pageRefs[target.page].toString()} ${target.view.join(' ')}]`;

  if (!options.everyLinkPlaced) objects.push(...linksWithoutTarget(reader, pageRefs, linkTargets));
  if (linkTargets.size > 0) {
    const names = [...linkTargets.keys()].sort();
    const dests = allocate();
    const pairs = names.map((name) => `(${name}) ${destination(linkTargets.get(name)!)}`);
    objects.push({ ref: dests, body: `<< /Names [\n${pairs.join('\n')}\n] >>` });
    catalog.set(N.Names, reader.context.obj({ Dests: dests }));
  }
  if (bookmarks.length > 0) {
    const rootOutline = allocate();
    const level = writeLevel(bookmarks, rootOutline, allocate, destination, objects);
    const body = `<< /Type /Outlines /First ${level.first} /Last ${level.last} /Count ${level.visible} >>`;
    objects.push({ ref: rootOutline, body });
    catalog.set(N.Outlines, rootOutline);
    if (!catalog.get(N.PageMode)) catalog.set(N.PageMode, PDFName.of('UseOutlines'));
  }
  const layers = options.noLayersMarked ? undefined : restoreLayers(assembled, reader);
  if (layers) catalog.set(OC_PROPERTIES, layers);
  const info = allocate();
  const fields = { Title: options.title, Author: options.author, Subject: options.subject, Keywords: options.keywords };
  const given = Object.entries(fields).filter((entry): entry is [string, string] => Boolean(entry[1]));
  const infoText = given.map(([key, value]) => ` /${key} ${PDFHexString.fromText(value).toString()}`).join('');
  objects.push({ ref: info, body: `<< /Producer (Folio)${infoText} >>` });
  if (linkTargets.size > 0 || bookmarks.length > 0 || layers) objects.push({ ref: rootRef, body: catalog.toString() });
  const id = reader.trailer.get(PDFName.of('ID'));
  const trailer = `/Root ${rootRef.toString()} /Info ${info.toString()}${id ? ` /ID ${id.toString()}` : ''}`;
  // `assembled` is qpdf's written file (runQpdf's `files`), which nothing else holds.
  const bytes = appendUpdate(assembled, objects, next, trailer, { baseOwned: true });
  return { bytes, formFields };
}

/** New versions of the pages (or their /Annots arrays) without the links named for a page left out. */
function linksWithoutTarget(
  reader: XrefTableReader,
  pageRefs: readonly PDFRef[],
  linkTargets: ReadonlyMap<string, unknown>,
): UpdatedObject[] {
  const updates: UpdatedObject[] = [];
  for (const pageRef of pageRefs) {
    const page = reader.object(pageRef);
    if (!(page instanceof PDFDict)) continue;
    const holder = page.get(N.Annots);
    const annots = holder instanceof PDFRef ? reader.object(holder) : holder;
    if (!(annots instanceof PDFArray)) continue;
    const kept = annots.asArray().filter((entry) => {
      const annot = entry instanceof PDFRef ? reader.object(entry) : entry;
      if (!(annot instanceof PDFDict) || annot.get(N.Subtype) !== N.Link) return true;
      const name = text(annot.get(N.Dest));
      return name === undefined || !LINK_NAME.test(name) || linkTargets.has(name);
    });
    if (kept.length === annots.size()) continue;
    const list = reader.context.obj(kept);
    if (holder instanceof PDFRef) updates.push({ ref: holder, body: list.toString() });
    else {
      page.set(N.Annots, list);
      updates.push({ ref: pageRef, body: page.toString() });
    }
  }
  return updates;
}

function writeLevel(
  nodes: readonly ResultBookmark[],
  parent: PDFRef,
  allocate: () => PDFRef,
  destination: (target: { page: number; view: string[] }) => string,
  objects: UpdatedObject[],
): { first: PDFRef; last: PDFRef; visible: number } {
  const refs = nodes.map(() => allocate());
  let visible = 0;
  nodes.forEach((node, i) => {
    const entries = [`/Title ${PDFHexString.fromText(node.title).toString()}`, `/Parent ${parent.toString()}`];
    if (i > 0) entries.push(`/Prev ${refs[i - 1].toString()}`);
    if (i < nodes.length - 1) entries.push(`/Next ${refs[i + 1].toString()}`);
    if (node.target) entries.push(`/Dest ${destination(node.target)}`);
    else if (node.action) entries.push(`/A ${node.action}`);
    if (node.color) entries.push(`/C ${node.color}`);
    if (node.flags) entries.push(`/F ${node.flags}`);
    visible += 1;
    if (node.children.length > 0) {
      const sub = writeLevel(node.children, refs[i], allocate, destination, objects);
      // Open items count their visible descendants; closed ones the negative of their children.
      const count = node.open ? sub.visible : -node.children.length;
      entries.push(`/First ${sub.first.toString()}`, `/Last ${sub.last.toString()}`, `/Count ${count}`);
      if (node.open) visible += sub.visible;
    }
    objects.push({ ref: refs[i], body: `<< ${entries.join(' ')} >>` });
  });
  return { first: refs[0], last: refs[refs.length - 1], visible };
}
