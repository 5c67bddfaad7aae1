/**
 * PDF transformation matrices, in pdf.js's convention (src/shared/util.js `Util`), so code that
 * mixes our matrices with pdf.js's (viewport.transform, operator lists, text items) reads the same.
 *
 * A matrix [a, b, c, d, e, f] maps a point (x, y) to (a·x + c·y + e, b·x + d·y + f) (ISO 32000-1
 * §8.3.3). `transform(outer, inner)` is the matrix that applies `inner` first, then `outer`: a
 * content stream's `cm` gives `ctm = transform(ctm, cm)`, a form XObject's /Matrix gives
 * `transform(ctm, formMatrix)`, and a text item's page position is `transform(viewport, item)`.
 */

/** A PDF matrix [a b c d e f]. */
export type Matrix = [number, number, number, number, number, number];

/** Frozen: matrices are values here, never changed in place. */
export const IDENTITY: Matrix = Object.freeze([1, 0, 0, 1, 0, 0]) as unknown as Matrix;

/** `m2` applied first, then `m1` (pdf.js `Util.transform`). */
export function transform(m1: Readonly<Matrix>, m2: Readonly<Matrix>): Matrix {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}

/** The point (x, y) mapped through m (pdf.js `Util.applyTransform`). */
export function applyTransform(m: Readonly<Matrix>, x: number, y: number): [number, number] {
  return [x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]];
}

/**
 * The inverse of m (pdf.js `Util.inverseTransform`), or undefined when m is singular (a zero-size
 * scale): pdf.js would divide by zero there.
 */
export function inverseTransform(m: Readonly<Matrix>): Matrix | undefined {
  const [a, b, c, d, e, f] = m;
  const det = a * d - b * c;
  if (Math.abs(det) < 1e-12) return undefined;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

/** A translation by (tx, ty). */
export const translation = (tx: number, ty: number): Matrix => [1, 0, 0, 1, tx, ty];

/**
 * A counter-clockwise rotation by `degrees`, with the origin moved to (cx, cy): what is drawn
 * centred on (0, 0) through it appears centred on (cx, cy), turned.
 */
export function rotationAt(cx: number, cy: number, degrees: number): Matrix {
  const rad = (degrees * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  return [cos, sin, -sin, cos, cx, cy];
}

/** Six numbers as a matrix, or undefined unless there are exactly six finite ones. */
export function toMatrix(values: ArrayLike<unknown> | null | undefined): Matrix | undefined {
  if (!values || values.length !== 6) return undefined;
  const m = Array.from(values);
  return m.every((v) => typeof v === 'number' && Number.isFinite(v)) ? (m as Matrix) : undefined;
}

/** The axis-aligned bounding box of the rectangle (x0, y0)–(x1, y1) mapped through m. */
export function boxThrough(
  m: Readonly<Matrix>,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): { x0: number; y0: number; x1: number; y1: number } {
  const pts = [
    applyTransform(m, x0, y0),
    applyTransform(m, x1, y0),
    applyTransform(m, x0, y1),
    applyTransform(m, x1, y1),
  ];
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}
