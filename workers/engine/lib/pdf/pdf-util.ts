/**
 * Small PDF helpers shared by the page tools (merge, split, rotate, organize) and free for any
 * engine to use: file names, rotation arithmetic, saving.
 */
import { PDFDocument, type PDFObject, type PDFPage } from 'pdf-lib';
import { PDFArray, PDFDict, PDFNull, PDFRef, PDFStream, degrees } from 'pdf-lib';

/** Any /Rotate value (negative, > 360, not a multiple of 90 in broken files) → 0, 90, 180 or 270. */
export function normalizeRotation(angle: number): 0 | 90 | 180 | 270 {
  const quarter = Math.round(angle / 90);
  return ((((quarter % 4) + 4) % 4) * 90) as 0 | 90 | 180 | 270;
}

/** Adds `angle` (clockwise) to the page's current rotation, inherited /Rotate included. */
export function rotatePageBy(page: PDFPage, angle: number): void {
  page.setRotation(degrees(normalizeRotation(page.getRotation().angle + angle)));
}

/**
 * Saves without pdf-lib's per-object "yield to the event loop" pauses (objectsPerTick very high):
 * in a worker nobody else needs the thread, and the pauses cost seconds on big files.
 */
export async function savePdf(
  doc: PDFDocument,
  { objectStreams = true }: { objectStreams?: boolean } = {},
): Promise<Uint8Array> {
  await compactObjectNumbers(doc);
  return doc.save({
    useObjectStreams: objectStreams,
    objectsPerTick: Number.POSITIVE_INFINITY,
    updateFieldAppearances: false,
  });
}

/** Points every reference of `object` (and the direct objects inside it) at its new number. */
function renumberInside(object: PDFObject, renumbered: Map<PDFRef, PDFRef>, done: Set<PDFObject>): void {
  // A direct object shared by two holders is renumbered once (a second pass would map new numbers again).
  const container = object instanceof PDFDict || object instanceof PDFArray || object instanceof PDFStream;
  if (!container || done.has(object)) return;
  done.add(object);
  const swap = (value: PDFObject): PDFObject => (value instanceof PDFRef ? (renumbered.get(value) ?? PDFNull) : value);
  if (object instanceof PDFStream) {
    renumberInside(object.dict, renumbered, done);
  } else if (object instanceof PDFDict) {
    for (const [key, value] of object.entries()) {
      if (value instanceof PDFRef) object.set(key, swap(value));
      else renumberInside(value, renumbered, done);
    }
  } else if (object instanceof PDFArray) {
    for (let i = 0; i < object.size(); i++) {
      const value = object.get(i);
      if (value instanceof PDFRef) object.set(i, swap(value));
      else renumberInside(value, renumbered, done);
    }
  }
}

/**
 * Raises the document's next object number above every number its objects refer to. A damaged or
 * carelessly edited file may name objects that are not in it (a page's lost content stream); a new
 * object taking such a number (a watermark's stream, a font) would silently become that content.
 * Saving then renumbers (compactObjectNumbers), and the references to missing objects become null.
 */
export function reserveReferencedNumbers(doc: PDFDocument): void {
  const { context } = doc;
  let largest = context.largestObjectNumber;
  const visit = (object: PDFObject): void => {
    if (object instanceof PDFRef) largest = Math.max(largest, object.objectNumber);
    else if (object instanceof PDFStream) visit(object.dict);
    else if (object instanceof PDFDict) for (const value of object.values()) visit(value);
    else if (object instanceof PDFArray) for (const value of object.asArray()) visit(value);
  };
  for (const [, object] of context.enumerateIndirectObjects()) visit(object);
  for (const value of Object.values(context.trailerInfo)) if (value) visit(value as PDFObject);
  context.largestObjectNumber = largest;
}

/**
 * Renumbers the objects 1…n (generation 0) before writing, when the numbers inherited from the input
 * have gaps: an input with object 2147483646 would otherwise get an xref that qpdf refuses ("integer
 * out of range") and Poppler cannot read. References to objects that do not exist become null, as
 * readers take them. Pending embeds (fonts, images) are written first, as they hold their numbers.
 * Call it right before saving: PDFPage objects keep their old numbers.
 */
export async function compactObjectNumbers(doc: PDFDocument): Promise<void> {
  const { context } = doc;
  await doc.flush();
  const objects = context.enumerateIndirectObjects();
  const compact = objects.every(([ref], i) => ref.objectNumber === i + 1 && ref.generationNumber === 0);
  if (compact && context.largestObjectNumber === objects.length) return;
  const renumbered = new Map<PDFRef, PDFRef>();
  objects.forEach(([ref], i) => renumbered.set(ref, PDFRef.of(i + 1, 0)));
  const done = new Set<PDFObject>();
  for (const [ref, object] of objects) {
    renumberInside(object, renumbered, done);
    context.delete(ref);
  }
  context.largestObjectNumber = 0;
  for (const [ref, object] of objects) context.assign(renumbered.get(ref)!, object);
  const trailer = context.trailerInfo;
  for (const key of ['Root', 'Info', 'Encrypt', 'ID'] as const) {
    const value = trailer[key];
    if (value instanceof PDFRef) trailer[key] = renumbered.get(value);
  }
}

/** A new document holding only `pages` (1-based, in the order given) of `doc`. */
export async function keepPages(doc: PDFDocument, pages: readonly number[]): Promise<PDFDocument> {
  const out = await PDFDocument.create();
  for (const page of await out.copyPages(
    doc,
    pages.map((n) => n - 1),
  ))
    out.addPage(page);
  return out;
}
