/**
 * Reads a chart part (c:chartSpace of .pptx, .xlsx and .docx files) into the chart model: title (or
 * the automatic one), plots (bar/column clustered, stacked and 100 %, line, area, pie, doughnut,
 * scatter, bubble, radar; 3-D variants drawn flat), series names, categories and values from the
 * caches with their number formats, colours (the series' own fill, else the theme's accents in
 * order), axes (deleted, tick labels, number format, fixed or automatic scale), gridlines, data
 * labels and legend.
 */
import type { Rgb } from '../model.ts';
import { attr, find, findAll, hexColor, kid, kids, num, type XmlElement } from '../xml.ts';
import { colorResolver, readDrawingTheme } from '../shapes.ts';
import type {
  ChartAxis,
  ChartModel,
  ChartPlot,
  ChartSeries,
  ChartTextStyle,
  ChartTheme,
  DataLabels,
  PlotType,
} from './model.ts';
import { formatNumber } from './scale.ts';

const EMU = 1 / 12700;

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

function flag(element: XmlElement | undefined, fallback = false): boolean {
  if (!element) return fallback;
  const value = attr(element, 'val');
  return value === undefined ? true : value === '1' || value === 'true';
}

/** Points of a c:strCache / c:numCache (or literal) by index. */
function cachePoints(cache: XmlElement | undefined): {
  count: number;
  points: Map<number, string>;
  formatCode?: string;
} {
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

function readNumbers(element: XmlElement | undefined): {
  values: Array<number | null>;
  formatCode: string;
  text: boolean;
} {
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
  return findAll(element, 'a:p')
    .map((p) =>
      findAll(p, 'a:t')
        .map((t) => t.textContent ?? '')
        .join(''),
    )
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
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
  return {
    none: Boolean(kid(ln, 'a:noFill')),
    color: theme.color(kid(ln, 'a:solidFill')),
    width: width !== undefined ? width * EMU : undefined,
  };
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
  if (!dLbls || (kid(dLbls, 'c:delete') && flag(kid(dLbls, 'c:delete'))))
    return dLbls ? { value: false, percent: false, category: false, series: false } : base;
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
  'c:barChart': 'bar',
  'c:bar3DChart': 'bar',
  'c:lineChart': 'line',
  'c:line3DChart': 'line',
  'c:stockChart': 'line',
  'c:areaChart': 'area',
  'c:area3DChart': 'area',
  'c:pieChart': 'pie',
  'c:pie3DChart': 'pie',
  'c:ofPieChart': 'pie',
  'c:doughnutChart': 'doughnut',
  'c:scatterChart': 'scatter',
  'c:bubbleChart': 'bubble',
  'c:radarChart': 'radar',
};

/** What the series of one plot share while they are read. */
interface PlotContext {
  element: XmlElement;
  type: PlotType;
  theme: ChartTheme;
  varyColors: boolean;
  plotLabels: DataLabels;
  plotMarkers: boolean;
  radarStyle: string;
}

/** Series names, values and categories from the caches, colours (own, else the theme's in order), markers, labels. */
function readSeries(ser: XmlElement, plot: PlotContext, index: number): ChartSeries {
  const { element, type, theme, radarStyle } = plot;
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
  if (
    plot.varyColors &&
    (type === 'pie' || type === 'doughnut' || element.getElementsByTagName('c:ser').length === 1)
  ) {
    for (let i = 0; i < pointCount; i++) pointFills[i] = autoColor(theme, i);
  }
  for (const dPt of kids(ser, 'c:dPt')) {
    const i = num(kid(dPt, 'c:idx'), 'val');
    const pointFill = fillOf(kid(dPt, 'c:spPr'), theme);
    if (i !== undefined && pointFill && pointFill !== 'none') pointFills[i] = pointFill;
  }
  const seriesFill = fill && fill !== 'none' ? fill : isLine ? (line.color ?? auto) : auto;
  const markers =
    markerSymbol !== undefined
      ? markerSymbol !== 'none'
      : (plot.plotMarkers && type !== 'radar') || radarStyle === 'marker';
  return {
    name,
    categories,
    values: values.values,
    xValues,
    sizes: type === 'bubble' ? readNumbers(kid(ser, 'c:bubbleSize')).values : undefined,
    formatCode: values.formatCode,
    fill: seriesFill,
    line: line.none ? undefined : (line.color ?? (isLine ? seriesFill : undefined)),
    lineWidth: line.width ?? (isLine ? 2.25 : 0.75),
    pointFills,
    marker: type === 'scatter' || type === 'line' || type === 'radar' ? markers : false,
    dataLabels: readDataLabels(kid(ser, 'c:dLbls'), plot.plotLabels),
  };
}

/** A plot (c:barChart, c:lineChart…) and its series; `counter` numbers series across plots. */
function readPlot(element: XmlElement, type: PlotType, theme: ChartTheme, counter: { series: number }): ChartPlot {
  const barDir = attr(kid(element, 'c:barDir'), 'val') === 'bar' ? 'bar' : 'col';
  const grouping = (attr(kid(element, 'c:grouping'), 'val') ??
    (type === 'bar' ? 'clustered' : 'standard')) as ChartPlot['grouping'];
  const scatterStyle = attr(kid(element, 'c:scatterStyle'), 'val') ?? 'marker';
  const plot: PlotContext = {
    element,
    type,
    theme,
    varyColors: flag(kid(element, 'c:varyColors'), false),
    plotLabels: readDataLabels(kid(element, 'c:dLbls')),
    plotMarkers: element.nodeName === 'c:lineChart' ? flag(kid(element, 'c:marker'), true) : true,
    radarStyle: attr(kid(element, 'c:radarStyle'), 'val') ?? 'standard',
  };
  const series: ChartSeries[] = [];
  for (const ser of kids(element, 'c:ser')) {
    const index = num(kid(ser, 'c:idx'), 'val') ?? counter.series;
    counter.series++;
    series.push(readSeries(ser, plot, index));
  }
  const stacked = grouping === 'stacked' || grouping === 'percentStacked';
  return {
    type,
    threeD: element.nodeName.endsWith('3DChart'),
    barDir,
    grouping: type === 'bar' && grouping === 'standard' ? 'clustered' : grouping,
    series,
    gapWidth: num(kid(element, 'c:gapWidth'), 'val') ?? 150,
    overlap: num(kid(element, 'c:overlap'), 'val') ?? (stacked ? 100 : 0),
    holeSize: num(kid(element, 'c:holeSize'), 'val') ?? 50,
    firstSliceAngle: num(kid(element, 'c:firstSliceAng'), 'val') ?? 0,
    radarFilled: plot.radarStyle === 'filled',
    scatterLines: /line|smooth/i.test(scatterStyle),
    axisIds: kids(element, 'c:axId').map((a) => attr(a, 'val') ?? ''),
  };
}

const AXIS_KINDS: Record<string, ChartAxis['kind']> = { 'c:catAx': 'cat', 'c:valAx': 'val', 'c:dateAx': 'date' };

function readAxis(element: XmlElement, kind: ChartAxis['kind'], theme: ChartTheme, text: ChartTextStyle): ChartAxis {
  const scaling = kid(element, 'c:scaling');
  const grid = kid(element, 'c:majorGridlines');
  const gridLine = grid ? lineOf(kid(grid, 'c:spPr'), theme) : undefined;
  const axisLine = lineOf(kid(element, 'c:spPr'), theme);
  const numFmt = kid(element, 'c:numFmt');
  const title = kid(element, 'c:title');
  const txPr = kid(element, 'c:txPr');
  // a:bodyPr rot is clockwise in 60000ths of a degree (labels turned up to the right: −45°); anything
  // beyond ±90° is automatic (Office writes −60000000 for "automatic").
  const rot = num(kid(txPr, 'a:bodyPr'), 'rot');
  const skip = num(kid(element, 'c:tickLblSkip'), 'val');
  return {
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
    gridlines: grid && !gridLine?.none ? (gridLine?.color ?? [0.85, 0.85, 0.85]) : undefined,
    tickMark: (attr(kid(element, 'c:majorTickMark'), 'val') ?? 'cross') as ChartAxis['tickMark'],
    line: axisLine.none ? undefined : (axisLine.color ?? [0.53, 0.53, 0.53]),
    reversed: attr(kid(scaling, 'c:orientation'), 'val') === 'maxMin',
    title: title ? textOf(kid(kid(title, 'c:tx'), 'c:rich')) || undefined : undefined,
    crossBetween: attr(kid(element, 'c:crossBetween'), 'val') as ChartAxis['crossBetween'],
    text: textStyle(txPr, text, theme),
    labelAngle: rot === undefined || Math.abs(rot) > 5400000 ? undefined : -rot / 60000,
    labelSkip: skip && skip >= 1 ? Math.floor(skip) : undefined,
  };
}

/**
 * The title's text: its own, else (an automatic title) the only series' name, else the default title
 * PowerPoint, Excel and LibreOffice show, "Chart Title".
 */
function titleText(titleEl: XmlElement | undefined, plots: ChartPlot[]): string | undefined {
  if (!titleEl) return undefined;
  const allSeries = plots.flatMap((p) => p.series);
  const rich = kid(kid(titleEl, 'c:tx'), 'c:rich');
  const ref = kid(kid(titleEl, 'c:tx'), 'c:strRef');
  if (rich) return textOf(rich);
  if (ref) return readLabels(kid(titleEl, 'c:tx'))[0];
  return allSeries.length === 1 ? allSeries[0].name : 'Chart Title';
}

/** Reads a chart part's root (c:chartSpace). */
export function parseChart(root: XmlElement, theme: ChartTheme): ChartModel {
  const chart = kid(root, 'c:chart') ?? root;
  const baseText = textStyle(kid(root, 'c:txPr'), { size: 10, color: [0, 0, 0], font: theme.font }, theme);
  const plotArea = kid(chart, 'c:plotArea');
  const plots: ChartPlot[] = [];
  const unsupported: string[] = [];
  const counter = { series: 0 };
  for (const element of kids(plotArea)) {
    if (!/^c:\w+Chart$/.test(element.nodeName)) continue;
    const type = PLOT_TYPES[element.nodeName];
    if (type) plots.push(readPlot(element, type, theme, counter));
    else
      unsupported.push(
        element.nodeName
          .slice(2)
          .replace(/Chart$/, '')
          .replace(/3D$/, ''),
      );
  }
  const axes = kids(plotArea).flatMap((el) =>
    AXIS_KINDS[el.nodeName] ? [readAxis(el, AXIS_KINDS[el.nodeName], theme, baseText)] : [],
  );
  const titleEl = kid(chart, 'c:title');
  const title = titleText(titleEl, plots);
  const titleBase = { ...baseText, size: baseText.size * 1.2, bold: true };
  const titleStyle = textStyle(
    kid(titleEl, 'c:txPr'),
    textStyle(kid(kid(titleEl, 'c:tx'), 'c:rich'), titleBase, theme),
    theme,
  );
  const legendEl = kid(chart, 'c:legend');
  const legendPosition = attr(kid(legendEl, 'c:legendPos'), 'val') ?? 'r';
  const areaPr = kid(root, 'c:spPr');
  const areaFill = fillOf(areaPr, theme);
  const areaLine = lineOf(areaPr, theme);
  return {
    background: areaFill && areaFill !== 'none' ? areaFill : undefined,
    border: areaLine.none ? undefined : (areaLine.color ?? (theme.defaultBorder ? [0.53, 0.53, 0.53] : undefined)),
    title: title || undefined,
    titleStyle,
    text: baseText,
    plots,
    axes,
    legend: legendEl ? { position: legendPosition as NonNullable<ChartModel['legend']>['position'] } : undefined,
    unsupported,
  };
}
