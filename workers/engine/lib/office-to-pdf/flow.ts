/**
 * Flows sections of blocks (paragraphs, tables, page breaks) onto pages: paragraphs break between
 * lines, tables between rows (header rows repeat), headers and footers are drawn on every page of
 * their section, and PAGE / NUMPAGES fields are filled in once the page count is known. Drawings
 * anchored on a table row (shapes on a spreadsheet) are drawn over the page body where the row lands.
 * Line numbers count the body's paragraph lines only, as Word does (not tables, headers, notes, boxes).
 */
import {
  PDFDocument,
  PDFPage,
  clip,
  concatTransformationMatrix,
  endPath,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
} from 'pdf-lib';
import type {
  Block,
  Border,
  FloatPosition,
  Inline,
  LineNumbers,
  PageSetup,
  Paragraph,
  Section,
  Table,
  TableCell,
} from './model.ts';
import { paragraph as makeParagraph } from './model.ts';
import {
  drawLine,
  layoutParagraph,
  type BesideFloat,
  type DrawContext,
  type LaidParagraph,
  type TextContext,
} from './text.ts';
import { throwIfAborted } from '../errors.ts';

type Op = (page: PDFPage, ctx: DrawContext) => void;

interface PageDraft {
  section: Section;
  /** The section's page, its left and right margins swapped on an even page of a mirrored section. */
  setup: PageSetup;
  ops: Op[];
  /**
   * Drawn after the body (drawings anchored on table rows lie over the cells; floating drawings in front of the text).
   */
  overlays: Op[];
  /** Drawn before everything else (floating drawings behind the text). */
  underlays: Op[];
  /** Footnotes of the page, stacked above its bottom margin under a short rule. */
  footnotes: Measured[];
  /** How far down the body reaches, from the top margin (set when the page is left). */
  used?: number;
}

/** Width of the box a line number is right-aligned in (wider than any number's digits). */
const LINE_NUMBER_BOX = 72;

/** Word's line between columns (w:sep): thin and black. */
const COLUMN_RULE: Border = { width: 0.75, color: [0, 0, 0] };

/** Room the footnote rule takes above a page's first footnote. */
const FOOTNOTE_RULE = 10;

/** The room a page's footnotes take from the bottom of its text area. */
function footnoteRoom(notes: Measured[]): number {
  return notes.length ? FOOTNOTE_RULE + notes.reduce((sum, n) => sum + n.height, 0) : 0;
}

/** A floating drawing, laid out: paints itself from the page's setup and its paragraph's top (PDF y). */
type FloatPainter = (page: PDFPage, paragraphTop: number, ctx: DrawContext) => void;

/** Lays out a paragraph's floating drawings (model.ts FloatingDrawing), split into behind and in front of the text. */
async function prepareFloats(
  paragraph: Paragraph,
  ctx: TextContext,
): Promise<{ behind: FloatPainter[]; front: FloatPainter[] }> {
  const out = { behind: [] as FloatPainter[], front: [] as FloatPainter[] };
  for (const float of paragraph.floats ?? []) {
    const { drawing } = float;
    let draw: Awaited<ReturnType<typeof drawing.prepare>>;
    try {
      draw = await drawing.prepare(ctx, drawing.width, drawing.height);
    } catch {
      continue; // a drawing that cannot be laid out is left out
    }
    out[float.behind ? 'behind' : 'front'].push((page, paragraphTop, dctx) => {
      const { width, height } = page.getSize();
      const place = floatBox(
        float,
        drawing,
        { width, height, margin: dctx.setup?.margin ?? { top: 0, right: 0, bottom: 0, left: 0 } },
        paragraphTop,
      );
      draw(page, place.x, height - place.top - drawing.height);
    });
  }
  return out;
}

/**
 * Where something floating, `box` large, lands: x from the page's left edge, top from the page's top
 * edge (paragraphTop is a PDF y).
 */
function floatBox(
  float: FloatPosition,
  box: { width: number; height: number },
  page: Pick<PageSetup, 'width' | 'height' | 'margin'>,
  paragraphTop: number,
): { x: number; top: number } {
  const { horizontal: h, vertical: v } = float;
  const { width, height, margin: m } = page;
  const [x0, x1] =
    h.from === 'page'
      ? [0, width]
      : h.from === 'leftMargin'
        ? [0, m.left]
        : h.from === 'rightMargin'
          ? [width - m.right, width]
          : [m.left, width - m.right];
  const x =
    h.align === 'center'
      ? (x0 + x1 - box.width) / 2
      : h.align === 'right'
        ? x1 - box.width
        : x0 + (h.align ? 0 : h.offset);
  const [t0, t1] =
    v.from === 'page'
      ? [0, height]
      : v.from === 'topMargin'
        ? [0, m.top]
        : v.from === 'bottomMargin'
          ? [height - m.bottom, height]
          : v.from === 'margin'
            ? [m.top, height - m.bottom]
            : [height - paragraphTop, height - m.bottom];
  const top =
    v.align === 'center'
      ? (t0 + t1 - box.height) / 2
      : v.align === 'bottom'
        ? t1 - box.height
        : t0 + (v.align ? 0 : v.offset);
  return { x, top };
}

/** Something already laid out at a fixed width that can be drawn anywhere. */
interface Measured {
  height: number;
  draw: (page: PDFPage, left: number, top: number, ctx: DrawContext) => void;
  /** The same content as pieces a page may break between (a table row split across pages), built when asked for. */
  slices?: () => Slice[];
}

/** A line of a paragraph or a row of a nested table: drawn on its own, on whichever page it lands. */
interface Slice {
  height: number;
  draw: (page: PDFPage, left: number, top: number, ctx: DrawContext) => void;
  /** A page may not break just before this piece (widow and orphan control, a merge across rows). */
  keepsWithPrevious?: boolean;
  /**
   * A nested table's row that may break inside its cells: the part that fits in `room`, and the rest
   * (undefined when nothing of it fits, or all of it does).
   */
  split?: (room: number, force: boolean) => [Slice, Slice] | undefined;
}

/**
 * A paragraph's lines as slices (the first carries the space before, and the floats, the last the
 * space after). Widow and orphan control keep the first two and the last two lines together.
 */
function paragraphSlices(laid: LaidParagraph, width: number, floats?: PreparedFloats): Slice[] {
  const p = laid.paragraph;
  const last = laid.lines.length - 1;
  if (last < 0) return [{ height: p.spaceBefore + p.spaceAfter, draw: () => {} }];
  return laid.lines.map((line, index) => ({
    height: (index === 0 ? p.spaceBefore : 0) + line.height + (index === last ? p.spaceAfter : 0),
    keepsWithPrevious: p.widowControl && index > 0 && (index === 1 || index === last),
    draw(page, left, top, ctx) {
      const y = top - (index === 0 ? p.spaceBefore : 0);
      if (index === 0) for (const paint of floats?.behind ?? []) paint(page, top, ctx);
      shadeParagraph(page, p, left, y, width, line.height);
      drawLine(page, laid, index, left, y, ctx);
      if (index === 0) for (const paint of floats?.front ?? []) paint(page, top, ctx);
    },
  }));
}

/** A nested table's rows as slices; a row inside a merge across rows stays with the row above. */
function tableSlices(table: MeasuredTable): Slice[] {
  const merged = new Set<number>();
  table.rows.forEach((row, r) => {
    for (const cell of row.cells) for (let k = 1; k < cell.rowSpan; k++) merged.add(r + k);
  });
  return table.rows.map((_, r) => ({ ...rowSlice(table, r), keepsWithPrevious: merged.has(r) }));
}

/** A nested table's row as a slice (or what is left of it, `rest`, below its earlier parts' `before`). */
function rowSlice(table: MeasuredTable, r: number, rest?: RowPiece): Slice {
  return {
    height: rest ? rest.height : table.rowHeights[r],
    draw: (page, left, top, ctx) =>
      rest ? table.drawPiece(page, r, rest, left, top, ctx) : table.drawRow(page, r, left, top, ctx),
    split: !table.breakable[r]
      ? undefined
      : (room, force) => {
          const before = rest?.before ?? 0;
          const part = table.piece(r, rest?.rest ?? table.start(r), room, before, force);
          if (!part.advances || part.last || part.height > room + 0.01) return undefined;
          const head: Slice = {
            height: part.height,
            draw: (page, left, top, ctx) => table.drawPiece(page, r, part, left, top, ctx),
          };
          return [head, rowSlice(table, r, table.piece(r, part.rest, Infinity, before + part.height))];
        },
  };
}

/** A paragraph's shading (`w:shd`) between its indents, `height` down from `top`. */
function shadeParagraph(
  page: PDFPage,
  p: LaidParagraph['paragraph'],
  left: number,
  top: number,
  width: number,
  height: number,
) {
  if (!p.shading) return;
  page.drawRectangle({
    x: left + p.indentLeft,
    y: top - height,
    width: width - p.indentLeft - p.indentRight,
    height,
    color: rgb(...p.shading),
  });
}

function paragraphBox(laid: LaidParagraph, width: number, withSpacing: boolean): Measured {
  const p = laid.paragraph;
  const before = withSpacing ? p.spaceBefore : 0;
  const after = withSpacing ? p.spaceAfter : 0;
  return {
    height: before + laid.height + after,
    draw(page, left, top, ctx) {
      let y = top - before;
      shadeParagraph(page, p, left, y, width, laid.height);
      laid.lines.forEach((line, index) => {
        drawLine(page, laid, index, left, y, ctx);
        y -= line.height;
      });
    },
  };
}

/** Stacks blocks at one width without page breaks (table cells, headers, footers). */
export async function measureBlocks(blocks: Block[], width: number, ctx: TextContext): Promise<Measured> {
  const parts: Measured[] = [];
  const slicers: Array<() => Slice[]> = [];
  for (const block of blocks) {
    if (block.kind === 'paragraph') {
      const laid = await layoutParagraph(block, width, ctx);
      const box = paragraphBox(laid, width, true);
      const floats = block.floats?.length ? await prepareFloats(block, ctx) : undefined;
      slicers.push(() => paragraphSlices(laid, width, floats));
      parts.push(
        !floats
          ? box
          : {
              height: box.height,
              draw(page, left, top, dctx) {
                for (const paint of floats.behind) paint(page, top, dctx);
                box.draw(page, left, top, dctx);
                for (const paint of floats.front) paint(page, top, dctx);
              },
            },
      );
    } else if (block.kind === 'table') {
      const table = await measureTable(block, width, ctx);
      slicers.push(() => tableSlices(table));
      parts.push({
        height: table.rowHeights.reduce((a, b) => a + b, 0),
        draw: (page, left, top, dctx) => {
          let y = top;
          table.rows.forEach((_, i) => {
            table.drawRow(page, i, left, y, dctx);
            y -= table.rowHeights[i];
          });
        },
      });
    }
  }
  return {
    height: parts.reduce((sum, part) => sum + part.height, 0),
    draw(page, left, top, dctx) {
      let y = top;
      for (const part of parts) {
        part.draw(page, left, y, dctx);
        y -= part.height;
      }
    },
    slices: () => slicers.flatMap((slicer) => slicer()),
  };
}

interface MeasuredTable {
  rows: Table['rows'];
  rowHeights: number[];
  offset: number;
  /** Left edge of each grid column (and the table's right edge), from the table's left. */
  columnX: number[];
  /** Column widths were scaled by this to fit. */
  scale: number;
  drawRow: (page: PDFPage, rowIndex: number, left: number, top: number, ctx: DrawContext) => void;
  /** Whether each row can break inside its cells: its cells are plain (no merge across rows, no turned or cut text). */
  breakable: boolean[];
  /** Each cell's content of row `r` as slices, for `piece`. */
  start: (r: number) => Slice[][];
  /**
   * The part of row `r` whose cells still hold `cells` that fits in `room` (Infinity: all of it).
   * `before` is the height of the row's parts on earlier pages (the row's minimum height spans them all).
   * `force`: at the top of a page, something of each cell goes in, widow and orphan control or not.
   */
  piece: (r: number, cells: Slice[][], room: number, before: number, force?: boolean) => RowPiece;
  drawPiece: (page: PDFPage, r: number, piece: RowPiece, left: number, top: number, ctx: DrawContext) => void;
}

/** The part of a row split across pages that lands on one page: what of each cell it holds, and what is left. */
interface RowPiece {
  cells: Slice[][];
  rest: Slice[][];
  height: number;
  /** The height of the row's parts before this one. */
  before: number;
  /** The piece holds something (some cell's content goes on), and whether it ends the row. */
  advances: boolean;
  last: boolean;
}

/**
 * Rows broken inside their cells at a line boundary, as Word and LibreOffice break a row that does
 * not fit in the room left on a page: each cell's lines go on at the top of the next page, and both
 * parts are drawn with the cells' shading and borders. Content is top-aligned in a part unless all of
 * the cell's content is in it.
 */
function rowPieces(
  table: Table,
  contents: CellContent[][],
  geometry: { offset: number; columnX: number[] },
): Pick<MeasuredTable, 'breakable' | 'start' | 'piece' | 'drawPiece'> {
  const merged = new Set<number>();
  table.rows.forEach((row, r) => {
    for (const cell of row.cells) for (let k = 1; k < cell.rowSpan; k++) merged.add(r + k);
  });
  const breakable = table.rows.map(
    (row, r) =>
      !row.exactHeight &&
      !merged.has(r) &&
      row.cells.every((cell, c) => cell.rowSpan <= 1 && !cell.textDirection && !cell.clip && contents[r][c].slices),
  );
  const start = (r: number) => contents[r].map((content) => content.slices?.() ?? []);
  /**
   * A cell's part: the slices that fit in `limit`, up to the last place a page may break; or those
   * before a nested row that does not fit and the part of it that does.
   */
  const fitIn = (slices: Slice[], limit: number, keeps: boolean, force: boolean): [Slice[], Slice[], number] => {
    let [used, end, endUsed] = [0, 0, 0];
    for (let k = 0; k < slices.length; k++) {
      if (used + slices[k].height > limit + 0.01) {
        const halves = slices[k].split?.(limit - used, force && k === 0);
        if (halves)
          return [[...slices.slice(0, k), halves[0]], [halves[1], ...slices.slice(k + 1)], used + halves[0].height];
        break;
      }
      used += slices[k].height;
      if (!keeps || k + 1 === slices.length || !slices[k + 1].keepsWithPrevious) [end, endUsed] = [k + 1, used];
    }
    return [slices.slice(0, end), slices.slice(end), endUsed];
  };
  const piece = (r: number, cells: Slice[][], room: number, before: number, force = false): RowPiece => {
    const row = table.rows[r];
    const cut = (keeps: boolean, atLeastOne: boolean): RowPiece => {
      let height = 0;
      const parts = row.cells.map((cell, c) => {
        const pads = cell.padding.top + cell.padding.bottom;
        let [taken, left, used] = fitIn(cells[c], room - pads, keeps, force);
        if (atLeastOne && !taken.length && left.length)
          [taken, left, used] = [[left[0]], left.slice(1), left[0].height];
        height = Math.max(height, used + pads);
        return [taken, left] as const;
      });
      const last = parts.every(([, left]) => !left.length);
      if (last) height = Math.max(height, row.minHeight - before);
      const advances = parts.some(([taken]) => taken.length > 0);
      return {
        cells: parts.map(([taken]) => taken),
        rest: parts.map(([, left]) => left),
        height,
        before,
        last,
        advances,
      };
    };
    const normal = cut(true, false);
    if (normal.advances || !force) return normal;
    const loose = cut(false, false);
    return loose.advances ? loose : cut(false, true);
  };
  const drawPiece = (page: PDFPage, r: number, part: RowPiece, left: number, top: number, ctx: DrawContext) => {
    const { columnX, offset } = geometry;
    const end = columnX.length - 1;
    table.rows[r].cells.forEach((cell, c) => {
      const x = left + offset + columnX[Math.min(cell.column, end)];
      const width = columnX[Math.min(cell.column + cell.colSpan, end)] - columnX[Math.min(cell.column, end)];
      const { height } = part;
      if (cell.shading) page.drawRectangle({ x, y: top - height, width, height, color: rgb(...cell.shading) });
      const slices = part.cells[c];
      const free = height - cell.padding.top - cell.padding.bottom - slices.reduce((sum, s) => sum + s.height, 0);
      const align = part.before === 0 && part.last ? cell.verticalAlign : 'top';
      let y = top - cell.padding.top - (align === 'middle' ? free / 2 : align === 'bottom' ? free : 0);
      for (const slice of slices) {
        slice.draw(page, x + cell.padding.left, y, ctx);
        y -= slice.height;
      }
      drawBorder(page, cell.borders.top, x, top, x + width, top);
      drawBorder(page, cell.borders.bottom, x, top - height, x + width, top - height);
      drawBorder(page, cell.borders.left, x, top, x, top - height);
      drawBorder(page, cell.borders.right, x + width, top, x + width, top - height);
    });
  };
  return { breakable, start, piece, drawPiece };
}

function drawBorder(page: PDFPage, border: Border | undefined, x1: number, y1: number, x2: number, y2: number) {
  if (!border || border.width <= 0) return;
  page.drawLine({
    start: { x: x1, y: y1 },
    end: { x: x2, y: y2 },
    thickness: border.width,
    color: rgb(...border.color),
  });
}

/**
 * A number or date wider than its column prints as "###", as LibreOffice prints it whatever the
 * column's width (Excel fills the column with "#"): a cut-off number would be a wrong number.
 */
async function hashesIfTooWide(blocks: Block[], width: number, ctx: TextContext): Promise<Block[]> {
  const [block] = blocks;
  if (blocks.length !== 1 || block.kind !== 'paragraph') return blocks;
  const laid = await layoutParagraph({ ...block, noWrap: true }, width, ctx);
  if (Math.max(0, ...laid.lines.map((line) => line.width)) <= width + 0.01) return blocks;
  const style = block.inlines.find((inline) => inline.kind === 'text')?.style;
  if (!style) return blocks;
  return [{ ...block, inlines: [{ kind: 'text', text: '###', style }] }];
}

/**
 * The characters of a clipped cell's one-line text that can be seen: those that start inside the cell
 * (left-aligned text cut at the right edge) or end inside it (right-aligned text cut at the left), if
 * only in part.
 * The rest is hidden by the clip yet would still be read by a text extractor, a search or a copy;
 * LibreOffice's PDF leaves it out too. `visible` is how far the cell reaches past the text's start
 * (left-aligned) or before its end (right-aligned).
 */
async function visiblePartOfClipped(blocks: Block[], visible: number, ctx: TextContext): Promise<Block[]> {
  const [block] = blocks;
  if (blocks.length !== 1 || block.kind !== 'paragraph' || !block.noWrap || block.direction === 'rtl') return blocks;
  if (block.align !== 'left' && block.align !== 'right') return blocks;
  const runs = block.inlines;
  if (!runs.every((inline) => inline.kind === 'text')) return blocks;
  const chars = runs.flatMap((run, i) => [...run.text].map((ch) => ({ ch, i })));
  const fromEnd = block.align === 'right';
  // The paragraph with `count` characters kept from its start (or end), each in its own run's style.
  const kept = (count: number): Paragraph => {
    const part = fromEnd ? chars.slice(chars.length - count) : chars.slice(0, count);
    const inlines: Inline[] = [];
    for (const { ch, i } of part) {
      const last = inlines[inlines.length - 1];
      if (last?.kind === 'text' && last.style === runs[i].style) last.text += ch;
      else inlines.push({ kind: 'text', text: ch, style: runs[i].style });
    }
    return { ...block, inlines };
  };
  // One layout; each character's advance in its atom's font (a binary search of layouts was too slow
  // for sheets of thousands of cut cells).
  const [line, ...more] = (await layoutParagraph(block, 1e9, ctx)).lines;
  if (!line || more.length || line.width <= visible + 0.01) return blocks;
  const advances: number[] = [];
  for (const atom of line.atoms) {
    if (atom.kind !== 'text') return blocks;
    for (const ch of atom.text) advances.push(atom.font.widthOfTextAtSize(ch, atom.style.size));
  }
  const laidText = line.atoms.map((atom) => (atom.kind === 'text' ? atom.text : '')).join('');
  if (laidText !== chars.map((c) => c.ch).join('') || advances.length !== chars.length) return blocks;
  if (fromEnd) advances.reverse();
  // The characters that start inside the cell (seen, if only in part).
  let count = 0;
  for (let start = 0; count < advances.length && start < visible; count++) start += advances[count];
  return [kept(count)];
}

/** A cell's measured content; a turned cell's also keeps the length its lines were laid out at. */
type CellContent = Measured & { length?: number };

/** The height a cell's content needs: its lines' length when turned, else its stacked height. */
const cellNeed = (content: CellContent) => content.length ?? content.height;

/**
 * The length to lay a turned cell's lines out at: at least its height and its longest word (words
 * are not broken: the row grows), and longer, up to each paragraph on one line, until the lines
 * stack within the cell's width (`across`), as PowerPoint grows the row.
 */
async function turnedLineLength(blocks: Block[], across: number, height: number, ctx: TextContext): Promise<number> {
  const fits = async (length: number) => (await measureBlocks(blocks, length, ctx)).height <= across + 0.01;
  let oneLine = 0;
  let longestWord = 0;
  for (const block of blocks) {
    if (block.kind !== 'paragraph') continue;
    const indents = block.indentLeft + block.indentRight;
    for (const line of (await layoutParagraph(block, 1e9, ctx)).lines) {
      oneLine = Math.max(oneLine, line.width + indents);
      let word = 0;
      for (const atom of line.atoms) {
        const spaced = atom.kind === 'text' && atom.space;
        word = spaced ? 0 : (atom.kind === 'text' && atom.glued ? word : 0) + atom.width;
        longestWord = Math.max(longestWord, word + indents);
      }
    }
  }
  const shortest = Math.max(height, Math.min(oneLine, longestWord + 0.5));
  if (oneLine <= shortest || (await fits(shortest))) return shortest;
  let [low, high] = [shortest, oneLine + 0.5];
  // The stacked height only shrinks as the lines get longer: halve the interval to within a point.
  while (high - low > 1) {
    const mid = (low + high) / 2;
    if (await fits(mid)) high = mid;
    else low = mid;
  }
  return high;
}

/** Turned text wraps at its cell's final height (rows grown by other cells give its lines more room). */
async function relayTurnedCells(table: Table, contents: CellContent[][], rowHeights: number[], ctx: TextContext) {
  for (const [r, row] of table.rows.entries()) {
    for (const [c, cell] of row.cells.entries()) {
      if (!cell.textDirection) continue;
      const height = rowHeights.slice(r, r + cell.rowSpan).reduce((a, b) => a + b, 0);
      const length = Math.max(contents[r][c].length ?? 0, height - cell.padding.top - cell.padding.bottom);
      contents[r][c] = { ...(await measureBlocks(cell.blocks, length, ctx)), length };
    }
  }
}

async function measureTable(
  table: Table,
  available: number,
  ctx: TextContext,
  rowDone?: (row: number) => void,
): Promise<MeasuredTable> {
  const total = table.columnWidths.reduce((a, b) => a + b, 0) || 1;
  // A table standing out into the margins (a negative indent, an overhang) is shrunk only past them.
  const room = available - Math.min(0, table.indentLeft) + (table.overhangRight ?? 0);
  const scale = table.widthShare
    ? (Math.min(1, table.widthShare) * available) / total
    : total > room && !table.keepsWidth
      ? room / total
      : 1;
  const widths = table.columnWidths.map((w) => w * scale);
  const columnX = [0];
  for (const w of widths) columnX.push(columnX[columnX.length - 1] + w);
  const tableWidth = columnX[columnX.length - 1];
  const offset =
    table.align === 'center'
      ? (available - tableWidth) / 2
      : table.align === 'right'
        ? available - tableWidth
        : table.keepsWidth
          ? table.indentLeft
          : Math.min(table.indentLeft, Math.max(0, available - tableWidth));

  const contents: CellContent[][] = [];
  for (const row of table.rows) {
    const measured: CellContent[] = [];
    for (const cell of row.cells) {
      const end = Math.min(cell.column + cell.colSpan, widths.length);
      const beyond = cell.beyond ? (cell.beyond.left + cell.beyond.right) * scale : 0;
      const cellWidth = columnX[end] - columnX[Math.min(cell.column, widths.length)] + beyond;
      const inner = Math.max(4, cellWidth - cell.padding.left - cell.padding.right);
      let blocks = cell.hashesWhenTooWide ? await hashesIfTooWide(cell.blocks, inner, ctx) : cell.blocks;
      // ("###" in a column narrower than it is printed whole, as LibreOffice does.)
      if (cell.clip && blocks === cell.blocks) {
        const [first] = blocks;
        const before = first?.kind === 'paragraph' && first.align === 'right' ? cell.padding.right : cell.padding.left;
        blocks = await visiblePartOfClipped(blocks, cellWidth - before, ctx);
      }
      if (cell.textDirection) {
        const spanned = table.rows.slice(contents.length, contents.length + cell.rowSpan);
        const height = spanned.reduce((sum, r) => sum + r.minHeight, 0) - cell.padding.top - cell.padding.bottom;
        const length = await turnedLineLength(blocks, inner, Math.max(4, height), ctx);
        measured.push({ ...(await measureBlocks(blocks, length, ctx)), length });
      } else measured.push(await measureBlocks(blocks, inner, ctx));
    }
    contents.push(measured);
    rowDone?.(contents.length - 1);
  }
  // Row heights: single-row cells first; a merged cell that needs more room grows its last row.
  const rowHeights = table.rows.map((row, r) =>
    row.exactHeight
      ? row.minHeight
      : Math.max(
          row.minHeight,
          ...row.cells.map((cell, c) =>
            cell.rowSpan > 1 ? 0 : cellNeed(contents[r][c]) + cell.padding.top + cell.padding.bottom,
          ),
          0,
        ),
  );
  table.rows.forEach((row, r) =>
    row.cells.forEach((cell, c) => {
      if (cell.rowSpan <= 1) return;
      const last = Math.min(r + cell.rowSpan, rowHeights.length) - 1;
      if (table.rows[last].exactHeight) return;
      const spanned = rowHeights.slice(r, last + 1).reduce((a, b) => a + b, 0);
      const need = cellNeed(contents[r][c]) + cell.padding.top + cell.padding.bottom;
      if (need > spanned) rowHeights[last] += need - spanned;
    }),
  );
  await relayTurnedCells(table, contents, rowHeights, ctx);

  const drawCell = (
    page: PDFPage,
    cell: TableCell & { column: number },
    content: Measured,
    x: number,
    top: number,
    width: number,
    height: number,
    ctx2: DrawContext,
  ) => {
    if (cell.textDirection) drawTurnedCell(page, cell, content, x, top, width, height, ctx2);
    else drawCellContent(page, cell, content, x, top, width, height, ctx2);
    drawBorder(page, cell.borders.top, x, top, x + width, top);
    drawBorder(page, cell.borders.bottom, x, top - height, x + width, top - height);
    drawBorder(page, cell.borders.left, x, top, x, top - height);
    drawBorder(page, cell.borders.right, x + width, top, x + width, top - height);
  };
  const drawCellContent = (
    page: PDFPage,
    cell: TableCell & { column: number },
    content: Measured,
    x: number,
    top: number,
    width: number,
    height: number,
    ctx2: DrawContext,
  ) => {
    const free = height - cell.padding.top - cell.padding.bottom - content.height;
    const shift = cell.verticalAlign === 'middle' ? free / 2 : cell.verticalAlign === 'bottom' ? free : 0;
    // (A merged cell split between pages: its content box is the whole merge, reaching off this page.)
    const left = cell.beyond ? x - cell.beyond.left * scale : x;
    const right = cell.beyond ? x + width + cell.beyond.right * scale : x + width;
    if (cell.clip)
      page.pushOperators(pushGraphicsState(), rectangle(left, top - height, right - left, height), clip(), endPath());
    content.draw(page, left + cell.padding.left, top - cell.padding.top - Math.max(0, shift), ctx2);
    if (cell.clip) page.pushOperators(popGraphicsState());
  };

  let cover: Int32Array[] | undefined;
  return {
    rows: table.rows,
    rowHeights,
    offset,
    columnX,
    scale,
    ...rowPieces(table, contents, { offset, columnX }),
    drawRow(page, r, left, top, ctx2) {
      const boxes = table.rows[r].cells.map((cell) => {
        const start = Math.min(cell.column, widths.length);
        const end = Math.min(cell.column + cell.colSpan, widths.length);
        const height = rowHeights.slice(r, Math.min(r + cell.rowSpan, rowHeights.length)).reduce((a, b) => a + b, 0);
        return { x: left + offset + columnX[start], width: columnX[end] - columnX[start], height };
      });
      // Every cell's background first: text running on past its cell (Excel) stays visible over the next one's fill.
      table.rows[r].cells.forEach((cell, c) => drawCellBackground(page, cell, boxes[c], top));
      if (table.gridLines)
        drawGridLines(page, table.gridLines, (cover ??= mergedCover(table)), r, {
          x: left + offset,
          columnX,
          top,
          height: rowHeights[r],
        });
      table.rows[r].cells.forEach((cell, c) =>
        drawCell(page, cell, contents[r][c], boxes[c].x, top, boxes[c].width, boxes[c].height, ctx2),
      );
    },
  };
}

/** A cell's fill and data bar (a little lighter than its colour, as Excel shades it, inset from the cell's edges). */
function drawCellBackground(
  page: PDFPage,
  cell: TableCell,
  { x, width, height }: { x: number; width: number; height: number },
  top: number,
): void {
  if (cell.shading) page.drawRectangle({ x, y: top - height, width, height, color: rgb(...cell.shading) });
  if (cell.bar)
    page.drawRectangle({
      x: x + 1,
      y: top - height + 1.5,
      width: Math.max(0, (width - 2) * cell.bar.fraction),
      height: Math.max(0, height - 3),
      color: rgb(...(cell.bar.color.map((v) => v + (1 - v) * 0.35) as [number, number, number])),
    });
}

/** For each row, which merged cell (an index, or -1) covers each grid column: gridlines do not cross a merge. */
function mergedCover(table: Table): Int32Array[] {
  const columns = table.columnWidths.length;
  const cover = table.rows.map(() => new Int32Array(columns).fill(-1));
  let id = 0;
  table.rows.forEach((row, r) => {
    for (const cell of row.cells) {
      if (cell.colSpan <= 1 && cell.rowSpan <= 1) continue;
      for (let rr = r; rr < Math.min(r + cell.rowSpan, table.rows.length); rr++)
        cover[rr].fill(id, Math.min(cell.column, columns), Math.min(cell.column + cell.colSpan, columns));
      id++;
    }
  });
  return cover;
}

/** One row's gridlines: its top and bottom edges and the column edges, each segment left out inside a merge. */
function drawGridLines(
  page: PDFPage,
  line: Border,
  cover: Int32Array[],
  r: number,
  row: { x: number; columnX: number[]; top: number; height: number },
): void {
  const { x, columnX, top, height } = row;
  const inside = (a: number, b: number) => a >= 0 && a === b;
  const draw = (x1: number, y1: number, x2: number, y2: number) => drawBorder(page, line, x1, y1, x2, y2);
  const here = cover[r];
  for (let c = 0; c < here.length; c++) {
    const [from, to] = [x + columnX[c], x + columnX[c + 1]];
    if (r === 0 || !inside(cover[r - 1][c], here[c])) draw(from, top, to, top);
    if (r === cover.length - 1 || !inside(here[c], cover[r + 1][c])) draw(from, top - height, to, top - height);
  }
  for (let c = 0; c <= here.length; c++)
    if (c === 0 || c === here.length || !inside(here[c - 1], here[c]))
      draw(x + columnX[c], top, x + columnX[c], top - height);
}

/**
 * A turned cell's content, laid out as lines along the cell's height, drawn with the page turned:
 * 'down' from the inner top-right corner (x runs down the page, y to the left), 'up' from the inner
 * bottom-left corner (x runs up, y to the right). verticalAlign places the stacked lines across.
 */
function drawTurnedCell(
  page: PDFPage,
  cell: TableCell,
  content: Measured,
  x: number,
  top: number,
  width: number,
  height: number,
  ctx: DrawContext,
): void {
  const free = Math.max(0, width - cell.padding.left - cell.padding.right - content.height);
  const shift = cell.verticalAlign === 'middle' ? free / 2 : cell.verticalAlign === 'bottom' ? free : 0;
  const matrix: [number, number, number, number, number, number] =
    cell.textDirection === 'down'
      ? [0, -1, 1, 0, x + width - cell.padding.right - shift, top - cell.padding.top]
      : [0, 1, -1, 0, x + cell.padding.left + shift, top - height + cell.padding.bottom];
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...matrix));
  content.draw(page, 0, 0, ctx);
  page.pushOperators(popGraphicsState());
}

/**
 * The drawings anchored on a table's rows, laid out at the table's scale: row index → painters
 * taking the table's left edge and the row's top.
 */
async function prepareOverlays(
  table: Table,
  measured: MeasuredTable,
  ctx: TextContext,
): Promise<Map<number, Array<(page: PDFPage, left: number, rowTop: number) => void>>> {
  const out = new Map<number, Array<(page: PDFPage, left: number, rowTop: number) => void>>();
  for (const [r, row] of table.rows.entries()) {
    for (const overlay of row.overlays ?? []) {
      const { drawing } = overlay;
      const width = drawing.width * measured.scale;
      const height = drawing.height * measured.scale;
      if (!(width > 0 && height > 0)) continue;
      let draw: Awaited<ReturnType<typeof drawing.prepare>>;
      try {
        draw = await drawing.prepare(ctx, width, height);
      } catch {
        continue; // a drawing that cannot be laid out is left out
      }
      const columnLeft = measured.columnX[Math.min(overlay.column, measured.columnX.length - 1)] ?? 0;
      const list = out.get(r) ?? [];
      list.push((page, left, rowTop) =>
        draw(
          page,
          left + measured.offset + columnLeft + overlay.x * measured.scale,
          rowTop - overlay.y * measured.scale - height,
        ),
      );
      out.set(r, list);
    }
  }
  return out;
}

export interface FlowOptions {
  signal?: AbortSignal;
  /** Called after each block with blocks done / total (all sections), then while pages are drawn. */
  progress?: (done: number, total: number, status?: string) => void;
  /** Word's rule: a header taller than the top margin pushes the body down, a footer taller than the bottom one up. */
  bodyClearsFurniture?: boolean;
  /**
   * Word's rule (as LibreOffice 7.4 prints .docx): a paragraph at the top of a page keeps its space
   * before when a break put it there — the document's or a section's start, a page break, "page
   * break before" — and loses it when the text flowed on to the page. Otherwise it always loses it.
   */
  spaceBeforeAfterBreaks?: boolean;
}

/** A heading or section start, where it landed: for the PDF's bookmarks. */
export interface OutlineEntry {
  level: number;
  title: string;
  /** 0-based page index in the document. */
  pageIndex: number;
  /** PDF y of the heading's top on that page. */
  top: number;
}

function plainText(paragraph: Paragraph): string {
  return paragraph.inlines
    .map((i) => (i.kind === 'text' ? i.text : i.kind === 'tab' || i.kind === 'break' ? ' ' : ''))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Room a float takes on its page, which text wraps around (y below the content top, x from the content's left). */
interface Exclusion {
  draft: PageDraft;
  from: number;
  to: number;
  left: number;
  right: number;
  topAndBottom: boolean;
  /** Text on both sides of it where there is room on both (Word's wrapText="bothSides"). */
  bothSides?: boolean;
}

/** Whether a paragraph's bordered box runs on into the paragraph above or below (same borders). */
interface BoxJoins {
  joinsAbove: boolean;
  joinsBelow: boolean;
}

/**
 * Sections laid out into page drafts: where the text has got to (`draft`, `y`: distance below the
 * top of the content area), and the column geometry of the section being laid out.
 */
class Flow {
  readonly drafts: PageDraft[] = [];
  readonly outline: OutlineEntry[] = [];
  /** Where each anchor (Word bookmark) landed: its draft's index and the PDF y of its paragraph's top. */
  readonly anchors = new Map<string, { draft: number; top: number }>();
  readonly firstPage: number;
  readonly totalBlocks: number;
  blocksDone = 0;
  draft = null as unknown as PageDraft; // set by the first section
  y = 0;
  /** The number the current page shows. */
  shownNumber = 0;

  // The section being laid out.
  section = null as unknown as Section;
  setup = null as unknown as PageSetup;
  contentHeight = 0;
  contentWidth = 0;
  columns = 1;
  gap = 0;
  column = 0;
  /** Where this section's columns start on the current page. */
  columnTop = 0;
  /** Whether the column top was set by a break (the section's start, a page break), not reached by flowing on. */
  topAfterBreak = false;
  /** The lowest any column of this section reached on the current page. */
  lowest = 0;
  /** Room taken by floats text wraps around: paragraphs starting beside one are laid out narrower. */
  exclusions: Exclusion[] = [];
  /** The next body line's number, and the page it was last counted on (for numbers restarting on each page). */
  lineNumber = 1;
  lineNumberDraft: PageDraft | undefined;
  /** Whether the section before counted lines (a continuous count goes on from it). */
  countedBefore = false;
  /** Each printed line number laid out once, right-aligned in a box LINE_NUMBER_BOX wide. */
  readonly lineNumberLabels = new Map<string, LaidParagraph>();

  constructor(
    doc: PDFDocument,
    sections: Section[],
    readonly ctx: TextContext,
    readonly options: FlowOptions,
  ) {
    this.firstPage = doc.getPageCount();
    this.totalBlocks = sections.reduce((sum, s) => sum + s.blocks.reduce((n, b) => n + unitsOf(b), 0), 0);
  }

  rowDone = (r: number) => {
    this.blocksDone++;
    if (r % 200 === 199) this.options.progress?.(this.blocksDone, this.totalBlocks);
  };

  /** Notes how far down the body of the page being left reaches (for vertical alignment). */
  leavePage(): void {
    if (this.drafts.length) this.draft.used = Math.max(this.draft.used ?? 0, this.lowest, this.y);
  }

  startPage(): void {
    this.leavePage();
    // The number the page shows (as renderSections counts them), whose parity mirrored margins follow.
    const start = this.section.pageNumbers?.start;
    const firstOfSection = !this.drafts.length || this.draft.section !== this.section;
    this.shownNumber = firstOfSection && start !== undefined ? start : this.shownNumber + 1;
    this.setup = pageSetupOf(this.section, this.shownNumber);
    this.draft = { section: this.section, setup: this.setup, ops: [], overlays: [], underlays: [], footnotes: [] };
    this.drafts.push(this.draft);
    this.y = 0;
  }

  /** A new page: `byBreak` when a page break asks for it, not text flowing on. */
  newPage(byBreak = false): void {
    this.ruleColumns();
    this.startPage();
    this.column = 0;
    this.columnTop = this.lowest = 0;
    this.topAfterBreak = byBreak;
  }

  /** Overflow: the next column, or a new page after the last one. */
  nextColumn(): void {
    this.lowest = Math.max(this.lowest, this.y);
    if (this.column < this.columns - 1) {
      this.column++;
      this.y = this.columnTop;
      this.topAfterBreak = false;
    } else this.newPage();
  }

  left(): number {
    return this.setup.margin.left + this.column * (this.contentWidth + this.gap);
  }

  top(): number {
    return this.setup.height - this.setup.margin.top - this.y;
  }

  bodyRoom(): number {
    return this.contentHeight - footnoteRoom(this.draft.footnotes);
  }

  /** Whether something `height` tall, bringing `notes` with it, still fits in the column (always, at its top). */
  fits(height: number, notes: Measured[] = []): boolean {
    return (
      this.y <= this.columnTop ||
      this.y + height <= this.contentHeight - footnoteRoom([...this.draft.footnotes, ...notes])
    );
  }

  measureNotes(notes: Block[][] | undefined): Promise<Measured[]> {
    return Promise.all((notes ?? []).map((blocks) => measureBlocks(blocks, this.contentWidth, this.ctx)));
  }

  /** Starts a section: on a new page, or below the previous one when continuous and the page is the same size. */
  beginSection(section: Section): void {
    const { page: setup } = section;
    this.section = section;
    this.setup = setup;
    const fullWidth = setup.width - setup.margin.left - setup.margin.right;
    this.contentHeight = setup.height - setup.margin.top - setup.margin.bottom;
    this.columns = Math.max(1, Math.min(section.columns?.count ?? 1, 16));
    this.gap = this.columns > 1 ? (section.columns?.gap ?? 36) : 0;
    this.contentWidth = Math.max(12, (fullWidth - this.gap * (this.columns - 1)) / this.columns);
    this.column = 0;
    // A continuous section goes on below the previous one, on the same page when it is the same size.
    const previous = this.drafts.length ? this.draft.section.page : undefined;
    const samePage = previous && previous.width === setup.width && previous.height === setup.height;
    if (!(section.continuous && samePage && this.y < this.contentHeight - 24)) this.startPage();
    else this.setup = pageSetupOf(section, this.shownNumber);
    this.columnTop = this.y;
    this.lowest = this.y;
    this.topAfterBreak = true;
    this.exclusions = [];
    // Numbers restart with each section unless continuous, and continuous ones go on from the section before.
    const numbering = section.lineNumbers;
    if (numbering && (numbering.restart !== 'continuous' || !this.countedBefore)) this.lineNumber = numbering.start;
    this.countedBefore = numbering !== undefined;
    if (section.bookmark) {
      this.outline.push({
        level: 0,
        title: section.bookmark,
        pageIndex: this.firstPage + this.drafts.length - 1,
        top: setup.height,
      });
    }
  }

  async flowSection(section: Section): Promise<void> {
    this.beginSection(section);
    for (const [blockIndex, block] of section.blocks.entries()) {
      throwIfAborted(this.options.signal);
      if (block.kind === 'pageBreak') {
        this.newPage(true);
      } else if (block.kind === 'paragraph') {
        const [before, after] = [section.blocks[blockIndex - 1], section.blocks[blockIndex + 1]];
        const sameBox = (other: Block | undefined) =>
          Boolean(
            block.borders &&
            other?.kind === 'paragraph' &&
            JSON.stringify(other.borders) === JSON.stringify(block.borders),
          );
        await this.flowParagraph(block, block.keepNext ? await this.firstLineOf(after) : 0, {
          joinsAbove: sameBox(before),
          joinsBelow: sameBox(after),
        });
      } else if (!(await this.floatTable(block, section.blocks[blockIndex + 1]))) await this.flowTable(block);
      this.options.progress?.(++this.blocksDone, this.totalBlocks);
    }
    this.ruleColumns();
    this.y = Math.max(this.lowest, this.y); // a continuous section after this one starts below its longest column
  }

  /** Word's line between columns (w:sep) on the page being left, from the section's top there to its longest column. */
  ruleColumns(): void {
    if (!this.section.columns?.rule || this.columns < 2) return;
    const bottom = Math.max(this.lowest, this.y);
    if (bottom <= this.columnTop) return;
    const { setup, contentWidth, gap } = this;
    const [top, low] = [setup.height - setup.margin.top - this.columnTop, setup.height - setup.margin.top - bottom];
    for (let k = 1; k < this.columns; k++) {
      const x = setup.margin.left + k * (contentWidth + gap) - gap / 2;
      this.draft.ops.push((page) => drawBorder(page, COLUMN_RULE, x, top, x, low));
    }
  }

  /**
   * A floating table (Word's w:tblpPr) placed where its position says, on this page, and the text
   * after it wrapping around it: beside it where at least an inch is left on one side, else below it.
   * Returns false, for the table to flow as any other, when it is taller than the page's body or the
   * section has columns.
   */
  async floatTable(block: Table, next?: Block): Promise<boolean> {
    if (!block.float || this.columns > 1) return false;
    let float = block.float;
    if (block.fitsContent) block = { ...block, columnWidths: [await this.contentWidthOf(block)], fitsContent: false };
    const table = await measureTable(block, this.contentWidth, this.ctx);
    const box = { width: table.columnX[table.columnX.length - 1], height: table.rowHeights.reduce((a, b) => a + b, 0) };
    const notes = (await Promise.all(block.rows.map((row) => this.measureNotes(row.footnotes)))).flat();
    if (box.height > this.contentHeight - footnoteRoom(notes)) return false;
    const fromText = float.vertical.from === 'paragraph';
    // Anchored in the text, it goes to the next page with its paragraph when it does not fit below it.
    if (fromText && !this.fits(float.vertical.offset + box.height, notes)) this.newPage();
    const { setup } = this;
    let place = floatBox(float, box, setup, this.top());
    // Placed on the page above text already laid out there, it would cover it (the text before a
    // table is not laid out again): it stands where it comes in the text instead.
    if (!fromText && this.y > this.columnTop && place.top - setup.margin.top < this.y) {
      float = { ...float, vertical: { from: 'paragraph', offset: 0 } };
      place = floatBox(float, box, setup, this.top());
    }
    // Placed by an offset or on the left, its cells' text stands there (the table's edge is outdented
    // before Word 2013, as inline); on the right or centred, its edges.
    const aligned = float.horizontal.align === 'right' || float.horizontal.align === 'center';
    const [x, top] = [aligned ? place.x - table.offset : place.x, setup.height - place.top];
    const edge = x + table.offset - setup.margin.left;
    const overlays = await prepareOverlays(block, table, this.ctx);
    this.draft.ops.push((page, dctx) => {
      let y = top;
      table.rows.forEach((_, r) => {
        table.drawRow(page, r, x, y, dctx);
        y -= table.rowHeights[r];
      });
    });
    let rowTop = top;
    table.rowHeights.forEach((height, r) => {
      for (const overlay of overlays.get(r) ?? []) {
        const at = rowTop;
        this.draft.overlays.push((page) => overlay(page, x, at));
      }
      rowTop -= height;
    });
    this.draft.footnotes.push(...notes);
    const d = float.distance;
    // A drop cap's lines: those of the paragraph after it.
    const dropLine =
      float.dropLines && next?.kind === 'paragraph'
        ? (await layoutParagraph(next, this.contentWidth, this.ctx)).lines[0]?.height
        : undefined;
    const tall = dropLine ? Math.min(box.height, float.dropLines! * dropLine - 1) : box.height;
    const [left, right] = [edge - d.left, edge + box.width + d.right];
    this.exclusions.push({
      draft: this.draft,
      from: place.top - setup.margin.top - d.top,
      to: place.top - setup.margin.top + tall + d.bottom,
      left,
      right,
      topAndBottom: float.noTextBeside || Math.max(left, this.contentWidth - right) < 72,
    });
    return true;
  }

  /** The width a one-column table needs for its widest line (a Word frame without a width), the column's at most. */
  async contentWidthOf(block: Table): Promise<number> {
    const cell = block.rows[0]?.cells[0];
    let widest = 0;
    for (const p of cell?.blocks ?? []) {
      if (p.kind !== 'paragraph') continue;
      const laid = await layoutParagraph(p, this.contentWidth, this.ctx);
      const indents = p.indentLeft + p.indentRight + Math.max(0, p.firstLine);
      for (const line of laid.lines) widest = Math.max(widest, line.width + indents);
    }
    const padding = (cell?.padding.left ?? 0) + (cell?.padding.right ?? 0);
    return Math.min(this.contentWidth, Math.ceil(widest + padding + 0.5));
  }

  /**
   * Moves below a float that nothing may stand beside, when the next block (`height` tall) starts at
   * its side; with `across` (a table's left and right in the column), below any float it would run
   * into — a table is not narrowed beside one.
   */
  clearFloats(height: number, across?: [number, number]): void {
    const beside = this.exclusions.filter(
      (e) =>
        e.draft === this.draft &&
        (e.topAndBottom || (across && across[0] < e.right && across[1] > e.left)) &&
        this.y < e.to &&
        this.y + height > e.from,
    );
    if (beside.length) this.y = Math.max(this.y, ...beside.map((e) => e.to));
  }

  async flowTable(block: Table): Promise<void> {
    const table = await measureTable(block, this.contentWidth, this.ctx, this.rowDone);
    const width = table.columnX[table.columnX.length - 1];
    this.clearFloats(table.rowHeights[0] ?? 0, [table.offset, table.offset + width]);
    const overlays = await prepareOverlays(block, table, this.ctx);
    // Header rows (Word's "repeat as header row", Excel's print titles) repeat on each new page,
    // as long as they take no more than half of it.
    let repeated = 0;
    const headerRows = block.rows
      .map((row, i) => (row.header ? i : -1))
      .filter((i) => i >= 0 && (repeated += table.rowHeights[i]) <= this.contentHeight / 2);
    const placeRow = (r: number) => {
      const at = this.top(),
        x = this.left();
      this.draft.ops.push((page, dctx) => table.drawRow(page, r, x, at, dctx));
      // A logo in print titles repeats with them.
      for (const overlay of overlays.get(r) ?? []) this.draft.overlays.push((page) => overlay(page, x, at));
    };
    const ruleAtBreak = (rule: Border) => {
      const at = this.top(),
        x = this.left() + table.offset;
      const width = table.columnX[table.columnX.length - 1];
      this.draft.ops.push((page) => drawBorder(page, rule, x, at, x + width, at));
    };
    const breakBefore = (r: number, continued: boolean) => {
      if ((r > 0 || continued) && block.ruleAtBreaks) ruleAtBreak(block.ruleAtBreaks);
      this.nextColumn();
      for (const h of headerRows) {
        if (h >= r) break;
        placeRow(h);
        this.y += table.rowHeights[h];
      }
    };
    const placePiece = (r: number, piece: RowPiece) => {
      const at = this.top(),
        x = this.left();
      this.draft.ops.push((page, dctx) => table.drawPiece(page, r, piece, x, at, dctx));
      if (piece.before === 0)
        for (const overlay of overlays.get(r) ?? []) this.draft.overlays.push((page) => overlay(page, x, at));
      this.y += piece.height;
    };
    for (let r = 0; r < block.rows.length; r++) {
      const row = block.rows[r];
      const notes = await this.measureNotes(row.footnotes);
      // At the top of a column (below repeated header rows) a row that does not fit is broken, or overflows.
      let fresh = this.y <= this.columnTop;
      if (r > 0 && row.pageBreakBefore) {
        breakBefore(r, false);
        fresh = true;
      }
      // Each cell's content as slices, built only for a row that breaks.
      let [cells, before, first] = [undefined as Slice[][] | undefined, 0, true];
      for (;;) {
        const rest = first ? table.rowHeights[r] : table.piece(r, cells!, Infinity, before).height;
        const room = this.contentHeight - footnoteRoom([...this.draft.footnotes, ...(first ? notes : [])]) - this.y;
        const placeRest = () => {
          if (!first) return placePiece(r, table.piece(r, cells!, Infinity, before));
          placeRow(r);
          this.y += rest;
          this.draft.footnotes.push(...notes);
        };
        if (rest <= room) {
          placeRest();
          break;
        }
        // Word's w:cantSplit: such a row moves whole to the next page, and breaks there only when taller than it.
        const breaks = table.breakable[r] && ((row.splits && !row.header) || fresh);
        const piece = breaks ? table.piece(r, (cells ??= table.start(r)), room, before, fresh) : undefined;
        if (piece?.advances && (!piece.last || piece.height <= room || fresh)) {
          if (first) this.draft.footnotes.push(...notes);
          placePiece(r, piece);
          if (piece.last) break; // (forced at the top of a page: its one line overflows)
          [cells, before, first] = [piece.rest, before + piece.height, false];
        } else if (fresh) {
          placeRest(); // nothing of it fits even at the top of a page, and it cannot be broken: it overflows
          break;
        }
        breakBefore(r, !first);
        fresh = true;
      }
      this.rowDone(r);
    }
  }

  /** The room the next block's first line needs (what a "keep with next" paragraph keeps with). */
  async firstLineOf(next: Block | undefined): Promise<number> {
    if (next?.kind === 'paragraph')
      return next.spaceBefore + ((await layoutParagraph(next, this.contentWidth, this.ctx)).lines[0]?.height ?? 0);
    if (next?.kind === 'table') return (await measureTable(next, this.contentWidth, this.ctx)).rowHeights[0] ?? 0;
    return 0;
  }

  /**
   * Text makes room for floats it wraps around (this paragraph's, or earlier ones beside it): below a
   * "top and bottom" one; beside a "square" one, on the side with more room, for the lines that start
   * beside it: the room each float takes beside the paragraph.
   */
  wrapAroundFloats(paragraph: Paragraph): BesideFloat[] {
    const { setup, contentWidth } = this;
    if (this.columns === 1) {
      for (const float of paragraph.floats ?? []) {
        if (!float.wrap || float.wrap.kind === 'none') continue;
        const place = floatBox(float, float.drawing, setup, this.top());
        const d = float.wrap.distance;
        const from = place.top - setup.margin.top - d,
          left = place.x - setup.margin.left - d;
        this.exclusions.push({
          draft: this.draft,
          from,
          to: place.top - setup.margin.top + float.drawing.height + d,
          left,
          right: place.x - setup.margin.left + float.drawing.width + d,
          topAndBottom: float.wrap.kind === 'topAndBottom',
          bothSides: float.wrap.bothSides,
        });
      }
    }
    const firstLine = 14; // about one line of body text: a paragraph whose first line reaches a float is beside it
    this.clearFloats(firstLine);
    // Floats beside the paragraph from its top down (a later one, placed lower on the page, included).
    const bands: BesideFloat[] = [];
    for (const e of this.exclusions) {
      if (e.draft !== this.draft || e.topAndBottom || e.to <= this.y) continue;
      if (e.bothSides && e.left >= 72 && contentWidth - e.right >= 72) {
        bands.push({ from: e.from - this.y, to: e.to - this.y, left: 0, right: 0, gap: [e.left, e.right] });
        continue;
      }
      // The text goes on the side with more room; too narrow to write in there, it runs under the float.
      const [left, right] = e.left >= contentWidth - e.right ? [0, contentWidth - e.left] : [e.right, 0];
      if (contentWidth - left - right >= 72) bands.push({ from: e.from - this.y, to: e.to - this.y, left, right });
    }
    return bands;
  }

  /**
   * Where the lines would break across columns, as Word decides it: "keep lines together" and "keep
   * with next" move the paragraph to the next column when it (and the next block's first line) would
   * not fit but would on an empty one; widow/orphan control never leaves one line of a paragraph
   * alone at the foot or the top of a column. Returns the line the column breaks before (-1: none forced).
   */
  planBreaks(paragraph: Paragraph, heights: number[], notes: Measured[], keepWithNext: number): number {
    const total = heights.reduce((a, b) => a + b, 0);
    // The paragraph's notes come with it.
    const limit = () => this.contentHeight - footnoteRoom([...this.draft.footnotes, ...notes]);
    const room = () => limit() - this.y;
    const fresh = this.contentHeight - this.columnTop;
    const started = this.y > this.columnTop;
    const keep = paragraph.keepLines || paragraph.keepNext;
    if (started && keep && total + (paragraph.keepNext ? keepWithNext : 0) > room() && total + keepWithNext <= fresh)
      this.nextColumn();
    else if (
      started &&
      paragraph.widowControl &&
      heights.length >= 2 &&
      heights[0] <= room() &&
      heights[0] + heights[1] > room()
    ) {
      this.nextColumn(); // an orphan
    }
    let breakBefore = -1;
    if (paragraph.widowControl && heights.length >= 3) {
      // The line the column would break before; one earlier when only the last line would move (a widow).
      let used = this.y;
      for (let i = 0; i < heights.length; i++) {
        if (used > this.columnTop && used + heights[i] > limit()) {
          // Two lines stay, or the whole paragraph moves.
          if (i === heights.length - 1) breakBefore = i >= 3 ? i - 1 : 0;
          break;
        }
        used += heights[i];
      }
    }
    return breakBefore;
  }

  /** What goes with a paragraph's first line: its footnotes, bookmarks, floats, outline entry and shading. */
  firstLineExtras(
    paragraph: Paragraph,
    laid: LaidParagraph,
    floats: PreparedFloats | undefined,
    notes: Measured[],
    x: number,
    at: number,
    width: number,
  ) {
    const { draft } = this;
    draft.footnotes.push(...notes);
    for (const name of paragraph.anchors ?? []) this.anchors.set(name, { draft: this.drafts.length - 1, top: at });
    if (floats) {
      draft.underlays.push(
        ...floats.behind.map(
          (paint): Op =>
            (page, dctx) =>
              paint(page, at, dctx),
        ),
      );
      draft.overlays.push(
        ...floats.front.map(
          (paint): Op =>
            (page, dctx) =>
              paint(page, at, dctx),
        ),
      );
    }
    if (paragraph.outlineLevel !== undefined && paragraph.outlineLevel < 9) {
      const title = plainText(paragraph);
      if (title)
        this.outline.push({
          level: paragraph.outlineLevel,
          title,
          pageIndex: this.firstPage + this.drafts.length - 1,
          top: at,
        });
    }
    if (paragraph.shading) {
      const shadeHeight = laid.height;
      const shadeWidth = width - paragraph.indentLeft - paragraph.indentRight;
      draft.ops.push((page) =>
        page.drawRectangle({
          x: x + paragraph.indentLeft,
          y: at - shadeHeight,
          width: shadeWidth,
          height: shadeHeight,
          color: rgb(...paragraph.shading!),
        }),
      );
    }
  }

  /** Lays out the labels the next `lines` body lines may print: counting on, or from the start on a new page. */
  async layLineNumbers(numbering: LineNumbers, lines: number): Promise<void> {
    for (const from of [this.lineNumber, numbering.start])
      for (let n = from; n < from + lines; n++) {
        const label = String(n);
        if (n % numbering.countBy !== 0 || this.lineNumberLabels.has(label)) continue;
        const text = makeParagraph([{ kind: 'text', text: label, style: numbering.style }], { align: 'right' });
        this.lineNumberLabels.set(label, await layoutParagraph(text, LINE_NUMBER_BOX, this.ctx));
      }
  }

  /** Counts a body line whose baseline is at `baseline` (PDF y), and prints its number in the margin if due. */
  numberLine(numbering: LineNumbers, baseline: number): void {
    const { draft } = this;
    if (numbering.restart === 'newPage' && this.lineNumberDraft !== draft) this.lineNumber = numbering.start;
    this.lineNumberDraft = draft;
    const label = this.lineNumberLabels.get(String(this.lineNumber++));
    if (!label) return;
    // Right-aligned `distance` left of the column, on the line's baseline.
    const x = this.left() - numbering.distance - LINE_NUMBER_BOX;
    const top = baseline + label.lines[0].baseline;
    draft.ops.push((page, dctx) => drawLine(page, label, 0, x, top, dctx));
  }

  async flowParagraph(
    paragraph: Paragraph,
    keepWithNext: number,
    box: BoxJoins = { joinsAbove: false, joinsBelow: false },
  ): Promise<void> {
    const { ctx } = this;
    if (paragraph.pageBreakBefore && this.y > 0) this.newPage(true);
    const afterBreak = this.topAfterBreak && this.options.spaceBeforeAfterBreaks;
    if (this.y > this.columnTop || afterBreak) this.y += paragraph.spaceBefore;
    const laid = await layoutParagraph(paragraph, this.contentWidth, ctx, this.wrapAroundFloats(paragraph));
    const floats = paragraph.floats?.length ? await prepareFloats(paragraph, ctx) : undefined;
    // Footnotes go on the page where the paragraph starts, with its first line.
    const notes = await this.measureNotes(paragraph.footnotes);
    // Paragraph borders take room above and below the text (unless shared with the paragraph next to it).
    const borders = paragraph.borders;
    const topRoom = borders?.top && !box.joinsAbove ? borders.space.top + borders.top.width : 0;
    const bottomRoom = borders?.bottom && !box.joinsBelow ? borders.space.bottom + borders.bottom.width : 0;
    this.y += topRoom;
    const breakBefore = this.planBreaks(
      paragraph,
      laid.lines.map((line) => line.height),
      notes,
      keepWithNext,
    );
    const numbering = paragraph.noLineNumbers ? undefined : this.section.lineNumbers;
    if (numbering) await this.layLineNumbers(numbering, laid.lines.length);
    // The paragraph's part in each column it lands in, for its borders.
    const parts: BorderPart[] = [];
    laid.lines.forEach((line, index) => {
      const overflows =
        index === 0
          ? !this.fits(line.height, notes)
          : this.y > this.columnTop && this.y + line.height > this.bodyRoom();
      if (index === breakBefore || overflows) this.nextColumn();
      const at = this.top(),
        x = this.left();
      const { draft } = this;
      const part = parts[parts.length - 1];
      if (part && part.draft === draft && part.x === x) part.bottom = at - line.height;
      else parts.push({ draft, x, top: at + (index === 0 ? topRoom : 0), bottom: at - line.height });
      if (index === 0) this.firstLineExtras(paragraph, laid, floats, notes, x, at, this.contentWidth);
      draft.ops.push((page, dctx) => drawLine(page, laid, index, x, at, dctx));
      if (numbering) this.numberLine(numbering, at - line.baseline);
      this.y += line.height;
    });
    this.y += bottomRoom;
    if (borders && parts.length) {
      parts[parts.length - 1].bottom -= bottomRoom;
      // Paragraphs sharing a box: the sides run on through the space between them.
      if (box.joinsAbove) parts[0].top += paragraph.spaceBefore;
      if (box.joinsBelow) parts[parts.length - 1].bottom -= paragraph.spaceAfter;
      drawParagraphBorders(paragraph, borders, parts, this.contentWidth, box);
    }
    this.y += paragraph.spaceAfter;
  }
}

type PreparedFloats = Awaited<ReturnType<typeof prepareFloats>>;

/** A paragraph's part in one column, for its borders. */
interface BorderPart {
  draft: PageDraft;
  x: number;
  top: number;
  bottom: number;
}

function drawParagraphBorders(
  paragraph: Paragraph,
  borders: NonNullable<Paragraph['borders']>,
  parts: BorderPart[],
  width: number,
  box: BoxJoins,
): void {
  parts.forEach((part, i) => {
    const x1 = part.x + paragraph.indentLeft - borders.space.left - (borders.left?.width ?? 0) / 2;
    const x2 = part.x + width - paragraph.indentRight + borders.space.right + (borders.right?.width ?? 0) / 2;
    part.draft.ops.push((page) => {
      if (i === 0 && !box.joinsAbove) {
        const y = part.top - (borders.top?.width ?? 0) / 2;
        drawBorder(page, borders.top, x1, y, x2, y);
      }
      if (i === parts.length - 1 && !box.joinsBelow) {
        const y = part.bottom + (borders.bottom?.width ?? 0) / 2;
        drawBorder(page, borders.bottom, x1, y, x2, y);
      }
      drawBorder(page, borders.left, x1, part.top, x1, part.bottom);
      drawBorder(page, borders.right, x2, part.top, x2, part.bottom);
    });
  });
}

/**
 * Progress in blocks, a table counting one per row (twice: measured, then placed), so that a
 * 10,000-row sheet keeps reporting (and the watchdog keeps seeing signs of life).
 */
function unitsOf(block: Block): number {
  return block.kind === 'table' ? 2 * block.rows.length + 1 : 1;
}

type MeasuredFurniture = { header?: Measured; footer?: Measured };

/** Headers and footers, measured once per section (and per first-page / even-page variant). */
async function measureFurniture(sections: Section[], ctx: TextContext) {
  const measure = async (
    section: Section,
    parts: { header?: Block[]; footer?: Block[] },
  ): Promise<MeasuredFurniture> => {
    const width = section.page.width - section.page.margin.left - section.page.margin.right;
    return {
      header: parts.header?.length ? await measureBlocks(parts.header, width, ctx) : undefined,
      footer: parts.footer?.length ? await measureBlocks(parts.footer, width, ctx) : undefined,
    };
  };
  const furniture = new Map<
    Section,
    { normal: MeasuredFurniture; first?: MeasuredFurniture; even?: MeasuredFurniture }
  >();
  for (const section of sections) {
    furniture.set(section, {
      normal: await measure(section, section),
      first: section.firstPage && (await measure(section, section.firstPage)),
      even: section.evenPages && (await measure(section, section.evenPages)),
    });
  }
  return furniture;
}

/**
 * The page with its body below the header and above the footer: Word and LibreOffice start the text
 * at the top margin or below the header, whichever is lower (a form with a 0.1 in margin and a tall
 * title bar), and end it likewise above the footer.
 */
function pageClearingFurniture(setup: PageSetup, { header, footer }: MeasuredFurniture): PageSetup {
  const top = Math.max(setup.margin.top, setup.headerDistance + (header?.height ?? 0));
  const bottom = Math.max(setup.margin.bottom, setup.footerDistance + (footer?.height ?? 0));
  if (top === setup.margin.top && bottom === setup.margin.bottom) return setup;
  return { ...setup, margin: { ...setup.margin, top, bottom } };
}

/**
 * A section's page as page `shown` (the number it shows) has it: with mirrored margins (Word's
 * w:mirrorMargins, ODF's mirrored page usage) an even page's left and right margins swap, the inside
 * margin (and gutter) at the right, where the binding is.
 */
function pageSetupOf(section: Section, shown: number): PageSetup {
  const setup = section.page;
  if (!setup.mirrored || shown % 2 !== 0) return setup;
  return { ...setup, margin: { ...setup.margin, left: setup.margin.right, right: setup.margin.left } };
}

/** A section's page borders on one of its pages, each side on its own from corner to corner. */
function drawPageBorders(page: PDFPage, draft: PageDraft, firstOfSection: boolean): void {
  const borders = draft.section.pageBorders;
  if (!borders || (borders.pages === 'first' && !firstOfSection) || (borders.pages === 'notFirst' && firstOfSection))
    return;
  const { width, height, margin } = draft.setup;
  const { top, right, bottom, left } = borders.sides;
  // Where each side's line runs (its middle): in from the page's edge, or out from the text's margin.
  const at = (side: (typeof borders.sides)['top'], edge: number, textEdge: number, inward: 1 | -1) =>
    side &&
    (borders.from === 'page'
      ? edge + inward * (side.space + side.width / 2)
      : textEdge - inward * (side.space + side.width / 2));
  const y1 = at(top, height, height - margin.top, -1) ?? height - margin.top;
  const y2 = at(bottom, 0, margin.bottom, 1) ?? margin.bottom;
  const x1 = at(left, 0, margin.left, 1) ?? margin.left;
  const x2 = at(right, width, width - margin.right, -1) ?? width - margin.right;
  drawBorder(page, top, x1 - (left?.width ?? 0) / 2, y1, x2 + (right?.width ?? 0) / 2, y1);
  drawBorder(page, bottom, x1 - (left?.width ?? 0) / 2, y2, x2 + (right?.width ?? 0) / 2, y2);
  drawBorder(page, left, x1, y2, x1, y1);
  drawBorder(page, right, x2, y2, x2, y1);
}

/**
 * How far the body of a page moves down for its section's vertical alignment (Word's Layout › Page
 * Setup › Vertical alignment: a title page centred between the margins), 0 for top.
 */
function verticalShift(draft: PageDraft): number {
  const { verticalAlign } = draft.section;
  const page = draft.setup;
  if (!verticalAlign || draft.used === undefined) return 0;
  const room = page.height - page.margin.top - page.margin.bottom - footnoteRoom(draft.footnotes) - draft.used;
  return Math.max(0, verticalAlign === 'center' ? room / 2 : room);
}

/** A page's footnotes: a short rule, then the notes, stacked down to the bottom margin. */
function drawFootnotes(page: PDFPage, draft: PageDraft, dctx: DrawContext): void {
  const { setup } = draft;
  let at = setup.margin.bottom + draft.footnotes.reduce((sum, n) => sum + n.height, 0);
  const ruleY = at + FOOTNOTE_RULE / 2;
  page.drawLine({
    start: { x: setup.margin.left, y: ruleY },
    end: { x: setup.margin.left + 144, y: ruleY },
    thickness: 0.5,
    color: rgb(0, 0, 0),
  });
  for (const note of draft.footnotes) {
    note.draw(page, setup.margin.left, at, dctx);
    at -= note.height;
  }
}

const DRAW_REPORT_PAGES = 20;

/** Lays the sections out and draws them into `doc`. Returns the page count and where headings landed. */
export async function renderSections(
  doc: PDFDocument,
  sections: Section[],
  ctx: TextContext,
  options: FlowOptions = {},
): Promise<{ pageCount: number; outline: OutlineEntry[] }> {
  const furniture = await measureFurniture(sections, ctx);
  if (options.bodyClearsFurniture)
    for (const section of sections) section.page = pageClearingFurniture(section.page, furniture.get(section)!.normal);
  const flow = new Flow(doc, sections, ctx, options);
  for (const section of sections) await flow.flowSection(section);
  flow.leavePage();
  const { drafts, anchors } = flow;
  const pageCount = drafts.length;
  // Every page exists before any is drawn, so that a link can point to a later one.
  const pages = drafts.map((draft) => doc.addPage([draft.section.page.width, draft.section.page.height]));
  const anchor = (name: string) => {
    const place = anchors.get(name);
    // (On a vertically centred page the anchor moved down with its text.)
    return place && { page: pages[place.draft], top: place.top - verticalShift(drafts[place.draft]) };
  };
  // The number each page shows: a section may restart the count (Word's w:pgNumType w:start).
  let shown = 0;
  const pageNumbers = drafts.map((draft, index) => {
    const start = draft.section.pageNumbers?.start;
    const firstOfSection = index === 0 || drafts[index - 1].section !== draft.section;
    shown = firstOfSection && start !== undefined ? start : shown + 1;
    return shown;
  });
  drafts.forEach((draft, index) => {
    // Drawing a long document's pages takes seconds too: a report every few pages keeps the progress
    // line moving (and the watchdog fed) after layout, and a cancel is heard.
    if (index % DRAW_REPORT_PAGES === 0) {
      throwIfAborted(options.signal);
      options.progress?.(index, pageCount, `Drawing page ${index + 1} of ${pageCount}`);
    }
    const { setup } = draft;
    const page = pages[index];
    const pageStyle = draft.section.pageNumbers?.style;
    const dctx: DrawContext = { pageNumber: pageNumbers[index], pageStyle, pageCount, setup, anchor };
    const variants = furniture.get(draft.section)!;
    const firstOfSection = index === 0 || drafts[index - 1].section !== draft.section;
    const { header, footer } =
      (firstOfSection && variants.first) || (pageNumbers[index] % 2 === 0 && variants.even) || variants.normal;
    drawPageBorders(page, draft, firstOfSection);
    for (const op of draft.underlays) op(page, dctx);
    // Header, body, footer: the order text is read in (copy, search, screen readers).
    header?.draw(page, setup.margin.left, setup.height - setup.headerDistance, dctx);
    const shift = verticalShift(draft);
    if (shift > 0) page.pushOperators(pushGraphicsState(), concatTransformationMatrix(1, 0, 0, 1, 0, -shift));
    for (const op of draft.ops) op(page, shift > 0 ? { ...dctx, movedDown: shift } : dctx);
    if (shift > 0) page.pushOperators(popGraphicsState());
    for (const op of draft.overlays) op(page, dctx);
    if (draft.footnotes.length) drawFootnotes(page, draft, dctx);
    footer?.draw(page, setup.margin.left, setup.footerDistance + footer.height, dctx);
  });
  return { pageCount, outline: flow.outline };
}
