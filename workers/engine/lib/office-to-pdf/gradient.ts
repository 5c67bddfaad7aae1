/**
 * DrawingML gradient fills as PDF shadings. pdf-lib has no gradient API, so the shading dictionary
 * (axial Type 2 for a:lin, radial Type 3 for a:path) and its colour function (Type 2 between two
 * stops, a Type 3 stitching function over several) are written with pdf-lib's low-level objects,
 * registered in the page's /Shading resources and painted with `sh`, clipped to the shape's path.
 * A rectangular path gradient is four axial shadings, one towards each side of the box.
 */
import {
  PDFDict,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  clip,
  closePath,
  concatTransformationMatrix,
  drawSvgPath,
  endPath,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import type { Rgb } from './model.ts';

export interface GradientStop {
  /** 0–1 along the gradient. */
  pos: number;
  color: Rgb;
}

export interface Gradient {
  kind: 'gradient';
  stops: GradientStop[];
  /** a:lin: the angle in degrees, clockwise from the x axis (y downwards); scaled with the box when `scaled`. */
  linear?: { angle: number; scaled: boolean };
  /**
   * a:path: circle, rect or shape (drawn as the box's ellipse), from the focus rectangle (fractions of the box inset
   * from each side).
   */
  path?: { kind: string; focus: { l: number; t: number; r: number; b: number } };
  /** The gradient turns with the shape (a:gradFill rotWithShape, Office's default). */
  rotWithShape: boolean;
}

/** The colour halfway through a gradient, for places that take one colour only (outlines). */
export function meanColor(gradient: Gradient): Rgb {
  const { stops } = gradient;
  const sum = stops.reduce<Rgb>((acc, s) => [acc[0] + s.color[0], acc[1] + s.color[1], acc[2] + s.color[2]], [0, 0, 0]);
  return sum.map((c) => c / stops.length) as Rgb;
}

/**
 * The colour function over 0–1: one exponential (Type 2) per pair of stops, stitched (Type 3) when there are several.
 */
function colorFunction(page: PDFPage, stops: GradientStop[]): PDFDict {
  const { context } = page.doc;
  const sorted = [...stops]
    .sort((a, b) => a.pos - b.pos)
    .map((s) => ({ pos: Math.min(1, Math.max(0, s.pos)), color: s.color }));
  if (sorted[0].pos > 0) sorted.unshift({ pos: 0, color: sorted[0].color });
  if (sorted[sorted.length - 1].pos < 1) sorted.push({ pos: 1, color: sorted[sorted.length - 1].color });
  const segment = (a: GradientStop, b: GradientStop) =>
    context.obj({ FunctionType: 2, Domain: [0, 1], C0: a.color, C1: b.color, N: 1 });
  if (sorted.length === 2) return segment(sorted[0], sorted[1]);
  const functions = sorted.slice(1).map((stop, i) => segment(sorted[i], stop));
  // Bounds must increase: stops at the same place are nudged apart.
  const bounds: number[] = [];
  for (const stop of sorted.slice(1, -1))
    bounds.push(Math.min(1, Math.max(stop.pos, (bounds[bounds.length - 1] ?? 0) + 1e-4)));
  return context.obj({
    FunctionType: 3,
    Domain: [0, 1],
    Functions: functions,
    Bounds: bounds,
    Encode: functions.flatMap(() => [0, 1]),
  });
}

/** Adds `value` to the page's resources of this category under a new name. */
function addResource(page: PDFPage, category: string, prefix: string, value: PDFRef): PDFName {
  const { context } = page.doc;
  const { Resources } = page.node.normalizedEntries();
  let dict = Resources.lookupMaybe(PDFName.of(category), PDFDict);
  if (!dict) Resources.set(PDFName.of(category), (dict = context.obj({})));
  let index = dict.keys().length;
  let name: PDFName;
  do name = PDFName.of(`${prefix}${++index}`);
  while (dict.has(name));
  dict.set(name, value);
  return name;
}

/**
 * Fills the SVG path `d` (box coordinates, y downwards, box origin at PDF point (x, y)) with the
 * gradient over a width × height box, turned by `rotation` radians about the box's centre.
 */
export function fillPathWithGradient(
  page: PDFPage,
  d: string,
  x: number,
  y: number,
  width: number,
  height: number,
  gradient: Gradient,
  rotation = 0,
): void {
  if (!gradient.stops.length) return;
  const { context } = page.doc;
  // drawSvgPath's operators without its paint: q, the transform to the box, the path; then clip.
  const path = drawSvgPath(d, {
    x,
    y,
    scale: undefined,
    color: undefined,
    borderColor: undefined,
    borderWidth: 0,
  }).filter((op): op is PDFOperator => Boolean(op));
  const ops: PDFOperator[] = [...path.slice(0, -2), clip(), endPath()];
  if (rotation && gradient.rotWithShape) {
    const cos = Math.cos(rotation),
      sin = Math.sin(rotation);
    ops.push(
      concatTransformationMatrix(
        cos,
        sin,
        -sin,
        cos,
        width / 2 - (width / 2) * cos + (height / 2) * sin,
        height / 2 - (width / 2) * sin - (height / 2) * cos,
      ),
    );
  }
  const fn = colorFunction(page, gradient.stops);
  const paint = (shading: PDFDict) =>
    PDFOperator.of(PDFOperatorNames.ShadingFill, [addResource(page, 'Shading', 'Sh', context.register(shading))]);
  const axial = (x0: number, y0: number, x1: number, y1: number) =>
    context.obj({
      ShadingType: 2,
      ColorSpace: 'DeviceRGB',
      Coords: [x0, y0, x1, y1],
      Function: fn,
      Extend: [true, true],
    });
  const { l, t, r, b } = gradient.path?.focus ?? { l: 0, t: 0, r: 0, b: 0 };
  if (gradient.path?.kind === 'rect') {
    // Rectangular contours: stop 0 on the focus rectangle (kept inside the box), stop 1 on the box's
    // edges. The left shading covers the box, the right one its right part, then the top and bottom
    // trapezoids go over them: each edge lies on a like colour, so no seam of white shows between.
    const clampTo = (v: number) => Math.min(1, Math.max(0, v));
    const [fl, ft] = [clampTo(l) * width, clampTo(t) * height];
    const [fr, fb] = [Math.max(fl, (1 - clampTo(r)) * width), Math.max(ft, (1 - clampTo(b)) * height)];
    const regions: Array<[number[], PDFDict]> = [
      [[0, 0, width, 0, width, height, 0, height], axial(fl, 0, 0, 0)],
      [[fr, 0, width, 0, width, height, fr, height], axial(fr, 0, width, 0)],
      [[0, 0, width, 0, fr, ft, fl, ft], axial(0, ft, 0, 0)],
      [[width, height, 0, height, fl, fb, fr, fb], axial(0, fb, 0, height)],
    ];
    for (const [[x0, y0, ...rest], shading] of regions) {
      ops.push(pushGraphicsState(), moveTo(x0, y0));
      for (let i = 0; i < rest.length; i += 2) ops.push(lineTo(rest[i], rest[i + 1]));
      ops.push(closePath(), clip(), endPath(), paint(shading), popGraphicsState());
    }
  } else if (gradient.path) {
    // Radial: stop 0 at the focus rectangle's centre, stop 1 at the farthest corner; a "shape" path
    // is drawn as the ellipse of the box (unit square scaled to it).
    const circle = gradient.path.kind === 'circle';
    const [w, h] = circle ? [width, height] : [1, 1];
    if (!circle) ops.push(concatTransformationMatrix(width, 0, 0, height, 0, 0));
    const cx = ((l + 1 - r) / 2) * w,
      cy = ((t + 1 - b) / 2) * h;
    const radius = Math.max(
      ...[
        [0, 0],
        [w, 0],
        [0, h],
        [w, h],
      ].map(([px, py]) => Math.hypot(px - cx, py - cy)),
    );
    ops.push(
      paint(
        context.obj({
          ShadingType: 3,
          ColorSpace: 'DeviceRGB',
          Coords: [cx, cy, 0, cx, cy, radius],
          Function: fn,
          Extend: [true, true],
        }),
      ),
    );
  } else {
    // Axial along the angle, across the box's whole extent in that direction.
    const { angle, scaled } = gradient.linear ?? { angle: 0, scaled: false };
    const [w, h] = scaled ? [1, 1] : [width, height];
    if (scaled) ops.push(concatTransformationMatrix(width, 0, 0, height, 0, 0));
    const a = (angle * Math.PI) / 180;
    const dx = Math.cos(a),
      dy = Math.sin(a);
    const half = (Math.abs(w * dx) + Math.abs(h * dy)) / 2;
    ops.push(paint(axial(w / 2 - half * dx, h / 2 - half * dy, w / 2 + half * dx, h / 2 + half * dy)));
  }
  ops.push(popGraphicsState());
  page.pushOperators(...ops);
}
