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
import { rgb, type PDFPage } from 'pdf-lib';
import type { Block, Inline, Paragraph, Rgb, RunStyle } from './model.ts';
import { paragraph as makeParagraph } from './model.ts';
import { attr, find, hexColor, kid, kids, num, type XmlElement } from './xml.ts';
import { drawLine, layoutParagraph, type DrawContext, type TextContext } from './text.ts';
import { shapeGeometry } from './geometry.ts';

export const EMU = 1 / 12700;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
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

function toHsl([r, g, b]: Rgb): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? ((g - b) / d + (g < b ? 6 : 0)) / 6 : max === g ? ((b - r) / d + 2) / 6 : ((r - g) / d + 4) / 6;
  return [h, s, l];
}

function fromHsl([h, s, l]: [number, number, number]): Rgb {
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
}

/** A theme part's colour scheme and major / minor Latin fonts. */
export function readDrawingTheme(root: XmlElement | undefined): DrawingTheme {
  const theme: DrawingTheme = { colors: {}, majorFont: 'Calibri', minorFont: 'Calibri' };
  for (const entry of kids(find(root, 'a:clrScheme'))) {
    const color = hexColor(attr(kid(entry, 'a:srgbClr'), 'val') ?? attr(kid(entry, 'a:sysClr'), 'lastClr'));
    if (color) theme.colors[entry.nodeName.replace('a:', '')] = color;
  }
  theme.majorFont = attr(find(find(root, 'a:majorFont'), 'a:latin'), 'typeface') ?? theme.majorFont;
  theme.minorFont = attr(find(find(root, 'a:minorFont'), 'a:latin'), 'typeface') ?? theme.minorFont;
  return theme;
}

/**
 * The colour of an element holding a:srgbClr / a:schemeClr / a:scrgbClr / a:sysClr / a:prstClr,
 * with its modifiers; scheme names go through the colour map (bg1 → lt1, tx1 → dk1 unless mapped).
 */
export function colorResolver(theme: DrawingTheme, clrMap?: XmlElement): (fillParent: XmlElement | undefined) => Rgb | undefined {
  const defaults: Record<string, string> = { bg1: 'lt1', tx1: 'dk1', bg2: 'lt2', tx2: 'dk2' };
  const mapped = (name: string) => attr(clrMap, name) ?? defaults[name] ?? name;
  return (fillParent) => {
    if (!fillParent) return undefined;
    const srgb = kid(fillParent, 'a:srgbClr');
    if (srgb) return applyModifiers(hexColor(attr(srgb, 'val')) ?? [0, 0, 0], srgb);
    const scheme = kid(fillParent, 'a:schemeClr');
    if (scheme) {
      const name = mapped(attr(scheme, 'val') ?? '');
      const base = theme.colors[name] ?? ({ dk1: [0, 0, 0], lt1: [1, 1, 1] } as Record<string, Rgb>)[name];
      return base ? applyModifiers(base, scheme) : undefined;
    }
    const scrgb = kid(fillParent, 'a:scrgbClr');
    if (scrgb) return applyModifiers([(num(scrgb, 'r') ?? 0) / 100000, (num(scrgb, 'g') ?? 0) / 100000, (num(scrgb, 'b') ?? 0) / 100000], scrgb);
    const sys = kid(fillParent, 'a:sysClr');
    if (sys) return hexColor(attr(sys, 'lastClr'));
    const preset = kid(fillParent, 'a:prstClr');
    if (preset) return ({ black: [0, 0, 0], white: [1, 1, 1], red: [1, 0, 0] } as Record<string, Rgb>)[attr(preset, 'val') ?? ''];
    return undefined;
  };
}

/** A fill of spPr (or a:ln): 'none', a colour, or undefined when it says nothing (the style decides). */
function fillOf(spPr: XmlElement | undefined, color: (parent: XmlElement | undefined) => Rgb | undefined): Rgb | 'none' | undefined {
  if (!spPr) return undefined;
  if (kid(spPr, 'a:noFill')) return 'none';
  const solid = kid(spPr, 'a:solidFill');
  if (solid) return color(solid);
  // Gradients: their middle stop's colour, or the mean of two stops.
  const stops = kids(kid(kid(spPr, 'a:gradFill'), 'a:gsLst'), 'a:gs');
  if (stops.length === 2) {
    const [a, b] = stops.map((stop) => color(stop));
    return a && b ? [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2] : a ?? b;
  }
  if (stops.length) return color(stops[Math.floor(stops.length / 2)]);
  return undefined;
}

// ---- Boxes and groups ---------------------------------------------------------------------------

export function xfrmBox(xfrm: XmlElement | undefined): Box | undefined {
  const off = kid(xfrm, 'a:off');
  const ext = kid(xfrm, 'a:ext');
  if (!off || !ext) return undefined;
  return { x: (num(off, 'x') ?? 0) * EMU, y: (num(off, 'y') ?? 0) * EMU, width: (num(ext, 'cx') ?? 0) * EMU, height: (num(ext, 'cy') ?? 0) * EMU };
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
  const cx = (num(chOff, 'x') ?? 0) * EMU, cy = (num(chOff, 'y') ?? 0) * EMU;
  const sx = outer.width / Math.max(1e-6, (num(chExt, 'cx') ?? 1) * EMU);
  const sy = outer.height / Math.max(1e-6, (num(chExt, 'cy') ?? 1) * EMU);
  return (box) => transform({ x: outer.x + (box.x - cx) * sx, y: outer.y + (box.y - cy) * sy, width: box.width * sx, height: box.height * sy });
}

/** Maps the box `from` onto the box `to` (scaling both ways). */
export function fitTransform(from: Box, to: Box): Transform {
  const sx = from.width > 0 ? to.width / from.width : 1;
  const sy = from.height > 0 ? to.height / from.height : 1;
  return (box) => ({ x: to.x + (box.x - from.x) * sx, y: to.y + (box.y - from.y) * sy, width: box.width * sx, height: box.height * sy });
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
  color: (fillParent: XmlElement | undefined) => Rgb | undefined;
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
  /** Elements the shape walker does not know (pictures, charts, tables): drawn by the caller. */
  other?: (element: XmlElement, transform: Transform) => Promise<Painter | undefined>;
}

const KNOWN_AS_RECTANGLES = new Set(['rect', 'flowChartProcess']);

/**
 * Prepares one shape (sp or cxnSp) drawn in `box` (drawing-space points): its geometry (preset or
 * custom, flipped and rotated) with its fill and outline, then its text body. Hidden shapes and
 * shapes that would paint nothing give undefined.
 */
export async function prepareShape(sp: XmlElement, box: Box, env: ShapeEnv): Promise<Painter | undefined> {
  const nv = part(sp, 'nvSpPr') ?? part(sp, 'nvCxnSpPr');
  if (attr(part(nv, 'cNvPr'), 'hidden') === '1' || attr(part(nv, 'cNvPr'), 'hidden') === 'true') return undefined;
  const spPr = part(sp, 'spPr');
  const styleEl = part(sp, 'style');
  const { color } = env;

  // Geometry, fill and outline.
  let fill = fillOf(spPr, color);
  if (fill === undefined && styleEl && (num(kid(styleEl, 'a:fillRef'), 'idx') ?? 1) > 0) fill = color(kid(styleEl, 'a:fillRef'));
  const ln = kid(spPr, 'a:ln');
  let stroke: Rgb | 'none' | undefined = ln ? fillOf(ln, color) : undefined;
  if (stroke === undefined && styleEl && !(ln && kid(ln, 'a:noFill')) && (num(kid(styleEl, 'a:lnRef'), 'idx') ?? 1) > 0) stroke = color(kid(styleEl, 'a:lnRef'));
  const strokeWidth = Math.max(0.5, (num(ln, 'w') ?? 9525) * EMU);
  const hasGeometry = Boolean(kid(spPr, 'a:prstGeom') || kid(spPr, 'a:custGeom'));
  const geometry = hasGeometry ? shapeGeometry(spPr, box.width, box.height) : undefined;
  if (geometry && !geometry.known) env.notes.add('some shapes were drawn as rectangles');
  if (geometry?.open && !(stroke && stroke !== 'none') && fill && fill !== 'none') stroke = [0, 0, 0]; // a line with only a fill is drawn black
  const fillColor = fill && fill !== 'none' && !geometry?.open ? rgb(...fill) : undefined;
  const strokeColor = stroke && stroke !== 'none' ? rgb(...stroke) : undefined;

  const text = await prepareText(sp, box, env);
  if (!text && !(geometry && (fillColor || strokeColor))) return undefined;
  return (page, left, top, dctx) => {
    if (geometry && (fillColor || strokeColor)) {
      for (const path of geometry.paths) {
        const pathFill = path.fill ? fillColor : undefined;
        const pathStroke = path.stroke ? strokeColor : undefined;
        if (!pathFill && !pathStroke) continue;
        if (KNOWN_AS_RECTANGLES.has(attr(kid(spPr, 'a:prstGeom'), 'prst') ?? '') && !attr(kid(spPr, 'a:xfrm'), 'rot')) {
          page.drawRectangle({ x: left + box.x, y: top - box.y - box.height, width: box.width, height: box.height, color: pathFill, borderColor: pathStroke, borderWidth: pathStroke ? strokeWidth : 0 });
          continue;
        }
        page.drawSvgPath(path.d, { x: left + box.x, y: top - box.y, color: pathFill, borderColor: pathStroke, borderWidth: pathStroke ? strokeWidth : undefined });
      }
    }
    text?.(page, left, top, dctx);
  };
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

/** Lays out a shape's text body in its box, with its insets, anchor, autofit and level styles. */
async function prepareText(sp: XmlElement, box: Box, env: ShapeEnv): Promise<Painter | undefined> {
  const txBody = part(sp, 'txBody');
  if (!txBody || !Array.from(txBody.getElementsByTagName('a:t')).some((t) => t.textContent?.trim())) return undefined;
  const { color, theme } = env;
  const ph = env.placeholder?.(sp);
  const layoutSp = ph?.layoutSp;
  const masterSp = ph?.masterSp;
  const bodyPr = kid(txBody, 'a:bodyPr');
  const layoutBodyPr = kid(part(layoutSp, 'txBody'), 'a:bodyPr');
  const masterBodyPr = kid(part(masterSp, 'txBody'), 'a:bodyPr');
  const inset = (name: string, fallback: number) => (num(bodyPr, name) ?? num(layoutBodyPr, name) ?? num(masterBodyPr, name) ?? fallback) * EMU;
  const left = inset('lIns', 91440), right = inset('rIns', 91440), topInset = inset('tIns', 45720), bottom = inset('bIns', 45720);
  const anchor = attr(bodyPr, 'anchor') ?? attr(layoutBodyPr, 'anchor') ?? attr(masterBodyPr, 'anchor') ?? (ph && ['title', 'ctrTitle'].includes(ph.type) ? 'ctr' : 't');
  const autofit = kid(bodyPr, 'a:normAutofit');
  const fontScale = ((num(autofit, 'fontScale') ?? 100000) / 100000) * (env.textScale ?? 1);
  const spacingReduction = (num(autofit, 'lnSpcReduction') ?? 0) / 100000;
  const noWrap = attr(bodyPr, 'wrap') === 'none';

  // Level properties, most specific last.
  const levelSources = [ph ? ph.textStyle : env.otherStyle, kid(part(masterSp, 'txBody'), 'a:lstStyle'), kid(part(layoutSp, 'txBody'), 'a:lstStyle'), kid(txBody, 'a:lstStyle')];
  const isBody = ph !== undefined && !['title', 'ctrTitle', 'sldNum', 'dt', 'ftr'].includes(ph.type);
  const styleEl = part(sp, 'style');
  const styleDefaults = styleEl ? color(kid(styleEl, 'a:fontRef')) : undefined;
  const styleFont = attr(kid(styleEl, 'a:fontRef'), 'idx') === 'major' ? theme.majorFont : theme.minorFont;

  const blocks: Block[] = [];
  for (const p of kids(txBody, 'a:p')) {
    const pPr = kid(p, 'a:pPr');
    const level = num(pPr, 'lvl') ?? 0;
    const levelProps = [...levelSources.map((s) => kid(s, `a:lvl${level + 1}pPr`)), pPr].filter((e): e is XmlElement => Boolean(e));
    let style: RunStyle = { size: env.defaultSize, font: styleFont, color: styleDefaults ?? env.textColor };
    let align: Paragraph['align'] = 'left';
    let bullet: string | undefined;
    let marginLeft = 0;
    let indent = 0;
    let lineSpacing = 1;
    let spaceBefore: Spacing = { points: 0 };
    let spaceAfter: Spacing = { points: 0 };
    const applyRun = (rPr: XmlElement | undefined, base: RunStyle): RunStyle => {
      if (!rPr) return base;
      const next = { ...base };
      const sz = num(rPr, 'sz');
      if (sz) next.size = sz / 100;
      if (attr(rPr, 'b') !== undefined) next.bold = attr(rPr, 'b') === '1';
      if (attr(rPr, 'i') !== undefined) next.italic = attr(rPr, 'i') === '1';
      if (attr(rPr, 'u') !== undefined) next.underline = attr(rPr, 'u') !== 'none';
      if (attr(rPr, 'strike') !== undefined) next.strike = attr(rPr, 'strike') !== 'noStrike';
      const fill = kid(rPr, 'a:solidFill');
      if (fill) next.color = color(fill) ?? next.color;
      const latin = attr(kid(rPr, 'a:latin'), 'typeface');
      if (latin) next.font = latin === '+mj-lt' ? theme.majorFont : latin === '+mn-lt' ? theme.minorFont : latin;
      const baseline = num(rPr, 'baseline');
      if (baseline) next.baseline = baseline > 0 ? 'super' : 'sub';
      return next;
    };
    if (ph && ['title', 'ctrTitle'].includes(ph.type)) style.font = theme.majorFont;
    for (const props of levelProps) {
      style = applyRun(kid(props, 'a:defRPr'), style);
      const algn = attr(props, 'algn');
      if (algn) align = algn === 'ctr' ? 'center' : algn === 'r' ? 'right' : algn === 'just' ? 'justify' : 'left';
      if (kid(props, 'a:buNone')) bullet = undefined;
      const buChar = attr(kid(props, 'a:buChar'), 'char');
      if (buChar) bullet = buChar;
      if (kid(props, 'a:buAutoNum')) bullet = '•';
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
    if (!isBody && !pPr?.getElementsByTagName('a:buChar').length) bullet = ph ? undefined : bullet;
    const scaled = (s: RunStyle): RunStyle => ({ ...s, size: s.size * fontScale });
    const inlines: Inline[] = [];
    for (const child of kids(p)) {
      if (child.nodeName === 'a:r' || child.nodeName === 'a:fld') {
        const runStyle = applyRun(kid(child, 'a:rPr'), style);
        const text = kid(child, 'a:t')?.textContent ?? '';
        if (text) inlines.push(...textInlines(text, scaled(runStyle)));
      } else if (child.nodeName === 'a:br') inlines.push({ kind: 'break', style: scaled(style) });
    }
    const endStyle = applyRun(kid(p, 'a:endParaRPr'), style);
    if (!inlines.length) inlines.push({ kind: 'text', text: '', style: scaled(endStyle) });
    const textSize = inlines.find((i) => i.kind === 'text')?.style.size ?? style.size * fontScale;
    const points = (spacing: Spacing) => ('points' in spacing ? spacing.points * fontScale : spacing.percent * textSize);
    blocks.push(makeParagraph(inlines, {
      align,
      indentLeft: marginLeft,
      firstLine: indent,
      spaceBefore: points(spaceBefore),
      spaceAfter: points(spaceAfter),
      lineSpacing: { rule: 'ofSize', value: lineSpacing * (1 - spacingReduction) },
      marker: bullet && inlines.some((i) => i.kind === 'text' && i.text) ? { text: bullet.charCodeAt(0) >= 0xf000 ? '•' : bullet, style: scaled(style) } : undefined,
      noWrap,
    }));
  }
  const width = Math.max(4, box.width - left - right);
  const laid = await Promise.all(blocks.map((b) => layoutParagraph(b as Paragraph, width, env.ctx)));
  const height = laid.reduce((sum, l, i) => sum + l.height + (i > 0 ? l.paragraph.spaceBefore : 0) + (i < laid.length - 1 ? l.paragraph.spaceAfter : 0), 0);
  const free = box.height - topInset - bottom - height;
  const start = box.y + topInset + (anchor === 'ctr' ? free / 2 : anchor === 'b' ? free : 0);
  return (page, originLeft, originTop, dctx) => {
    let y = originTop - start;
    laid.forEach((l, i) => {
      if (i > 0) y -= l.paragraph.spaceBefore;
      l.lines.forEach((line, index) => {
        drawLine(page, l, index, originLeft + box.x + left, y, dctx);
        y -= line.height;
      });
      y -= l.paragraph.spaceAfter;
    });
  };
}

/**
 * Prepares a tree of DrawingML elements — shapes, connectors and group shapes (their children
 * mapped from the group's child space), mc:AlternateContent by its fallback — painted in order.
 * Anything else goes to env.other.
 */
export async function prepareShapes(elements: XmlElement[], transform: Transform, env: ShapeEnv): Promise<Painter> {
  const painters: Painter[] = [];
  for (const element of elements) {
    const name = localName(element);
    let painter: Painter | undefined;
    if (name === 'sp' || name === 'cxnSp') {
      const box = ownBox(element);
      painter = box ? await prepareShape(element, transform(box), env) : undefined;
    } else if (name === 'grpSp') {
      painter = await prepareShapes(kids(element), groupTransform(element, transform), env);
    } else if (name === 'AlternateContent') {
      const choice = kid(element, 'mc:Fallback');
      painter = choice ? await prepareShapes(kids(choice), transform, env) : undefined;
    } else if (env.other && !['nvGrpSpPr', 'grpSpPr', 'nvSpPr', 'spPr', 'style', 'txBody', 'extLst'].includes(name)) {
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
      const paint = await prepareShapes(elements, fitTransform(source, { x: 0, y: 0, width, height }), { ...env, ctx, textScale: (env.textScale ?? 1) * scale });
      return (page, x, bottom) => paint(page, x, bottom + height, { pageNumber: 1, pageCount: 1 });
    },
  };
}
