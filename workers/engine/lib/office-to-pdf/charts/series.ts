/** The series of a cartesian chart: bars (clustered, stacked, 100 %), lines and areas, scatter points and bubbles. */
import type { ChartPlot, ChartSeries } from './model.ts';
import { dataLabel, f, markerOp, pathOp, polyline, rectOp, type ChartCanvas } from './draw.ts';
import type { CartesianFrame } from './cartesian.ts';

type Point = [number, number];

/** Each category's sum of absolute values across the series (what 100 % stacks divide by). */
function categorySums(p: ChartPlot, count: number): number[] {
  return Array.from({ length: count }, (_, i) => p.series.reduce((sum, s) => sum + Math.abs(s.values[i] ?? 0), 0));
}

async function drawBars(canvas: ChartCanvas, frame: CartesianFrame, p: ChartPlot): Promise<void> {
  const { plot, count, horizontal, base, catPos, xOfValue, yOf } = frame;
  const stacked = p.grouping !== 'clustered';
  const n = stacked ? 1 : p.series.length;
  const overlap = stacked ? 1 : Math.max(-1, Math.min(1, p.overlap / 100));
  const slot = (horizontal ? plot.h : plot.w) / count;
  const barWidth = slot / (n - (n - 1) * overlap + p.gapWidth / 100);
  const groupWidth = barWidth * (n - (n - 1) * overlap);
  const sums = categorySums(p, count);
  const pos = new Array<number>(count).fill(0);
  const neg = new Array<number>(count).fill(0);
  for (let k = 0; k < p.series.length; k++) {
    const s = p.series[k];
    for (let i = 0; i < count; i++) {
      const raw = s.values[i];
      if (raw === null || raw === undefined) continue;
      let v = p.grouping === 'percentStacked' ? (sums[i] ? raw / sums[i] : 0) : raw;
      let from = base;
      if (stacked && v >= 0) {
        from = pos[i];
        pos[i] += v;
        v = pos[i];
      } else if (stacked) {
        from = neg[i];
        neg[i] += v;
        v = neg[i];
      }
      const offset = -groupWidth / 2 + (stacked ? 0 : k * barWidth * (1 - overlap)) + barWidth / 2;
      const color = s.pointFills[i] ?? s.fill;
      if (horizontal) {
        const centre = catPos(i) - offset; // first series at the bottom of its group
        const x1 = xOfValue(from),
          x2 = xOfValue(v);
        canvas.shapes.push(
          rectOp(Math.min(x1, x2), centre - barWidth / 2, Math.abs(x2 - x1), barWidth, color, s.line, s.lineWidth),
        );
        const labelX = stacked ? (x1 + x2) / 2 : Math.max(x1, x2);
        await dataLabel(canvas, s, i, raw, undefined, labelX, centre, stacked ? 'center' : 'right', p.type);
      } else {
        const centre = catPos(i) + offset;
        const y1 = yOf(from),
          y2 = yOf(v);
        canvas.shapes.push(
          rectOp(centre - barWidth / 2, Math.min(y1, y2), barWidth, Math.abs(y2 - y1), color, s.line, s.lineWidth),
        );
        const labelY = stacked ? (y1 + y2) / 2 : Math.min(y1, y2);
        await dataLabel(canvas, s, i, raw, undefined, centre, labelY, stacked ? 'center' : 'above', p.type);
      }
    }
  }
}

interface Layer {
  s: ChartSeries;
  /** The series' points (null at gaps in a line). */
  top: Array<Point | null>;
  /** What an area fills down to: the axis, or the series stacked below. */
  bottom: Point[];
}

/** The points of each series of a line or area plot, stacked as the grouping asks. */
function stackLayers(frame: CartesianFrame, p: ChartPlot): Layer[] {
  const { count, base, catPos, yOf } = frame;
  const sums = categorySums(p, count);
  const running = new Array<number>(count).fill(0);
  const stacked = p.grouping !== 'standard' && p.grouping !== 'clustered';
  const layers: Layer[] = [];
  for (const s of p.series) {
    const bottom: Point[] = [];
    const top: Array<Point | null> = [];
    for (let i = 0; i < count; i++) {
      const raw = s.values[i];
      const x = catPos(i);
      const v =
        raw === null || raw === undefined
          ? null
          : p.grouping === 'percentStacked'
            ? sums[i]
              ? raw / sums[i]
              : 0
            : raw;
      bottom.push([x, yOf(stacked ? running[i] : base)]);
      if (v === null) {
        top.push(p.type === 'area' ? [x, yOf(stacked ? running[i] : base)] : null);
        continue;
      }
      const total = stacked ? running[i] + v : v;
      if (stacked) running[i] = total;
      top.push([x, yOf(total)]);
    }
    layers.push({ s, top, bottom });
  }
  return layers;
}

async function drawLinesAndAreas(canvas: ChartCanvas, frame: CartesianFrame, p: ChartPlot): Promise<void> {
  const { shapes } = canvas;
  const layers = stackLayers(frame, p);
  const order = p.type === 'area' && p.grouping === 'standard' ? [...layers].reverse() : layers;
  for (const { s, top, bottom } of order) {
    if (p.type === 'area') {
      const upper = top.map((pt, i) => pt ?? bottom[i]);
      shapes.push(
        pathOp(
          polyline([...upper, ...[...bottom].reverse()], true),
          s.fill,
          s.line !== s.fill ? s.line : undefined,
          s.lineWidth,
        ),
      );
    } else {
      // Lines break at gaps.
      let run: Point[] = [];
      const flush = () => {
        if (run.length > 1) shapes.push(pathOp(polyline(run), undefined, s.line ?? s.fill, s.lineWidth));
        run = [];
      };
      for (const pt of top) {
        if (pt) run.push(pt);
        else flush();
      }
      flush();
      if (s.marker) for (const pt of top) if (pt) shapes.push(markerOp(pt[0], pt[1], s.fill));
    }
    for (let i = 0; i < top.length; i++) {
      const pt = top[i];
      const raw = s.values[i];
      if (pt && raw !== null && raw !== undefined)
        await dataLabel(canvas, s, i, raw, undefined, pt[0], pt[1], 'above', p.type);
    }
  }
}

async function drawPoints(canvas: ChartCanvas, frame: CartesianFrame, p: ChartPlot): Promise<void> {
  const { shapes } = canvas;
  const { plot, yOf } = frame;
  const xs = frame.xScale!;
  const xOf = (v: number) => plot.x + ((Math.min(Math.max(v, xs.min), xs.max) - xs.min) / frame.span(xs)) * plot.w;
  const maxSize = Math.max(1e-9, ...p.series.flatMap((s) => (s.sizes ?? []).map((v) => Math.abs(v ?? 0))));
  for (const s of p.series) {
    const points: Array<Point | null> = s.values.map((v, i) =>
      v === null || s.xValues?.[i] === null || s.xValues?.[i] === undefined ? null : [xOf(s.xValues[i]!), yOf(v)],
    );
    if (p.type === 'bubble') {
      const maxRadius = Math.min(plot.w, plot.h) * 0.12;
      points.forEach((pt, i) => {
        if (!pt) return;
        const r = Math.max(1, Math.sqrt(Math.abs(s.sizes?.[i] ?? 0) / maxSize) * maxRadius);
        const circle =
          `M${f(pt[0] - r)} ${f(pt[1])} A${f(r)} ${f(r)} 0 1 1 ${f(pt[0] + r)} ${f(pt[1])} ` +
          `A${f(r)} ${f(r)} 0 1 1 ${f(pt[0] - r)} ${f(pt[1])} Z`;
        shapes.push(pathOp(circle, s.pointFills[i] ?? s.fill, s.line, 0.75, 0.8));
      });
    } else {
      if (p.scatterLines && s.line) {
        const run = points.filter((pt): pt is Point => pt !== null);
        if (run.length > 1) shapes.push(pathOp(polyline(run), undefined, s.line, s.lineWidth));
      }
      if (s.marker || !s.line) for (const pt of points) if (pt) shapes.push(markerOp(pt[0], pt[1], s.fill));
    }
    for (let i = 0; i < points.length; i++) {
      const pt = points[i];
      if (pt) await dataLabel(canvas, s, i, s.values[i]!, undefined, pt[0], pt[1], 'above', p.type);
    }
  }
}

export async function drawSeries(canvas: ChartCanvas, frame: CartesianFrame): Promise<void> {
  for (const p of frame.plots) {
    if (p.type === 'bar') await drawBars(canvas, frame, p);
    else if (p.type === 'line' || p.type === 'area') await drawLinesAndAreas(canvas, frame, p);
    else if ((p.type === 'scatter' || p.type === 'bubble') && frame.xScale) await drawPoints(canvas, frame, p);
  }
}
