/**
 * The layout of a PDF page for the office exports (Word, Excel, PowerPoint): text items with
 * positions, fonts, styles and colours; ruling lines and image boxes from the operator list; lines,
 * line fragments (split at wide gaps), columns in reading order and paragraphs.
 *
 * Coordinates are in PDF points with the origin at the TOP-LEFT of the page as displayed (the
 * page's /Rotate is applied), so `top` grows downwards like in a word processor.
 */
import type { PDFDocumentProxy } from './pdfjs.ts';
import { loadPdfjs } from './pdfjs.ts';
import { IDENTITY, applyTransform, transform, type Matrix } from './matrix.ts';
import { lineJoint, vocabularyOf, type Vocabulary } from './line-hyphens.ts';

export interface TextItem {
  text: string;
  x: number;
  /** Top of the glyph box (baseline − ascent). */
  top: number;
  baseline: number;
  width: number;
  /** Font size in points as displayed. */
  size: number;
  fontName: string;
  /** A family Word/PowerPoint understands (Helvetica → Arial, Times → Times New Roman…). */
  family: string;
  bold: boolean;
  italic: boolean;
  /** RRGGBB */
  color: string;
  /** Set on text that does not run left to right (slanted or vertical labels). */
  rotated?: boolean;
  /** Starts a cell of a printed spreadsheet (read with `cells`): a line fragment ends before it. */
  startsCell?: boolean;
  /**
   * Follows the item before after one space glyph of the same string (read with `cells`): a word
   * space however wide it is (a monospaced font's is 0.6 em), never a gap between two cells.
   */
  afterWordSpace?: boolean;
  /**
   * Drawn inside a filled box the page painted over text it had already drawn (read with `cells`):
   * a comment or text box floating over a printed sheet, not one of its cells.
   */
  floating?: boolean;
}

export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface Box {
  x: number;
  top: number;
  width: number;
  height: number;
}

export interface PageLayout {
  pageNumber: number;
  width: number;
  height: number;
  items: TextItem[];
  /** Horizontal and vertical ruling lines (stroked lines, rectangle edges, thin filled bars). */
  rulings: Segment[];
  images: Box[];
  /** Curves, filled shapes or shadings that text boxes cannot rebuild (PowerPoint renders them). */
  hasVectorArt: boolean;
  /** True when `items` came from OCR of a scanned page (the page picture is the background). */
  ocr?: boolean;
}

/** Word-processor family names for the PDF base fonts and common embedded ones. */
export function familyOf(fontName: string, fallback: string): string {
  const name = fontName.replace(/^[A-Z]{6}\+/, '');
  const base = name.split(/[-,]/)[0].replace(/(MT|PS|PSMT|Std)$/i, '');
  if (/^helvetica|^arial/i.test(base)) return 'Arial';
  if (/^times/i.test(base)) return 'Times New Roman';
  if (/^courier/i.test(base)) return 'Courier New';
  if (/^symbol/i.test(base)) return 'Symbol';
  if (/^zapf/i.test(base)) return 'Wingdings';
  if (base.length > 1 && !/^g_d\d/.test(base)) return base.replace(/([a-z])([A-Z])/g, '$1 $2');
  if (fallback === 'serif') return 'Times New Roman';
  if (fallback === 'monospace') return 'Courier New';
  return 'Arial';
}

interface FontInfo {
  name?: string;
  bold?: boolean;
  black?: boolean;
  italic?: boolean;
}

type Point = [number, number];

/**
 * The points of a pdf.js constructPath buffer (0 moveTo, 1 lineTo, 2 curveTo, 3 curveTo2/3,
 * 4 closePath), mapped to the page; curves keep only their end points and set `curved`.
 */
function pathPoints(
  buffer: ArrayLike<number>,
  toPage: (x: number, y: number) => Point,
): { subpaths: Point[][]; curved: boolean } {
  const subpaths: Point[][] = [];
  let current: Point[] = [];
  let curved = false;
  for (let k = 0; k < buffer.length;) {
    const op = buffer[k];
    if (op === 0) {
      if (current.length) subpaths.push(current);
      current = [toPage(buffer[k + 1], buffer[k + 2])];
      k += 3;
    } else if (op === 1) {
      current.push(toPage(buffer[k + 1], buffer[k + 2]));
      k += 3;
    } else if (op === 2) {
      curved = true;
      current.push(toPage(buffer[k + 5], buffer[k + 6]));
      k += 7;
    } else if (op === 3) {
      curved = true;
      current.push(toPage(buffer[k + 3], buffer[k + 4]));
      k += 5;
    } else {
      if (current.length) current.push(current[0]);
      k += 1;
    }
  }
  if (current.length) subpaths.push(current);
  return { subpaths, curved };
}

/**
 * Adds the straight horizontal and vertical lines of a stroked path, and the thin bars of a filled
 * one, to `rulings`; true when the path also draws something else (vector art).
 */
function addRulings(subpaths: Point[][], stroked: boolean, fill: string, rulings: Segment[]): boolean {
  let art = false;
  for (const points of subpaths) {
    if (stroked) {
      for (let k = 1; k < points.length; k++) {
        const [x1, y1] = points[k - 1];
        const [x2, y2] = points[k];
        if (Math.abs(y1 - y2) < 0.5 || Math.abs(x1 - x2) < 0.5)
          rulings.push({ x1: Math.min(x1, x2), y1: Math.min(y1, y2), x2: Math.max(x1, x2), y2: Math.max(y1, y2) });
        else art = true;
      }
    } else {
      const box = boxOf(points);
      const isWhite = /^f{6}$/i.test(fill);
      if (box.height <= 2.5 && box.width > 3)
        rulings.push({ x1: box.x, y1: box.top + box.height / 2, x2: box.x + box.width, y2: box.top + box.height / 2 });
      else if (box.width <= 2.5 && box.height > 3)
        rulings.push({ x1: box.x + box.width / 2, y1: box.top, x2: box.x + box.width / 2, y2: box.top + box.height });
      else if (!isWhite && box.width > 0 && box.height > 0) art = true;
    }
  }
  return art;
}

function boxOf(points: Point[]): Box {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const x = Math.min(...xs);
  const top = Math.min(...ys);
  return { x, top, width: Math.max(...xs) - x, height: Math.max(...ys) - top };
}

type PageProxy = Awaited<ReturnType<PDFDocumentProxy['getPage']>>;
type TextContent = Awaited<ReturnType<PageProxy['getTextContent']>>;

/** A drawn glyph's character and fill colour; `softHyphenAfter` when a soft hyphen (U+00AD) follows it. */
interface GlyphColor {
  ch: string;
  color: string;
  softHyphenAfter?: boolean;
  /** Where the page put this glyph when a text operation moved to it (Td, Tm, T*): its own string. */
  placedAt?: [number, number];
  /** On a string's last glyph: the x where the string (its spaces too) ends on the page. */
  endX?: number;
  /** On a string's last glyph: the page y of its baseline's start. */
  endY?: number;
  /** One space glyph, and nothing else, drawn between this glyph and the one before in its string. */
  wordSpaceBefore?: boolean;
  /** How many boxes the page had painted over earlier text when it drew this glyph. */
  boxesBefore?: number;
  /** The left and right page x of the clip rectangle the glyph is drawn in; null when none. */
  clip?: Span | null;
}

type Span = readonly [number, number];

/**
 * The horizontal extent of the clip rectangle text is drawn in (LibreOffice clips a spreadsheet
 * cell whose text is wider than its column to the cell: "q x y w h re W* n … Q"), through q/Q and
 * forms. pdf.js gives a clip as `clip`/`eoClip` and then the path, with its bounds, in `constructPath`.
 */
function clipTracker(OPS: Ops) {
  let current: Span | null = null;
  let pending = false;
  const stack: Array<Span | null> = [];
  return {
    current: () => current,
    update(fn: number, args: unknown[], toPage: (x: number, y: number) => Point): void {
      if (fn === OPS.save || fn === OPS.paintFormXObjectBegin) stack.push(current);
      else if (fn === OPS.restore || fn === OPS.paintFormXObjectEnd) current = stack.length ? stack.pop()! : current;
      else if (fn === OPS.clip || fn === OPS.eoClip) pending = true;
      else if (fn === OPS.constructPath && pending) {
        pending = false;
        const bounds = args[2] as ArrayLike<number> | null | undefined;
        if (!bounds || bounds.length < 4 || ![...Array.from(bounds)].every(Number.isFinite)) return;
        const [x0, y0, x1, y1] = Array.from(bounds);
        const xs = [toPage(x0, y0), toPage(x1, y0), toPage(x0, y1), toPage(x1, y1)].map((p) => p[0]);
        const left = Math.max(Math.min(...xs), current?.[0] ?? -Infinity);
        const right = Math.min(Math.max(...xs), current?.[1] ?? Infinity);
        current = [left, right];
      }
    },
  };
}

/**
 * The text position operators (BT, Tm, Td, TD, T*, TL) as pdf.js's canvas follows them: where the
 * next string starts, in user space, when an operator has just moved there.
 */
function textPositionTracker(OPS: Ops) {
  let matrix: Matrix = IDENTITY;
  let lineX = 0;
  let lineY = 0;
  let leading = 0;
  let moved = false;
  const move = (x: number, y: number) => {
    lineX += x;
    lineY += y;
    moved = true;
  };
  return {
    /** Follows `fn` when it positions text; false for any other operator. */
    update(fn: number, args: unknown[]): boolean {
      if (fn === OPS.beginText || fn === OPS.setTextMatrix) {
        matrix = fn === OPS.beginText ? IDENTITY : (Array.from(args[0] as ArrayLike<number>) as Matrix);
        lineX = lineY = 0;
        moved = true;
      } else if (fn === OPS.moveText || fn === OPS.setLeadingMoveText) {
        if (fn === OPS.setLeadingMoveText) leading = args[1] as number;
        move(args[0] as number, args[1] as number);
      } else if (fn === OPS.setLeading) {
        leading = -(args[0] as number);
      } else if (fn === OPS.nextLine) {
        move(0, leading);
      } else return false;
      return true;
    },
    /** How many page units of text space one unit along the line is (the text matrix's x scale). */
    scale: () => Math.hypot(matrix[0], matrix[1]),
    /** Where the string of show operator `fn` starts when text was just placed (else undefined). */
    placedAt(fn: number): [number, number] | undefined {
      if (fn === OPS.nextLineShowText || fn === OPS.nextLineSetSpacingShowText) move(0, leading);
      const at = moved ? applyTransform(matrix, lineX, lineY) : undefined;
      moved = false;
      return at;
    },
  };
}

type Ops = Awaited<ReturnType<typeof loadPdfjs>>['OPS'];

type ShownGlyph = { unicode?: string; width?: number; isSpace?: boolean } | number;

/**
 * The glyphs of one shown string onto `out` (spaces are not kept: a word space drawn as one space
 * glyph is noted on the glyph after it), with what each is drawn in (`drawnIn`); returns how far the
 * string advances, in text space.
 */
function pushGlyphs(
  glyphs: ShownGlyph[],
  out: GlyphColor[],
  spacing: { fontSize: number; charSpacing: number; wordSpacing: number },
  drawnIn: () => Omit<GlyphColor, 'ch'>,
): number {
  const { fontSize, charSpacing, wordSpacing } = spacing;
  const first = out.length;
  let advance = 0;
  // What the string drew since its last non-space glyph: spaces, and whether anything else moved it.
  let spaces = 0;
  let shifted = false;
  for (const glyph of glyphs) {
    advance +=
      typeof glyph === 'number'
        ? (-glyph * fontSize) / 1000
        : ((glyph?.width ?? 0) * fontSize) / 1000 + charSpacing + (glyph?.isSpace ? wordSpacing : 0);
    if (typeof glyph === 'number') shifted ||= Math.abs(glyph) > 100;
    else if (glyph?.unicode && !glyph.unicode.trim()) spaces++;
    if (typeof glyph !== 'object' || !glyph?.unicode) continue;
    for (const ch of glyph.unicode) {
      // pdf.js leaves soft hyphens out of the text content: remembered on the glyph before.
      if (ch === '\u00AD') {
        const before = out.at(-1);
        if (before) before.softHyphenAfter = true;
      } else if (ch.trim()) {
        const wordSpaceBefore = spaces === 1 && !shifted && out.length > first;
        out.push({ ch, ...drawnIn(), ...(wordSpaceBefore ? { wordSpaceBefore } : {}) });
        spaces = 0;
        shifted = false;
      }
    }
  }
  return advance;
}

/**
 * Reads one page: text with styles and colours, rulings, images. With `cells` (a printed
 * spreadsheet), text that pdf.js joined into one item although the page placed its parts one by
 * one is cut where a part starts at the left edge of text on another line (a column).
 */
export async function readPageLayout(
  doc: PDFDocumentProxy,
  pageNumber: number,
  { cells = false } = {},
): Promise<PageLayout> {
  const pdfjs = await loadPdfjs();
  const OPS = pdfjs.OPS;
  const page = await doc.getPage(pageNumber);
  const viewport = page.getViewport({ scale: 1 });
  const vt = viewport.transform as Matrix;
  const opList = await page.getOperatorList();
  const content = await page.getTextContent();

  // ---- walk the operator list: colours of text, rulings, images, vector art
  const glyphColors: GlyphColor[] = [];
  const rulings: Segment[] = [];
  const images: Box[] = [];
  // Filled boxes painted after some text (a printed sheet's comments and text boxes; cell
  // backgrounds come before the cells' text).
  const overlays: Box[] = [];
  let hasVectorArt = false;
  let ctm = IDENTITY;
  const stack: Matrix[] = [];
  let fill = '000000';
  const fillStack: string[] = [];
  const toPage = (x: number, y: number) => applyTransform(vt, ...applyTransform(ctm, x, y));
  const textPosition = textPositionTracker(OPS);
  const clips = clipTracker(OPS);
  // The text state that sets how far a string advances (Tf size, Tc, Tw, Tz), and where the last ended.
  let fontSize = 0;
  let charSpacing = 0;
  let wordSpacing = 0;
  let hScale = 1;
  let textEnd = 0;
  let textY = 0;
  const strokeOps = new Set<number>([
    OPS.stroke,
    OPS.closeStroke,
    OPS.fillStroke,
    OPS.eoFillStroke,
    OPS.closeFillStroke,
    OPS.closeEOFillStroke,
  ]);
  const fillOps = new Set<number>([
    OPS.fill,
    OPS.eoFill,
    OPS.fillStroke,
    OPS.eoFillStroke,
    OPS.closeFillStroke,
    OPS.closeEOFillStroke,
  ]);
  const imagePaintOps = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintSolidColorImageMask,
  ]);
  const textShowOps = new Set<number>([
    OPS.showText,
    OPS.showSpacedText,
    OPS.nextLineShowText,
    OPS.nextLineSetSpacingShowText,
  ]);

  for (let i = 0; i < opList.fnArray.length; i++) {
    const fn = opList.fnArray[i];
    const args = opList.argsArray[i] as unknown[];
    clips.update(fn, args, toPage);
    if (fn === OPS.save) {
      stack.push(ctm);
      fillStack.push(fill);
    } else if (fn === OPS.restore) {
      ctm = stack.pop() ?? ctm;
      fill = fillStack.pop() ?? fill;
    } else if (fn === OPS.transform) {
      ctm = transform(ctm, args as Matrix);
    } else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      const matrix = args[0] as Matrix | null;
      if (matrix) ctm = transform(ctm, Array.from(matrix) as Matrix);
    } else if (fn === OPS.paintFormXObjectEnd) {
      ctm = stack.pop() ?? ctm;
    } else if (fn === OPS.setFillRGBColor) {
      fill = String(args[0]).replace('#', '');
    } else if (textPosition.update(fn, args)) {
      continue;
    } else if (fn === OPS.setFont) {
      fontSize = args[1] as number;
    } else if (fn === OPS.setCharSpacing || fn === OPS.setWordSpacing || fn === OPS.setHScale) {
      if (fn === OPS.setCharSpacing) charSpacing = args[0] as number;
      else if (fn === OPS.setWordSpacing) wordSpacing = args[0] as number;
      else hScale = (args[0] as number) / 100;
    } else if (textShowOps.has(fn)) {
      if (fn === OPS.nextLineSetSpacingShowText) [wordSpacing, charSpacing] = args as [number, number];
      const placed = textPosition.placedAt(fn);
      const firstGlyph = glyphColors.length;
      const glyphs = (fn === OPS.nextLineSetSpacingShowText ? args[2] : args[0]) as ShownGlyph[] | null;
      const pageScale = textPosition.scale() * Math.hypot(ctm[0], ctm[1]) * Math.hypot(vt[0], vt[1]);
      const advance = pushGlyphs(glyphs ?? [], glyphColors, { fontSize, charSpacing, wordSpacing }, () => ({
        color: fill,
        boxesBefore: overlays.length,
        clip: clips.current(),
      }));
      if (placed && glyphColors.length > firstGlyph) glyphColors[firstGlyph].placedAt = toPage(...placed);
      if (placed) textY = toPage(...placed)[1];
      textEnd = (placed ? toPage(...placed)[0] : textEnd) + advance * hScale * pageScale;
      const last = glyphColors.at(-1);
      if (last && (glyphColors.length > firstGlyph || !placed)) {
        last.endX = textEnd;
        last.endY = textY;
      }
    } else if (imagePaintOps.has(fn)) {
      const box = boxOf([toPage(0, 0), toPage(1, 0), toPage(0, 1), toPage(1, 1)]);
      if (box.width > 2 && box.height > 2) images.push(box);
    } else if (fn === OPS.shadingFill) {
      hasVectorArt = true;
    } else if (fn === OPS.constructPath) {
      const paintOp = args[0] as number;
      const buffer = (args[1] as ArrayLike<number>[] | null)?.[0];
      if (!buffer || !(strokeOps.has(paintOp) || fillOps.has(paintOp))) continue;
      const { subpaths, curved } = pathPoints(buffer, toPage);
      if (cells && fillOps.has(paintOp) && glyphColors.length && fill.toLowerCase() !== 'ffffff') {
        const box = boxOf(subpaths.flat());
        if (box.width >= 20 && box.height >= 10) overlays.push(box);
      }
      if (curved || addRulings(subpaths, strokeOps.has(paintOp), fill, rulings)) hasVectorArt = true;
    }
  }

  const items = readTextItems(page, content, vt, glyphColors, cells);
  if (cells) markFloating(items, glyphColors, overlays);
  page.cleanup();
  return { pageNumber, width: viewport.width, height: viewport.height, items, rulings, images, hasVectorArt };
}

/** Text items with positions and styles; colours matched by walking the glyph stream. */
function readTextItems(
  page: PageProxy,
  content: TextContent,
  vt: Matrix,
  glyphColors: GlyphColor[],
  cells: boolean,
): TextItem[] {
  const items: TextItem[] = [];
  // Each item's glyphs: the first and how many (spaces have none).
  const glyphsOf = new Map<TextItem, [number, number]>();
  let glyphIndex = 0;
  let itemGlyphs: [number, number] | undefined;
  for (const raw of content.items) {
    if (!('str' in raw)) continue;
    let str = raw.str;
    const firstChar = [...str].find((c) => c.trim());
    let color = '000000';
    itemGlyphs = undefined;
    if (firstChar) {
      const limit = Math.min(glyphColors.length, glyphIndex + 64);
      let k = glyphIndex;
      while (k < limit && glyphColors[k].ch !== firstChar) k++;
      if (k < limit) {
        color = glyphColors[k].color;
        glyphIndex = k + [...str].filter((c) => c.trim()).length;
        itemGlyphs = [k, glyphIndex - k];
        if (glyphColors[glyphIndex - 1]?.softHyphenAfter) str += '\u00AD';
      } else if (glyphIndex < glyphColors.length) {
        color = glyphColors[glyphIndex].color;
      }
    }
    if (!str.trim()) continue;
    const tx = transform(vt, raw.transform as Matrix);
    const size = Math.hypot(tx[2], tx[3]);
    if (size < 0.5) continue;
    // Only horizontal text is laid out; rotated text keeps its anchor point.
    const style = content.styles[raw.fontName] as { fontFamily?: string; ascent?: number | null } | undefined;
    const font = (page.commonObjs.has(raw.fontName) ? page.commonObjs.get(raw.fontName) : {}) as FontInfo;
    const fontName = font.name ?? raw.fontName;
    const ascent = style?.ascent && style.ascent > 0.5 && style.ascent < 1.2 ? style.ascent : 0.8;
    items.push({
      text: str,
      x: tx[4],
      baseline: tx[5],
      top: tx[5] - size * ascent,
      // Rotated text (a chart's slanted axis labels): its horizontal extent, so that labels side
      // by side are not glued into one word.
      width: raw.width * Math.hypot(vt[0], vt[1]) * (Math.abs(tx[0]) / Math.hypot(tx[0], tx[1])),
      size,
      fontName,
      family: familyOf(fontName, style?.fontFamily ?? 'sans-serif'),
      bold: Boolean(font.bold || font.black) || /bold|black|heavy|semibold|demi/i.test(fontName),
      italic: Boolean(font.italic) || /italic|oblique/i.test(fontName),
      color: /^[0-9a-f]{6}$/i.test(color) ? color.toUpperCase() : '000000',
      ...(Math.abs(tx[1]) > size * 0.02 ? { rotated: true } : {}),
    });
    if (itemGlyphs) glyphsOf.set(items.at(-1)!, itemGlyphs);
    if (cells && itemGlyphs && glyphColors[itemGlyphs[0]].wordSpaceBefore) items.at(-1)!.afterWordSpace = true;
  }
  return cells ? splitAtCells(items, glyphsOf, glyphColors) : items;
}

/**
 * Items drawn inside a box painted over earlier text, with no text outside such boxes after it: a
 * spreadsheet prints its comments and text boxes after all its cells (a later block's filled header
 * cells are followed by that block's other cells, so they are cells).
 */
function markFloating(items: TextItem[], glyphs: GlyphColor[], overlays: Box[]): void {
  if (overlays.length === 0) return;
  // Each item's boxes painted before it: items and glyphs are in drawing order.
  const drawnAfter: Array<[TextItem, number]> = [];
  let k = 0;
  for (const item of items) {
    const chars = [...item.text].filter((c) => c.trim() && c !== '\u00AD');
    let at = k;
    while (at < Math.min(glyphs.length, k + 64) && glyphs[at].ch !== chars[0]) at++;
    if (at >= glyphs.length || glyphs[at].ch !== chars[0]) continue;
    k = at + chars.length;
    drawnAfter.push([item, glyphs[at].boxesBefore ?? 0]);
  }
  const inside = (item: TextItem, box: Box) =>
    item.x >= box.x - 1 &&
    item.x + item.width <= box.x + box.width + 1 &&
    item.top >= box.top - 1 &&
    item.baseline <= box.top + box.height + 1;
  // Boxes before `first` have text outside every box drawn after them: not floating.
  let first = 0;
  for (let changed = true; changed;) {
    changed = false;
    for (const [item, before] of drawnAfter) {
      if (before > first && !overlays.slice(first, before).some((box) => inside(item, box))) {
        first = before;
        changed = true;
      }
    }
  }
  for (const [item, before] of drawnAfter)
    if (before > first && overlays.slice(first, before).some((box) => inside(item, box))) item.floating = true;
}

/**
 * Items cut where a string the page placed on its own starts at the x where another line also
 * places a string (a column's left edge), or apart from the string before it: the cells of a printed
 * spreadsheet that pdf.js joined because they nearly touch ("1" right-aligned in A, "A" in B: "1A").
 * Each cut starts a cell.
 */
function splitAtCells(items: TextItem[], glyphsOf: Map<TextItem, [number, number]>, glyphs: GlyphColor[]): TextItem[] {
  const starts = glyphs.flatMap((g) => (g.placedAt ? [g.placedAt] : []));
  const column = (x: number, y: number) => starts.some(([sx, sy]) => Math.abs(sx - x) < 0.6 && Math.abs(sy - y) > 1);
  // Two strings drawn apart with no space glyph between (the first's end and the second's start
  // more than 0.15 em apart, where a word space would be drawn as a glyph) are two cells: a
  // right-aligned number and a date beside it ("1" and "12/23/1952", read as "1 12/23/1952"), or
  // the next column's text ("44" ending 0.197 em before "Middle!": two cells' insets less the
  // glyphs' side bearings). Runs of one cell in another font continue where the last ended. Parts
  // without a letter or digit stay (an accounting format's "$" at the cell's left edge).
  const apart = (end: number | undefined, start: number, size: number, before: string, chars: string[], at: number) =>
    end !== undefined &&
    start - end > 0.15 * size &&
    /[\p{L}\p{N}]/u.test(before) &&
    /[\p{L}\p{N}]/u.test(chars.slice(at).join(''));
  // A string drawn in another clip rectangle than the string before, outside that one's (or, the
  // string before drawn unclipped, after its end): the next cell, however close ("q x y w h re W* n").
  // A string placed where the string before on its line ended is the next run of that cell (a
  // rich text's underlined or coloured word), even where another line starts a string at the same
  // x: two rich-text cells whose runs part at the same place. The next cell starts at least its
  // and the cell before's insets further on.
  const continuesRun = (before: GlyphColor | undefined, glyph: GlyphColor | undefined, size: number) =>
    before?.endX !== undefined &&
    before.endY !== undefined &&
    glyph?.placedAt !== undefined &&
    Math.abs(glyph.placedAt[0] - before.endX) < 0.05 * size &&
    Math.abs(glyph.placedAt[1] - before.endY) < 0.1 * size;
  const otherClip = (before: GlyphColor | undefined, glyph: GlyphColor | undefined) => {
    const [a, b, x] = [before?.clip, glyph?.clip, glyph?.placedAt?.[0]];
    if (a === undefined || b === undefined || x === undefined || (!a && !b)) return false;
    if (a && b && Math.abs(a[0] - b[0]) < 0.5 && Math.abs(a[1] - b[1]) < 0.5) return false;
    if (a) return x >= a[1] - 0.5 || x < a[0] - 0.5;
    return before?.endX !== undefined && before.endX <= b![0] + 1;
  };
  return items.flatMap((item) => {
    const range = glyphsOf.get(item);
    if (!range || item.rotated) return [item];
    const first = glyphs[range[0]]?.placedAt;
    const [previous, own] = [glyphs[range[0] - 1], glyphs[range[0]]];
    if ((first && column(...first) && !continuesRun(previous, own, item.size)) || otherClip(previous, own))
      item.startsCell = true;
    // Character offsets of the item's non-space characters, in glyph order.
    const offsets = [...item.text].flatMap((ch, i) => (ch.trim() ? [i] : []));
    const chars = [...item.text];
    const parts: TextItem[] = [];
    let from = 0;
    let x = item.x;
    for (let j = 1; j < range[1]; j++) {
      const at = glyphs[range[0] + j]?.placedAt;
      if (!at || at[0] <= x || at[0] >= item.x + item.width) continue;
      const text = chars.slice(from, offsets[j]).join('');
      const before = glyphs[range[0] + j - 1];
      // A part with no letter or digit is no cell of its own: a currency symbol drawn before its number.
      const atColumn =
        column(at[0], at[1]) && /[\p{L}\p{N}]/u.test(text) && !continuesRun(before, glyphs[range[0] + j], item.size);
      const cut =
        atColumn ||
        apart(before?.endX, at[0], item.size, text, chars, offsets[j]) ||
        otherClip(before, glyphs[range[0] + j]);
      if (!cut) continue;
      // The part ends where its drawn string ended (a right-aligned number's end is its column's
      // edge), else in proportion to its characters.
      const drawnEnd = before?.endX !== undefined && before.endX > x && before.endX <= at[0] ? before.endX : undefined;
      parts.push({
        ...item,
        text: text.trimEnd(),
        x,
        width: drawnEnd !== undefined ? drawnEnd - x : Math.min(at[0] - x, (item.width * text.length) / chars.length),
      });
      from = offsets[j];
      x = at[0];
    }
    if (parts.length === 0) return [item];
    parts.push({ ...item, text: chars.slice(from).join(''), x, width: item.x + item.width - x });
    return parts.map((part, i) => (i > 0 ? { ...part, startsCell: true } : part));
  });
}

// ---------------------------------------------------------------------------------------------
// Lines, fragments, columns, paragraphs

/** Items on one baseline that sit close together: a line of one column, or one cell of a row. */
export interface Fragment {
  items: TextItem[];
  x: number;
  top: number;
  right: number;
  bottom: number;
  baseline: number;
  size: number;
  text: string;
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The body text size: the size most characters are set in. */
export function bodySize(items: TextItem[]): number {
  const weights = new Map<number, number>();
  for (const item of items) {
    const size = Math.round(item.size * 2) / 2;
    weights.set(size, (weights.get(size) ?? 0) + item.text.length);
  }
  let best = 10;
  let bestWeight = -1;
  for (const [size, weight] of weights) {
    if (weight > bestWeight) [best, bestWeight] = [size, weight];
  }
  return best;
}

function makeFragment(items: TextItem[], marks?: Map<TextItem, TextItem>): Fragment {
  items.sort((a, b) => a.x - b.x);
  // A raised footnote mark does not move its line's baseline.
  const onBaseline = items.filter((item) => !marks?.has(item));
  let text = '';
  let lastRight = -Infinity;
  for (const item of items) {
    const gap = item.x - lastRight;
    if (text && gap > item.size * 0.15 && !text.endsWith(' ') && !item.text.startsWith(' ')) text += ' ';
    text += item.text;
    lastRight = Math.max(lastRight, item.x + item.width);
  }
  return {
    items,
    x: Math.min(...items.map((i) => i.x)),
    right: Math.max(...items.map((i) => i.x + i.width)),
    top: Math.min(...items.map((i) => i.top)),
    bottom: Math.max(...items.map((i) => i.baseline + i.size * 0.2)),
    baseline: median((onBaseline.length ? onBaseline : items).map((i) => i.baseline)),
    size: Math.max(...items.map((i) => i.size)),
    text: text.replace(/\s+/g, ' ').trim(),
  };
}

/**
 * Groups items into lines (same baseline) and splits each line at gaps wider than `gapEm` × the
 * font size: column gutters and table cell gaps end a fragment, word spaces do not. An item that
 * starts a cell also ends a fragment; with `cells` (a printed spreadsheet) so does one drawn over
 * the end of the one before (a cell's text clipped by the next cell). With `marks` (on with `cells`),
 * a footnote mark set raised and smaller against its text is read on that text's line.
 */
export function buildFragments(
  items: TextItem[],
  gapEm = 1.2,
  { cells = false, marks: withMarks }: { cells?: boolean; marks?: boolean } = {},
): Fragment[] {
  const marks = (withMarks ?? cells) ? footnoteMarks(items) : new Map<TextItem, TextItem>();
  const baseline = (item: TextItem) => (marks.get(item) ?? item).baseline;
  const sorted = [...items].sort((a, b) => baseline(a) - baseline(b) || a.x - b.x);
  const lines: TextItem[][] = [];
  for (const item of sorted) {
    const line = lines.at(-1);
    if (line && Math.abs(baseline(line[0]) - baseline(item)) <= Math.min(line[0].size, item.size) * 0.4)
      line.push(item);
    else lines.push([item]);
  }
  for (const line of lines) line.sort((a, b) => a.x - b.x);
  const gutterXs = narrowGutters(lines, gapEm);
  const fragments: Fragment[] = [];
  for (const line of lines) {
    let current: TextItem[] = [];
    let right = -Infinity;
    for (const item of line) {
      const gap = item.x - right;
      const size = current.length ? Math.max(item.size, current.at(-1)!.size) : item.size;
      const onGutter = gap >= NARROW_GUTTER_EM * size && gutterXs.some((x) => x > right && x < item.x);
      const overlaps = cells && gap < -0.3 * size;
      // An accounting format prints its currency symbol at the cell's left edge, the number at its right.
      const symbolBefore = cells && current.length === 1 && /^[$€£¥￥]$/.test(current[0].text.trim());
      const ownsNumber = symbolBefore && /^[-−(]?\d[\d,]*(\.\d+)?\)?$/.test(item.text.trim());
      const wideGap = (gap > gapEm * size || onGutter) && !(item.afterWordSpace && gap < size);
      // A mark stays with the text it is set against, whatever column edge it meets.
      const previous = current.at(-1);
      const marked = previous !== undefined && (marks.get(item) === previous || marks.get(previous) === item);
      if (current.length && !ownsNumber && !marked && (wideGap || item.startsCell || overlaps)) {
        fragments.push(makeFragment(current, marks));
        current = [];
      }
      current.push(item);
      right = Math.max(right, item.x + item.width);
    }
    if (current.length) fragments.push(makeFragment(current, marks));
  }
  return fragments;
}

/** How much smaller than its text a footnote mark is set, at most (superscripts: 58–65 % of the size). */
const MARK_SIZE_SHARE = 0.8;

/**
 * Footnote marks ("Offers⁽¹⁾", "⁽¹⁾ Represents…"), each with the text it is set against: a string
 * set smaller than a text it touches, just after its end or just before its start, raised so that
 * its baseline falls inside that text's glyphs. Its baseline differs from the line's by more than
 * a line's tolerance, so it would otherwise be a line of its own.
 */
function footnoteMarks(items: TextItem[]): Map<TextItem, TextItem> {
  const marks = new Map<TextItem, TextItem>();
  const largest = Math.max(0, ...items.map((item) => item.size));
  const candidates = items.filter((item) => item.size <= largest * MARK_SIZE_SHARE && item.text.trim() !== '');
  if (candidates.length === 0) return marks;
  // Texts by baseline: a mark's text has its baseline below the mark's, by less than its size.
  const texts = items.filter((item) => !item.rotated).sort((a, b) => a.baseline - b.baseline);
  for (const mark of candidates) {
    let lo = 0;
    for (let hi = texts.length; lo < hi;) {
      const mid = (lo + hi) >> 1;
      if (texts[mid].baseline <= mark.baseline) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < texts.length && texts[i].baseline <= mark.baseline + largest; i++) {
      const text = texts[i];
      if (mark.size > text.size * MARK_SIZE_SHARE) continue;
      const raised = mark.baseline < text.baseline - text.size * 0.1 && mark.baseline > text.top;
      const end = text.x + text.width;
      const after = Math.abs(mark.x - end) <= text.size * 0.3;
      const space = text.x - (mark.x + mark.width);
      const before = space >= -text.size * 0.1 && space <= text.size * 0.6;
      if (raised && (after || before)) {
        marks.set(mark, text);
        break;
      }
    }
  }
  return marks;
}

/** The narrowest gap between two items that can be a column gutter, in ems (word spaces are about 0.25). */
const NARROW_GUTTER_EM = 0.6;
/** How many lines must share a narrow gap at one x for it to be a gutter, not a wide word space. */
const NARROW_GUTTER_LINES = 4;
/** Of the lines that break at a narrow gap's x or run a word across it, the share that must break. */
const NARROW_GUTTER_SHARE = 0.8;

/**
 * Column gutters narrower than a fragment break (some two-column layouts leave under an em between
 * columns): the middles of gaps of at least 0.6 em that at least four lines share at the same x.
 * Justified text widens word spaces too, but not at one x line after line.
 */
function narrowGutters(lines: TextItem[][], gapEm: number): number[] {
  const gaps: Interval[] = [];
  for (const line of lines) {
    let right = -Infinity;
    for (const item of line) {
      const gap = item.x - right;
      if (gap >= NARROW_GUTTER_EM * item.size && gap <= gapEm * item.size) gaps.push([right, item.x]);
      right = Math.max(right, item.x + item.width);
    }
  }
  if (gaps.length < NARROW_GUTTER_LINES) return [];
  const xs: number[] = [];
  // Gaps sorted by start; each one's middle is a gutter when enough gaps contain it.
  gaps.sort((a, b) => a[0] - b[0]);
  for (const [a, b] of gaps) {
    const middle = (a + b) / 2;
    if (xs.some((x) => Math.abs(x - middle) < b - a)) continue;
    let support = 0;
    for (const [c, d] of gaps) {
      if (c >= middle) break;
      if (d > middle) support++;
    }
    // Few lines may run a word across this x: four chance word spaces in line with each other on a
    // full page (common in OCR text and justified paragraphs) are not a gutter.
    const across = lines.filter((line) =>
      line.some((item) => item.x < middle - 0.5 && item.x + item.width > middle + 0.5),
    ).length;
    if (support >= NARROW_GUTTER_LINES && support >= NARROW_GUTTER_SHARE * (support + across)) xs.push(middle);
  }
  return xs;
}

interface Band {
  fragments: Fragment[];
  top: number;
  bottom: number;
}

type Interval = [number, number];

/** Empty x-intervals between a band's fragments (not at its ends). */
function interiorGaps(band: Band, minWidth: number): Interval[] {
  const spans = band.fragments.map((f) => [f.x, f.right] as Interval).sort((a, b) => a[0] - b[0]);
  const gaps: Interval[] = [];
  let cursor = spans[0]?.[1] ?? 0;
  for (const [a, b] of spans.slice(1)) {
    if (a - cursor >= minWidth) gaps.push([cursor, a]);
    cursor = Math.max(cursor, b);
  }
  return gaps;
}

/** Splits fragments into horizontal bands: runs whose vertical extents overlap. */
function bands(fragments: Fragment[]): Band[] {
  const sorted = [...fragments].sort((a, b) => a.top - b.top);
  const out: Band[] = [];
  for (const fragment of sorted) {
    const band = out.at(-1);
    // Overlap by more than a third of the smaller height: same band.
    if (band && fragment.top < band.bottom - Math.min(fragment.bottom - fragment.top, band.bottom - band.top) / 3) {
      band.fragments.push(fragment);
      band.bottom = Math.max(band.bottom, fragment.bottom);
    } else {
      out.push({ fragments: [fragment], top: fragment.top, bottom: fragment.bottom });
    }
  }
  return out;
}

/**
 * The column gutter best supported by the bands: an empty x-interval that at least two bands have
 * between fragments, narrowed to what those bands share.
 */
function findGutter(rows: Band[], minWidth: number): Interval | undefined {
  const gapsByBand = rows.map((b) => interiorGaps(b, minWidth));
  let best: { gutter: Interval; support: number } | undefined;
  for (const candidate of gapsByBand.flat()) {
    let gutter: Interval = [...candidate];
    let support = 0;
    for (const gaps of gapsByBand) {
      const hit = gaps.find(([a, b]) => Math.min(b, gutter[1]) - Math.max(a, gutter[0]) >= minWidth);
      if (!hit) continue;
      support++;
      gutter = [Math.max(hit[0], gutter[0]), Math.min(hit[1], gutter[1])];
    }
    if (support >= 2 && (!best || support > best.support)) best = { gutter, support };
  }
  return best?.gutter;
}

/**
 * Reading order: fragments in order, column by column. The best-supported column gutter is found;
 * consecutive bands that no fragment crosses it form a run, read left side then right side (each
 * recursively, for more columns); bands that cross it (titles, full-width paragraphs) read alone.
 */
export function readingOrder(fragments: Fragment[], depth = 0): Fragment[] {
  const byBands = (rows: Band[]) => rows.flatMap((b) => [...b.fragments].sort((a, c) => a.x - c.x));
  if (fragments.length <= 1) return [...fragments];
  const rows = bands(fragments);
  const size = median(fragments.map((f) => f.size));
  const gutter = depth > 6 ? undefined : findGutter(rows, Math.max(4, size * NARROW_GUTTER_EM));
  if (!gutter) return byBands(rows);
  // Crossing = spanning the gutter's middle: columns' ragged edges may eat into the gutter a little.
  const middle = (gutter[0] + gutter[1]) / 2;
  const crosses = (band: Band) => band.fragments.some((f) => f.x < middle - 2 && f.right > middle + 2);
  const ordered: Fragment[] = [];
  let run: Band[] = [];
  const flushRun = () => {
    if (run.length === 0) return;
    const members = run.flatMap((b) => b.fragments);
    const cut = (gutter[0] + gutter[1]) / 2;
    const leftSide = members.filter((f) => (f.x + f.right) / 2 < cut);
    const rightSide = members.filter((f) => (f.x + f.right) / 2 >= cut);
    if (leftSide.length && rightSide.length) {
      ordered.push(...readingOrder(leftSide, depth + 1), ...readingOrder(rightSide, depth + 1));
    } else if (members.length < fragments.length) {
      ordered.push(...readingOrder(members, depth + 1));
    } else {
      ordered.push(...byBands(run));
    }
    run = [];
  };
  for (const band of rows) {
    const previous = run.at(-1);
    // A wide vertical gap (a table or picture lay there, or a new section) also ends a run.
    if (previous && band.top - previous.bottom > size * 2.5) flushRun();
    if (crosses(band)) {
      flushRun();
      ordered.push(...byBands([band]));
    } else {
      run.push(band);
    }
  }
  flushRun();
  return ordered;
}

export interface Paragraph {
  lines: Fragment[];
  /** Runs of text with one style, hyphenation at line ends already joined. */
  runs: Array<{ text: string; item: TextItem }>;
  text: string;
  size: number;
  bold: boolean;
  x: number;
  top: number;
  bottom: number;
  right: number;
  list?: 'bullet' | 'number';
}

const BULLET = /^[•●▪■◦○‣∙·\-–*]\s+/;
const NUMBERED = /^(\(?\d{1,3}[.)]|\(?[a-z][.)])\s+/i;

/**
 * Paragraphs from fragments in reading order: a new paragraph starts after a larger vertical gap,
 * at a change of size or weight, at a bullet or number, after a short line, or at an indent.
 */
export function buildParagraphs(
  ordered: Fragment[],
  vocabulary = vocabularyOf(ordered.map((f) => f.text)),
): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let current: Fragment[] = [];
  const flush = () => {
    if (current.length) paragraphs.push(makeParagraph(current, vocabulary));
    current = [];
  };
  for (const fragment of ordered) {
    const previous = current.at(-1);
    if (previous) {
      const lineGap = fragment.top - previous.bottom;
      const sameSize = Math.abs(fragment.size - previous.size) < 0.8;
      const boldChanged = isBold(fragment) !== isBold(previous);
      const blockWidth = Math.max(...current.map((f) => f.right)) - Math.min(...current.map((f) => f.x));
      const shortPrevious =
        current.length >= 1 &&
        previous.right < Math.min(...current.map((f) => f.x)) + blockWidth - previous.size * 4 &&
        current.length > 1;
      const startsList = BULLET.test(fragment.text) || NUMBERED.test(fragment.text);
      const indented = fragment.x > previous.x + previous.size * 1.2;
      const outdented = fragment.x < previous.x - previous.size * 1.2;
      const notBelow = fragment.top < previous.top - 1;
      if (
        lineGap > previous.size * 0.75 ||
        lineGap < -previous.size ||
        notBelow ||
        !sameSize ||
        boldChanged ||
        startsList ||
        shortPrevious ||
        (indented && current.length > 1) ||
        outdented
      )
        flush();
    }
    current.push(fragment);
  }
  flush();
  return paragraphs;
}

function isBold(fragment: Fragment): boolean {
  const chars = fragment.items.reduce((n, i) => n + i.text.length, 0);
  const bold = fragment.items.filter((i) => i.bold).reduce((n, i) => n + i.text.length, 0);
  return bold > chars / 2;
}

function makeParagraph(lines: Fragment[], vocabulary: Vocabulary): Paragraph {
  const runs: Array<{ text: string; item: TextItem }> = [];
  lines.forEach((line, lineIndex) => {
    let lastRight = -Infinity;
    line.items.forEach((item, index) => {
      let text = item.text;
      const gap = item.x - lastRight;
      if (index > 0 && gap > item.size * 0.15 && !text.startsWith(' ') && !runs.at(-1)?.text.endsWith(' '))
        text = ` ${text}`;
      if (index === 0 && lineIndex > 0) {
        const previous = runs.at(-1);
        // "exam-" + "ple" → "example", "well-" + "known" → "well-known"; otherwise a space.
        const joint = previous ? lineJoint(previous.text, text, vocabulary) : 'space';
        if (previous && joint === 'join') previous.text = previous.text.replace(/[-\u2010\u2011\u00AD]\s*$/u, '');
        else if (previous && joint === 'keep-hyphen') previous.text = previous.text.trimEnd();
        else if (previous && !previous.text.endsWith(' ')) text = ` ${text}`;
      }
      lastRight = Math.max(lastRight, item.x + item.width);
      const previous = runs.at(-1);
      if (previous && sameStyle(previous.item, item)) previous.text += text;
      else runs.push({ text, item });
    });
  });
  for (const run of runs) run.text = run.text.replace(/\s+/g, ' ');
  if (runs.length) runs[0].text = runs[0].text.trimStart();
  const text = runs
    .map((r) => r.text)
    .join('')
    .trim();
  const chars = runs.reduce((n, r) => n + r.text.length, 0) || 1;
  const boldChars = runs.filter((r) => r.item.bold).reduce((n, r) => n + r.text.length, 0);
  return {
    lines,
    runs,
    text,
    size: median(lines.map((l) => l.size)),
    bold: boldChars > chars / 2,
    x: Math.min(...lines.map((l) => l.x)),
    top: lines[0].top,
    bottom: Math.max(...lines.map((l) => l.bottom)),
    right: Math.max(...lines.map((l) => l.right)),
    list: BULLET.test(text) ? 'bullet' : NUMBERED.test(text) ? 'number' : undefined,
  };
}

export function sameStyle(a: TextItem, b: TextItem): boolean {
  return (
    a.bold === b.bold &&
    a.italic === b.italic &&
    a.color === b.color &&
    Math.abs(a.size - b.size) < 0.5 &&
    a.family === b.family
  );
}

/** Normalised words of a text, for similarity measures. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}
