/**
 * CIE L*a*b* image samples (a PDF /Lab colour space) to sRGB, so that Compress can recompress Lab
 * images as RGB JPEGs. Standard CIE formulas: Lab → XYZ relative to the colour space's white point,
 * Bradford adaptation to D65, the sRGB matrix and transfer curve. Pure, no PDF objects: it runs in
 * the image workers.
 */

/** What a /Lab colour space dictionary says (PDF 32000-1, 8.6.5.4). */
export interface LabParams {
  /** /WhitePoint [Xw Yw Zw] (Yw is 1). */
  whitePoint: [number, number, number];
  /** /Range [amin amax bmin bmax]; [-100 100 -100 100] when absent. */
  range: [number, number, number, number];
}

export const DEFAULT_LAB_RANGE: LabParams['range'] = [-100, 100, -100, 100];

const D65: [number, number, number] = [0.95047, 1, 1.08883];

type Matrix = [number, number, number, number, number, number, number, number, number];

const BRADFORD: Matrix = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296];
const BRADFORD_INVERSE: Matrix = [
  0.9869929, -0.1470543, 0.1599627, 0.4323053, 0.5183603, 0.0492912, -0.0085287, 0.0400428, 0.9684867,
];
/** XYZ (D65) to linear sRGB (IEC 61966-2-1). */
const XYZ_TO_SRGB: Matrix = [
  3.2404542, -1.5371385, -0.4985314, -0.969266, 1.8760108, 0.041556, 0.0556434, -0.2040259, 1.0572252,
];

function multiply(a: Matrix, b: Matrix): Matrix {
  const out = new Array<number>(9);
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) out[r * 3 + c] = a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c];
  return out as Matrix;
}

function apply(m: Matrix, [x, y, z]: [number, number, number]): [number, number, number] {
  return [m[0] * x + m[1] * y + m[2] * z, m[3] * x + m[4] * y + m[5] * z, m[6] * x + m[7] * y + m[8] * z];
}

/** XYZ relative to `white` → linear sRGB: Bradford from `white` to D65, then the sRGB matrix. */
export function xyzToLinearSrgbMatrix(white: [number, number, number]): Matrix {
  const source = apply(BRADFORD, white);
  const target = apply(BRADFORD, D65);
  const scale: Matrix = [target[0] / source[0], 0, 0, 0, target[1] / source[1], 0, 0, 0, target[2] / source[2]];
  return multiply(XYZ_TO_SRGB, multiply(BRADFORD_INVERSE, multiply(scale, BRADFORD)));
}

const GAMMA_STEPS = 4096;
/** Linear light in [0, 1] (in GAMMA_STEPS steps) to 8-bit sRGB. */
const SRGB_ENCODE = Uint8ClampedArray.from({ length: GAMMA_STEPS + 1 }, (_, i) => {
  const v = i / GAMMA_STEPS;
  return Math.round(255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055));
});

/** The inverse of CIE's f(t): t³ above (6/29)³, linear below. */
function finverse(t: number): number {
  return t > 6 / 29 ? t * t * t : 3 * (6 / 29) ** 2 * (t - 4 / 29);
}

/**
 * Turns RGBA pixels whose R, G, B hold 8-bit Lab samples (L* over 0–100, a* and b* over /Range)
 * into sRGB, in place. Alpha is left as it is.
 */
export function labToSrgb(data: Uint8ClampedArray, { whitePoint, range }: LabParams): void {
  const [amin, amax, bmin, bmax] = range;
  // f(Y) from the L sample; the a and b samples' shares of f(X) and f(Z).
  const fy = Float64Array.from({ length: 256 }, (_, s) => ((s * 100) / 255 + 16) / 116);
  const fa = Float64Array.from({ length: 256 }, (_, s) => (amin + (s * (amax - amin)) / 255) / 500);
  const fb = Float64Array.from({ length: 256 }, (_, s) => (bmin + (s * (bmax - bmin)) / 255) / 200);
  const m = xyzToLinearSrgbMatrix(whitePoint);
  const [xw, yw, zw] = whitePoint;
  const encode = (linear: number) => SRGB_ENCODE[Math.round(Math.min(1, Math.max(0, linear)) * GAMMA_STEPS)];
  for (let o = 0; o < data.length; o += 4) {
    const f = fy[data[o]];
    const x = xw * finverse(f + fa[data[o + 1]]);
    const y = yw * finverse(f);
    const z = zw * finverse(f - fb[data[o + 2]]);
    data[o] = encode(m[0] * x + m[1] * y + m[2] * z);
    data[o + 1] = encode(m[3] * x + m[4] * y + m[5] * z);
    data[o + 2] = encode(m[6] * x + m[7] * y + m[8] * z);
  }
}
