/**
 * WordprocessingML formatting: the style table (word/styles.xml) with its inheritance chains, and
 * run and paragraph properties read in layers (document defaults → style chain → direct formatting).
 */
import {
  underlineOfKind,
  type Border,
  type Paragraph,
  type Rgb,
  type RunStyle,
  type TabStop,
  type Underline,
} from '../model.ts';
import { attr, hexColor, kid, kids, measure, num, parseXml, type XmlElement } from '../xml.ts';

export const TWIP = 1 / 20;
export const EMU = 1 / 12700;

export interface RunProps {
  font?: string;
  size?: number;
  bold?: boolean;
  italic?: boolean;
  underline?: Underline;
  strike?: boolean;
  color?: Rgb;
  highlight?: Rgb;
  baseline?: 'super' | 'sub';
  raise?: number;
  spacing?: number;
  caps?: boolean;
  smallCaps?: boolean;
  hidden?: boolean;
  /**
   * Complex-script formatting (w:szCs, w:bCs, w:iCs): what Word uses for Arabic and Hebrew characters,
   * and for the whole of a run marked w:rtl. (w:rFonts w:cs is not read: those letters are drawn with
   * Noto Sans Arabic or Hebrew whatever the font.)
   */
  complex?: { size?: number; bold?: boolean; italic?: boolean };
  rtl?: boolean;
}

export interface ParaProps {
  align?: Paragraph['align'];
  spaceBefore?: number;
  spaceAfter?: number;
  line?: number;
  lineRule?: 'auto' | 'exact' | 'atLeast';
  indLeft?: number;
  indRight?: number;
  firstLine?: number;
  numId?: string;
  ilvl?: number;
  pageBreakBefore?: boolean;
  keepNext?: boolean;
  keepLines?: boolean;
  widowControl?: boolean;
  suppressLineNumbers?: boolean;
  /** w:contextualSpacing: no space before or after next to a paragraph of the same style (ParagraphSpacing). */
  contextualSpacing?: boolean;
  borders?: Paragraph['borders'];
  shading?: Rgb;
  outlineLevel?: number;
  tabStops?: TabStop[];
  /** w:bidi: a right-to-left paragraph (its w:jc and w:ind "left" then mean its start, on the right). */
  bidi?: boolean;
}

export interface Style {
  basedOn?: string;
  pPr?: XmlElement;
  rPr?: XmlElement;
  tblPr?: XmlElement;
  /** A table style's cell properties (shading, borders) for every cell. */
  tcPr?: XmlElement;
  /** A table style's conditional formats (w:tblStylePr) by type: firstRow, band1Horz, nwCell… */
  conditional?: Map<string, XmlElement>;
}

/** The theme's Latin fonts, which w:asciiTheme / w:hAnsiTheme name. */
export interface ThemeFonts {
  minor: string;
  major: string;
}

/** The style table of a document and the properties every paragraph and run starts from. */
export interface DocxStyles {
  byId: Map<string, Style>;
  themeFonts: ThemeFonts;
  defaultParagraphStyle?: string;
  defaultTableStyle?: string;
  /** Run properties before any style: the document defaults over Word's own (Times New Roman, 10 pt). */
  baseRun: RunProps;
  /** Paragraph properties before any style: the document defaults. */
  basePara: ParaProps;
}

const HIGHLIGHTS: Record<string, string> = {
  yellow: 'FFFF00',
  green: '00FF00',
  cyan: '00FFFF',
  magenta: 'FF00FF',
  blue: '0000FF',
  red: 'FF0000',
  darkBlue: '000080',
  darkCyan: '008080',
  darkGreen: '008000',
  darkMagenta: '800080',
  darkRed: '800000',
  darkYellow: '808000',
  darkGray: '808080',
  lightGray: 'C0C0C0',
  black: '000000',
};

export function onOff(element: XmlElement | undefined): boolean | undefined {
  if (!element) return undefined;
  const value = attr(element, 'w:val');
  return value === undefined || !['0', 'false', 'off', 'none'].includes(value);
}

/**
 * A border side (w:pBdr/w:top, w:tcBorders/w:left…): w:sz in eighths of a point, w:color hex or auto;
 * with `scaleDouble` (paragraph borders) a double line takes 2.5 times the width of a single one.
 */
export function borderOf(element: XmlElement | undefined, scaleDouble = false): Border | undefined {
  const value = attr(element, 'w:val');
  if (!element || !value || value === 'none' || value === 'nil') return undefined;
  const width = Math.max(0.25, (num(element, 'w:sz') ?? 4) / 8) * (scaleDouble && value === 'double' ? 2.5 : 1);
  return { width, color: hexColor(attr(element, 'w:color')) ?? [0, 0, 0] };
}

/** Reads word/styles.xml (absent: no styles, Word's defaults). */
export function readStyles(stylesXml: string | undefined, themeFonts: ThemeFonts): DocxStyles {
  const byId = new Map<string, Style>();
  let defaultParagraphStyle: string | undefined;
  let defaultTableStyle: string | undefined;
  let defaultRPr: XmlElement | undefined;
  let defaultPPr: XmlElement | undefined;
  if (stylesXml) {
    const root = parseXml(stylesXml);
    const docDefaults = kid(root, 'w:docDefaults');
    defaultRPr = kid(kid(docDefaults, 'w:rPrDefault'), 'w:rPr');
    defaultPPr = kid(kid(docDefaults, 'w:pPrDefault'), 'w:pPr');
    for (const style of kids(root, 'w:style')) {
      // A style without an id (Reporting Services writes "EmptyCellLayoutStyle" so) is found by its name.
      const id = attr(style, 'w:styleId') ?? attr(kid(style, 'w:name'), 'w:val');
      if (!id) continue;
      const conditional = new Map(kids(style, 'w:tblStylePr').map((el) => [attr(el, 'w:type') ?? '', el] as const));
      byId.set(id, {
        basedOn: attr(kid(style, 'w:basedOn'), 'w:val'),
        pPr: kid(style, 'w:pPr'),
        rPr: kid(style, 'w:rPr'),
        tblPr: kid(style, 'w:tblPr'),
        tcPr: kid(style, 'w:tcPr'),
        conditional,
      });
      if (attr(style, 'w:default') === '1' && attr(style, 'w:type') === 'paragraph') defaultParagraphStyle = id;
      if (attr(style, 'w:default') === '1' && attr(style, 'w:type') === 'table') defaultTableStyle = id;
    }
  }
  // Word's own defaults when the document names no font or size: Times New Roman, 10 pt.
  const baseRun = readRunProps(defaultRPr, { size: 10, font: 'Times New Roman' }, themeFonts);
  const basePara = readParaProps(defaultPPr, {});
  return { byId, themeFonts, defaultParagraphStyle, defaultTableStyle, baseRun, basePara };
}

/** A style and the styles it is based on, the root first. */
export function styleChain(styles: DocxStyles, id: string | undefined): Style[] {
  const chain: Style[] = [];
  const seen = new Set<string>();
  while (id && styles.byId.has(id) && !seen.has(id)) {
    seen.add(id);
    const style = styles.byId.get(id)!;
    chain.unshift(style);
    id = style.basedOn;
  }
  return chain;
}

/** Applies a w:rPr over `into` (which it returns). */
export function readRunProps(rPr: XmlElement | undefined, into: RunProps, themeFonts: ThemeFonts): RunProps {
  if (!rPr) return into;
  const fonts = kid(rPr, 'w:rFonts');
  if (fonts) {
    const theme = attr(fonts, 'w:asciiTheme') ?? attr(fonts, 'w:hAnsiTheme');
    const themeFont = theme ? (theme.startsWith('major') ? themeFonts.major : themeFonts.minor) : undefined;
    const font = attr(fonts, 'w:ascii') ?? attr(fonts, 'w:hAnsi') ?? themeFont;
    if (font) into.font = font;
  }
  const size = num(kid(rPr, 'w:sz'), 'w:val');
  if (size !== undefined) into.size = size / 2;
  readComplexScriptProps(rPr, into);
  const flags: Array<[keyof RunProps, string]> = [
    ['bold', 'w:b'],
    ['italic', 'w:i'],
    ['strike', 'w:strike'],
    ['caps', 'w:caps'],
    ['smallCaps', 'w:smallCaps'],
    ['hidden', 'w:vanish'],
  ];
  for (const [key, tag] of flags) {
    const value = onOff(kid(rPr, tag));
    if (value !== undefined) (into as Record<string, unknown>)[key] = value;
  }
  // Double strikethrough is drawn as one line (it was not drawn at all).
  if (onOff(kid(rPr, 'w:dstrike'))) into.strike = true;
  const underline = kid(rPr, 'w:u');
  if (underline) {
    // (A w:u without a kind is a single line, as Word reads it.)
    const kind = underlineOfKind(attr(underline, 'w:val') ?? 'single');
    const color = hexColor(attr(underline, 'w:color'));
    into.underline = kind && color ? { ...kind, color } : kind;
  }
  const color = hexColor(attr(kid(rPr, 'w:color'), 'w:val'));
  if (color) into.color = color;
  const highlight = attr(kid(rPr, 'w:highlight'), 'w:val');
  if (highlight) into.highlight = highlight === 'none' ? undefined : hexColor(HIGHLIGHTS[highlight]);
  const shade = hexColor(attr(kid(rPr, 'w:shd'), 'w:fill'));
  if (shade && !into.highlight) into.highlight = shade;
  // Font › Advanced › Position: raised or lowered by so many half-points.
  const position = measure(kid(rPr, 'w:position'), 'w:val', 0.5);
  if (position !== undefined) into.raise = position;
  // Font › Advanced › Spacing: expanded or condensed by so many twentieths of a point.
  const spacing = measure(kid(rPr, 'w:spacing'), 'w:val', 0.05);
  if (spacing !== undefined) into.spacing = spacing;
  const vertAlign = attr(kid(rPr, 'w:vertAlign'), 'w:val');
  if (vertAlign) into.baseline = vertAlign === 'superscript' ? 'super' : vertAlign === 'subscript' ? 'sub' : undefined;
  return into;
}

function readComplexScriptProps(rPr: XmlElement, into: RunProps): void {
  const complex = { ...into.complex };
  const size = num(kid(rPr, 'w:szCs'), 'w:val');
  if (size !== undefined) complex.size = size / 2;
  const bold = onOff(kid(rPr, 'w:bCs'));
  if (bold !== undefined) complex.bold = bold;
  const italic = onOff(kid(rPr, 'w:iCs'));
  if (italic !== undefined) complex.italic = italic;
  if (Object.keys(complex).length) into.complex = complex;
  const rtl = onOff(kid(rPr, 'w:rtl'));
  if (rtl !== undefined) into.rtl = rtl;
}

/**
 * A run's text cut into pieces with their look: Arabic and Hebrew characters (all of a w:rtl run) take
 * the complex-script size, weight and slant, falling back to the run's own when none is set.
 */
export function complexScriptPieces(text: string, props: RunProps, style: RunStyle): Array<[string, RunStyle]> {
  const complex = props.complex;
  if (!complex || (!props.rtl && !COMPLEX_CHAR.test(text))) return [[text, style]];
  const complexStyle: RunStyle = {
    ...style,
    size: complex.size ?? style.size,
    bold: complex.bold ?? style.bold,
    italic: complex.italic ?? style.italic,
  };
  if (props.rtl) return [[text, complexStyle]];
  return (
    text.match(/[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]+|[^\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]+/gu) ?? []
  ).map((piece): [string, RunStyle] => [piece, COMPLEX_CHAR.test(piece) ? complexStyle : style]);
}
const COMPLEX_CHAR = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;

/** Tab stops add to (or, with "clear", remove from) the inherited ones. */
function readTabStops(tabs: XmlElement[], inherited: TabStop[] | undefined): TabStop[] {
  const stops = new Map((inherited ?? []).map((stop) => [Math.round(stop.position * 20), stop]));
  const leaders: Record<string, TabStop['leader']> = {
    dot: '.',
    hyphen: '-',
    underscore: '_',
    heavy: '_',
    middleDot: '·',
  };
  for (const tab of tabs) {
    const value = attr(tab, 'w:val') ?? 'left';
    const position = num(tab, 'w:pos') ?? 0;
    if (value === 'clear') stops.delete(position);
    else if (value !== 'bar') {
      const leader = leaders[attr(tab, 'w:leader') ?? ''];
      const align =
        value === 'right' || value === 'end'
          ? 'right'
          : value === 'center'
            ? 'center'
            : value === 'decimal'
              ? 'decimal'
              : 'left';
      stops.set(position, { position: position * TWIP, align, leader });
    }
  }
  return [...stops.values()].sort((a, b) => a.position - b.position);
}

/** w:spacing and w:ind of a w:pPr over `into`. */
function readSpacingAndIndents(pPr: XmlElement, into: ParaProps): void {
  const spacing = kid(pPr, 'w:spacing');
  if (spacing) {
    const before = num(spacing, 'w:before');
    const after = num(spacing, 'w:after');
    const line = num(spacing, 'w:line');
    if (before !== undefined && attr(spacing, 'w:beforeAutospacing') !== '1') into.spaceBefore = before * TWIP;
    if (after !== undefined && attr(spacing, 'w:afterAutospacing') !== '1') into.spaceAfter = after * TWIP;
    if (line !== undefined) {
      into.line = line;
      into.lineRule = (attr(spacing, 'w:lineRule') as ParaProps['lineRule']) ?? 'auto';
    }
  }
  const ind = kid(pPr, 'w:ind');
  if (ind) {
    const left = num(ind, 'w:left') ?? num(ind, 'w:start');
    const right = num(ind, 'w:right') ?? num(ind, 'w:end');
    const first = num(ind, 'w:firstLine');
    const hanging = num(ind, 'w:hanging');
    if (left !== undefined) into.indLeft = left * TWIP;
    if (right !== undefined) into.indRight = right * TWIP;
    if (first !== undefined) into.firstLine = first * TWIP;
    if (hanging !== undefined) into.firstLine = -hanging * TWIP;
  }
}

/** Applies a w:pPr over `into` (which it returns). */
export function readParaProps(pPr: XmlElement | undefined, into: ParaProps): ParaProps {
  if (!pPr) return into;
  const tabs = kids(kid(pPr, 'w:tabs'), 'w:tab');
  if (tabs.length) into.tabStops = readTabStops(tabs, into.tabStops);
  const jc = attr(kid(pPr, 'w:jc'), 'w:val');
  if (jc) {
    into.align =
      jc === 'center'
        ? 'center'
        : jc === 'right' || jc === 'end'
          ? 'right'
          : jc === 'both' || jc === 'distribute'
            ? 'justify'
            : 'left';
  }
  readSpacingAndIndents(pPr, into);
  const numPr = kid(pPr, 'w:numPr');
  if (numPr) {
    const numId = attr(kid(numPr, 'w:numId'), 'w:val');
    if (numId !== undefined) into.numId = numId;
    const ilvl = num(kid(numPr, 'w:ilvl'), 'w:val');
    if (ilvl !== undefined) into.ilvl = ilvl;
  }
  const bidi = onOff(kid(pPr, 'w:bidi'));
  if (bidi !== undefined) into.bidi = bidi;
  const pbb = onOff(kid(pPr, 'w:pageBreakBefore'));
  if (pbb !== undefined) into.pageBreakBefore = pbb;
  for (const name of ['keepNext', 'keepLines', 'widowControl', 'suppressLineNumbers', 'contextualSpacing'] as const) {
    const value = onOff(kid(pPr, `w:${name}`));
    if (value !== undefined) into[name] = value;
  }
  const shading = hexColor(attr(kid(pPr, 'w:shd'), 'w:fill'));
  if (shading) into.shading = shading;
  const pBdr = kid(pPr, 'w:pBdr');
  if (pBdr) {
    const side = (name: string) => borderOf(kid(pBdr, `w:${name}`), true);
    const space = (name: string) => num(kid(pBdr, `w:${name}`), 'w:space') ?? 0; // in points
    into.borders = {
      top: side('top'),
      bottom: side('bottom'),
      left: side('left') ?? side('start'),
      right: side('right') ?? side('end'),
      space: {
        top: space('top'),
        bottom: space('bottom'),
        left: space('left') || space('start'),
        right: space('right') || space('end'),
      },
    };
  }
  const outline = num(kid(pPr, 'w:outlineLvl'), 'w:val');
  if (outline !== undefined) into.outlineLevel = outline;
  return into;
}

/** The run properties of a character style and the styles it is based on, over `into`. */
export function styleRunProps(styles: DocxStyles, styleId: string | undefined, into: RunProps): RunProps {
  for (const style of styleChain(styles, styleId)) readRunProps(style.rPr, into, styles.themeFonts);
  return into;
}

/** Resolved run properties as the layout model's style (11 pt when no layer gave a size). */
export function toStyle(props: RunProps): RunStyle {
  return {
    font: props.font,
    size: props.size ?? 11,
    bold: props.bold,
    italic: props.italic,
    underline: props.underline,
    strike: props.strike,
    color: props.color,
    highlight: props.highlight,
    baseline: props.baseline,
    raise: props.raise || undefined,
    spacing: props.spacing || undefined,
  };
}
