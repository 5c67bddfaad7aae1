/**
 * Small PDF helpers shared by the page tools (merge, split, rotate, organize) and free for any
 * engine to use: file names, rotation arithmetic, saving.
 */
import type { PDFDocument, PDFPage } from 'pdf-lib';
import { degrees } from 'pdf-lib';

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
export function savePdf(doc: PDFDocument, { objectStreams = true }: { objectStreams?: boolean } = {}): Promise<Uint8Array> {
  return doc.save({ useObjectStreams: objectStreams, objectsPerTick: Number.POSITIVE_INFINITY, updateFieldAppearances: false });
}
