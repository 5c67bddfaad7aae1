/**
 * The page tree checked before any tool walks it. pdf-lib (and pdf.js) follow /Kids and /Parent
 * recursively and trust /Count, so a crafted or broken tree — a node that lists itself, a /Parent
 * chain that loops, a negative or wrong /Count — ends in a stack overflow or a nonsense page count.
 * Here the tree is walked once, iteratively, with a visited set; when anything is wrong it is
 * rebuilt flat (as qpdf does when it flattens a tree): every page found once, in reading order,
 * with its inherited attributes written onto it and the root as its only parent. qpdf itself does
 * not repair these trees (it stops with "Loop detected in /Pages structure").
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFPageLeaf, PDFPageTree, PDFRef } from 'pdf-lib';
import type { PDFObject } from 'pdf-lib';
import { FolioError } from '../errors.ts';

const INHERITABLE = ['Resources', 'MediaBox', 'CropBox', 'Rotate'].map((key) => PDFName.of(key));
const KIDS = PDFName.of('Kids');
const PARENT = PDFName.of('Parent');
const COUNT = PDFName.of('Count');
const TYPE = PDFName.of('Type');

export interface PageTreeCheck {
  pageCount: number;
  /** What was wrong, for the result notes; empty when the tree was sound and left alone. */
  problems: string[];
}

interface Frame {
  ref: PDFRef | undefined;
  node: PDFDict;
  parentRef: PDFRef | undefined;
  /** The inherited attributes in force at this node (its own included). */
  inherited: Map<PDFName, PDFObject>;
  nextKid: number;
  pagesBelow: number;
}

const isTreeNode = (node: PDFDict) => node.lookup(KIDS) instanceof PDFArray || node.get(TYPE) === PDFName.of('Pages');

/**
 * Checks the page tree of `doc` and rebuilds it flat when it is unsound. Throws DamagedPdf when
 * no page can be found at all. Must run before anything reads the pages (pdf-lib caches them).
 */
export function checkPageTree(doc: PDFDocument, fileName: string): PageTreeCheck {
  const { context } = doc;
  if (!(doc.catalog instanceof PDFDict))
    throw new FolioError('DamagedPdf', `"${fileName}" is damaged: it has no document catalog.`);
  const rootEntry = doc.catalog.get(PDFName.of('Pages'));
  const root = context.lookup(rootEntry);
  if (!(root instanceof PDFDict)) throw new FolioError('DamagedPdf', `"${fileName}" is damaged: it has no page tree.`);

  const problems = new Set<string>();
  const visited = new Set<PDFDict>();
  const leaves: Array<{ ref: PDFRef; node: PDFDict; inherited: Map<PDFName, PDFObject> }> = [];
  const rootRef = rootEntry instanceof PDFRef ? rootEntry : undefined;
  if (root.has(PARENT)) problems.add('the page tree root has a parent');
  const inheritedAt = (node: PDFDict, from: Map<PDFName, PDFObject>) => {
    const own = new Map(from);
    for (const key of INHERITABLE) {
      const value = node.get(key);
      if (value !== undefined) own.set(key, value);
    }
    return own;
  };
  visited.add(root);
  const stack: Frame[] = [
    {
      ref: rootRef,
      node: root,
      parentRef: undefined,
      inherited: inheritedAt(root, new Map()),
      nextKid: 0,
      pagesBelow: 0,
    },
  ];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const kids = frame.node.lookup(KIDS);
    const kidCount = kids instanceof PDFArray ? kids.size() : 0;
    if (frame.nextKid >= kidCount) {
      stack.pop();
      const count = frame.node.lookup(COUNT);
      if (!(count instanceof PDFNumber) || count.asNumber() !== frame.pagesBelow) problems.add('a page count is wrong');
      if (stack.length > 0) stack[stack.length - 1].pagesBelow += frame.pagesBelow;
      continue;
    }
    const kidEntry = (kids as PDFArray).get(frame.nextKid++);
    const kid = context.lookup(kidEntry);
    if (!(kid instanceof PDFDict)) {
      problems.add('the page tree lists something that is not a page');
      continue;
    }
    if (visited.has(kid)) {
      problems.add(isTreeNode(kid) ? 'the page tree loops back on itself' : 'a page is listed twice');
      continue;
    }
    visited.add(kid);
    if (context.lookup(kid.get(PARENT)) !== frame.node) problems.add('a page names the wrong parent');
    if (isTreeNode(kid)) {
      const kidRef = kidEntry instanceof PDFRef ? kidEntry : undefined;
      stack.push({
        ref: kidRef,
        node: kid,
        parentRef: frame.ref,
        inherited: inheritedAt(kid, frame.inherited),
        nextKid: 0,
        pagesBelow: 0,
      });
      continue;
    }
    if (!(kidEntry instanceof PDFRef)) problems.add('a page is written inside the page tree');
    if (kid.get(TYPE) !== PDFName.of('Page') || !(kid instanceof PDFPageLeaf))
      problems.add('a page is not marked as a page');
    const ref = kidEntry instanceof PDFRef ? kidEntry : context.register(kid);
    leaves.push({ ref, node: kid, inherited: frame.inherited });
    frame.pagesBelow += 1;
  }
  if (!(root instanceof PDFPageTree) || !rootRef) problems.add('the page tree root is malformed');
  const MEDIA_BOX = INHERITABLE[1];
  if (leaves.some(({ node, inherited }) => !node.has(MEDIA_BOX) && !inherited.has(MEDIA_BOX)))
    problems.add('a page has no size');
  if (leaves.length === 0) {
    const where = rootRef ? ` (object ${rootRef.objectNumber} ${rootRef.generationNumber})` : '';
    const how = problems.has('the page tree loops back on itself') ? ' only loops back on itself and' : '';
    throw new FolioError('DamagedPdf', `"${fileName}" is damaged: its page tree${where}${how} holds no pages.`);
  }
  if (problems.size === 0) return { pageCount: leaves.length, problems: [] };

  // Rebuild flat: one root, every page once, inherited attributes written onto each page.
  const flatRoot = PDFPageTree.fromMapWithContext(new Map(), context);
  flatRoot.set(TYPE, PDFName.of('Pages'));
  const newRootRef = rootRef ?? context.nextRef();
  const kidRefs = PDFArray.withContext(context);
  for (const { ref, node, inherited } of leaves) {
    const leaf = node instanceof PDFPageLeaf ? node : PDFPageLeaf.fromMapWithContext(new Map(node.entries()), context);
    for (const [key, value] of inherited) if (!leaf.has(key)) leaf.set(key, value);
    // US Letter, as readers assume for a page that states no size.
    if (!leaf.has(MEDIA_BOX)) leaf.set(MEDIA_BOX, context.obj([0, 0, 612, 792]));
    leaf.set(TYPE, PDFName.of('Page'));
    leaf.set(PARENT, newRootRef);
    context.assign(ref, leaf);
    kidRefs.push(ref);
  }
  flatRoot.set(KIDS, kidRefs);
  flatRoot.set(COUNT, PDFNumber.of(leaves.length));
  context.assign(newRootRef, flatRoot);
  doc.catalog.set(PDFName.of('Pages'), newRootRef);
  return { pageCount: leaves.length, problems: [...problems] };
}
