/**
 * DrawingML shapes drawn with pdf-lib — one routine for every Office reader: PowerPoint's slide
 * shapes (p:sp, with placeholders resolved by pptx.ts through a hook), SmartArt's pre-rendered
 * drawing (dsp:sp, in .pptx and .docx) and shapes and text boxes on Excel sheets (xdr:sp). Element
 * names are matched by local name, so p:, xdr: and dsp: trees are read alike; DrawingML proper is a:.
 *
 * Shapes are prepared (text laid out, fonts loaded) before they are painted, so the flowing layout
 * can place them later: a prepared shape is a Painter, drawn with its coordinate origin — the top-left
 * corner of the drawing space, y downwards, in points — at (left, top) on a page.
 */
import {
  LineCapStyle,
  clip,
  concatTransformationMatrix,
  endPath,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  type PDFImage,
  type PDFPage,
} from 'pdf-lib';
import type { Block, Crop, Inline, Paragraph, Rgb, RunStyle } from './model.ts';
import { paragraph as makeParagraph, smallCapitals, underlineOfKind } from './model.ts';
import { attr, find, hexColor, kid, kids, num, type XmlElement } from './xml.ts';
import { drawLine, layoutParagraph, type DrawContext, type TextContext } from './text.ts';
import { pathEnds, pathOperators, shapeGeometry, svgPath, type Command, type Point } from './geometry.ts';
import { shapeTextBox } from './text-rect.ts';
import { fillPathWithGradient, meanColor, type Gradient } from './gradient.ts';
import { symbolFontChar, symbolFontOf } from './symbol-fonts.ts';
import { listNumber, type NumberStyle } from './list-numbers.ts';

export const EMU = 1 / 12700;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A bullet character as Unicode: the character itself in an ordinary font; in a symbol font
 * (Wingdings, Webdings, Symbol: its code, or that code in the private-use area F0xx) the glyph that
 * code draws there, else a bullet — a letter such as Wingdings' "l" must not print as an "l".
 */
function symbolFontBullet(char: string, font: string | undefined): string {
  const family = symbolFontOf(font);
  if (!family) return char;
  return symbolFontChar(char, family) ?? '•';
}

/** A paragraph level's bullet character, or its automatic number (a:buAutoNum). */
interface LevelMarker {
  bullet?: string;
  autoNumber?: XmlElement;
}

/** The marker a level's properties set (a:buNone, a:buChar, a:buAutoNum), else the inherited one. */
function markerOf(props: XmlElement, inherited: LevelMarker): LevelMarker {
  if (kid(props, 'a:buNone')) return {};
  const buChar = attr(kid(props, 'a:buChar'), 'char');
  if (buChar) return { bullet: symbolFontBullet(buChar, attr(kid(props, 'a:buFont'), 'typeface')) };
  const autoNumber = kid(props, 'a:buAutoNum');
  return autoNumber ? { autoNumber } : inherited;
}

/** The schemes of a:buAutoNum: the number's style and what surrounds it. */
const AUTO_NUMBER_STYLES: Array<[RegExp, NumberStyle]> = [
  [/^alphaLc/, 'lowerLetter'],
  [/^alphaUc/, 'upperLetter'],
  [/^romanLc/, 'lowerRoman'],
  [/^romanUc/, 'upperRoman'],
];

/**
 * PowerPoint's automatic numbers (a:buAutoNum) in one text body: each level counts its numbered
 * paragraphs from startAt; a paragraph at an outer level restarts the inner ones, and one at the same
 * level without a number (or with another scheme) ends the count.
 */
class AutoNumbering {
  private counts = new Map<number, { scheme: string; n: number }>();

  /** The marker of paragraph `p` at `level` ("3.", "b)"…), or undefined when it has no number. */
  next(p: XmlElement, level: number, autoNumber: XmlElement | undefined): string | undefined {
    // (A paragraph without text has no marker and does not count.)
    if (!kids(p).some((child) => ['a:r', 'a:fld'].includes(child.nodeName) && child.textContent)) return undefined;
    for (const deeper of this.counts.keys()) if (deeper > level) this.counts.delete(deeper);
    if (!autoNumber) {
      this.counts.delete(level);
      return undefined;
    }
    const scheme = attr(autoNumber, 'type') ?? 'arabicPeriod';
    const previous = this.counts.get(level);
    const n = previous?.scheme === scheme ? previous.n + 1 : (num(autoNumber, 'startAt') ?? 1);
    this.counts.set(level, { scheme, n });
    const style = AUTO_NUMBER_STYLES.find(([pattern]) => pattern.test(scheme))?.[1] ?? 'decimal';
    const text = listNumber(n, style);
    if (/ParenBoth$/.test(scheme)) return `(${text})`;
    if (/ParenR$/.test(scheme)) return `${text})`;
    if (/Plain$/.test(scheme)) return text;
    if (/Minus$/.test(scheme)) return `- ${text} -`;
    return `${text}.`;
  }
}

/** Maps a shape's box (points, from its a:xfrm) to where it is drawn. */
export type Transform = (box: Box) => Box;
export const identity: Transform = (box) => box;

/** Draws prepared shapes with the drawing space's top-left corner at (left, top) (PDF coordinates). */
export type Painter = (page: PDFPage, left: number, top: number, ctx: DrawContext) => void;

/** First child element with this local name (p:spPr, xdr:spPr and dsp:spPr alike). */
export function part(element: XmlElement | undefined, localName: string): XmlElement | undefined {
  return kids(element).find((child) => (child.localName ?? child.nodeName.replace(/^.*:/, '')) === localName);
}

export function localName(element: XmlElement): string {
  return element.localName ?? element.nodeName.replace(/^.*:/, '');
}

// ---- Colours ------------------------------------------------------------------------------------

const clamp = (v: number) => Math.min(1, Math.max(0, v));
const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toSrgb = (c: number) => clamp(c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055);

export function toHsl([r, g, b]: Rgb): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? ((g - b) / d + (g < b ? 6 : 0)) / 6 : max === g ? ((b - r) / d + 2) / 6 : ((r - g) / d + 4) / 6;
  return [h, s, l];
}

export function fromHsl([h, s, l]: [number, number, number]): Rgb {
  if (s === 0) return [l, l, l];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    return u < 1 / 6 ? p + (q - p) * 6 * u : u < 1 / 2 ? q : u < 2 / 3 ? p + (q - p) * (2 / 3 - u) * 6 : p;
  };
  return [channel(h + 1 / 3), channel(h), channel(h - 1 / 3)];
}

/**
 * DrawingML colour modifiers as Office applies them: lumMod/lumOff on the HSL luminance, tint and
 * shade in linear RGB (so "black, 20 % tint" is the light grey PowerPoint shows, not a mid grey).
 */
export function applyModifiers(color: Rgb, element: XmlElement): Rgb {
  let [r, g, b] = color;
  for (const mod of kids(element)) {
    const value = (num(mod, 'val') ?? 100000) / 100000;
    if (mod.nodeName === 'a:lumMod' || mod.nodeName === 'a:lumOff') {
      const [h, s, l] = toHsl([r, g, b]);
      [r, g, b] = fromHsl([h, s, clamp(mod.nodeName === 'a:lumMod' ? l * value : l + value)]);
    } else if (mod.nodeName === 'a:tint') {
      [r, g, b] = [r, g, b].map((c) => toSrgb(1 - (1 - toLinear(c)) * value)) as Rgb;
    } else if (mod.nodeName === 'a:shade') {
      [r, g, b] = [r, g, b].map((c) => toSrgb(toLinear(c) * value)) as Rgb;
    } else if (mod.nodeName === 'a:satMod') {
      const [h, s, l] = toHsl([r, g, b]);
      [r, g, b] = fromHsl([h, clamp(s * value), l]);
    }
  }
  return [clamp(r), clamp(g), clamp(b)];
}

export interface DrawingTheme {
  /** Scheme colours by name (dk1, lt1, accent1…). */
  colors: Record<string, Rgb>;
  majorFont: string;
  minorFont: string;
  /**
   * The format scheme's style matrix (a:fmtScheme): fills, background fills and lines that a:fillRef / a:lnRef pick by
   * index.
   */
  fillStyles: XmlElement[];
  bgFillStyles: XmlElement[];
  lineStyles: XmlElement[];
  /** The format scheme's effect styles (a:effectStyle), which a:effectRef picks by index. */
  effectStyles: XmlElement[];
}

/** A theme part's colour scheme and major / minor Latin fonts. */
export function readDrawingTheme(root: XmlElement | undefined): DrawingTheme {
  const theme: DrawingTheme = {
    colors: {},
    majorFont: 'Calibri',
    minorFont: 'Calibri',
    fillStyles: [],
    bgFillStyles: [],
    lineStyles: [],
    effectStyles: [],
  };
  for (const entry of kids(find(root, 'a:clrScheme'))) {
    const color = hexColor(attr(kid(entry, 'a:srgbClr'), 'val') ?? attr(kid(entry, 'a:sysClr'), 'lastClr'));
    if (color) theme.colors[entry.nodeName.replace('a:', '')] = color;
  }
  theme.majorFont = attr(find(find(root, 'a:majorFont'), 'a:latin'), 'typeface') ?? theme.majorFont;
  theme.minorFont = attr(find(find(root, 'a:minorFont'), 'a:latin'), 'typeface') ?? theme.minorFont;
  const fmtScheme = find(root, 'a:fmtScheme');
  theme.fillStyles = kids(kid(fmtScheme, 'a:fillStyleLst'));
  theme.bgFillStyles = kids(kid(fmtScheme, 'a:bgFillStyleLst'));
  theme.lineStyles = kids(kid(fmtScheme, 'a:lnStyleLst'), 'a:ln');
  theme.effectStyles = kids(kid(fmtScheme, 'a:effectStyleLst'), 'a:effectStyle');
  return theme;
}

/**
 * The colour of an element holding a:srgbClr / a:schemeClr / a:scrgbClr / a:sysClr / a:prstClr,
 * with its modifiers; scheme names go through the colour map (bg1 → lt1, tx1 → dk1 unless mapped).
 * `phClr` is the colour a theme style (a:fillRef, a:lnRef) is used with.
 */
export type ColorOf = (fillParent: XmlElement | undefined, phClr?: Rgb) => Rgb | undefined;
export function colorResolver(theme: DrawingTheme, clrMap?: XmlElement): ColorOf {
  const defaults: Record<string, string> = { bg1: 'lt1', tx1: 'dk1', bg2: 'lt2', tx2: 'dk2' };
  const mapped = (name: string) => attr(clrMap, name) ?? defaults[name] ?? name;
  return (fillParent, phClr) => {
    if (!fillParent) return undefined;
    const srgb = kid(fillParent, 'a:srgbClr');
    if (srgb) return applyModifiers(hexColor(attr(srgb, 'val')) ?? [0, 0, 0], srgb);
    const scheme = kid(fillParent, 'a:schemeClr');
    if (scheme) {
      const name = mapped(attr(scheme, 'val') ?? '');
      const base =
        (name === 'phClr' ? phClr : undefined) ??
        theme.colors[name] ??
        ({ dk1: [0, 0, 0], lt1: [1, 1, 1] } as Record<string, Rgb>)[name];
      return base ? applyModifiers(base, scheme) : undefined;
    }
    const scrgb = kid(fillParent, 'a:scrgbClr');
    if (scrgb)
      return applyModifiers(
        [(num(scrgb, 'r') ?? 0) / 100000, (num(scrgb, 'g') ?? 0) / 100000, (num(scrgb, 'b') ?? 0) / 100000],
        scrgb,
      );
    const sys = kid(fillParent, 'a:sysClr');
    if (sys) return hexColor(attr(sys, 'lastClr'));
    const preset = kid(fillParent, 'a:prstClr');
    if (preset)
      return ({ black: [0, 0, 0], white: [1, 1, 1], red: [1, 0, 0] } as Record<string, Rgb>)[attr(preset, 'val') ?? ''];
    return undefined;
  };
}

/** What fills an area: one colour or a gradient. */
export type Paint = { kind: 'solid'; color: Rgb; alpha?: number } | Gradient;

/** The opacity of a fill element's colour (its a:alpha), when it is not opaque. */
function alphaOf(fill: XmlElement): number | undefined {
  const colour = kids(fill).find((child) => localName(child).endsWith('Clr'));
  const alpha = num(kid(colour, 'a:alpha'), 'val');
  return alpha !== undefined && alpha < 100000 ? Math.max(0, alpha / 100000) : undefined;
}

/**
 * One fill element (a:solidFill, a:gradFill, a:noFill…) as a paint; 'none' for no fill, undefined when not understood.
 */
function paintOf(fill: XmlElement | undefined, color: ColorOf, phClr?: Rgb): Paint | 'none' | undefined {
  if (!fill) return undefined;
  const name = localName(fill);
  if (name === 'noFill') return 'none';
  if (name === 'solidFill') {
    const c = color(fill, phClr);
    return c && { kind: 'solid', color: c, alpha: alphaOf(fill) };
  }
  if (name === 'gradFill') {
    const stops = kids(kid(fill, 'a:gsLst'), 'a:gs')
      .map((gs) => ({ pos: (num(gs, 'pos') ?? 0) / 100000, color: color(gs, phClr) }))
      .filter((s): s is { pos: number; color: Rgb } => Boolean(s.color));
    if (!stops.length) return undefined;
    if (stops.length === 1) return { kind: 'solid', color: stops[0].color };
    const lin = kid(fill, 'a:lin');
    const path = kid(fill, 'a:path');
    const rect = kid(path, 'a:fillToRect');
    const f = (side: string) => (num(rect, side) ?? 0) / 100000;
    return {
      kind: 'gradient',
      stops,
      linear: path
        ? undefined
        : {
            angle: (num(lin, 'ang') ?? 0) / 60000,
            scaled: attr(lin, 'scaled') === '1' || attr(lin, 'scaled') === 'true',
          },
      path: path
        ? { kind: attr(path, 'path') ?? 'circle', focus: { l: f('l'), t: f('t'), r: f('r'), b: f('b') } }
        : undefined,
      rotWithShape: attr(fill, 'rotWithShape') !== '0',
    };
  }
  // A pattern: its background with a third of its foreground (thin hatching seen from afar).
  if (name === 'pattFill') {
    const fg = color(kid(fill, 'a:fgClr'), phClr) ?? [0, 0, 0];
    const bg = color(kid(fill, 'a:bgClr'), phClr) ?? [1, 1, 1];
    return { kind: 'solid', color: bg.map((c, i) => c + (fg[i] - c) / 3) as Rgb };
  }
  return undefined;
}

const FILL_NAMES = new Set(['noFill', 'solidFill', 'gradFill', 'pattFill', 'blipFill', 'grpFill']);

/** The fill of spPr (or a:ln): 'none', a paint, or undefined when it says nothing (the style decides). */
function fillOf(spPr: XmlElement | undefined, color: ColorOf): Paint | 'none' | undefined {
  return paintOf(
    kids(spPr).find((child) => FILL_NAMES.has(localName(child))),
    color,
  );
}

/**
 * A theme style's fill (a:fillRef idx: 1… from the fill styles, 1001… from the background fills) in the ref's colour.
 */
function styleFill(ref: XmlElement | undefined, env: Pick<ShapeEnv, 'color' | 'theme'>): Paint | 'none' | undefined {
  const idx = num(ref, 'idx') ?? 0;
  if (!ref || idx === 0) return undefined;
  const phClr = env.color(ref);
  const style = idx >= 1001 ? env.theme.bgFillStyles[idx - 1001] : env.theme.fillStyles[idx - 1];
  return (style ? paintOf(style, env.color, phClr) : undefined) ?? (phClr && { kind: 'solid', color: phClr });
}

/**
 * An outer shadow: the shape's silhouette offset by (dx, dy) points (y down), in a translucent colour, blurred by
 * `blur` points.
 */
interface Shadow {
  dx: number;
  dy: number;
  blur: number;
  color: Rgb;
  alpha: number;
}

/**
 * The shape's outer shadow (a:outerShdw): its own a:effectLst, else the theme's effect style that
 * p:style's a:effectRef picks (Office 2007–2010 themes give shapes a soft drop shadow that way).
 */
function shadowOf(
  spPr: XmlElement | undefined,
  styleEl: XmlElement | undefined,
  env: Pick<ShapeEnv, 'color' | 'theme'>,
): Shadow | undefined {
  const own = kid(spPr, 'a:effectLst');
  const ref = kid(styleEl, 'a:effectRef');
  const idx = num(ref, 'idx') ?? 0;
  const effects = own ?? (idx > 0 ? kid(env.theme.effectStyles[idx - 1], 'a:effectLst') : undefined);
  const shadow = kid(effects, 'a:outerShdw');
  if (!shadow) return undefined;
  const color = env.color(shadow, own ? undefined : env.color(ref));
  if (!color) return undefined;
  const dist = (num(shadow, 'dist') ?? 0) * EMU;
  const angle = (((num(shadow, 'dir') ?? 0) / 60000) * Math.PI) / 180;
  const blur = (num(shadow, 'blurRad') ?? 0) * EMU;
  return dist > 0 || blur > 0
    ? { dx: dist * Math.cos(angle), dy: dist * Math.sin(angle), blur, color, alpha: alphaOf(shadow) ?? 1 }
    : undefined;
}

/** A line's look: its paint (one colour), width, dashes, cap and ends. */
interface LineLook {
  color?: Rgb;
  alpha?: number;
  width: number;
  dash?: number[];
  cap?: LineCapStyle;
  head?: XmlElement;
  tail?: XmlElement;
}

/** Dash patterns in multiples of the line width, as Office draws its preset dashes. */
const DASHES: Record<string, number[]> = {
  dot: [1, 3],
  dash: [4, 3],
  lgDash: [8, 3],
  dashDot: [4, 3, 1, 3],
  lgDashDot: [8, 3, 1, 3],
  lgDashDotDot: [8, 3, 1, 3, 1, 3],
  sysDash: [3, 1],
  sysDot: [1, 1],
  sysDashDot: [3, 1, 1, 1],
  sysDashDotDot: [3, 1, 1, 1, 1, 1],
};

/**
 * A shape's outline: its own a:ln over the theme's line style (a:lnRef idx, in the ref's colour),
 * attribute by attribute; undefined colour when there is no line.
 */
function lineLook(
  ln: XmlElement | undefined,
  styleEl: XmlElement | undefined,
  env: Pick<ShapeEnv, 'color' | 'theme'>,
): LineLook {
  const ref = kid(styleEl, 'a:lnRef');
  const idx = num(ref, 'idx') ?? 0;
  const styleLn = ref && idx > 0 ? env.theme.lineStyles[idx - 1] : undefined;
  const phClr = ref ? env.color(ref) : undefined;
  const toColor = (paint: Paint | 'none' | undefined) =>
    paint === undefined || paint === 'none' ? undefined : paint.kind === 'solid' ? paint.color : meanColor(paint);
  const own = fillOf(ln, env.color);
  const styled =
    own === undefined && ref && idx > 0
      ? styleLn
        ? paintOf(
            kids(styleLn).find((c) => FILL_NAMES.has(localName(c))),
            env.color,
            phClr,
          )
        : undefined
      : undefined;
  const color = own !== undefined ? toColor(own) : ref && idx > 0 ? (toColor(styled) ?? phClr) : undefined;
  const linePaint = own ?? styled;
  const width = Math.max(0.5, (num(ln, 'w') ?? num(styleLn, 'w') ?? 9525) * EMU);
  const dashName = attr(kid(ln, 'a:prstDash'), 'val') ?? attr(kid(styleLn, 'a:prstDash'), 'val');
  const cap = attr(ln, 'cap') ?? attr(styleLn, 'cap');
  return {
    color,
    alpha: linePaint && linePaint !== 'none' && linePaint.kind === 'solid' ? linePaint.alpha : undefined,
    width,
    dash: dashName && DASHES[dashName] ? DASHES[dashName].map((d) => d * width) : undefined,
    cap: cap === 'rnd' ? LineCapStyle.Round : cap === 'sq' ? LineCapStyle.Projecting : undefined,
    head: kid(ln, 'a:headEnd') ?? kid(styleLn, 'a:headEnd'),
    tail: kid(ln, 'a:tailEnd') ?? kid(styleLn, 'a:tailEnd'),
  };
}

/**
 * A line end (a:headEnd / a:tailEnd) at `tip`, coming from `from`: its outline as an SVG path, whether
 * it is filled (all but the open "arrow"), and how far the line must stop short of the tip so it does
 * not show past a pointed head. Sizes as LibreOffice draws them: sm / med / lg are 2 / 3 / 5 line
 * widths (at least 2 pt).
 */
export function lineEnd(
  end: XmlElement | undefined,
  [tip, from]: [Point, Point],
  lineWidth: number,
): { d: string; filled: boolean; inset: number } | undefined {
  const type = attr(end, 'type');
  if (!type || type === 'none') return undefined;
  const length = Math.hypot(tip[0] - from[0], tip[1] - from[1]);
  if (length < 1e-6) return undefined;
  const u: Point = [(tip[0] - from[0]) / length, (tip[1] - from[1]) / length];
  const n: Point = [-u[1], u[0]];
  const factor = (size: string | undefined) => (size === 'sm' ? 2 : size === 'lg' ? 5 : 3);
  const base = Math.max(lineWidth, 2);
  const len = factor(attr(end, 'len')) * base,
    half = (factor(attr(end, 'w')) * base) / 2;
  const at = (along: number, across: number): Point => [
    tip[0] - u[0] * along + n[0] * across,
    tip[1] - u[1] * along + n[1] * across,
  ];
  const poly = (points: Point[], close = true): Command[] => [
    ...points.map((p, i): Command => ({ op: i ? 'L' : 'M', p })),
    ...(close ? [{ op: 'Z' } as Command] : []),
  ];
  switch (type) {
    case 'triangle':
      return { d: svgPath(poly([tip, at(len, half), at(len, -half)])), filled: true, inset: len / 2 };
    case 'stealth':
      return { d: svgPath(poly([tip, at(len, half), at(len * 0.6, 0), at(len, -half)])), filled: true, inset: len / 2 };
    case 'diamond':
      return { d: svgPath(poly([at(-len / 2, 0), at(0, half), at(len / 2, 0), at(0, -half)])), filled: true, inset: 0 };
    case 'arrow':
      return { d: svgPath(poly([at(len, half), tip, at(len, -half)], false)), filled: false, inset: lineWidth / 2 };
    case 'oval': {
      // Four quarter Béziers around the tip.
      const k = 0.5523;
      const [a, b] = [len / 2, half];
      const d =
        `M ${at(a, 0).join(' ')} C ${at(a, k * b).join(' ')} ${at(k * a, b).join(' ')} ${at(0, b).join(' ')} C ` +
        `${at(-k * a, b).join(' ')} ${at(-a, k * b).join(' ')} ${at(-a, 0).join(' ')} C ` +
        `${at(-a, -k * b).join(' ')} ${at(-k * a, -b).join(' ')} ${at(0, -b).join(' ')} C ` +
        `${at(k * a, -b).join(' ')} ${at(a, -k * b).join(' ')} ${at(a, 0).join(' ')} Z`;
      return { d, filled: true, inset: 0 };
    }
    default:
      return undefined;
  }
}

/**
 * Moves an open path's first / last point towards the line by `head` / `tail` points (so a pointed end is not
 * overdrawn).
 */
function trimEnds(commands: Command[], head: number, tail: number): Command[] {
  const out = commands.map((c) => ({ ...c })) as Command[];
  const shorten = (c: Command, toward: Point, by: number) => {
    if (c.op === 'Z' || by <= 0) return;
    const [x, y] = c.p;
    const length = Math.hypot(toward[0] - x, toward[1] - y);
    if (length > by * 1.5) c.p = [x + ((toward[0] - x) / length) * by, y + ((toward[1] - y) / length) * by];
  };
  const ends = pathEnds(out);
  if (!ends) return commands;
  shorten(out[0], ends.head[1], head);
  shorten(out[out.length - 1], ends.tail[1], tail);
  return out;
}

/** A picture for a picture fill, with its resolution (for tiles at its natural size). */
export interface PictureFill {
  image: PDFImage;
  dpi: number;
}

/**
 * Fills the commands' area (box coordinates, the box's top-left corner at (x, y)) with a picture:
 * stretched over the box, or tiled at its natural size (scaled by the tile's sx / sy) from the box's
 * top-left corner; a:alphaModFix makes it translucent.
 */
function drawPictureFill(
  page: PDFPage,
  commands: Command[],
  x: number,
  y: number,
  box: { width: number; height: number },
  { image, dpi }: PictureFill,
  blipFill: XmlElement,
): void {
  const opacity = (num(kid(kid(blipFill, 'a:blip'), 'a:alphaModFix'), 'amt') ?? 100000) / 100000;
  const tile = kid(blipFill, 'a:tile');
  page.pushOperators(pushGraphicsState(), ...pathOperators(commands, x, y), clip(), endPath());
  if (tile) {
    const width = ((image.width * 72) / dpi) * ((num(tile, 'sx') ?? 100000) / 100000);
    const height = ((image.height * 72) / dpi) * ((num(tile, 'sy') ?? 100000) / 100000);
    const startX = x + (num(tile, 'tx') ?? 0) * EMU,
      startY = y - (num(tile, 'ty') ?? 0) * EMU;
    if (width > 0.5 && height > 0.5 && (box.width / width) * (box.height / height) <= 2500) {
      for (let top = startY; top > y - box.height; top -= height) {
        for (let left = startX; left < x + box.width; left += width)
          page.drawImage(image, { x: left, y: top - height, width, height, opacity });
      }
    }
  } else page.drawImage(image, { x, y: y - box.height, width: box.width, height: box.height, opacity });
  page.pushOperators(popGraphicsState());
}

/**
 * A slide background (p:bg): its own fill (p:bgPr: colour, gradient) or the theme's background
 * style (p:bgRef idx 1001… from the background fills), painted over the page's width × height; a
 * picture background through `picture`. False when p:bg names nothing that can be painted.
 */
export async function paintBackground(
  page: PDFPage,
  bg: XmlElement,
  width: number,
  height: number,
  env: Pick<ShapeEnv, 'color' | 'theme' | 'picture'>,
): Promise<boolean> {
  const bgPr = kid(bg, 'p:bgPr');
  const blipFill = kid(bgPr, 'a:blipFill');
  const commands: Command[] = [
    { op: 'M', p: [0, 0] },
    { op: 'L', p: [width, 0] },
    { op: 'L', p: [width, height] },
    { op: 'L', p: [0, height] },
    { op: 'Z' },
  ];
  if (blipFill) {
    const image = await env.picture?.(blipFill).catch(() => undefined);
    if (image) drawPictureFill(page, commands, 0, height, { width, height }, image, blipFill);
    return Boolean(image);
  }
  const paint = bgPr ? fillOf(bgPr, env.color) : styleFill(kid(bg, 'p:bgRef'), env);
  if (!paint || paint === 'none') return false;
  if (paint.kind === 'solid') page.drawRectangle({ x: 0, y: 0, width, height, color: rgb(...paint.color) });
  else fillPathWithGradient(page, svgPath(commands), 0, height, width, height, paint);
  return true;
}

// ---- Boxes and groups ---------------------------------------------------------------------------

export function xfrmBox(xfrm: XmlElement | undefined): Box | undefined {
  const off = kid(xfrm, 'a:off');
  const ext = kid(xfrm, 'a:ext');
  if (!off || !ext) return undefined;
  return {
    x: (num(off, 'x') ?? 0) * EMU,
    y: (num(off, 'y') ?? 0) * EMU,
    width: (num(ext, 'cx') ?? 0) * EMU,
    height: (num(ext, 'cy') ?? 0) * EMU,
  };
}

/** A shape's or group's own box: its spPr / grpSpPr a:xfrm. */
export function ownBox(element: XmlElement): Box | undefined {
  return xfrmBox(kid(part(element, 'spPr') ?? part(element, 'grpSpPr'), 'a:xfrm'));
}

/** Children of a group shape map from its child space (chOff, chExt) onto its box. */
export function groupTransform(grpSp: XmlElement, transform: Transform): Transform {
  const xfrm = kid(part(grpSp, 'grpSpPr'), 'a:xfrm');
  const outer = xfrmBox(xfrm);
  const chOff = kid(xfrm, 'a:chOff');
  const chExt = kid(xfrm, 'a:chExt');
  if (!outer || !chOff || !chExt) return transform;
  const cx = (num(chOff, 'x') ?? 0) * EMU,
    cy = (num(chOff, 'y') ?? 0) * EMU;
  const sx = outer.width / Math.max(1e-6, (num(chExt, 'cx') ?? 1) * EMU);
  const sy = outer.height / Math.max(1e-6, (num(chExt, 'cy') ?? 1) * EMU);
  return (box) =>
    transform({
      x: outer.x + (box.x - cx) * sx,
      y: outer.y + (box.y - cy) * sy,
      width: box.width * sx,
      height: box.height * sy,
    });
}

/** Maps the box `from` onto the box `to` (scaling both ways). */
export function fitTransform(from: Box, to: Box): Transform {
  const sx = from.width > 0 ? to.width / from.width : 1;
  const sy = from.height > 0 ? to.height / from.height : 1;
  return (box) => ({
    x: to.x + (box.x - from.x) * sx,
    y: to.y + (box.y - from.y) * sy,
    width: box.width * sx,
    height: box.height * sy,
  });
}

// ---- Shapes -------------------------------------------------------------------------------------

/** A PowerPoint placeholder's inherited parts: the layout's and master's shapes and the master's text style. */
export interface PlaceholderInfo {
  type: string;
  layoutSp?: XmlElement;
  masterSp?: XmlElement;
  textStyle?: XmlElement;
}

export interface ShapeEnv {
  ctx: TextContext;
  color: ColorOf;
  theme: DrawingTheme;
  /** Text colour when nothing says otherwise (the scheme's tx1). */
  textColor: Rgb;
  /** Font size when nothing says otherwise: 18 pt in PowerPoint, 11 pt in Excel. */
  defaultSize: number;
  notes: { add(note: string): void };
  /** PowerPoint: the placeholder a shape inherits from, if any. */
  placeholder?: (sp: XmlElement) => PlaceholderInfo | undefined;
  /** PowerPoint: the master's text style for shapes that are not placeholders (p:otherStyle). */
  otherStyle?: XmlElement;
  /** Text sizes are multiplied by this (a drawing printed smaller or larger than its size). */
  textScale?: number;
  /** The picture of an a:blipFill (its a:blip's r:embed in the part being drawn), for picture fills. */
  picture?: (blipFill: XmlElement) => Promise<PictureFill | undefined>;
  /** The address of a text run's hyperlink (a:hlinkClick r:id in the part being drawn), when it is external. */
  hyperlink?: (rId: string) => string | undefined;
  /** Word: a text box's content (wps:txbx), laid out by the caller in the shape's box. */
  textBox?: (sp: XmlElement, box: Box, ctx: TextContext) => Promise<Painter | undefined>;
  /** Elements the shape walker does not know (pictures, charts, tables): drawn by the caller. */
  other?: (element: XmlElement, transform: Transform) => Promise<Painter | undefined>;
}

const KNOWN_AS_RECTANGLES = new Set(['rect', 'flowChartProcess']);

/**
 * Prepares one shape (sp or cxnSp) drawn in `box` (drawing-space points): its geometry (preset or
 * custom, flipped and rotated) with its fill and outline, then its text body. Hidden shapes and
 * shapes that would paint nothing give undefined. `outlineOnly`: just the outline (a picture's frame).
 */
export async function prepareShape(
  sp: XmlElement,
  box: Box,
  env: ShapeEnv,
  options: { outlineOnly?: boolean } = {},
): Promise<Painter | undefined> {
  const nv = part(sp, 'nvSpPr') ?? part(sp, 'nvCxnSpPr');
  if (attr(part(nv, 'cNvPr'), 'hidden') === '1' || attr(part(nv, 'cNvPr'), 'hidden') === 'true') return undefined;
  const spPr = part(sp, 'spPr');
  const styleEl = part(sp, 'style');

  // Geometry, fill and outline: the shape's own, else the theme's style matrix (p:style).
  let fill = options.outlineOnly ? 'none' : fillOf(spPr, env.color);
  const blipFill = fill === undefined ? kid(spPr, 'a:blipFill') : undefined;
  const picture = blipFill && env.picture ? await env.picture(blipFill).catch(() => undefined) : undefined;
  if (picture) fill = 'none';
  if (fill === undefined && styleEl) fill = styleFill(kid(styleEl, 'a:fillRef'), env);
  const ln = kid(spPr, 'a:ln');
  const line = lineLook(ln, styleEl, env);
  const hasGeometry = Boolean(kid(spPr, 'a:prstGeom') || kid(spPr, 'a:custGeom'));
  const geometry = hasGeometry ? shapeGeometry(spPr, box.width, box.height) : undefined;
  if (geometry && !geometry.known) env.notes.add('some shapes were drawn as rectangles');
  // a line with only a fill is drawn black
  if (geometry?.open && !line.color && fill && fill !== 'none') line.color = [0, 0, 0];
  const paint = fill && fill !== 'none' && !geometry?.open ? fill : undefined;
  const fillColor = paint?.kind === 'solid' ? rgb(...paint.color) : undefined;
  const gradient = paint?.kind === 'gradient' ? paint : undefined;
  const strokeColor = line.color ? rgb(...line.color) : undefined;
  const rotation = (((num(kid(spPr, 'a:xfrm'), 'rot') ?? 0) / 60000) * Math.PI) / 180;
  const shadow = !options.outlineOnly && geometry && (paint || picture) ? shadowOf(spPr, styleEl, env) : undefined;

  // Text goes in the preset's text rectangle (an ellipse's inscribed one), which turns with the shape's box.
  const textBox = shapeTextBox(spPr, box);
  const text = options.outlineOnly
    ? undefined
    : part(sp, 'txbx') && env.textBox
      ? await env.textBox(sp, textBox, env.ctx)
      : await prepareText(sp, textBox, env);
  if (!text && !(geometry && (paint || picture || strokeColor))) return undefined;
  return (page, left, top, dctx) => {
    if (geometry && (paint || picture || strokeColor)) {
      const x = left + box.x,
        y = top - box.y;
      const stroke = {
        borderColor: strokeColor,
        borderWidth: line.width,
        borderDashArray: line.dash,
        borderLineCap: line.cap,
        borderOpacity: line.alpha,
      };
      const opacity = paint?.kind === 'solid' ? paint.alpha : undefined;
      if (shadow) {
        // PDF cannot blur: the silhouette is stacked in layers growing out to the blur radius, each
        // a fraction of the shadow's opacity, so the shadow fades towards its edge.
        const layers = shadow.blur > 0 ? 4 : 1;
        for (let k = 0; k < layers; k++) {
          // from just inside the shape to the blur radius out
          const grow = layers > 1 ? (shadow.blur * (k - 1)) / (layers - 1) : 0;
          const silhouette = shapeGeometry(spPr, Math.max(1, box.width + 2 * grow), Math.max(1, box.height + 2 * grow));
          for (const path of silhouette.paths) {
            if (path.fill)
              page.drawSvgPath(path.d, {
                x: x + shadow.dx - grow,
                y: y - shadow.dy + grow,
                color: rgb(...shadow.color),
                opacity: (shadow.alpha / layers) * (opacity ?? 1),
              });
          }
        }
      }
      for (const path of geometry.paths) {
        const pathFill = path.fill ? fillColor : undefined;
        const pathStroke = path.stroke ? strokeColor : undefined;
        if (path.fill && gradient) fillPathWithGradient(page, path.d, x, y, box.width, box.height, gradient, rotation);
        if (path.fill && picture && blipFill) drawPictureFill(page, path.commands, x, y, box, picture, blipFill);
        if (!pathFill && !pathStroke) continue;
        if (
          KNOWN_AS_RECTANGLES.has(attr(kid(spPr, 'a:prstGeom'), 'prst') ?? '') &&
          !rotation &&
          !line.dash &&
          !line.cap
        ) {
          page.drawRectangle({
            x,
            y: y - box.height,
            width: box.width,
            height: box.height,
            color: pathFill,
            opacity,
            borderColor: pathStroke,
            borderWidth: pathStroke ? line.width : 0,
            borderOpacity: line.alpha,
          });
          continue;
        }
        // Open lines get their ends (arrowheads…), and stop short of pointed ones.
        const ends = pathStroke && !path.fill ? pathEnds(path.commands) : undefined;
        const head = ends && lineEnd(line.head, ends.head, line.width);
        const tail = ends && lineEnd(line.tail, ends.tail, line.width);
        const d = head || tail ? svgPath(trimEnds(path.commands, head?.inset ?? 0, tail?.inset ?? 0)) : path.d;
        page.drawSvgPath(d, { x, y, color: pathFill, opacity, ...(pathStroke ? stroke : {}) });
        for (const end of [head, tail]) {
          if (end)
            page.drawSvgPath(
              end.d,
              end.filled
                ? { x, y, color: pathStroke, opacity: line.alpha }
                : { x, y, ...stroke, borderDashArray: undefined },
            );
        }
      }
    }
    if (text)
      drawTurned(page, rotation && !uprightText(sp) ? rotation : 0, left + box.x, top - box.y, box, () =>
        text(page, left, top, dctx),
      );
  };
}

/** Whether a shape's text stays level when the shape turns (a:bodyPr upright="1"). */
const uprightText = (sp: XmlElement) =>
  ['1', 'true'].includes(attr(kid(part(sp, 'txBody'), 'a:bodyPr'), 'upright') ?? '');

/**
 * Draws with the page turned clockwise by `rotation` (radians, as DrawingML turns a shape) about the
 * centre of `box`, whose top-left corner is at (x, y) on the page.
 */
function drawTurned(page: PDFPage, rotation: number, x: number, y: number, box: Box, draw: () => void): void {
  if (!rotation) return draw();
  const cx = x + box.width / 2,
    cy = y - box.height / 2;
  const cos = Math.cos(rotation),
    sin = Math.sin(rotation);
  // Clockwise on the page (y up) is a turn by −rotation: about (cx, cy), translate · rotate · translate back.
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(cos, -sin, sin, cos, cx - cos * cx - sin * cy, cy + sin * cx - cos * cy),
  );
  draw();
  page.pushOperators(popGraphicsState());
}

/** Splits a:t text at line feeds (text boxes from older Excel files carry them) into line breaks. */
function textInlines(text: string, style: RunStyle): Inline[] {
  const out: Inline[] = [];
  text.split(/\r\n|\r|\n|\v/).forEach((piece, i) => {
    if (i > 0) out.push({ kind: 'break', style });
    if (piece) out.push({ kind: 'text', text: piece, style });
  });
  return out;
}

type Spacing = { points: number } | { percent: number };

/**
 * A text run's or field's inlines. A slide-number field shows the number of the slide it is drawn on
 * (its text is a cached value, or "‹#›" on a master or layout).
 */
function runInlines(run: XmlElement, style: CappedStyle): Inline[] {
  const { caps, ...look } = style;
  if (run.nodeName === 'a:fld' && attr(run, 'type') === 'slidenum')
    return [{ kind: 'field', field: 'PAGE', style: look }];
  const text = kid(run, 'a:t')?.textContent ?? '';
  if (!text) return [];
  if (caps === 'all') return textInlines(text.toUpperCase(), look);
  if (caps === 'small') return smallCapitals(text, look).flatMap((part) => textInlines(part.text, part.style));
  return textInlines(text, look);
}

/** A run style with DrawingML's capitals (a:rPr cap): all capitals, or small capitals. */
type CappedStyle = RunStyle & { caps?: 'all' | 'small' };

/** A run's capitals (a:rPr cap: all, small or none), else those it inherits. */
function capsOf(rPr: XmlElement, inherited: CappedStyle['caps']): CappedStyle['caps'] {
  const cap = attr(rPr, 'cap');
  if (cap === undefined) return inherited;
  return cap === 'all' || cap === 'small' ? cap : undefined;
}

/** A DrawingML paragraph's direction (a:pPr rtl, levels in order) and its alignment (right by default when rtl). */
function rtlAlign(levelProps: XmlElement[], align: Paragraph['align'] | undefined): Partial<Paragraph> {
  const rtl =
    levelProps
      .map((props) => attr(props, 'rtl'))
      .filter((v) => v !== undefined)
      .at(-1) === '1';
  return { direction: rtl ? 'rtl' : 'ltr', align: align ?? (rtl ? 'right' : 'left') };
}

/**
 * Vertical text (a:bodyPr vert) as a clockwise turn in radians: "vert" turns it a quarter clockwise
 * (East Asian and Mongolian vertical text turn Latin letters the same way; their CJK characters are
 * not set upright), "vert270" a quarter anticlockwise.
 */
const VERTICAL_TURNS: Record<string, number> = {
  vert: Math.PI / 2,
  eaVert: Math.PI / 2,
  mongolianVert: Math.PI / 2,
  vert270: -Math.PI / 2,
};

/**
 * Lays out a shape's text body in its box, with its insets, anchor, autofit and level styles.
 * Vertical text is laid out in the box turned a quarter about its centre (lines along its height,
 * the insets turning with it) and drawn turned back.
 */
/** A DrawingML run's properties (a:rPr, a:defRPr) over `base`. */
function runStyleOf(rPr: XmlElement | undefined, base: CappedStyle, env: ShapeEnv): CappedStyle {
  const { color, theme } = env;
  if (!rPr) return base;
  const next = { ...base };
  const linkId = attr(kid(rPr, 'a:hlinkClick'), 'r:id');
  if (linkId) next.link = env.hyperlink?.(linkId);
  const sz = num(rPr, 'sz');
  if (sz) next.size = sz / 100;
  if (attr(rPr, 'b') !== undefined) next.bold = attr(rPr, 'b') === '1';
  if (attr(rPr, 'i') !== undefined) next.italic = attr(rPr, 'i') === '1';
  const underline = attr(rPr, 'u');
  if (underline !== undefined) {
    const kind = underlineOfKind(underline);
    const underlineColor = color(kid(kid(rPr, 'a:uFill'), 'a:solidFill'));
    next.underline = kind && underlineColor ? { ...kind, color: underlineColor } : kind;
  }
  if (attr(rPr, 'strike') !== undefined) next.strike = attr(rPr, 'strike') !== 'noStrike';
  const fill = kid(rPr, 'a:solidFill');
  if (fill) next.color = color(fill) ?? next.color;
  const latin = attr(kid(rPr, 'a:latin'), 'typeface');
  if (latin) next.font = latin === '+mj-lt' ? theme.majorFont : latin === '+mn-lt' ? theme.minorFont : latin;
  const baseline = num(rPr, 'baseline');
  if (baseline) next.baseline = baseline > 0 ? 'super' : 'sub';
  // Character spacing in hundredths of a point.
  const spc = num(rPr, 'spc');
  if (spc !== undefined) next.spacing = spc / 100 || undefined;
  next.caps = capsOf(rPr, next.caps);
  return next;
}

async function prepareText(sp: XmlElement, shapeBox: Box, env: ShapeEnv): Promise<Painter | undefined> {
  const txBody = part(sp, 'txBody');
  if (!txBody || !Array.from(txBody.getElementsByTagName('a:t')).some((t) => t.textContent?.trim())) return undefined;
  const { color, theme } = env;
  const ph = env.placeholder?.(sp);
  const layoutSp = ph?.layoutSp;
  const masterSp = ph?.masterSp;
  const bodyPr = kid(txBody, 'a:bodyPr');
  const layoutBodyPr = kid(part(layoutSp, 'txBody'), 'a:bodyPr');
  const masterBodyPr = kid(part(masterSp, 'txBody'), 'a:bodyPr');
  const { box, turned } = verticalText(shapeBox, [bodyPr, layoutBodyPr, masterBodyPr]);
  const inset = (name: string, fallback: number) =>
    (num(bodyPr, name) ?? num(layoutBodyPr, name) ?? num(masterBodyPr, name) ?? fallback) * EMU;
  const left = inset('lIns', 91440),
    right = inset('rIns', 91440),
    topInset = inset('tIns', 45720),
    bottom = inset('bIns', 45720);
  const anchor =
    attr(bodyPr, 'anchor') ??
    attr(layoutBodyPr, 'anchor') ??
    attr(masterBodyPr, 'anchor') ??
    (ph && ['title', 'ctrTitle'].includes(ph.type) ? 'ctr' : 't');
  const autofit = kid(bodyPr, 'a:normAutofit');
  const fontScale = ((num(autofit, 'fontScale') ?? 100000) / 100000) * (env.textScale ?? 1);
  const spacingReduction = (num(autofit, 'lnSpcReduction') ?? 0) / 100000;
  const noWrap = attr(bodyPr, 'wrap') === 'none';

  // Level properties, most specific last.
  const levelSources = [
    ph ? ph.textStyle : env.otherStyle,
    kid(part(masterSp, 'txBody'), 'a:lstStyle'),
    kid(part(layoutSp, 'txBody'), 'a:lstStyle'),
    kid(txBody, 'a:lstStyle'),
  ];
  const isBody = ph !== undefined && !['title', 'ctrTitle', 'sldNum', 'dt', 'ftr'].includes(ph.type);
  const styleEl = part(sp, 'style');
  const styleDefaults = styleEl ? color(kid(styleEl, 'a:fontRef')) : undefined;
  const styleFont = attr(kid(styleEl, 'a:fontRef'), 'idx') === 'major' ? theme.majorFont : theme.minorFont;

  const blocks: Block[] = [];
  const numbering = new AutoNumbering();
  for (const p of kids(txBody, 'a:p')) {
    const pPr = kid(p, 'a:pPr');
    const level = num(pPr, 'lvl') ?? 0;
    const levelProps = [...levelSources.map((s) => kid(s, `a:lvl${level + 1}pPr`)), pPr].filter((e): e is XmlElement =>
      Boolean(e),
    );
    let style: CappedStyle = { size: env.defaultSize, font: styleFont, color: styleDefaults ?? env.textColor };
    let align: Paragraph['align'] | undefined;
    let levelMarker: LevelMarker = {};
    let marginLeft = 0;
    let indent = 0;
    let lineSpacing = 1;
    let spaceBefore: Spacing = { points: 0 };
    let spaceAfter: Spacing = { points: 0 };
    const applyRun = (rPr: XmlElement | undefined, base: CappedStyle) => runStyleOf(rPr, base, env);
    if (ph && ['title', 'ctrTitle'].includes(ph.type)) style.font = theme.majorFont;
    const masterLevel = kid(levelSources[0], `a:lvl${level + 1}pPr`);
    for (const props of levelProps) {
      style = applyRun(kid(props, 'a:defRPr'), style);
      // The shape style's font colour (p:style a:fontRef) wins over the master's text styles.
      if (props === masterLevel && styleDefaults) style.color = styleDefaults;
      const algn = attr(props, 'algn');
      if (algn) align = algn === 'ctr' ? 'center' : algn === 'r' ? 'right' : algn === 'just' ? 'justify' : 'left';
      levelMarker = markerOf(props, levelMarker);
      marginLeft = (num(props, 'marL') ?? marginLeft / EMU) * EMU;
      indent = (num(props, 'indent') ?? indent / EMU) * EMU;
      const pct = num(kid(kid(props, 'a:lnSpc'), 'a:spcPct'), 'val');
      if (pct) lineSpacing = pct / 100000;
      // Space before / after: in points, or in percent of the paragraph's text size (resolved below).
      const spacing = (name: string): Spacing | undefined => {
        const el = kid(props, name);
        const pts = num(kid(el, 'a:spcPts'), 'val');
        const pct = num(kid(el, 'a:spcPct'), 'val');
        return pts !== undefined ? { points: pts / 100 } : pct !== undefined ? { percent: pct / 100000 } : undefined;
      };
      spaceBefore = spacing('a:spcBef') ?? spaceBefore;
      spaceAfter = spacing('a:spcAft') ?? spaceAfter;
    }
    if (!isBody && !pPr?.getElementsByTagName('a:buChar').length && ph) levelMarker = {};
    const bullet = numbering.next(p, level, levelMarker.autoNumber) ?? levelMarker.bullet;
    const scaled = <T extends RunStyle>(s: T): T => ({ ...s, size: s.size * fontScale });
    const inlines: Inline[] = [];
    for (const child of kids(p)) {
      if (child.nodeName === 'a:r' || child.nodeName === 'a:fld') {
        inlines.push(...runInlines(child, scaled(applyRun(kid(child, 'a:rPr'), style))));
      } else if (child.nodeName === 'a:br') inlines.push({ kind: 'break', style: scaled(style) });
    }
    const endStyle = applyRun(kid(p, 'a:endParaRPr'), style);
    if (!inlines.length) inlines.push({ kind: 'text', text: '', style: scaled(endStyle) });
    const textSize = inlines.find((i) => i.kind === 'text')?.style.size ?? style.size * fontScale;
    const points = (spacing: Spacing) =>
      'points' in spacing ? spacing.points * fontScale : spacing.percent * textSize;
    blocks.push(
      makeParagraph(inlines, {
        // A right-to-left paragraph (the last level setting rtl="1") without an alignment starts at the right.
        ...rtlAlign(levelProps, align),
        indentLeft: marginLeft,
        firstLine: indent,
        spaceBefore: points(spaceBefore),
        spaceAfter: points(spaceAfter),
        lineSpacing: { rule: 'ofSize', value: lineSpacing * (1 - spacingReduction) },
        marker:
          bullet && inlines.some((i) => i.kind === 'text' && i.text)
            ? { text: bullet.charCodeAt(0) >= 0xf000 ? '•' : bullet, style: scaled(style) }
            : undefined,
        noWrap,
      }),
    );
  }
  const width = Math.max(4, box.width - left - right);
  const laid = await Promise.all(blocks.map((b) => layoutParagraph(b as Paragraph, width, env.ctx)));
  const height = laid.reduce(
    (sum, l, i) =>
      sum + l.height + (i > 0 ? l.paragraph.spaceBefore : 0) + (i < laid.length - 1 ? l.paragraph.spaceAfter : 0),
    0,
  );
  const free = box.height - topInset - bottom - height;
  const start = box.y + topInset + (anchor === 'ctr' ? free / 2 : anchor === 'b' ? free : 0);
  return turned((page, originLeft, originTop, dctx) => {
    let y = originTop - start;
    laid.forEach((l, i) => {
      if (i > 0) y -= l.paragraph.spaceBefore;
      l.lines.forEach((line, index) => {
        drawLine(page, l, index, originLeft + box.x + left, y, dctx);
        y -= line.height;
      });
      y -= l.paragraph.spaceAfter;
    });
  });
}

/**
 * The box a text body is laid out in and the painter drawing it: for vertical text (the first
 * a:bodyPr vert of the shape's, its layout's and its master's) the shape's box turned a quarter about
 * its centre (width and height swapped), the painter turned back; otherwise the box and painter as they are.
 */
function verticalText(
  box: Box,
  bodyProps: Array<XmlElement | undefined>,
): { box: Box; turned: (p: Painter) => Painter } {
  const turn = VERTICAL_TURNS[bodyProps.map((props) => attr(props, 'vert')).find((v) => v !== undefined) ?? ''];
  if (!turn) return { box, turned: (paint) => paint };
  const { x, y, width, height } = box;
  const laid = { ...box, x: x + (width - height) / 2, y: y + (height - width) / 2, width: height, height: width };
  return {
    box: laid,
    turned: (paint) => (page, left, top, dctx) =>
      drawTurned(page, turn, left + laid.x, top - laid.y, laid, () => paint(page, left, top, dctx)),
  };
}

/**
 * Prepares a tree of DrawingML elements — shapes, connectors and group shapes (their children
 * mapped from the group's child space; Word's wps:wsp and wpg:wgp alike), mc:AlternateContent by its
 * fallback — painted in order.
 * Anything else goes to env.other.
 */
export async function prepareShapes(elements: XmlElement[], transform: Transform, env: ShapeEnv): Promise<Painter> {
  const painters: Painter[] = [];
  for (const element of elements) {
    const name = localName(element);
    let painter: Painter | undefined;
    if (name === 'sp' || name === 'cxnSp' || name === 'wsp') {
      const box = ownBox(element);
      painter = box ? await prepareShape(element, transform(box), env) : undefined;
    } else if (name === 'grpSp' || name === 'wgp') {
      painter = await prepareShapes(kids(element), groupTransform(element, transform), env);
    } else if (name === 'AlternateContent') {
      const choice = kid(element, 'mc:Fallback');
      painter = choice ? await prepareShapes(kids(choice), transform, env) : undefined;
    } else if (
      env.other &&
      !['nvGrpSpPr', 'grpSpPr', 'cNvGrpSpPr', 'nvSpPr', 'spPr', 'style', 'txBody', 'extLst'].includes(name)
    ) {
      painter = await env.other(element, transform);
    }
    if (painter) painters.push(painter);
  }
  return (page, left, top, ctx) => {
    for (const paint of painters) paint(page, left, top, ctx);
  };
}

/**
 * A drawing of DrawingML elements as an inline of the flowing layout (SmartArt in .docx, a shape
 * anchored on a sheet): the elements' drawing space `source` is fitted to the inline's box, text
 * scaled with it.
 */
export function shapesInline(elements: XmlElement[], source: Box, env: Omit<ShapeEnv, 'ctx'>): Inline {
  return {
    kind: 'drawing',
    width: source.width,
    height: source.height,
    prepare: async (ctx, width, height) => {
      const scale = Math.min(width / (source.width || 1), height / (source.height || 1));
      const paint = await prepareShapes(elements, fitTransform(source, { x: 0, y: 0, width, height }), {
        ...env,
        ctx,
        textScale: (env.textScale ?? 1) * scale,
      });
      return (page, x, bottom) => paint(page, x, bottom + height, { pageNumber: 1, pageCount: 1 });
    },
  };
}

/** A picture's a:srcRect (in 1/100000 of its size from each side) as a crop; none when it cuts nothing. */
export function cropOf(blipFill: XmlElement | undefined): Crop | undefined {
  const rect = find(blipFill, 'a:srcRect');
  const [left, top, right, bottom] = ['l', 't', 'r', 'b'].map((side) => (num(rect, side) ?? 0) / 100000);
  return left || top || right || bottom ? { left, top, right, bottom } : undefined;
}
