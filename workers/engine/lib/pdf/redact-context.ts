/**
 * What the redaction walk (redact.ts) shares with its text surgery (redact-text.ts) and image
 * blanking (redact-image.ts): the areas, the running statistics, and area hit tests.
 */
import type { PDFDict, PDFDocument } from 'pdf-lib';
import type { FontMetrics } from './font-metrics.ts';

/** An axis-aligned area in the page's default user space (PDF points, y up). */
export interface Area {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface RedactionStats {
  glyphsRemoved: number;
  imagesBlanked: number;
  imagesRemoved: number;
  annotationsRemoved: number;
}

export interface RemovedFont {
  /** Resource name in the page's /Font dictionary, e.g. "F1". */
  name: string;
  dict: PDFDict;
}

export interface WalkContext {
  doc: PDFDocument;
  areas: Area[];
  stats: RedactionStats;
  fonts: Map<PDFDict, FontMetrics>;
  notes: Set<string>;
  /** 0 for the page's own content, 1 + the nesting level inside form XObjects. */
  depth: number;
  /** Per area index: the font of the first glyph removed there (page content only, not forms). */
  removedFonts: Map<number, RemovedFont>;
}

export function overlaps(a: Area, b: Area): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

export const hitsAny = (box: Area, areas: Area[]) => areas.some((area) => overlaps(box, area));
