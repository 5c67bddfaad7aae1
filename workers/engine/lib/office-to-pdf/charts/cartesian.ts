/**
 * Bar, column, line, area, scatter and bubble charts on two axes: gridlines, the series (series.ts),
 * axis lines and tick marks, tick labels and axis titles.
 */
import type { ChartAxis, ChartPlot } from './model.ts';
import { formatNumber, ticks, type Scale } from './scale.ts';
import { lineOp, measureText, rotatedTextOp, textOp, type Box, type ChartCanvas } from './draw.ts';
import { cartesianAxes, layoutCartesian, type CartesianAxes, type CartesianLayout } from './axes.ts';
import { drawSeries } from './series.ts';

/** A laid-out cartesian chart and where values and categories fall on it. */
export interface CartesianFrame extends CartesianAxes, CartesianLayout {
  /** The value axis's zero (or its nearest end): where bars start and the category axis runs. */
  base: number;
  /** Categories on the ticks rather than between them (line and area charts that ask for it). */
  midCat: boolean;
  span(scale: Scale): number;
  /** Where a value falls up the plot (columns, lines) or across it (horizontal bars). */
  yOf(v: number): number;
  xOfValue(v: number): number;
  /** Centre of category i along the category axis (x for columns, y for horizontal bars). */
  catPos(i: number): number;
}

function frameOf(axes: CartesianAxes, layout: CartesianLayout): CartesianFrame {
  const { plot, valueScale } = layout;
  const { categoryAxis, valueAxis, plots, count, horizontal } = axes;
  const span = (s: Scale) => s.max - s.min || 1;
  const clamp = (v: number) => Math.min(Math.max(v, valueScale.min), valueScale.max);
  const crossBetween =
    categoryAxis?.crossBetween ??
    valueAxis?.crossBetween ??
    (plots.every((p) => p.type === 'area') ? 'midCat' : 'between');
  const midCat = crossBetween === 'midCat' && !plots.some((p) => p.type === 'bar');
  const reversed = categoryAxis?.reversed ?? false;
  return {
    ...axes,
    ...layout,
    base: Math.min(Math.max(0, valueScale.min), valueScale.max),
    midCat,
    span,
    yOf: (v) => plot.y + plot.h - ((clamp(v) - valueScale.min) / span(valueScale)) * plot.h,
    xOfValue: (v) => plot.x + ((clamp(v) - valueScale.min) / span(valueScale)) * plot.w,
    catPos: (i) => {
      const j = reversed ? count - 1 - i : i;
      if (horizontal) return plot.y + plot.h - ((j + 0.5) / count) * plot.h;
      return midCat
        ? plot.x + (count > 1 ? (j / (count - 1)) * plot.w : plot.w / 2)
        : plot.x + ((j + 0.5) / count) * plot.w;
    },
  };
}

function drawGridlines(canvas: ChartCanvas, frame: CartesianFrame): void {
  const { plot, valueAxis, categoryAxis, valueScale, xScale, horizontal, xy, xOfValue, yOf } = frame;
  if (valueAxis?.gridlines) {
    for (const t of ticks(valueScale)) {
      if (horizontal)
        canvas.shapes.push(lineOp(xOfValue(t), plot.y, xOfValue(t), plot.y + plot.h, valueAxis.gridlines, 0.5));
      else canvas.shapes.push(lineOp(plot.x, yOf(t), plot.x + plot.w, yOf(t), valueAxis.gridlines, 0.5));
    }
  }
  if (xy && categoryAxis?.gridlines && xScale) {
    for (const t of ticks(xScale)) {
      const x = plot.x + ((t - xScale.min) / frame.span(xScale)) * plot.w;
      canvas.shapes.push(lineOp(x, plot.y, x, plot.y + plot.h, categoryAxis.gridlines, 0.5));
    }
  }
}

/** Axis lines (the category axis where the value axis crosses zero, the value axis on the left) and tick marks. */
function drawAxisLines(canvas: ChartCanvas, frame: CartesianFrame): void {
  const { shapes } = canvas;
  const { plot, valueAxis, categoryAxis, valueScale, horizontal, xy, base, count, midCat, xOfValue, yOf, catPos } =
    frame;
  if (categoryAxis && !categoryAxis.deleted && categoryAxis.line) {
    const at = yOf(xy ? Math.max(valueScale.min, Math.min(0, valueScale.max)) : base);
    if (horizontal)
      shapes.push(lineOp(xOfValue(base), plot.y, xOfValue(base), plot.y + plot.h, categoryAxis.line, 0.75));
    else shapes.push(lineOp(plot.x, at, plot.x + plot.w, at, categoryAxis.line, 0.75));
  }
  if (valueAxis && !valueAxis.deleted && valueAxis.line) {
    if (horizontal)
      shapes.push(lineOp(plot.x, plot.y + plot.h, plot.x + plot.w, plot.y + plot.h, valueAxis.line, 0.75));
    else shapes.push(lineOp(plot.x, plot.y, plot.x, plot.y + plot.h, valueAxis.line, 0.75));
  }
  // Tick marks: on the value axis at each tick, on the category axis between categories.
  const tick = (mark: ChartAxis['tickMark']) => ({
    out: mark === 'out' || mark === 'cross' ? 3 : 0,
    in: mark === 'in' || mark === 'cross' ? 3 : 0,
  });
  if (valueAxis && !valueAxis.deleted && valueAxis.line && valueAxis.tickMark !== 'none') {
    const t = tick(valueAxis.tickMark);
    for (const v of ticks(valueScale)) {
      if (horizontal) {
        shapes.push(
          lineOp(xOfValue(v), plot.y + plot.h - t.in, xOfValue(v), plot.y + plot.h + t.out, valueAxis.line, 0.75),
        );
      } else shapes.push(lineOp(plot.x - t.out, yOf(v), plot.x + t.in, yOf(v), valueAxis.line, 0.75));
    }
  }
  if (categoryAxis && !categoryAxis.deleted && categoryAxis.line && categoryAxis.tickMark !== 'none' && !xy) {
    const t = tick(categoryAxis.tickMark);
    for (let i = 0; i <= count; i++) {
      if (horizontal) {
        const y = plot.y + (i / count) * plot.h;
        shapes.push(lineOp(xOfValue(base) - t.out, y, xOfValue(base) + t.in, y, categoryAxis.line, 0.75));
      } else {
        const x = midCat ? catPos(Math.min(i, count - 1)) : plot.x + (i / count) * plot.w;
        if (midCat && i === count) break;
        shapes.push(lineOp(x, yOf(base) - t.in, x, yOf(base) + t.out, categoryAxis.line, 0.75));
      }
    }
  }
}

/** The category names under the plot: wrapped, or turned 45° (only every n-th when crowded). */
function drawCategoryNames(canvas: ChartCanvas, frame: CartesianFrame): void {
  const { plot, catPos, every, labelAngle } = frame;
  if (frame.rotatedLabels) {
    // (45° is drawn at 44.9°: text extraction would otherwise read the page as turned.)
    const angle = labelAngle === 45 ? 44.9 : labelAngle;
    const [sin, cos] = [Math.sin((angle * Math.PI) / 180), Math.cos((angle * Math.PI) / 180)];
    frame.rotatedLabels.forEach((label, i) => {
      if (i % every) return;
      const top = plot.y + plot.h + 4;
      // Turned up: the name ends under its tick and runs down to the left; turned down: it starts there.
      const [x, y] =
        angle > 0
          ? [
              catPos(i) - label.width * cos + label.ascent * 0.5 * sin,
              top + label.width * sin + label.ascent * 0.5 * cos,
            ]
          : [catPos(i) + label.ascent * 0.5 * sin, top + label.ascent * cos];
      canvas.texts.push(rotatedTextOp(label, x, y, angle));
    });
    return;
  }
  frame.catLabelLines.forEach((lines, i) => {
    if (i % every) return;
    lines
      .slice(0, 3)
      .forEach((label, line) =>
        canvas.texts.push(textOp(label, catPos(i) - label.width / 2, plot.y + plot.h + 3 + line * label.lineHeight)),
      );
  });
}

/** Text: value axis labels, category labels, axis titles. */
async function drawAxisLabels(canvas: ChartCanvas, frame: CartesianFrame, box: Box): Promise<void> {
  const { texts } = canvas;
  const { plot, horizontal, xy, valueScale, xScale, yScale, leftLabels, catPos, xOfValue, yOf } = frame;
  const { showValueLabels, showCategoryLabels, verticalTitle, horizontalTitle } = frame;
  if (horizontal) {
    if (showValueLabels) {
      for (const t of ticks(valueScale)) {
        const label = await measureText(canvas, formatNumber(t, frame.valueFormat), frame.valueAxis?.text);
        texts.push(textOp(label, xOfValue(t) - label.width / 2, plot.y + plot.h + 3));
      }
    }
    if (showCategoryLabels) {
      // Top to bottom, so that text extraction reads the names in the order they are shown.
      const order = [...leftLabels.keys()].sort((a, b) => catPos(a) - catPos(b));
      for (const i of order)
        texts.push(textOp(leftLabels[i], plot.x - leftLabels[i].width - 4, catPos(i) - leftLabels[i].lineHeight / 2));
    }
  } else {
    if (showValueLabels && yScale) {
      const values = ticks(yScale).reverse();
      const labels = [...leftLabels].reverse();
      values.forEach((t, i) =>
        texts.push(textOp(labels[i], plot.x - labels[i].width - 4, yOf(t) - labels[i].lineHeight / 2)),
      );
    }
    if (xy && xScale && showCategoryLabels) {
      for (const t of ticks(xScale)) {
        const label = await measureText(canvas, formatNumber(t, frame.xFormat), frame.categoryAxis?.text);
        texts.push(
          textOp(
            label,
            plot.x + ((t - xScale.min) / frame.span(xScale)) * plot.w - label.width / 2,
            plot.y + plot.h + 3,
          ),
        );
      }
    } else if (showCategoryLabels) drawCategoryNames(canvas, frame);
  }
  if (verticalTitle)
    texts.push(
      rotatedTextOp(verticalTitle, box.x + verticalTitle.ascent, plot.y + (plot.h + verticalTitle.width) / 2, 90),
    );
  if (horizontalTitle) {
    texts.push(
      textOp(
        horizontalTitle,
        plot.x + (plot.w - horizontalTitle.width) / 2,
        box.y + box.h - horizontalTitle.lineHeight,
      ),
    );
  }
}

export async function drawCartesian(canvas: ChartCanvas, plots: ChartPlot[], box: Box): Promise<void> {
  const axes = cartesianAxes(canvas, plots);
  const frame = frameOf(axes, await layoutCartesian(canvas, axes, box));
  drawGridlines(canvas, frame);
  await drawSeries(canvas, frame);
  drawAxisLines(canvas, frame);
  await drawAxisLabels(canvas, frame, box);
}
