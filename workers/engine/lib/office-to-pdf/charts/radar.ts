/** Radar charts: one spoke per category, a polygon per series, value labels up the first spoke. */
import type { ChartPlot } from './model.ts';
import { formatNumber, niceScale, ticks } from './scale.ts';
import { lineOp, markerOp, measureText, pathOp, polyline, textOp, type Box, type ChartCanvas } from './draw.ts';

export async function drawRadar(canvas: ChartCanvas, plot: ChartPlot, box: Box): Promise<void> {
  const { shapes, texts, text } = canvas;
  const first = plot.series[0];
  const categories = first.categories.length ? first.categories : first.values.map((_, i) => String(i + 1));
  const n = Math.max(3, categories.length);
  const catLabels = await Promise.all(categories.map((c) => measureText(canvas, c)));
  const labelW = Math.max(0, ...catLabels.map((l) => l.width));
  const lh = catLabels[0]?.lineHeight ?? text.size * 1.2;
  const radius = Math.max(8, Math.min(box.w / 2 - labelW - 4, box.h / 2 - lh - 4));
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const values = plot.series.flatMap((s) => s.values).filter((v): v is number => v !== null);
  const axis = canvas.model.axes.find((a) => a.kind === 'val');
  const maxCount = Math.min(10, Math.max(2, Math.floor(radius / (2 * text.size))));
  const scale = niceScale(Math.min(...values), Math.max(...values), maxCount, {
    includeZero: true,
    min: axis?.min,
    max: axis?.max,
    step: axis?.majorUnit,
  });
  const point = (i: number, v: number): [number, number] => {
    const r = ((v - scale.min) / (scale.max - scale.min || 1)) * radius;
    const a = (i / n) * 2 * Math.PI;
    return [cx + r * Math.sin(a), cy - r * Math.cos(a)];
  };
  const grid = axis?.gridlines ?? [0.85, 0.85, 0.85];
  for (const t of ticks(scale)) {
    if (t > scale.min)
      shapes.push(
        pathOp(
          polyline(
            Array.from({ length: n }, (_, i) => point(i, t)),
            true,
          ),
          undefined,
          grid,
          0.5,
        ),
      );
  }
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
  const format = axis?.linked || !axis?.formatCode ? first.formatCode : axis.formatCode;
  if (!axis?.deleted && axis?.labels !== false) {
    for (const t of ticks(scale)) {
      const label = await measureText(canvas, formatNumber(t, format));
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
