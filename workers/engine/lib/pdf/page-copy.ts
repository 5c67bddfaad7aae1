/**
 * Copying pages from one PDF into another while keeping what makes them useful: internal links
 * and the outline (bookmarks). pdf-lib's copyPages copies a page and everything it references —
 * including, through a link's destination, *other* pages of the source (as orphan objects that bloat
 * the output) — and never carries the outline. Here one copier per source keeps page identities, so
 * a link or bookmark to a copied page points at its copy; named destinations are resolved to explicit
 * ones (names of two merged files would collide); links to pages that are not copied are dropped.
 *
 * Used by merge-pdf (many sources → one document) and split-pdf (one source → many parts).
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFPage,
  PDFPageLeaf,
  PDFRef,
  PDFString,
  PDFObjectCopier,
  type PDFObject,
} from 'pdf-lib';

import { N } from './pdf-names.ts';
import { addLayers, documentLayers } from './optional-content.ts';

/** Named destinations per source document, read once (split makes many copiers of one source). */
const namedDestsCache = new WeakMap<PDFDocument, Map<string, PDFObject>>();

/** A bookmark read from a source, already mapped into the destination document. */
export interface OutlineNode {
  title: string;
  /** Explicit destination in the destination document, when the target page was copied. */
  dest?: PDFArray;
  /** A non-GoTo action (e.g. a web link), copied into the destination document. */
  action?: PDFObject;
  color?: PDFObject;
  flags?: PDFObject;
  open: boolean;
  children: OutlineNode[];
}

function text(value: PDFObject | undefined): string | undefined {
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  if (value instanceof PDFName) return value.decodeText();
  return undefined;
}

/** Copies pages (and their links and bookmarks) from `src` into `dest`. One instance per (src, dest). */
export class PageCopier {
  private copier: ReturnType<typeof PDFObjectCopier.for>;
  /** Source page ref (as "n g R") → its 0-based index in the source. */
  private readonly srcIndexByRef = new Map<string, number>();
  private readonly srcPages: PDFPage[];
  /** Source page index → ref of its copy in `dest` (first copy when a page is copied twice). */
  private readonly copied = new Map<number, PDFRef>();
  private get namedDests(): Map<string, PDFObject> | undefined {
    return namedDestsCache.get(this.src);
  }
  private set namedDests(map: Map<string, PDFObject>) {
    namedDestsCache.set(this.src, map);
  }

  constructor(
    private readonly src: PDFDocument,
    private readonly dest: PDFDocument,
  ) {
    this.copier = PDFObjectCopier.for(src.context, dest.context);
    this.srcPages = src.getPages();
    this.srcPages.forEach((page, index) => this.srcIndexByRef.set(page.ref.toString(), index));
  }

  get sourcePageCount(): number {
    return this.srcPages.length;
  }

  /** Ref of the copy of source page `index` in `dest`, if it was copied. */
  copyOf(index: number): PDFRef | undefined {
    return this.copied.get(index);
  }

  /**
   * Copies source pages (0-based, in the given order) and appends them to `dest`. `willCopy` lists
   * every page that will eventually be copied from this source, so that links to pages coming in a
   * later call are kept (they resolve to the same copy).
   */
  appendPages(indices: readonly number[], willCopy: ReadonlySet<number>, onPage?: () => void): PDFPage[] {
    const pages: PDFPage[] = [];
    for (const index of indices) {
      const srcPage = this.srcPages[index];
      let ref: PDFRef;
      if (this.copied.has(index)) {
        // The same page a second time: a fresh copier so it becomes a separate page object.
        const fresh = PDFObjectCopier.for(this.src.context, this.dest.context);
        ref = this.dest.context.register(
          this.withCleanAnnots(srcPage, willCopy, () => fresh.copy(srcPage.node)) as PDFDict,
        );
      } else {
        ref = this.withCleanAnnots(srcPage, willCopy, () => this.copier.copy(srcPage.ref)) as PDFRef;
        this.copied.set(index, ref);
      }
      const node = this.dest.context.lookup(ref);
      if (!(node instanceof PDFPageLeaf)) throw new Error('Copied page is not a page');
      node.delete(N.B); // article beads chain through every page of the source
      const page = PDFPage.of(node, ref, this.dest);
      this.dest.addPage(page);
      pages.push(page);
      onPage?.();
    }
    return pages;
  }

  /**
   * Runs `copy` while the source page's /Annots is replaced by a cleaned list: links resolved to
   * explicit destinations, links to pages that are not copied left out. The source is restored after.
   */
  private withCleanAnnots<T>(page: PDFPage, willCopy: ReadonlySet<number>, copy: () => T): T {
    const annots = page.node.lookupMaybe(N.Annots, PDFArray);
    if (!annots) return copy();
    const ctx = this.src.context;
    const cleaned = ctx.obj([]) as PDFArray;
    let changed = false;
    for (let i = 0; i < annots.size(); i++) {
      const entry = annots.get(i);
      const annot = ctx.lookup(entry);
      if (!(annot instanceof PDFDict) || annot.lookup(N.Subtype) !== N.Link) {
        cleaned.push(entry);
        continue;
      }
      const action = annot.lookupMaybe(N.A, PDFDict);
      const rawDest = annot.get(N.Dest) ?? (action?.lookup(N.S) === N.GoTo ? action.get(N.D) : undefined);
      if (rawDest === undefined) {
        cleaned.push(entry); // a web link or another action: kept as it is
        continue;
      }
      // Fast path: an explicit destination on a page that is copied needs no change.
      const direct = ctx.lookup(rawDest);
      if (annot.has(N.Dest) && direct instanceof PDFArray && direct.size() > 0) {
        const first = direct.get(0);
        const index = first instanceof PDFRef ? this.srcIndexByRef.get(first.toString()) : undefined;
        if (index !== undefined && willCopy.has(index)) {
          cleaned.push(entry);
          continue;
        }
      }
      const target = this.destPageIndex(rawDest);
      changed = true;
      if (target === undefined || !willCopy.has(target.index)) continue; // link into a page left out
      const fixed = annot.clone(ctx);
      fixed.delete(N.A);
      fixed.set(N.Dest, target.dest);
      cleaned.push(ctx.register(fixed));
    }
    if (!changed) return copy();
    const original = page.node.get(N.Annots);
    page.node.set(N.Annots, cleaned);
    try {
      return copy();
    } finally {
      if (original) page.node.set(N.Annots, original);
    }
  }

  /** Resolves a destination (explicit array, name or string) to its source page index and explicit array. */
  resolveDestination(raw: PDFObject): { index: number; dest: PDFArray } | undefined {
    return this.destPageIndex(raw);
  }

  private destPageIndex(raw: PDFObject): { index: number; dest: PDFArray } | undefined {
    let value: PDFObject | undefined = this.src.context.lookup(raw);
    if (value instanceof PDFName || value instanceof PDFString || value instanceof PDFHexString) {
      value = this.lookupNamedDest(text(value) ?? '');
    }
    if (value instanceof PDFDict) value = this.src.context.lookup(value.get(N.D));
    if (!(value instanceof PDFArray) || value.size() === 0) return undefined;
    const first = value.get(0);
    let index: number | undefined;
    if (first instanceof PDFRef) index = this.srcIndexByRef.get(first.toString());
    else if (first instanceof PDFNumber) index = first.asNumber();
    if (index === undefined || index < 0 || index >= this.srcPages.length) return undefined;
    const explicit = this.src.context.obj([]) as PDFArray;
    explicit.push(this.srcPages[index].ref);
    for (let i = 1; i < value.size(); i++) explicit.push(this.src.context.lookup(value.get(i)) ?? PDFNull);
    return { index, dest: explicit };
  }

  private lookupNamedDest(name: string): PDFObject | undefined {
    if (!this.namedDests) {
      this.namedDests = new Map();
      const catalog = this.src.catalog;
      const dests = catalog.lookupMaybe(N.Dests, PDFDict);
      if (dests) for (const [key, value] of dests.entries()) this.namedDests.set(key.decodeText(), value);
      const names = catalog.lookupMaybe(N.Names, PDFDict);
      const tree = names?.lookupMaybe(N.Dests, PDFDict);
      if (tree) this.walkNameTree(tree, new Set());
    }
    const found = this.namedDests.get(name);
    return found === undefined ? undefined : this.src.context.lookup(found);
  }

  private walkNameTree(node: PDFDict, seen: Set<PDFDict>): void {
    if (seen.has(node) || seen.size > 100_000) return;
    seen.add(node);
    const names = node.lookupMaybe(N.Names, PDFArray);
    if (names) {
      for (let i = 0; i + 1 < names.size(); i += 2) {
        const key = text(this.src.context.lookup(names.get(i)));
        if (key !== undefined) this.namedDests?.set(key, names.get(i + 1));
      }
    }
    const kids = node.lookupMaybe(N.Kids, PDFArray);
    if (kids) {
      for (let i = 0; i < kids.size(); i++) {
        const kid = this.src.context.lookup(kids.get(i));
        if (kid instanceof PDFDict) this.walkNameTree(kid, seen);
      }
    }
  }

  /**
   * Carries the source's interactive form fields over (copyPages alone copies the widgets, which
   * then show but no longer work as fields): every top-level field with a widget on a copied page
   * joins the destination's /AcroForm /Fields, with the default resources and appearance. Fields of
   * two merged files keep their names (same-named fields then share a value, as in Acrobat).
   */
  copyFormFields(): number {
    const form = this.src.catalog.lookupMaybe(N.AcroForm, PDFDict);
    const fields = form?.lookupMaybe(N.Fields, PDFArray);
    if (!form || !fields || fields.size() === 0 || this.copied.size === 0) return 0;
    const copiedAnnots = new Set<string>();
    for (const index of this.copied.keys()) {
      const annots = this.srcPages[index].node.lookupMaybe(N.Annots, PDFArray);
      for (let i = 0; i < (annots?.size() ?? 0); i++) {
        const ref = annots!.get(i);
        if (ref instanceof PDFRef) copiedAnnots.add(ref.toString());
      }
    }
    const hasCopiedWidget = (ref: PDFObject, depth: number): boolean => {
      if (ref instanceof PDFRef && copiedAnnots.has(ref.toString())) return true;
      const field = this.src.context.lookup(ref);
      const kids = field instanceof PDFDict ? field.lookupMaybe(N.Kids, PDFArray) : undefined;
      if (!kids || depth > 32) return false;
      for (let i = 0; i < kids.size(); i++) if (hasCopiedWidget(kids.get(i), depth + 1)) return true;
      return false;
    };
    const destForm = this.destAcroForm(form);
    const destFields = destForm.lookupMaybe(N.Fields, PDFArray)!;
    let count = 0;
    for (let i = 0; i < fields.size(); i++) {
      const ref = fields.get(i);
      if (!hasCopiedWidget(ref, 0)) continue;
      destFields.push(this.copier.copy(ref));
      count++;
    }
    return count;
  }

  /**
   * Carries the source's layers' list and default visibility (/OCProperties) over: copying pages
   * copies the layers they use but not the catalog entry, without which a reader shows every layer,
   * hidden ones included. The layers of several sources are listed together.
   */
  copyLayers(): void {
    if (this.copied.size === 0) return;
    const layers = documentLayers(this.src).map(({ ref, hidden }) => ({ ref: this.copier.copy(ref), hidden }));
    addLayers(this.dest, layers);
  }

  /** The destination's /AcroForm, created on first use with the source's /DA and /DR (fonts merged). */
  private destAcroForm(srcForm: PDFDict): PDFDict {
    const ctx = this.dest.context;
    let destForm = this.dest.catalog.lookupMaybe(N.AcroForm, PDFDict);
    if (!destForm) {
      destForm = ctx.obj({ Fields: [] }) as PDFDict;
      this.dest.catalog.set(N.AcroForm, ctx.register(destForm));
    }
    if (!destForm.lookupMaybe(N.Fields, PDFArray)) destForm.set(N.Fields, ctx.obj([]));
    const da = srcForm.get(N.DA);
    if (da && !destForm.get(N.DA)) destForm.set(N.DA, this.copier.copy(da));
    if (srcForm.lookup(N.NeedAppearances) !== undefined)
      destForm.set(N.NeedAppearances, this.copier.copy(srcForm.lookup(N.NeedAppearances)!));
    const srcDr = srcForm.lookupMaybe(N.DR, PDFDict);
    if (srcDr) {
      const copiedDr = this.copier.copy(srcDr) as PDFDict;
      const destDr = destForm.lookupMaybe(N.DR, PDFDict);
      if (!destDr) destForm.set(N.DR, copiedDr);
      else {
        // Merge the font resources by name; a name already there keeps its first font.
        const fonts = destDr.lookupMaybe(N.Font, PDFDict);
        const more = copiedDr.lookupMaybe(N.Font, PDFDict);
        if (fonts && more) for (const [name, font] of more.entries()) if (!fonts.has(name)) fonts.set(name, font);
      }
    }
    return destForm;
  }

  /** The source's outline, mapped onto the pages copied so far; bookmarks to other pages are dropped. */
  readOutline(): OutlineNode[] {
    const root = this.src.catalog.lookupMaybe(N.Outlines, PDFDict);
    if (!root) return [];
    return this.readSiblings(root.get(N.First), new Set(), 0);
  }

  private readSiblings(firstRef: PDFObject | undefined, seen: Set<PDFObject>, depth: number): OutlineNode[] {
    const nodes: OutlineNode[] = [];
    let current = firstRef;
    while (current && !seen.has(current) && depth < 64 && seen.size < 100_000) {
      seen.add(current);
      const item = this.src.context.lookup(current);
      if (!(item instanceof PDFDict)) break;
      const node = this.readItem(item, seen, depth);
      if (node) nodes.push(node);
      current = item.get(N.Next);
    }
    return nodes;
  }

  private readItem(item: PDFDict, seen: Set<PDFObject>, depth: number): OutlineNode | undefined {
    const children = this.readSiblings(item.get(N.First), seen, depth + 1);
    const action = item.lookupMaybe(N.A, PDFDict);
    const rawDest = item.get(N.Dest) ?? (action?.lookup(N.S) === N.GoTo ? action.get(N.D) : undefined);
    let dest: PDFArray | undefined;
    if (rawDest !== undefined) {
      const target = this.destPageIndex(rawDest);
      const copy = target ? this.copied.get(target.index) : undefined;
      if (target && copy) {
        dest = this.dest.context.obj([]) as PDFArray;
        dest.push(copy);
        for (let i = 1; i < target.dest.size(); i++) dest.push(this.copier.copy(target.dest.get(i)));
      }
    }
    const otherAction = action && action.lookup(N.S) !== N.GoTo ? this.copier.copy(action) : undefined;
    if (!dest && !otherAction && children.length === 0) return undefined;
    const count = item.lookupMaybe(N.Count, PDFNumber);
    return {
      title: text(item.lookup(N.Title)) ?? '',
      dest,
      action: otherAction,
      color: item.get(N.C) ? this.copier.copy(item.lookup(N.C)!) : undefined,
      flags: item.get(N.F) ? this.copier.copy(item.lookup(N.F)!) : undefined,
      open: (count?.asNumber() ?? 0) > 0,
      children,
    };
  }
}

/**
 * The top-level bookmarks of a document with the (0-based) page each opens, in outline order;
 * bookmarks without a page in this document are left out. (split-pdf splits by chapters with it.)
 */
export function topLevelBookmarks(doc: PDFDocument): Array<{ title: string; pageIndex: number }> {
  const reader = new PageCopier(doc, doc) as unknown as {
    src: PDFDocument;
    destPageIndex(raw: PDFObject): { index: number } | undefined;
  };
  const root = doc.catalog.lookupMaybe(N.Outlines, PDFDict);
  const found: Array<{ title: string; pageIndex: number }> = [];
  const seen = new Set<PDFObject>();
  let current = root?.get(N.First);
  while (current && !seen.has(current) && seen.size < 100_000) {
    seen.add(current);
    const item = doc.context.lookup(current);
    if (!(item instanceof PDFDict)) break;
    const action = item.lookupMaybe(N.A, PDFDict);
    const rawDest = item.get(N.Dest) ?? (action?.lookup(N.S) === N.GoTo ? action.get(N.D) : undefined);
    const target = rawDest === undefined ? undefined : reader.destPageIndex(rawDest);
    if (target) found.push({ title: text(item.lookup(N.Title)) ?? '', pageIndex: target.index });
    current = item.get(N.Next);
  }
  return found;
}

/** Writes an outline tree as the document's /Outlines (replacing any), with correct links and counts. */
export function writeOutline(doc: PDFDocument, nodes: readonly OutlineNode[]): void {
  if (nodes.length === 0) return;
  const ctx = doc.context;
  const rootRef = ctx.nextRef();
  const written = writeLevel(doc, nodes, rootRef);
  const root = ctx.obj({ Type: 'Outlines', First: written.first, Last: written.last, Count: written.visible });
  ctx.assign(rootRef, root);
  doc.catalog.set(N.Outlines, rootRef);
  // Open the bookmarks panel, as the sources did when they had an outline.
  if (!doc.catalog.get(N.PageMode)) doc.catalog.set(N.PageMode, PDFName.of('UseOutlines'));
}

function writeLevel(
  doc: PDFDocument,
  nodes: readonly OutlineNode[],
  parent: PDFRef,
): { first: PDFRef; last: PDFRef; visible: number } {
  const ctx = doc.context;
  const refs = nodes.map(() => ctx.nextRef());
  let visible = 0;
  nodes.forEach((node, i) => {
    const dict = ctx.obj({}) as PDFDict;
    dict.set(N.Title, PDFHexString.fromText(node.title));
    dict.set(N.Parent, parent);
    if (i > 0) dict.set(N.Prev, refs[i - 1]);
    if (i < nodes.length - 1) dict.set(N.Next, refs[i + 1]);
    if (node.dest) dict.set(N.Dest, node.dest);
    else if (node.action) dict.set(N.A, node.action);
    if (node.color) dict.set(N.C, node.color);
    if (node.flags) dict.set(N.F, node.flags);
    visible += 1;
    if (node.children.length > 0) {
      const sub = writeLevel(doc, node.children, refs[i]);
      dict.set(N.First, sub.first);
      dict.set(N.Last, sub.last);
      // Open items count their visible descendants; closed ones the negative of their children.
      dict.set(N.Count, PDFNumber.of(node.open ? sub.visible : -node.children.length));
      if (node.open) visible += sub.visible;
    }
    ctx.assign(refs[i], dict);
  });
  return { first: refs[0], last: refs[refs.length - 1], visible };
}
