/**
 * DrawingML preset geometries (ECMA-376 presetShapeDefinitions.xml) as SVG paths in a w × h box
 * (y downwards), at the shape's adjust values (a:avLst) or the standard defaults, and custom
 * geometries (a:custGeom path lists). Flips and rotation are applied to the points, so arcs are
 * turned into cubic Béziers first. pdf-lib's drawSvgPath paints them.
 */
import { appendBezierCurve, closePath, lineTo, moveTo, type PDFOperator } from 'pdf-lib';
import { attr, kid, kids, num, type XmlElement } from './xml.ts';

/** One subpath list painted with one fill / stroke decision. */
export interface GeometryPath {
  d: string;
  fill: boolean;
  stroke: boolean;
  /** The path's commands in box coordinates (flipped and rotated), to place line ends and trim lines. */
  commands: Command[];
}

export type Point = [number, number];
export type Command = { op: 'M' | 'L'; p: Point } | { op: 'C'; c1: Point; c2: Point; p: Point } | { op: 'Z' };

/** Builds a path in box coordinates; arcs become Béziers so any affine map keeps the shape. */
class PathBuilder {
  readonly commands: Command[] = [];
  private current: Point = [0, 0];
  private start: Point = [0, 0];
  move(x: number, y: number): this {
    this.commands.push({ op: 'M', p: [x, y] });
    this.current = this.start = [x, y];
    return this;
  }
  line(x: number, y: number): this {
    this.commands.push({ op: 'L', p: [x, y] });
    this.current = [x, y];
    return this;
  }
  curve(x1: number, y1: number, x2: number, y2: number, x: number, y: number): this {
    this.commands.push({ op: 'C', c1: [x1, y1], c2: [x2, y2], p: [x, y] });
    this.current = [x, y];
    return this;
  }
  quad(x1: number, y1: number, x: number, y: number): this {
    const [x0, y0] = this.current;
    return this.curve(
      x0 + (2 / 3) * (x1 - x0),
      y0 + (2 / 3) * (y1 - y0),
      x + (2 / 3) * (x1 - x),
      y + (2 / 3) * (y1 - y),
      x,
      y,
    );
  }
  /**
   * DrawingML arcTo: an elliptical arc of radii wR × hR from the current point, starting at angle
   * stAng and sweeping swAng (degrees, clockwise with y down).
   */
  arc(wR: number, hR: number, stAng: number, swAng: number): this {
    const rad = (d: number) => (d * Math.PI) / 180;
    const [x0, y0] = this.current;
    const cx = x0 - wR * Math.cos(rad(stAng));
    const cy = y0 - hR * Math.sin(rad(stAng));
    for (const piece of arcBeziers(cx, cy, wR, hR, rad(stAng), rad(swAng))) this.curve(...piece);
    return this;
  }
  close(): this {
    this.commands.push({ op: 'Z' });
    this.current = this.start;
    return this;
  }
  poly(points: Point[]): this {
    points.forEach(([x, y], i) => (i === 0 ? this.move(x, y) : this.line(x, y)));
    return this.close();
  }
}

/**
 * An elliptical arc around (cx, cy) with radii rx × ry, from angle `from` sweeping `sweep` (radians, in
 * the coordinates' own direction) as cubic Béziers of at most 90° each: the two control points and the
 * end of each piece.
 */
export function arcBeziers(
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  from: number,
  sweep: number,
): Array<[number, number, number, number, number, number]> {
  const parts = Math.max(1, Math.ceil(Math.abs(sweep) / (Math.PI / 2) - 1e-9));
  const step = sweep / parts;
  const k = (4 / 3) * Math.tan(step / 4);
  const pieces: Array<[number, number, number, number, number, number]> = [];
  for (let i = 0; i < parts; i++) {
    const a = from + i * step;
    const b = a + step;
    pieces.push([
      cx + rx * (Math.cos(a) - k * Math.sin(a)),
      cy + ry * (Math.sin(a) + k * Math.cos(a)),
      cx + rx * (Math.cos(b) + k * Math.sin(b)),
      cy + ry * (Math.sin(b) - k * Math.cos(b)),
      cx + rx * Math.cos(b),
      cy + ry * Math.sin(b),
    ]);
  }
  return pieces;
}

/** A shape's adjust values: a:avLst's `<a:gd name="adj" fmla="val 50000"/>`. */
export function adjustValues(prstGeom: XmlElement | undefined): Map<string, number> {
  const values = new Map<string, number>();
  for (const gd of kids(kid(prstGeom, 'a:avLst'), 'a:gd')) {
    const match = /^val\s+(-?[\d.]+)/.exec(attr(gd, 'fmla') ?? '');
    if (match) values.set(attr(gd, 'name') ?? '', Number(match[1]));
  }
  return values;
}

const roundRectPath = (
  b: PathBuilder,
  w: number,
  h: number,
  rx: number,
  ry = rx,
  corners = [true, true, true, true],
) => {
  // corners: top-left, top-right, bottom-right, bottom-left
  const [tl, tr, br, bl] = corners.map((on) => (on ? 1 : 0));
  b.move(rx * tl, 0).line(w - rx * tr, 0);
  if (tr) b.arc(rx, ry, 270, 90);
  b.line(w, h - ry * br);
  if (br) b.arc(rx, ry, 0, 90);
  b.line(rx * bl, h);
  if (bl) b.arc(rx, ry, 90, 90);
  b.line(0, ry * tl);
  if (tl) b.arc(rx, ry, 180, 90);
  return b.close();
};

const ellipsePath = (b: PathBuilder, w: number, h: number) =>
  b
    .move(w, h / 2)
    .arc(w / 2, h / 2, 0, 360)
    .close();

/** Star with n points, outer radii scaled by hf / vf (as in the preset definitions), inner by adj / 50000. */
function starPath(b: PathBuilder, w: number, h: number, n: number, adj: number, hf = 100000, vf = 100000) {
  const rx = (w / 2) * (hf / 100000);
  const ry = (h / 2) * (vf / 100000);
  const cy = (h / 2) * (vf / 100000);
  const inner = adj / 50000;
  const points: Point[] = [];
  for (let i = 0; i < 2 * n; i++) {
    const angle = -Math.PI / 2 + (i * Math.PI) / n;
    const f = i % 2 ? inner : 1;
    points.push([w / 2 + rx * f * Math.cos(angle), cy + ry * f * Math.sin(angle)]);
  }
  return b.poly(points);
}

type Paths = Array<{ b: PathBuilder; fill: boolean; stroke: boolean }>;

/** A preset in a w × h box: its adjust values (`a` reads one with its default) and a builder for its path. */
interface PresetGeometry {
  prst: string;
  w: number;
  h: number;
  a: (name: string, fallback: number) => number;
  /** The shorter side, which most adjust values scale with. */
  ss: number;
  b: PathBuilder;
  /** The builder's path as the only one, filled unless asked not to. */
  one: (fill?: boolean) => Paths;
  pin: (lo: number, v: number, hi: number) => number;
}

/** Rectangles (rounded, snipped), flowchart boxes, ellipses. */
function rectanglePaths(g: PresetGeometry): Paths | undefined {
  const { prst, w, h, a, ss, b, one, pin } = g;
  switch (prst) {
    case 'rect':
    case 'flowChartProcess':
    case 'actionButtonBlank':
      b.poly([
        [0, 0],
        [w, 0],
        [w, h],
        [0, h],
      ]);
      return one();
    case 'roundRect':
    case 'flowChartAlternateProcess': {
      const r = (ss * pin(0, a('adj', 16667), 50000)) / 100000;
      roundRectPath(b, w, h, r);
      return one();
    }
    case 'round1Rect': {
      const r = (ss * pin(0, a('adj', 16667), 50000)) / 100000;
      roundRectPath(b, w, h, r, r, [false, true, false, false]);
      return one();
    }
    case 'round2SameRect': {
      const r = (ss * pin(0, a('adj1', 16667), 50000)) / 100000;
      roundRectPath(b, w, h, r, r, [true, true, false, false]);
      return one();
    }
    case 'snip1Rect': {
      const d = (ss * pin(0, a('adj', 16667), 50000)) / 100000;
      b.poly([
        [0, 0],
        [w - d, 0],
        [w, d],
        [w, h],
        [0, h],
      ]);
      return one();
    }
    case 'snip2SameRect': {
      const d = (ss * pin(0, a('adj1', 16667), 50000)) / 100000;
      b.poly([
        [d, 0],
        [w - d, 0],
        [w, d],
        [w, h],
        [0, h],
        [0, d],
      ]);
      return one();
    }
    case 'flowChartTerminator':
      roundRectPath(b, w, h, (w * 3475) / 21600, h / 2);
      return one();
    case 'ellipse':
    case 'flowChartConnector':
    case 'circle':
      ellipsePath(b, w, h);
      return one();
    default:
      return undefined;
  }
}

/** Triangles, diamonds, parallelograms and trapezoids. */
function triangleAndQuadrilateralPaths(g: PresetGeometry): Paths | undefined {
  const { prst, w, h, a, ss, b, one, pin } = g;
  switch (prst) {
    case 'triangle':
    case 'flowChartExtract': {
      const x = (w * pin(0, a('adj', 50000), 100000)) / 100000;
      b.poly([
        [0, h],
        [x, 0],
        [w, h],
      ]);
      return one();
    }
    case 'flowChartMerge':
      b.poly([
        [0, 0],
        [w, 0],
        [w / 2, h],
      ]);
      return one();
    case 'rtTriangle':
      b.poly([
        [0, 0],
        [w, h],
        [0, h],
      ]);
      return one();
    case 'diamond':
    case 'flowChartDecision':
      b.poly([
        [w / 2, 0],
        [w, h / 2],
        [w / 2, h],
        [0, h / 2],
      ]);
      return one();
    case 'parallelogram': {
      const x = (ss * pin(0, a('adj', 25000), (100000 * w) / ss)) / 100000;
      b.poly([
        [0, h],
        [x, 0],
        [w, 0],
        [w - x, h],
      ]);
      return one();
    }
    case 'flowChartInputOutput':
      b.poly([
        [0, h],
        [w / 5, 0],
        [w, 0],
        [(w * 4) / 5, h],
      ]);
      return one();
    case 'trapezoid': {
      const x = (ss * pin(0, a('adj', 25000), (50000 * w) / ss)) / 100000;
      b.poly([
        [0, h],
        [x, 0],
        [w - x, 0],
        [w, h],
      ]);
      return one();
    }
    case 'flowChartManualInput':
      b.poly([
        [0, h / 5],
        [w, 0],
        [w, h],
        [0, h],
      ]);
      return one();
    default:
      return undefined;
  }
}

/** Regular polygons, plus signs and the flowchart shapes with curved or extra strokes. */
function polygonPaths(g: PresetGeometry): Paths | undefined {
  const { prst, w, h, a, ss, b, one, pin } = g;
  switch (prst) {
    case 'flowChartDocument': {
      const sx = w / 21600,
        sy = h / 21600;
      b.move(0, 0)
        .line(w, 0)
        .line(w, 17322 * sy)
        .curve(10800 * sx, 17322 * sy, 10800 * sx, 23922 * sy, 0, 20172 * sy)
        .close();
      return one();
    }
    case 'flowChartPredefinedProcess': {
      b.poly([
        [0, 0],
        [w, 0],
        [w, h],
        [0, h],
      ]);
      const lines = new PathBuilder()
        .move(w / 8, 0)
        .line(w / 8, h)
        .move((w * 7) / 8, 0)
        .line((w * 7) / 8, h);
      return [
        { b, fill: true, stroke: true },
        { b: lines, fill: false, stroke: true },
      ];
    }
    case 'pentagon': {
      const swd2 = (w / 2) * 1.05146,
        shd2 = (h / 2) * 1.10557,
        svc = (h / 2) * 1.10557;
      const c18 = Math.cos(Math.PI / 10),
        s18 = Math.sin(Math.PI / 10),
        c306 = Math.cos((306 * Math.PI) / 180),
        s306 = Math.sin((306 * Math.PI) / 180);
      const y1 = svc - shd2 * s18,
        y2 = svc - shd2 * s306;
      b.poly([
        [w / 2 - swd2 * c18, y1],
        [w / 2, 0],
        [w / 2 + swd2 * c18, y1],
        [w / 2 + swd2 * c306, y2],
        [w / 2 - swd2 * c306, y2],
      ]);
      return one();
    }
    case 'hexagon': {
      const x = (ss * pin(0, a('adj', 25000), (50000 * w) / ss)) / 100000;
      const dy = (h / 2) * (a('vf', 115470) / 100000) * Math.sin(Math.PI / 3);
      b.poly([
        [0, h / 2],
        [x, h / 2 - dy],
        [w - x, h / 2 - dy],
        [w, h / 2],
        [w - x, h / 2 + dy],
        [x, h / 2 + dy],
      ]);
      return one();
    }
    case 'octagon': {
      const x = (ss * pin(0, a('adj', 29289), 50000)) / 100000;
      b.poly([
        [0, x],
        [x, 0],
        [w - x, 0],
        [w, x],
        [w, h - x],
        [w - x, h],
        [x, h],
        [0, h - x],
      ]);
      return one();
    }
    case 'plus':
    case 'flowChartOr': {
      if (prst === 'flowChartOr') {
        ellipsePath(b, w, h);
        return [
          { b, fill: true, stroke: true },
          {
            b: new PathBuilder()
              .move(w / 2, 0)
              .line(w / 2, h)
              .move(0, h / 2)
              .line(w, h / 2),
            fill: false,
            stroke: true,
          },
        ];
      }
      const x = (ss * pin(0, a('adj', 25000), 50000)) / 100000;
      b.poly([
        [0, x],
        [x, x],
        [x, 0],
        [w - x, 0],
        [w - x, x],
        [w, x],
        [w, h - x],
        [w - x, h - x],
        [w - x, h],
        [x, h],
        [x, h - x],
        [0, h - x],
      ]);
      return one();
    }
    default:
      return undefined;
  }
}

/** Stars with 4, 5, 6 and 8 points. */
function starPaths(g: PresetGeometry): Paths | undefined {
  const { prst, w, h, a, b, one } = g;
  switch (prst) {
    case 'star4':
      starPath(b, w, h, 4, a('adj', 12500));
      return one();
    case 'star5':
      starPath(b, w, h, 5, a('adj', 19098), a('hf', 105146), a('vf', 110557));
      return one();
    case 'star6':
      starPath(b, w, h, 6, a('adj', 28868), a('hf', 115470));
      return one();
    case 'star8':
      starPath(b, w, h, 8, a('adj', 38250));
      return one();
    default:
      return undefined;
  }
}

/** Block arrows, chevrons and home plates. */
function arrowPaths(g: PresetGeometry): Paths | undefined {
  const { prst, w, h, a, ss, b, one, pin } = g;
  switch (prst) {
    case 'rightArrow':
    case 'leftArrow': {
      const dy = (h * pin(0, a('adj1', 50000), 100000)) / 200000;
      const dx = (ss * pin(0, a('adj2', 50000), (100000 * w) / ss)) / 100000;
      const pts: Point[] = [
        [0, h / 2 - dy],
        [w - dx, h / 2 - dy],
        [w - dx, 0],
        [w, h / 2],
        [w - dx, h],
        [w - dx, h / 2 + dy],
        [0, h / 2 + dy],
      ];
      b.poly(prst === 'leftArrow' ? pts.map(([x, y]) => [w - x, y]) : pts);
      return one();
    }
    case 'downArrow':
    case 'upArrow': {
      const dx = (w * pin(0, a('adj1', 50000), 100000)) / 200000;
      const dy = (ss * pin(0, a('adj2', 50000), (100000 * h) / ss)) / 100000;
      const pts: Point[] = [
        [w / 2 - dx, 0],
        [w / 2 + dx, 0],
        [w / 2 + dx, h - dy],
        [w, h - dy],
        [w / 2, h],
        [0, h - dy],
        [w / 2 - dx, h - dy],
      ];
      b.poly(prst === 'upArrow' ? pts.map(([x, y]) => [x, h - y]) : pts);
      return one();
    }
    case 'leftRightArrow': {
      const dy = (h * pin(0, a('adj1', 50000), 100000)) / 200000;
      const dx = (ss * pin(0, a('adj2', 50000), (50000 * w) / ss)) / 100000;
      b.poly([
        [0, h / 2],
        [dx, 0],
        [dx, h / 2 - dy],
        [w - dx, h / 2 - dy],
        [w - dx, 0],
        [w, h / 2],
        [w - dx, h],
        [w - dx, h / 2 + dy],
        [dx, h / 2 + dy],
        [dx, h],
      ]);
      return one();
    }
    case 'upDownArrow': {
      const dx = (w * pin(0, a('adj1', 50000), 100000)) / 200000;
      const dy = (ss * pin(0, a('adj2', 50000), (50000 * h) / ss)) / 100000;
      b.poly([
        [w / 2, 0],
        [w, dy],
        [w / 2 + dx, dy],
        [w / 2 + dx, h - dy],
        [w, h - dy],
        [w / 2, h],
        [0, h - dy],
        [w / 2 - dx, h - dy],
        [w / 2 - dx, dy],
        [0, dy],
      ]);
      return one();
    }
    case 'chevron': {
      const x = (ss * pin(0, a('adj', 50000), (100000 * w) / ss)) / 100000;
      b.poly([
        [0, 0],
        [w - x, 0],
        [w, h / 2],
        [w - x, h],
        [0, h],
        [x, h / 2],
      ]);
      return one();
    }
    case 'homePlate': {
      const x = (ss * pin(0, a('adj', 50000), (100000 * w) / ss)) / 100000;
      b.poly([
        [0, 0],
        [w - x, 0],
        [w, h / 2],
        [w - x, h],
        [0, h],
      ]);
      return one();
    }
    default:
      return undefined;
  }
}

/** Wedge callouts, lines and connectors (connectors are not filled). */
function calloutAndLinePaths(g: PresetGeometry): Paths | undefined {
  const { prst, w, h, a, b, one } = g;
  switch (prst) {
    case 'wedgeRectCallout':
    case 'wedgeRoundRectCallout': {
      const dxPos = (w * a('adj1', -20833)) / 100000;
      const dyPos = (h * a('adj2', 62500)) / 100000;
      const tip: Point = [w / 2 + dxPos, h / 2 + dyPos];
      const vertical = Math.abs(dyPos) - Math.abs((dxPos * h) / w) > 0;
      const [x1, x2] = dxPos > 0 ? [(w * 7) / 12, (w * 10) / 12] : [(w * 2) / 12, (w * 5) / 12];
      const [y1, y2] = dyPos > 0 ? [(h * 7) / 12, (h * 10) / 12] : [(h * 2) / 12, (h * 5) / 12];
      const pts: Point[] = [[0, 0]];
      if (vertical && dyPos < 0) pts.push([x1, 0], tip, [x2, 0]);
      pts.push([w, 0]);
      if (!vertical && dxPos > 0) pts.push([w, y1], tip, [w, y2]);
      pts.push([w, h]);
      if (vertical && dyPos > 0) pts.push([x2, h], tip, [x1, h]);
      pts.push([0, h]);
      if (!vertical && dxPos < 0) pts.push([0, y2], tip, [0, y1]);
      b.poly(pts);
      return one();
    }
    case 'line':
    case 'straightConnector1':
      b.move(0, 0).line(w, h);
      return one(false);
    case 'bentConnector2':
      b.move(0, 0).line(w, 0).line(w, h);
      return one(false);
    case 'bentConnector3': {
      const x = (w * a('adj1', 50000)) / 100000;
      b.move(0, 0).line(x, 0).line(x, h).line(w, h);
      return one(false);
    }
    case 'curvedConnector2':
      b.move(0, 0).curve(w / 2, 0, w, h / 2, w, h);
      return one(false);
    case 'curvedConnector3': {
      const x = (w * a('adj1', 50000)) / 100000;
      b.move(0, 0)
        .curve(x / 2, 0, x, h / 4, x, h / 2)
        .curve(x, (h * 3) / 4, (w + x) / 2, h, w, h);
      return one(false);
    }
    default:
      return undefined;
  }
}

/**
 * The preset's paths in a w × h box, or undefined when the preset is not known here. `a` reads an
 * adjust value with its default.
 */
function presetPaths(prst: string, w: number, h: number, av: Map<string, number>): Paths | undefined {
  const b = new PathBuilder();
  const g: PresetGeometry = {
    prst,
    w,
    h,
    b,
    a: (name, fallback) => av.get(name) ?? fallback,
    ss: Math.min(w, h),
    one: (fill = true) => [{ b, fill, stroke: true }],
    pin: (lo, v, hi) => Math.min(hi, Math.max(lo, v)),
  };
  return (
    rectanglePaths(g) ??
    triangleAndQuadrilateralPaths(g) ??
    polygonPaths(g) ??
    starPaths(g) ??
    arrowPaths(g) ??
    calloutAndLinePaths(g)
  );
}

/** a:custGeom's a:pathLst, each path scaled from its own w × h to the box. */
function customPaths(
  custGeom: XmlElement,
  w: number,
  h: number,
): Array<{ b: PathBuilder; fill: boolean; stroke: boolean }> {
  const out: Array<{ b: PathBuilder; fill: boolean; stroke: boolean }> = [];
  for (const path of kids(kid(custGeom, 'a:pathLst'), 'a:path')) {
    const sx = num(path, 'w') ? w / num(path, 'w')! : 1;
    const sy = num(path, 'h') ? h / num(path, 'h')! : 1;
    const pt = (el: XmlElement | undefined): Point => [(num(el, 'x') ?? 0) * sx, (num(el, 'y') ?? 0) * sy];
    const b = new PathBuilder();
    for (const cmd of kids(path)) {
      const pts = kids(cmd, 'a:pt').map(pt);
      if (cmd.nodeName === 'a:moveTo' && pts[0]) b.move(...pts[0]);
      else if (cmd.nodeName === 'a:lnTo' && pts[0]) b.line(...pts[0]);
      else if (cmd.nodeName === 'a:cubicBezTo' && pts.length === 3) b.curve(...pts[0], ...pts[1], ...pts[2]);
      else if (cmd.nodeName === 'a:quadBezTo' && pts.length === 2) b.quad(...pts[0], ...pts[1]);
      else if (cmd.nodeName === 'a:arcTo')
        b.arc(
          (num(cmd, 'wR') ?? 0) * sx,
          (num(cmd, 'hR') ?? 0) * sy,
          (num(cmd, 'stAng') ?? 0) / 60000,
          (num(cmd, 'swAng') ?? 0) / 60000,
        );
      else if (cmd.nodeName === 'a:close') b.close();
    }
    if (b.commands.length)
      out.push({
        b,
        fill: attr(path, 'fill') !== 'none',
        stroke: attr(path, 'stroke') !== '0' && attr(path, 'stroke') !== 'false',
      });
  }
  return out;
}

/**
 * The geometry of a shape's spPr in a w × h box, flipped and rotated as its a:xfrm says (about the
 * box's centre), as SVG paths; undefined when the preset is unknown (the caller draws a rectangle).
 * Formulas (gd with anything but "val") are not evaluated: custom paths use plain numbers only.
 */
export function shapeGeometry(
  spPr: XmlElement | undefined,
  w: number,
  h: number,
): { paths: GeometryPath[]; known: boolean; open: boolean } {
  const prstGeom = kid(spPr, 'a:prstGeom');
  const custGeom = kid(spPr, 'a:custGeom');
  const prst = attr(prstGeom, 'prst') ?? (custGeom ? undefined : 'rect');
  let parts = prst
    ? presetPaths(prst, w, h, adjustValues(prstGeom))
    : custGeom
      ? customPaths(custGeom, w, h)
      : undefined;
  const known = Boolean(parts && parts.length);
  if (!parts || !parts.length) parts = presetPaths('rect', w, h, new Map())!;
  const xfrm = kid(spPr, 'a:xfrm');
  const flipH = attr(xfrm, 'flipH') === '1';
  const flipV = attr(xfrm, 'flipV') === '1';
  const rot = ((num(xfrm, 'rot') ?? 0) / 60000) * (Math.PI / 180);
  const cos = Math.cos(rot),
    sin = Math.sin(rot);
  const map = ([x, y]: Point): Point => {
    const fx = flipH ? w - x : x;
    const fy = flipV ? h - y : y;
    if (!rot) return [fx, fy];
    const dx = fx - w / 2,
      dy = fy - h / 2;
    return [w / 2 + dx * cos - dy * sin, h / 2 + dx * sin + dy * cos];
  };
  const mapCommand = (c: Command): Command =>
    c.op === 'Z'
      ? c
      : c.op === 'C'
        ? { op: 'C', c1: map(c.c1), c2: map(c.c2), p: map(c.p) }
        : { op: c.op, p: map(c.p) };
  const paths = parts.map(({ b, fill, stroke }) => {
    const commands = b.commands.map(mapCommand);
    return { fill, stroke, commands, d: svgPath(commands) };
  });
  const open = parts.every((part) => !part.fill);
  return { paths, known, open };
}

/** Commands as an SVG path string (what pdf-lib's drawSvgPath reads). */
export function svgPath(commands: Command[]): string {
  const f = (v: number) => (Math.abs(v) < 1e-9 ? '0' : String(Math.round(v * 1000) / 1000));
  const xy = ([x, y]: Point) => `${f(x)} ${f(y)}`;
  return commands
    .map((c) => (c.op === 'Z' ? 'Z' : c.op === 'C' ? `C ${xy(c.c1)} ${xy(c.c2)} ${xy(c.p)}` : `${c.op} ${xy(c.p)}`))
    .join(' ');
}

/**
 * An open path's two ends, each as its tip and the point the line comes from (for the direction of
 * an arrowhead); undefined for a closed or empty path.
 */
export function pathEnds(commands: Command[]): { head: [Point, Point]; tail: [Point, Point] } | undefined {
  if (commands.length < 2 || commands.some((c) => c.op === 'Z') || commands[0].op !== 'M') return undefined;
  const first = commands[1];
  const last = commands[commands.length - 1];
  const before = commands[commands.length - 2];
  if (first.op === 'Z' || last.op === 'Z' || before.op === 'Z') return undefined;
  const start = commands[0].p;
  return {
    head: [start, first.op === 'C' ? first.c1 : first.p],
    tail: [last.p, last.op === 'C' ? last.c2 : before.p],
  };
}

/** Commands as PDF path operators in page coordinates (the box's top-left corner at (x, y), y upwards). */
export function pathOperators(commands: Command[], x: number, y: number): PDFOperator[] {
  const at = ([px, py]: Point): [number, number] => [x + px, y - py];
  return commands.map((c) => {
    if (c.op === 'Z') return closePath();
    if (c.op === 'C') return appendBezierCurve(...at(c.c1), ...at(c.c2), ...at(c.p));
    return c.op === 'M' ? moveTo(...at(c.p)) : lineTo(...at(c.p));
  });
}
