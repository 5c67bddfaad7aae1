/**
 * DrawingML charts (`c:chartSpace` parts of .pptx, .xlsx and .docx files): `parseChart` (parse.ts)
 * reads a chart part into a small model (model.ts), and `layoutChart` turns a model and a box size
 * into drawing operations on pdf-lib primitives: the title, the legend (legend.ts), then the plot —
 * pie and doughnut (pie.ts), radar (radar.ts), or on two axes (cartesian.ts, axes.ts, series.ts)
 * with scales from scale.ts. Text is real text in the document's fonts, drawn after the shapes:
 * title, axis labels, legend, data labels. Unknown chart types draw a labelled frame.
 */
import type { TextContext } from '../text.ts';
import type { ChartModel } from './model.ts';
import {
  chartCanvas,
  finishDrawing,
  measureText,
  rectOp,
  textOp,
  type Box,
  type ChartCanvas,
  type ChartDrawing,
} from './draw.ts';
import { layoutLegend } from './legend.ts';
import { drawPie } from './pie.ts';
import { drawRadar } from './radar.ts';
import { drawCartesian } from './cartesian.ts';

export type {
  ChartAxis,
  ChartModel,
  ChartPlot,
  ChartSeries,
  ChartTextStyle,
  ChartTheme,
  DataLabels,
  PlotType,
} from './model.ts';
export { parseChart, themeFromXml } from './parse.ts';
export { niceScale, type Scale } from './scale.ts';
export type { ChartDrawing } from './draw.ts';

/** The title, centred at the top (shrunk to the width when it is wider); its room is taken from `area`. */
async function layoutTitle(canvas: ChartCanvas, title: string, area: Box, pad: number): Promise<void> {
  const style = canvas.model.titleStyle;
  let label = await measureText(canvas, title, style);
  if (label.width > area.w && label.width > 0) {
    label = await measureText(canvas, title, { ...style, size: Math.max(6, style.size * (area.w / label.width)) });
  }
  canvas.texts.push(textOp(label, area.x + (area.w - label.width) / 2, area.y));
  area.y += label.lineHeight + pad * 0.5;
  area.h -= label.lineHeight + pad * 0.5;
}

/** Lays a chart out in a width × height box; the result draws synchronously (fonts are loaded here). */
export async function layoutChart(
  model: ChartModel,
  width: number,
  height: number,
  ctx: TextContext,
): Promise<ChartDrawing> {
  const canvas = chartCanvas(model, ctx);
  const pad = Math.max(4, Math.min(width, height) * 0.03);
  const area: Box = { x: pad, y: pad, w: Math.max(10, width - 2 * pad), h: Math.max(10, height - 2 * pad) };
  const whole = { ...area };
  if (model.background || model.border)
    canvas.shapes.push(rectOp(0, 0, width, height, model.background, model.border, 0.75));
  if (model.title) await layoutTitle(canvas, model.title, area, pad);

  const plots = model.plots.filter((p) => p.series.length);
  if (!plots.length) {
    const message = model.unsupported.length
      ? `Chart not drawn (${model.unsupported.join(', ')} chart)`
      : 'Chart without data';
    const label = await measureText(canvas, message, { ...model.text, color: [0.4, 0.4, 0.4] });
    canvas.shapes.push(rectOp(area.x, area.y, area.w, area.h, undefined, [0.6, 0.6, 0.6], 0.75));
    canvas.texts.push(
      textOp(label, area.x + Math.max(0, (area.w - label.width) / 2), area.y + (area.h - label.lineHeight) / 2),
    );
    return finishDrawing(canvas);
  }

  const first = plots[0];
  const pieLike = first.type === 'pie' || first.type === 'doughnut';
  const variedSingle = plots.length === 1 && first.series.length === 1 && first.series[0].pointFills.length > 0;
  await layoutLegend(canvas, plots, pieLike || variedSingle, area, whole, pad);
  if (pieLike) await drawPie(canvas, first, area);
  else if (first.type === 'radar') await drawRadar(canvas, first, area);
  else await drawCartesian(canvas, plots, area);
  return finishDrawing(canvas);
}
