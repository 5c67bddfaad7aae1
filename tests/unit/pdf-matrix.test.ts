/** The one PDF matrix module: pdf.js's convention, checked by hand and against pdf.js's own Util. */
import { describe, expect, test } from 'vitest';
import { Util } from 'pdfjs-dist/legacy/build/pdf.mjs';
import {
  IDENTITY,
  applyTransform,
  boxThrough,
  inverseTransform,
  rotationAt,
  toMatrix,
  transform,
  translation,
  type Matrix,
} from '../../workers/engine/lib/pdf/matrix.ts';

const scale = (sx: number, sy: number): Matrix => [sx, 0, 0, sy, 0, 0];
const quarterTurn: Matrix = [0, 1, -1, 0, 0, 0]; // 90° counter-clockwise

/** Deterministic pseudo-random matrices (no flaky seeds). */
function matrices(count: number): Matrix[] {
  let state = 12345;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 30 - 1;
  };
  return Array.from({ length: count }, () => [
    next() * 3,
    next() * 3,
    next() * 3,
    next() * 3,
    next() * 500,
    next() * 500,
  ]);
}

const close = (a: number[], b: number[]) => a.forEach((v, i) => expect(v).toBeCloseTo(b[i], 9));

describe('matrix (pdf.js convention: transform(m1, m2) applies m2 first, then m1)', () => {
  test('known values: translation after scaling, and the opposite order', () => {
    // Scale by 2 first, then move by (10, 20): (1, 1) → (2, 2) → (12, 22).
    expect(transform(translation(10, 20), scale(2, 2))).toEqual([2, 0, 0, 2, 10, 20]);
    expect(applyTransform(transform(translation(10, 20), scale(2, 2)), 1, 1)).toEqual([12, 22]);
    // Move first, then scale: (1, 1) → (11, 21) → (22, 42).
    expect(transform(scale(2, 2), translation(10, 20))).toEqual([2, 0, 0, 2, 20, 40]);
    expect(applyTransform(transform(scale(2, 2), translation(10, 20)), 1, 1)).toEqual([22, 42]);
  });

  test('known values: rotation and non-uniform scale do not commute', () => {
    // Scale (2, 3) then turn: x axis → (0, 2), y axis → (-3, 0).
    expect(transform(quarterTurn, scale(2, 3))).toEqual([0, 2, -3, 0, 0, 0]);
    // Turn then scale: x axis → (0, 3), y axis → (-2, 0).
    expect(transform(scale(2, 3), quarterTurn)).toEqual([0, 3, -2, 0, 0, 0]);
    expect(applyTransform(quarterTurn, 1, 0)).toEqual([0, 1]);
  });

  test("a content stream's cm is applied inside the current CTM (ISO 32000-1 §8.4.4: CTM′ = M × CTM)", () => {
    const ctm: Matrix = [1, 0, 0, 1, 100, 200]; // the page moved the origin
    const cm: Matrix = [50, 0, 0, 40, 10, 0]; // then an image is scaled and nudged in that space
    const drawn = transform(ctm, cm);
    // The image's unit square corner (1, 1) lands at (100 + 10 + 50, 200 + 40).
    expect(applyTransform(drawn, 1, 1)).toEqual([160, 240]);
    expect(applyTransform(drawn, 0, 0)).toEqual([110, 200]);
  });

  test('agrees with pdf.js Util.transform, applyTransform and inverseTransform', () => {
    const list = matrices(40);
    for (let i = 0; i + 1 < list.length; i++) {
      const [m1, m2] = [list[i], list[i + 1]];
      close(transform(m1, m2), Util.transform(m1, m2) as number[]);
      const p = [3.5, -7.25];
      Util.applyTransform(p, m1);
      close(applyTransform(m1, 3.5, -7.25), p);
      close(inverseTransform(m1)!, Util.inverseTransform(m1) as number[]);
    }
  });

  test('inverse undoes the matrix; a singular matrix has none', () => {
    for (const m of matrices(10)) {
      close(transform(m, inverseTransform(m)!), IDENTITY);
      const [x, y] = applyTransform(m, 12, -4);
      close(applyTransform(inverseTransform(m)!, x, y), [12, -4]);
    }
    expect(inverseTransform([0, 0, 0, 0, 5, 5])).toBeUndefined();
    expect(inverseTransform([1, 2, 2, 4, 0, 0])).toBeUndefined();
  });

  test('identity is neutral and frozen; helpers', () => {
    const m: Matrix = [1, 2, 3, 4, 5, 6];
    expect(transform(IDENTITY, m)).toEqual(m);
    expect(transform(m, IDENTITY)).toEqual(m);
    expect(Object.isFrozen(IDENTITY)).toBe(true);
    close(applyTransform(rotationAt(10, 20, 90), 1, 0), [10, 21]);
    expect(toMatrix([1, 0, 0, 1, 2, 3])).toEqual([1, 0, 0, 1, 2, 3]);
    expect(toMatrix([1, 0, 0, 1, 2])).toBeUndefined();
    expect(toMatrix([1, 0, 0, 1, 2, NaN])).toBeUndefined();
    expect(toMatrix(new Float32Array([2, 0, 0, 2, 0, 0]))).toEqual([2, 0, 0, 2, 0, 0]);
    expect(boxThrough(quarterTurn, 0, 0, 2, 1)).toEqual({ x0: -1, y0: 0, x1: 0, y1: 2 });
  });
});
