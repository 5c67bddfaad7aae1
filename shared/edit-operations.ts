/**
 * The `operations` field of /api/pdf/edit: what the page editor (src/tool-ui/editor/) produced,
 * as JSON: its shape, shared by the editor (which writes it) and the engine (which checks and applies
 * it: workers/engine/lib/pdf/edit-operations.ts).
 *
 * Coordinates are "view points": the page as it is displayed (its /Rotate applied), at 72 points
 * per inch, origin at the top-left corner of the visible page (the crop box), y growing downwards
 * — exactly pdf.js's `page.getViewport({ scale: 1 })`. The engine maps them to PDF user space.
 */
export type FontFamily = 'sans' | 'serif' | 'mono';

interface OnPage {
  /** 1-based page number. */
  page: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TextOperation extends OnPage {
  type: 'text';
  /** Top-left corner of the text box. */
  x: number;
  y: number;
  text: string;
  size: number;
  color: string;
  font: FontFamily;
  bold?: boolean;
  italic?: boolean;
  opacity?: number;
}

export interface ImageOperation extends OnPage, Box {
  type: 'image';
  /** Base64 of the JPEG or PNG bytes (a data: URL prefix is accepted). */
  data: string;
  opacity?: number;
}

export interface PenOperation extends OnPage {
  type: 'pen';
  points: Array<[number, number]>;
  color: string;
  width: number;
  opacity?: number;
}

export interface ShapeOperation extends OnPage, Box {
  type: 'rect' | 'ellipse';
  /** Colours as #rrggbb; null or absent for none. */
  stroke?: string | null;
  fill?: string | null;
  strokeWidth?: number;
  opacity?: number;
}

export interface LineOperation extends OnPage {
  type: 'line' | 'arrow';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  color: string;
  width: number;
  opacity?: number;
}

export interface AreaOperation extends OnPage, Box {
  type: 'highlight' | 'whiteout' | 'redact';
  color?: string;
}

/**
 * Replaces existing text: the original glyphs inside the box are removed from the content (as
 * redaction does, without the black box) and `text` is written in their place.
 */
export interface EditTextOperation extends OnPage, Box {
  type: 'edit-text';
  text: string;
  size: number;
  color: string;
  font: FontFamily;
  bold?: boolean;
  italic?: boolean;
  /** Baseline of the first line (view y); default: derived from the box. */
  baseline?: number;
}

export type EditOperation =
  TextOperation | ImageOperation | PenOperation | ShapeOperation | LineOperation | AreaOperation | EditTextOperation;

export const OPERATION_TYPES = [
  'text',
  'image',
  'pen',
  'rect',
  'ellipse',
  'line',
  'arrow',
  'highlight',
  'whiteout',
  'redact',
  'edit-text',
] as const;

/** Where the first baseline sits below the top of a text box, in ems (matches CSS line-height 1.2). */
export const BASELINE_EM: Record<FontFamily, number> = { sans: 0.95, serif: 0.94, mono: 0.87 };
export const LINE_HEIGHT_EM = 1.2;
