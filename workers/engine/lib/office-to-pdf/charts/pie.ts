/** Pie and doughnut charts: the first series' slices from the first slice angle, clockwise. */
import type { ChartPlot } from './model.ts';
import { dataLabel, f, pathOp, type Box, type ChartCanvas } from './draw.ts';

/** The SVG path of a slice from `angle` sweeping `sweep` radians (a whole ring when it is the only one). */
function slicePath(cx: number, cy: number, radius: number, hole: number, angle: number, sweep: number): string {
  const point = (a: number, r: number): [number, number] => [cx + r * Math.sin(a), cy - r * Math.cos(a)];
  const end = angle + sweep;
  if (sweep >= 2 * Math.PI - 1e-6) {
    const [tx, ty] = point(0, radius);
    const [bx, by] = point(Math.PI, radius);
    const arc = `A${f(radius)} ${f(radius)} 0 1 1`;
    let path = `M${f(tx)} ${f(ty)} ${arc} ${f(bx)} ${f(by)} ${arc} ${f(tx)} ${f(ty)} Z`;
    if (hole) {
      const [hx, hy] = point(0, hole);
      const [hbx, hby] = point(Math.PI, hole);
      const back = `A${f(hole)} ${f(hole)} 0 1 0`;
      path += ` M${f(hx)} ${f(hy)} ${back} ${f(hbx)} ${f(hby)} ${back} ${f(hx)} ${f(hy)} Z`;
    }
    return path;
  }
  const large = sweep > Math.PI ? 1 : 0;
  const [x0, y0] = point(angle, radius);
  const [x1, y1] = point(end, radius);
  if (!hole) return `M${f(cx)} ${f(cy)} L${f(x0)} ${f(y0)} A${f(radius)} ${f(radius)} 0 ${large} 1 ${f(x1)} ${f(y1)} Z`;
  const [h1x, h1y] = point(end, hole);
  const [h0x, h0y] = point(angle, hole);
  return (
    `M${f(x0)} ${f(y0)} A${f(radius)} ${f(radius)} 0 ${large} 1 ${f(x1)} ${f(y1)} ` +
    `L${f(h1x)} ${f(h1y)} A${f(hole)} ${f(hole)} 0 ${large} 0 ${f(h0x)} ${f(h0y)} Z`
  );
}

export async function drawPie(canvas: ChartCanvas, plot: ChartPlot, box: Box): Promise<void> {
  const text = canvas.text;
  const series = plot.series[0];
  const values = series.values.map((v) => Math.abs(v ?? 0));
  const total = values.reduce((a, b) => a + b, 0);
  const labels = series.dataLabels;
  const showOutside = labels.position === 'outEnd' && (labels.value || labels.percent || labels.category);
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
    canvas.shapes.push(pathOp(slicePath(cx, cy, radius, hole, angle, sweep), color, [1, 1, 1], 0.75));
    const middle = angle + sweep / 2;
    const at = showOutside ? radius + text.size : hole ? (radius + hole) / 2 : radius * 0.65;
    const [lx, ly] = point(middle, at);
    await dataLabel(canvas, series, i, series.values[i] ?? 0, values[i] / total, lx, ly, 'center', plot.type);
    angle += sweep;
  }
}
