/**
 * The axes of bar, line, area, scatter and bubble charts: which axis is which, the value range,
 * automatic scales fitted to the room for their labels, and the plot rectangle left once the tick
 * labels (category names wrapped, or turned 45° when even wrapped they do not fit) and axis titles
 * have their room.
 */
import type { ChartAxis, ChartPlot } from './model.ts';
import { formatNumber, niceScale, ticks, type Scale } from './scale.ts';
import { measureText, type Box, type ChartCanvas, type Label } from './draw.ts';

/** What the axes of a cartesian chart are, before anything is measured. */
export interface CartesianAxes {
  plots: ChartPlot[];
  first: ChartPlot;
  /** Scatter and bubble charts: both axes are value axes. */
  xy: boolean;
  /** Horizontal bars: categories up the side, values along the bottom. */
  horizontal: boolean;
  valueAxis?: ChartAxis;
  /** The category axis (the x value axis of scatter and bubble charts). */
  categoryAxis?: ChartAxis;
  categories: string[];
  /** Categories (points per series) along the category axis. */
  count: number;
  /** A 100 % stacked plot: the value axis runs from 0 to 100 %. */
  percent: boolean;
}

/** The plot rectangle and scales of a cartesian chart, with the labels measured to fit them. */
export interface CartesianLayout {
  plot: Box;
  valueScale: Scale;
  xScale?: Scale;
  yScale?: Scale;
  valueFormat: string;
  xFormat: string;
  showValueLabels: boolean;
  showCategoryLabels: boolean;
  /** Labels up the left side: category names of horizontal bars, else the value ticks. */
  leftLabels: Label[];
  /** Category names wrapped to their slots, line by line. */
  catLabelLines: Label[][];
  /** Category names turned (the axis's own angle, else 45° when even wrapped they do not fit). */
  rotatedLabels?: Label[];
  /** Degrees anticlockwise the rotated names are turned. */
  labelAngle: number;
  /** Only every n-th category name is shown. */
  every: number;
  verticalTitle?: Label;
  horizontalTitle?: Label;
}

export function cartesianAxes(canvas: ChartCanvas, plots: ChartPlot[]): CartesianAxes {
  const axes = canvas.model.axes;
  const first = plots[0];
  const xy = first.type === 'scatter' || first.type === 'bubble';
  const horizontal = first.type === 'bar' && first.barDir === 'bar';
  const valueAxis =
    axes.find((a) => a.kind === 'val' && (!xy || a.position === 'l' || a.position === 'r')) ??
    axes.find((a) => a.kind === 'val');
  const categoryAxis = xy
    ? axes.find((a) => a.kind === 'val' && a !== valueAxis)
    : axes.find((a) => a.kind === 'cat' || a.kind === 'date');
  const given = first.series.reduce<string[]>(
    (best, s) => (s.categories.length > best.length ? s.categories : best),
    [],
  );
  const count = Math.max(1, given.length, ...plots.flatMap((p) => p.series.map((s) => s.values.length)));
  // Series without categories (no c:cat) are labelled 1, 2, 3… on the axis, as Excel and LibreOffice do.
  const categories = given.length || xy ? given : Array.from({ length: count }, (_, i) => String(i + 1));
  const percent = plots.some((p) => p.grouping === 'percentStacked');
  return { plots, first, xy, horizontal, valueAxis, categoryAxis, categories, count, percent };
}

/** The range of the values (stacks summed per category, 100 % stacks as fractions). */
function valueRange({ plots, count }: CartesianAxes): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const plot of plots) {
    if (
      plot.type !== 'scatter' &&
      plot.type !== 'bubble' &&
      (plot.grouping === 'stacked' || plot.grouping === 'percentStacked')
    ) {
      for (let i = 0; i < count; i++) {
        let pos = 0,
          neg = 0,
          abs = 0;
        for (const s of plot.series) {
          const v = s.values[i] ?? 0;
          if (v >= 0) pos += v;
          else neg += v;
          abs += Math.abs(v);
        }
        if (plot.grouping === 'percentStacked') {
          pos = abs ? pos / abs : 0;
          neg = abs ? neg / abs : 0;
        }
        lo = Math.min(lo, neg);
        hi = Math.max(hi, pos);
      }
    } else {
      for (const s of plot.series) {
        for (const v of s.values) {
          if (v === null) continue;
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    }
  }
  return Number.isFinite(lo) ? [lo, hi] : [0, 1];
}

/** The number format of the value axis's labels: 100 %, the axis's own, or the first series'. */
function valueFormatOf({ percent, valueAxis, first }: CartesianAxes): string {
  if (percent) return '0%';
  if (valueAxis?.formatCode && !(valueAxis.linked && valueAxis.formatCode === 'General')) {
    return valueAxis.linked ? first.series[0].formatCode : valueAxis.formatCode;
  }
  return first.series[0].formatCode;
}

/**
 * An axis's scale for `length` points: about one tick per text height (fitted to LibreOffice's
 * output), 100 % axes by tens; along x, fewer ticks until their labels fit side by side.
 */
async function scaleFor(
  canvas: ChartCanvas,
  axes: CartesianAxes,
  length: number,
  along: 'x' | 'y',
  min: number,
  max: number,
  axis: ChartAxis | undefined,
  format: string,
  zero: boolean,
): Promise<Scale> {
  const { valueAxis, percent, plots } = axes;
  const text = axis?.text ?? canvas.text;
  const percentAxis = percent && axis === valueAxis;
  let maxCount = percentAxis ? 10 : Math.min(10, Math.max(2, Math.floor(length / (text.size * 1.06))));
  const fixed = {
    min: axis?.min ?? (percentAxis ? 0 : undefined),
    max: axis?.max ?? (percentAxis ? 1 : undefined),
    step: axis?.majorUnit,
    expandNearBorder: !plots.some((p) => p.threeD),
  };
  let scale = niceScale(min, max, maxCount, { includeZero: zero, expandToZero: axis === valueAxis, ...fixed });
  if (along === 'x') {
    for (let guard = 0; guard < 6; guard++) {
      // Labels side by side may nearly touch (as LibreOffice places them), not overlap.
      const labels = await Promise.all(ticks(scale).map((t) => measureText(canvas, formatNumber(t, format), text)));
      const widths = labels.map((l) => l.width);
      const fits = Math.floor(length / (0.9 * (widths.reduce((a, b) => a + b, 0) / widths.length)));
      if (fits >= (scale.max - scale.min) / scale.step || fixed.step || maxCount <= 1) break;
      maxCount = Math.max(1, fits);
      scale = niceScale(min, max, maxCount, { includeZero: zero, expandToZero: axis === valueAxis, ...fixed });
    }
  }
  return scale;
}

/** Category names wrapped at spaces to their slot's width, in the axis's text style. */
async function wrapCategories(
  canvas: ChartCanvas,
  categories: string[],
  slot: number,
  style = canvas.text,
): Promise<Label[][]> {
  const out: Label[][] = [];
  for (const c of categories) {
    const words = c.split(/\s+/).filter(Boolean);
    const lines: string[] = [];
    for (const word of words) {
      const last = lines[lines.length - 1];
      if (last !== undefined && (await measureText(canvas, `${last} ${word}`, style)).width <= slot * 0.95) {
        lines[lines.length - 1] = `${last} ${word}`;
      } else lines.push(word);
    }
    out.push(await Promise.all((lines.length ? lines : ['']).map((l) => measureText(canvas, l, style))));
  }
  return out;
}

/**
 * The plot rectangle inside `box`, leaving room for the tick labels and axis titles. The room the
 * category names need depends on the plot's width, so the layout is tried up to three times.
 */
export async function layoutCartesian(canvas: ChartCanvas, axes: CartesianAxes, box: Box): Promise<CartesianLayout> {
  const { plots, xy, horizontal, valueAxis, categoryAxis, categories, count } = axes;
  const [lo, hi] = valueRange(axes);
  const includeZero = plots.some((p) => p.type === 'bar' || p.type === 'area');
  const valueFormat = valueFormatOf(axes);
  const showValueLabels = !!valueAxis && !valueAxis.deleted && valueAxis.labels;
  const showCategoryLabels = !!categoryAxis && !categoryAxis.deleted && categoryAxis.labels;
  // Each axis's labels in its own text style (c:txPr): the names along the bottom, the ticks up the side.
  const bottomStyle = (horizontal ? valueAxis : categoryAxis)?.text ?? canvas.text;
  const leftStyle = (horizontal ? categoryAxis : valueAxis)?.text ?? canvas.text;
  const lh = (await measureText(canvas, '0', bottomStyle)).lineHeight;
  const leftLh = (await measureText(canvas, '0', leftStyle)).lineHeight;
  const bold = { ...canvas.text, bold: true };
  const valueTitle =
    valueAxis?.title && !valueAxis.deleted ? await measureText(canvas, valueAxis.title, bold) : undefined;
  const categoryTitle =
    categoryAxis?.title && !categoryAxis.deleted ? await measureText(canvas, categoryAxis.title, bold) : undefined;
  const verticalTitle = horizontal ? categoryTitle : valueTitle;
  const horizontalTitle = horizontal ? valueTitle : categoryTitle;
  const xValues = xy
    ? plots.flatMap((p) => p.series.flatMap((s) => s.xValues ?? [])).filter((v): v is number => v !== null)
    : [];
  const xFormat = xy
    ? categoryAxis?.formatCode && !categoryAxis.linked
      ? categoryAxis.formatCode
      : 'General'
    : 'General';

  // Category labels (or the x value axis of scatter charts), wrapped to their slots.
  const bottomLabelsShown = horizontal ? showValueLabels : showCategoryLabels;
  const leftLabelsShown = horizontal ? showCategoryLabels : showValueLabels;
  const titleRoom = verticalTitle ? verticalTitle.lineHeight + 4 : 0;
  let plot: Box = { ...box };
  let yScale: Scale | undefined;
  let xScale: Scale | undefined;
  let leftLabels: Label[] = [];
  let bottomLines = 1;
  let catLabelLines: Label[][] = [];
  let every = 1;
  let rotatedLabels: Label[] | undefined;
  let labelAngle = 45;
  let bottomExtra = 0;
  for (let pass = 0; pass < 3; pass++) {
    const bottomHeight = bottomLabelsShown ? (bottomExtra || lh * bottomLines) + 4 : 0;
    const plotH = Math.max(10, box.h - bottomHeight - (horizontalTitle ? horizontalTitle.lineHeight + 4 : 0));
    if (horizontal) {
      leftLabels = showCategoryLabels
        ? await Promise.all(categories.map((c) => measureText(canvas, c, leftStyle)))
        : [];
    } else {
      yScale = await scaleFor(canvas, axes, plotH - leftLh / 2, 'y', lo, hi, valueAxis, valueFormat, includeZero);
      leftLabels = leftLabelsShown
        ? await Promise.all(ticks(yScale).map((t) => measureText(canvas, formatNumber(t, valueFormat), leftStyle)))
        : [];
    }
    const leftWidth = leftLabelsShown ? Math.min(box.w * 0.4, Math.max(0, ...leftLabels.map((l) => l.width))) + 4 : 0;
    plot = {
      x: box.x + leftWidth + titleRoom,
      y: box.y + leftLh / 2,
      w: Math.max(10, box.w - leftWidth - titleRoom - 2),
      h: Math.max(10, plotH - leftLh / 2),
    };
    if (horizontal) xScale = await scaleFor(canvas, axes, plot.w, 'x', lo, hi, valueAxis, valueFormat, includeZero);
    else if (xy) {
      xScale = await scaleFor(
        canvas,
        axes,
        plot.w,
        'x',
        Math.min(...xValues),
        Math.max(...xValues),
        categoryAxis,
        xFormat,
        false,
      );
    } else if (showCategoryLabels) {
      // Wrap category names at spaces to their slot's width; when even that is too wide, show every n-th.
      const slot = plot.w / count;
      const skip = categoryAxis?.labelSkip;
      const angle = categoryAxis?.labelAngle;
      catLabelLines = angle ? [] : await wrapCategories(canvas, categories, slot, bottomStyle);
      const widest = Math.max(0, ...catLabelLines.flat().map((l) => l.width));
      // Names turned by the axis's own angle; else those that do not fit even wrapped are turned 45°
      // (as LibreOffice and Excel do), only every n-th when crowded unless the axis says which.
      if (angle || (widest > slot * 0.95 && count > 1)) {
        labelAngle = angle ?? 45;
        rotatedLabels = await Promise.all(categories.map((c) => measureText(canvas, c, bottomStyle)));
        const longest = Math.max(0, ...rotatedLabels.map((l) => l.width));
        const [sin, cos] = [Math.abs(Math.sin((labelAngle * Math.PI) / 180)), Math.cos((labelAngle * Math.PI) / 180)];
        every = skip ?? Math.max(1, Math.ceil((lh * 1.2) / slot));
        const needed = Math.min(longest, box.h * 0.4) * sin + lh * Math.max(cos, 0.7);
        if (Math.abs(needed - bottomExtra) < 1) break;
        bottomExtra = needed;
        continue;
      }
      rotatedLabels = undefined;
      every = skip ?? 1;
      const needed = Math.min(3, Math.max(1, ...catLabelLines.map((l) => l.length)));
      if (needed === bottomLines) break;
      bottomLines = needed;
      continue;
    }
    break;
  }
  return {
    plot,
    valueScale: horizontal ? xScale! : yScale!,
    xScale,
    yScale,
    valueFormat,
    xFormat,
    showValueLabels,
    showCategoryLabels,
    leftLabels,
    catLabelLines,
    rotatedLabels,
    labelAngle,
    every,
    verticalTitle,
    horizontalTitle,
  };
}
