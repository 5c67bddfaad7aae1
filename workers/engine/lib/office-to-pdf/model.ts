/**
 * The small document model that the Office readers (docx/, xlsx.ts, pptx.ts) produce and the
 * layout (flow.ts, text.ts) draws with pdf-lib. Units are PDF points; colours are [r, g, b] in 0–1.
 */
import { clip, endPath, popGraphicsState, pushGraphicsState, rectangle, type PDFImage, type PDFPage } from 'pdf-lib';
import type { TextContext } from './text.ts';
import type { ImageMime } from './images.ts';
import type { NumberStyle } from './list-numbers.ts';

export type Rgb = [number, number, number];

/**
 * How a run is underlined: Word's w:u, DrawingML's u, ODF's text-underline-*, a sheet font's u, RTF's
 * \ul… Dash-dot kinds are drawn dashed; a doubled wave as a wave.
 */
export interface Underline {
  line: 'single' | 'double' | 'dotted' | 'dashed' | 'wave';
  /** Twice the usual thickness (Word's thick and …Heavy kinds, ODF's bold width). */
  heavy?: boolean;
  /** Under the words only, not under the spaces between them. */
  wordsOnly?: boolean;
  /** Its own colour; absent: the text's. */
  color?: Rgb;
}

export const SINGLE_UNDERLINE: Underline = { line: 'single' };

/** Word's, DrawingML's and a sheet font's underline kinds (w:u w:val, a:rPr u, u val), or undefined for none. */
export function underlineOfKind(kind: string): Underline | undefined {
  const k = kind.toLowerCase();
  if (k === 'none' || k === '0' || k === 'false') return undefined;
  const heavy = k === 'thick' || k === 'heavy' || k.endsWith('heavy');
  const line: Underline['line'] = k.startsWith('wav')
    ? 'wave'
    : k.startsWith('dotted')
      ? 'dotted'
      : k.startsWith('dash') || k.startsWith('dot')
        ? 'dashed'
        : k.startsWith('double') || k === 'dbl'
          ? 'double'
          : 'single';
  return { line, ...(heavy ? { heavy } : {}), ...(k === 'words' ? { wordsOnly: true } : {}) };
}

export interface RunStyle {
  font?: string;
  size: number;
  bold?: boolean;
  italic?: boolean;
  underline?: Underline;
  strike?: boolean;
  color?: Rgb;
  highlight?: Rgb;
  /** Superscript / subscript. */
  baseline?: 'super' | 'sub';
  /** Points the text is raised above the line's baseline (negative: lowered), at its own size (Word's w:position). */
  raise?: number;
  /**
   * Points added after each character, negative to condense (Word's character spacing w:spacing,
   * DrawingML's spc, ODF's fo:letter-spacing).
   */
  spacing?: number;
  /** A hyperlink (web or mailto address): the text is a clickable link in the PDF. */
  link?: string;
}

export type Inline =
  | { kind: 'text'; text: string; style: RunStyle }
  /** A field whose value is known only at layout time; `format` overrides the section's page number style. */
  | { kind: 'field'; field: 'PAGE' | 'NUMPAGES'; style: RunStyle; format?: NumberStyle }
  /** A tab to the next stop; `positional`: to the text column's left edge, centre or right edge (Word's w:ptab). */
  | { kind: 'tab'; style: RunStyle; positional?: 'left' | 'center' | 'right' }
  | { kind: 'break'; style: RunStyle }
  | { kind: 'image'; bytes: Uint8Array; mime: ImageMime; width: number; height: number; crop?: Crop }
  /** Content sized only when laid out with the document's fonts (a Word equation). */
  | { kind: 'measured'; layout: (ctx: TextContext) => Promise<MeasuredContent> }
  /**
   * Vector art drawn in a width × height box (a chart): `prepare` lays it out at that size (loading
   * fonts) and returns the drawing, which puts the box's bottom-left corner at (x, bottom).
   */
  | {
      kind: 'drawing';
      width: number;
      height: number;
      /** How far the line must reach below its baseline for it (its box stands on the baseline); 0 when absent. */
      depth?: number;
      prepare: (
        ctx: TextContext,
        width: number,
        height: number,
      ) => Promise<(page: PDFPage, x: number, bottom: number) => void>;
    };

/** Content laid out with the document's fonts: its size, and its drawing standing on the baseline. */
export interface MeasuredContent {
  width: number;
  /** Above the baseline, and below it. */
  height: number;
  depth: number;
  draw: (page: PDFPage, x: number, baseline: number) => void;
}

export interface Paragraph {
  kind: 'paragraph';
  inlines: Inline[];
  align: 'left' | 'center' | 'right' | 'justify';
  spaceBefore: number;
  spaceAfter: number;
  /**
   * Multiple of single spacing ('auto': the fonts' own line height), of the line's largest text size
   * ('ofSize': DrawingML text, whose single spacing is 1.2 × the size whatever the font), or an
   * exact / at-least height in points.
   */
  lineSpacing: { rule: 'auto' | 'ofSize'; value: number } | { rule: 'exact' | 'atLeast'; value: number };
  indentLeft: number;
  indentRight: number;
  /** First-line indent; negative for a hanging indent (lists). */
  firstLine: number;
  /**
   * Base direction of the paragraph's text (Word's w:bidi, DrawingML's rtl, a sheet's reading order);
   * undefined: its first letter decides. `align` and the indents are already the page's left and right.
   */
  direction?: 'rtl' | 'ltr';
  /** List marker drawn in the hanging indent, e.g. '•' or '3.'. */
  marker?: { text: string; style: RunStyle };
  pageBreakBefore?: boolean;
  /** Drawings anchored in this paragraph that float over (or behind) the page. */
  floats?: FloatingDrawing[];
  /** Footnotes referenced in this paragraph: printed at the bottom of the page it lands on. */
  footnotes?: Block[][];
  /** Names other text links to ("#name": Word bookmarks, the targets of a table of contents). */
  anchors?: string[];
  /**
   * Lines around the paragraph (Word's paragraph borders), `space` points from the text; consecutive paragraphs with
   * the same borders share one box.
   */
  borders?: {
    top?: Border;
    bottom?: Border;
    left?: Border;
    right?: Border;
    space: { top: number; bottom: number; left: number; right: number };
  };
  /**
   * Keep on the same page as the next paragraph's first line (headings), keep all lines together, avoid a lone first or
   * last line on a page.
   */
  keepNext?: boolean;
  keepLines?: boolean;
  widowControl?: boolean;
  /** Word's w:suppressLineNumbers: the paragraph's lines are not counted by the section's line numbers. */
  noLineNumbers?: boolean;
  /** Custom tab stops (points from the text column's left edge), in order; default stops every 36 pt after them. */
  tabStops?: TabStop[];
  shading?: Rgb;
  /** Heading level, for the PDF outline. */
  outlineLevel?: number;
  /** Never wrap (spreadsheet cells without "wrap text": the text runs on past the cell's edge). */
  noWrap?: boolean;
}

export interface Border {
  width: number;
  color: Rgb;
}

export interface TableCell {
  blocks: Block[];
  colSpan: number;
  /** Rows this cell spans downwards (1 = no merge); cells covered by a merge are omitted. */
  rowSpan: number;
  shading?: Rgb;
  borders: { top?: Border; right?: Border; bottom?: Border; left?: Border };
  verticalAlign: 'top' | 'middle' | 'bottom';
  padding: { top: number; right: number; bottom: number; left: number };
  /**
   * Text turned in the cell: 'down' runs top to bottom (turned 90° clockwise, lines stacked from the
   * right), 'up' bottom to top (lines stacked from the left). Its lines wrap at the cell's height, and
   * the rows grow until the stacked lines fit across the cell's width; verticalAlign then places
   * them across the cell (top = the side the first line is on).
   */
  textDirection?: 'down' | 'up';
  /** Cut off content at the cell's edges (a spreadsheet cell whose neighbour is not empty). */
  clip?: boolean;
  /** A spreadsheet number or date: when it does not fit its column it prints as "###", never cut. */
  hashesWhenTooWide?: boolean;
  /**
   * A merged spreadsheet cell split between pages of columns: the width of its columns on the pages to
   * the left and to the right. Its content is laid out across the whole merge, as LibreOffice prints
   * it, so each page shows the part that falls on it (running on into the margins) and a clip stops at
   * the merge's far edges, not at the page's last column.
   */
  beyond?: { left: number; right: number };
  /** A spreadsheet data bar: this fraction of the cell, from its left edge, in this colour (behind the text). */
  bar?: { fraction: number; color: Rgb };
}

export type DrawingInline = Extract<Inline, { kind: 'drawing' }>;

/** A picture as a drawing (a picture floating in Word, or anchored on a sheet, is placed like a shape). */
export function pictureDrawing(image: Extract<Inline, { kind: 'image' }>): DrawingInline {
  return {
    kind: 'drawing',
    width: image.width,
    height: image.height,
    prepare: async (ctx, width, height) => {
      const embedded = await ctx.images.get(image.bytes, image.mime);
      return (page, x, bottom) => drawPicture(page, embedded, { x, y: bottom, width, height }, image.crop);
    },
  };
}

/** The share of a picture cut off each side (DrawingML's a:srcRect; negative: room added). */
export interface Crop {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Draws a picture into a box (PDF coordinates); a cropped one at its whole size, clipped to the box. */
export function drawPicture(
  page: PDFPage,
  image: PDFImage,
  box: { x: number; y: number; width: number; height: number },
  crop?: Crop,
): void {
  if (!crop) return void page.drawImage(image, box);
  const fullWidth = box.width / Math.max(0.01, 1 - crop.left - crop.right);
  const fullHeight = box.height / Math.max(0.01, 1 - crop.top - crop.bottom);
  page.pushOperators(pushGraphicsState(), rectangle(box.x, box.y, box.width, box.height), clip(), endPath());
  page.drawImage(image, {
    x: box.x - crop.left * fullWidth,
    y: box.y - crop.bottom * fullHeight,
    width: fullWidth,
    height: fullHeight,
  });
  page.pushOperators(popGraphicsState());
}

/**
 * A tab stop: text after the tab starts (left), centres (center) or ends (right, decimal) at `position`; the gap may be
 * filled with a leader.
 */
export interface TabStop {
  position: number;
  align: 'left' | 'center' | 'right' | 'decimal';
  leader?: '.' | '-' | '_' | '·';
}

/** Where something floating on the page stands: an offset in points, or an alignment, from an area. */
export interface FloatPosition {
  horizontal: {
    from: 'page' | 'margin' | 'leftMargin' | 'rightMargin';
    offset: number;
    align?: 'left' | 'center' | 'right';
  };
  vertical: {
    from: 'page' | 'margin' | 'topMargin' | 'bottomMargin' | 'paragraph';
    offset: number;
    align?: 'top' | 'center' | 'bottom';
  };
}

/**
 * A drawing floating at a place on the page that text does not flow around (Word's pictures, shapes
 * and charts anchored "in front of text" or "behind text"): it takes no room in the flow and is
 * positioned from the page, its margins or the paragraph it is anchored in (Word's wp:positionH /
 * wp:positionV: an offset in points, or an alignment within that area).
 */
export interface FloatingDrawing extends FloatPosition {
  drawing: DrawingInline;
  behind: boolean;
  /**
   * How text makes room: 'none' (it runs under or over the drawing), 'square' (paragraphs beside it
   * are narrowed to the side with more room), 'topAndBottom' (text resumes below it); `distance` is
   * the gap kept around it, in points.
   */
  wrap?: { kind: 'none' | 'square' | 'topAndBottom'; distance: number; bothSides?: boolean };
}

/**
 * A drawing anchored on a table row (a shape on a spreadsheet): drawn over the cells, after the rest
 * of the page, with its top-left corner x points right of its grid column's left edge and y points
 * below the row's top.
 */
export interface RowOverlay {
  column: number;
  x: number;
  y: number;
  drawing: DrawingInline;
}

export interface TableRow {
  /** Cells with their starting grid column. */
  cells: Array<TableCell & { column: number }>;
  minHeight: number;
  /** The row is exactly minHeight tall whatever its cells hold (a spreadsheet row): taller text is cut off. */
  exactHeight?: boolean;
  /** Repeat at the top of each page (header row). */
  header?: boolean;
  /**
   * The row may break across pages between lines of its cells when it does not fit in the room left
   * (Word's rows without w:cantSplit). Otherwise it moves whole to the next page, and breaks only when
   * taller than a page.
   */
  splits?: boolean;
  /** Start a new page with this row (a spreadsheet's manual page break), unless it is the table's first. */
  pageBreakBefore?: boolean;
  /** Drawings anchored on this row (flow.ts draws them on the page where the row lands). */
  overlays?: RowOverlay[];
  /** Footnotes referenced in this row's cells: printed at the bottom of the page the row lands on. */
  footnotes?: Block[][];
}

export interface Table {
  kind: 'table';
  columnWidths: number[];
  rows: TableRow[];
  /** From the text column's left edge; negative when the table stands out into the margin. */
  indentLeft: number;
  /** How far the table may reach past the column's right edge before it is shrunk to fit (0 when absent). */
  overhangRight?: number;
  /** The table's width as a share of the width it is laid out in (Word's percentage width), its grid scaled to it. */
  widthShare?: number;
  /** A grid wider than the column is kept, running on past the right margin (Word's tables), not shrunk to fit. */
  keepsWidth?: boolean;
  /**
   * A rule across the table under its last row on each page it continues from (a sheet printed with its
   * headings is framed at the foot of every page, as LibreOffice prints it).
   */
  ruleAtBreaks?: Border;
  /** Lines along every row and column of the grid, not inside merged cells (Excel's "print gridlines"). */
  gridLines?: Border;
  align: 'left' | 'center' | 'right';
  /**
   * A floating table (Word's w:tblpPr): placed on the page where its position says ('paragraph': from
   * where it stands in the text), the text after it wrapping around it, `distance` away.
   */
  float?: FloatPosition & {
    distance: { left: number; right: number; top: number; bottom: number };
    /** No text beside it, only above and below (a Word frame's "not beside" or "none" wrapping). */
    noTextBeside?: boolean;
    /** A drop cap: the paragraph after it runs beside it for this many lines. */
    dropLines?: number;
  };
  /** As wide as its widest line, `columnWidths` at most (a Word frame without a width). */
  fitsContent?: boolean;
}

export interface PageBreak {
  kind: 'pageBreak';
}

export type Block = Paragraph | Table | PageBreak;

export interface PageSetup {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  /** Distance of header / footer from the page edge. */
  headerDistance: number;
  footerDistance: number;
  /** Facing pages: `margin.left` is the inside margin, at the right on even pages (Word's w:mirrorMargins). */
  mirrored?: boolean;
}

export interface Section {
  page: PageSetup;
  blocks: Block[];
  /** A bookmark for the section's first page (e.g. the sheet name). */
  bookmark?: string;
  header?: Block[];
  footer?: Block[];
  /** Word's "different first page": the section's first page uses these (nothing where absent). */
  firstPage?: PageFurniture;
  /** Word's "different odd and even pages": even-numbered pages use these (nothing where absent). */
  evenPages?: PageFurniture;
  /** Newspaper columns: text fills one column, then the next, then the next page; `rule`: a line between them. */
  columns?: { count: number; gap: number; rule?: boolean };
  /** Word's continuous section break: the section goes on below the previous one, on the same page. */
  continuous?: boolean;
  /** Line numbers in the margin (Word's Layout › Line Numbers): the body's paragraph lines are counted. */
  lineNumbers?: LineNumbers;
  /** Page numbers of the section (Word's w:pgNumType): restarted at `start`, else counting on; in `style`. */
  pageNumbers?: { start?: number; style?: NumberStyle };
  /** Word's vertical alignment of the text on each page of the section (a title page centred); top when absent. */
  verticalAlign?: 'center' | 'bottom';
  /** Word's page borders (Design › Page Borders). */
  pageBorders?: PageBorders;
}

export interface PageBorders {
  /** Sides `space` points in from the page's edges, or out from the text's margins. */
  from: 'page' | 'text';
  /** The pages of the section that have them. */
  pages: 'all' | 'first' | 'notFirst';
  sides: { [side in 'top' | 'right' | 'bottom' | 'left']?: Border & { space: number } };
}

export interface LineNumbers {
  /** The number of the first line counted (after each restart). */
  start: number;
  /** Only multiples of this are printed (every line is counted). */
  countBy: number;
  /** From the number's right edge to the text column's left edge, in points. */
  distance: number;
  restart: 'newPage' | 'newSection' | 'continuous';
  style: RunStyle;
}

export interface PageFurniture {
  header?: Block[];
  footer?: Block[];
}

export function paragraph(inlines: Inline[], overrides: Partial<Paragraph> = {}): Paragraph {
  return {
    kind: 'paragraph',
    inlines,
    align: 'left',
    spaceBefore: 0,
    spaceAfter: 0,
    lineSpacing: { rule: 'auto', value: 1 },
    indentLeft: 0,
    indentRight: 0,
    firstLine: 0,
    ...overrides,
  };
}

/**
 * Small capitals (Word's w:smallCaps, DrawingML's cap="small"), as LibreOffice draws them: runs of
 * lower-case letters as capitals at 80 % of the size, the other characters as they are.
 */
export function smallCapitals(text: string, style: RunStyle): Array<{ text: string; style: RunStyle }> {
  const small = { ...style, size: style.size * 0.8 };
  return (text.match(/\p{Ll}+|[^\p{Ll}]+/gu) ?? []).map((part) =>
    /\p{Ll}/u.test(part) ? { text: part.toUpperCase(), style: small } : { text: part, style },
  );
}
