/**
 * Colour notations and WCAG 2.x contrast for the colour picker. Channels are 0–255 integers;
 * HSL/HSV/CMYK are shown rounded to whole degrees and percents.
 */

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** Accepts #RRGGBB and #RGB (the '#' optional, any case); null for anything else. */
export function parseHex(text: string): Rgb | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim());
  if (!match) return null;
  let hex = match[1];
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  const value = parseInt(hex, 16);
  return { r: (value >> 16) & 255, g: (value >> 8) & 255, b: value & 255 };
}

export function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`.toUpperCase();
}

export function rgbToHsl({ r, g, b }: Rgb): { h: number; s: number; l: number } {
  const [rr, gg, bb] = [r / 255, g / 255, b / 255];
  const max = Math.max(rr, gg, bb);
  const min = Math.min(rr, gg, bb);
  const l = (max + min) / 2;
  const delta = max - min;
  const s = delta === 0 ? 0 : delta / (1 - Math.abs(2 * l - 1));
  return { h: hue(rr, gg, bb, max, delta), s: s * 100, l: l * 100 };
}

export function rgbToHsv({ r, g, b }: Rgb): { h: number; s: number; v: number } {
  const [rr, gg, bb] = [r / 255, g / 255, b / 255];
  const max = Math.max(rr, gg, bb);
  const delta = max - Math.min(rr, gg, bb);
  return { h: hue(rr, gg, bb, max, delta), s: max === 0 ? 0 : (delta / max) * 100, v: max * 100 };
}

function hue(r: number, g: number, b: number, max: number, delta: number): number {
  if (delta === 0) return 0;
  let h: number;
  if (max === r) h = ((g - b) / delta) % 6;
  else if (max === g) h = (b - r) / delta + 2;
  else h = (r - g) / delta + 4;
  h *= 60;
  return h < 0 ? h + 360 : h;
}

/** Naive (device-independent) CMYK, percentages. */
export function rgbToCmyk({ r, g, b }: Rgb): { c: number; m: number; y: number; k: number } {
  const [rr, gg, bb] = [r / 255, g / 255, b / 255];
  const k = 1 - Math.max(rr, gg, bb);
  if (k === 1) return { c: 0, m: 0, y: 0, k: 100 };
  return {
    c: ((1 - rr - k) / (1 - k)) * 100,
    m: ((1 - gg - k) / (1 - k)) * 100,
    y: ((1 - bb - k) / (1 - k)) * 100,
    k: k * 100,
  };
}

/** Whole degrees; 359.6 rounds to 0, not 360. */
const degrees = (n: number) => Math.round(n) % 360;
const pct = (n: number) => Math.round(n);

export interface ColorNotations {
  hex: string;
  rgb: string;
  hsl: string;
  hsv: string;
  cmyk: string;
}

export function colorNotations(color: Rgb): ColorNotations {
  const hsl = rgbToHsl(color);
  const hsv = rgbToHsv(color);
  const cmyk = rgbToCmyk(color);
  return {
    hex: toHex(color),
    rgb: `rgb(${color.r}, ${color.g}, ${color.b})`,
    hsl: `hsl(${degrees(hsl.h)}, ${pct(hsl.s)}%, ${pct(hsl.l)}%)`,
    hsv: `hsv(${degrees(hsv.h)}, ${pct(hsv.s)}%, ${pct(hsv.v)}%)`,
    cmyk: `cmyk(${pct(cmyk.c)}%, ${pct(cmyk.m)}%, ${pct(cmyk.y)}%, ${pct(cmyk.k)}%)`,
  };
}

/** WCAG 2.x relative luminance (sRGB linearised). */
export function relativeLuminance({ r, g, b }: Rgb): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio, 1–21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export interface ContrastVerdict {
  ratio: number;
  /** Ratio shown to two decimals, truncated (never rounded up into a pass): "4.48". */
  ratioText: string;
  aaNormal: boolean;
  aaLarge: boolean;
  aaaNormal: boolean;
  aaaLarge: boolean;
}

export function contrastVerdict(a: Rgb, b: Rgb): ContrastVerdict {
  const ratio = contrastRatio(a, b);
  return {
    ratio,
    ratioText: (Math.floor(ratio * 100) / 100).toFixed(2),
    aaNormal: ratio >= 4.5,
    aaLarge: ratio >= 3,
    aaaNormal: ratio >= 7,
    aaaLarge: ratio >= 4.5,
  };
}

export const WHITE: Rgb = { r: 255, g: 255, b: 255 };
export const BLACK: Rgb = { r: 0, g: 0, b: 0 };
