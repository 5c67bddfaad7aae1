/**
 * PDF → Excel (.xlsx, built with exceljs) or CSV: tables found on each page (ruled and unruled)
 * become sheets — one per table, or one per page — with numbers, percentages, amounts and dates
 * written as real numbers and dates, merged cells kept and column widths fitted. Pages without any
 * table still give their text, line by line in aligned columns, so nothing is silently lost.
 */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { safeEntryName } from '../lib/zip.ts';
import type { Engine } from '../lib/types.ts';
import { throwIfAborted } from '../lib/errors.ts';
import { commonOptions, readOfficeSource } from '../lib/pdf-to-office/office-pages.ts';
import { baseName } from '../../../shared/format.ts';
import { buildFragments, median, type PageLayout, type TextItem } from '../lib/pdf/pdf-layout.ts';
import { findTables, insideBox, joinWrappedLines, type Table, type TableCell } from '../lib/pdf-to-office/tables.ts';
import { ARABIC, HEBREW } from '../lib/unicode-scripts.ts';

/** Gap between two cells of a printed spreadsheet row, in font sizes (running text needs ~1.2). */
const CELL_GAP_EM = 0.6;

export type CellValue = string | number | boolean | Date | ExcelJS.CellErrorValue | null;

/** Error values a spreadsheet prints (#REF! after a deleted sheet…): written back as errors, not text. */
const ERROR_VALUES = ['#N/A', '#REF!', '#DIV/0!', '#VALUE!', '#NAME?', '#NUM!', '#NULL!'] as const;

export interface ParsedCell {
  value: CellValue;
  numFmt?: string;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function utcDate(year: number, month: number, day: number): Date | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1000 || year > 9999) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 ? date : null;
}

/** How a document writes dd/mm/yyyy vs mm/dd/yyyy, decided from dates that can only be read one way. */
export type DateOrder = 'day-first' | 'month-first';

export function detectDateOrder(texts: Iterable<string>): DateOrder {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const text of texts) {
    const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text.trim());
    if (!m) continue;
    if (+m[1] > 12) dayFirst++;
    else if (+m[2] > 12) monthFirst++;
  }
  return dayFirst > monthFirst ? 'day-first' : 'month-first';
}

/**
 * Text of a cell → a typed value: numbers (1,234.5 · (12) · 12% · $9.99 · 9.99 € · 31.23° · 1.234,5 stays
 * text), dates. A number keeps the look it had on the page (its decimals, separators, sign or symbol)
 * as its number format.
 */
export function parseCell(text: string, dateOrder: DateOrder = 'month-first'): ParsedCell {
  const t = text.trim();
  if (t === '') return { value: null };
  // Leading zeros (codes, ZIPs) and very long digit runs (IDs) stay text.
  if (/^0\d+$/.test(t) || /\d{16,}/.test(t)) return { value: t };
  // Arabic-Indic digits (a number format of an Arabic locale: "[$-3000401]0" prints 123 as ١٢٣).
  if (/[\u0660-\u0669]/.test(t)) {
    const western = t
      .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
      .replace(/\u066b/g, '.')
      .replace(/\u066c/g, ',');
    const parsed = parseCell(western, dateOrder);
    if (typeof parsed.value === 'number')
      return {
        value: parsed.value,
        numFmt: `[$-3000401]${parsed.numFmt ?? (Number.isInteger(parsed.value) ? '0' : 'General')}`,
      };
  }
  const error = ERROR_VALUES.find((e) => e === t.toUpperCase());
  if (error) return { value: { error } };
  // A spreadsheet prints its logical values in capitals.
  if (t === 'TRUE' || t === 'FALSE') return { value: t === 'TRUE' };
  const number = /^([-+−]?)\(?([$€£¥￥]?)\s?([-+−]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\s?)(%|°|[$€£¥￥])?\)?$/.exec(t);
  // One currency symbol, before or after the number.
  if (number && !(number[2] && /[$€£¥￥]/.test(number[7] ?? ''))) {
    const [, sign, currency, sign2, whole, fraction = '', space, suffix = ''] = number;
    // Leading zeros only a text keeps ("012.30", "0,000": expected results a workbook types as text).
    if (/^0[\d,]/.test(whole)) return { value: t };
    let value = Number(whole.replace(/,/g, '') + fraction);
    if (sign === '-' || sign === '−' || sign2 === '-' || sign2 === '−' || (t.startsWith('(') && t.endsWith(')')))
      value = -value;
    const decimals = fraction.length > 1 ? `.${'0'.repeat(fraction.length - 1)}` : '';
    const base = `${whole.includes(',') || currency || /[$€£¥￥]/.test(suffix) ? '#,##0' : '0'}${decimals}`;
    if (suffix === '%') return { value: value / 100, numFmt: `0${decimals}%` };
    if (currency) return { value, numFmt: `"${currency}"${base}` };
    // A unit a number format adds after the number (0.00"°", #,##0.00" €").
    if (suffix) return { value, numFmt: `${base}"${space}${suffix}"` };
    return { value, numFmt: whole.includes(',') || decimals ? base : undefined };
  }
  // Scientific notation, as a spreadsheet prints a number too wide for its column (1.03E+08).
  const scientific = /^([-+−]?)(\d+)(\.\d+)?E([-+]\d+)$/.exec(t);
  if (scientific) {
    const [, sign, whole, fraction = '', exponent] = scientific;
    const value = Number(`${whole}${fraction}e${exponent}`) * (sign && sign !== '+' ? -1 : 1);
    return { value, numFmt: `0${fraction.length > 1 ? `.${'0'.repeat(fraction.length - 1)}` : ''}E+00` };
  }
  // A time of day as a spreadsheet prints one ("13:20:01", "0:00"): that time on Excel's day 0.
  const time = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  if (time && +time[1] < 24 && +time[2] < 60 && +(time[3] ?? 0) < 60) {
    const seconds = (+time[1] * 60 + +time[2]) * 60 + +(time[3] ?? 0);
    const format = `${time[1].length > 1 ? 'hh' : 'h'}:mm${time[3] === undefined ? '' : ':ss'}`;
    return { value: new Date(Date.UTC(1899, 11, 30) + seconds * 1000), numFmt: format };
  }
  // A date keeps the look it had on the page (its number format), and becomes a real date.
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (m) return dateCell(utcDate(+m[1], +m[2], +m[3]), 'yyyy-mm-dd', t);
  // ISO date and time, as a spreadsheet prints it ("2012-08-08T22:59", "2012-08-08 22:59:30").
  m = /^(\d{4})-(\d{1,2})-(\d{1,2})([T ])(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  if (m && +m[5] < 24 && +m[6] < 60 && +(m[7] ?? 0) < 60) {
    const day = utcDate(+m[1], +m[2], +m[3]);
    const time = day && new Date(day.getTime() + ((+m[5] * 60 + +m[6]) * 60 + +(m[7] ?? 0)) * 1000);
    const separator = m[4] === 'T' ? '"T"' : ' ';
    return dateCell(time, `yyyy-mm-dd${separator}hh:mm${m[7] === undefined ? '' : ':ss'}`, t);
  }
  m = /^(\d{1,2})([/.-])(\d{1,2})[/.-](\d{4})$/.exec(t);
  if (m) {
    const [, first, separator, second, year] = m;
    const a = +first;
    const b = +second;
    // Day first when the first number cannot be a month (31/12/2024), when separated by dots, or
    // when the document's other dates say so.
    const dayFirst = a > 12 || separator === '.' || (dateOrder === 'day-first' && b <= 12);
    const [day, month] = dayFirst ? [first, second] : [second, first];
    const part = (digits: string, letter: string) => letter.repeat(digits.length > 1 ? 2 : 1);
    const format =
      (dayFirst ? [part(day, 'd'), part(month, 'm')] : [part(month, 'm'), part(day, 'd')]).join(separator) +
      `${separator}yyyy`;
    return dateCell(utcDate(+year, +month, +day), format, t);
  }
  m = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/.exec(t);
  if (m && MONTHS.includes(m[1].slice(0, 3).toLowerCase()))
    return dateCell(
      utcDate(+m[3], MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1, +m[2]),
      m[1].length === 3 ? 'mmm d, yyyy' : 'mmmm d, yyyy',
      t,
    );
  // A long date with its weekday ("Sunday, March 21, 2010"), when the weekday is that day's.
  m = /^([A-Za-z]{3,9}), ([A-Za-z]{3,9})\.? (\d{1,2}), (\d{4})$/.exec(t);
  const weekday = m
    ? WEEKDAYS.findIndex((d) => d === m![1].toLowerCase() || d.slice(0, 3) === m![1].toLowerCase())
    : -1;
  if (m && weekday >= 0 && MONTHS.includes(m[2].slice(0, 3).toLowerCase())) {
    const date = utcDate(+m[4], MONTHS.indexOf(m[2].slice(0, 3).toLowerCase()) + 1, +m[3]);
    const format = `${m[1].length === 3 ? 'ddd' : 'dddd'}, ${m[2].length === 3 ? 'mmm' : 'mmmm'} d, yyyy`;
    return dateCell(date?.getUTCDay() === weekday ? date : null, format, t);
  }
  m = /^(\d{1,2}) ([A-Za-z]{3,9})\.?,? (\d{4})$/.exec(t);
  if (m && MONTHS.includes(m[2].slice(0, 3).toLowerCase()))
    return dateCell(
      utcDate(+m[3], MONTHS.indexOf(m[2].slice(0, 3).toLowerCase()) + 1, +m[1]),
      m[2].length === 3 ? 'd mmm yyyy' : 'd mmmm yyyy',
      t,
    );
  return dashedMonthDate(t) ?? { value: t };
}

/** A day, month name and year joined by hyphens, as Excel's `dd-mmm-yyyy` prints them ("01-Mar-2023"). */
function dashedMonthDate(t: string): ParsedCell | undefined {
  const m = /^(\d{1,2})-([A-Za-z]{3,9})-(\d{4})$/.exec(t);
  if (!m || !MONTHS.includes(m[2].slice(0, 3).toLowerCase())) return undefined;
  const format = `${m[1].length === 2 ? 'dd' : 'd'}-${m[2].length === 3 ? 'mmm' : 'mmmm'}-yyyy`;
  return dateCell(utcDate(+m[3], MONTHS.indexOf(m[2].slice(0, 3).toLowerCase()) + 1, +m[1]), format, t);
}

function dateCell(date: Date | null, numFmt: string, text: string): ParsedCell {
  return date ? { value: date, numFmt } : { value: text };
}

interface GridCell {
  text: string;
  bold?: boolean;
  rowSpan?: number;
  colSpan?: number;
  /** Where the cell's text starts on the page, to place it in the page's columns. */
  x?: number;
  /** Where the cell's text ends on the page. */
  right?: number;
}

/** A rectangular block of cells (a table, or a page's text lines). */
interface Grid {
  name: string;
  rows: Array<Array<GridCell | undefined>>;
  /** One unruled table's sheet, which gets its empty columns once all its pages are in. */
  unruledTable?: boolean;
}

/**
 * An unruled table's column whose right-aligned numbers all end just before its texts start (by
 * the two cells' insets) holds two printed columns: the numbers end at the edge where the texts'
 * column begins, so they belong to the column before it (a header over them, its cells empty).
 * The table's gutters cannot part them: the space between them is too narrow.
 */
function numbersBeforeTexts(grid: Grid['rows']): Grid['rows'] {
  const columns = Math.max(0, ...grid.map((row) => row.length));
  const isNumber = (cell: GridCell) => {
    const value = parseCell(cell.text).value;
    return typeof value === 'number' || typeof value === 'boolean' || value instanceof Date;
  };
  for (let c = 1; c < columns; c++) {
    const cells = grid.flatMap((row, r) => {
      const cell = row[c];
      return cell && cell.x !== undefined && cell.right !== undefined && (cell.colSpan ?? 1) === 1 ? [{ r, cell }] : [];
    });
    const numbers = cells.filter(({ cell }) => isNumber(cell));
    const texts = cells.filter(({ cell }) => !isNumber(cell));
    if (numbers.length < 2 || texts.length === 0 || numbers.some(({ r }) => grid[r][c - 1]?.text)) continue;
    const ends = numbers.map(({ cell }) => cell.right!);
    const start = Math.min(...texts.map(({ cell }) => cell.x!));
    if (Math.max(...ends) - Math.min(...ends) > 1 || Math.abs(start - Math.max(...ends) - 2 * CELL_INSET) > 2) continue;
    for (const { r, cell } of numbers) [grid[r][c - 1], grid[r][c]] = [cell, undefined];
  }
  return grid;
}

/** A ruled table's columns: see `ruledColumns`. */
interface RuledColumns {
  /** The columns' left edges and the table's right edge. */
  edges: number[];
  /** Each frame's data column, where its left-aligned texts go. */
  data: number[];
  /** Each frame's first column (its spacer, when it has one), where a cell centred over it starts. */
  first: number[];
  /** Cells centred over their frames, which start at their first frame's first column. */
  centred: Set<TableCell>;
}

/**
 * A ruled table's columns with the narrow empty columns its frames hide put back (spacer columns).
 * LibreOffice draws a cell's borders, so where borders frame a spacer and the data column after
 * it, the texts start a spacer's width past the frame's line instead of just inside it (1–1.4 pt).
 * A frame whose texts (two or more, and half, of different widths: left-aligned) start at one x
 * more than 4 pt past its line, none further left, as far as another frame's do (within 1 pt),
 * holds a spacer `s` wide before its data column. A padded table (an HTML or Word table's cell
 * margins) looks the same, so spacers are taken only where a centred cell shows one: its text's
 * centre s/2 left of its frames' centre (±1.5 pt), as a header merged over the frames but not
 * their last spacer prints; that frame gets a spacer after its data column too.
 */
function ruledColumns(table: Table): RuledColumns {
  const frames = table.colEdges.length - 1;
  const start = (cell: TableCell) => Math.min(...cell.items.map((i) => i.x));
  const end = (cell: TableCell) => Math.max(...cell.items.map((i) => i.x + i.width));
  const offsets = Array.from({ length: frames }, (_, c) => {
    const cells = table.cells.filter((cell) => cell.col === c && cell.colSpan === 1 && cell.items.length > 0);
    // The texts starting leftmost (a centred header in the frame starts further in).
    const left = Math.min(...cells.map(start));
    const aligned = cells.filter((cell) => start(cell) - left <= 0.5);
    const widths = new Set(aligned.map((cell) => Math.round(end(cell) - start(cell))));
    if (aligned.length < 2 || aligned.length * 2 < cells.length || widths.size < 2) return undefined;
    const offset = left - table.colEdges[c];
    return offset > 4 ? offset : undefined;
  });
  const lead = offsets.map(
    (offset, c) =>
      offset !== undefined && offsets.some((o, d) => d !== c && o !== undefined && Math.abs(o - offset) <= 1),
  );
  const spacer = median(offsets.flatMap((o, c) => (lead[c] ? [o! - CELL_INSET] : [])));
  const trail = lead.map(() => false);
  const centred = new Set<TableCell>();
  for (const cell of spacer ? table.cells : []) {
    const lines = cell.items.map((i) => i.baseline);
    const [from, to] = [table.colEdges[cell.col], table.colEdges[cell.col + cell.colSpan]];
    const atLead = offsets[cell.col] !== undefined && Math.abs(start(cell) - from - offsets[cell.col]!) <= 1;
    if (!cell.items.length || atLead || Math.max(...lines) - Math.min(...lines) > 1) continue;
    const off = (start(cell) + end(cell)) / 2 - (from + to) / 2;
    if (Math.abs(off + spacer / 2) <= 1.5) trail[cell.col + cell.colSpan - 1] = true;
    if (Math.abs(off + spacer / 2) <= 1.5 || Math.abs(off) <= 1.5) centred.add(cell);
  }
  const shown = trail.some(Boolean);
  const edges: number[] = [];
  const data: number[] = [];
  const first: number[] = [];
  for (let c = 0; c < frames; c++) {
    first.push(edges.length);
    edges.push(table.colEdges[c]);
    if (shown && lead[c]) edges.push(table.colEdges[c] + spacer);
    data.push(edges.length - 1);
    if (shown && trail[c]) edges.push(table.colEdges[c + 1] - spacer);
  }
  edges.push(table.colEdges[frames]);
  return { edges, data, first, centred: shown ? centred : new Set() };
}

function tableGridCells(table: Table): Grid['rows'] {
  const rows = table.rowEdges.length - 1;
  const columns = table.ruled ? ruledColumns(table) : undefined;
  const cols = columns ? columns.edges.length - 1 : table.colEdges.length - 1;
  const grid: Grid['rows'] = Array.from({ length: rows }, () => Array.from({ length: cols }, () => undefined));
  for (const cell of table.cells) {
    // A cell centred over its frames starts at the first one's spacer (a header merged over them),
    // a left-aligned one in its frame's data column; either ends at its last frame's data column.
    const from = columns && (columns.centred.has(cell) ? columns.first : columns.data)[cell.col];
    const [col, colSpan] =
      from === undefined ? [cell.col, cell.colSpan] : [from, columns!.data[cell.col + cell.colSpan - 1] - from + 1];
    grid[cell.row][col] = {
      text: cell.text.replace(/\n/g, ' '),
      x: cell.items.length ? Math.min(...cell.items.map((i) => i.x)) : undefined,
      right: cell.items.length ? Math.max(...cell.items.map((i) => i.x + i.width)) : undefined,
      bold: cell.items.length > 0 && cell.items.every((i) => i.bold),
      rowSpan: cell.rowSpan,
      colSpan,
    };
  }
  return table.ruled ? grid : numbersBeforeTexts(grid);
}

/**
 * The baseline a table row's cells sit on: the lowest among its one-line cells (a spreadsheet cell
 * is aligned to the bottom of its row by default). Undefined when every cell wraps or spans rows.
 */
function rowBaselines(table: Table): Array<number | undefined> {
  const baselines: Array<number | undefined> = Array.from({ length: table.rowEdges.length - 1 }, () => undefined);
  // Turned text (a heading at 90°) stands on its own anchor: only a row of nothing else uses it.
  const turned = [...baselines];
  for (const cell of table.cells) {
    if (cell.rowSpan !== 1 || cell.items.length === 0) continue;
    const lines = lineBaselines(cell.items);
    const baseline = Math.max(...lines);
    if (baseline - Math.min(...lines) > 1) continue;
    const own = cell.items.every((i) => i.rotated) ? turned : baselines;
    own[cell.row] = Math.max(own[cell.row] ?? -Infinity, baseline);
  }
  return baselines.map((b, r) => b ?? turned[r]);
}

/** A cell's or line's items that run left to right, or all of them when none does. */
function uprightItems(items: TextItem[]): TextItem[] {
  const upright = items.filter((i) => !i.rotated);
  return upright.length ? upright : items;
}

/**
 * The baselines of the lines a cell's or fragment's items make: its upright items', leaving out
 * superscripts (a footnote mark, smaller and raised, sits on its text's line, not on one of its own).
 */
function lineBaselines(items: TextItem[]): number[] {
  return withoutSuperscripts(items).text.map((i) => i.baseline);
}

/** A cell's or fragment's upright items parted into its text and its superscripts (under 0.8 of its largest size). */
function withoutSuperscripts(items: TextItem[]): { text: TextItem[]; superscripts: TextItem[] } {
  const upright = uprightItems(items);
  const largest = Math.max(...upright.map((i) => i.size));
  return {
    text: upright.filter((i) => i.size >= largest * 0.8),
    superscripts: upright.filter((i) => i.size < largest * 0.8),
  };
}

/**
 * How far a cell's or fragment's superscripts rise above its line (0 without any): LibreOffice fits
 * a row to its raised runs, so a row with a footnote mark is up to that much taller than its font makes it.
 */
function superscriptRise(items: TextItem[]): number {
  const { text, superscripts } = withoutSuperscripts(items);
  const line = Math.max(...text.map((i) => i.baseline));
  return Math.max(0, ...superscripts.map((i) => line - i.baseline));
}

/**
 * `rowBaselines`, with a ruled table's empty rows given the baseline their text would have: as far
 * above the row's bottom border as in its rows with text, so that the page's row pitch shows.
 */
function drawnRowBaselines(table: Table): Array<number | undefined> {
  const baselines = rowBaselines(table);
  if (!table.ruled) return baselines;
  const above = baselines.flatMap((b, r) => (b === undefined ? [] : [table.rowEdges[r + 1] - b]));
  if (above.length === 0) return baselines;
  const offset = median(above);
  return baselines.map((b, r) => b ?? table.rowEdges[r + 1] - offset);
}

/** The largest text size among each table row's one-line cells (a taller font makes a taller row). */
function rowSizes(table: Table): Array<number | undefined> {
  const sizes: Array<number | undefined> = Array.from({ length: table.rowEdges.length - 1 }, () => undefined);
  for (const cell of table.cells) {
    if (cell.rowSpan !== 1 || cell.items.length === 0) continue;
    sizes[cell.row] = Math.max(sizes[cell.row] ?? 0, ...cell.items.map((i) => i.size));
  }
  return sizes;
}

/** How far each table row's superscripts rise above its text (`superscriptRise`). */
function rowRises(table: Table): number[] {
  const rises = Array.from({ length: table.rowEdges.length - 1 }, () => 0);
  for (const cell of table.cells)
    if (cell.rowSpan === 1 && cell.items.length)
      rises[cell.row] = Math.max(rises[cell.row], superscriptRise(cell.items));
  return rises;
}

/** A row of a page's grid with the baseline its text sits on, when it has one. */
interface PlacedRow {
  baseline?: number;
  /** The row's largest text size. */
  size?: number;
  /** How far its superscripts rise above its baseline (`superscriptRise`). */
  rise?: number;
  cells: Grid['rows'][number];
  /** A line of text outside the tables (a title, a note), not a table's row. */
  line?: boolean;
}

/**
 * A cell's text sits on its row's bottom by its font's descent, up to about this share of its
 * size: a row in a larger font (a title) may have its baseline that much higher in its row, so a
 * gap under it that is not a whole number of rows may be one once that is taken off.
 */
const DESCENT_EM = 0.25;

/** How much higher a row's baseline sits for its larger font than the row under it (`DESCENT_EM`). */
function raised(sizeAbove: number | undefined, sizeBelow: number | undefined): number {
  return sizeAbove && sizeBelow && sizeAbove > sizeBelow * 1.05 ? DESCENT_EM * (sizeAbove - sizeBelow) : 0;
}

/**
 * How regular a page's rows must be for empty rows to be put back: at least 3 in 4 baseline gaps,
 * and 8 of them, within ±3 % of one pitch. A short block says too little: a header row a custom
 * two rows tall looks exactly like one empty row.
 */
const REGULAR_SHARE = 0.75;
const MIN_REGULAR_GAPS = 8;

/**
 * Rows with the empty rows a printout leaves out put back. A printed sheet shows an empty row only
 * as a gap, so where the page's rows follow one regular pitch (most baseline gaps within ±3 % of
 * it: default row heights), a gap of k pitches (within ±8 % of a pitch) holds k − 1 empty rows.
 * A page of custom row heights, wrapped cells or mixed fonts has no such pitch and is left as is.
 */
function withEmptyRows(rows: PlacedRow[]): Grid['rows'] {
  const gaps: number[] = [];
  for (let r = 1; r < rows.length; r++) {
    const [above, below] = [rows[r - 1].baseline, rows[r].baseline];
    if (above !== undefined && below !== undefined && below > above) gaps.push(below - above);
  }
  let pitch = 0;
  let regular = 0;
  for (const candidate of gaps) {
    const near = gaps.filter((gap) => Math.abs(gap - candidate) <= candidate * 0.03).length;
    if (near > regular || (near === regular && candidate < pitch)) [pitch, regular] = [candidate, near];
  }
  // A row in a larger font than the page's usual one (a title) is taller in proportion: LibreOffice
  // fits a row's height to its font, so the gap above it is that much more than its empty rows.
  const sizes = rows.flatMap((row) => (row.size ? [row.size] : []));
  const usual = sizes.length ? median(sizes) : 0;
  if (regular < MIN_REGULAR_GAPS || regular < gaps.length * REGULAR_SHARE) return withShortBlockEmptyRows(rows, usual);
  const taller = (size?: number) => (usual && size && size > usual * 1.05 ? pitch * (size / usual - 1) : 0);
  const out: Grid['rows'] = [];
  rows.forEach((row, r) => {
    const [above, below] = [rows[r - 1]?.baseline, row.baseline];
    if (above !== undefined && below !== undefined) {
      const gap = below - above - taller(row.size);
      const steps = wholeRows(gap, pitch, row.rise, raised(rows[r - 1].size, row.size));
      for (let k = 1; k < steps; k++) out.push([]);
    }
    out.push(row.cells);
  });
  return out;
}

/**
 * The pitch of rows of the default height, per point of their font's size: LibreOffice prints a
 * sheet's default rows 1.25–1.4 times the size of their text apart (12.8 pt at 10 pt Liberation
 * Sans, 15 pt at Calibri 11, 15.7–15.8 pt at 12 pt, rows rounded to whole pixels; a file's own
 * default 14.2 pt at 11 pt).
 */
const DEFAULT_ROW_PITCH = { min: 1.2, max: 1.45 };

/**
 * `withEmptyRows` for a block too short to show a regular pitch (a title over a few rows, a table
 * of three rows): where the block's own gaps show a row of the default height for its usual text
 * size, a gap of k such rows (±8 % of one) holds k − 1 empty rows. Rows spaced wider than a
 * default row for their text (custom heights, wrapped cells) show no such pitch, so a header row
 * two rows tall there adds none; nor does a block with no single row to measure, unless every
 * gap is two default rows (a gap of 2.5 could be 2 empty rows or one tall one).
 */
function withShortBlockEmptyRows(rows: PlacedRow[], usual: number): Grid['rows'] {
  if (!usual) return rows.map((row) => row.cells);
  // A default row for the text of the row under the gap (a chart's smaller labels on the same page
  // are not rows of the sheet's font).
  const isDefaultRow = (pitch: number, size = usual) =>
    pitch >= size * DEFAULT_ROW_PITCH.min && pitch <= size * DEFAULT_ROW_PITCH.max;
  const gaps = rows.flatMap((row, r) => {
    const above = rows[r - 1]?.baseline;
    return above !== undefined && row.baseline !== undefined ? [{ gap: row.baseline - above, size: row.size }] : [];
  });
  const own = gaps.filter(({ gap, size }) => isDefaultRow(gap, size));
  // With no single row to measure, only a block whose every gap is two default rows of one pitch
  // (every printed row followed by an empty one) gets them.
  const halves = gaps.map(({ gap }) => gap / 2);
  const everyOther =
    gaps.length > 0 &&
    gaps.every(({ gap, size }) => isDefaultRow(gap / 2, size)) &&
    Math.max(...halves) - Math.min(...halves) <= Math.min(...halves) * 0.03;
  if (own.length === 0 && !everyOther) return rows.map((row) => row.cells);
  let pitch = own.length ? median(own.map(({ gap }) => gap)) : median(halves);
  // Gaps of one row that no wider gap is a multiple of may be custom-height rows (a total row set
  // taller): a default row's pitch that more gaps of one, two, three rows share is the block's.
  const shared = own.length ? sharedRowPitch(gaps, isDefaultRow) : undefined;
  if (
    shared &&
    rowMultiples(gaps, pitch, isDefaultRow, 2) === 0 &&
    shared.count > rowMultiples(gaps, pitch, isDefaultRow)
  )
    pitch = shared.pitch;
  // How many rows a gap is, the row under it as tall as its font makes it (a larger title's row)
  // against the text of the rows that gave the pitch.
  const base = own.length ? median(own.map(({ size }) => size ?? usual)) : usual;
  const rowsIn = (gap: number, size?: number, rise?: number, raisedBy?: number) => {
    const taller = size && size > base * 1.05 ? size / base - 1 : 0;
    return wholeRows(gap - taller * pitch, pitch, rise, raisedBy);
  };
  const out: Grid['rows'] = [];
  rows.forEach((row, r) => {
    const above = rows[r - 1]?.baseline;
    if (above !== undefined && row.baseline !== undefined && row.baseline > above)
      for (let k = rowsIn(row.baseline - above, row.size, row.rise, raised(rows[r - 1].size, row.size)); k > 1; k--)
        out.push([]);
    out.push(row.cells);
  });
  return out;
}

/**
 * How many rows of `pitch` a baseline gap is (±8 % of one), or 1 when it is no whole number of them;
 * the row under the gap may be taller by its superscripts' `rise`, and the row above may have its
 * baseline up to `raisedBy` higher (a title in a larger font: `raised`), which only explains a gap
 * that is no whole number of rows without it.
 */
function wholeRows(gap: number, pitch: number, rise = 0, raisedBy = 0): number {
  const fit = (space: number) => {
    const steps = Math.round((space - rise / 2) / pitch);
    const over = space - steps * pitch;
    return over >= -pitch * 0.08 && over <= pitch * 0.08 + rise ? steps : undefined;
  };
  return fit(gap) ?? (raisedBy ? fit(gap - raisedBy) : undefined) ?? 1;
}

/** How many rows apart the rows of a short block can be for their gap to show its pitch. */
const MAX_GAP_ROWS = 10;

/**
 * How many of `gaps` are a whole number (`fewest` or more) of `pitch`es, ±3 % of one, up to
 * MAX_GAP_ROWS, where `pitch` is a default row for the text under the gap.
 */
function rowMultiples(
  gaps: Array<{ gap: number; size?: number }>,
  pitch: number,
  isDefaultRow: (pitch: number, size?: number) => boolean,
  fewest = 1,
): number {
  return gaps.filter(({ gap, size }) => {
    const steps = Math.round(gap / pitch);
    return (
      steps >= fewest &&
      steps <= MAX_GAP_ROWS &&
      Math.abs(gap - steps * pitch) <= pitch * 0.03 &&
      isDefaultRow(pitch, size)
    );
  }).length;
}

/**
 * The default row's pitch that most of a short block's gaps are whole multiples of, when at least
 * two are: rows one, two and three default rows apart (a few values under a tall header, with empty
 * rows between) show the pitch together, where the only gap of one row may be a custom-height row.
 */
function sharedRowPitch(
  gaps: Array<{ gap: number; size?: number }>,
  isDefaultRow: (pitch: number, size?: number) => boolean,
): { pitch: number; count: number } | undefined {
  let best: { pitch: number; count: number } | undefined;
  for (const { gap, size } of gaps) {
    for (let steps = 1; steps <= MAX_GAP_ROWS; steps++) {
      const pitch = gap / steps;
      if (!isDefaultRow(pitch, size)) continue;
      const count = rowMultiples(gaps, pitch, isDefaultRow);
      if (count >= 2 && (!best || count > best.count)) best = { pitch, count };
    }
  }
  return best;
}

/** LibreOffice prints a cell's text this far inside its column's edge (left- or right-aligned). */
const CELL_INSET = 1.4;

/**
 * The edge a column's texts are aligned to: `edge` of at least three of them (and half) within
 * 1 pt of the outermost, and more of them than share their other ends. Texts of one width could
 * be centred or aligned the other way: then no text of another width in the column may share
 * their centre or their other end.
 */
function alignedEdge(
  cells: GridCell[],
  column: GridCell[],
  edge: (cell: GridCell) => number,
  other: (cell: GridCell) => number,
  side: 1 | -1,
): number | undefined {
  if (cells.length < 3) return undefined;
  const outermost = side * Math.max(...cells.map((cell) => side * edge(cell)));
  const on = cells.filter((cell) => Math.abs(edge(cell) - outermost) <= 1);
  if (on.length < 3 || on.length * 2 < cells.length) return undefined;
  const ends = on.map(other);
  // Numbers of one digit count left-aligned share their right ends too, but more share their starts.
  const otherEdge = side * Math.min(...cells.map((cell) => side * other(cell)));
  if (cells.filter((cell) => Math.abs(other(cell) - otherEdge) <= 1).length > on.length) return undefined;
  if (Math.max(...ends) - Math.min(...ends) > 1) return outermost;
  // Texts of one width: another text in the column that shares their other end or their centre
  // shows how the column is aligned.
  const centre = (cell: GridCell) => (cell.x! + cell.right!) / 2;
  const width = Math.abs(outermost - ends[0]);
  const aligned = column.some(
    (cell) =>
      Math.abs(cell.right! - cell.x! - width) > 1 &&
      (Math.abs(centre(cell) - centre(on[0])) <= 1 || Math.abs(other(cell) - ends[0]) <= 1),
  );
  return aligned ? undefined : outermost;
}

/** Excel's default column width, 64 px (8.43 characters of its default font), in points at 100 %. */
const DEFAULT_COLUMN_WIDTH = 48;
/** The widest grid of default-width columns `uniformColumns` takes (15 % over the default). */
const MAX_DEFAULT_WIDTH = DEFAULT_COLUMN_WIDTH * 1.15;

/** Whether `edge` falls on the grid of columns `width` wide from `origin` (within 1.5 pt). */
function onGrid(edge: number, origin: number, width: number): boolean {
  const k = (edge - origin) / width;
  return Math.abs(k - Math.round(k)) * width <= 1.5;
}

/**
 * The width of the default-width grid that every edge falls on (from the first), nearest Excel's
 * default; with `oneWideColumn`, two neighbouring edges (`lone` ones on the grid too) must be one
 * width apart. Undefined when none fits or the edges are too few to tell.
 */
function edgesGridWidth(
  edges: Array<{ edge: number }>,
  oneWideColumn: boolean,
  lone: (origin: number, width: number) => Array<{ edge: number }>,
): number | undefined {
  // Edges within the grid's tolerance are one (a column's numbers end and the next one's texts start
  // at one line, each 1.4 pt inside it).
  const distinct = edges.flatMap((e, i) => (i === 0 || e.edge - edges[i - 1].edge > 1.5 ? [e.edge] : []));
  if (distinct.length < 3) return undefined;
  const origin = edges[0].edge;
  const fits = (width: number) => edges.every((e) => onGrid(e.edge, origin, width));
  const candidates = distinct.slice(1).flatMap((x) => [1, 2, 3, 4].map((n) => (x - origin) / n));
  const oneWide = (width: number) => {
    if (!oneWideColumn) return true;
    const all = [...distinct, ...lone(origin, width).map((e) => e.edge)].sort((a, b) => a - b);
    return all.some((x, i) => i > 0 && Math.abs(x - all[i - 1] - width) <= 1.5);
  };
  return candidates
    .filter((w) => Math.abs(w - DEFAULT_COLUMN_WIDTH) <= DEFAULT_COLUMN_WIDTH * 0.15 && fits(w) && oneWide(w))
    .sort((a, b) => Math.abs(a - DEFAULT_COLUMN_WIDTH) - Math.abs(b - DEFAULT_COLUMN_WIDTH))[0];
}

/**
 * Where each column goes when the page's measured column edges (left-aligned texts' starts,
 * right-aligned numbers' ends) all fall on one grid of equal columns, the sheet's default width:
 * the width that fits every edge within 1.5 pt, nearest Excel's default. Columns without an edge
 * keep their place between the others. With `oneWideColumn`, two neighbouring edges must be one
 * grid width apart (not only columns two or three widths wide). Undefined when no such grid fits.
 */
function uniformColumns(
  lefts: Array<number | undefined>,
  rights: Array<number | undefined>,
  oneWideColumn: boolean,
  loneRights: Array<number | undefined> = [],
  shared: Array<{ edge?: number; offset: number; start: number } | undefined> = [],
): number[] | undefined {
  let edges = [
    ...lefts.flatMap((x, c) => (x === undefined ? [] : [{ c, edge: x - CELL_INSET, offset: 0 }])),
    ...rights.flatMap((x, c) => (x === undefined ? [] : [{ c, edge: x + CELL_INSET, offset: -1 }])),
  ].sort((a, b) => a.edge - b.edge);
  // Numbers too few to measure an edge (one or two, ending at one x) that fall on the grid anyway.
  const lone = (origin: number, width: number) =>
    loneRights.flatMap((x, c) =>
      x === undefined || !onGrid(x + CELL_INSET, origin, width) ? [] : [{ c, edge: x + CELL_INSET, offset: -1 }],
    );
  let width = edgesGridWidth(edges, oneWideColumn, lone);
  const place: Array<number | undefined> = lefts.map(() => undefined);
  if (!width) {
    // A first column wider than the rest (row labels) starts the page off the grid of the others.
    const [first, ...rest] = edges;
    if (!first || first.c !== 0 || first.offset !== 0 || rest.some((e) => e.c === 0)) return undefined;
    // The others must show a column exactly one width wide: columns two widths apart fit a grid
    // of half their width too.
    width = edgesGridWidth(rest, true, lone);
    if (!width) return undefined;
    // Its right edge is not printed: it is taken as one column between one and two widths wide,
    // after which every column up to the grid's first edge has the default width.
    const between = Math.floor((rest[0].edge - first.edge) / width) - 1;
    const own = rest[0].edge - first.edge - between * width;
    if (between < -rest[0].offset || own < width + 1.5 || own > 2 * width - 1.5) return undefined;
    place[0] = -between - 1;
    edges = rest;
  }
  const origin = edges[0].edge;
  for (const e of [...edges, ...lone(origin, width)]) {
    const g = Math.round((e.edge - origin) / width) + e.offset;
    if (place[e.c] !== undefined && place[e.c] !== g) return undefined;
    place[e.c] = g;
  }
  // A column with too few texts to show its edge, whose texts' shared edge falls on the grid too,
  // is the column there, when that keeps the columns in order.
  // Else (texts of several widths, error values printed right-aligned or centred) the grid column
  // its texts start in.
  shared.forEach((hint, c) => {
    if (!hint || place[c] !== undefined) return;
    const k = ((hint.edge ?? hint.start) - origin) / width!;
    if (hint.edge !== undefined && Math.abs(k - Math.round(k)) * width! > 1.5) return;
    const g = hint.edge !== undefined ? Math.round(k) + hint.offset : Math.floor(k);
    // Every column between this one and a placed one needs a grid column of its own.
    const fits = place.every((p, i) => p === undefined || (i < c ? p <= g - (c - i) : p >= g + (i - c)));
    if (fits) place[c] = g;
  });
  // Columns without an edge keep their order; the grid's columns must rise left to right.
  const known = place.flatMap((g, c) => (g === undefined ? [] : [c]));
  const out = place.map((g, c) => {
    if (g !== undefined) return g;
    const before = known.filter((k) => k < c).at(-1);
    return before !== undefined ? place[before]! + (c - before) : place[known[0]]! - (known[0] - c);
  });
  if (out.some((g, c) => c > 0 && g <= out[c - 1])) return undefined;
  const shift = Math.min(...out);
  return out.map((g) => g - shift);
}

/**
 * For each column whose edges `alignedEdge` could not tell (fewer than three texts, error values),
 * the edge its texts share if any: the right end of numbers (right-aligned by default), else the
 * start of texts; and where its texts start.
 */
function sharedEdges(
  rows: Grid['rows'],
  lefts: Array<number | undefined>,
  rights: Array<number | undefined>,
  isNumber: (cell: GridCell) => boolean,
  isError: (cell: GridCell) => boolean,
): Array<{ edge?: number; offset: number; start: number } | undefined> {
  return lefts.map((left, c) => {
    if (left !== undefined || rights[c] !== undefined) return undefined;
    const cells = rows
      .map((row) => row[c])
      .filter(
        (cell): cell is GridCell =>
          !!cell && (cell.colSpan ?? 1) === 1 && cell.x !== undefined && cell.right !== undefined,
      );
    if (cells.length === 0) return undefined;
    const one = (xs: number[]) => Math.max(...xs) - Math.min(...xs) <= 0.5;
    const start = Math.min(...cells.map((cell) => cell.x!));
    if (cells.every(isNumber) && one(cells.map((cell) => cell.right!)))
      return { edge: cells[0].right! + CELL_INSET, offset: -1, start };
    if (!cells.some((cell) => isNumber(cell) || isError(cell)) && one(cells.map((cell) => cell.x!)))
      return { edge: start - CELL_INSET, offset: 0, start };
    return { offset: 0, start };
  });
}

/**
 * The space between two columns' estimated edges is empty columns when it is a whole number of
 * the page's column pitch within this share of one (a column widened beyond its texts is not).
 */
const EMPTY_COLUMN_SLACK = 0.1;

/**
 * Each column's edges as a reader of the printout estimates them where its texts show only one: a
 * column of left-aligned texts (all starting at one x), none wider than the page's column `pitch`,
 * is one pitch wide; one of right-aligned numbers (all ending at one x) likewise to the left. A
 * sheet's columns are mostly of one width, so a wider space than that between two such columns is
 * an empty column (a spacer) that no text shows.
 */
function columnSpans(
  rows: Grid['rows'],
  columns: number,
  lefts: Array<number | undefined>,
  rights: Array<number | undefined>,
  isNumber: (cell: GridCell) => boolean,
  pitch: number,
): Array<{ left: number; right: number; texts: boolean } | undefined> {
  return Array.from({ length: columns }, (_, c) => {
    const cells = rows.map((row) => row[c]).filter((cell) => cell && (cell.colSpan ?? 1) === 1) as GridCell[];
    // One text says little of its column's width (a header row alone over wide columns).
    if (cells.length < 2 || cells.some((cell) => cell.x === undefined || cell.right === undefined)) return undefined;
    // A column whose texts are wider than the pitch was widened for them, by how much is unknown.
    if (cells.some((cell) => cell.right! - cell.x! + 2 * CELL_INSET > pitch)) return undefined;
    const oneX = (xs: number[]) => (Math.max(...xs) - Math.min(...xs) <= 1 ? Math.min(...xs) : undefined);
    const starts = oneX(cells.map((cell) => cell.x!));
    const ends = oneX(cells.map((cell) => -cell.right!));
    // Fewer than three texts of one width share both ends: which one they are aligned to is unknown.
    const oneWidth = starts !== undefined && ends !== undefined;
    const left = lefts[c] ?? (!oneWidth && cells.every((cell) => !isNumber(cell)) ? starts : undefined);
    const right = rights[c] ?? (!oneWidth && cells.every(isNumber) && ends !== undefined ? -ends : undefined);
    if (left !== undefined) return { left: left - CELL_INSET, right: left - CELL_INSET + pitch, texts: true };
    if (right !== undefined) return { left: right + CELL_INSET - pitch, right: right + CELL_INSET, texts: false };
    return undefined;
  });
}

/**
 * Each cell placed by its own edge on a grid of default-width columns, when every cell's edge
 * falls on one (a number's end, right-aligned; a text's start, left-aligned): a sparse sheet whose
 * columns hold one or two texts each shows no column's aligned edge, and a text starting where the
 * numbers of the column before end shares their gutter, so the rows' columns cannot place it.
 * Undefined when a cell has no position, spans columns, or two cells of a row would share a column.
 */
function cellsOnDefaultGrid(rows: Grid['rows']): Grid['rows'] | undefined {
  const placed: Array<Array<{ cell: GridCell; edge: number; offset: number }>> = [];
  for (const row of rows) {
    const cells: (typeof placed)[number] = [];
    for (const cell of row) {
      if (!cell || cell.text.trim() === '') continue;
      if (cell.x === undefined || cell.right === undefined || (cell.colSpan ?? 1) > 1) return undefined;
      const value = parseCell(cell.text).value;
      const right = typeof value === 'number' || typeof value === 'boolean' || value instanceof Date;
      if (right && cell.right - cell.x > MAX_DEFAULT_WIDTH) return undefined;
      cells.push(
        right ? { cell, edge: cell.right + CELL_INSET, offset: -1 } : { cell, edge: cell.x - CELL_INSET, offset: 0 },
      );
    }
    placed.push(cells);
  }
  const edges = placed.flat().map((p) => p.edge);
  // Two neighbouring edges one grid width apart, always: cells in every other grid column (texts
  // 100 pt apart) fit a grid of half that width as well as one of their own.
  const sorted = [...edges].sort((a, b) => a - b);
  const width = edgesGridWidth(
    sorted.map((edge) => ({ edge })),
    true,
    () => [],
  );
  if (!width) return undefined;
  const origin = sorted[0];
  const columns = placed.map((cells) => cells.map((p) => Math.round((p.edge - origin) / width) + p.offset));
  if (columns.some((cs) => cs.some((g, i) => i > 0 && g <= cs[i - 1]))) return undefined;
  const shift = Math.min(...columns.flat());
  return placed.map((cells, r) => {
    const out: Grid['rows'][number] = [];
    cells.forEach((p, i) => (out[columns[r][i] - shift] = p.cell));
    return Array.from({ length: out.length }, (_, c) => out[c]);
  });
}

/**
 * Rows with the empty columns a printout leaves out put back. A printed sheet's columns touch, so
 * where a column of right-aligned numbers ends well before the left-aligned texts of the next
 * column start, the space between them is one or more empty columns: as many as fit the page's
 * measured column widths (a column whose numbers and texts give both its edges), else one.
 */
function withEmptyColumns(rows: Grid['rows'], oneWideColumn = false): Grid['rows'] {
  const { grid, empties } = emptyColumns(rows, oneWideColumn);
  if (grid)
    return rows.map((row) => {
      const out: Grid['rows'][number] = [];
      row.forEach((cell, c) => (out[grid[c]] = cell));
      return Array.from({ length: out.length }, (_, c) => out[c]);
    });
  const onGrid = cellsOnDefaultGrid(rows);
  if (onGrid) return onGrid;
  if (empties.every((k) => k === 0)) return rows;
  return rows.map((row) =>
    Array.from({ length: row.length }, (_, c) => row[c]).flatMap((cell, c) => [
      cell,
      ...Array.from({ length: c < row.length - 1 ? empties[c] : 0 }, () => undefined),
    ]),
  );
}

/**
 * The empty columns of `withEmptyColumns`: each column's place on a grid of default-width columns
 * (`grid`), or else how many empty columns follow each column (`empties`), with the columns'
 * measured edges (right-aligned numbers' ends, left-aligned texts' starts).
 */
function emptyColumns(
  rows: Grid['rows'],
  oneWideColumn: boolean,
  witnesses: Grid['rows'] = [],
): { grid?: number[]; empties: number[]; rights: Array<number | undefined> } {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const single = (cell: GridCell | undefined): cell is GridCell =>
    !!cell && (cell.colSpan ?? 1) === 1 && cell.x !== undefined && cell.right !== undefined;
  const isNumber = (cell: GridCell) => {
    const value = parseCell(cell.text).value;
    return typeof value === 'number' || typeof value === 'boolean' || value instanceof Date;
  };
  // An error value (#VALUE!) is printed right-aligned or centred, never at a column's left edge.
  const isError = (cell: GridCell) => {
    const value = parseCell(cell.text).value;
    return typeof value === 'object' && value !== null && 'error' in value;
  };
  const rights: Array<number | undefined> = [];
  const lefts: Array<number | undefined> = [];
  for (let c = 0; c < columns; c++) {
    const cells = rows.map((row) => row[c]).filter(single);
    // Texts of other rows in the column (a header the table did not take in) show its alignment too.
    const column = [...cells, ...witnesses.map((row) => row[c]).filter(single)];
    const [right, left] = [(cell: GridCell) => cell.right!, (cell: GridCell) => cell.x!];
    // LibreOffice prints an error value at its column's right edge, as it does a number.
    const ended = cells.filter((cell) => isNumber(cell) || isError(cell));
    rights[c] = alignedEdge(ended, column, right, left, 1);
    lefts[c] = alignedEdge(
      cells.filter((cell) => !isNumber(cell) && !isError(cell)),
      column,
      left,
      right,
      -1,
    );
  }
  // A column of one or two numbers ending at one x, which shows no edge of its own.
  const loneRights = rights.map((right, c) => {
    const cells = rows.map((row) => row[c]).filter(single);
    if (right !== undefined || lefts[c] !== undefined || cells.length === 0 || cells.length > 2) return undefined;
    const ends = cells.map((cell) => cell.right!);
    return cells.every(isNumber) && Math.max(...ends) - Math.min(...ends) <= 1 ? Math.max(...ends) : undefined;
  });
  // A number wider than a default column is not right-aligned in one (LibreOffice prints "###"
  // for a number its column cannot hold): its end says nothing of a default-width grid.
  const gridRights = rights.map((right, c) =>
    rows.some((row) => single(row[c]) && isNumber(row[c]!) && row[c]!.right! - row[c]!.x! > MAX_DEFAULT_WIDTH)
      ? undefined
      : right,
  );
  const shared = sharedEdges(rows, lefts, rights, isNumber, isError);
  const grid = uniformColumns(lefts, gridRights, oneWideColumn, loneRights, shared);
  if (grid) return { grid, empties: [], rights };
  const widths = lefts.flatMap((left, c) => {
    const right = rights[c];
    return left !== undefined && right !== undefined && right > left ? [right - left + 2 * CELL_INSET] : [];
  });
  const width = widths.length ? median(widths) : undefined;
  // The page's column width where neighbouring columns show it (numbers ending or texts starting
  // one column apart; the narrowest such pitch, as a spacer only widens one), else Excel's default.
  const pitches = lefts.flatMap((_, c) => [
    ...(rights[c] !== undefined && rights[c + 1] !== undefined ? [rights[c + 1]! - rights[c]!] : []),
    ...(lefts[c] !== undefined && lefts[c + 1] !== undefined ? [lefts[c + 1]! - lefts[c]!] : []),
  ]);
  const pitch = pitches.length ? Math.min(...pitches) : DEFAULT_COLUMN_WIDTH;
  const spans = columnSpans(rows, columns, lefts, rights, isNumber, pitch);
  const empties = rights.map((right, c) => {
    const left = lefts[c + 1];
    if (right === undefined || left === undefined) {
      // Left-aligned texts, then right-aligned numbers, each column's far edge only estimated:
      // the space between is empty columns when it is a whole number of column pitches.
      const [before, after] = [spans[c], spans[c + 1]];
      if (!before?.texts || !after || after.texts) return 0;
      const space = after.left - before.right;
      const k = Math.round(space / pitch);
      return k >= 1 && Math.abs(space - k * pitch) <= pitch * EMPTY_COLUMN_SLACK ? k : 0;
    }
    const space = left - right - 2 * CELL_INSET;
    if (space < 8) return 0;
    return width ? Math.max(1, Math.round(space / width)) : 1;
  });
  return { empties, rights };
}

/** How much wider than Excel's default (a share of it) a first column of labels may be printed. */
const WIDENED_FIRST_COLUMN = 0.5;

/** Whether a cell's text reads as a number or a date, which a spreadsheet right-aligns by default. */
function isNumberOrDate(text: string): boolean {
  const value = parseCell(text).value;
  return typeof value === 'number' || value instanceof Date;
}

/** Whether a text's first letter is of a right-to-left script (Arabic, Hebrew). */
function rightToLeft(text: string): boolean {
  const letter = /\p{L}/u.exec(text)?.[0];
  return letter !== undefined && (ARABIC.test(letter) || HEBREW.test(letter));
}

/** A text line as a row of cells: a `PlacedRow` with the top of its text. */
type LineRow = Omit<PlacedRow, 'line'> & { top: number };

/** Text lines as rows, fragments in columns clustered by their left edge; each row with its top. */
function linesGrid(items: TextItem[]): LineRow[] {
  // A vowel sign drawn apart from its Arabic or Hebrew word (a fragment of marks alone) is no cell.
  const fragments = joinWrappedLines(buildFragments(items, CELL_GAP_EM, { cells: true }))
    .filter((f) => !/^[\p{M}\s]+$/u.test(f.text))
    .sort((a, b) => a.baseline - b.baseline || a.x - b.x);
  if (fragments.length === 0) return [];
  // A right-aligned number ends just inside its column's right edge: a few points before the next
  // column's left-aligned texts start, or, in the last column, one column width (the texts'
  // columns' spacing; under the only text column, Excel's default width) after its own texts
  // start. Its own start says nothing of the columns ("a b" over "1 2", "DS1" over "22").
  // Dates too: a spreadsheet right-aligns them as numbers.
  const isNumber = (f: (typeof fragments)[number]) => isNumberOrDate(f.text);
  // A text whose first letter is Arabic or Hebrew reads right to left: a spreadsheet aligns it to
  // its column's right edge, as it does numbers.
  const endAligned = (f: (typeof fragments)[number]) => isNumber(f) || rightToLeft(f.text);
  const textColumns: number[] = [];
  for (const x of fragments
    .filter((f) => !endAligned(f))
    .map((f) => f.x)
    .sort((a, b) => a - b))
    if (!textColumns.length || x - textColumns.at(-1)! > 12) textColumns.push(x);
  // A cell before it in its row with no text column starting between them: placed by its end, the
  // number would share that cell's column ("22" and "44" in two number columns before "Middle!").
  const crowded = (f: (typeof fragments)[number]) =>
    fragments.some(
      (g) =>
        g !== f &&
        Math.abs(g.baseline - f.baseline) <= f.size * 0.4 &&
        g.right < f.x &&
        !textColumns.some((x) => x > g.x + 1 && x <= f.x),
    );
  const alone = (f: (typeof fragments)[number]) =>
    !fragments.some((g) => g !== f && Math.abs(g.baseline - f.baseline) <= f.size * 0.4);
  // A first column widened for its long texts (one text a row, left-aligned ones reaching past the
  // start of the right-aligned ones and ending inside their end), not two columns that no row fills.
  const widened = (f: (typeof fragments)[number]) =>
    fragments.every((g) => !endAligned(g) || Math.abs(g.right - f.right) > 1 || alone(g)) &&
    fragments.some(
      (g) =>
        !endAligned(g) &&
        Math.abs(g.x - textColumns[0]) <= 1 &&
        g.right > f.x &&
        g.right <= f.right + CELL_INSET &&
        alone(g),
    );
  const tucked = (f: (typeof fragments)[number]) => {
    if (!endAligned(f) || crowded(f)) return false;
    const edge = f.right + 2 * CELL_INSET;
    // Just before a text column's start, with a column left of it to be in (else it is a column of
    // its own: "5.10" against "Hello World" in the first two columns).
    if (textColumns.some((x) => x > f.right && x - edge <= 2)) return textColumns.some((x) => x < f.x - 1);
    const c = textColumns.findLastIndex((x) => x < f.x);
    // Under the only text column: a column of the default width, or one widened by up to half of it
    // (a label column); two default widths on, the number is the next column's.
    if (c === 0) {
      const past = f.right - (textColumns[0] - 2 * CELL_INSET + DEFAULT_COLUMN_WIDTH);
      if (past >= -DEFAULT_COLUMN_WIDTH * 0.15 && past < DEFAULT_COLUMN_WIDTH * WIDENED_FIRST_COLUMN) return true;
      return past >= 0 && widened(f);
    }
    return c > 0 && Math.abs(textColumns[c] + (textColumns[c] - textColumns[c - 1]) - edge) <= 1.5;
  };
  const starts = [...new Set(fragments.filter((f) => !tucked(f)).map((f) => Math.round(f.x)))].sort((a, b) => a - b);
  // Starts within 12 pt are one column, unless one row has cells at both (a cell cut from the one
  // before it: a number and a date drawn apart, "1" and "12/23/1952").
  const startsByRow = new Map<number, number[]>();
  for (const f of fragments) {
    const row = Math.round(f.baseline);
    startsByRow.set(row, [...(startsByRow.get(row) ?? []), Math.round(f.x)]);
  }
  const sideBySide = (a: number, b: number) => [...startsByRow.values()].some((s) => s.includes(a) && s.includes(b));
  const columns: number[] = [];
  let cluster: number[] = [];
  for (const x of starts) {
    if (!columns.length || x - columns.at(-1)! > 12 || cluster.some((c) => sideBySide(c, x))) {
      columns.push(x);
      cluster = [];
    }
    cluster.push(x);
  }
  const column = (x: number) => {
    let best = 0;
    for (let i = 0; i < columns.length; i++) if (columns[i] <= x + 12) best = i;
    // Not into a column split off less than 12 pt after the one this text starts in.
    return best > 0 && columns[best] > x + 1 && columns[best] - columns[best - 1] <= 12 ? best - 1 : best;
  };
  // A header centred over its column starts inside it, past its texts' start: a column whose texts
  // are all in one row, each centred within the extent of the column before's texts (none of them
  // in that row), is that column ("E-Mail" centred over addresses 14 pt further left).
  const rowOf = (f: (typeof fragments)[number]) => Math.round(f.baseline);
  const placed = fragments.filter((f) => !tucked(f)).map((f) => ({ f, k: column(f.x) }));
  const headers = columns.flatMap((_, k) => {
    const own = placed.filter((p) => p.k === k).map((p) => p.f);
    const before = placed.filter((p) => p.k === k - 1).map((p) => p.f);
    const rows = new Set(own.map(rowOf));
    if (k === 0 || own.length === 0 || before.length < 2 || rows.size > 1) return [];
    if (before.some((f) => rows.has(rowOf(f)))) return [];
    const [from, to] = [Math.min(...before.map((f) => f.x)), Math.max(...before.map((f) => f.right))];
    return own.every((f) => (f.x + f.right) / 2 <= to && f.x >= from) ? [k] : [];
  });
  for (const k of headers.reverse()) columns.splice(k, 1);
  const columnEndingAt = (right: number) =>
    Math.max(
      0,
      columns.findLastIndex((x) => x < right),
    );
  const rows: LineRow[] = [];
  let lastBaseline = -Infinity;
  const pushed = new Set<Array<GridCell | undefined>>();
  const turnedOnly = new Set<LineRow>();
  for (const f of fragments) {
    if (Math.abs(f.baseline - lastBaseline) > f.size * 0.4) {
      rows.push({ top: f.top, cells: Array.from({ length: columns.length }, () => undefined) });
      lastBaseline = f.baseline;
    }
    const lines = lineBaselines(f.items);
    // A wrapped cell's lines say nothing of the row's pitch.
    if (Math.max(...lines) - Math.min(...lines) <= 1) {
      const current = rows.at(-1)!;
      const turned = f.items.every((i) => i.rotated);
      // Turned text stands on its own anchor, not on the row's baseline: only a row of nothing else uses it.
      if (!turned && turnedOnly.delete(current)) current.baseline = undefined;
      if (!turned || current.baseline === undefined || turnedOnly.has(current)) {
        if (turned) turnedOnly.add(current);
        current.baseline = Math.max(current.baseline ?? -Infinity, ...lines);
      }
      current.size = Math.max(current.size ?? 0, f.size);
      current.rise = Math.max(current.rise ?? 0, superscriptRise(f.items));
    }
    const row = rows.at(-1)!.cells;
    const own = tucked(f) ? columnEndingAt(f.right) : column(f.x);
    let c = own;
    while (c < columns.length - 1 && row[c]) c++;
    // A row whose cells were pushed one column on (a number ending where the next column's text
    // starts, in the column of the number before it) ends in a column of its own, not joined to the last.
    if (c > own) pushed.add(row);
    if (row[c] && pushed.has(row)) c = row.length;
    const bold = f.items.every((i) => i.bold);
    row[c] = row[c]
      ? { ...row[c]!, text: `${row[c]!.text} ${f.text}` }
      : { text: f.text, bold, x: f.x, right: f.right };
  }
  return rows;
}

/**
 * The column of the page's main table that holds `x` (its text start; `end`, a right-aligned
 * number's end). Past the table's right edge the sheet's columns go on at the table's column
 * width, counted from its last column's start: a number printed two columns right of the table
 * is in the second column after it, not the next one.
 */
function columnAt(edges: number[], x: number, end?: number): number {
  const last = edges.length - 2;
  if (last >= 1 && x > edges[last + 1] + 1) {
    const pitch = median(edges.slice(1).map((edge, c) => edge - edges[c]));
    const at = end !== undefined ? end - 2 * CELL_INSET : x + 2 * CELL_INSET;
    return last + Math.max(1, Math.floor((at - edges[last]) / pitch));
  }
  for (let c = last; c >= 0; c--) if (x >= edges[c] - 1) return c;
  return 0;
}

/** Column indexes rising left to right: two texts never share a column. */
function rising(columns: number[]): number[] {
  const out: number[] = [];
  for (const c of columns) out.push(out.length && c <= out.at(-1)! ? out.at(-1)! + 1 : c);
  return out;
}

/**
 * Where the page's columns start, from its main table. An unruled table's edges lie mid-gutter,
 * but a text starting past the end of a column's texts is already in the next column (a heading
 * left-aligned over right-aligned numbers starts before the gutter's middle).
 */
function placementEdges(table: Table): number[] {
  if (table.ruled) return ruledColumns(table).edges;
  return table.colEdges.map((edge, c) => {
    if (c === 0 || c === table.colEdges.length - 1) return edge;
    const rights = table.cells
      .filter((cell) => cell.col === c - 1)
      .flatMap((cell) => cell.items.map((i) => i.x + i.width));
    return rights.length ? Math.min(edge, Math.max(...rights) + 2) : edge;
  });
}

/**
 * The main table's columns with its empty columns put back (`withEmptyColumns`: right-aligned
 * numbers ending well before the next column's texts start), before other blocks are placed in
 * them: a note under the table that fills only the empty column is in that column, not the next.
 * `target` is where each of the table's columns goes; the empty columns share the space between
 * the numbers' column end and the next texts' column start. Only with one sheet per page
 * (`emptyFirst`): a table's own sheet measures its empty columns over all its pages afterwards, and
 * doing it first there lost 13.8 points on a sheet printed as column blocks.
 */
function mainColumns(table: Table, lines: Grid['rows'], emptyFirst: boolean): { edges: number[]; target?: number[] } {
  const edges = placementEdges(table);
  if (table.ruled || !emptyFirst) return { edges };
  const rows = tableGridCells(table);
  const { grid, empties, rights } = emptyColumns(rows, false, lines);
  if (grid || empties.every((k) => k === 0)) return { edges };
  const target: number[] = [];
  const out: number[] = [];
  for (let c = 0; c < edges.length - 1; c++) {
    target[c] = out.length;
    out.push(edges[c]);
    const right = rights[c];
    const k = c < edges.length - 2 && right !== undefined ? empties[c] : 0;
    if (!k) continue;
    const start = right! + CELL_INSET;
    const starts = rows.flatMap((row) => (row[c + 1]?.x !== undefined ? [row[c + 1]!.x!] : []));
    // The next column starts at its texts (placementEdges drew it back to the numbers' end).
    const end = starts.length ? Math.max(start, Math.min(...starts) - CELL_INSET) : edges[c + 1];
    for (let i = 0; i < k; i++) out.push(start + ((end - start) * i) / k);
    edges[c + 1] = end;
  }
  out.push(edges.at(-1)!);
  return { edges: out, target };
}

/**
 * Tables and, in their places, the text lines around them (titles, notes), as rows top to bottom.
 * A printed sheet's blocks share its columns, so every block is placed in the columns of the main
 * table, the one with the most filled cells (a block's column starting inside a column of that
 * table goes in that column), not each numbered from the left.
 */
function placeBlocks(tables: Table[], loose: TextItem[], { emptyColumnsFirst = false } = {}): PlacedRow[] {
  const filled = (t: Table) => t.cells.filter((cell) => cell.text !== '').length;
  const reference = tables.reduce<Table | undefined>(
    (best, t) => (!best || filled(t) > filled(best) ? t : best),
    undefined,
  );
  const lines = linesGrid(loose);
  const placeIn = (
    edges: number[] | undefined,
    cells: Array<GridCell | undefined>,
    starts: Array<number | undefined>,
  ) => {
    if (!edges) return cells;
    const filled = cells.flatMap((cell, c) => (cell && starts[c] !== undefined ? [{ cell, x: starts[c]! }] : []));
    const endOf = (cell: GridCell) => (isNumberOrDate(cell.text) ? cell.right : undefined);
    const columns = rising(filled.map(({ cell, x }) => columnAt(edges, x, endOf(cell))));
    const row: Grid['rows'][number] = [];
    filled.forEach(({ cell }, i) => (row[columns[i]] = cell));
    return Array.from({ length: row.length }, (_, c) => row[c]);
  };
  const startsOf = (cells: Array<GridCell | undefined>) => cells.map((cell) => cell?.x);
  const main =
    reference &&
    mainColumns(
      reference,
      lines.map((row) => placeIn(placementEdges(reference), row.cells, startsOf(row.cells))),
      emptyColumnsFirst,
    );
  // Labels printed left of the main table on the baseline of a table's row ("Acções" beside a ruled
  // table's header row) are columns before the table's, in that row.
  const sameBaseline = (a: number | undefined, b: number | undefined, size: number) =>
    a !== undefined && b !== undefined && Math.abs(a - b) <= size * 0.4;
  const tableRow = (row: (typeof lines)[number]) =>
    tables.some((t) => rowBaselines(t).some((b) => sameBaseline(b, row.baseline, row.size ?? 10)));
  const beside = main
    ? lines.filter((row) => tableRow(row) && row.cells.every((cell) => !cell || cell.right! <= main.edges[0] - 1))
    : [];
  const leftStarts = [...new Set(beside.flatMap((row) => row.cells.flatMap((cell) => (cell ? [cell.x!] : []))))]
    .sort((a, b) => a - b)
    .filter((x, i, xs) => i === 0 || x - xs[i - 1] > 2);
  const shift = leftStarts.length;
  const edges = main && [...leftStarts.map((x) => x - CELL_INSET), ...main.edges];
  const place = (cells: Array<GridCell | undefined>, at: Array<number | undefined>) => placeIn(edges, cells, at);
  // A table's row with the labels beside it in the columns before the table's.
  const labelled = (cells: Grid['rows'][number], baseline: number | undefined) => {
    const label = beside.find((row) => sameBaseline(row.baseline, baseline, row.size ?? 10));
    if (!label) return cells;
    const left = place(label.cells, startsOf(label.cells));
    return Array.from({ length: Math.max(cells.length, shift) }, (_, c) => (c < shift ? left[c] : cells[c]));
  };
  const blocks: Array<{ top: number; rows: PlacedRow[] }> = lines
    .filter((row) => !beside.includes(row))
    .map((row) => ({
      top: row.top,
      rows: [
        {
          baseline: row.baseline,
          size: row.size,
          rise: row.rise,
          cells: place(row.cells, startsOf(row.cells)),
          line: true,
        },
      ],
    }));
  for (const table of tables) {
    const rows = tableGridCells(table);
    const baselines = drawnRowBaselines(table);
    const sizes = rowSizes(table);
    const rises = rowRises(table);
    if (table === reference || !edges) {
      const target = table === reference ? main?.target : undefined;
      blocks.push({
        top: table.box.top,
        rows: rows.map((cells, r) => {
          const own = target
            ? Array.from({ length: target[cells.length - 1] + 1 }, (_, c) => cells[target.indexOf(c)])
            : cells;
          const cellsHere = labelled([...Array(shift), ...own], baselines[r]);
          return { baseline: baselines[r], size: sizes[r], rise: rises[r], cells: cellsHere };
        }),
      });
      continue;
    }
    // A column of another table goes where its leftmost text starts (a ruled table's columns may
    // be more than its frames: `ruledColumns`).
    const starts = table.ruled
      ? Array.from({ length: Math.max(0, ...rows.map((row) => row.length)) }, (_, c) => {
          const xs = rows.flatMap((row) => (row[c]?.x !== undefined ? [row[c]!.x!] : []));
          return xs.length ? Math.min(...xs) : undefined;
        })
      : table.colEdges.slice(1).map((_, c) => {
          const xs = table.cells.filter((cell) => cell.col === c).flatMap((cell) => cell.items.map((i) => i.x));
          return xs.length ? Math.min(...xs) : undefined;
        });
    const used = starts.flatMap((x, c) => (x === undefined ? [] : [c]));
    const columns = rising(used.map((c) => columnAt(edges, starts[c]!)));
    const target = new Map(used.map((c, i) => [c, columns[i]]));
    blocks.push({
      top: table.box.top,
      rows: rows.map((cells, r) => {
        const row: Grid['rows'][number] = [];
        cells.forEach((cell, c) => {
          if (cell && target.has(c)) row[target.get(c)!] = cell;
        });
        return {
          baseline: baselines[r],
          size: sizes[r],
          rise: rises[r],
          cells: labelled(
            Array.from({ length: row.length }, (_, c) => row[c]),
            baselines[r],
          ),
        };
      }),
    });
  }
  return blocks.sort((a, b) => a.top - b.top).flatMap((b) => b.rows);
}

/** A whole page: its tables and the lines around them, in the page's columns. */
function pageGrid(layout: PageLayout, tables: Table[]): Grid['rows'] {
  const loose = layout.items.filter((item) => !tables.some((t) => insideBox(item, t.box)));
  return withEmptyColumns(withEmptyRows(placeBlocks(tables, loose, { emptyColumnsFirst: true })));
}

/**
 * How far (in the table's row pitch) a line may follow on above or below an unruled table and
 * still be its row: one empty row between (a title over the table, a note under it) is 2 pitches,
 * a title's taller row a little more.
 */
const UNRULED_FOLLOW_ON = 2.5;
/** A ruled table: a line in the row just outside its box (a header or total drawn without borders). */
const RULED_FOLLOW_ON = 1.25;

/**
 * The page's text outside its tables, each line given to a table's sheet as a reader would: a
 * line beside a table goes with it; lines above and below it go with it while they follow on at
 * about the table's own row pitch (a header row its columns did not take in, a title, a total, a
 * note), not across a wider gap (a report's paragraphs, a page footer). Lines above a table are
 * given first: a title between two tables belongs to the one under it.
 */
function linesByTable(layout: PageLayout, tables: Table[]): TextItem[][] {
  const loose = layout.items.filter((item) => !tables.some((t) => insideBox(item, t.box)));
  const middle = (item: TextItem) => item.baseline - item.size * 0.3;
  const beside = (table: Table, item: TextItem) =>
    middle(item) >= table.box.top - 1 && middle(item) <= table.box.top + table.box.height + 1;
  const taken = new Set<TextItem>();
  const lines = tables.map((table) => {
    const mine = loose.filter((item) => !taken.has(item) && beside(table, item));
    mine.forEach((item) => taken.add(item));
    return mine;
  });
  for (const direction of [-1, 1] as const)
    tables.forEach((table, t) => {
      const baselines = rowBaselines(table).filter((b): b is number => b !== undefined);
      const gaps = baselines.slice(1).map((b, i) => b - baselines[i]);
      const sizes = table.cells.flatMap((cell) => cell.items.map((i) => i.size));
      const pitch = gaps.length ? median(gaps) : 1.3 * median(sizes);
      const edge = direction > 0 ? table.box.top + table.box.height : table.box.top;
      // A ruled table's rows end at its box; an unruled one's at its outer baselines.
      let last = (table.ruled ? undefined : direction > 0 ? baselines.at(-1) : baselines[0]) ?? edge;
      const reach = (table.ruled ? RULED_FOLLOW_ON : UNRULED_FOLLOW_ON) * pitch;
      const candidates = loose
        .filter((item) => !taken.has(item) && direction * (middle(item) - edge) > 1)
        .sort((a, b) => direction * (a.baseline - b.baseline));
      for (const item of candidates) {
        if (direction * (item.baseline - last) > reach) break;
        lines[t].push(item);
        taken.add(item);
        last = direction > 0 ? Math.max(last, item.baseline) : Math.min(last, item.baseline);
      }
    });
  return lines;
}

/**
 * Whether `next`, first on its page, continues `table`, last on the page before: the same columns
 * (same count, inner edges within a few points; unruled edges move with the widest text).
 */
function continues(table: Table, next: Table): boolean {
  if (table.ruled !== next.ruled || table.colEdges.length !== next.colEdges.length) return false;
  const tolerance = table.ruled ? 2 : 12;
  return table.colEdges.every(
    (edge, i) => i === 0 || i === table.colEdges.length - 1 || Math.abs(edge - next.colEdges[i]) <= tolerance,
  );
}

/** A sheet of one table, and what a table after it may join: the table's rows on its last page. */
interface TableSheet {
  grid: Grid;
  /** The table last written into the sheet, whose columns a next table must have to join it. */
  table: Table;
  page: number;
  /** The sheet's rows on this page (before empty rows are put back) and the sheet row they start at. */
  placed: PlacedRow[];
  start: number;
  /** The sheet's table rows on its first page, whose first rows a printout may repeat on each page. */
  header: Array<Grid['rows'][number]>;
  /** The line of its own (a block's date, a title) the sheet's rows start under on its first page. */
  lead?: Grid['rows'][number];
}

/**
 * Whether a ruled table's rules part each of its rows: no line of text sits more than 1.5 of its
 * sizes both above its row's bottom rule and below its top rule (a cell's text stands on the
 * bottom of its row, or hangs from its top). Borders drawn round a block of rows leave rows
 * between rules; their empty rows show as gaps of whole rows, as an unruled table's do.
 */
function rulesPartRows(table: Table): boolean {
  const sizes = rowSizes(table);
  return rowBaselines(table).every((baseline, r) => {
    const size = sizes[r] ?? 0;
    return (
      baseline === undefined ||
      table.rowEdges[r + 1] - baseline <= 1.5 * size ||
      baseline - size - table.rowEdges[r] <= 1.5 * size
    );
  });
}

/**
 * The sheet's rows on its last page written again, with the empty rows a printout leaves out put
 * back where they follow one pitch. A ruled table whose rules part its rows draws its empty rows as
 * cells, so gains none.
 */
function writePlaced(sheet: TableSheet): void {
  const rows =
    sheet.table.ruled && rulesPartRows(sheet.table)
      ? sheet.placed.map((row) => row.cells)
      : withEmptyRows(sheet.placed);
  sheet.grid.rows = [...sheet.grid.rows.slice(0, sheet.start), ...rows];
}

/**
 * `sheet` with `table` (placed as `placed`) joined under its last table on the page, when the two
 * are one table split by empty rows: unruled rows whose gap holds whole rows of their pitch, or a
 * ruled table's rows whose gap is a whole number (at least one) of its usual ruled row height, the
 * empty rows left without borders. Otherwise undefined: the table starts a sheet of its own.
 */
function joinedBelow(sheet: TableSheet, table: Table, placed: PlacedRow[]): TableSheet | undefined {
  const joined = [...sheet.placed, ...placed];
  if (!table.ruled) {
    const rows = withEmptyRows(joined);
    const apart = rows.indexOf(placed[0].cells) - rows.indexOf(sheet.placed.at(-1)!.cells) > 1;
    return apart ? { ...sheet, table, placed: joined } : undefined;
  }
  const above = sheet.table;
  const heights = [above, table].flatMap((t) => t.rowEdges.slice(1).map((edge, i) => edge - t.rowEdges[i]));
  let pitch = 0;
  let regular = 0;
  for (const candidate of heights) {
    const near = heights.filter((height) => Math.abs(height - candidate) <= candidate * 0.03).length;
    if (near > regular) [pitch, regular] = [candidate, near];
  }
  const gap = table.box.top - (above.box.top + above.box.height);
  const steps = pitch ? Math.round(gap / pitch) : 0;
  if (regular < heights.length / 2 || steps < 1 || Math.abs(gap - steps * pitch) > pitch * 0.08) return undefined;
  const empty: PlacedRow[] = Array.from({ length: steps }, () => ({ cells: [] }));
  return { ...sheet, table, placed: [...sheet.placed, ...empty, ...placed] };
}

/**
 * A page's tables as sheets, one per table (the default). The page's first table may continue the
 * previous page's last one (`last`): a header row repeated there is written once. On one page, a
 * table with the columns of the one above it, below it by a whole number of the rows' pitch, with
 * no text between them, is the same table split by its empty rows (a printout shows them only as a
 * gap; a ruled table's empty rows without borders are no part of its rulings). Returns
 * the sheet the next page's first table may continue; the page's new sheets go into `grids`.
 */
function addTableSheets(
  grids: Grid[],
  layout: PageLayout,
  tables: Table[],
  lines: TextItem[][],
  last?: TableSheet,
): TableSheet | undefined {
  const page = layout.pageNumber;
  // A text between two tables (a heading, a note) shows the space between them is not empty rows.
  const textBetween = (above: Table, below: Table) =>
    layout.items.some((item) => {
      const middle = item.baseline - item.size * 0.3;
      return middle > above.box.top + above.box.height + 1 && middle < below.box.top - 1;
    });
  const added: TableSheet[] = [];
  let open: TableSheet | undefined;
  for (const [t, table] of tables.entries()) {
    const placed = placeBlocks([table], lines[t]);
    if (t === 0 && last && last.page === page - 1 && continues(last.table, table)) {
      const text = (row?: Grid['rows'][number]) => row?.map((cell) => cell?.text ?? '').join('\u0000');
      // Rows a printout repeats at the top of each page (print titles: a title, the header row) are
      // the first page's first rows again, row for row; written once. Under a line of its own only
      // the header row: the rows after it are that block's, however alike. Under a line other than
      // the one the first page's rows start under (the next block's date) none: print titles come
      // first on a page, so that block's band and header rows are its own.
      const rows = placed.filter((row) => !row.line);
      const newBlock = placed[0].line && last.lead && text(placed[0].cells) !== text(last.lead);
      const most = placed[0] === rows[0] ? rows.length - 1 : newBlock ? 0 : 1;
      let repeated = 0;
      while (repeated < most && text(rows[repeated].cells) === text(last.header[repeated])) repeated++;
      const titles = new Set(rows.slice(0, repeated));
      open = {
        ...last,
        table,
        page,
        placed: placed.filter((row) => !titles.has(row)),
        start: last.grid.rows.length,
      };
      last.grid.name = `${last.grid.name.replace(/(Page \d+).*/, '$1')}-${page}`;
    } else if (open && continues(open.table, table) && !textBetween(open.table, table)) {
      open = joinedBelow(open, table, placed);
    } else {
      open = undefined;
    }
    if (!open) {
      const grid = { name: '', rows: [], unruledTable: !table.ruled };
      const header = placed.flatMap((row) => (row.line ? [] : [row.cells]));
      open = { grid, table, page, placed, start: 0, header, lead: placed[0]?.line ? placed[0].cells : undefined };
      added.push(open);
    }
    writePlaced(open);
  }
  added.forEach((sheet, i) => {
    sheet.grid.name = added.length > 1 ? `Page ${page} Table ${i + 1}` : `Page ${page}`;
    grids.push(sheet.grid);
  });
  return open;
}

/**
 * The page's lines that no table took (a report's paragraphs, a footer) under a bold "Page N" line,
 * for the workbook's "Other text" sheet: read down column A, it follows the document, and no line
 * is spread over a table's columns. Texts side by side on one line (two text columns, a footer's
 * page number) go in the next columns, not joined into one run-on sentence.
 */
function otherTextRows(layout: PageLayout, tables: Table[], lines: TextItem[][], floating: TextItem[]): Grid['rows'] {
  const given = new Set(lines.flat());
  const left = layout.items.filter((item) => !given.has(item) && !tables.some((t) => insideBox(item, t.box)));
  const rows = [left, floating].flatMap((items) =>
    linesGrid(items).map((row) => row.cells.flatMap((cell) => (cell ? [{ text: cell.text }] : []))),
  );
  return rows.length ? [[{ text: `Page ${layout.pageNumber}`, bold: true }], ...rows] : [];
}

function sheetName(name: string, used: Set<string>): string {
  const base = name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 28) || 'Sheet';
  let candidate = base;
  for (let i = 2; used.has(candidate.toLowerCase()); i++) candidate = `${base.slice(0, 26)} ${i}`;
  used.add(candidate.toLowerCase());
  return candidate;
}

function csvOf(rows: Grid['rows']): string {
  const quote = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  return rows.map((row) => row.map((cell) => quote(cell?.text ?? '')).join(',')).join('\r\n') + '\r\n';
}

export const run: Engine = async (inputs, options, ctx) => {
  const source = await readOfficeSource(inputs, { ...commonOptions(options), cells: true }, ctx);
  // A comment or text box printed over a sheet is none of its cells: its text goes with the other text.
  const floating = source.layouts.map((layout) => {
    const over = layout.items.filter((item) => item.floating);
    if (over.length) layout.items = layout.items.filter((item) => !item.floating);
    return over;
  });
  const perPage = options.sheets === 'page';
  const asCsv = options.format === 'csv';
  const grids: Grid[] = [];
  let tableCount = 0;
  // A ruled box with no text in it (a chart's gridlines, an empty frame) is not a table.
  const pageTables = source.layouts.map((layout) =>
    layout.ocr
      ? []
      : findTables(layout, { gapEm: CELL_GAP_EM, cells: true }).filter((t) =>
          t.cells.some((cell) => cell.text.trim() !== ''),
        ),
  );
  const anyTable = pageTables.some((t) => t.length > 0);
  // The sheet of the table that ended the previous page, which the next page's first table may continue.
  let lastSheet: TableSheet | undefined;
  // Lines on a table's page that no table's sheet took, so that nothing is silently lost.
  const otherText: Grid['rows'] = [];
  let otherLines = 0;
  for (const [index, layout] of source.layouts.entries()) {
    throwIfAborted(ctx.signal);
    const tables = pageTables[index];
    tableCount += tables.length;
    const page = layout.pageNumber;
    let other = otherTextRows({ ...layout, items: [] }, [], [], floating[index]);
    if (perPage) {
      grids.push({ name: `Page ${page}`, rows: pageGrid(layout, tables) });
    } else if (tables.length) {
      const lines = linesByTable(layout, tables);
      lastSheet = addTableSheets(grids, layout, tables, lines, lastSheet);
      other = otherTextRows(layout, tables, lines, floating[index]);
    } else {
      // A page without a table (a chart's page, notes) still gives its text, so nothing is lost;
      // among table sheets a page with no text at all gives no sheet.
      const rows = pageGrid(layout, []);
      if (!anyTable || rows.length) grids.push({ name: `Page ${page}`, rows });
    }
    otherText.push(...other);
    otherLines += Math.max(0, other.length - 1);
    source.written(index);
  }
  await source.doc.destroy();
  // A table's columns are measured over all its pages, so that every page's rows get the same ones.
  // One table has fewer column edges than a page: every column two or three grid widths wide fits a
  // grid too, so one column must be one grid width wide.
  for (const grid of grids) if (grid.unruledTable) grid.rows = withEmptyColumns(grid.rows, true);
  if (otherLines) grids.push({ name: 'Other text', rows: otherText });
  if (grids.length === 0) grids.push({ name: 'Sheet1', rows: [] });
  const notes = [...source.notes];
  // One sheet per table: a table continued over pages or split by empty rows is one table.
  if (!perPage && anyTable) tableCount = grids.filter((grid) => grid.unruledTable !== undefined).length;
  notes.push(
    tableCount
      ? `${tableCount} table${tableCount === 1 ? '' : 's'} found.`
      : "No tables found: each page's text lines were written as rows.",
  );
  if (otherLines)
    notes.push(`${otherLines} line${otherLines === 1 ? '' : 's'} away from the tables went to the "Other text" sheet.`);

  if (asCsv) {
    if (grids.length === 1) {
      return {
        bytes: new TextEncoder().encode(csvOf(grids[0].rows)),
        filename: `${baseName(inputs[0].name)}.csv`,
        mime: 'text/csv',
        notes,
      };
    }
    const zip = new JSZip();
    const used = new Set<string>();
    for (const grid of grids) zip.file(safeEntryName(`${sheetName(grid.name, used)}.csv`), csvOf(grid.rows));
    return {
      bytes: await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }),
      filename: `${baseName(inputs[0].name)}-tables.zip`,
      mime: 'application/zip',
      notes,
    };
  }

  const dateOrder = detectDateOrder(grids.flatMap((g) => g.rows.flatMap((row) => row.map((cell) => cell?.text ?? ''))));
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Folio';
  const used = new Set<string>();
  for (const grid of grids) {
    const sheet = workbook.addWorksheet(sheetName(grid.name, used));
    const widths: number[] = [];
    grid.rows.forEach((row, r) => {
      row.forEach((cell, c) => {
        if (!cell) return;
        const target = sheet.getCell(r + 1, c + 1);
        const parsed = parseCell(cell.text, dateOrder);
        target.value = parsed.value;
        if (parsed.numFmt) target.numFmt = parsed.numFmt;
        if (cell.bold) target.font = { bold: true };
        if ((cell.rowSpan ?? 1) > 1 || (cell.colSpan ?? 1) > 1) {
          sheet.mergeCells(r + 1, c + 1, r + (cell.rowSpan ?? 1), c + (cell.colSpan ?? 1));
          target.alignment = { vertical: 'middle', horizontal: 'center', wrapText: true };
        }
        const length = (cell.text.length + 2) / Math.max(1, cell.colSpan ?? 1);
        widths[c] = Math.max(widths[c] ?? 0, length);
      });
    });
    widths.forEach((w, c) => {
      sheet.getColumn(c + 1).width = Math.min(60, Math.max(8, w));
    });
  }
  const buffer = await workbook.xlsx.writeBuffer();
  return {
    bytes: new Uint8Array(buffer as ArrayBuffer),
    filename: `${baseName(inputs[0].name)}.xlsx`,
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    notes,
  };
};
