/**
 * DrawingML charts (`c:chartSpace` parts of .pptx, .xlsx and .docx files): `parseChart` reads a chart
 * part into a small model — title (or the automatic one), plots (bar/column clustered, stacked and
 * 100 %, line, area, pie, doughnut, scatter, bubble, radar; 3-D variants drawn flat), series names,
 * categories and values from the caches with their number formats, colours (the series' own fill,
 * else the theme's accents in order), axes (deleted, tick labels, number format, fixed or automatic
 * "nice" scale), gridlines, data labels and legend — and `layoutChart` turns a model and a box size
 * into drawing operations on pdf-lib primitives. Text is real text in the document's fonts, drawn
 * after the shapes: title, axis labels, legend, data labels. Unknown chart types draw a labelled frame.
 */
import { degrees, rgb, type PDFPage } from 'pdf-lib';
import SSF from 'ssf';
import type { Rgb } from '../model.ts';
import type { FontSpan } from '../fonts.ts';
import type { TextContext } from '../text.ts';
import { attr, find, findAll, hexColor, kid, kids, num, type XmlElement } from '../xml.ts';
import { colorResolver, readDrawingTheme } from '../shapes.ts';

const EMU = 1 / 12700;

export interface ChartTextStyle {
  font?: string;
  size: number;
  bold?: boolean;
  italic?: boolean;
  color: Rgb;
}

export interface ChartSeries {
  name: string;
  categories: string[];
  values: Array<number | null>;
  /** Scatter and bubble charts: x values (1, 2, 3… when the x values are text). */
  xValues?: Array<number | null>;
  sizes?: Array<number | null>;
  formatCode: string;
  fill: Rgb;
  /** Outline / line colour; undefined = no line. */
  line?: Rgb;
  lineWidth: number;
  /** Per-point fills (pie slices, varied colours, c:dPt). */
  pointFills: Rgb[];
  marker: boolean;
  dataLabels: DataLabels;
}

export interface DataLabels {
  value: boolean;
  percent: boolean;
  category: boolean;
  series: boolean;
  position?: string;
  formatCode?: string;
}

export type PlotType = 'bar' | 'line' | 'area' | 'pie' | 'doughnut' | 'scatter' | 'bubble' | 'radar';

export interface ChartPlot {
  type: PlotType;
  /** Bars: 'col' (vertical) or 'bar' (horizontal). */
  barDir: 'col' | 'bar';
  grouping: 'clustered' | 'standard' | 'stacked' | 'percentStacked';
  series: ChartSeries[];
  gapWidth: number;
  overlap: number;
  holeSize: number;
  firstSliceAngle: number;
  radarFilled: boolean;
  scatterLines: boolean;
  axisIds: string[];
  /** A 3-D kind (drawn flat; its axes are scaled as LibreOffice scales 3-D axes). */
  threeD: boolean;
}

export interface ChartAxis {
  id: string;
  kind: 'cat' | 'val' | 'date';
  position: 'b' | 'l' | 't' | 'r';
  deleted: boolean;
  labels: boolean;
  formatCode?: string;
  /** The format comes from the data (sourceLinked). */
  linked: boolean;
  min?: number;
  max?: number;
  majorUnit?: number;
  gridlines?: Rgb;
  line?: Rgb;
  /** Major tick marks across the axis line. */
  tickMark: 'out' | 'in' | 'cross' | 'none';
  reversed: boolean;
  title?: string;
  crossBetween?: 'between' | 'midCat';
}

export interface ChartModel {
  title?: string;
  titleStyle: ChartTextStyle;
  text: ChartTextStyle;
  plots: ChartPlot[];
  axes: ChartAxis[];
  legend?: { position: 'r' | 'l' | 't' | 'b' | 'tr' };
  /** Chart types read but not drawn (e.g. 'surface'). */
  unsupported: string[];
  /** The chart area's fill and outline. */
  background?: Rgb;
  border?: Rgb;
}

/** How a renderer resolves DrawingML colours: the theme's accents and a resolver for fill elements. */
export interface ChartTheme {
  accents: Rgb[];
  font?: string;
  /** Colour of an element holding a:srgbClr / a:schemeClr / a:sysClr / a:prstClr, with modifiers. */
  color(fillParent: XmlElement | undefined): Rgb | undefined;
  /** Word and Excel outline a chart area that has no outline of its own; PowerPoint does not. */
  defaultBorder?: boolean;
}

const DEFAULT_ACCENTS: Rgb[] = ['4472C4', 'ED7D31', 'A5A5A5', 'FFC000', '5B9BD5', '70AD47'].map((h) => hexColor(h)!);

/** A theme part (a:theme) as a ChartTheme, for renderers without their own colour resolver (docx, xlsx). */
export function themeFromXml(theme: XmlElement | undefined): ChartTheme {
  const drawing = readDrawingTheme(theme);
  // Office's default accents where the file has no theme.
  DEFAULT_ACCENTS.forEach((accent, i) => (drawing.colors[`accent${i + 1}`] ??= accent));
  const accents = [1, 2, 3, 4, 5, 6].map((i) => drawing.colors[`accent${i}`]);
  const font = attr(find(find(theme, 'a:minorFont'), 'a:latin'), 'typeface');
  return { accents, color: colorResolver(drawing), font };
}

/** The n-th automatic colour: accents 1–6, then darker, then lighter variants (as Excel cycles them). */
export function autoColor(theme: ChartTheme, index: number): Rgb {
  const base = theme.accents[index % 6] ?? DEFAULT_ACCENTS[index % 6];
  const round = Math.floor(index / 6) % 4;
  if (round === 0) return base;
  if (round === 1) return base.map((v) => v * 0.6) as Rgb;
  if (round === 2) return base.map((v) => 1 - (1 - v) * 0.6) as Rgb;
  return base.map((v) => v * 0.8) as Rgb;
}

// ---------------------------------------------------------------------------------------------
// Parsing

function flag(element: XmlElement | undefined, fallback = false): boolean {
  if (!element) return fallback;
  const value = attr(element, 'val');
  return value === undefined ? true : value === '1' || value === 'true';
}

/** Points of a c:strCache / c:numCache (or literal) by index. */
function cachePoints(cache: XmlElement | undefined): { count: number; points: Map<number, string>; formatCode?: string } {
  const points = new Map<number, string>();
  for (const pt of kids(cache, 'c:pt')) points.set(num(pt, 'idx') ?? points.size, kid(pt, 'c:v')?.textContent ?? '');
  const count = Math.max(num(kid(cache, 'c:ptCount'), 'val') ?? 0, ...[...points.keys()].map((k) => k + 1));
  return { count, points, formatCode: kid(cache, 'c:formatCode')?.textContent ?? undefined };
}

function dataCache(element: XmlElement | undefined): XmlElement | undefined {
  if (!element) return undefined;
  const ref = kid(element, 'c:numRef') ?? kid(element, 'c:strRef');
  if (ref) return kid(ref, 'c:numCache') ?? kid(ref, 'c:strCache');
  const multi = kid(element, 'c:multiLvlStrRef');
  if (multi) return kid(kid(multi, 'c:multiLvlStrCache'), 'c:lvl');
  return kid(element, 'c:numLit') ?? kid(element, 'c:strLit');
}

export function formatNumber(value: number, formatCode: string | undefined): string {
  try {
    return SSF.format(formatCode && formatCode !== '' ? formatCode : 'General', value);
  } catch {
    return String(value);
  }
}

function readNumbers(element: XmlElement | undefined): { values: Array<number | null>; formatCode: string; text: boolean } {
  const cache = dataCache(element);
  const { count, points, formatCode } = cachePoints(cache);
  const text = cache?.nodeName === 'c:strCache' || cache?.nodeName === 'c:strLit';
  const values = Array.from({ length: count }, (_, i) => {
    const raw = points.get(i);
    const n = raw === undefined || raw === '' ? NaN : Number(raw);
    return Number.isFinite(n) ? n : null;
  });
  return { values, formatCode: formatCode ?? 'General', text };
}

function readLabels(element: XmlElement | undefined): string[] {
  const cache = dataCache(element);
  const { count, points, formatCode } = cachePoints(cache);
  const numeric = cache?.nodeName === 'c:numCache' || cache?.nodeName === 'c:numLit';
  return Array.from({ length: count }, (_, i) => {
    const raw = points.get(i) ?? '';
    if (numeric && raw !== '' && Number.isFinite(Number(raw))) return formatNumber(Number(raw), formatCode);
    return raw;
  });
}

function textOf(element: XmlElement | undefined): string {
  return findAll(element, 'a:p').map((p) => findAll(p, 'a:t').map((t) => t.textContent ?? '').join('')).join(' ').replace(/\s+/g, ' ').trim();
}

function textStyle(txPr: XmlElement | undefined, base: ChartTextStyle, theme: ChartTheme): ChartTextStyle {
  const defRPr = find(txPr, 'a:defRPr');
  if (!defRPr) return base;
  const next = { ...base };
  const size = num(defRPr, 'sz');
  if (size) next.size = size / 100;
  if (attr(defRPr, 'b') !== undefined) next.bold = attr(defRPr, 'b') === '1';
  if (attr(defRPr, 'i') !== undefined) next.italic = attr(defRPr, 'i') === '1';
  const color = theme.color(kid(defRPr, 'a:solidFill'));
  if (color) next.color = color;
  const latin = attr(kid(defRPr, 'a:latin'), 'typeface');
  if (latin && !latin.startsWith('+')) next.font = latin;
  return next;
}

function lineOf(spPr: XmlElement | undefined, theme: ChartTheme): { color?: Rgb; none: boolean; width?: number } {
  const ln = kid(spPr, 'a:ln');
  if (!ln) return { none: false };
  const width = num(ln, 'w');
  return { none: Boolean(kid(ln, 'a:noFill')), color: theme.color(kid(ln, 'a:solidFill')), width: width !== undefined ? width * EMU : undefined };
}

function fillOf(spPr: XmlElement | undefined, theme: ChartTheme): Rgb | 'none' | undefined {
  if (!spPr) return undefined;
  if (kid(spPr, 'a:noFill')) return 'none';
  const solid = kid(spPr, 'a:solidFill');
  if (solid) return theme.color(solid);
  const stops = kids(kid(kid(spPr, 'a:gradFill'), 'a:gsLst'), 'a:gs');
  if (stops.length) return theme.color(stops[Math.floor(stops.length / 2)]);
  return undefined;
}

function readDataLabels(dLbls: XmlElement | undefined, inherited?: DataLabels): DataLabels {
  const base: DataLabels = inherited ?? { value: false, percent: false, category: false, series: false };
  if (!dLbls || kid(dLbls, 'c:delete') && flag(kid(dLbls, 'c:delete'))) return dLbls ? { value: false, percent: false, category: false, series: false } : base;
  const read = (name: string, fallback: boolean) => (kid(dLbls, name) ? flag(kid(dLbls, name)) : fallback);
  return {
    value: read('c:showVal', base.value),
    percent: read('c:showPercent', base.percent),
    category: read('c:showCatName', base.category),
    series: read('c:showSerName', base.series),
    position: attr(kid(dLbls, 'c:dLblPos'), 'val') ?? base.position,
    formatCode: attr(kid(dLbls, 'c:numFmt'), 'formatCode') ?? base.formatCode,
  };
}

const PLOT_TYPES: Record<string, PlotType> = {
  'c:barChart': 'bar', 'c:bar3DChart': 'bar', 'c:lineChart': 'line', 'c:line3DChart': 'line', 'c:stockChart': 'line',
  'c:areaChart': 'area', 'c:area3DChart': 'area', 'c:pieChart': 'pie', 'c:pie3DChart': 'pie', 'c:ofPieChart': 'pie',
  'c:doughnutChart': 'doughnut', 'c:scatterChart': 'scatter', 'c:bubbleChart': 'bubble', 'c:radarChart': 'radar',
};

/** Reads a chart part's root (c:chartSpace). */
export function parseChart(root: XmlElement, theme: ChartTheme): ChartModel {
  const chart = kid(root, 'c:chart') ?? root;
  const baseText = textStyle(kid(root, 'c:txPr'), { size: 10, color: [0, 0, 0], font: theme.font }, theme);
  const plotArea = kid(chart, 'c:plotArea');
  const plots: ChartPlot[] = [];
  const unsupported: string[] = [];
  let seriesIndex = 0;
  for (const element of kids(plotArea)) {
    if (!/^c:\w+Chart$/.test(element.nodeName)) continue;
    const type = PLOT_TYPES[element.nodeName];
    if (!type) {
      unsupported.push(element.nodeName.slice(2).replace(/Chart$/, '').replace(/3D$/, ''));
      continue;
    }
    const barDir = attr(kid(element, 'c:barDir'), 'val') === 'bar' ? 'bar' : 'col';
    const grouping = (attr(kid(element, 'c:grouping'), 'val') ?? (type === 'bar' ? 'clustered' : 'standard')) as ChartPlot['grouping'];
    const varyColors = flag(kid(element, 'c:varyColors'), false);
    const plotLabels = readDataLabels(kid(element, 'c:dLbls'));
    const plotMarkers = element.nodeName === 'c:lineChart' ? flag(kid(element, 'c:marker'), true) : true;
    const scatterStyle = attr(kid(element, 'c:scatterStyle'), 'val') ?? 'marker';
    const radarStyle = attr(kid(element, 'c:radarStyle'), 'val') ?? 'standard';
    const series: ChartSeries[] = [];
    for (const ser of kids(element, 'c:ser')) {
      const index = num(kid(ser, 'c:idx'), 'val') ?? seriesIndex;
      seriesIndex++;
      const tx = kid(ser, 'c:tx');
      const name = tx ? (readLabels(tx)[0] ?? kid(tx, 'c:v')?.textContent ?? '') : `Series ${index + 1}`;
      const spPr = kid(ser, 'c:spPr');
      const fill = fillOf(spPr, theme);
      const line = lineOf(spPr, theme);
      const auto = autoColor(theme, index);
      const isLine = type === 'line' || type === 'scatter' || (type === 'radar' && radarStyle !== 'filled');
      const values = readNumbers(kid(ser, type === 'scatter' || type === 'bubble' ? 'c:yVal' : 'c:val'));
      const categories = readLabels(kid(ser, type === 'scatter' || type === 'bubble' ? 'c:xVal' : 'c:cat'));
      let xValues: Array<number | null> | undefined;
      if (type === 'scatter' || type === 'bubble') {
        const x = readNumbers(kid(ser, 'c:xVal'));
        xValues = x.text || x.values.length === 0 ? values.values.map((_, i) => i + 1) : x.values;
      }
      const markerSymbol = attr(kid(kid(ser, 'c:marker'), 'c:symbol'), 'val');
      const pointFills: Rgb[] = [];
      const pointCount = values.values.length;
      if (varyColors && (type === 'pie' || type === 'doughnut' || element.getElementsByTagName('c:ser').length === 1)) {
        for (let i = 0; i < pointCount; i++) pointFills[i] = autoColor(theme, i);
      }
      for (const dPt of kids(ser, 'c:dPt')) {
        const i = num(kid(dPt, 'c:idx'), 'val');
        const pointFill = fillOf(kid(dPt, 'c:spPr'), theme);
        if (i !== undefined && pointFill && pointFill !== 'none') pointFills[i] = pointFill;
      }
      const seriesFill = fill && fill !== 'none' ? fill : isLine ? line.color ?? auto : auto;
      series.push({
        name,
        categories,
        values: values.values,
        xValues,
        sizes: type === 'bubble' ? readNumbers(kid(ser, 'c:bubbleSize')).values : undefined,
        formatCode: values.formatCode,
        fill: seriesFill,
        line: line.none ? undefined : line.color ?? (isLine ? seriesFill : undefined),
        lineWidth: line.width ?? (isLine ? 2.25 : 0.75),
        pointFills,
        marker: type === 'scatter' || type === 'line' || type === 'radar' ? markerSymbol !== undefined ? markerSymbol !== 'none' : plotMarkers && type !== 'radar' || radarStyle === 'marker' : false,
        dataLabels: readDataLabels(kid(ser, 'c:dLbls'), plotLabels),
      });
    }
    plots.push({
      type,
      threeD: element.nodeName.endsWith('3DChart'),
      barDir,
      grouping: type === 'bar' && grouping === 'standard' ? 'clustered' : grouping,
      series,
      gapWidth: num(kid(element, 'c:gapWidth'), 'val') ?? 150,
      overlap: num(kid(element, 'c:overlap'), 'val') ?? (grouping === 'stacked' || grouping === 'percentStacked' ? 100 : 0),
      holeSize: num(kid(element, 'c:holeSize'), 'val') ?? 50,
      firstSliceAngle: num(kid(element, 'c:firstSliceAng'), 'val') ?? 0,
      radarFilled: radarStyle === 'filled',
      scatterLines: /line|smooth/i.test(scatterStyle),
      axisIds: kids(element, 'c:axId').map((a) => attr(a, 'val') ?? ''),
    });
  }

  const axes: ChartAxis[] = [];
  for (const element of kids(plotArea)) {
    const kind = element.nodeName === 'c:catAx' ? 'cat' : element.nodeName === 'c:valAx' ? 'val' : element.nodeName === 'c:dateAx' ? 'date' : undefined;
    if (!kind) continue;
    const scaling = kid(element, 'c:scaling');
    const grid = kid(element, 'c:majorGridlines');
    const gridLine = grid ? lineOf(kid(grid, 'c:spPr'), theme) : undefined;
    const axisLine = lineOf(kid(element, 'c:spPr'), theme);
    const numFmt = kid(element, 'c:numFmt');
    const title = kid(element, 'c:title');
    axes.push({
      id: attr(kid(element, 'c:axId'), 'val') ?? '',
      kind,
      position: (attr(kid(element, 'c:axPos'), 'val') ?? 'b') as ChartAxis['position'],
      deleted: flag(kid(element, 'c:delete'), false),
      labels: (attr(kid(element, 'c:tickLblPos'), 'val') ?? 'nextTo') !== 'none',
      formatCode: attr(numFmt, 'formatCode'),
      linked: attr(numFmt, 'sourceLinked') === '1',
      min: num(kid(scaling, 'c:min'), 'val'),
      max: num(kid(scaling, 'c:max'), 'val'),
      majorUnit: num(kid(element, 'c:majorUnit'), 'val'),
      gridlines: grid && !gridLine?.none ? gridLine?.color ?? [0.85, 0.85, 0.85] : undefined,
      tickMark: (attr(kid(element, 'c:majorTickMark'), 'val') ?? 'cross') as ChartAxis['tickMark'],
      line: axisLine.none ? undefined : axisLine.color ?? [0.53, 0.53, 0.53],
      reversed: attr(kid(scaling, 'c:orientation'), 'val') === 'maxMin',
      title: title ? textOf(kid(kid(title, 'c:tx'), 'c:rich')) || undefined : undefined,
      crossBetween: attr(kid(element, 'c:crossBetween'), 'val') as ChartAxis['crossBetween'],
    });
  }

  // Title: its own text, else (an automatic title) the only series' name.
  let title: string | undefined;
  const titleEl = kid(chart, 'c:title');
  const allSeries = plots.flatMap((p) => p.series);
  if (titleEl) {
    const rich = kid(kid(titleEl, 'c:tx'), 'c:rich');
    const ref = kid(kid(titleEl, 'c:tx'), 'c:strRef');
    title = rich ? textOf(rich) : ref ? readLabels(kid(titleEl, 'c:tx'))[0] : allSeries.length === 1 ? allSeries[0].name : undefined;
  }
  const titleBase = { ...baseText, size: baseText.size * 1.2, bold: true };
  const titleStyle = textStyle(kid(titleEl, 'c:txPr'), textStyle(kid(kid(titleEl, 'c:tx'), 'c:rich'), titleBase, theme), theme);
  const legendEl = kid(chart, 'c:legend');
  const areaPr = kid(root, 'c:spPr');
  const areaFill = fillOf(areaPr, theme);
  const areaLine = lineOf(areaPr, theme);
  return {
    background: areaFill && areaFill !== 'none' ? areaFill : undefined,
    border: areaLine.none ? undefined : areaLine.color ?? (theme.defaultBorder ? [0.53, 0.53, 0.53] : undefined),
    title: title || undefined,
    titleStyle,
    text: baseText,
    plots,
    axes,
    legend: legendEl ? { position: (attr(kid(legendEl, 'c:legendPos'), 'val') ?? 'r') as NonNullable<ChartModel['legend']>['position'] } : undefined,
    unsupported,
  };
}

// ---------------------------------------------------------------------------------------------
// Scaling

export interface Scale {
  min: number;
  max: number;
  step: number;
}

/**
 * Automatic axis scaling as LibreOffice (and, closely, Excel) does it: at most `maxCount` intervals
 * on 1/2/5×10ⁿ steps; a range of positive values that is wide compared with its distance from zero
 * starts at zero (`includeZero` forces it); values close to the top get one more interval.
 */
export function niceScale(dataMin: number, dataMax: number, maxCount = 10, options: { includeZero?: boolean; expandToZero?: boolean; min?: number; max?: number; step?: number; expandNearBorder?: boolean } = {}): Scale {
  let min = Number.isFinite(dataMin) ? dataMin : 0;
  let max = Number.isFinite(dataMax) ? dataMax : 1;
  if (min > max) [min, max] = [max, min];
  if (options.includeZero) {
    min = Math.min(0, min);
    max = Math.max(0, max);
  } else if (options.expandToZero !== false) {
    if (min > 0 && min / max < 5 / 6) min = 0;
    if (max < 0 && max / min < 5 / 6) max = 0;
  }
  if (options.min !== undefined) min = options.min;
  if (options.max !== undefined) max = options.max;
  if (min === max) {
    if (min === 0) max = 1;
    else if (min > 0) { min = options.min ?? 0; if (min === max) max = min * 2; }
    else { max = options.max ?? 0; if (min === max) min = max * 2; }
  }
  maxCount = Math.max(1, Math.floor(maxCount));
  const round = (v: number) => Number(v.toPrecision(12));
  if (options.step && options.step > 0 && (max - min) / options.step <= 1000) {
    const step = options.step;
    return { min: options.min ?? round(Math.floor(min / step) * step), max: options.max ?? round(Math.ceil(max / step) * step), step };
  }
  const span = max - min;
  const rough = span >= 1 ? (Math.ceil(max) - Math.floor(min)) / maxCount : span / maxCount;
  let magnitude = 10 ** Math.floor(Math.log10(rough));
  const steps = [1, 2, 5];
  let k = steps.findIndex((s) => rough / magnitude <= s + 1e-9);
  if (k < 0) { k = 0; magnitude *= 10; }
  for (let guard = 0; guard < 40; guard++) {
    const step = steps[k] * magnitude;
    let lo = options.min ?? round(Math.floor(min / step + 1e-9) * step);
    let hi = options.max ?? round(Math.ceil(max / step - 1e-9) * step);
    if (hi <= lo) hi = round(lo + step);
    // Values close to the border: one more interval (not across zero).
    // (LibreOffice does not do this for 3-D charts.)
    if (options.expandNearBorder !== false) {
      if (options.max === undefined && max > 0 && (max - lo) / (hi - lo) > 20 / 21) hi = round(hi + step);
      if (options.min === undefined && min < 0 && lo !== 0 && (hi - min) / (hi - lo) > 20 / 21) lo = round(lo - step);
    }
    if ((hi - lo) / step <= maxCount + 1e-9) return { min: lo, max: hi, step };
    k++;
    if (k === steps.length) { k = 0; magnitude *= 10; }
  }
  return { min, max, step: span };
}

function ticks(scale: Scale): number[] {
  const out: number[] = [];
  const count = Math.round((scale.max - scale.min) / scale.step);
  for (let i = 0; i <= Math.min(count, 200); i++) out.push(Number((scale.min + i * scale.step).toPrecision(12)));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Drawing

interface Label {
  spans: Array<FontSpan & { width: number }>;
  width: number;
  ascent: number;
  lineHeight: number;
  style: ChartTextStyle;
}

type Op = (page: PDFPage, left: number, top: number) => void;

export interface ChartDrawing {
  /** Draws the chart with its box's top-left corner at (left, top) in PDF coordinates. */
  draw(page: PDFPage, left: number, top: number): void;
}

async function measure(text: string, style: ChartTextStyle, ctx: TextContext): Promise<Label> {
  const request = { family: style.font, bold: style.bold, italic: style.italic };
  const metrics = await ctx.fonts.metrics(request);
  const spans = (await ctx.fonts.spans(text, request)).map((s) => ({ ...s, width: s.font.widthOfTextAtSize(s.text, style.size) }));
  return { spans, width: spans.reduce((sum, s) => sum + s.width, 0), ascent: metrics.ascent * style.size, lineHeight: metrics.lineHeight * style.size, style };
}

/** Text whose box's top-left is at (x, y) in chart coordinates (y down). */
function textOp(label: Label, x: number, y: number): Op {
  return rotatedTextOp(label, x, y + label.ascent, 0);
}

/** Text from a baseline start point (x, y), turned `angle` degrees anticlockwise. */
function rotatedTextOp(label: Label, x: number, y: number, angle: number): Op {
  const cos = Math.cos((angle * Math.PI) / 180);
  const sin = Math.sin((angle * Math.PI) / 180);
  return (page, left, top) => {
    let cursor = 0;
    for (const span of label.spans) {
      if (span.text.trim()) {
        page.drawText(span.text, { size: label.style.size, font: span.font, color: rgb(...label.style.color), x: left + x + cursor * cos, y: top - y + cursor * sin, rotate: angle ? degrees(angle) : undefined });
      }
      cursor += span.width;
    }
  };
}

/** An SVG path in chart coordinates (y down). */
function pathOp(path: string, fill: Rgb | undefined, stroke?: Rgb, width = 0.75, opacity?: number): Op {
  return (page, left, top) => page.drawSvgPath(path, { x: left, y: top, color: fill ? rgb(...fill) : undefined, borderColor: stroke ? rgb(...stroke) : undefined, borderWidth: stroke ? width : 0, opacity, borderLineCap: 1 as never });
}

function rectOp(x: number, y: number, width: number, height: number, fill?: Rgb, stroke?: Rgb, strokeWidth = 0.75): Op {
  return (page, left, top) => page.drawRectangle({ x: left + x, y: top - y - height, width, height, color: fill ? rgb(...fill) : undefined, borderColor: stroke ? rgb(...stroke) : undefined, borderWidth: stroke ? strokeWidth : 0 });
}

function lineOp(x1: number, y1: number, x2: number, y2: number, color: Rgb, width = 0.75): Op {
  return (page, left, top) => page.drawLine({ start: { x: left + x1, y: top - y1 }, end: { x: left + x2, y: top - y2 }, thickness: width, color: rgb(...color) });
}

const f = (n: number) => (Math.round(n * 100) / 100).toString();

function polyline(points: Array<[number, number]>, close = false): string {
  return points.map(([x, y], i) => `${i ? 'L' : 'M'}${f(x)} ${f(y)}`).join(' ') + (close ? ' Z' : '');
}

function markerOp(x: number, y: number, color: Rgb, size = 5): Op {
  return rectOp(x - size / 2, y - size / 2, size, size, color);
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Lays a chart out in a width × height box; the result draws synchronously (fonts are loaded here). */
export async function layoutChart(model: ChartModel, width: number, height: number, ctx: TextContext): Promise<ChartDrawing> {
  const shapes: Op[] = [];
  const texts: Op[] = [];
  const legendOps: Op[] = [];
  const labelOps: Op[] = [];
  const pad = Math.max(4, Math.min(width, height) * 0.03);
  const area: Box = { x: pad, y: pad, w: Math.max(10, width - 2 * pad), h: Math.max(10, height - 2 * pad) };
  const whole = { ...area };
  const text = model.text;
  if (model.background || model.border) shapes.push(rectOp(0, 0, width, height, model.background, model.border, 0.75));

  // Title.
  if (model.title) {
    let label = await measure(model.title, model.titleStyle, ctx);
    if (label.width > area.w && label.width > 0) label = await measure(model.title, { ...model.titleStyle, size: Math.max(6, model.titleStyle.size * (area.w / label.width)) }, ctx);
    texts.push(textOp(label, area.x + (area.w - label.width) / 2, area.y));
    area.y += label.lineHeight + pad * 0.5;
    area.h -= label.lineHeight + pad * 0.5;
  }

  const plots = model.plots.filter((p) => p.series.length);
  if (!plots.length) {
    const label = await measure(model.unsupported.length ? `Chart not drawn (${model.unsupported.join(', ')} chart)` : 'Chart without data', { ...text, color: [0.4, 0.4, 0.4] }, ctx);
    shapes.push(rectOp(area.x, area.y, area.w, area.h, undefined, [0.6, 0.6, 0.6], 0.75));
    texts.push(textOp(label, area.x + Math.max(0, (area.w - label.width) / 2), area.y + (area.h - label.lineHeight) / 2));
    return finish();
  }

  // Legend.
  const first = plots[0];
  const pieLike = first.type === 'pie' || first.type === 'doughnut';
  const variedSingle = plots.length === 1 && first.series.length === 1 && first.series[0].pointFills.length > 0;
  if (model.legend) {
    const entries: Array<{ label: string; color: Rgb; line: boolean }> = [];
    if (pieLike || variedSingle) {
      const s = first.series[0];
      s.values.forEach((_, i) => entries.push({ label: s.categories[i] ?? String(i + 1), color: s.pointFills[i] ?? s.fill, line: false }));
    } else {
      for (const plot of plots) for (const s of plot.series) entries.push({ label: s.name, color: plot.type === 'line' || plot.type === 'scatter' || (plot.type === 'radar' && !plot.radarFilled) ? s.line ?? s.fill : s.fill, line: plot.type === 'line' || (plot.type === 'scatter' && plot.scatterLines) || (plot.type === 'radar' && !plot.radarFilled) });
      if (first.type === 'bar' && first.barDir === 'bar' && plots.length === 1) entries.reverse();
    }
    const labels = await Promise.all(entries.map((e) => measure(e.label, text, ctx)));
    const key = text.size * 0.7;
    const lh = 1.2 * text.size; // one DrawingML text line per entry
    const position = model.legend.position === 'tr' ? 'r' : model.legend.position;
    if (position === 'r' || position === 'l') {
      const legendWidth = Math.min(area.w * 0.45, key + 4 + Math.max(...labels.map((l) => l.width)));
      const total = lh * labels.length;
      const x = position === 'r' ? area.x + area.w - legendWidth : area.x;
      // Centred on the whole chart, title included (as LibreOffice places it), when it fits below the title.
      let y = Math.max(area.y, whole.y + (whole.h - total) / 2);
      if (y + total > area.y + area.h) y = area.y + Math.max(0, (area.h - total) / 2);
      labels.forEach((label, i) => {
        const entry = entries[i];
        legendOps.push(entry.line ? lineOp(x, y + lh / 2, x + key, y + lh / 2, entry.color, 2) : rectOp(x, y + (lh - key) / 2, key, key, entry.color));
        legendOps.push(textOp(label, x + key + 4, y + (lh - label.lineHeight) / 2));
        y += lh;
      });
      if (position === 'l') area.x += legendWidth + pad;
      area.w -= legendWidth + pad;
    } else {
      // Rows of entries, centred.
      const rows: number[][] = [[]];
      let used = 0;
      labels.forEach((label, i) => {
        const w = key + 4 + label.width + text.size;
        if (used + w > area.w && rows[rows.length - 1].length) { rows.push([]); used = 0; }
        rows[rows.length - 1].push(i);
        used += w;
      });
      const legendHeight = rows.length * lh;
      let y = position === 'b' ? area.y + area.h - legendHeight : area.y;
      for (const row of rows) {
        const rowWidth = row.reduce((sum, i) => sum + key + 4 + labels[i].width + text.size, 0) - text.size;
        let x = area.x + Math.max(0, (area.w - rowWidth) / 2);
        for (const i of row) {
          const entry = entries[i];
          legendOps.push(entry.line ? lineOp(x, y + lh / 2, x + key, y + lh / 2, entry.color, 2) : rectOp(x, y + (lh - key) / 2, key, key, entry.color));
          legendOps.push(textOp(labels[i], x + key + 4, y + (lh - labels[i].lineHeight) / 2));
          x += key + 4 + labels[i].width + text.size;
        }
        y += lh;
      }
      if (position === 't') area.y += legendHeight + pad * 0.5;
      area.h -= legendHeight + pad * 0.5;
    }
  }

  if (pieLike) await drawPie(first, area);
  else if (first.type === 'radar') await drawRadar(first, area);
  else await drawCartesian(area);
  return finish();

  function finish(): ChartDrawing {
    const ops = [...shapes, ...texts, ...legendOps, ...labelOps];
    return { draw: (page, left, top) => ops.forEach((op) => op(page, left, top)) };
  }

  async function dataLabel(series: ChartSeries, index: number, value: number, percent: number | undefined, x: number, y: number, anchor: 'center' | 'above' | 'right', plotType: PlotType) {
    const d = series.dataLabels;
    if (!d.value && !d.percent && !d.category && !d.series) return;
    const parts: string[] = [];
    if (d.series) parts.push(series.name);
    if (d.category) parts.push(series.categories[index] ?? '');
    if (d.value) parts.push(formatNumber(value, d.formatCode ?? series.formatCode));
    if (d.percent && percent !== undefined) parts.push(formatNumber(percent, '0%'));
    const label = await measure(parts.filter(Boolean).join(plotType === 'pie' || plotType === 'doughnut' ? '; ' : ', '), text, ctx);
    const lx = anchor === 'right' ? x + 3 : x - label.width / 2;
    const ly = anchor === 'above' ? y - label.lineHeight - 2 : y - label.lineHeight / 2;
    labelOps.push(textOp(label, lx, ly));
  }

  async function drawPie(plot: ChartPlot, box: Box) {
    const series = plot.series[0];
    const values = series.values.map((v) => Math.abs(v ?? 0));
    const total = values.reduce((a, b) => a + b, 0);
    const showOutside = series.dataLabels.position === 'outEnd' && (series.dataLabels.value || series.dataLabels.percent || series.dataLabels.category);
    const radius = Math.max(4, Math.min(box.w, box.h) / 2 - (showOutside ? text.size * 1.5 : 0)) * 0.95;
    const cx = box.x + box.w / 2;
    const cy = box.y + box.h / 2;
    const hole = plot.type === 'doughnut' ? radius * Math.min(0.9, Math.max(0.1, plot.holeSize / 100)) : 0;
    const point = (angle: number, r: number): [number, number] => [cx + r * Math.sin(angle), cy - r * Math.cos(angle)];
    let angle = (plot.firstSliceAngle * Math.PI) / 180;
    if (total <= 0) return;
    for (let i = 0; i < values.length; i++) {
      if (values[i] <= 0) continue;
      const sweep = (values[i] / total) * 2 * Math.PI;
      const color = series.pointFills[i] ?? series.fill;
      const end = angle + sweep;
      let path: string;
      if (sweep >= 2 * Math.PI - 1e-6) {
        const [tx, ty] = point(0, radius);
        const [bx, by] = point(Math.PI, radius);
        path = `M${f(tx)} ${f(ty)} A${f(radius)} ${f(radius)} 0 1 1 ${f(bx)} ${f(by)} A${f(radius)} ${f(radius)} 0 1 1 ${f(tx)} ${f(ty)} Z`;
        if (hole) {
          const [hx, hy] = point(0, hole);
          const [hbx, hby] = point(Math.PI, hole);
          path += ` M${f(hx)} ${f(hy)} A${f(hole)} ${f(hole)} 0 1 0 ${f(hbx)} ${f(hby)} A${f(hole)} ${f(hole)} 0 1 0 ${f(hx)} ${f(hy)} Z`;
        }
      } else {
        const large = sweep > Math.PI ? 1 : 0;
        const [x0, y0] = point(angle, radius);
        const [x1, y1] = point(end, radius);
        if (hole) {
          const [h1x, h1y] = point(end, hole);
          const [h0x, h0y] = point(angle, hole);
          path = `M${f(x0)} ${f(y0)} A${f(radius)} ${f(radius)} 0 ${large} 1 ${f(x1)} ${f(y1)} L${f(h1x)} ${f(h1y)} A${f(hole)} ${f(hole)} 0 ${large} 0 ${f(h0x)} ${f(h0y)} Z`;
        } else path = `M${f(cx)} ${f(cy)} L${f(x0)} ${f(y0)} A${f(radius)} ${f(radius)} 0 ${large} 1 ${f(x1)} ${f(y1)} Z`;
      }
      shapes.push(pathOp(path, color, [1, 1, 1], 0.75));
      const middle = angle + sweep / 2;
      const at = showOutside ? radius + text.size : hole ? (radius + hole) / 2 : radius * 0.65;
      const [lx, ly] = point(middle, at);
      await dataLabel(series, i, series.values[i] ?? 0, values[i] / total, lx, ly, 'center', plot.type);
      angle = end;
    }
  }

  async function drawRadar(plot: ChartPlot, box: Box) {
    const categories = plot.series[0].categories.length ? plot.series[0].categories : plot.series[0].values.map((_, i) => String(i + 1));
    const n = Math.max(3, categories.length);
    const catLabels = await Promise.all(categories.map((c) => measure(c, text, ctx)));
    const labelW = Math.max(0, ...catLabels.map((l) => l.width));
    const lh = catLabels[0]?.lineHeight ?? text.size * 1.2;
    const radius = Math.max(8, Math.min(box.w / 2 - labelW - 4, box.h / 2 - lh - 4));
    const cx = box.x + box.w / 2;
    const cy = box.y + box.h / 2;
    const values = plot.series.flatMap((s) => s.values).filter((v): v is number => v !== null);
    const axis = model.axes.find((a) => a.kind === 'val');
    const scale = niceScale(Math.min(...values), Math.max(...values), Math.min(10, Math.max(2, Math.floor(radius / (2 * text.size)))), { includeZero: true, min: axis?.min, max: axis?.max, step: axis?.majorUnit });
    const point = (i: number, v: number): [number, number] => {
      const r = ((v - scale.min) / (scale.max - scale.min || 1)) * radius;
      const a = (i / n) * 2 * Math.PI;
      return [cx + r * Math.sin(a), cy - r * Math.cos(a)];
    };
    const grid = axis?.gridlines ?? [0.85, 0.85, 0.85];
    for (const t of ticks(scale)) if (t > scale.min) shapes.push(pathOp(polyline(Array.from({ length: n }, (_, i) => point(i, t)), true), undefined, grid, 0.5));
    for (let i = 0; i < n; i++) shapes.push(lineOp(cx, cy, ...point(i, scale.max), grid, 0.5));
    for (const s of [...plot.series].reverse()) {
      const points = s.values.map((v, i) => point(i, v ?? scale.min));
      if (plot.radarFilled) shapes.push(pathOp(polyline(points, true), s.fill));
      else {
        shapes.push(pathOp(polyline(points, true), undefined, s.line ?? s.fill, s.lineWidth));
        if (s.marker) points.forEach(([x, y]) => shapes.push(markerOp(x, y, s.line ?? s.fill)));
      }
    }
    // Value labels up the first spoke, then the categories round the outside.
    const format = axis?.linked || !axis?.formatCode ? plot.series[0].formatCode : axis.formatCode;
    if (!axis?.deleted && axis?.labels !== false) {
      for (const t of ticks(scale)) {
        const label = await measure(formatNumber(t, format), text, ctx);
        const [, y] = point(0, t);
        texts.push(textOp(label, cx + 3, y - label.lineHeight / 2));
      }
    }
    catLabels.forEach((label, i) => {
      const a = (i / n) * 2 * Math.PI;
      const [x, y] = [cx + (radius + 4) * Math.sin(a), cy - (radius + 4) * Math.cos(a)];
      const sin = Math.sin(a);
      const lx = Math.abs(sin) < 0.1 ? x - label.width / 2 : sin > 0 ? x : x - label.width;
      const cos = Math.cos(a);
      const ly = Math.abs(cos) < 0.1 ? y - label.lineHeight / 2 : cos > 0 ? y - label.lineHeight : y;
      texts.push(textOp(label, lx, ly));
    });
  }

  async function drawCartesian(box: Box) {
    const xy = first.type === 'scatter' || first.type === 'bubble';
    const horizontal = first.type === 'bar' && first.barDir === 'bar';
    const valueAxis = model.axes.find((a) => a.kind === 'val' && (!xy || a.position === 'l' || a.position === 'r')) ?? model.axes.find((a) => a.kind === 'val');
    const categoryAxis = xy ? model.axes.find((a) => a.kind === 'val' && a !== valueAxis) : model.axes.find((a) => a.kind === 'cat' || a.kind === 'date');
    const categories = first.series.reduce<string[]>((best, s) => (s.categories.length > best.length ? s.categories : best), []);
    const count = Math.max(1, categories.length, ...plots.flatMap((p) => p.series.map((s) => s.values.length)));
    const percent = plots.some((p) => p.grouping === 'percentStacked');

    // Value range (stacks summed per category).
    let lo = Infinity;
    let hi = -Infinity;
    for (const plot of plots) {
      if (plot.type === 'scatter' || plot.type === 'bubble') {
        for (const s of plot.series) for (const v of s.values) if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      } else if (plot.grouping === 'stacked' || plot.grouping === 'percentStacked') {
        for (let i = 0; i < count; i++) {
          let pos = 0, neg = 0, abs = 0;
          for (const s of plot.series) { const v = s.values[i] ?? 0; if (v >= 0) pos += v; else neg += v; abs += Math.abs(v); }
          if (plot.grouping === 'percentStacked') { pos = abs ? pos / abs : 0; neg = abs ? neg / abs : 0; }
          lo = Math.min(lo, neg);
          hi = Math.max(hi, pos);
        }
      } else for (const s of plot.series) for (const v of s.values) if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    }
    if (!Number.isFinite(lo)) { lo = 0; hi = 1; }
    const includeZero = plots.some((p) => p.type === 'bar' || p.type === 'area');
    const valueFormat = percent ? '0%' : valueAxis?.formatCode && !(valueAxis.linked && valueAxis.formatCode === 'General') ? (valueAxis.linked ? first.series[0].formatCode : valueAxis.formatCode) : first.series[0].formatCode;
    const showValueLabels = !!valueAxis && !valueAxis.deleted && valueAxis.labels;
    const showCategoryLabels = !!categoryAxis && !categoryAxis.deleted && categoryAxis.labels;
    const lh = (await measure('0', text, ctx)).lineHeight;
    const scaleFor = async (length: number, along: 'x' | 'y', min: number, max: number, axis: ChartAxis | undefined, format: string, zero: boolean) => {
      // About one tick per text height (fitted to LibreOffice's output); 100 % axes go by tens.
      let maxCount = percent && axis === valueAxis ? 10 : Math.min(10, Math.max(2, Math.floor(length / (text.size * 1.06))));
      const fixed = { min: axis?.min ?? (percent && axis === valueAxis ? 0 : undefined), max: axis?.max ?? (percent && axis === valueAxis ? 1 : undefined), step: axis?.majorUnit, expandNearBorder: !plots.some((p) => p.threeD) };
      let scale = niceScale(min, max, maxCount, { includeZero: zero, expandToZero: axis === valueAxis, ...fixed });
      if (along === 'x') {
        for (let guard = 0; guard < 6; guard++) {
          // Labels side by side may nearly touch (as LibreOffice places them), not overlap.
          const widths = (await Promise.all(ticks(scale).map((t) => measure(formatNumber(t, format), text, ctx)))).map((l) => l.width);
          const fits = Math.floor(length / (0.9 * (widths.reduce((a, b) => a + b, 0) / widths.length)));
          if (fits >= (scale.max - scale.min) / scale.step || fixed.step || maxCount <= 1) break;
          maxCount = Math.max(1, fits);
          scale = niceScale(min, max, maxCount, { includeZero: zero, expandToZero: axis === valueAxis, ...fixed });
        }
      }
      return scale;
    };
    const valueTitle = valueAxis?.title && !valueAxis.deleted ? await measure(valueAxis.title, { ...text, bold: true }, ctx) : undefined;
    const categoryTitle = categoryAxis?.title && !categoryAxis.deleted ? await measure(categoryAxis.title, { ...text, bold: true }, ctx) : undefined;

    // Plot rectangle: leave room for the labels and axis titles.
    let plot: Box = { ...box };
    const verticalTitle = horizontal ? categoryTitle : valueTitle;
    const horizontalTitle = horizontal ? valueTitle : categoryTitle;
    if (verticalTitle) { plot.x += verticalTitle.lineHeight + 4; plot.w -= verticalTitle.lineHeight + 4; }
    if (horizontalTitle) plot.h -= horizontalTitle.lineHeight + 4;
    const xValues = xy ? plots.flatMap((p) => p.series.flatMap((s) => s.xValues ?? [])).filter((v): v is number => v !== null) : [];
    const xFormat = xy ? (categoryAxis?.formatCode && !categoryAxis.linked ? categoryAxis.formatCode : 'General') : 'General';

    // Category labels (or the x value axis of scatter charts), wrapped to their slots.
    const bottomLabelsShown = horizontal ? showValueLabels : showCategoryLabels;
    const leftLabelsShown = horizontal ? showCategoryLabels : showValueLabels;
    let yScale: Scale | undefined;
    let xScale: Scale | undefined;
    let leftLabels: Label[] = [];
    let bottomLines = 1;
    let catLabelLines: Label[][] = [];
    let every = 1;
    let rotatedLabels: Label[] | undefined;
    let bottomExtra = 0;
    for (let pass = 0; pass < 3; pass++) {
      const bottomHeight = bottomLabelsShown ? (bottomExtra || lh * bottomLines) + 4 : 0;
      const plotH = Math.max(10, box.h - bottomHeight - (horizontalTitle ? horizontalTitle.lineHeight + 4 : 0));
      if (horizontal) {
        leftLabels = showCategoryLabels ? await Promise.all(categories.map((c) => measure(c, text, ctx))) : [];
      } else {
        yScale = await scaleFor(plotH - lh / 2, 'y', lo, hi, valueAxis, valueFormat, includeZero);
        leftLabels = leftLabelsShown ? await Promise.all(ticks(yScale).map((t) => measure(formatNumber(t, valueFormat), text, ctx))) : [];
      }
      const leftWidth = leftLabelsShown ? Math.min(box.w * 0.4, Math.max(0, ...leftLabels.map((l) => l.width))) + 4 : 0;
      plot = { x: box.x + leftWidth + (verticalTitle ? verticalTitle.lineHeight + 4 : 0), y: box.y + lh / 2, w: Math.max(10, box.w - leftWidth - (verticalTitle ? verticalTitle.lineHeight + 4 : 0) - 2), h: Math.max(10, plotH - lh / 2) };
      if (horizontal) xScale = await scaleFor(plot.w, 'x', lo, hi, valueAxis, valueFormat, includeZero);
      else if (xy) xScale = await scaleFor(plot.w, 'x', Math.min(...xValues), Math.max(...xValues), categoryAxis, xFormat, false);
      else if (showCategoryLabels) {
        // Wrap category names at spaces to their slot's width; when even that is too wide, show every n-th.
        const slot = plot.w / count;
        catLabelLines = [];
        for (const c of categories) {
          const words = c.split(/\s+/).filter(Boolean);
          const lines: string[] = [];
          for (const word of words) {
            const last = lines[lines.length - 1];
            if (last !== undefined && (await measure(`${last} ${word}`, text, ctx)).width <= slot * 0.95) lines[lines.length - 1] = `${last} ${word}`;
            else lines.push(word);
          }
          catLabelLines.push(await Promise.all((lines.length ? lines : ['']).map((l) => measure(l, text, ctx))));
        }
        const widest = Math.max(0, ...catLabelLines.flat().map((l) => l.width));
        // Names that do not fit even wrapped are turned 45° (as LibreOffice and Excel do).
        if (widest > slot * 0.95 && count > 1) {
          rotatedLabels = await Promise.all(categories.map((c) => measure(c, text, ctx)));
          const longest = Math.max(0, ...rotatedLabels.map((l) => l.width));
          every = Math.max(1, Math.ceil((lh * 1.2) / slot));
          const needed = (Math.min(longest, box.h * 0.4) + lh) * Math.SQRT1_2;
          if (Math.abs(needed - bottomExtra) < 1) break;
          bottomExtra = needed;
          continue;
        }
        rotatedLabels = undefined;
        every = 1;
        const needed = Math.min(3, Math.max(1, ...catLabelLines.map((l) => l.length)));
        if (needed === bottomLines) break;
        bottomLines = needed;
        continue;
      }
      break;
    }

    const valueScale = horizontal ? xScale! : yScale!;
    const span = (s: Scale) => s.max - s.min || 1;
    const yOf = (v: number) => plot.y + plot.h - ((Math.min(Math.max(v, valueScale.min), valueScale.max) - valueScale.min) / span(valueScale)) * plot.h;
    const xOfValue = (v: number) => plot.x + ((Math.min(Math.max(v, valueScale.min), valueScale.max) - valueScale.min) / span(valueScale)) * plot.w;
    const midCat = (categoryAxis?.crossBetween ?? valueAxis?.crossBetween ?? (plots.every((p) => p.type === 'area') ? 'midCat' : 'between')) === 'midCat' && !plots.some((p) => p.type === 'bar');
    const reversed = categoryAxis?.reversed ?? false;
    /** Centre of category i along the category axis (x for columns, y for horizontal bars). */
    const catPos = (i: number) => {
      const j = reversed ? count - 1 - i : i;
      if (horizontal) return plot.y + plot.h - ((j + 0.5) / count) * plot.h;
      return midCat ? plot.x + (count > 1 ? (j / (count - 1)) * plot.w : plot.w / 2) : plot.x + ((j + 0.5) / count) * plot.w;
    };

    // Gridlines.
    if (valueAxis?.gridlines) {
      for (const t of ticks(valueScale)) {
        if (horizontal) shapes.push(lineOp(xOfValue(t), plot.y, xOfValue(t), plot.y + plot.h, valueAxis.gridlines, 0.5));
        else shapes.push(lineOp(plot.x, yOf(t), plot.x + plot.w, yOf(t), valueAxis.gridlines, 0.5));
      }
    }
    if (xy && categoryAxis?.gridlines && xScale) {
      for (const t of ticks(xScale)) {
        const x = plot.x + ((t - xScale.min) / span(xScale)) * plot.w;
        shapes.push(lineOp(x, plot.y, x, plot.y + plot.h, categoryAxis.gridlines, 0.5));
      }
    }

    // Series.
    const base = Math.min(Math.max(0, valueScale.min), valueScale.max);
    const barPlots = plots.filter((p) => p.type === 'bar');
    for (const p of plots) {
      if (p.type === 'bar') {
        const stacked = p.grouping !== 'clustered';
        const n = stacked ? 1 : p.series.length;
        const overlap = stacked ? 1 : Math.max(-1, Math.min(1, p.overlap / 100));
        const slot = (horizontal ? plot.h : plot.w) / count;
        const barWidth = slot / (n - (n - 1) * overlap + p.gapWidth / 100);
        const groupWidth = barWidth * (n - (n - 1) * overlap);
        const sums = Array.from({ length: count }, (_, i) => p.series.reduce((sum, s) => sum + Math.abs(s.values[i] ?? 0), 0));
        const pos = new Array<number>(count).fill(0);
        const neg = new Array<number>(count).fill(0);
        for (let k = 0; k < p.series.length; k++) {
          const s = p.series[k];
          for (let i = 0; i < count; i++) {
            const raw = s.values[i];
            if (raw === null || raw === undefined) continue;
            let v = p.grouping === 'percentStacked' ? (sums[i] ? raw / sums[i] : 0) : raw;
            let from = base;
            if (stacked) {
              if (v >= 0) { from = pos[i]; pos[i] += v; v = pos[i]; } else { from = neg[i]; neg[i] += v; v = neg[i]; }
            }
            const offset = -groupWidth / 2 + (stacked ? 0 : k * barWidth * (1 - overlap)) + barWidth / 2;
            const color = s.pointFills[i] ?? s.fill;
            if (horizontal) {
              const centre = catPos(i) - offset; // first series at the bottom of its group
              const x1 = xOfValue(from), x2 = xOfValue(v);
              shapes.push(rectOp(Math.min(x1, x2), centre - barWidth / 2, Math.abs(x2 - x1), barWidth, color, s.line, s.lineWidth));
              await dataLabel(s, i, raw, undefined, stacked ? (x1 + x2) / 2 : Math.max(x1, x2), centre, stacked ? 'center' : 'right', p.type);
            } else {
              const centre = catPos(i) + offset;
              const y1 = yOf(from), y2 = yOf(v);
              shapes.push(rectOp(centre - barWidth / 2, Math.min(y1, y2), barWidth, Math.abs(y2 - y1), color, s.line, s.lineWidth));
              await dataLabel(s, i, raw, undefined, centre, stacked ? (y1 + y2) / 2 : Math.min(y1, y2), stacked ? 'center' : 'above', p.type);
            }
          }
        }
      } else if (p.type === 'line' || p.type === 'area') {
        const sums = Array.from({ length: count }, (_, i) => p.series.reduce((sum, s) => sum + Math.abs(s.values[i] ?? 0), 0));
        const running = new Array<number>(count).fill(0);
        const layers: Array<{ s: ChartSeries; top: Array<[number, number] | null>; bottom: Array<[number, number]>; values: Array<number | null> }> = [];
        for (const s of p.series) {
          const bottom: Array<[number, number]> = [];
          const top: Array<[number, number] | null> = [];
          for (let i = 0; i < count; i++) {
            const raw = s.values[i];
            const x = catPos(i);
            const v = raw === null || raw === undefined ? null : p.grouping === 'percentStacked' ? (sums[i] ? raw / sums[i] : 0) : raw;
            const stacked = p.grouping !== 'standard' && p.grouping !== 'clustered';
            bottom.push([x, yOf(stacked ? running[i] : base)]);
            if (v === null) { top.push(p.type === 'area' ? [x, yOf(stacked ? running[i] : base)] : null); continue; }
            const total = stacked ? running[i] + v : v;
            if (stacked) running[i] = total;
            top.push([x, yOf(total)]);
          }
          layers.push({ s, top, bottom, values: s.values });
        }
        const order = p.type === 'area' && p.grouping === 'standard' ? [...layers].reverse() : layers;
        for (const { s, top, bottom, values } of order) {
          if (p.type === 'area') {
            const upper = top.map((pt, i) => pt ?? bottom[i]);
            shapes.push(pathOp(polyline([...upper, ...[...bottom].reverse()], true), s.fill, s.line !== s.fill ? s.line : undefined, s.lineWidth));
          } else {
            // Lines break at gaps.
            let run: Array<[number, number]> = [];
            const flush = () => { if (run.length > 1) shapes.push(pathOp(polyline(run), undefined, s.line ?? s.fill, s.lineWidth)); run = []; };
            for (const pt of top) { if (pt) run.push(pt); else flush(); }
            flush();
            if (s.marker) for (const pt of top) if (pt) shapes.push(markerOp(pt[0], pt[1], s.fill));
          }
          for (let i = 0; i < top.length; i++) {
            const pt = top[i];
            const raw = values[i];
            if (pt && raw !== null && raw !== undefined) await dataLabel(s, i, raw, undefined, pt[0], pt[1], 'above', p.type);
          }
        }
      } else if ((p.type === 'scatter' || p.type === 'bubble') && xScale) {
        const xs = xScale;
        const xOf = (v: number) => plot.x + ((Math.min(Math.max(v, xs.min), xs.max) - xs.min) / span(xs)) * plot.w;
        const maxSize = Math.max(1e-9, ...p.series.flatMap((s) => (s.sizes ?? []).map((v) => Math.abs(v ?? 0))));
        for (const s of p.series) {
          const points: Array<[number, number] | null> = s.values.map((v, i) => (v === null || s.xValues?.[i] === null || s.xValues?.[i] === undefined ? null : [xOf(s.xValues[i]!), yOf(v)]));
          if (p.type === 'bubble') {
            const maxRadius = Math.min(plot.w, plot.h) * 0.12;
            points.forEach((pt, i) => {
              if (!pt) return;
              const r = Math.max(1, Math.sqrt(Math.abs(s.sizes?.[i] ?? 0) / maxSize) * maxRadius);
              shapes.push(pathOp(`M${f(pt[0] - r)} ${f(pt[1])} A${f(r)} ${f(r)} 0 1 1 ${f(pt[0] + r)} ${f(pt[1])} A${f(r)} ${f(r)} 0 1 1 ${f(pt[0] - r)} ${f(pt[1])} Z`, s.pointFills[i] ?? s.fill, s.line, 0.75, 0.8));
            });
          } else {
            if (p.scatterLines && s.line) {
              const run = points.filter((pt): pt is [number, number] => pt !== null);
              if (run.length > 1) shapes.push(pathOp(polyline(run), undefined, s.line, s.lineWidth));
            }
            if (s.marker || !s.line) for (const pt of points) if (pt) shapes.push(markerOp(pt[0], pt[1], s.fill));
          }
          for (let i = 0; i < points.length; i++) {
            const pt = points[i];
            if (pt) await dataLabel(s, i, s.values[i]!, undefined, pt[0], pt[1], 'above', p.type);
          }
        }
      }
    }
    void barPlots;

    // Axis lines: the category axis where the value axis crosses zero, the value axis on the left.
    if (categoryAxis && !categoryAxis.deleted && categoryAxis.line) {
      if (horizontal) shapes.push(lineOp(xOfValue(base), plot.y, xOfValue(base), plot.y + plot.h, categoryAxis.line, 0.75));
      else shapes.push(lineOp(plot.x, yOf(xy ? Math.max(valueScale.min, Math.min(0, valueScale.max)) : base), plot.x + plot.w, yOf(xy ? Math.max(valueScale.min, Math.min(0, valueScale.max)) : base), categoryAxis.line, 0.75));
    }
    if (valueAxis && !valueAxis.deleted && valueAxis.line) {
      if (horizontal) shapes.push(lineOp(plot.x, plot.y + plot.h, plot.x + plot.w, plot.y + plot.h, valueAxis.line, 0.75));
      else shapes.push(lineOp(plot.x, plot.y, plot.x, plot.y + plot.h, valueAxis.line, 0.75));
    }
    // Tick marks: on the value axis at each tick, on the category axis between categories.
    const tick = (mark: ChartAxis['tickMark']) => ({ out: mark === 'out' || mark === 'cross' ? 3 : 0, in: mark === 'in' || mark === 'cross' ? 3 : 0 });
    if (valueAxis && !valueAxis.deleted && valueAxis.line && valueAxis.tickMark !== 'none') {
      const t = tick(valueAxis.tickMark);
      for (const v of ticks(valueScale)) {
        if (horizontal) shapes.push(lineOp(xOfValue(v), plot.y + plot.h - t.in, xOfValue(v), plot.y + plot.h + t.out, valueAxis.line, 0.75));
        else shapes.push(lineOp(plot.x - t.out, yOf(v), plot.x + t.in, yOf(v), valueAxis.line, 0.75));
      }
    }
    if (categoryAxis && !categoryAxis.deleted && categoryAxis.line && categoryAxis.tickMark !== 'none' && !xy) {
      const t = tick(categoryAxis.tickMark);
      for (let i = 0; i <= count; i++) {
        if (horizontal) { const y = plot.y + (i / count) * plot.h; shapes.push(lineOp(xOfValue(base) - t.out, y, xOfValue(base) + t.in, y, categoryAxis.line, 0.75)); }
        else { const x = midCat ? catPos(Math.min(i, count - 1)) : plot.x + (i / count) * plot.w; if (midCat && i === count) break; shapes.push(lineOp(x, yOf(base) - t.in, x, yOf(base) + t.out, categoryAxis.line, 0.75)); }
      }
    }

    // Text: value axis labels, category labels, axis titles.
    if (horizontal) {
      if (showValueLabels) for (const t of ticks(valueScale)) {
        const label = await measure(formatNumber(t, valueFormat), text, ctx);
        texts.push(textOp(label, xOfValue(t) - label.width / 2, plot.y + plot.h + 3));
      }
      if (showCategoryLabels) {
        // Top to bottom, so that text extraction reads the names in the order they are shown.
        const order = [...leftLabels.keys()].sort((a, b) => catPos(a) - catPos(b));
        for (const i of order) texts.push(textOp(leftLabels[i], plot.x - leftLabels[i].width - 4, catPos(i) - leftLabels[i].lineHeight / 2));
      }
    } else {
      if (showValueLabels && yScale) {
        const values = ticks(yScale).reverse();
        const labels = [...leftLabels].reverse();
        values.forEach((t, i) => texts.push(textOp(labels[i], plot.x - labels[i].width - 4, yOf(t) - labels[i].lineHeight / 2)));
      }
      if (xy && xScale && showCategoryLabels) {
        for (const t of ticks(xScale)) {
          const label = await measure(formatNumber(t, xFormat), text, ctx);
          texts.push(textOp(label, plot.x + ((t - xScale.min) / span(xScale)) * plot.w - label.width / 2, plot.y + plot.h + 3));
        }
      } else if (showCategoryLabels && rotatedLabels) {
        rotatedLabels.forEach((label, i) => {
          if (i % every) return;
          // The name ends under its tick and runs down to the left.
          const x = catPos(i) - label.width * Math.SQRT1_2 + label.ascent * 0.5;
          const y = plot.y + plot.h + 4 + label.width * Math.SQRT1_2 + label.ascent * 0.5;
          texts.push(rotatedTextOp(label, x, y, 44.9)); // (not 45°: text extraction then reads the page as turned)
        });
      } else if (showCategoryLabels) {
        catLabelLines.forEach((lines, i) => {
          if (i % every) return;
          lines.slice(0, 3).forEach((label, line) => texts.push(textOp(label, catPos(i) - label.width / 2, plot.y + plot.h + 3 + line * label.lineHeight)));
        });
      }
    }
    if (verticalTitle) texts.push(rotatedTextOp(verticalTitle, box.x + verticalTitle.ascent, plot.y + (plot.h + verticalTitle.width) / 2, 90));
    if (horizontalTitle) texts.push(textOp(horizontalTitle, plot.x + (plot.w - horizontalTitle.width) / 2, box.y + box.h - horizontalTitle.lineHeight));
  }
}
