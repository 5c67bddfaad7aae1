/**
 * Tables (w:tbl): the grid, spans and vertical merges, cell margins, and borders and shading from
 * the table style (with its conditional formats for header rows, bands and corners), the table and
 * the cell; cell text gets the table style's run and paragraph formatting.
 */
import { FolioError } from '../../errors.ts';
import { mirrorColumns } from '../bidi.ts';
import type { Block, Border, FloatPosition, Paragraph, Rgb, Table, TableCell, TableRow } from '../model.ts';
import { attr, hexColor, kid, kids, num, type XmlElement } from '../xml.ts';
import type { CellTextStyle, DocxContext, Rels } from './context.ts';
import { ParagraphSpacing, readParagraph } from './paragraph.ts';
import { borderOf, onOff, styleChain, TWIP, type Style } from './styles.ts';

/**
 * Which of a table style's conditional formats apply to a cell, lowest priority first (Word's
 * order: whole table, column bands, row bands, first/last column, first/last row, corners).
 * `look` is the table's w:tblLook: which of them the table turns on.
 */
export function conditionalTypes(
  r: number,
  c: number,
  rows: number,
  columns: number,
  look: TableLook,
  rowBand = 1,
  colBand = 1,
): string[] {
  const first = look.firstRow && r === 0,
    last = look.lastRow && r === rows - 1 && rows > 1;
  const firstCol = look.firstColumn && c === 0,
    lastCol = look.lastColumn && c === columns - 1 && columns > 1;
  const types = ['wholeTable'];
  if (!look.noVBand && !firstCol && !lastCol)
    types.push(Math.floor((c - (look.firstColumn ? 1 : 0)) / colBand) % 2 === 0 ? 'band1Vert' : 'band2Vert');
  if (!look.noHBand && !first && !last)
    types.push(Math.floor((r - (look.firstRow ? 1 : 0)) / rowBand) % 2 === 0 ? 'band1Horz' : 'band2Horz');
  if (firstCol) types.push('firstCol');
  if (lastCol) types.push('lastCol');
  if (first) types.push('firstRow');
  if (last) types.push('lastRow');
  if (first && firstCol) types.push('nwCell');
  if (first && lastCol) types.push('neCell');
  if (last && firstCol) types.push('swCell');
  if (last && lastCol) types.push('seCell');
  return types;
}

export interface TableLook {
  firstRow: boolean;
  lastRow: boolean;
  firstColumn: boolean;
  lastColumn: boolean;
  noHBand: boolean;
  noVBand: boolean;
}

/** w:tblLook as attributes (Word 2010+) or as the older hexadecimal w:val. */
export function tableLook(element: XmlElement | undefined): TableLook {
  // Without the element, Word's default (header row, first column, row bands); with attributes
  // and no w:val, an attribute left out is off.
  const bits = parseInt(attr(element, 'w:val') ?? (element ? '0' : '04A0'), 16);
  const flag = (name: string, bit: number) => {
    const value = attr(element, `w:${name}`);
    return value !== undefined ? value === '1' || value === 'true' || value === 'on' : (bits & bit) !== 0;
  };
  return {
    firstRow: flag('firstRow', 0x20),
    lastRow: flag('lastRow', 0x40),
    firstColumn: flag('firstColumn', 0x80),
    lastColumn: flag('lastColumn', 0x100),
    noHBand: flag('noHBand', 0x200),
    noVBand: flag('noVBand', 0x400),
  };
}

/** One layer of a table style that applies to a cell: the style's own, or one of its conditional formats. */
interface StylePart {
  tcPr?: XmlElement;
  rPr?: XmlElement;
  pPr?: XmlElement;
  tblPr?: XmlElement;
}

type Side = 'top' | 'bottom' | 'left' | 'right';

/** What a table's cells share while they are read. */
interface TableFrame {
  ctx: DocxContext;
  partRels: Rels;
  /** The style's own formatting plus its conditional formats for one cell, lowest priority first. */
  styleParts: (r: number, c: number) => StylePart[];
  /** The table's borders: the table style chain's, then the table's own (w:tblBorders). */
  borders: Record<string, Border | undefined>;
  rowCount: number;
  gridCols: number[];
  padLeft: number;
  padRight: number;
}

/** A table style's layers for each cell, from its look (w:tblLook) and band sizes. */
function styleLayers(chain: Style[], tblPr: XmlElement | undefined, rowCount: number, columnCount: number) {
  const look = tableLook(kid(tblPr, 'w:tblLook'));
  const styleValue = (name: string) =>
    chain.reduce<number | undefined>((v, s) => num(kid(s.tblPr, name), 'w:val') ?? v, undefined);
  const rowBand = Math.max(1, styleValue('w:tblStyleRowBandSize') ?? 1);
  const colBand = Math.max(1, styleValue('w:tblStyleColBandSize') ?? 1);
  return (r: number, c: number): StylePart[] => {
    const types = conditionalTypes(r, c, rowCount, columnCount, look, rowBand, colBand);
    // The style's own paragraph properties sit above the document defaults and below the paragraph's
    // style (paragraphProps): Table Grid's "single, no space after" holds where the spacing comes from
    // the defaults (Word 2010 and later's own template), and Normal's own spacing wins over it.
    const parts: StylePart[] = chain.map((st) => ({ tcPr: st.tcPr, rPr: st.rPr, pPr: st.pPr }));
    for (const type of types)
      for (const st of chain) {
        const el = st.conditional?.get(type);
        if (el)
          parts.push({
            tcPr: kid(el, 'w:tcPr'),
            rPr: kid(el, 'w:rPr'),
            pPr: kid(el, 'w:pPr'),
            tblPr: kid(el, 'w:tblPr'),
          });
      }
    return parts;
  };
}

function tableBorders(chain: Style[], tblPr: XmlElement | undefined): Record<string, Border | undefined> {
  const bordersEl: Record<string, XmlElement | undefined> = {};
  for (const source of [...chain.map((s) => s.tblPr), tblPr]) {
    const borders = kid(source, 'w:tblBorders');
    for (const side of ['top', 'left', 'bottom', 'right', 'insideH', 'insideV', 'start', 'end']) {
      const el = kid(borders, `w:${side}`);
      if (el) bordersEl[side === 'start' ? 'left' : side === 'end' ? 'right' : side] = el;
    }
  }
  return Object.fromEntries(Object.entries(bordersEl).map(([k, v]) => [k, borderOf(v)]));
}

/** A cell's blocks, read with the table style's text formatting for this cell. */
async function cellBlocks(frame: TableFrame, tc: XmlElement, parts: StylePart[]): Promise<Block[]> {
  const { ctx, partRels } = frame;
  const blocks: Block[] = [];
  const outerCellStyle = ctx.cellTextStyle;
  const textStyle: CellTextStyle = {
    rPr: parts.flatMap((p) => (p.rPr ? [p.rPr] : [])),
    pPr: parts.flatMap((p) => (p.pPr ? [p.pPr] : [])),
  };
  ctx.cellTextStyle = textStyle;
  const spacing = new ParagraphSpacing(ctx.paragraphSpacing);
  try {
    for (const child of kids(tc)) {
      if (child.nodeName === 'w:p') {
        const paragraph = await readParagraph(ctx, child, partRels);
        spacing.place(paragraph);
        blocks.push(...paragraph.blocks.filter((b) => b.kind !== 'pageBreak'));
      } else if (child.nodeName === 'w:tbl') {
        spacing.interrupt();
        blocks.push(await readTable(ctx, child, partRels));
      }
    }
  } finally {
    ctx.cellTextStyle = outerCellStyle;
  }
  // A cell ends in a paragraph, so Word writes an empty one after a table at a cell's end. LibreOffice
  // 7.4 gives it no room (the cell ends at the inner table's bottom edge and margin): so does Folio.
  const [inner, last] = blocks.slice(-2);
  if (inner?.kind === 'table' && last?.kind === 'paragraph' && isEmptyParagraph(last)) blocks.pop();
  return blocks;
}

function isEmptyParagraph(paragraph: Paragraph): boolean {
  return (
    paragraph.inlines.every((inline) => inline.kind === 'text' && !inline.text) &&
    !paragraph.marker &&
    !paragraph.floats?.length &&
    !paragraph.anchors?.length &&
    !paragraph.footnotes?.length
  );
}

/** Borders and shading of a cell: the table's, then the style's for this cell, then the cell's own. */
function cellFrame(
  frame: TableFrame,
  tcPr: XmlElement | undefined,
  parts: StylePart[],
  r: number,
  column: number,
  span: number,
) {
  const styleBorders: Record<string, Border | undefined> = {};
  let styleShading: Rgb | undefined;
  for (const part of parts) {
    const fill = hexColor(attr(kid(part.tcPr, 'w:shd'), 'w:fill'));
    if (fill) styleShading = fill;
    for (const side of ['top', 'bottom', 'left', 'right', 'start', 'end', 'insideH', 'insideV']) {
      const el = kid(kid(part.tcPr, 'w:tcBorders'), `w:${side}`) ?? kid(kid(part.tblPr, 'w:tblBorders'), `w:${side}`);
      if (el) styleBorders[side === 'start' ? 'left' : side === 'end' ? 'right' : side] = borderOf(el);
    }
  }
  const table = frame.borders;
  const own = kid(tcPr, 'w:tcBorders');
  const ownSide = (side: Side) =>
    kid(own, `w:${side}`) ?? (side === 'left' ? kid(own, 'w:start') : side === 'right' ? kid(own, 'w:end') : undefined);
  const border = (side: Side, outer: boolean, inside: 'insideH' | 'insideV'): Border | undefined => {
    if (own && ownSide(side)) return borderOf(ownSide(side));
    const fromStyle =
      side in styleBorders ? styleBorders[side] : !outer && inside in styleBorders ? styleBorders[inside] : undefined;
    return fromStyle ?? (outer ? table[side] : table[inside]);
  };
  const isLastColumn = column + span >= frame.gridCols.length;
  return {
    shading: hexColor(attr(kid(tcPr, 'w:shd'), 'w:fill')) ?? styleShading,
    borders: {
      top: border('top', r === 0, 'insideH'),
      bottom: border('bottom', r === frame.rowCount - 1, 'insideH'),
      left: border('left', column === 0, 'insideV'),
      right: border('right', isLastColumn, 'insideV'),
    },
  };
}

/**
 * A cell's margins: its own w:tcMar side by side (start/end as left/right), else the table's left
 * and right ones (the table's top and bottom margins are not read: Word's default is none).
 */
function cellPadding(frame: TableFrame, own: XmlElement | undefined): TableCell['padding'] {
  const side = (name: string, alias?: string) => {
    const twips = num(kid(own, `w:${name}`) ?? (alias ? kid(own, `w:${alias}`) : undefined), 'w:w');
    return twips === undefined ? undefined : twips * TWIP;
  };
  return {
    top: side('top') ?? 0,
    bottom: side('bottom') ?? 0,
    left: side('left', 'start') ?? frame.padLeft,
    right: side('right', 'end') ?? frame.padRight,
  };
}

/** Footnotes referenced in a cell's blocks (and tables inside them). */
function footnotesOf(blocks: Block[]): Block[][] {
  return blocks.flatMap((b) =>
    b.kind === 'paragraph' ? (b.footnotes ?? []) : b.kind === 'table' ? b.rows.flatMap((r) => r.footnotes ?? []) : [],
  );
}

/**
 * A table's rows or a row's cells in document order, also those a content control (w:sdt: a
 * repeating section, a drop-down cell) or custom XML wraps, at any depth.
 */
function unwrapped(parent: XmlElement, name: 'w:tr' | 'w:tc'): XmlElement[] {
  return kids(parent).flatMap((child) =>
    child.nodeName === name
      ? [child]
      : child.nodeName === 'w:sdt'
        ? unwrapped(kid(child, 'w:sdtContent') ?? child, name)
        : child.nodeName === 'w:customXml'
          ? unwrapped(child, name)
          : [],
  );
}

/**
 * A cell's w:textDirection (ST_TextDirection, with the Strict names) as a turn of its text, laid out as
 * PowerPoint's turned cells are (flow.ts): btLr runs bottom to top; tbRl, and tbRlV (East Asian vertical
 * text, its CJK characters upright in Word: Folio turns them with the rest), top to bottom. tbLrV (lines
 * stacked from the left, Mongolian) is turned down too; its lines stack from the right in Folio. lrTbV
 * is horizontal (only East Asian characters lie on their side in Word): not turned.
 */
const TURNED_TEXT: Record<string, TableCell['textDirection']> = {
  btLr: 'up',
  lr: 'up',
  tbRl: 'down',
  rl: 'down',
  tbRlV: 'down',
  rlV: 'down',
  tbLrV: 'down',
  lrV: 'down',
};

/** One w:tr; cells continuing a vertical merge lengthen the cell that opened it (`openMerges`, by column). */
async function readRow(
  frame: TableFrame,
  tr: XmlElement,
  r: number,
  openMerges: Map<number, TableCell & { column: number }>,
) {
  const trPr = kid(tr, 'w:trPr');
  const minHeight = (num(kid(trPr, 'w:trHeight'), 'w:val') ?? 0) * TWIP;
  const row: TableRow = {
    cells: [],
    minHeight,
    header: onOff(kid(trPr, 'w:tblHeader')) ?? false,
    splits: !(onOff(kid(trPr, 'w:cantSplit')) ?? false),
  };
  let column = num(kid(trPr, 'w:gridBefore'), 'w:val') ?? 0;
  const tcs = unwrapped(tr, 'w:tc');
  for (const tc of tcs) {
    const tcPr = kid(tc, 'w:tcPr');
    const span = num(kid(tcPr, 'w:gridSpan'), 'w:val') ?? 1;
    const vMerge = kid(tcPr, 'w:vMerge');
    const mergeValue = vMerge ? (attr(vMerge, 'w:val') ?? 'continue') : undefined;
    if (mergeValue === 'continue' && openMerges.has(column)) {
      openMerges.get(column)!.rowSpan++;
      column += span;
      continue;
    }
    const parts = frame.styleParts(r, column);
    const blocks = await cellBlocks(frame, tc, parts);
    const vAlign = attr(kid(tcPr, 'w:vAlign'), 'w:val');
    const cell: TableCell & { column: number } = {
      column,
      colSpan: span,
      rowSpan: 1,
      blocks,
      ...cellFrame(frame, tcPr, parts, r, column, span),
      verticalAlign: vAlign === 'center' ? 'middle' : vAlign === 'bottom' ? 'bottom' : 'top',
      padding: cellPadding(frame, kid(tcPr, 'w:tcMar')),
      textDirection: TURNED_TEXT[attr(kid(tcPr, 'w:textDirection'), 'w:val') ?? ''],
    };
    if (mergeValue === 'restart') openMerges.set(column, cell);
    else openMerges.delete(column);
    row.cells.push(cell);
    column += span;
  }
  // A row's cells share one top and one bottom margin, the largest any of them asks for (LibreOffice
  // 7.4 lines up the first lines of a row so).
  const top = Math.max(0, ...row.cells.map((cell) => cell.padding.top));
  const bottom = Math.max(0, ...row.cells.map((cell) => cell.padding.bottom));
  for (const cell of row.cells) cell.padding = { ...cell.padding, top, bottom };
  // Footnotes referenced in the row's cells go to the page the row lands on.
  const footnotes = row.cells.flatMap((cell) => footnotesOf(cell.blocks));
  if (footnotes.length) row.footnotes = footnotes;
  return row;
}

/**
 * The deepest nesting of tables read (a table in a cell of a table…, also through text boxes).
 * Word documents rarely go past a handful of levels; a file nested thousands deep is built to
 * overflow the stack of readers that recurse, so it is refused by name before that happens.
 */
export const MAX_TABLE_NESTING = 64;

export const tablesTooDeep = () =>
  new FolioError(
    'TooComplex',
    `This document has tables nested deeper than ${MAX_TABLE_NESTING} levels (a table in a cell of a table, ` +
      'and so on): no real document needs that, so it is damaged or was built to crash readers.',
  );

/** How deep in tables each document's reading is now (reading a document is sequential). */
const tableDepth = new WeakMap<DocxContext, number>();

/**
 * A table's preferred width (w:tblW): in twips, or a percentage of the width it is laid out in
 * (fiftieths of a percent, or "120%"; more than 100 % is 100 %, as LibreOffice 7.4 prints it); auto and nil: none.
 */
function preferredWidth(tblW: XmlElement | undefined): { points?: number; share?: number } | undefined {
  const type = attr(tblW, 'w:type');
  const value = attr(tblW, 'w:w') ?? '';
  const amount = parseFloat(value);
  if (!Number.isFinite(amount) || amount <= 0) return undefined;
  if (type === 'pct') return { share: Math.min(1, value.endsWith('%') ? amount / 100 : amount / 5000) };
  if (type === 'dxa' || (!type && !value.endsWith('%'))) return { points: amount * TWIP };
  return undefined;
}

export async function readTable(ctx: DocxContext, tbl: XmlElement, partRels: Rels): Promise<Block> {
  const depth = (tableDepth.get(ctx) ?? 0) + 1;
  if (depth > MAX_TABLE_NESTING) throw tablesTooDeep();
  tableDepth.set(ctx, depth);
  try {
    return await readTableAtDepth(ctx, tbl, partRels);
  } finally {
    tableDepth.set(ctx, depth - 1);
  }
}

async function readTableAtDepth(ctx: DocxContext, tbl: XmlElement, partRels: Rels): Promise<Block> {
  const tblPr = kid(tbl, 'w:tblPr');
  const chain = styleChain(ctx.styles, attr(kid(tblPr, 'w:tblStyle'), 'w:val') ?? ctx.styles.defaultTableStyle);
  const cellMargin =
    kid(tblPr, 'w:tblCellMar') ??
    [...chain]
      .reverse()
      .map((s) => kid(s.tblPr, 'w:tblCellMar'))
      .find(Boolean);
  const gridCols = kids(kid(tbl, 'w:tblGrid'), 'w:gridCol').map((c) => (num(c, 'w:w') ?? 0) * TWIP);
  const rowsEl = unwrapped(tbl, 'w:tr');
  const gridColumns = gridCols.length || Math.max(1, ...rowsEl.map((tr) => unwrapped(tr, 'w:tc').length));
  const frame: TableFrame = {
    ctx,
    partRels,
    styleParts: styleLayers(chain, tblPr, rowsEl.length, gridColumns),
    borders: tableBorders(chain, tblPr),
    rowCount: rowsEl.length,
    gridCols,
    padLeft: (num(kid(cellMargin, 'w:left') ?? kid(cellMargin, 'w:start'), 'w:w') ?? 108) * TWIP,
    padRight: (num(kid(cellMargin, 'w:right') ?? kid(cellMargin, 'w:end'), 'w:w') ?? 108) * TWIP,
  };
  const rows: TableRow[] = [];
  const openMerges = new Map<number, TableCell & { column: number }>();
  for (let r = 0; r < rowsEl.length; r++) rows.push(await readRow(frame, rowsEl[r], r, openMerges));
  const columns = Math.max(
    gridCols.length,
    ...rows.map((row) => row.cells.reduce((max, c) => Math.max(max, c.column + c.colSpan), 0)),
  );
  const grid = Array.from({ length: columns }, (_, i) => gridCols[i] || 72);
  const preferred = preferredWidth(kid(tblPr, 'w:tblW'));
  const gridWidth = grid.reduce((a, b) => a + b, 0);
  // A width in twips stands for the grid's, which is scaled to it (LibreOffice 7.4 does so either way).
  const widths = preferred?.points && gridWidth > 0 ? grid.map((w) => (w * preferred.points!) / gridWidth) : grid;
  const jc = attr(kid(tblPr, 'w:jc'), 'w:val');
  // A right-to-left table: its first column at the right, its borders and margins mirrored. (Where the
  // table sits is left as it is: LibreOffice 7.4 keeps such a table at the left margin and its w:tblInd.)
  const rightToLeft = onOff(kid(tblPr, 'w:bidiVisual')) ?? false;
  // Before Word 2013 the indent is to the first cell's text: the table stands out to the left by
  // its cell margin (cell text lines up with the body text), and its grid is the text column plus
  // both margins, so the right margin stands out as far. Word 2013 and later indent the table edge.
  const outdent = ctx.compatibilityMode < 15 && !rightToLeft;
  // A floating table's place is its w:tblpPr's, not its indent's (the outdent still applies, as in LibreOffice).
  const float = tableFloat(kid(tblPr, 'w:tblpPr'));
  return {
    kind: 'table',
    columnWidths: rightToLeft ? mirrorColumns(widths, rows) : widths,
    rows,
    indentLeft: (float ? 0 : (num(kid(tblPr, 'w:tblInd'), 'w:w') ?? 0) * TWIP) - (outdent ? frame.padLeft : 0),
    overhangRight: outdent ? frame.padRight : 0,
    widthShare: preferred?.share,
    // A table in the body wider than the column runs on past the margin, as in Word and LibreOffice;
    // a table in a cell is still fitted to its cell.
    keepsWidth: tableDepth.get(ctx) === 1,
    align: float ? 'left' : jc === 'center' ? 'center' : jc === 'right' || jc === 'end' ? 'right' : 'left',
    float,
  };
}

/** A float's alignment across (w:tblpXSpec, w:framePr w:xAlign): inside on the left, outside on the right. */
export function alignAcross(spec: string | undefined): FloatPosition['horizontal']['align'] {
  if (!spec) return undefined;
  return spec === 'center' ? 'center' : spec === 'right' || spec === 'outside' ? 'right' : 'left';
}

/** A float's alignment down (w:tblpYSpec, w:framePr w:yAlign); "inline" is no alignment (its offset). */
export function alignDown(spec: string | undefined): FloatPosition['vertical']['align'] {
  if (!spec || spec === 'inline') return undefined;
  return spec === 'center' ? 'center' : spec === 'bottom' || spec === 'outside' ? 'bottom' : 'top';
}

/**
 * A floating table's place (w:tblpPr): from the text column ('text', the default), the margins or the
 * page across; from the paragraph it stands before ('text'), the margins (the default) or the page
 * down — the defaults LibreOffice 7.4 takes when the anchors are left out.
 */
function tableFloat(tblpPr: XmlElement | undefined): Table['float'] {
  if (!tblpPr) return undefined;
  const twips = (name: string) => (num(tblpPr, name) ?? 0) * TWIP;
  const xSpec = attr(tblpPr, 'w:tblpXSpec');
  const ySpec = attr(tblpPr, 'w:tblpYSpec');
  const vertAnchor = attr(tblpPr, 'w:vertAnchor') ?? 'margin';
  return {
    horizontal: {
      from: attr(tblpPr, 'w:horzAnchor') === 'page' ? 'page' : 'margin',
      offset: twips('w:tblpX'),
      align: alignAcross(xSpec),
    },
    vertical: {
      from: vertAnchor === 'text' ? 'paragraph' : vertAnchor === 'page' ? 'page' : 'margin',
      offset: twips('w:tblpY'),
      align: alignDown(ySpec),
    },
    distance: {
      left: twips('w:leftFromText'),
      right: twips('w:rightFromText'),
      top: twips('w:topFromText'),
      bottom: twips('w:bottomFromText'),
    },
  };
}
