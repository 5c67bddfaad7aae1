/**
 * Excel conditional formatting, evaluated on the cells' values the way Excel shows it (ECMA-376
 * Part 1, 18.3.1.10): "cell is" comparisons with constants or absolute cell references, text rules
 * (contains, does not contain, begins with, ends with), top/bottom N (or N %), above/below average,
 * two- and three-colour scales and data bars. Rules apply in priority order; a rule of higher
 * priority wins for each property it sets, and "stop if true" ends the list for that cell. Rules on
 * formulas (type "expression") need a formula engine and are left out, with a note.
 */
import type ExcelJS from 'exceljs';
import { SINGLE_UNDERLINE, underlineOfKind, type Rgb, type Underline } from './model.ts';
import { excelColor, type ExcelColor, type ExcelPalette } from './xlsx-colors.ts';
import { cellRange, columnNumber, type CellRange } from './cell-refs.ts';

/** What conditional formats change in a cell's look. */
export interface ConditionalLook {
  fill?: Rgb;
  color?: Rgb;
  bold?: boolean;
  italic?: boolean;
  /** false: the rule takes a cell's underline away. */
  underline?: Underline | false;
  strike?: boolean;
  /** A data bar: the cell's fraction drawn in `color` from its left edge. */
  bar?: { fraction: number; color: Rgb };
}

type Value = number | string | undefined;

/** ExcelJS's font.underline: true, 'single', 'double', 'singleAccounting', 'doubleAccounting' or 'none'. */
export function excelUnderline(value: boolean | string | undefined): Underline | undefined {
  return typeof value === 'string' ? underlineOfKind(value) : value ? SINGLE_UNDERLINE : undefined;
}

interface Rule {
  type: string;
  operator?: string;
  priority?: number;
  formulae?: string[];
  text?: string;
  rank?: number;
  percent?: boolean;
  bottom?: boolean;
  aboveAverage?: boolean;
  stopIfTrue?: boolean;
  cfvo?: Array<{ type: string; value?: number | string }>;
  color?: ExcelColor | ExcelColor[];
  style?: {
    fill?: { bgColor?: ExcelColor; fgColor?: ExcelColor } | null;
    font?: {
      color?: ExcelColor;
      bold?: boolean;
      italic?: boolean;
      underline?: boolean | string;
      strike?: boolean;
    } | null;
  };
}

/** A rule's cells: its space-separated ranges. */
function ranges(ref: string): CellRange[] {
  return ref
    .split(/\s+/)
    .map(cellRange)
    .filter((range): range is CellRange => Boolean(range));
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

/**
 * The conditional looks of a sheet's cells, by "row:column" (1-based), within `printed` (a rule on
 * whole columns or the whole sheet is only evaluated where the sheet has cells to print). `valueOf`
 * gives a cell's value (a number, or its display text); `notes` hears about rules that were left out.
 */
export function conditionalLooks(
  ws: ExcelJS.Worksheet,
  palette: ExcelPalette,
  printed: CellRange,
  valueOf: (row: number, column: number) => Value,
  notes: { add(note: string): void },
): Map<string, ConditionalLook> {
  const looks = new Map<string, ConditionalLook>();
  const stopped = new Set<string>();
  const formats = (
    (ws as unknown as { conditionalFormattings?: Array<{ ref: string; rules: Rule[] }> }).conditionalFormattings ?? []
  )
    .flatMap((format) => format.rules.map((rule) => ({ ref: format.ref, rule })))
    .sort((a, b) => (a.rule.priority ?? 0) - (b.rule.priority ?? 0));

  for (const { ref, rule } of formats) {
    const cells: Array<{ key: string; value: Value }> = [];
    for (const range of ranges(ref)) {
      for (let r = Math.max(range.top, printed.top); r <= Math.min(range.bottom, printed.bottom); r++) {
        for (let c = Math.max(range.left, printed.left); c <= Math.min(range.right, printed.right); c++)
          cells.push({ key: `${r}:${c}`, value: valueOf(r, c) });
      }
    }
    const numbers = cells.map((cell) => cell.value).filter((v): v is number => typeof v === 'number');
    const test = matcher(rule, numbers, valueOf);
    if (rule.type === 'colorScale' || rule.type === 'dataBar') {
      if (!numbers.length) continue;
      const bounds = (rule.cfvo ?? []).map((cfvo, i) => threshold(cfvo, numbers, i === 0 ? 'min' : 'max'));
      const colors = (Array.isArray(rule.color) ? rule.color : rule.color ? [rule.color] : []).map((c) =>
        excelColor(c, palette),
      );
      for (const cell of cells) {
        if (typeof cell.value !== 'number' || stopped.has(cell.key)) continue;
        const look = looks.get(cell.key) ?? {};
        if (
          rule.type === 'colorScale' &&
          look.fill === undefined &&
          colors.length >= 2 &&
          colors.every(Boolean) &&
          bounds.length === colors.length
        ) {
          look.fill = scaleColor(cell.value, bounds, colors as Rgb[]);
        } else if (rule.type === 'dataBar' && !look.bar && colors[0] && bounds.length >= 2) {
          const [low, high] = [bounds[0], bounds[bounds.length - 1]];
          look.bar = {
            fraction: high > low ? Math.min(1, Math.max(0.1, (cell.value - low) / (high - low))) : 1,
            color: colors[0],
          };
        }
        looks.set(cell.key, look);
      }
      continue;
    }
    if (!test) {
      notes.add(`conditional formats of type "${rule.type}" were not applied`);
      continue;
    }
    const style = rule.style ?? {};
    const fill = style.fill ? excelColor(style.fill.bgColor ?? style.fill.fgColor, palette) : undefined;
    const font = style.font ?? {};
    for (const cell of cells) {
      if (stopped.has(cell.key) || !test(cell.value)) continue;
      const look = looks.get(cell.key) ?? {};
      if (fill && look.fill === undefined) look.fill = fill;
      const color = excelColor(font.color, palette);
      if (color && look.color === undefined) look.color = color;
      if (font.bold !== undefined && look.bold === undefined) look.bold = font.bold;
      if (font.italic !== undefined && look.italic === undefined) look.italic = font.italic;
      if (font.underline !== undefined && look.underline === undefined)
        look.underline = excelUnderline(font.underline) ?? false;
      if (font.strike !== undefined && look.strike === undefined) look.strike = font.strike;
      looks.set(cell.key, look);
      if (rule.stopIfTrue) stopped.add(cell.key);
    }
  }
  return looks;
}

/** A colour-scale or data-bar threshold: min, max, a number, a percent or percentile of the range. */
function threshold(
  cfvo: { type: string; value?: number | string },
  numbers: number[],
  fallback: 'min' | 'max',
): number {
  const min = Math.min(...numbers),
    max = Math.max(...numbers);
  const value = Number(cfvo.value);
  switch (cfvo.type) {
    case 'num':
      return Number.isFinite(value) ? value : fallback === 'min' ? min : max;
    case 'percent':
      return min + ((max - min) * (Number.isFinite(value) ? value : 50)) / 100;
    case 'percentile': {
      const sorted = [...numbers].sort((a, b) => a - b);
      const at = ((Number.isFinite(value) ? value : 50) / 100) * (sorted.length - 1);
      const lo = Math.floor(at);
      return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (at - lo);
    }
    case 'min':
      return min;
    case 'max':
      return max;
    default:
      return fallback === 'min' ? min : max;
  }
}

function scaleColor(value: number, bounds: number[], colors: Rgb[]): Rgb {
  if (value <= bounds[0]) return colors[0];
  for (let i = 1; i < bounds.length; i++) {
    if (value <= bounds[i])
      return mix(
        colors[i - 1],
        colors[i],
        bounds[i] > bounds[i - 1] ? (value - bounds[i - 1]) / (bounds[i] - bounds[i - 1]) : 1,
      );
  }
  return colors[colors.length - 1];
}

/** The test a rule makes on a cell's value, or undefined when the rule cannot be evaluated here. */
function matcher(
  rule: Rule,
  numbers: number[],
  valueOf: (row: number, column: number) => Value,
): ((value: Value) => boolean) | undefined {
  // A constant ("5", "\"text\"") or an absolute cell reference ("$B$1").
  const operand = (formula: string | undefined): Value | null => {
    const f = (formula ?? '').trim();
    if (/^-?\d+(\.\d+)?(E[+-]?\d+)?$/i.test(f)) return Number(f);
    const text = /^"((?:[^"]|"")*)"$/.exec(f);
    if (text) return text[1].replace(/""/g, '"');
    const cell = /^\$([A-Z]+)\$(\d+)$/i.exec(f);
    if (cell) return valueOf(Number(cell[2]), columnNumber(cell[1]));
    return null;
  };
  const compare = (a: Value, b: Value) =>
    typeof a === 'number' && typeof b === 'number'
      ? a - b
      : String(a ?? '').localeCompare(String(b ?? ''), undefined, { sensitivity: 'accent' });
  switch (rule.type) {
    case 'cellIs': {
      const [x, y] = [operand(rule.formulae?.[0]), operand(rule.formulae?.[1])];
      if (x === null || (/between/i.test(rule.operator ?? '') && y === null)) return undefined;
      const op = rule.operator ?? 'equal';
      return (value) => {
        if (value === undefined) return false;
        const d = compare(value, x);
        switch (op) {
          case 'equal':
            return d === 0;
          case 'notEqual':
            return d !== 0;
          case 'greaterThan':
            return d > 0;
          case 'lessThan':
            return d < 0;
          case 'greaterThanOrEqual':
            return d >= 0;
          case 'lessThanOrEqual':
            return d <= 0;
          case 'between':
            return d >= 0 && compare(value, y as Value) <= 0;
          case 'notBetween':
            return d < 0 || compare(value, y as Value) > 0;
          default:
            return false;
        }
      };
    }
    case 'containsText':
    case 'notContainsText':
    case 'beginsWith':
    case 'endsWith': {
      const text = (
        rule.text ?? /"((?:[^"]|"")*)"/.exec(rule.formulae?.[0] ?? '')?.[1]?.replace(/""/g, '"')
      )?.toLowerCase();
      if (text === undefined) return undefined;
      return (value) => {
        const s = value === undefined ? '' : String(value).toLowerCase();
        if (rule.type === 'containsText') return s.includes(text);
        if (rule.type === 'notContainsText') return !s.includes(text);
        if (rule.type === 'beginsWith') return s.startsWith(text);
        return s.endsWith(text);
      };
    }
    case 'top10': {
      if (!numbers.length) return () => false;
      const sorted = [...numbers].sort((a, b) => (rule.bottom ? a - b : b - a));
      const count = Math.max(
        1,
        rule.percent ? Math.floor((sorted.length * (rule.rank ?? 10)) / 100) : (rule.rank ?? 10),
      );
      const edge = sorted[Math.min(count, sorted.length) - 1];
      return (value) => typeof value === 'number' && (rule.bottom ? value <= edge : value >= edge);
    }
    case 'aboveAverage': {
      const mean = numbers.reduce((a, b) => a + b, 0) / Math.max(1, numbers.length);
      const below = rule.aboveAverage === false;
      return (value) => typeof value === 'number' && (below ? value < mean : value > mean);
    }
    default:
      return undefined;
  }
}
