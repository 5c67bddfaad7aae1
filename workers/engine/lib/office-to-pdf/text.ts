/**
 * Paragraph layout: inlines → measured atoms (words, spaces, tabs, images, fields) → lines that fit
 * a width, then drawn with pdf-lib. Lines break at spaces, and anywhere between CJK characters.
 * Right-to-left text: atoms carry their bidi embedding level, and each line is put in visual order.
 */
import {
  PDFArray,
  PDFHexString,
  PDFName,
  PDFPage,
  PDFFont,
  degrees,
  drawText,
  rgb,
  setCharacterSpacing,
  type Color,
  type PDFImage,
  PDFDocument,
} from 'pdf-lib';
import { uriAction } from '../pdf/pdf-links.ts';
import type { FontBook } from './fonts.ts';
import {
  drawPicture,
  type Crop,
  type Inline,
  type PageSetup,
  type Paragraph,
  type RunStyle,
  type TabStop,
  type Underline,
} from './model.ts';
import { embeddable, sniffImage, type ImageMime } from './images.ts';
import { drawMetafile, MetafileError } from './metafile/pdf.ts';
import { drawShaped, shapedWidth } from './shaped-text.ts';
import { listNumber, type NumberStyle } from './list-numbers.ts';
import {
  drawnAlone,
  fontkitReverses,
  hasMirrored,
  paragraphLevels,
  splitByLevel,
  visualOrder,
  visualText,
  type ParagraphLevels,
} from './bidi.ts';

const TAB_STOP = 36; // Word's default tab stops: every half inch.

type Atom =
  | {
      kind: 'text';
      text: string;
      font: PDFFont;
      style: RunStyle;
      width: number;
      space: boolean;
      /** The word goes on from the atom before (another run or font inside one word): no line break between. */
      glued?: boolean;
      /** What is shaped and drawn when it differs from `text`: an Arabic word's part with zero-width joiners. */
      shaped?: string;
      lineHeight: number;
      ascent: number;
      /** Bidi embedding level (odd: right to left); absent in a paragraph without right-to-left text. */
      level?: number;
    }
  | {
      kind: 'field';
      field: 'PAGE' | 'NUMPAGES';
      format?: NumberStyle;
      font: PDFFont;
      style: RunStyle;
      width: number;
      lineHeight: number;
      ascent: number;
      level?: number;
    }
  | {
      kind: 'tab';
      style: RunStyle;
      width: number;
      lineHeight: number;
      ascent: number;
      font: PDFFont;
      leader?: string;
      positional?: 'left' | 'center' | 'right';
    }
  | { kind: 'break'; width: 0; lineHeight: number; ascent: number }
  | { kind: 'image'; image: PDFImage; width: number; height: number; crop?: Crop; level?: number }
  | {
      kind: 'drawing';
      draw: (page: PDFPage, x: number, bottom: number) => void;
      width: number;
      height: number;
      depth?: number;
      level?: number;
    };

export interface LaidLine {
  atoms: Atom[];
  /** Left offset of the line's first atom inside the paragraph box (indents, alignment). */
  x: number;
  width: number;
  height: number;
  /** Distance from the line's top to its baseline. */
  baseline: number;
  /** Extra width per space when justified. */
  spaceStretch: number;
}

export interface LaidParagraph {
  paragraph: Paragraph;
  lines: LaidLine[];
  /** Lines' total height, without spaceBefore/After. */
  height: number;
  marker?: { atoms: Atom[]; x: number };
}

/**
 * Embeds images once per document. PNG and JPEG go in as they are; GIF, BMP, TIFF and WebP are
 * converted to PNG first (images.ts); EMF and WMF are drawn as vector pictures (metafile/). A picture
 * that cannot be drawn (a broken file, a metafile outside the subset) rejects, and says so in `notes`.
 */
export class ImageCache {
  private readonly images = new Map<Uint8Array, Promise<PDFImage>>();
  /** What the result should say about pictures (metafiles not drawn, or drawn in part). */
  readonly notes = new Set<string>();
  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts?: FontBook,
  ) {}
  get(bytes: Uint8Array, _mime?: ImageMime): Promise<PDFImage> {
    let image = this.images.get(bytes);
    if (!image) {
      const mime = sniffImage(bytes);
      image =
        (mime === 'image/x-emf' || mime === 'image/x-wmf') && this.fonts
          ? this.metafile(bytes, this.fonts)
          : embeddable(bytes).then((e) =>
              e.format === 'png' ? this.doc.embedPng(e.bytes) : this.doc.embedJpg(e.bytes),
            );
      this.images.set(bytes, image);
    }
    return image;
  }

  private async metafile(bytes: Uint8Array, fonts: FontBook): Promise<PDFImage> {
    try {
      const drawn = await drawMetafile(this.doc, bytes, fonts);
      if (drawn.leftOut.length)
        this.notes.add(`parts of pictures in EMF/WMF format were left out (${drawn.leftOut.join(', ')})`);
      return drawn.image;
    } catch (error) {
      if (!(error instanceof MetafileError)) throw error;
      this.notes.add('pictures in EMF/WMF format that could not be drawn are shown as empty frames');
      throw error;
    }
  }
}

export interface TextContext {
  fonts: FontBook;
  images: ImageCache;
}

/** Widths of words per font at 1 pt: documents repeat their words, and measuring is fontkit's costliest call. */
const unitWidths = new WeakMap<PDFFont, Map<string, number>>();

/**
 * Scripts whose text a font draws a character at a time (Latin, Greek, Cyrillic; no combining marks)
 * except where it joins neighbours into another glyph (ligatures such as Carlito's "tt" and "ffi"),
 * found by shaping each pair of neighbouring characters once per font. pdf-lib sums the advance widths
 * of the shaped glyphs and encodes those glyphs, so such text cut into single characters and joined
 * clusters gives the same widths and glyphs without shaping every new string (a price list of 75,000
 * different names and URLs spent most of its time there). Substitutions that need more context than
 * a pair (rare contextual alternates) are not seen.
 */
const UNSHAPED_SCRIPTS = /^[\u0020-\u007E\u00A0-\u024F\u0370-\u03FF\u0400-\u04FF]*$/;

interface ClusterCodes {
  /** Hex glyph codes of each single character or joined cluster, shaped alone. */
  codes: Map<string, string>;
  /** Whether the font shapes a pair of characters into other glyphs than their own. */
  joins: Map<string, boolean>;
}

const clusterCodes = new WeakMap<PDFFont, ClusterCodes>();

function knownCodes(font: PDFFont): ClusterCodes {
  let known = clusterCodes.get(font);
  if (!known) clusterCodes.set(font, (known = { codes: new Map(), joins: new Map() }));
  return known;
}

function codeOf(font: PDFFont, cluster: string): string {
  const { codes } = knownCodes(font);
  let code = codes.get(cluster);
  if (code === undefined) codes.set(cluster, (code = font.encodeText(cluster).toString().slice(1, -1)));
  return code;
}

function joins(font: PDFFont, before: string, char: string): boolean {
  const known = knownCodes(font);
  const pair = before + char;
  let joined = known.joins.get(pair);
  if (joined === undefined) {
    joined = codeOf(font, pair) !== codeOf(font, before) + codeOf(font, char);
    known.joins.set(pair, joined);
  }
  return joined;
}

/** `text` cut into single characters and the clusters the font joins, or undefined where it must shape it all. */
function clustersOf(font: PDFFont, text: string): string[] | undefined {
  if (!UNSHAPED_SCRIPTS.test(text)) return undefined;
  const clusters: string[] = [];
  let cluster = '';
  let last = '';
  for (const char of text) {
    if (cluster && joins(font, last, char)) cluster += char;
    else {
      if (cluster) clusters.push(cluster);
      cluster = char;
    }
    last = char;
  }
  if (cluster) clusters.push(cluster);
  return clusters;
}

function widthOf(font: PDFFont, text: string, size: number): number {
  let widths = unitWidths.get(font);
  if (!widths) unitWidths.set(font, (widths = new Map()));
  let unit = widths.get(text);
  if (unit === undefined) {
    const clusters = text.length > 1 ? clustersOf(font, text) : undefined;
    if (clusters && clusters.length > 1) {
      unit = 0;
      for (const cluster of clusters) unit += widthOf(font, cluster, 1);
    } else if (fontkitReverses(text))
      unit = (shapedWidth(font, text, 1000) ?? font.widthOfTextAtSize(text, 1000)) / 1000;
    else unit = font.widthOfTextAtSize(text, 1000) / 1000;
    widths.set(text, unit);
  }
  return unit * size;
}

/** A string's width in a run's look: its glyphs at the run's size, and the run's spacing after each character. */
function runWidth(font: PDFFont, text: string, style: RunStyle): number {
  const width = widthOf(font, text, sizeOf(style));
  return style.spacing ? width + style.spacing * (clustersOf(font, text)?.length ?? [...text].length) : width;
}

/**
 * A page's resource name for a font, made once per page and font. pdf-lib's drawText adds a new name
 * for the same font at every call: a page of 300 cells had 300 entries in its font dictionary.
 */
const fontKeys = new WeakMap<PDFPage, Map<PDFFont, PDFName>>();

function fontKeyOn(page: PDFPage, font: PDFFont): PDFName {
  let keys = fontKeys.get(page);
  if (!keys) fontKeys.set(page, (keys = new Map()));
  let key = keys.get(font);
  if (!key) keys.set(font, (key = page.node.newFontDictionary(font.name, font.ref)));
  return key;
}

/** One line of text at (x, y) on the baseline, in one text object. */
function drawPlainText(
  page: PDFPage,
  text: string,
  font: PDFFont,
  size: number,
  x: number,
  y: number,
  fill: Color,
  spacing = 0,
) {
  const clusters = clustersOf(font, text);
  const encoded = clusters ? PDFHexString.of(clusters.map((c) => codeOf(font, c)).join('')) : font.encodeText(text);
  const upright = degrees(0);
  // Character spacing (Tc) is part of the graphics state drawText saves: set around it, then reset.
  if (spacing) page.pushOperators(setCharacterSpacing(spacing));
  page.pushOperators(
    ...drawText(encoded, {
      color: fill,
      font: fontKeyOn(page, font),
      size,
      rotate: upright,
      xSkew: upright,
      ySkew: upright,
      x,
      y,
    }),
  );
  if (spacing) page.pushOperators(setCharacterSpacing(0));
}

function sizeOf(style: RunStyle): number {
  return style.baseline ? style.size * 0.65 : style.size;
}

/**
 * The paragraph's logical text for the bidi algorithm, one piece per inline: a tab is a segment
 * separator, a line break a line separator, a picture or field an object (a neutral).
 */
function logicalPieces(inlines: Inline[]): string[] {
  return inlines.map((inline) =>
    inline.kind === 'text'
      ? inline.text
      : inline.kind === 'tab'
        ? '\t'
        : inline.kind === 'break'
          ? '\u2028'
          : inline.kind === 'field'
            ? '0'
            : '\ufffc',
  );
}

/** Levels of each inline's text (from `start` in `levels`), when the paragraph has right-to-left text. */
interface InlineLevels {
  bidi: ParagraphLevels;
  starts: number[];
}

function inlineLevels(inlines: Inline[], direction: 'rtl' | 'ltr' | undefined): InlineLevels | undefined {
  const pieces = logicalPieces(inlines);
  const bidi = paragraphLevels(pieces.join(''), direction);
  if (!bidi) return undefined;
  const starts: number[] = [];
  let offset = 0;
  for (const piece of pieces) {
    starts.push(offset);
    offset += piece.length;
  }
  return { bidi, starts };
}

async function atomsOf(inlines: Inline[], ctx: TextContext, bidi?: InlineLevels): Promise<Atom[]> {
  const atoms: Atom[] = [];
  for (const [index, inline] of inlines.entries()) {
    const level = bidi?.bidi.levels[bidi.starts[index]];
    if (inline.kind === 'drawing') {
      try {
        atoms.push({
          kind: 'drawing',
          draw: await inline.prepare(ctx, inline.width, inline.height),
          width: inline.width,
          height: inline.height,
          depth: inline.depth,
          level,
        });
      } catch {
        /* A drawing that cannot be laid out is left out rather than failing the document. */
      }
      continue;
    }
    if (inline.kind === 'measured') {
      try {
        const content = await inline.layout(ctx);
        atoms.push({ kind: 'drawing', ...content, level });
      } catch {
        /* Content that cannot be laid out is left out rather than failing the document. */
      }
      continue;
    }
    if (inline.kind === 'image') {
      try {
        atoms.push({
          kind: 'image',
          image: await ctx.images.get(inline.bytes, inline.mime),
          width: inline.width,
          height: inline.height,
          crop: inline.crop,
          level,
        });
      } catch {
        // A picture that cannot be drawn (a broken file, a metafile outside the subset): a light frame keeps its place.
        const { width, height } = inline;
        atoms.push({
          kind: 'drawing',
          width,
          height,
          level,
          draw: (page, x, bottom) =>
            page.drawRectangle({ x, y: bottom, width, height, borderColor: rgb(0.8, 0.8, 0.8), borderWidth: 0.5 }),
        });
      }
      continue;
    }
    const style = inline.style;
    const request = { family: style.font, bold: style.bold, italic: style.italic };
    const metrics = await ctx.fonts.metrics(request);
    const lineHeight = metrics.lineHeight * style.size;
    const ascent = metrics.ascent * style.size;
    if (inline.kind === 'tab')
      atoms.push({
        kind: 'tab',
        style,
        width: 0,
        lineHeight,
        ascent,
        font: (await ctx.fonts.spans('.', request))[0].font,
        positional: inline.positional,
      });
    else if (inline.kind === 'break') atoms.push({ kind: 'break', width: 0, lineHeight, ascent });
    else if (inline.kind === 'field') {
      const [span] = await ctx.fonts.spans('0', request);
      atoms.push({
        kind: 'field',
        field: inline.field,
        format: inline.format,
        font: span.font,
        style,
        width: runWidth(span.font, '00', style),
        lineHeight,
        ascent,
        level,
      });
    } else {
      // Right-to-left text is cut where its level changes, so every atom has one direction.
      const pieces = bidi
        ? splitByLevel(inline.text, bidi.bidi.levels, bidi.starts[index])
        : [[inline.text, undefined]];
      for (const [text, pieceLevel] of pieces as Array<[string, number | undefined]>)
        for (const span of await ctx.fonts.spans(text, request)) {
          // Words, runs of spaces, and single CJK characters are the units a line may break between.
          for (const token of span.text.match(
            / +|[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]|[^ \u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]+/gu,
          ) ?? []) {
            const before = atoms.at(-1);
            atoms.push({
              kind: 'text',
              text: token,
              font: span.font,
              style,
              width: runWidth(span.font, token, style),
              space: token.startsWith(' '),
              glued: isWordPart(token) && before?.kind === 'text' && isWordPart(before.text),
              lineHeight,
              ascent,
              ...(pieceLevel === undefined ? {} : { level: pieceLevel }),
            });
          }
        }
    }
  }
  joinAcrossRuns(atoms);
  return atoms;
}

const ZWJ = '\u200d';

/**
 * An Arabic word whose letters come from several runs (one letter bold, or in another colour) joins
 * as one word: each part is shaped alone, so a zero-width joiner is added on each side of a boundary
 * where the font joins the letters there, and the letters on both sides take their joined forms.
 */
function joinAcrossRuns(atoms: Atom[]): void {
  for (let i = 1; i < atoms.length; i++) {
    const [before, after] = [atoms[i - 1], atoms[i]];
    if (before.kind !== 'text' || after.kind !== 'text' || !after.glued) continue;
    if (!fontkitReverses(before.text) || !fontkitReverses(after.text)) continue;
    const last = /(\P{M})\p{M}*$/u.exec(before.text)?.[1];
    const first = after.text[0];
    if (!last || !first || !joins(before.font, last, first)) continue;
    before.shaped = (before.shaped ?? before.text) + ZWJ;
    after.shaped = ZWJ + after.text;
    before.width = widthOf(before.font, before.shaped, sizeOf(before.style));
    after.width = widthOf(after.font, after.shaped, sizeOf(after.style));
  }
}

function atomHeight(atom: Atom): { height: number; ascent: number } {
  if (atom.kind === 'drawing') return { height: atom.height + (atom.depth ?? 0), ascent: atom.height };
  if (atom.kind === 'image') return { height: atom.height, ascent: atom.height };
  return { height: atom.lineHeight, ascent: atom.ascent };
}

type TextAtom = Extract<Atom, { kind: 'text' }>;

/** A token of a word a line may not break inside: not spaces, not a single CJK character. */
function isWordPart(token: string): boolean {
  return (
    !token.startsWith(' ') && !/^[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]$/u.test(token)
  );
}

/** Splits a word wider than the line into pieces that fit. */
function splitWord(atom: Extract<Atom, { kind: 'text' }>, width: number): Atom[] {
  const pieces: Atom[] = [];
  let current = '';
  let currentWidth = 0;
  let last = '';
  const piece = () => ({
    ...atom,
    text: current,
    shaped: undefined,
    width: currentWidth,
    glued: !pieces.length && atom.glued,
  });
  for (const char of atom.text) {
    // A character the font does not join to the one before adds its own width (no reshaping of the
    // piece so far at every character: a long URL in a narrow wrapped column was quadratic).
    const plain = !current || (UNSHAPED_SCRIPTS.test(last + char) && !joins(atom.font, last, char));
    const style = atom.style;
    let next = plain ? currentWidth + runWidth(atom.font, char, style) : runWidth(atom.font, current + char, style);
    if (current && next > width) {
      pieces.push(piece());
      current = '';
      next = runWidth(atom.font, char, style);
    }
    current += char;
    currentWidth = next;
    last = char;
  }
  if (current) pieces.push(piece());
  return pieces;
}

/**
 * A line's atoms in visual order (left to right on the page) from their embedding levels; a tab or
 * a line break is at the paragraph's level (UAX #9 rule L1: trailing spaces are already dropped).
 */
function reorderLine(atoms: Atom[], paragraphLevel: number): Atom[] {
  const levels = atoms.map((a) =>
    a.kind === 'tab' || a.kind === 'break' ? paragraphLevel : (a.level ?? paragraphLevel),
  );
  if (levels.every((l) => l === 0)) return atoms;
  return visualOrder(levels).map((i) => atoms[i]);
}

/**
 * The first line's insets from the paragraph box's left and right (indents, the first-line indent and
 * the list marker's room after it) and the marker's x. With a list marker in a hanging indent, the
 * first line's text lines up with the others and the marker sits in the hang; with a positive indent,
 * the text follows the marker. In a right-to-left paragraph all of it is on the right.
 */
function firstLineInsets(
  paragraph: Paragraph,
  width: number,
  markerWidth: number,
  rtl: boolean,
): { start: number; end: number; marker: number } {
  const { indentLeft, indentRight, firstLine } = paragraph;
  const start = paragraph.marker
    ? firstLine < 0
      ? Math.max(indentLeft, indentLeft + firstLine + markerWidth + 4)
      : indentLeft + firstLine + markerWidth + 6
    : indentLeft + firstLine;
  if (!rtl) return { start, end: indentRight, marker: indentLeft + firstLine };
  return {
    start: indentLeft,
    end: indentRight + start - indentLeft,
    marker: width - indentRight - firstLine - markerWidth,
  };
}

/**
 * The paragraph's next custom tab stop past `position`. On the first line of a hanging indent the
 * indent itself is a stop too (Word's, which LibreOffice follows): "1.<tab>text" lines up with the lines below.
 */
function nextTabStop(paragraph: Paragraph, position: number, firstLine: boolean, rtl: boolean): TabStop | undefined {
  const stop = paragraph.tabStops?.find((s) => s.position > position + 0.01);
  if (!firstLine || paragraph.firstLine >= 0 || paragraph.marker) return stop;
  const indent = rtl ? paragraph.indentRight : paragraph.indentLeft;
  if (indent <= position + 0.01 || (stop && stop.position <= indent)) return stop;
  return { position: indent, align: 'left' };
}

/** A list marker's atoms in visual order: in a right-to-left paragraph it is right-to-left text ("1." reads ".1"). */
async function markerAtomsOf(paragraph: Paragraph, ctx: TextContext, rtl: boolean): Promise<Atom[]> {
  if (!paragraph.marker) return [];
  const inlines: Inline[] = [{ kind: 'text', text: paragraph.marker.text, style: paragraph.marker.style }];
  const levels = rtl ? inlineLevels(inlines, 'rtl') : undefined;
  const atoms = await atomsOf(inlines, ctx, levels);
  return levels ? reorderLine(atoms, 1) : atoms;
}

/**
 * A line's height and its baseline's distance from its top, from its atoms and the paragraph's line
 * spacing; `empty` is an empty line's (the paragraph's first font and size).
 */
function lineBox(
  atoms: Atom[],
  spacing: Paragraph['lineSpacing'],
  empty: { height: number; ascent: number; size: number },
): { lineHeight: number; baseline: number } {
  let [height, ascent, size] = [0, 0, 0];
  for (const atom of atoms) {
    const m = atomHeight(atom);
    height = Math.max(height, m.height);
    ascent = Math.max(ascent, m.ascent);
    size = Math.max(
      size,
      atom.kind === 'image' || atom.kind === 'drawing' ? atom.height / 1.2 : 'style' in atom ? sizeOf(atom.style) : 0,
    );
  }
  if (atoms.length === 0 || height === 0) ({ height, ascent, size } = empty);
  let lineHeight = height;
  if (spacing.rule === 'auto') lineHeight = height * spacing.value;
  else if (spacing.rule === 'ofSize') lineHeight = 1.2 * size * spacing.value;
  else if (spacing.rule === 'exact') lineHeight = spacing.value;
  else lineHeight = Math.max(height, spacing.value);
  // DrawingML lines (as LibreOffice lays them out): the baseline one text size below the line's top.
  const baseline =
    spacing.rule === 'ofSize'
      ? size * spacing.value
      : ascent + (lineHeight - height) * (spacing.rule === 'auto' ? 0 : 1) * 0.8;
  return { lineHeight, baseline };
}

/**
 * A tab's width from the pen at `position`: to the next custom stop past it (positions count from the
 * text column's left edge, in a right-to-left paragraph from its right edge, where its lines start),
 * else the next default stop. Right and centre stops end or centre the text up to the next tab there
 * ("right" being a right-to-left paragraph's end: its left, as LibreOffice reads it).
 */
function setTabWidth(
  atom: Extract<Atom, { kind: 'tab' }>,
  queue: Atom[],
  position: number,
  paragraph: Paragraph,
  width: number,
  firstLine: boolean,
  rtl: boolean,
): void {
  const stop = atom.positional
    ? {
        position: atom.positional === 'left' ? 0 : atom.positional === 'center' ? width / 2 : width,
        align: atom.positional,
        leader: undefined,
      }
    : nextTabStop(paragraph, position, firstLine, rtl);
  atom.leader = undefined;
  if (!stop) {
    atom.width = TAB_STOP - (position % TAB_STOP) || TAB_STOP;
    return;
  }
  let following = 0;
  for (const next of queue) {
    if (next.kind === 'tab' || next.kind === 'break') break;
    if (stop.align === 'decimal' && next.kind === 'text' && /[.,]/.test(next.text)) {
      following += widthOf(next.font, next.text.slice(0, next.text.search(/[.,]/)), sizeOf(next.style));
      break;
    }
    following += next.width;
  }
  const shift = stop.align === 'left' ? 0 : stop.align === 'center' ? following / 2 : following;
  atom.width = Math.max(0, stop.position - position - shift);
  atom.leader = stop.leader;
}

/**
 * Room a float takes beside a paragraph: a line reaching between `from` and `to` (points down from
 * the paragraph's top) is narrowed by `left` and `right`.
 */
export interface BesideFloat {
  from: number;
  to: number;
  left: number;
  right: number;
  /** A float in the middle with text on both sides: the line skips from gap[0] to gap[1] (box x). */
  gap?: [number, number];
}

export async function layoutParagraph(
  paragraph: Paragraph,
  width: number,
  ctx: TextContext,
  beside: BesideFloat[] = [],
): Promise<LaidParagraph> {
  const bidi = inlineLevels(paragraph.inlines, paragraph.direction);
  const atoms = await atomsOf(paragraph.inlines, ctx, bidi);
  const lines: LaidLine[] = [];
  const defaultStyle = paragraph.inlines.find((i): i is Extract<Inline, { style: RunStyle }> => 'style' in i)
    ?.style ?? { size: 11 };
  const emptyMetrics = await ctx.fonts.metrics({
    family: defaultStyle.font,
    bold: defaultStyle.bold,
    italic: defaultStyle.italic,
  });

  let current: Atom[] = [];
  let lineWidth = 0;
  const markerAtoms = await markerAtomsOf(paragraph, ctx, bidi?.bidi.paragraphLevel === 1);
  const markerWidth = markerAtoms.reduce((sum, a) => sum + a.width, 0);
  const rtl = bidi?.bidi.paragraphLevel === 1;
  const first = firstLineInsets(paragraph, width, markerWidth, rtl);
  let laidHeight = 0;
  // The line being filled reaches about as far down as the one before it (a body line, for the first).
  const besideNow = () => {
    const reach = laidHeight + (lines.at(-1)?.height ?? 14);
    return beside.filter((band) => laidHeight < band.to && reach > band.from);
  };
  // A right-to-left paragraph keeps to the wider side of a float it could have on both sides.
  const sides = (band: BesideFloat) =>
    !band.gap || !rtl
      ? band
      : band.gap[0] >= width - band.gap[1]
        ? { left: 0, right: width - band.gap[0] }
        : { left: band.gap[1], right: 0 };
  const inset = (side: 'left' | 'right') => Math.max(0, ...besideNow().map((band) => sides(band)[side]));
  // Whether the line being filled has skipped its float (text on both sides).
  let skipped = false;
  /** A float's gap the line reaches with `adding` more points, if it has not skipped it yet. */
  const gapAhead = (adding: number) => {
    // (Right-to-left lines fill from the right: they keep to one side of the float.)
    if (skipped || rtl) return undefined;
    const gap = besideNow().find((band) => band.gap)?.gap;
    return gap && startOf() + lineWidth + adding > gap[0] ? gap : undefined;
  };
  const startOf = () => (lines.length === 0 ? first.start : paragraph.indentLeft) + inset('left');
  const endOf = () => (lines.length === 0 ? first.end : paragraph.indentRight) + inset('right');
  const available = () => (paragraph.noWrap ? Infinity : Math.max(12, width - startOf() - endOf()));

  const finish = (last: boolean) => {
    while (
      current.length &&
      current[current.length - 1].kind === 'text' &&
      (current[current.length - 1] as { space: boolean }).space
    ) {
      lineWidth -= current.pop()!.width;
    }
    const { lineHeight, baseline } = lineBox(current, paragraph.lineSpacing, {
      height: emptyMetrics.lineHeight * defaultStyle.size,
      ascent: emptyMetrics.ascent * defaultStyle.size,
      size: defaultStyle.size,
    });
    const free = (paragraph.noWrap ? width - startOf() - endOf() : available()) - lineWidth;
    let x = startOf();
    let spaceStretch = 0;
    if (paragraph.align === 'center') x += free / 2;
    else if (paragraph.align === 'right') x += free;
    else if (paragraph.align === 'justify') {
      const spaces = last ? 0 : current.filter((a) => a.kind === 'text' && a.space).length;
      if (spaces > 0 && free > 0) spaceStretch = free / spaces;
      // A justified paragraph's last line (or one without spaces) starts at its start: the right, in right to left.
      else if (rtl) x += free;
    }
    const visual = bidi ? reorderLine(current, bidi.bidi.paragraphLevel) : current;
    // (A line with a float between its two parts is not justified: its spaces would run into the float.)
    lines.push({
      atoms: visual,
      x,
      width: lineWidth,
      height: lineHeight,
      baseline,
      spaceStretch: skipped ? 0 : spaceStretch,
    });
    laidHeight += lineHeight;
    skipped = false;
    current = [];
    lineWidth = 0;
  };

  const queue = [...atoms];
  while (queue.length) {
    const atom = queue.shift()!;
    if (atom.kind === 'break') {
      current.push(atom);
      finish(true);
      continue;
    }
    if (atom.kind === 'tab') {
      const position = (rtl && !atom.positional ? endOf() : startOf()) + lineWidth;
      setTabWidth(atom, queue, position, paragraph, width, lines.length === 0, rtl);
    }
    const gap = gapAhead(atom.width);
    if (gap) {
      // The text before the float ends here; the line goes on right of it (a space at the float is dropped).
      skipped = true;
      const last = () => current[current.length - 1];
      while (current.length && last().kind === 'text' && (last() as TextAtom).space) lineWidth -= current.pop()!.width;
      const width = Math.max(0, gap[1] - startOf() - lineWidth);
      current.push({ kind: 'drawing', width, height: 0, draw: () => undefined });
      lineWidth += width;
      if (atom.kind === 'text' && atom.space) continue;
    }
    if (lineWidth + atom.width > available() && !(atom.kind === 'text' && atom.space)) {
      if (current.length === 0 || current.every((a) => a.kind === 'text' && a.space)) {
        // Nothing on the line yet: the atom alone is too wide.
        if (atom.kind === 'text' && atom.text.length > 1) {
          queue.unshift(...splitWord(atom, available()));
          continue;
        }
      } else {
        // The parts of a word already on the line (a highlighted letter, a change of font) go with it.
        let start = current.length;
        if (atom.kind === 'text' && atom.glued) {
          while (start > 0 && (current[start - 1] as TextAtom).glued) start--;
          start--;
        }
        const carry = start > 0 && current.slice(0, start).some((a) => !(a.kind === 'text' && a.space));
        const carried = carry ? current.splice(start) : [];
        for (const a of carried) lineWidth -= a.width;
        finish(false);
        queue.unshift(...carried, atom);
        continue;
      }
    }
    // no leading spaces on wrapped lines
    if (atom.kind === 'text' && atom.space && current.length === 0 && lines.length > 0) continue;
    current.push(atom);
    lineWidth += atom.width;
  }
  if (current.length || lines.length === 0) finish(true);

  const marker = paragraph.marker
    ? {
        atoms: markerAtoms,
        x: first.marker + Math.max(0, ...beside.filter((band) => band.from < 14).map((b) => b.left)),
      }
    : undefined;
  return { paragraph, lines, height: lines.reduce((sum, l) => sum + l.height, 0), marker };
}

export interface DrawContext {
  /** The number the page shows (a section may restart the count), and its style (decimal when absent). */
  pageNumber: number;
  pageStyle?: NumberStyle;
  pageCount: number;
  /** The page's size and margins (floating drawings are placed from them). */
  setup?: PageSetup;
  /** Where an anchor of the document landed (its page and the PDF y of its top), for "#name" links. */
  anchor?: (name: string) => { page: PDFPage; top: number } | undefined;
  /**
   * How far down a transformation moves what is being drawn (a vertically centred page's body):
   * links, which no transformation moves, are placed that much lower themselves.
   */
  movedDown?: number;
}

function color(c: [number, number, number] | undefined) {
  return c ? rgb(c[0], c[1], c[2]) : rgb(0, 0, 0);
}

function sameUnderline(a: Underline | undefined, b: Underline | undefined): boolean {
  return (
    a === b ||
    (a?.line === b?.line &&
      a?.heavy === b?.heavy &&
      a?.wordsOnly === b?.wordsOnly &&
      String(a?.color) === String(b?.color))
  );
}

function sameLook(a: RunStyle, b: RunStyle): boolean {
  return (
    a === b ||
    (a.size === b.size &&
      a.bold === b.bold &&
      a.italic === b.italic &&
      sameUnderline(a.underline, b.underline) &&
      a.strike === b.strike &&
      a.baseline === b.baseline &&
      a.raise === b.raise &&
      a.spacing === b.spacing &&
      a.link === b.link &&
      String(a.color) === String(b.color) &&
      String(a.highlight) === String(b.highlight))
  );
}

/** [start, end] of each word of a run drawn from x: where a words-only underline goes. */
function wordSpans(text: string, font: PDFFont, style: RunStyle, x: number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let cursor = x;
  for (const piece of text.split(/( +)/)) {
    const width = piece ? runWidth(font, piece, style) : 0;
    if (piece.trim()) spans.push([cursor, cursor + width]);
    cursor += width;
  }
  return spans;
}

/**
 * An underline from x1 to x2 at y, in its kind of line: a double one is two thinner lines, a dotted
 * or dashed one a dash pattern, a wave a curve of half-waves three thicknesses long.
 */
function drawUnderline(
  page: PDFPage,
  kind: Underline['line'],
  x1: number,
  x2: number,
  line: { y: number; thickness: number; color: Color },
): void {
  if (x2 - x1 <= 0) return;
  const { y, thickness, color: fill } = line;
  const straight = (at: number, width: number, dashArray?: number[]) =>
    page.drawLine({ start: { x: x1, y: at }, end: { x: x2, y: at }, thickness: width, color: fill, dashArray });
  if (kind === 'double') {
    const thin = thickness * 0.75;
    straight(y + thin, thin);
    straight(y - thin, thin);
  } else if (kind === 'dotted') straight(y, thickness, [thickness, thickness]);
  else if (kind === 'dashed') straight(y, thickness, [thickness * 4, thickness * 2]);
  else if (kind === 'wave') {
    const half = thickness * 3;
    const count = Math.max(1, Math.round((x2 - x1) / half));
    const step = (x2 - x1) / count;
    // SVG coordinates run downwards from (x1, y): a half-wave bulges up, the next down.
    let path = 'M 0 0';
    for (let i = 0; i < count; i++)
      path += ` Q ${step * (i + 0.5)} ${i % 2 ? thickness * 1.5 : -thickness * 1.5} ${step * (i + 1)} 0`;
    page.drawSvgPath(path, { x: x1, y, borderColor: fill, borderWidth: thickness });
  } else straight(y, thickness);
}

/** Draws one run of text in one font and look, with its highlight, underline and strike-through. */
function drawRun(
  page: PDFPage,
  text: string,
  font: PDFFont,
  style: RunStyle,
  x: number,
  width: number,
  baselineY: number,
  ctx?: DrawContext,
  /** The characters a mirrored bracket stands for, for text extraction (ActualText). */
  actualText?: string,
): void {
  const size = sizeOf(style);
  const rise =
    (style.baseline === 'super' ? style.size * 0.33 : style.baseline === 'sub' ? -style.size * 0.14 : 0) +
    (style.raise ?? 0);
  if (style.highlight)
    page.drawRectangle({ x, y: baselineY - size * 0.22, width, height: size * 1.15, color: color(style.highlight) });
  // Arabic and Hebrew words are drawn with their glyph positions (shaped-text.ts).
  if (text.trim() && (fontkitReverses(text) || actualText !== undefined))
    drawShaped(page, text, font, size, x, baselineY + rise, color(style.color), actualText);
  // pdf-lib's drawText splits lines at line breaks and replaces tabs; runs hold neither as a rule.
  else if (/[\t\n\v\f\r\b\u0085\u2028\u2029]/.test(text))
    page.drawText(text, { x, y: baselineY + rise, size, font, color: color(style.color) });
  else if (text.trim()) drawPlainText(page, text, font, size, x, baselineY + rise, color(style.color), style.spacing);
  const thickness = Math.max(0.5, size / 18);
  if (style.underline) {
    const under = style.underline;
    const fill = color(under.color ?? style.color);
    const line = { y: baselineY - size * 0.12, thickness: under.heavy ? thickness * 2 : thickness, color: fill };
    for (const [from, to] of under.wordsOnly ? wordSpans(text, font, style, x) : [[x, x + width]])
      drawUnderline(page, under.line, from, to, line);
  }
  if (style.strike)
    page.drawLine({
      start: { x, y: baselineY + size * 0.28 },
      end: { x: x + width, y: baselineY + size * 0.28 },
      thickness,
      color: color(style.color),
    });
  if (style.link && text.trim())
    addLink(page, style.link, x, baselineY - size * 0.25, x + width, baselineY + size * 0.9, ctx);
}

/**
 * A clickable area over [x1, x2] × [y1, y2]: opening `url` (a Link annotation with a URI action), or
 * for "#name" going to where that anchor landed in the document (a destination on its page).
 */
export function addLink(
  page: PDFPage,
  url: string,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  ctx?: DrawContext,
): void {
  const target = url.startsWith('#') ? ctx?.anchor?.(url.slice(1)) : undefined;
  const context = page.doc.context;
  // Web, mail and phone links only, written escaped (pdf-links.ts); anything else gets no link.
  const action = target ? undefined : uriAction(context, url);
  if (!target && !action) return;
  const down = ctx?.movedDown ?? 0;
  const annotation = context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: [x1, y1 - down, x2, y2 - down],
      Border: [0, 0, 0],
      ...(target ? { Dest: [target.page.ref, 'XYZ', null, target.top, null] } : { A: action }),
    }),
  );
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (annots) annots.push(annotation);
  else page.node.set(PDFName.of('Annots'), context.obj([annotation]));
}

/**
 * Draws a line's atoms. Neighbouring words in the same font and look are drawn as one string (one
 * text operator instead of one per word: smaller files, faster saving); on a justified line the
 * stretched spaces split them.
 */
function drawAtoms(
  page: PDFPage,
  atoms: Atom[],
  x: number,
  baselineY: number,
  spaceStretch: number,
  ctx: DrawContext,
): void {
  let cursor = x;
  let run: { text: string; font: PDFFont; style: RunStyle; x: number; width: number } | undefined;
  const flush = () => {
    if (run) drawRun(page, run.text, run.font, run.style, run.x, run.width, baselineY, ctx);
    run = undefined;
  };
  for (const atom of atoms) {
    if (atom.kind === 'text') {
      if (atom.space && spaceStretch > 0) {
        flush();
        const width = atom.width + spaceStretch;
        if (atom.style.underline || atom.style.highlight)
          drawRun(page, '', atom.font, atom.style, cursor, width, baselineY);
        cursor += width;
        continue;
      }
      const level = atom.level ?? 0;
      if (drawnAlone(atom.text, level)) {
        // fontkit reverses a whole string of Arabic or Hebrew: each such word is its own string.
        flush();
        // (Readers reverse right-to-left text: a joined part's ActualText is its letters reversed, without joiners.)
        const actual =
          hasMirrored(atom.text, level) && !fontkitReverses(atom.text)
            ? atom.text
            : atom.shaped
              ? [...atom.text].reverse().join('')
              : undefined;
        const drawn = visualText(atom.shaped ?? atom.text, level);
        drawRun(page, drawn, atom.font, atom.style, cursor, atom.width, baselineY, ctx, actual);
      } else if (run && run.font === atom.font && sameLook(run.style, atom.style)) {
        run.text += atom.text;
        run.width += atom.width;
      } else {
        flush();
        run = { text: atom.text, font: atom.font, style: atom.style, x: cursor, width: atom.width };
      }
      cursor += atom.width;
      continue;
    }
    flush();
    if (atom.kind === 'image') {
      drawPicture(page, atom.image, { x: cursor, y: baselineY, width: atom.width, height: atom.height }, atom.crop);
      cursor += atom.width;
    } else if (atom.kind === 'drawing') {
      atom.draw(page, cursor, baselineY);
      cursor += atom.width;
    } else if (atom.kind === 'tab' && atom.leader) {
      // Leader characters across the tab's gap (a table of contents' dots), on a grid so rows line up.
      const size = sizeOf(atom.style);
      const step = widthOf(atom.font, atom.leader, size) * (atom.leader === '.' ? 1.5 : 1);
      const first = Math.ceil((cursor + size * 0.2) / step) * step;
      const count = Math.max(0, Math.floor((cursor + atom.width - size * 0.2 - first) / step));
      for (let i = 0; i < count; i++)
        drawRun(
          page,
          atom.leader,
          atom.font,
          { ...atom.style, underline: undefined },
          first + i * step,
          step,
          baselineY,
        );
      cursor += atom.width;
    } else if (atom.kind === 'field') {
      const text =
        atom.field === 'PAGE'
          ? listNumber(ctx.pageNumber, atom.format ?? ctx.pageStyle ?? 'decimal')
          : listNumber(ctx.pageCount, atom.format ?? 'decimal');
      const width = runWidth(atom.font, text, atom.style);
      drawRun(page, text, atom.font, atom.style, cursor, width, baselineY, ctx);
      cursor += width;
    } else cursor += atom.width;
  }
  flush();
}

/** Draws one line of a laid-out paragraph whose box starts at `left`; `top` is the line's top (PDF y). */
export function drawLine(
  page: PDFPage,
  laid: LaidParagraph,
  lineIndex: number,
  left: number,
  top: number,
  ctx: DrawContext,
): void {
  const line = laid.lines[lineIndex];
  const baselineY = top - line.baseline;
  if (lineIndex === 0 && laid.marker) drawAtoms(page, laid.marker.atoms, left + laid.marker.x, baselineY, 0, ctx);
  drawAtoms(page, line.atoms, left + line.x, baselineY, line.spaceStretch, ctx);
}
