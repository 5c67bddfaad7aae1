/**
 * Right-to-left text (Arabic, Hebrew) in Office → PDF: the Unicode bidirectional algorithm (UAX #9,
 * bidi-js) gives every character of a paragraph an embedding level; lines are broken on the logical
 * text, then each line's pieces are put in visual order (rule L2) and right-to-left pieces are drawn
 * reversed with mirrored brackets. fontkit (behind pdf-lib's embedded fonts) already shapes Arabic
 * and reverses the glyphs of any string whose first script is right-to-left, so such a string is
 * handed over in logical order; every other string is reversed here when its level says so.
 */
import bidiFactory from 'bidi-js';
import type { TableRow } from './model.ts';

const bidi = bidiFactory();

/** Characters of the right-to-left scripts, and the first strong character's direction. */
const RTL_CHAR = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
const STRONG = /[\p{L}\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;

/** Whether a text has a character of a right-to-left script (its lines then need the bidi pass). */
export function hasRtl(text: string): boolean {
  return RTL_CHAR.test(text);
}

/** The direction of a text's first strong (letter) character, as UAX #9's rules P2–P3 choose it. */
export function firstStrongDirection(text: string): 'rtl' | 'ltr' | undefined {
  const match = STRONG.exec(text);
  if (!match) return undefined;
  const type = bidi.getBidiCharTypeName(match[0]);
  return type === 'R' || type === 'AL' ? 'rtl' : type === 'L' ? 'ltr' : undefined;
}

export interface ParagraphLevels {
  /** 0 for a left-to-right paragraph, 1 for right-to-left. */
  paragraphLevel: number;
  /** Embedding level of each UTF-16 code unit of the paragraph's logical text. */
  levels: Uint8Array;
}

/**
 * Embedding levels of a paragraph's logical text; `direction` undefined lets the first strong
 * character decide (rules P2–P3). Undefined when nothing in it is right-to-left: every level is 0.
 */
export function paragraphLevels(text: string, direction: 'rtl' | 'ltr' | undefined): ParagraphLevels | undefined {
  if (direction !== 'rtl' && !hasRtl(text)) return undefined;
  // A paragraph separator inside would start a second bidi paragraph with its own direction.
  const flat = text.replace(/[\n\r\u0085\u2029]/g, ' ');
  const result = bidi.getEmbeddingLevels(flat, direction ?? 'auto');
  return { paragraphLevel: result.paragraphs[0]?.level ?? 0, levels: result.levels };
}

/** A text cut where its embedding level changes: [piece, level] in logical order. */
export function splitByLevel(text: string, levels: Uint8Array, offset: number): Array<[string, number]> {
  const pieces: Array<[string, number]> = [];
  let index = 0;
  for (const char of text) {
    const level = levels[offset + index] ?? 0;
    const last = pieces.at(-1);
    if (last && last[1] === level) last[0] += char;
    else pieces.push([char, level]);
    index += char.length;
  }
  return pieces;
}

/**
 * The visual order of a line's pieces from their levels (UAX #9 rule L2): from the highest level
 * down to the lowest odd one, every run of pieces at that level or above is reversed.
 */
export function visualOrder(levels: number[]): number[] {
  const order = levels.map((_, i) => i);
  const highest = Math.max(0, ...levels);
  const lowestOdd = Math.min(...levels.map((l) => (l % 2 ? l : l + 1)));
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < order.length;) {
      if (levels[order[i]] < level) {
        i++;
        continue;
      }
      let end = i;
      while (end < order.length && levels[order[end]] >= level) end++;
      order.splice(i, end - i, ...order.slice(i, end).reverse());
      i = end;
    }
  }
  return order;
}

/** Scripts fontkit lays out right to left, reversing the glyphs itself (its first script decides). */
const FONTKIT_RTL = /^[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]$/u;
const SCRIPT_NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;

/** Whether fontkit lays a text out right to left and reverses it: an Arabic or Hebrew word. */
export function fontkitReverses(text: string): boolean {
  for (const char of text) if (!SCRIPT_NEUTRAL.test(char)) return FONTKIT_RTL.test(char);
  return false;
}

/** Characters with the marks that follow them, so a reversed text keeps each mark on its letter. */
function clusters(text: string): string[] {
  return text.match(/\P{M}\p{M}*|\p{M}+/gu) ?? [];
}

/**
 * The string to draw for a piece of text at an embedding level, such that the glyphs come out in
 * visual order: a right-to-left piece with its brackets mirrored, reversed unless fontkit reverses it;
 * a left-to-right piece fontkit would reverse (Arabic-Indic digits) reversed first, so they read back.
 */
export function visualText(text: string, level: number): string {
  const rtl = level % 2 === 1;
  const mirrored = rtl ? [...text].map((c) => bidi.getMirroredCharacter(c) ?? c).join('') : text;
  return rtl === fontkitReverses(text) ? mirrored : clusters(mirrored).reverse().join('');
}

/** Whether a right-to-left piece has a character drawn as its mirror image ("(" as ")"). */
export function hasMirrored(text: string, level: number): boolean {
  return level % 2 === 1 && [...text].some((c) => bidi.getMirroredCharacter(c) !== null);
}

/** Whether a text must be drawn on its own (not joined to the next word's string): see visualText. */
export function drawnAlone(text: string, level: number): boolean {
  return level % 2 === 1 || fontkitReverses(text);
}

/**
 * A table laid out right to left (Word's w:bidiVisual, a sheet's rightToLeft): the first column at
 * the right. Columns are reversed, each cell moves to its mirrored grid column, and its left and
 * right borders and paddings swap, so a logical "left" border is drawn on the right (ISO 29500
 * §17.4.1). A drawing anchored on a row keeps its place from its column's other edge. The rows are
 * changed in place; the reversed column widths are returned.
 */
export function mirrorColumns(widths: number[], rows: TableRow[]): number[] {
  const count = widths.length;
  for (const row of rows) {
    for (const cell of row.cells) {
      cell.column = Math.max(0, count - cell.column - cell.colSpan);
      cell.borders = { ...cell.borders, left: cell.borders.right, right: cell.borders.left };
      cell.padding = { ...cell.padding, left: cell.padding.right, right: cell.padding.left };
    }
    row.cells.reverse();
    row.overlays = row.overlays?.map((o) => ({
      ...o,
      column: count - 1 - o.column,
      x: (widths[o.column] ?? 0) - o.x - o.drawing.width,
    }));
  }
  return [...widths].reverse();
}
