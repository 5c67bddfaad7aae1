/**
 * The drawing primitives of a chart layout: measured labels and operations on a pdf-lib page in
 * chart coordinates (origin at the box's top-left, y down), collected in layers.
 */
import { degrees, rgb, type PDFPage } from 'pdf-lib';
import type { Rgb } from '../model.ts';
import type { FontSpan } from '../fonts.ts';
import type { TextContext } from '../text.ts';
import type { ChartModel, ChartSeries, ChartTextStyle, PlotType } from './model.ts';
import { formatNumber } from './scale.ts';

/** Text measured in the fonts that will draw it, span by span. */
export interface Label {
  spans: Array<FontSpan & { width: number }>;
  width: number;
  ascent: number;
  lineHeight: number;
  style: ChartTextStyle;
}

/** One drawing operation, given the chart box's top-left in PDF coordinates. */
export type Op = (page: PDFPage, left: number, top: number) => void;

export interface ChartDrawing {
  /** Draws the chart with its box's top-left corner at (left, top) in PDF coordinates. */
  draw(page: PDFPage, left: number, top: number): void;
}

/** A label in the document's fonts, measured (fonts are loaded here, so drawing is synchronous). */
export async function measure(text: string, style: ChartTextStyle, ctx: TextContext): Promise<Label> {
  const request = { family: style.font, bold: style.bold, italic: style.italic };
  const metrics = await ctx.fonts.metrics(request);
  const spans = (await ctx.fonts.spans(text, request)).map((s) => ({
    ...s,
    width: s.font.widthOfTextAtSize(s.text, style.size),
  }));
  return {
    spans,
    width: spans.reduce((sum, s) => sum + s.width, 0),
    ascent: metrics.ascent * style.size,
    lineHeight: metrics.lineHeight * style.size,
    style,
  };
}

/** Text whose box's top-left is at (x, y) in chart coordinates (y down). */
export function textOp(label: Label, x: number, y: number): Op {
  return rotatedTextOp(label, x, y + label.ascent, 0);
}

/** Text from a baseline start point (x, y), turned `angle` degrees anticlockwise. */
export function rotatedTextOp(label: Label, x: number, y: number, angle: number): Op {
  const cos = Math.cos((angle * Math.PI) / 180);
  const sin = Math.sin((angle * Math.PI) / 180);
  return (page, left, top) => {
    let cursor = 0;
    for (const span of label.spans) {
      if (span.text.trim()) {
        page.drawText(span.text, {
          size: label.style.size,
          font: span.font,
          color: rgb(...label.style.color),
          x: left + x + cursor * cos,
          y: top - y + cursor * sin,
          rotate: angle ? degrees(angle) : undefined,
        });
      }
      cursor += span.width;
    }
  };
}

/** An SVG path in chart coordinates (y down). */
export function pathOp(path: string, fill: Rgb | undefined, stroke?: Rgb, width = 0.75, opacity?: number): Op {
  return (page, left, top) =>
    page.drawSvgPath(path, {
      x: left,
      y: top,
      color: fill ? rgb(...fill) : undefined,
      borderColor: stroke ? rgb(...stroke) : undefined,
      borderWidth: stroke ? width : 0,
      opacity,
      borderLineCap: 1 as never,
    });
}

/** A rectangle whose top-left is at (x, y), filled and outlined as asked. */
export function rectOp(
  x: number,
  y: number,
  width: number,
  height: number,
  fill?: Rgb,
  stroke?: Rgb,
  strokeWidth = 0.75,
): Op {
  return (page, left, top) =>
    page.drawRectangle({
      x: left + x,
      y: top - y - height,
      width,
      height,
      color: fill ? rgb(...fill) : undefined,
      borderColor: stroke ? rgb(...stroke) : undefined,
      borderWidth: stroke ? strokeWidth : 0,
    });
}

/** A line from (x1, y1) to (x2, y2). */
export function lineOp(x1: number, y1: number, x2: number, y2: number, color: Rgb, width = 0.75): Op {
  return (page, left, top) =>
    page.drawLine({
      start: { x: left + x1, y: top - y1 },
      end: { x: left + x2, y: top - y2 },
      thickness: width,
      color: rgb(...color),
    });
}

/** A coordinate in an SVG path, to the hundredth. */
export const f = (n: number) => (Math.round(n * 100) / 100).toString();

/** An SVG path through the points, closed when asked. */
export function polyline(points: Array<[number, number]>, close = false): string {
  return points.map(([x, y], i) => `${i ? 'L' : 'M'}${f(x)} ${f(y)}`).join(' ') + (close ? ' Z' : '');
}

/** A square marker centred on (x, y). */
export function markerOp(x: number, y: number, color: Rgb, size = 5): Op {
  return rectOp(x - size / 2, y - size / 2, size, size, color);
}

/** A rectangle in chart coordinates. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * A chart being laid out: its model, the text context, and the operations collected in the order
 * they are drawn (shapes, then texts, the legend and data labels above them).
 */
export interface ChartCanvas {
  model: ChartModel;
  ctx: TextContext;
  /** The chart's default text style (axis labels, legend, data labels). */
  text: ChartTextStyle;
  shapes: Op[];
  texts: Op[];
  legendOps: Op[];
  labelOps: Op[];
}

export function chartCanvas(model: ChartModel, ctx: TextContext): ChartCanvas {
  return { model, ctx, text: model.text, shapes: [], texts: [], legendOps: [], labelOps: [] };
}

/** Measures text in the chart's default style (or `style`). */
export function measureText(canvas: ChartCanvas, text: string, style = canvas.text): Promise<Label> {
  return measure(text, style, canvas.ctx);
}

/** The drawing of everything collected, in layer order. */
export function finishDrawing(canvas: ChartCanvas): ChartDrawing {
  const ops = [...canvas.shapes, ...canvas.texts, ...canvas.legendOps, ...canvas.labelOps];
  return { draw: (page, left, top) => ops.forEach((op) => op(page, left, top)) };
}

/**
 * A point's data label (series name, category, value, percentage as the series asks), centred on
 * (x, y), above it, or to its right.
 */
export async function dataLabel(
  canvas: ChartCanvas,
  series: ChartSeries,
  index: number,
  value: number,
  percent: number | undefined,
  x: number,
  y: number,
  anchor: 'center' | 'above' | 'right',
  plotType: PlotType,
): Promise<void> {
  const d = series.dataLabels;
  if (!d.value && !d.percent && !d.category && !d.series) return;
  const parts: string[] = [];
  if (d.series) parts.push(series.name);
  if (d.category) parts.push(series.categories[index] ?? '');
  if (d.value) parts.push(formatNumber(value, d.formatCode ?? series.formatCode));
  if (d.percent && percent !== undefined) parts.push(formatNumber(percent, '0%'));
  const separator = plotType === 'pie' || plotType === 'doughnut' ? '; ' : ', ';
  const label = await measureText(canvas, parts.filter(Boolean).join(separator));
  const lx = anchor === 'right' ? x + 3 : x - label.width / 2;
  const ly = anchor === 'above' ? y - label.lineHeight - 2 : y - label.lineHeight / 2;
  canvas.labelOps.push(textOp(label, lx, ly));
}
