/**
 * Reading the `operations` field of /api/pdf/edit (its shape: shared/edit-operations.ts): the JSON
 * checked value by value, and the view-point → PDF user space geometry the engine draws with.
 */
import { FolioError } from '../errors.ts';
import { OPERATION_TYPES, type Box, type EditOperation } from '../../../../shared/edit-operations.ts';
import type { Matrix } from './matrix.ts';

// The shape lives in shared/ (the editor writes it); engines keep importing it from here.
export { BASELINE_EM, LINE_HEIGHT_EM } from '../../../../shared/edit-operations.ts';
export type { EditOperation, FontFamily } from '../../../../shared/edit-operations.ts';

const invalid = (message: string) => new FolioError('InvalidInput', `Edit operations: ${message}`);

function finite(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(`${what} must be a number.`);
  return value;
}

function colour(value: unknown, what: string, optional = false): string | null {
  if ((value === null || value === undefined || value === '') && optional) return null;
  if (typeof value !== 'string' || !/^#[0-9a-f]{6}$/i.test(value))
    throw invalid(`${what} must be a colour like #1a2b3c.`);
  return value;
}

/** Parses and checks the JSON; page numbers are checked against the document. */
export function parseOperations(json: string, pageCount: number): EditOperation[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw invalid('the list is not valid JSON.');
  }
  const list = Array.isArray(raw) ? raw : (raw as { operations?: unknown } | null)?.operations;
  if (!Array.isArray(list)) throw invalid('expected a list of operations.');
  return list.map((item: unknown, index) => {
    const op = item as Record<string, unknown>;
    const where = `operation ${index + 1}`;
    if (!op || typeof op !== 'object' || !OPERATION_TYPES.includes(op.type as (typeof OPERATION_TYPES)[number])) {
      throw invalid(`${where} has an unknown type "${String(op?.type)}".`);
    }
    const page = finite(op.page, `${where}: page`);
    if (!Number.isInteger(page) || page < 1 || page > pageCount) {
      throw invalid(
        `${where} is on page ${page}, but the document has ${pageCount} page${pageCount === 1 ? '' : 's'}.`,
      );
    }
    for (const key of [
      'x',
      'y',
      'width',
      'height',
      'x1',
      'y1',
      'x2',
      'y2',
      'size',
      'strokeWidth',
      'opacity',
      'baseline',
    ]) {
      if (key in op && op[key] !== undefined) finite(op[key], `${where}: ${key}`);
    }
    switch (op.type) {
      case 'text':
      case 'edit-text':
        if (typeof op.text !== 'string') throw invalid(`${where}: text is missing.`);
        if (!(typeof op.size === 'number' && op.size > 0 && op.size <= 500))
          throw invalid(`${where}: size must be between 1 and 500.`);
        colour(op.color, `${where}: color`);
        if (!['sans', 'serif', 'mono'].includes(op.font as string))
          throw invalid(`${where}: font must be sans, serif or mono.`);
        break;
      case 'image':
        if (typeof op.data !== 'string' || op.data.length < 8) throw invalid(`${where}: image data is missing.`);
        break;
      case 'pen':
        if (!Array.isArray(op.points) || op.points.length < 1) throw invalid(`${where}: a pen stroke needs points.`);
        for (const p of op.points as unknown[]) {
          if (!Array.isArray(p) || p.length !== 2) throw invalid(`${where}: points must be [x, y] pairs.`);
          finite(p[0], `${where}: point`);
          finite(p[1], `${where}: point`);
        }
        colour(op.color, `${where}: color`);
        finite(op.width, `${where}: width`);
        break;
      case 'rect':
      case 'ellipse':
        colour(op.stroke, `${where}: stroke`, true);
        colour(op.fill, `${where}: fill`, true);
        break;
      case 'line':
      case 'arrow':
        colour(op.color, `${where}: color`);
        finite(op.width, `${where}: width`);
        break;
      default:
        if (op.color !== undefined) colour(op.color, `${where}: color`);
    }
    if (['image', 'rect', 'ellipse', 'highlight', 'whiteout', 'redact', 'edit-text'].includes(op.type as string)) {
      finite(op.x, `${where}: x`);
      finite(op.y, `${where}: y`);
      if (finite(op.width, `${where}: width`) < 0 || finite(op.height, `${where}: height`) < 0)
        throw invalid(`${where}: width and height cannot be negative.`);
    }
    return op as unknown as EditOperation;
  });
}

export interface PageGeometry {
  /** Crop box (what viewers show) in user space. */
  box: { x: number; y: number; width: number; height: number };
  rotation: 0 | 90 | 180 | 270;
}

/** Size of the page as displayed, in points. */
export function viewSize({ box, rotation }: PageGeometry): { width: number; height: number } {
  return rotation === 90 || rotation === 270
    ? { width: box.height, height: box.width }
    : { width: box.width, height: box.height };
}

/**
 * The matrix from "upright view space" (origin at the displayed page's bottom-left, y up, in
 * points) to PDF user space. Content drawn through it appears upright whatever /Rotate says.
 */
export function uprightToUser({ box, rotation }: PageGeometry): Matrix {
  const { x, y, width: w, height: h } = box;
  switch (rotation) {
    case 90:
      return [0, 1, -1, 0, x + w, y];
    case 180:
      return [-1, 0, 0, -1, x + w, y + h];
    case 270:
      return [0, -1, 1, 0, x, y + h];
    default:
      return [1, 0, 0, 1, x, y];
  }
}

/** A view point (y down) in PDF user space. */
export function viewToUser(geometry: PageGeometry, vx: number, vy: number): [number, number] {
  const [a, b, c, d, e, f] = uprightToUser(geometry);
  const u = vx;
  const v = viewSize(geometry).height - vy;
  return [a * u + c * v + e, b * u + d * v + f];
}

/** A view rectangle as an axis-aligned area in PDF user space. */
export function viewRectToUser(geometry: PageGeometry, rect: Box): { x0: number; y0: number; x1: number; y1: number } {
  const p = viewToUser(geometry, rect.x, rect.y);
  const q = viewToUser(geometry, rect.x + rect.width, rect.y + rect.height);
  return { x0: Math.min(p[0], q[0]), y0: Math.min(p[1], q[1]), x1: Math.max(p[0], q[0]), y1: Math.max(p[1], q[1]) };
}
