/**
 * Text surgery for redaction: follows the text state of a content stream (ISO 32000-1 §9.3–9.4:
 * text matrix, spacing, scaling, leading, rise) and rewrites a text-showing operator without the
 * glyphs whose boxes touch an area, each replaced by a positioning gap of its width so the glyphs
 * around it stay where they were.
 */
import type { PDFDict } from 'pdf-lib';
import type { Operand } from './content-stream.ts';
import { numberOperand, operandMatrix } from './content-stream.ts';
import { fontMetrics, type FontMetrics } from './font-metrics.ts';
import { IDENTITY, boxThrough, transform, translation, type Matrix } from './matrix.ts';
import { hitsAny, overlaps, type WalkContext } from './redact-context.ts';

export interface GraphicsState {
  ctm: Matrix;
  charSpacing: number;
  wordSpacing: number;
  horizontalScale: number;
  leading: number;
  font: FontMetrics | undefined;
  /** The font's resource name and dictionary, reported for the glyphs an area removed. */
  fontName: string;
  fontDict: PDFDict | undefined;
  fontSize: number;
  rise: number;
}

export const initialGraphicsState = (ctm: Matrix): GraphicsState => ({
  ctm,
  charSpacing: 0,
  wordSpacing: 0,
  horizontalScale: 1,
  leading: 0,
  font: undefined,
  fontName: '',
  fontDict: undefined,
  fontSize: 0,
  rise: 0,
});

/** The text matrix and the text line matrix. */
export interface TextState {
  tm: Matrix;
  tlm: Matrix;
}

/** Moves to the start of the next line, offset by (tx, ty) from the current line's start. */
export function nextLine(text: TextState, tx: number, ty: number): void {
  text.tlm = transform(text.tlm, translation(tx, ty));
  text.tm = text.tlm;
}

/**
 * Applies a text-state or text-positioning operator (BT, Tm, Td, TD, T*, Tc, Tw, Tz, TL, Ts);
 * false for any other operator.
 */
export function applyTextOperator(operator: string, o: Operand[], gs: GraphicsState, text: TextState): boolean {
  switch (operator) {
    case 'BT':
      text.tm = text.tlm = IDENTITY;
      return true;
    case 'Tm': {
      const m = operandMatrix(o);
      if (m) text.tm = text.tlm = m;
      return true;
    }
    case 'Td':
      nextLine(text, numberOperand(o[0]), numberOperand(o[1]));
      return true;
    case 'TD':
      gs.leading = -numberOperand(o[1]);
      nextLine(text, numberOperand(o[0]), numberOperand(o[1]));
      return true;
    case 'T*':
      nextLine(text, 0, -gs.leading);
      return true;
    case 'Tc':
      gs.charSpacing = numberOperand(o[0]);
      return true;
    case 'Tw':
      gs.wordSpacing = numberOperand(o[0]);
      return true;
    case 'Tz':
      gs.horizontalScale = numberOperand(o[0]) / 100;
      return true;
    case 'TL':
      gs.leading = numberOperand(o[0]);
      return true;
    case 'Ts':
      gs.rise = numberOperand(o[0]);
      return true;
    default:
      return false;
  }
}

/** Splits a string operand into its character codes (1 byte, or 2 for composite fonts). */
function codesOf(bytes: Uint8Array, codeLength: 1 | 2): number[] {
  const codes: number[] = [];
  if (codeLength === 1) for (const b of bytes) codes.push(b);
  else for (let i = 0; i + 1 < bytes.length; i += 2) codes.push((bytes[i] << 8) | bytes[i + 1]);
  return codes;
}

function codeBytes(codes: number[], codeLength: 1 | 2): Uint8Array {
  const out = new Uint8Array(codes.length * codeLength);
  codes.forEach((c, i) => {
    if (codeLength === 1) out[i] = c;
    else {
      out[2 * i] = c >> 8;
      out[2 * i + 1] = c & 0xff;
    }
  });
  return out;
}

/**
 * Shows the text of one operator against the areas. Returns the TJ array to write when some
 * glyphs were removed (undefined when none were), and advances the text matrix.
 */
export function showText(
  items: Operand[],
  gs: GraphicsState,
  text: TextState,
  ctx: WalkContext,
): Operand[] | undefined {
  const font = gs.font ?? fontMetrics(ctx.doc, undefined);
  const th = gs.horizontalScale;
  const out: Operand[] = [];
  let removedAny = false;
  let pendingGap = 0;
  let kept: number[] = [];
  const flushGap = () => {
    if (pendingGap !== 0) out.push({ kind: 'number', value: pendingGap });
    pendingGap = 0;
  };
  const flushKept = () => {
    if (kept.length) out.push({ kind: 'string', bytes: codeBytes(kept, font.codeLength), hex: true });
    kept = [];
  };
  for (const item of items) {
    if (item.kind === 'number') {
      text.tm = transform(text.tm, translation((-item.value / 1000) * gs.fontSize * th, 0));
      pendingGap += item.value;
      continue;
    }
    if (item.kind !== 'string') continue;
    for (const code of codesOf(item.bytes, font.codeLength)) {
      const w0 = font.width(code);
      const trm = transform(transform(gs.ctm, text.tm), [gs.fontSize * th, 0, 0, gs.fontSize, 0, gs.rise]);
      const box = boxThrough(trm, 0, font.descent, Math.max(w0, 0.05), font.ascent);
      const wordSpace = font.codeLength === 1 && code === 32 ? gs.wordSpacing : 0;
      const advance = (w0 * gs.fontSize + gs.charSpacing + wordSpace) * th;
      if (hitsAny(box, ctx.areas)) {
        removedAny = true;
        noteRemovedGlyph(ctx, gs, box);
        if (kept.length) {
          flushGap();
          flushKept();
        }
        // A gap the width of the removed glyph keeps everything after it in place.
        if (gs.fontSize !== 0 && th !== 0) pendingGap += (-advance / th / gs.fontSize) * 1000;
      } else {
        if (pendingGap !== 0) flushKept();
        flushGap();
        kept.push(code);
      }
      text.tm = transform(text.tm, translation(advance, 0));
    }
    if (kept.length) {
      flushGap();
      flushKept();
    }
  }
  flushGap();
  return removedAny ? out : undefined;
}

/** Counts a removed glyph and, on the page itself, remembers the first font removed per area. */
function noteRemovedGlyph(
  ctx: WalkContext,
  gs: GraphicsState,
  box: { x0: number; y0: number; x1: number; y1: number },
): void {
  ctx.stats.glyphsRemoved++;
  const areaIndex = ctx.areas.findIndex((area) => overlaps(box, area));
  if (ctx.depth === 0 && gs.fontDict && !ctx.removedFonts.has(areaIndex)) {
    ctx.removedFonts.set(areaIndex, { name: gs.fontName, dict: gs.fontDict });
  }
}
