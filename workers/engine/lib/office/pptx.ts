/**
 * Renders a .pptx: one PDF page per slide at the presentation's size, with the slide's background,
 * shapes (rectangles, rounded rectangles, ellipses, lines) with their fills and outlines, pictures,
 * tables and text boxes. Placeholders take their position and text style from the slide layout and
 * master, theme colours are resolved through the master's colour map, and autofit scaling is applied.
 * Charts are drawn by chart.ts in their frames; SmartArt from its pre-rendered drawing part.
 */
import type JSZip from 'jszip';
import { PDFDocument, clip, endPath, popGraphicsState, pushGraphicsState, rectangle, rgb } from 'pdf-lib';
import type { Block, Border, Inline, Paragraph, Rgb, RunStyle, Table, TableCell, TableRow } from './model.ts';
import { lineOf, readTableStyles, styleCell, tableFlags } from './pptx-table-style.ts';
import { paragraph as makeParagraph } from './model.ts';
import { attr, find, hexColor, imageMime, kid, kids, num, parseXml, readRels, zipText, type XmlElement } from './xml.ts';
import { drawLine, layoutParagraph, type TextContext } from './text.ts';
import { measureBlocks, type OutlineEntry } from './flow.ts';
import { throwIfAborted } from '../errors.ts';
import { layoutChart, type ChartTheme } from './chart.ts';
import { readChartFrame, smartArtTree } from './graphics.ts';

const EMU = 1 / 12700;

interface Part {
  path: string;
  root: XmlElement;
  rels: Awaited<ReturnType<typeof readRels>>;
}

interface Theme {
  colors: Record<string, Rgb>;
  majorFont: string;
  minorFont: string;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function readPart(zip: JSZip, path: string): Promise<Part | undefined> {
  const text = await zipText(zip, path);
  if (!text) return undefined;
  return { path, root: parseXml(text), rels: await readRels(zip, path) };
}

function relTarget(part: Part, typeSuffix: string): string | undefined {
  for (const rel of part.rels.values()) if (rel.type.endsWith(typeSuffix)) return rel.target;
  return undefined;
}

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
function applyModifiers(color: Rgb, element: XmlElement): Rgb {
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
    }
  }
  return [clamp(r), clamp(g), clamp(b)];
}

export interface PptxResult {
  pages: number;
  notes: string[];
  /** Each slide's title, for the PDF's bookmarks. */
  outline: OutlineEntry[];
}

export async function renderPptx(zip: JSZip, doc: PDFDocument, ctx: TextContext, options: { signal?: AbortSignal; progress?: (done: number, total: number) => void; slides?: (count: number) => number[] }): Promise<PptxResult> {
  const notes = new Set<string>();
  const presentation = await readPart(zip, 'ppt/presentation.xml');
  const tableStyles = readTableStyles(await zipText(zip, 'ppt/tableStyles.xml'));
  if (!presentation) throw new Error('ppt/presentation.xml is missing');
  const size = kid(presentation.root, 'p:sldSz');
  const slideWidth = (num(size, 'cx') ?? 9144000) * EMU;
  const slideHeight = (num(size, 'cy') ?? 6858000) * EMU;

  // Theme.
  const theme: Theme = { colors: {}, majorFont: 'Calibri', minorFont: 'Calibri' };
  const themePath = relTarget(presentation, '/theme');
  const themePart = themePath ? await readPart(zip, themePath) : undefined;
  if (themePart) {
    const scheme = find(themePart.root, 'a:clrScheme');
    for (const entry of kids(scheme)) {
      const srgb = kid(entry, 'a:srgbClr');
      const sys = kid(entry, 'a:sysClr');
      const color = hexColor(attr(srgb, 'val') ?? attr(sys, 'lastClr'));
      if (color) theme.colors[entry.nodeName.replace('a:', '')] = color;
    }
    theme.majorFont = attr(find(find(themePart.root, 'a:majorFont'), 'a:latin'), 'typeface') ?? theme.majorFont;
    theme.minorFont = attr(find(find(themePart.root, 'a:minorFont'), 'a:latin'), 'typeface') ?? theme.minorFont;
  }

  const slideIds = kids(kid(presentation.root, 'p:sldIdLst'), 'p:sldId');
  const slidePaths = slideIds.map((s) => presentation.rels.get(attr(s, 'r:id') ?? '')?.target).filter((p): p is string => Boolean(p));
  const chosen = options.slides ? options.slides(slidePaths.length) : slidePaths.map((_, i) => i + 1);

  let done = 0;
  const outline: OutlineEntry[] = [];
  for (const slideNumber of chosen) {
    throwIfAborted(options.signal);
    const slide = await readPart(zip, slidePaths[slideNumber - 1]);
    if (!slide) continue;
    const layoutPath = relTarget(slide, '/slideLayout');
    const layout = layoutPath ? await readPart(zip, layoutPath) : undefined;
    const masterPath = layout ? relTarget(layout, '/slideMaster') : undefined;
    const master = masterPath ? await readPart(zip, masterPath) : undefined;

    // Colour map of the master: bg1 → lt1, tx1 → dk1…
    const clrMap = kid(master?.root, 'p:clrMap');
    const mapped = (name: string) => attr(clrMap, name) ?? ({ bg1: 'lt1', tx1: 'dk1', bg2: 'lt2', tx2: 'dk2' } as Record<string, string>)[name] ?? name;
    const colorOf = (fillParent: XmlElement | undefined): Rgb | undefined => {
      if (!fillParent) return undefined;
      const srgb = kid(fillParent, 'a:srgbClr');
      if (srgb) return applyModifiers(hexColor(attr(srgb, 'val')) ?? [0, 0, 0], srgb);
      const scheme = kid(fillParent, 'a:schemeClr');
      if (scheme) {
        const base = theme.colors[mapped(attr(scheme, 'val') ?? '')];
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
    const solidFill = (spPr: XmlElement | undefined): Rgb | 'none' | undefined => {
      if (!spPr) return undefined;
      if (kid(spPr, 'a:noFill')) return 'none';
      const fill = kid(spPr, 'a:solidFill');
      return fill ? colorOf(fill) : undefined;
    };

    const page = doc.addPage([slideWidth, slideHeight]);

    // Background: slide, then layout, then master.
    let background: Rgb | undefined;
    for (const part of [slide, layout, master]) {
      const bgPr = find(part?.root, 'p:bgPr');
      const fill = bgPr ? solidFill(bgPr) : undefined;
      if (fill && fill !== 'none') { background = fill; break; }
      const bgRef = find(part?.root, 'p:bgRef');
      if (bgRef) { background = colorOf(bgRef); if (background) break; }
      if (bgPr && kid(bgPr, 'a:blipFill')) { notes.add('picture backgrounds were replaced by white'); break; }
    }
    page.drawRectangle({ x: 0, y: 0, width: slideWidth, height: slideHeight, color: rgb(...(background ?? [1, 1, 1])) });

    // Placeholders of the layout and master, by type and index.
    const placeholderKey = (ph: XmlElement | undefined) => (ph ? { type: attr(ph, 'type') ?? 'body', idx: attr(ph, 'idx') } : undefined);
    const findPlaceholder = (part: Part | undefined, key: { type: string; idx?: string }): XmlElement | undefined => {
      const shapes = part ? Array.from(part.root.getElementsByTagName('p:sp')) as XmlElement[] : [];
      const withPh = shapes.map((sp) => ({ sp, ph: placeholderKey(find(sp, 'p:ph')) })).filter((s) => s.ph);
      return (
        withPh.find((s) => key.idx !== undefined && s.ph!.idx === key.idx)?.sp ??
        withPh.find((s) => s.ph!.type === key.type || (['title', 'ctrTitle'].includes(key.type) && ['title', 'ctrTitle'].includes(s.ph!.type)))?.sp
      );
    };

    const xfrmBox = (xfrm: XmlElement | undefined): Box | undefined => {
      const off = kid(xfrm, 'a:off');
      const ext = kid(xfrm, 'a:ext');
      if (!off || !ext) return undefined;
      return { x: (num(off, 'x') ?? 0) * EMU, y: (num(off, 'y') ?? 0) * EMU, width: (num(ext, 'cx') ?? 0) * EMU, height: (num(ext, 'cy') ?? 0) * EMU };
    };

    const textStyleFor = (phType: string | undefined) => {
      const txStyles = kid(master?.root, 'p:txStyles');
      if (!phType) return kid(txStyles, 'p:otherStyle');
      if (phType === 'title' || phType === 'ctrTitle') return kid(txStyles, 'p:titleStyle');
      if (['body', 'subTitle', 'obj'].includes(phType)) return kid(txStyles, 'p:bodyStyle');
      return kid(txStyles, 'p:otherStyle');
    };

    type Transform = (box: Box) => Box;
    const identity: Transform = (box) => box;

    /** Where an element sits: its own xfrm, else its placeholder's on the layout, else on the master. */
    const placedBox = (el: XmlElement, spPrTag: string) => {
      const ph = placeholderKey(find(kid(el, 'p:nvSpPr') ?? kid(el, 'p:nvPicPr') ?? kid(el, 'p:nvCxnSpPr'), 'p:ph'));
      const layoutSp = ph ? findPlaceholder(layout, ph) : undefined;
      const masterSp = ph ? findPlaceholder(master, ph) : undefined;
      const box = xfrmBox(kid(kid(el, spPrTag), 'a:xfrm')) ?? xfrmBox(kid(kid(layoutSp, 'p:spPr'), 'a:xfrm')) ?? xfrmBox(kid(kid(masterSp, 'p:spPr'), 'a:xfrm'));
      return { ph, layoutSp, masterSp, box };
    };

    const drawShape = async (sp: XmlElement, transform: Transform) => {
      const { ph, layoutSp, masterSp, box: box0 } = placedBox(sp, 'p:spPr');
      const spPr = kid(sp, 'p:spPr');
      if (!box0) return;
      const box = transform(box0);
      const top = slideHeight - box.y;

      // Geometry.
      const geometry = attr(kid(spPr, 'a:prstGeom'), 'prst') ?? (kid(spPr, 'a:custGeom') ? 'rect' : undefined);
      const styleEl = kid(sp, 'p:style');
      let fill = solidFill(spPr);
      if (fill === undefined && styleEl) fill = colorOf(kid(styleEl, 'a:fillRef'));
      const ln = kid(spPr, 'a:ln');
      let stroke: Rgb | 'none' | undefined = ln ? solidFill(ln) : undefined;
      if (stroke === undefined && styleEl && !(ln && kid(ln, 'a:noFill'))) stroke = colorOf(kid(styleEl, 'a:lnRef'));
      const strokeWidth = Math.max(0.5, (num(ln, 'w') ?? 9525) * EMU);
      const fillColor = fill && fill !== 'none' ? rgb(...fill) : undefined;
      const strokeColor = stroke && stroke !== 'none' ? rgb(...stroke) : undefined;
      if (geometry && (fillColor || strokeColor)) {
        if (geometry === 'ellipse') {
          page.drawEllipse({ x: box.x + box.width / 2, y: top - box.height / 2, xScale: box.width / 2, yScale: box.height / 2, color: fillColor, borderColor: strokeColor, borderWidth: strokeColor ? strokeWidth : 0 });
        } else if (geometry === 'line' || geometry.startsWith('straightConnector')) {
          const flipV = attr(kid(spPr, 'a:xfrm'), 'flipV') === '1';
          page.drawLine({ start: { x: box.x, y: flipV ? top - box.height : top }, end: { x: box.x + box.width, y: flipV ? top : top - box.height }, thickness: strokeWidth, color: strokeColor ?? rgb(0, 0, 0) });
        } else {
          if (!['rect', 'roundRect', 'snip1Rect', 'flowChartProcess', 'flowChartAlternateProcess'].includes(geometry)) notes.add('some shapes were drawn as rectangles');
          page.drawRectangle({ x: box.x, y: top - box.height, width: box.width, height: box.height, color: fillColor, borderColor: strokeColor, borderWidth: strokeColor ? strokeWidth : 0 });
        }
      }

      // Text.
      const txBody = kid(sp, 'p:txBody');
      if (!txBody) return;
      const bodyPr = kid(txBody, 'a:bodyPr');
      const layoutBodyPr = kid(kid(layoutSp, 'p:txBody'), 'a:bodyPr');
      const masterBodyPr = kid(kid(masterSp, 'p:txBody'), 'a:bodyPr');
      const inset = (name: string, fallback: number) => (num(bodyPr, name) ?? num(layoutBodyPr, name) ?? num(masterBodyPr, name) ?? fallback) * EMU;
      const left = inset('lIns', 91440), right = inset('rIns', 91440), topInset = inset('tIns', 45720), bottom = inset('bIns', 45720);
      const anchor = attr(bodyPr, 'anchor') ?? attr(layoutBodyPr, 'anchor') ?? attr(masterBodyPr, 'anchor') ?? (ph && ['title', 'ctrTitle'].includes(ph.type) ? 'ctr' : 't');
      const autofit = kid(bodyPr, 'a:normAutofit');
      const fontScale = (num(autofit, 'fontScale') ?? 100000) / 100000;
      const spacingReduction = (num(autofit, 'lnSpcReduction') ?? 0) / 100000;
      const noWrap = attr(bodyPr, 'wrap') === 'none';

      // Level properties, most specific last.
      const levelSources = [textStyleFor(ph?.type), kid(kid(masterSp, 'p:txBody'), 'a:lstStyle'), kid(kid(layoutSp, 'p:txBody'), 'a:lstStyle'), kid(txBody, 'a:lstStyle')];
      const isBody = ph !== undefined && !['title', 'ctrTitle', 'sldNum', 'dt', 'ftr'].includes(ph.type);
      const styleDefaults = styleEl ? colorOf(kid(styleEl, 'a:fontRef')) : undefined;

      const blocks: Block[] = [];
      for (const p of kids(txBody, 'a:p')) {
        const pPr = kid(p, 'a:pPr');
        const level = num(pPr, 'lvl') ?? 0;
        const levelProps = [...levelSources.map((s) => kid(s, `a:lvl${level + 1}pPr`)), pPr].filter((e): e is XmlElement => Boolean(e));
        let style: RunStyle = { size: 18, font: theme.minorFont, color: styleDefaults ?? theme.colors[mapped('tx1')] ?? [0, 0, 0] };
        let align: Paragraph['align'] = 'left';
        let bullet: string | undefined;
        let marginLeft = 0;
        let indent = 0;
        let lineSpacing = 1;
        let spaceBefore = 0;
        let spaceAfter = 0;
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
          if (fill) next.color = colorOf(fill) ?? next.color;
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
          const before = num(kid(kid(props, 'a:spcBef'), 'a:spcPts'), 'val');
          if (before !== undefined) spaceBefore = before / 100;
          const after = num(kid(kid(props, 'a:spcAft'), 'a:spcPts'), 'val');
          if (after !== undefined) spaceAfter = after / 100;
        }
        if (!isBody && !pPr?.getElementsByTagName('a:buChar').length) bullet = ph ? undefined : bullet;
        const inlines: Inline[] = [];
        for (const child of kids(p)) {
          if (child.nodeName === 'a:r' || child.nodeName === 'a:fld') {
            const runStyle = applyRun(kid(child, 'a:rPr'), style);
            const text = kid(child, 'a:t')?.textContent ?? '';
            if (text) inlines.push({ kind: 'text', text, style: { ...runStyle, size: runStyle.size * fontScale } });
          } else if (child.nodeName === 'a:br') inlines.push({ kind: 'break', style: { ...style, size: style.size * fontScale } });
        }
        const endStyle = applyRun(kid(p, 'a:endParaRPr'), style);
        if (!inlines.length) inlines.push({ kind: 'text', text: '', style: { ...endStyle, size: endStyle.size * fontScale } });
        blocks.push(makeParagraph(inlines, {
          align,
          indentLeft: marginLeft,
          firstLine: indent,
          spaceBefore: spaceBefore * fontScale,
          spaceAfter: spaceAfter * fontScale,
          lineSpacing: { rule: 'auto', value: lineSpacing * (1 - spacingReduction) * 0.9 },
          marker: bullet && inlines.some((i) => i.kind === 'text' && i.text) ? { text: bullet.charCodeAt(0) >= 0xf000 ? '•' : bullet, style: { ...style, size: style.size * fontScale } } : undefined,
          noWrap,
        }));
      }
      const width = Math.max(4, box.width - left - right);
      const laid = await Promise.all(blocks.map((b) => layoutParagraph(b as Paragraph, width, ctx)));
      const height = laid.reduce((sum, l, i) => sum + l.height + (i > 0 ? l.paragraph.spaceBefore : 0) + (i < laid.length - 1 ? l.paragraph.spaceAfter : 0), 0);
      const free = box.height - topInset - bottom - height;
      let y = top - topInset - (anchor === 'ctr' ? free / 2 : anchor === 'b' ? free : 0);
      laid.forEach((l, i) => {
        if (i > 0) y -= l.paragraph.spaceBefore;
        l.lines.forEach((line, index) => {
          drawLine(page, l, index, box.x + left, y, { pageNumber: slideNumber, pageCount: slidePaths.length });
          y -= line.height;
        });
        y -= l.paragraph.spaceAfter;
      });
    };

    /** Draws a picture into its box, cropped by its srcRect (fractions in 1/1000 %). */
    const drawPictureIn = async (part: Part, pic: XmlElement, box: Box) => {
      const id = attr(find(pic, 'a:blip'), 'r:embed');
      const target = id ? part.rels.get(id)?.target : undefined;
      if (!target) return;
      const mime = imageMime(target);
      const file = zip.file(target);
      if (!mime || !file) {
        if (!mime) notes.add(`pictures in ${target.split('.').pop()?.toUpperCase()} format were left out`);
        return;
      }
      let image;
      try {
        image = await ctx.images.get(await file.async('uint8array'), mime);
      } catch {
        notes.add('a picture could not be read');
        return;
      }
      const crop = find(pic, 'a:srcRect');
      const [l, t, r, b] = ['l', 't', 'r', 'b'].map((side) => (num(crop, side) ?? 0) / 100000);
      const fullWidth = box.width / Math.max(0.01, 1 - l - r);
      const fullHeight = box.height / Math.max(0.01, 1 - t - b);
      const bottom = slideHeight - box.y - box.height;
      const cropped = l || t || r || b;
      if (cropped) page.pushOperators(pushGraphicsState(), rectangle(box.x, bottom, box.width, box.height), clip(), endPath());
      page.drawImage(image, { x: box.x - l * fullWidth, y: bottom - b * fullHeight, width: fullWidth, height: fullHeight });
      if (cropped) page.pushOperators(popGraphicsState());
    };

    const drawPicture = async (pic: XmlElement, transform: Transform) => {
      const { box } = placedBox(pic, 'p:spPr');
      if (box) await drawPictureIn(slide, pic, transform(box));
    };

    const drawTable = async (frame: XmlElement, transform: Transform) => {
      const box0 = xfrmBox(kid(frame, 'p:xfrm'));
      const tbl = find(frame, 'a:tbl');
      if (!box0 || !tbl) return;
      const box = transform(box0);
      const widths = kids(kid(tbl, 'a:tblGrid'), 'a:gridCol').map((c) => (num(c, 'w') ?? 0) * EMU);
      // The table's style (or the presentation's default style) and its header/banding flags.
      const tblPr = kid(tbl, 'a:tblPr');
      const styleId = kid(tblPr, 'a:tableStyleId')?.textContent?.trim() || tableStyles.defaultId;
      const style = styleId ? tableStyles.byId.get(styleId) : undefined;
      const flags = tableFlags(tblPr);
      const trs = kids(tbl, 'a:tr');
      const rows: TableRow[] = trs.map((tr, rowIndex) => {
        let column = 0;
        const cells: Array<TableCell & { column: number }> = [];
        for (const tc of kids(tr, 'a:tc')) {
          const span = num(tc, 'gridSpan') ?? 1;
          const start = column;
          column += span;
          if (attr(tc, 'hMerge') === '1' || attr(tc, 'vMerge') === '1') continue;
          const tcPr = kid(tc, 'a:tcPr');
          const styled = styleCell(style, flags, rowIndex, start, trs.length, widths.length, colorOf);
          const text = kids(kid(tc, 'a:txBody'), 'a:p').map((p) => makeParagraph(
            kids(p, 'a:r').map((r): Inline => {
              const rPr = kid(r, 'a:rPr');
              const flag = (name: string, fallback: boolean | undefined) => (attr(rPr, name) === undefined ? fallback : attr(rPr, name) === '1');
              return { kind: 'text', text: kid(r, 'a:t')?.textContent ?? '', style: { size: (num(rPr, 'sz') ?? 1800) / 100, font: theme.minorFont, bold: flag('b', styled.bold), italic: flag('i', styled.italic), color: colorOf(kid(rPr, 'a:solidFill')) ?? styled.color ?? theme.colors[mapped('tx1')] } };
            }),
            { align: ({ ctr: 'center', r: 'right', just: 'justify' } as const)[attr(kid(p, 'a:pPr'), 'algn') ?? ''] ?? 'left' },
          ));
          // The cell's own fill, lines, anchor and margins win over the style.
          const fill = solidFill(tcPr);
          const side = (own: string, fromStyle: Border | null | undefined) => {
            const line = lineOf(kid(tcPr, own), colorOf);
            const border = line === undefined ? fromStyle : line;
            return border ?? undefined;
          };
          const margin = (name: string, fallback: number) => (num(tcPr, name) ?? fallback) * EMU;
          const anchor = attr(tcPr, 'anchor');
          cells.push({
            column: start,
            colSpan: span,
            rowSpan: num(tc, 'rowSpan') ?? 1,
            blocks: text,
            shading: fill === 'none' ? undefined : fill ?? styled.fill,
            borders: { top: side('a:lnT', styled.borders.top), bottom: side('a:lnB', styled.borders.bottom), left: side('a:lnL', styled.borders.left), right: side('a:lnR', styled.borders.right) },
            verticalAlign: anchor === 'ctr' ? 'middle' : anchor === 'b' ? 'bottom' : 'top',
            padding: { top: margin('marT', 45720), bottom: margin('marB', 45720), left: margin('marL', 91440), right: margin('marR', 91440) },
          });
        }
        return { cells, minHeight: (num(tr, 'h') ?? 0) * EMU };
      });
      const table: Table = { kind: 'table', columnWidths: widths, rows, indentLeft: 0, align: 'left' };
      const measured = await measureBlocks([table], box.width, ctx);
      measured.draw(page, box.x, slideHeight - box.y, { pageNumber: slideNumber, pageCount: slidePaths.length });
    };

    const chartTheme: ChartTheme = { accents: [1, 2, 3, 4, 5, 6].map((i) => theme.colors[`accent${i}`]).filter(Boolean), font: theme.minorFont, color: colorOf };
    const drawTree = async (tree: XmlElement | undefined, transform: Transform) => {
      for (const child of kids(tree)) {
        if (child.nodeName === 'p:sp' || child.nodeName === 'p:cxnSp') await drawShape(child, transform);
        else if (child.nodeName === 'p:pic') await drawPicture(child, transform);
        else if (child.nodeName === 'p:graphicFrame') {
          const frameBox = xfrmBox(kid(child, 'p:xfrm'));
          if (find(child, 'a:tbl')) await drawTable(child, transform);
          else if (find(child, 'c:chart')) {
            const chart = frameBox ? await readChartFrame(zip, slide.rels, child, chartTheme) : undefined;
            if (chart && frameBox) {
              const box = transform(frameBox);
              (await layoutChart(chart, box.width, box.height, ctx)).draw(page, box.x, slideHeight - box.y);
            } else notes.add('a chart could not be read and was left out');
          } else {
            // SmartArt: its pre-rendered shapes, in the frame's coordinates.
            const tree = frameBox ? await smartArtTree(zip, slide.rels, child) : undefined;
            if (tree && frameBox) await drawTree(tree, (box) => transform({ ...box, x: frameBox.x + box.x, y: frameBox.y + box.y }));
            else notes.add('diagrams (SmartArt) without a pre-rendered drawing were left out');
          }
        } else if (child.nodeName === 'p:grpSp') {
          const xfrm = kid(kid(child, 'p:grpSpPr'), 'a:xfrm');
          const outer = xfrmBox(xfrm);
          const chOff = kid(xfrm, 'a:chOff');
          const chExt = kid(xfrm, 'a:chExt');
          if (!outer || !chOff || !chExt) { await drawTree(child, transform); continue; }
          const cx = (num(chOff, 'x') ?? 0) * EMU, cy = (num(chOff, 'y') ?? 0) * EMU;
          const sx = outer.width / Math.max(1e-6, (num(chExt, 'cx') ?? 1) * EMU);
          const sy = outer.height / Math.max(1e-6, (num(chExt, 'cy') ?? 1) * EMU);
          await drawTree(child, (box) => transform({ x: outer.x + (box.x - cx) * sx, y: outer.y + (box.y - cy) * sy, width: box.width * sx, height: box.height * sy }));
        } else if (child.nodeName === 'mc:AlternateContent') {
          await drawTree(kid(child, 'mc:Fallback'), transform);
        }
      }
    };

    // Master and layout decorations (not placeholders) lie under the slide's own shapes.
    const decorations = (part: Part | undefined) => {
      const tree = find(part?.root, 'p:spTree');
      return kids(tree).filter((el) => !find(el, 'p:ph'));
    };
    if (attr(slide.root, 'showMasterSp') !== '0') {
      for (const part of [master, layout]) {
        if (!part) continue;
        for (const el of decorations(part)) {
          if (el.nodeName === 'p:sp') await drawShape(el, identity);
          else if (el.nodeName === 'p:pic') await drawDecorationPicture(part, el);
        }
      }
    }
    /** A picture of the master or layout (a logo, a band): its image is found through that part's relationships. */
    async function drawDecorationPicture(part: Part, el: XmlElement) {
      const box = xfrmBox(kid(kid(el, 'p:spPr'), 'a:xfrm'));
      if (box) await drawPictureIn(part, el, box);
    }
    await drawTree(find(slide.root, 'p:spTree'), identity);
    const titleShape = (Array.from(slide.root.getElementsByTagName('p:sp')) as XmlElement[]).find((sp) => ['title', 'ctrTitle'].includes(attr(find(sp, 'p:ph'), 'type') ?? ''));
    const title = (titleShape ? (Array.from(titleShape.getElementsByTagName('a:t')) as XmlElement[]).map((t) => t.textContent ?? '').join(' ') : '').replace(/\s+/g, ' ').trim();
    outline.push({ level: 0, title: title || `Slide ${slideNumber}`, pageIndex: doc.getPageCount() - 1, top: slideHeight });
    options.progress?.(++done, chosen.length);
  }
  return { pages: chosen.length, notes: [...notes], outline };
}

