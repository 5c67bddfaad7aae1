/**
 * The object graph of a document: reading its values through references, and deleting the objects
 * nothing reaches any more, so that content an engine removed (redacted text, replaced images) is
 * not saved with the file.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, PDFStream, type PDFDocument, type PDFObject } from 'pdf-lib';

/** A number object's value, or `fallback` for anything else. */
export const numberOr = (o: PDFObject | undefined, fallback: number): number =>
  o instanceof PDFNumber ? o.asNumber() : fallback;

/** The number under `key` in a dictionary (through a reference), or undefined. */
export function numberIn(dict: PDFDict, key: string): number | undefined {
  const value = dict.lookup(PDFName.of(key));
  return value instanceof PDFNumber ? value.asNumber() : undefined;
}

/** A name object's text, or undefined for anything else. */
export const nameOf = (value: PDFObject | undefined): string | undefined =>
  value instanceof PDFName ? value.decodeText() : undefined;

/** Deletes every indirect object the document no longer reaches from its trailer. */
export function dropUnreachableObjects(doc: PDFDocument): number {
  const { context } = doc;
  const seen = new Set<PDFRef>();
  const queue: PDFObject[] = [];
  const trailer = context.trailerInfo;
  for (const root of [trailer.Root, trailer.Info, trailer.ID, trailer.Encrypt]) if (root) queue.push(root);
  while (queue.length) {
    const obj = queue.pop()!;
    if (obj instanceof PDFRef) {
      if (seen.has(obj)) continue;
      seen.add(obj);
      const target = context.lookup(obj);
      if (target) queue.push(target);
    } else if (obj instanceof PDFDict) {
      for (const [, value] of obj.entries()) queue.push(value);
    } else if (obj instanceof PDFArray) {
      queue.push(...obj.asArray());
    } else if (obj instanceof PDFStream) {
      queue.push(obj.dict);
    }
  }
  let dropped = 0;
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!seen.has(ref)) {
      context.delete(ref);
      dropped++;
    }
  }
  return dropped;
}
