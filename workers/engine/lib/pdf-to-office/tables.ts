/**
 * Tables on a PDF page, for the Word and Excel exports.
 *
 * - Ruled tables: horizontal and vertical ruling lines that touch each other form a grid; the
 *   distinct line positions are the row and column boundaries; a missing inner line between two
 *   cells means they are merged.
 * - Unruled tables: consecutive rows of text fragments that share empty vertical gutters. Three or
 *   more columns make a table; two columns do only when the cells are short or mostly numbers
 *   (otherwise they are two columns of running text, which reading order handles).
 */
import type { Box, Fragment, PageLayout, Segment, TextItem } from '../pdf/pdf-layout.ts';
import { buildFragments, median } from '../pdf/pdf-layout.ts';
import { Encodings, Font, FontNames } from '@pdf-lib/standard-fonts';

export interface TableCell {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  text: string;
  items: TextItem[];
}

export interface Table {
  box: Box;
  /** Row boundaries (tops, then the bottom of the last row): rows + 1 values. */
  rowEdges: number[];
  colEdges: number[];
  /** Cells in row-major order; cells covered by a merged cell are absent. */
  cells: TableCell[];
  ruled: boolean;
}

const TOLERANCE = 2;

function clusterValues(values: number[], tolerance = TOLERANCE): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const v of sorted) {
    const last = out.at(-1);
    if (last && v - last.at(-1)! <= tolerance) last.push(v);
    else out.push([v]);
  }
  return out.map((c) => c.reduce((a, b) => a + b, 0) / c.length);
}

const isHorizontal = (s: Segment) => Math.abs(s.y1 - s.y2) < 0.5;

function touches(a: Segment, b: Segment): boolean {
  return a.x1 <= b.x2 + TOLERANCE && b.x1 <= a.x2 + TOLERANCE && a.y1 <= b.y2 + TOLERANCE && b.y1 <= a.y2 + TOLERANCE;
}

/** Connected groups of ruling lines. */
function components(segments: Segment[]): Segment[][] {
  const parent = segments.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < segments.length; i++) {
    for (let j = i + 1; j < segments.length; j++) {
      if (touches(segments[i], segments[j])) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, Segment[]>();
  segments.forEach((s, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), s]);
  });
  return [...groups.values()];
}

function cellText(items: TextItem[]): string {
  if (items.length === 0) return '';
  // A footnote mark raised against a cell's text is part of that text, not a line of its own.
  return buildFragments(items, 3, { marks: true })
    .sort((a, b) => a.top - b.top || a.x - b.x)
    .map((f) => f.text)
    .join('\n')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** A table's cells with the items each holds; `rowOf` gives an item's row where its place does not. */
function fillCells(
  table: Omit<Table, 'cells'>,
  spans: Array<{ row: number; col: number; rowSpan: number; colSpan: number }>,
  items: TextItem[],
  rowOf?: Map<TextItem, number>,
): Table {
  const cells: TableCell[] = spans.map((span) => ({ ...span, text: '', items: [] }));
  const at = (x: number, y: number, known?: number) => {
    const col = table.colEdges.findIndex(
      (edge, i) => i < table.colEdges.length - 1 && x >= edge - 1 && x < table.colEdges[i + 1] + 1,
    );
    const row =
      known ??
      table.rowEdges.findIndex(
        (edge, i) => i < table.rowEdges.length - 1 && y >= edge - 1 && y < table.rowEdges[i + 1] + 1,
      );
    return cells.find((c) => row >= c.row && row < c.row + c.rowSpan && col >= c.col && col < c.col + c.colSpan);
  };
  for (const item of items) {
    const cell = at(item.x + Math.min(item.width, item.size) / 2, item.baseline - item.size * 0.3, rowOf?.get(item));
    cell?.items.push(item);
  }
  for (const cell of cells) cell.text = cellText(cell.items);
  return { ...table, cells };
}

function ruledTables(layout: PageLayout): Table[] {
  const tables: Table[] = [];
  for (const group of components(layout.rulings)) {
    const horizontals = group.filter(isHorizontal);
    const verticals = group.filter((s) => !isHorizontal(s));
    if (horizontals.length < 2 || verticals.length < 2) continue;
    const rowEdges = clusterValues(horizontals.map((s) => s.y1));
    const colEdges = clusterValues(verticals.map((s) => s.x1));
    const rows = rowEdges.length - 1;
    const cols = colEdges.length - 1;
    if (rows < 1 || cols < 1 || rows * cols < 2) continue;
    const box: Box = {
      x: colEdges[0],
      top: rowEdges[0],
      width: colEdges[cols] - colEdges[0],
      height: rowEdges[rows] - rowEdges[0],
    };
    if (box.width < 20 || box.height < 8) continue;
    const hasVertical = (x: number, y: number) =>
      verticals.some((s) => Math.abs(s.x1 - x) <= TOLERANCE && s.y1 <= y + 0.5 && s.y2 >= y - 0.5);
    const hasHorizontal = (x: number, y: number) =>
      horizontals.some((s) => Math.abs(s.y1 - y) <= TOLERANCE && s.x1 <= x + 0.5 && s.x2 >= x - 0.5);
    // Union cells that no inner line separates.
    const parent = Array.from({ length: rows * cols }, (_, i) => i);
    const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
    for (let r = 0; r < rows; r++) {
      const midY = (rowEdges[r] + rowEdges[r + 1]) / 2;
      for (let c = 1; c < cols; c++)
        if (!hasVertical(colEdges[c], midY)) parent[find(r * cols + c)] = find(r * cols + c - 1);
    }
    for (let c = 0; c < cols; c++) {
      const midX = (colEdges[c] + colEdges[c + 1]) / 2;
      for (let r = 1; r < rows; r++)
        if (!hasHorizontal(midX, rowEdges[r])) parent[find(r * cols + c)] = find((r - 1) * cols + c);
    }
    const bounds = new Map<number, { r0: number; r1: number; c0: number; c1: number }>();
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const root = find(r * cols + c);
        const b = bounds.get(root);
        if (!b) bounds.set(root, { r0: r, r1: r, c0: c, c1: c });
        else
          Object.assign(b, {
            r0: Math.min(b.r0, r),
            r1: Math.max(b.r1, r),
            c0: Math.min(b.c0, c),
            c1: Math.max(b.c1, c),
          });
      }
    }
    // Merged areas must be rectangles that do not overlap (Word and Excel insist); an L-shaped
    // group (broken rulings) falls back to single cells.
    const owner: number[] = Array.from({ length: rows * cols }, () => -1);
    const spans: Array<{ row: number; col: number; rowSpan: number; colSpan: number }> = [];
    const sortedBounds = [...bounds.entries()].sort(([, a], [, b]) => a.r0 - b.r0 || a.c0 - b.c0);
    for (const [root, b] of sortedBounds) {
      let rectangular = true;
      for (let r = b.r0; r <= b.r1 && rectangular; r++) {
        for (let c = b.c0; c <= b.c1; c++)
          if (find(r * cols + c) !== root || owner[r * cols + c] !== -1) rectangular = false;
      }
      if (rectangular) {
        for (let r = b.r0; r <= b.r1; r++) for (let c = b.c0; c <= b.c1; c++) owner[r * cols + c] = spans.length;
        spans.push({ row: b.r0, col: b.c0, rowSpan: b.r1 - b.r0 + 1, colSpan: b.c1 - b.c0 + 1 });
      }
    }
    for (let i = 0; i < rows * cols; i++) {
      if (owner[i] === -1) {
        owner[i] = spans.length;
        spans.push({ row: Math.floor(i / cols), col: i % cols, rowSpan: 1, colSpan: 1 });
      }
    }
    const inside = layout.items.filter(
      (i) => i.x + 1 >= box.x && i.x < box.x + box.width && i.baseline > box.top && i.top < box.top + box.height,
    );
    const cellSpans = splitRowsOfBorderGaps(spans, inside, rowEdges, colEdges).sort(
      (a, b) => a.row - b.row || a.col - b.col,
    );
    // A single box around text (every cell merged) is a frame, not a table.
    if (cellSpans.length < 2) continue;
    tables.push(fillCells({ box, rowEdges, colEdges, ruled: true }, cellSpans, inside));
  }
  return tables;
}

type Span = { row: number; col: number; rowSpan: number; colSpan: number };

/**
 * A cell that looks merged over several rows only because a border is missing (a printed
 * spreadsheet draws only the borders its cells have) is split back into its rows: its text lines
 * sit in different rows, each on the baseline of text in other cells of that row.
 */
function splitRowsOfBorderGaps(spans: Span[], items: TextItem[], rowEdges: number[], colEdges: number[]): Span[] {
  const rowOf = (y: number) =>
    rowEdges.findIndex((edge, i) => i < rowEdges.length - 1 && y >= edge && y < rowEdges[i + 1]);
  const within = (item: TextItem, span: Span) => {
    const cx = item.x + Math.min(item.width, item.size) / 2;
    return (
      cx >= colEdges[span.col] - 1 &&
      cx < colEdges[span.col + span.colSpan] + 1 &&
      item.baseline > rowEdges[span.row] &&
      item.baseline <= rowEdges[span.row + span.rowSpan] + 1
    );
  };
  return spans.flatMap((span) => {
    if (span.rowSpan < 2) return [span];
    const own = items.filter((item) => within(item, span));
    const others = items.filter((item) => !within(item, span));
    const rows = new Set(own.map((item) => rowOf(item.baseline - item.size * 0.3)));
    const aligned = own.every((item) => others.some((o) => Math.abs(o.baseline - item.baseline) < 1));
    // Text on its last row's baselines only is that row's (a header band's bottom label, its top
    // row empty); text filling one row of several elsewhere is a merged cell's, centred or not.
    const lastOnly = rows.size === 1 && rows.has(span.row + span.rowSpan - 1);
    if ((rows.size < 2 && !lastOnly) || !aligned) return [span];
    return Array.from({ length: span.rowSpan }, (_, r) => ({ ...span, row: span.row + r, rowSpan: 1 }));
  });
}

const NUMBER = /^[-+(]?[$€£¥]?\s?\d[\d,.\s]*%?\)?$/;

interface Row {
  fragments: Fragment[];
  top: number;
  bottom: number;
}

function rowsOf(fragments: Fragment[]): Row[] {
  const sorted = [...fragments].sort((a, b) => a.baseline - b.baseline);
  const rows: Row[] = [];
  for (const f of sorted) {
    const row = rows.at(-1);
    if (row && Math.abs(median(row.fragments.map((x) => x.baseline)) - f.baseline) <= f.size * 0.4) {
      row.fragments.push(f);
      row.top = Math.min(row.top, f.top);
      row.bottom = Math.max(row.bottom, f.bottom);
    } else rows.push({ fragments: [f], top: f.top, bottom: f.bottom });
  }
  for (const row of rows) row.fragments.sort((a, b) => a.x - b.x);
  return rows;
}

/**
 * How much narrower than its column a cell's text area is: LibreOffice prints a text 1.4 pt inside
 * its column's left edge and wraps it at 1 pt before the right one.
 */
const CELL_TEXT_MARGINS = 2.4;

/** Line spacing of a cell's wrapped lines, in font sizes; a printed row is at least ~1.28 tall. */
const WRAPPED_LINE_EM = 1.2;

/** The least line spacing of a cell's wrapped lines, in font sizes (closer, their glyphs would touch). */
const MIN_LINE_EM = 0.8;

/** Two lines of one wrapped cell: one size, the same start or (a centred cell) the same centre. */
const sameCellLines = (f: Fragment, h: Fragment) =>
  Math.abs(h.size - f.size) <= 0.5 && (Math.abs(h.x - f.x) <= 1.5 || Math.abs(h.x + h.right - f.x - f.right) <= 3);

/**
 * A printed spreadsheet's wrapped cells, each back in one fragment: lines of one cell start at the
 * same x (or, centred, share their centre), in the same size, closer than any row is tall. The cell
 * sits in the row whose other cells share the baseline of one of its lines (a cell is aligned to the
 * bottom, middle or top of its row); a cell alone keeps its first line's baseline.
 */
export function joinWrappedLines(fragments: Fragment[]): Fragment[] {
  const lines = rowsOf(fragments);
  const next = new Map<Fragment, Fragment>();
  const previous = new Map<Fragment, Fragment>();
  lines.forEach((line, i) => {
    for (const f of line.fragments) {
      // The next line of the cell may come after lines of a cell beside it, offset by half a line.
      const below = lines.slice(i + 1).filter((l) => l.fragments[0].baseline - f.baseline <= WRAPPED_LINE_EM * f.size);
      const candidates = below
        .flatMap((l) => l.fragments)
        .filter((h) => !previous.has(h) && sameCellLines(f, h) && h.baseline - f.baseline >= MIN_LINE_EM * f.size);
      // A cell's lines keep one pitch: the lines of a taller cell of the next row, overflowing
      // upwards (centred in its row), may fall between them.
      const above = previous.get(f);
      const g = above
        ? candidates.find((h) => Math.abs(h.baseline - f.baseline - (f.baseline - above.baseline)) <= 1.5)
        : candidates[0];
      if (g) {
        next.set(f, g);
        previous.set(g, f);
      }
    }
  });
  if (next.size === 0) return fragments;
  const stacked = new Set([...next.keys(), ...previous.keys()]);
  const out = fragments.filter((f) => !stacked.has(f));
  const stacks: Fragment[][] = [];
  for (const first of next.keys()) {
    if (previous.has(first)) continue;
    const stack = [first];
    while (next.has(stack.at(-1)!)) stack.push(next.get(stack.at(-1)!)!);
    stacks.push(stack);
  }
  const span = (stack: Fragment[]) => [stack[0].top, stack.at(-1)!.bottom];
  // The row: the baseline of a cell that is not wrapped, nearest the middle of the stack's lines.
  const anchors = stacks.map((stack) => {
    const [top, bottom] = span(stack);
    const middle = (stack[0].baseline + stack.at(-1)!.baseline) / 2;
    const beside = out.filter((f) => f.baseline > top && f.baseline < bottom);
    beside.sort((f, g) => Math.abs(f.baseline - middle) - Math.abs(g.baseline - middle));
    return beside[0]?.baseline;
  });
  // A row of wrapped cells only: they share the row of a wrapped cell beside them.
  stacks.forEach((stack, i) => {
    if (anchors[i] !== undefined) return;
    const [top, bottom] = span(stack);
    const j = stacks.findIndex((other, k) => k !== i && span(other)[0] < bottom && span(other)[1] > top);
    anchors[i] = j >= 0 ? (anchors[j] ?? Math.min(stack[0].baseline, stacks[j][0].baseline)) : stack[0].baseline;
  });
  const broken = brokenWord(stacks, fragments);
  stacks.forEach((stack, i) => {
    let text = stack[0].text;
    // A word broken at its own hyphen ("Bayerisch-" / "Schwaben"), or where the cell's width ran out
    // ("stfabl@aol.c" / "om"), joins without a space.
    stack.slice(1).forEach((line, k) => {
      text += /\p{L}-$/u.test(text) || broken(stack[k], line, stack) ? line.text : ` ${line.text}`;
    });
    out.push({
      items: stack.flatMap((line) => line.items),
      x: Math.min(...stack.map((line) => line.x)),
      right: Math.max(...stack.map((line) => line.right)),
      top: stack[0].top,
      bottom: stack.at(-1)!.bottom,
      baseline: anchors[i]!,
      size: Math.max(...stack.map((line) => line.size)),
      text,
    });
  });
  return out;
}

let helvetica: Font | undefined;

/** A text's width in Helvetica, in ems; undefined when a character has no Helvetica glyph. */
function helveticaWidth(text: string | undefined): number | undefined {
  if (!text) return undefined;
  helvetica ??= Font.load(FontNames.Helvetica);
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (!Encodings.WinAnsi.canEncodeUnicodeCodePoint(code)) return undefined;
    const glyph = helvetica.getWidthOfGlyph(Encodings.WinAnsi.encodeUnicodeCodePoint(code).name);
    if (typeof glyph !== 'number') return undefined;
    width += glyph / 1000;
  }
  return width;
}

/**
 * Whether a wrapped cell's line ends inside a word too long for the cell, broken where the width ran
 * out: a line of one word that could not take one more of its characters, followed by a line going
 * on with a small letter, digit or "@._-". The cell's width is the space up to the next text on its
 * right; in the last column, the widest line of cells starting at its x when three end within 3 pt
 * of it; with neither known, no line is taken as broken.
 */
function brokenWord(
  stacks: Fragment[][],
  fragments: Fragment[],
): (line: Fragment, next: Fragment, stack: Fragment[]) => boolean {
  return (line, next, stack) => {
    const word = line.text.trim();
    if (/\s/.test(word) || !/[\p{L}\p{N}.@_]$/u.test(word) || !/^[\p{Ll}\p{N}@._-]/u.test(next.text.trim()))
      return false;
    const [top, bottom] = [stack[0].top, stack.at(-1)!.bottom];
    const after = fragments.filter(
      (f) => f.x >= line.right - 0.5 && f.x > line.x + 1.5 && f.top < bottom && f.bottom > top,
    );
    const room = after.length ? Math.min(...after.map((f) => f.x)) - line.x - CELL_TEXT_MARGINS : Infinity;
    const widths = stacks
      .filter((other) => Math.abs(other[0].x - line.x) <= 1.5)
      .flatMap((other) => other.map((l) => l.right - l.x));
    const widest = Math.max(...widths);
    const filled = widths.filter((w) => w >= widest - 3).length >= 3 ? widest : Infinity;
    // Measured lines fall short of the width by up to a character: only the last column needs them.
    const width = Number.isFinite(room) ? room : filled;
    // The next character's width, from a standard font's widths scaled to the line's own.
    const [own, first] = [helveticaWidth(word), helveticaWidth([...next.text.trim()][0])];
    const char = own && first ? (first * (line.right - line.x)) / own : (line.right - line.x) / [...word].length;
    return Number.isFinite(width) && line.right - line.x + char > width;
  };
}

type Interval = [number, number];

/** A text that starts like a number, date or time: printed right-aligned by default. */
const NUMBER_LIKE = /^[-+(]?[$€£¥]?\s?\d/;

/**
 * Where texts (not numbers, dates or times, which are right-aligned) start cells on two or more
 * lines of a printed spreadsheet: its columns' left edges.
 */
function cellStarts(rows: Row[]): number[] {
  const xs = rows.flatMap((row, r) =>
    row.fragments.flatMap((f) => (f.items[0]?.startsCell && !NUMBER_LIKE.test(f.text) ? [{ x: f.x, r }] : [])),
  );
  xs.sort((a, b) => a.x - b.x);
  const starts: number[] = [];
  for (let i = 0; i < xs.length;) {
    let j = i + 1;
    while (j < xs.length && xs[j].x - xs[i].x < 0.6) j++;
    if (new Set(xs.slice(i, j).map(({ r }) => r)).size >= 2) starts.push(xs[i].x);
    i = j;
  }
  return starts;
}

function gaps(row: Row, open: boolean, starts: number[] = []): Interval[] {
  const out: Interval[] = [];
  // A text that starts where other lines start cells and runs across where others start theirs
  // overflows into empty cells (a printed spreadsheet clips a text only at a cell that holds
  // something): the column edge is still there. A text drawn elsewhere (centred, or wider than its
  // column) says nothing of its neighbours' edges.
  for (const f of row.fragments) {
    if (NUMBER_LIKE.test(f.text) || !starts.some((x) => Math.abs(x - f.x) < 0.6)) continue;
    // Starts less than 2 em on are the column's own indented texts ("  Continuing education").
    for (const x of starts) if (x > f.x + 2 * f.size && x < f.right) out.push([x - 3, x]);
  }
  // In a printed spreadsheet a row's empty cells before its first and after its last text are
  // open too: "y8" alone in column D does not close the gutters of columns A–C above it.
  if (open) out.push([-Infinity, row.fragments[0].x]);
  for (let i = 1; i < row.fragments.length; i++) {
    const [left, right] = [row.fragments[i - 1].right, row.fragments[i].x];
    // Cells that touch (a right-aligned number against the next column's text) still have a
    // boundary where the second starts.
    out.push(row.fragments[i].items[0]?.startsCell && right - left < 3 ? [right - 3, right] : [left, right]);
  }
  if (open) out.push([Math.max(...row.fragments.map((f) => f.right)), Infinity]);
  return out.sort((a, b) => a[0] - b[0]);
}

/**
 * Column gutters shared by every row: intersections of the rows' gaps, keeping each row's gaps that
 * align. With `open` (a printed spreadsheet), the empty ends of a row count as gaps; a gutter must
 * still lie between two texts of some row.
 */
function sharedGutters(rows: Row[], open = false, starts: number[] = []): Interval[] {
  let shared = gaps(rows[0], open, starts);
  for (const row of rows.slice(1)) {
    const next: Interval[] = [];
    for (const [a0, a1] of shared) {
      // A row may have an empty cell: its gap then spans several gutters, which still intersects.
      for (const [b0, b1] of gaps(row, open, starts)) {
        const lo = Math.max(a0, b0);
        const hi = Math.min(a1, b1);
        if (hi - lo >= 2) next.push([lo, hi]);
      }
    }
    shared = next;
    if (shared.length === 0) break;
  }
  return shared.filter(([lo, hi]) => Number.isFinite(lo) && Number.isFinite(hi));
}

/**
 * The row with its fragments cut where a word gap meets a gutter. pdf.js joins text drawn close
 * together into one item ("Quantity Discount Check"), so an item is cut into words placed in
 * proportion to their characters — close enough, as gutters are wider than the error.
 */
function splitAtGutters(row: Row, gutters: Interval[], gapEm: number): Row {
  const meetsGutter = (from: number, to: number) => gutters.some(([a, b]) => from <= b && to >= a);
  const fragments: Fragment[] = [];
  for (const fragment of row.fragments) {
    if (!meetsGutter(fragment.x, fragment.right)) {
      fragments.push(fragment);
      continue;
    }
    const words = fragment.items
      .flatMap((item) => {
        const perChar = item.width / Math.max(1, item.text.length);
        const out: TextItem[] = [];
        for (const match of item.text.matchAll(/\S+/g)) {
          out.push({ ...item, text: match[0], x: item.x + match.index * perChar, width: match[0].length * perChar });
        }
        return out;
      })
      .sort((a, b) => a.x - b.x);
    let current: TextItem[] = [];
    let right = -Infinity;
    for (const word of words) {
      if (current.length && meetsGutter(right, word.x)) {
        fragments.push(...buildFragments(current, gapEm, { marks: true }));
        current = [];
      }
      current.push(word);
      right = Math.max(right, word.x + word.width);
    }
    if (current.length) fragments.push(...buildFragments(current, gapEm, { marks: true }));
  }
  return { ...row, fragments: fragments.sort((a, b) => a.x - b.x) };
}

function looksTabular(rows: Row[], gutters: Interval[], pageWidth: number): boolean {
  if (rows.length < 3 || gutters.length === 0) return false;
  const fragments = rows.flatMap((r) => r.fragments);
  const numeric = fragments.filter((f) => NUMBER.test(f.text)).length / fragments.length;
  if (gutters.length >= 2) return true;
  const widths = fragments.map((f) => f.right - f.x);
  return numeric >= 0.3 || median(widths) < pageWidth * 0.2;
}

/** Unruled tables among the fragments (those not inside a ruled table). */
function unruledTables(layout: PageLayout, items: TextItem[], gapEm: number, cells: boolean): Table[] {
  const lineFragments = buildFragments(items, gapEm, { cells });
  const rows = rowsOf(cells ? joinWrappedLines(lineFragments) : lineFragments);
  const starts = cells ? cellStarts(rows) : [];
  const tables: Table[] = [];
  let start = 0;
  while (start < rows.length) {
    if (rows[start].fragments.length < 2) {
      start++;
      continue;
    }
    // Grow the run while rows keep ≥ 2 cells, share gutters and are spaced like table rows.
    let end = start + 1;
    let gutters = sharedGutters([rows[start]], cells, starts);
    const pitch: number[] = [];
    while (end < rows.length) {
      const row = rows[end];
      const step = row.top - rows[end - 1].top;
      if (row.fragments.length < 2 || (step > median([...pitch, step]) * 1.8 + 0.1 && pitch.length > 1)) break;
      if (step > rows[end - 1].fragments[0].size * 3.5) break;
      const next = sharedGutters(rows.slice(start, end + 1), cells, starts);
      if (next.length === 0) break;
      // With open row ends, a row must not join only through its empty ends: a gap between two of
      // its own cells that meets no shared gutter means its columns are not the run's.
      const meets = ([a, b]: Interval) => next.some(([lo, hi]) => a <= hi && b >= lo);
      if (cells && !gaps(row, false).every(meets)) break;
      gutters = next;
      pitch.push(step);
      end++;
    }
    let run = rows.slice(start, end);
    // A heading row whose cells nearly touch ("Quantity Discount Check" over narrow columns) is
    // one fragment that hides the gutters of the rows below it: split it where they pass.
    if (run.length >= 3) {
      const below = sharedGutters(run.slice(1), cells, starts);
      if (below.length > gutters.length) {
        const heading = splitAtGutters(run[0], below, gapEm);
        const refined = sharedGutters([heading, ...run.slice(1)], cells, starts);
        if (refined.length > gutters.length) {
          run = [heading, ...run.slice(1)];
          gutters = refined;
        }
      }
    }
    if (looksTabular(run, gutters, layout.width)) {
      const runFragments = run.flatMap((r) => r.fragments);
      const left = Math.min(...runFragments.map((f) => f.x));
      const right = Math.max(...runFragments.map((f) => f.right));
      const colEdges = [left - 1, ...gutters.map(([a, b]) => (a + b) / 2).sort((a, b) => a - b), right + 1];
      const rowEdges = [
        run[0].top - 1,
        ...run.slice(1).map((r, i) => (run[i].bottom + r.top) / 2),
        run.at(-1)!.bottom + 1,
      ];
      const box: Box = {
        x: colEdges[0],
        top: rowEdges[0],
        width: colEdges.at(-1)! - colEdges[0],
        height: rowEdges.at(-1)! - rowEdges[0],
      };
      const items = runFragments.flatMap((f) => f.items);
      // A wrapped cell taller than its row overflows into the rows beside it: its lines are in its
      // own row, whatever band they fall in.
      const rowOf = new Map(run.flatMap((row, r) => row.fragments.flatMap((f) => f.items.map((i) => [i, r] as const))));
      const fill = (edges: number[]) =>
        fillCells(
          { box, rowEdges, colEdges: edges, ruled: false },
          run.flatMap((_, r) => edges.slice(1).map((__, c) => ({ row: r, col: c, rowSpan: 1, colSpan: 1 }))),
          items,
          cells ? rowOf : undefined,
        );
      const table = fill(colEdges);
      const joined = joinHeaderOnlyColumns(table);
      tables.push(joined === table.colEdges ? table : fill(joined));
      start = end;
    } else {
      start++;
    }
  }
  return tables;
}

/**
 * Column edges without the gutter between a column that holds little but a heading and the column
 * of cells below it: a left-aligned heading over right-aligned numbers (a printed spreadsheet)
 * leaves a gutter between the heading and its own column.
 */
function joinHeaderOnlyColumns(table: Table): number[] {
  const cols = table.colEdges.length - 1;
  const filled = Array.from(
    { length: cols },
    (_, c) => new Set(table.cells.filter((cell) => cell.col === c && cell.text !== '').map((cell) => cell.row)),
  );
  const edges = [...table.colEdges];
  for (let c = cols - 1; c >= 1; c--) {
    const [left, right] = [filled[c - 1], filled[c]];
    const [few, many] = left.size <= right.size ? [left, right] : [right, left];
    // The sparse column holds the heading (it starts above the other) and a few stray cells (a
    // left-aligned "#REF!" among right-aligned numbers); the two never share a row.
    const disjoint = [...few].every((row) => !many.has(row));
    const headsTheOther =
      few.size >= 1 &&
      many.size >= 2 &&
      few.size <= Math.max(1, Math.floor(many.size / 5)) &&
      Math.min(...few) < Math.min(...many);
    if (disjoint && headsTheOther && !numbersOverNumbers(table, c)) {
      edges.splice(c, 1);
      filled[c - 1] = new Set([...left, ...right]);
    }
  }
  return edges.length === table.colEdges.length ? table.colEdges : edges;
}

/**
 * Columns `c - 1` and `c` hold only numbers: a number over a column of numbers is no heading but a
 * value of its own column (right-aligned, it ends at that column's edge, well before the other
 * column's numbers start: "42" over two "142" one column to its right).
 */
function numbersOverNumbers(table: Table, c: number): boolean {
  const onlyNumbers = (col: number) =>
    table.cells.filter((cell) => cell.col === col && cell.text !== '').every((cell) => NUMBER.test(cell.text.trim()));
  return onlyNumbers(c - 1) && onlyNumbers(c);
}

/**
 * A ruled box one of whose cells holds a grid of its own (two or more lines, each of cells apart):
 * the rulings frame an unruled table (a pivot table's data area, bordered only around), so its
 * rows and columns are read from the text, as an unruled table's.
 */
function framesAGrid(table: Table, gapEm: number): boolean {
  return table.cells.some((cell) => {
    const lines = rowsOf(buildFragments(cell.items, gapEm, { cells: true }));
    return lines.filter((line) => line.fragments.length >= 2).length >= 2;
  });
}

export function insideBox(item: TextItem, box: Box): boolean {
  const cx = item.x + Math.min(item.width, item.size) / 2;
  const cy = item.baseline - item.size * 0.3;
  return cx >= box.x - 1 && cx <= box.x + box.width + 1 && cy >= box.top - 1 && cy <= box.top + box.height + 1;
}

/**
 * Every table on the page, ruled first; `unruled: false` keeps only ruled ones. `gapEm` is the gap
 * (in font sizes) that separates two cells of an unruled row: spreadsheets printed to PDF leave
 * narrow gaps, so the Excel export uses a smaller value than running text needs; `cells` is
 * buildFragments' spreadsheet reading.
 */
export function findTables(layout: PageLayout, { unruled = true, gapEm = 1.2, cells = false } = {}): Table[] {
  const ruled = ruledTables(layout).filter((table) => !(cells && framesAGrid(table, gapEm)));
  if (!unruled) return ruled;
  const rest = layout.items.filter((item) => !ruled.some((t) => insideBox(item, t.box)));
  return [...ruled, ...unruledTables(layout, rest, gapEm, cells)].sort((a, b) => a.box.top - b.box.top);
}

/** The table as a grid of strings (merged cells' text in their top-left cell). */
export function tableGrid(table: Table): string[][] {
  const rows = table.rowEdges.length - 1;
  const cols = table.colEdges.length - 1;
  const grid = Array.from({ length: rows }, () => Array.from({ length: cols }, () => ''));
  for (const cell of table.cells) grid[cell.row][cell.col] = cell.text;
  return grid;
}
