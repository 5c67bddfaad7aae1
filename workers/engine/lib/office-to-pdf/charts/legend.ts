/** The chart's legend: one entry per series (per point for pies), beside or above/below the plot. */
import type { Rgb } from '../model.ts';
import type { ChartPlot } from './model.ts';
import { lineOp, measureText, rectOp, textOp, type Box, type ChartCanvas, type Label } from './draw.ts';

interface Entry {
  label: string;
  color: Rgb;
  line: boolean;
}

/** Pies (and one series with varied colours) list their points; other charts their series. */
function legendEntries(plots: ChartPlot[], byPoint: boolean): Entry[] {
  const first = plots[0];
  const entries: Entry[] = [];
  if (byPoint) {
    const s = first.series[0];
    s.values.forEach((_, i) =>
      entries.push({ label: s.categories[i] ?? String(i + 1), color: s.pointFills[i] ?? s.fill, line: false }),
    );
    return entries;
  }
  for (const plot of plots) {
    const unfilledRadar = plot.type === 'radar' && !plot.radarFilled;
    for (const s of plot.series) {
      entries.push({
        label: s.name,
        color: plot.type === 'line' || plot.type === 'scatter' || unfilledRadar ? (s.line ?? s.fill) : s.fill,
        line: plot.type === 'line' || (plot.type === 'scatter' && plot.scatterLines) || unfilledRadar,
      });
    }
  }
  if (first.type === 'bar' && first.barDir === 'bar' && plots.length === 1) entries.reverse();
  return entries;
}

/** An entry's key (a line or a square) and its label, in a row `lh` high from (x, y). */
function drawEntry(
  canvas: ChartCanvas,
  entry: Entry,
  label: Label,
  x: number,
  y: number,
  key: number,
  lh: number,
): void {
  canvas.legendOps.push(
    entry.line
      ? lineOp(x, y + lh / 2, x + key, y + lh / 2, entry.color, 2)
      : rectOp(x, y + (lh - key) / 2, key, key, entry.color),
  );
  canvas.legendOps.push(textOp(label, x + key + 4, y + (lh - label.lineHeight) / 2));
}

/** Lays the legend out and takes its room from `area` (the plot's box); `whole` is the chart's box. */
export async function layoutLegend(
  canvas: ChartCanvas,
  plots: ChartPlot[],
  byPoint: boolean,
  area: Box,
  whole: Box,
  pad: number,
) {
  const legend = canvas.model.legend;
  if (!legend) return;
  const text = canvas.text;
  const entries = legendEntries(plots, byPoint);
  const labels = await Promise.all(entries.map((e) => measureText(canvas, e.label)));
  const key = text.size * 0.7;
  const lh = 1.2 * text.size; // one DrawingML text line per entry
  const position = legend.position === 'tr' ? 'r' : legend.position;
  if (position === 'r' || position === 'l') {
    const legendWidth = Math.min(area.w * 0.45, key + 4 + Math.max(...labels.map((l) => l.width)));
    const total = lh * labels.length;
    const x = position === 'r' ? area.x + area.w - legendWidth : area.x;
    // Centred on the whole chart, title included (as LibreOffice places it), when it fits below the title.
    let y = Math.max(area.y, whole.y + (whole.h - total) / 2);
    if (y + total > area.y + area.h) y = area.y + Math.max(0, (area.h - total) / 2);
    labels.forEach((label, i) => {
      drawEntry(canvas, entries[i], label, x, y, key, lh);
      y += lh;
    });
    if (position === 'l') area.x += legendWidth + pad;
    area.w -= legendWidth + pad;
    return;
  }
  // Rows of entries, centred.
  const entryWidth = (label: Label) => key + 4 + label.width + text.size;
  const rows: number[][] = [[]];
  let used = 0;
  labels.forEach((label, i) => {
    const w = entryWidth(label);
    if (used + w > area.w && rows[rows.length - 1].length) {
      rows.push([]);
      used = 0;
    }
    rows[rows.length - 1].push(i);
    used += w;
  });
  const legendHeight = rows.length * lh;
  let y = position === 'b' ? area.y + area.h - legendHeight : area.y;
  for (const row of rows) {
    const rowWidth = row.reduce((sum, i) => sum + key + 4 + labels[i].width + text.size, 0) - text.size;
    let x = area.x + Math.max(0, (area.w - rowWidth) / 2);
    for (const i of row) {
      drawEntry(canvas, entries[i], labels[i], x, y, key, lh);
      x += entryWidth(labels[i]);
    }
    y += lh;
  }
  if (position === 't') area.y += legendHeight + pad * 0.5;
  area.h -= legendHeight + pad * 0.5;
}
