/**
 * The Windows GDI device context that EMF and WMF records drive (MS-EMF §3.1, MS-WMF §3.1): the
 * logical → device mapping (world transform, map mode, window / viewport), the selected pen, brush
 * and font, and a display list in device coordinates that metafile/pdf.ts turns into PDF operators.
 * Only the subset in docs/office.md is understood; what is left out is counted so the result can say so.
 */
import { applyTransform, IDENTITY, transform, type Matrix } from '../../pdf/matrix.ts';
import { arcBeziers } from '../geometry.ts';

/** Caps that keep a hostile file (a billion-point polygon, a huge object table) from costing more than milliseconds. */
export const MAX_RECORDS = 500_000;
export const MAX_POINTS = 2_000_000;
export const MAX_OBJECTS = 65_536;
const MAX_SAVED_STATES = 1_000;
const MAX_TEXT_ITEMS = 50_000;

/** A metafile this renderer cannot draw (damaged, outside the subset, or over a cap): the caller falls back. */
export class MetafileError extends Error {}

export type Rgb = [number, number, number];
export type Segment =
  | { op: 'M' | 'L'; x: number; y: number }
  | { op: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { op: 'Z' };

export interface Pen {
  color: Rgb;
  /** In logical units; 0 = one device pixel. */
  width: number;
  style: number;
}
export interface Brush {
  color: Rgb;
  kind: 'solid' | 'null' | 'hatch' | 'other';
  /** HS_HORIZONTAL … HS_DIAGCROSS (0–5) for a hatched brush. */
  hatch?: number;
}
export interface LogFont {
  height: number;
  weight: number;
  italic: boolean;
  underline: boolean;
  strikeout: boolean;
  escapement: number;
  charset: number;
  face: string;
}
export type GdiObject =
  { kind: 'pen'; pen: Pen } | { kind: 'brush'; brush: Brush } | { kind: 'font'; font: LogFont } | { kind: 'other' };

export interface ClipPath {
  path: Segment[];
  evenOdd: boolean;
}

export type Item =
  | { kind: 'path'; path: Segment[]; fill?: Rgb; evenOdd: boolean; stroke?: StrokeStyle; clip: ClipPath[] }
  | {
      kind: 'text';
      text: string;
      font: LogFont;
      /** The em in device units and the horizontal stretch (anisotropic mapping). */
      em: number;
      stretch: number;
      /** Counter-clockwise on the page, in degrees. */
      angle: number;
      x: number;
      y: number;
      color: Rgb;
      /** Device distance from each character to the next, when the record gives them. */
      advances?: number[];
      align: { horizontal: 'left' | 'center' | 'right'; vertical: 'baseline' | 'top' | 'bottom' };
      clip: ClipPath[];
    }
  | { kind: 'bitmap'; bmp: Uint8Array; matrix: Matrix; clip: ClipPath[]; transparent?: Rgb };

export interface StrokeStyle {
  color: Rgb;
  width: number;
  dash: number[];
  cap: 0 | 1 | 2;
  join: 0 | 1 | 2;
}

/** The default pen (BLACK_PEN, a cosmetic solid line). */
const BLACK_PEN: Pen = { color: [0, 0, 0], width: 0, style: 0 };

const STOCK_OBJECTS: Record<number, GdiObject> = {
  0: { kind: 'brush', brush: { color: [255, 255, 255], kind: 'solid' } },
  1: { kind: 'brush', brush: { color: [192, 192, 192], kind: 'solid' } },
  2: { kind: 'brush', brush: { color: [128, 128, 128], kind: 'solid' } },
  3: { kind: 'brush', brush: { color: [64, 64, 64], kind: 'solid' } },
  4: { kind: 'brush', brush: { color: [0, 0, 0], kind: 'solid' } },
  5: { kind: 'brush', brush: { color: [0, 0, 0], kind: 'null' } },
  6: { kind: 'pen', pen: { color: [255, 255, 255], width: 0, style: 0 } },
  7: { kind: 'pen', pen: BLACK_PEN },
  8: { kind: 'pen', pen: { color: [0, 0, 0], width: 0, style: 5 } },
};
const DEFAULT_FONT: LogFont = {
  height: 12,
  weight: 400,
  italic: false,
  underline: false,
  strikeout: false,
  escapement: 0,
  charset: 0,
  face: 'Arial',
};
for (const id of [10, 11, 12, 13, 14, 16, 17]) STOCK_OBJECTS[id] = { kind: 'font', font: DEFAULT_FONT };

interface DcState {
  world: Matrix;
  mapMode: number;
  winOrg: [number, number];
  winExt: [number, number];
  vpOrg: [number, number];
  vpExt: [number, number];
  pen: Pen;
  brush: Brush;
  font: LogFont;
  textColor: Rgb;
  bkColor: Rgb;
  bkMode: number;
  textAlign: number;
  evenOdd: boolean;
  clip: ClipPath[];
  position: [number, number];
}

const PS_NULL = 5;
export const SRCCOPY = 0xcc0020;
const SRCAND = 0x8800c6;
const SRCINVERT = 0x660046;
const SRCPAINT = 0xee0086;
const NOP = 0xaa0029;
const TA_UPDATECP = 1;

export class Dc {
  state: DcState;
  private readonly saved: DcState[] = [];
  readonly items: Item[] = [];
  /** Records that would paint something but are outside the subset, by a short description. */
  readonly leftOut = new Set<string>();
  private points = 0;
  private texts = 0;
  /** The path being built between BEGINPATH and ENDPATH, when one is. */
  path: Segment[] | undefined;
  private readonly objects = new Map<number, GdiObject>();

  /** Device pixels per millimetre of the reference device (for the fixed map modes). */
  constructor(private readonly pixelsPerMm: [number, number]) {
    this.state = {
      world: IDENTITY,
      mapMode: 1,
      winOrg: [0, 0],
      winExt: [1, 1],
      vpOrg: [0, 0],
      vpExt: [1, 1],
      pen: BLACK_PEN,
      brush: { color: [255, 255, 255], kind: 'solid' },
      font: DEFAULT_FONT,
      textColor: [0, 0, 0],
      bkColor: [255, 255, 255],
      bkMode: 2,
      textAlign: 0,
      evenOdd: true,
      clip: [],
      position: [0, 0],
    };
  }

  save(): void {
    if (this.saved.length >= MAX_SAVED_STATES) throw new MetafileError('too many saved states');
    this.saved.push({ ...this.state, clip: [...this.state.clip] });
  }

  /** RESTOREDC: a negative count is relative (-1 = the last saved), a positive one absolute. */
  restore(which: number): void {
    const index = which < 0 ? this.saved.length + which : which - 1;
    if (index < 0 || index >= this.saved.length) return;
    this.state = this.saved[index];
    this.saved.length = index;
  }

  /** Page space → device space (map mode, window and viewport). */
  pageToDevice(): Matrix {
    const { mapMode, winOrg, winExt, vpOrg, vpExt } = this.state;
    const [pxX, pxY] = this.pixelsPerMm;
    const fixed: Record<number, number> = { 2: 0.1, 3: 0.01, 4: 0.254, 5: 0.0254, 6: 25.4 / 1440 };
    let sx = 1;
    let sy = 1;
    if (fixed[mapMode]) [sx, sy] = [fixed[mapMode] * pxX, -fixed[mapMode] * pxY];
    else if (mapMode === 7 || mapMode === 8) {
      sx = winExt[0] ? vpExt[0] / winExt[0] : 1;
      sy = winExt[1] ? vpExt[1] / winExt[1] : 1;
      if (mapMode === 7) {
        const scale = Math.min(Math.abs(sx), Math.abs(sy));
        [sx, sy] = [Math.sign(sx) * scale, Math.sign(sy) * scale];
      }
    }
    return [sx, 0, 0, sy, vpOrg[0] - winOrg[0] * sx, vpOrg[1] - winOrg[1] * sy];
  }

  /** Logical → device: the world transform, then the page mapping. */
  toDevice(): Matrix {
    return transform(this.pageToDevice(), this.state.world);
  }

  countPoints(n: number): void {
    this.points += n;
    if (!(n >= 0) || this.points > MAX_POINTS) throw new MetafileError('too many points');
  }

  // ---- objects ----

  setObject(index: number, object: GdiObject): void {
    if (!(index >= 0 && index < MAX_OBJECTS)) throw new MetafileError('object index out of range');
    this.objects.set(index, object);
  }

  brushAt(index: number): Brush | undefined {
    const object = index & 0x80000000 ? STOCK_OBJECTS[index & 0x7fffffff] : this.objects.get(index);
    return object?.kind === 'brush' ? object.brush : undefined;
  }

  deleteObject(index: number): void {
    this.objects.delete(index);
  }

  /** SELECTOBJECT; EMF stock objects have the high bit set. */
  select(index: number, stock = false): void {
    const object = stock ? STOCK_OBJECTS[index] : this.objects.get(index);
    if (!object) return;
    if (object.kind === 'pen') this.state.pen = object.pen;
    else if (object.kind === 'brush') this.state.brush = object.brush;
    else if (object.kind === 'font') this.state.font = object.font;
  }

  /** The first free slot of the WMF object table (MS-WMF §3.1.4.1: objects take the lowest free index). */
  freeSlot(): number {
    for (let i = 0; i < MAX_OBJECTS; i++) if (!this.objects.has(i)) return i;
    throw new MetafileError('object table full');
  }

  // ---- paths ----

  /** Logical points → device segments (an open or closed figure). */
  figure(points: number[], closed: boolean, beziers = false): Segment[] {
    const m = this.toDevice();
    const out: Segment[] = [];
    const at = (i: number) => applyTransform(m, points[i], points[i + 1]);
    if (points.length < 2) return out;
    const [x0, y0] = at(0);
    out.push({ op: 'M', x: x0, y: y0 });
    if (beziers) {
      for (let i = 2; i + 5 < points.length; i += 6) {
        const [x1, y1] = at(i);
        const [x2, y2] = at(i + 2);
        const [x, y] = at(i + 4);
        out.push({ op: 'C', x1, y1, x2, y2, x, y });
      }
    } else
      for (let i = 2; i + 1 < points.length; i += 2) {
        const [x, y] = at(i);
        out.push({ op: 'L', x, y });
      }
    if (closed) out.push({ op: 'Z' });
    return out;
  }

  /** An ellipse's arc (logical box, angles in radians) as Béziers in logical points, 90° at most each. */
  static arcPoints(box: number[], from: number, sweep: number): number[] {
    const [l, t, r, b] = box;
    const [cx, cy, rx, ry] = [(l + r) / 2, (t + b) / 2, Math.abs(r - l) / 2, Math.abs(b - t) / 2];
    return [cx + rx * Math.cos(from), cy + ry * Math.sin(from), ...arcBeziers(cx, cy, rx, ry, from, sweep).flat()];
  }

  /**
   * ARC / CHORD / PIE: from the radial through `start` to the one through `end`, counter-clockwise
   * as seen on the device (the default arc direction).
   */
  arc(box: number[], start: number[], end: number[], kind: 'arc' | 'chord' | 'pie'): void {
    const [l, t, r, b] = box;
    const [cx, cy, rx, ry] = [(l + r) / 2, (t + b) / 2, Math.abs(r - l) / 2 || 1, Math.abs(b - t) / 2 || 1];
    const angle = (p: number[]) => Math.atan2((p[1] - cy) / ry, (p[0] - cx) / rx);
    const [a0, a1] = [angle(start), angle(end)];
    const m = this.toDevice();
    // Device y grows downwards: counter-clockwise there is decreasing angle unless the mapping flips.
    const flips = m[0] * m[3] - m[1] * m[2] < 0;
    let sweep = flips ? a1 - a0 : a0 - a1;
    sweep = ((sweep % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI) || 2 * Math.PI;
    const points = Dc.arcPoints(box, a0, flips ? sweep : -sweep);
    const path = this.figure(points, false, true);
    if (kind === 'pie') {
      const [x, y] = applyTransform(m, cx, cy);
      path.push({ op: 'L', x, y });
    }
    if (kind !== 'arc') path.push({ op: 'Z' });
    this.shape(path, kind !== 'arc');
  }

  ellipse(box: number[]): void {
    this.countPoints(13);
    this.shape(this.figure(Dc.arcPoints(box, 0, 2 * Math.PI), true, true), true);
  }

  rectangle(box: number[]): void {
    const [l, t, r, b] = box;
    this.shape(this.figure([l, t, r, t, r, b, l, b], true), true);
  }

  roundRect(box: number[], cornerWidth: number, cornerHeight: number): void {
    const [l, t, r, b] = [
      Math.min(box[0], box[2]),
      Math.min(box[1], box[3]),
      Math.max(box[0], box[2]),
      Math.max(box[1], box[3]),
    ];
    const [w, h] = [Math.min(Math.abs(cornerWidth), r - l), Math.min(Math.abs(cornerHeight), b - t)];
    if (!w || !h) return this.rectangle(box);
    const corner = (x: number, y: number, from: number) => Dc.arcPoints([x, y, x + w, y + h], from, Math.PI / 2);
    const pts = [
      ...corner(r - w, t, -Math.PI / 2),
      ...corner(r - w, b - h, 0),
      ...corner(l, b - h, Math.PI / 2),
      ...corner(l, t, Math.PI),
    ];
    // Four quarter arcs joined by lines: M c c c, L c c c …
    const m = this.toDevice();
    const path: Segment[] = [];
    for (let q = 0; q < 4; q++) {
      const base = q * 8;
      const [x0, y0] = applyTransform(m, pts[base], pts[base + 1]);
      path.push({ op: q ? 'L' : 'M', x: x0, y: y0 });
      const [x1, y1] = applyTransform(m, pts[base + 2], pts[base + 3]);
      const [x2, y2] = applyTransform(m, pts[base + 4], pts[base + 5]);
      const [x, y] = applyTransform(m, pts[base + 6], pts[base + 7]);
      path.push({ op: 'C', x1, y1, x2, y2, x, y });
    }
    path.push({ op: 'Z' });
    this.shape(path, true);
  }

  /** A drawn figure: into the open path, else painted with the pen (and the brush when closed). */
  shape(path: Segment[], filled: boolean): void {
    if (this.path) {
      this.path.push(...path);
      return;
    }
    this.paint(path, filled, true);
  }

  /** Paints a path with the current brush (fill) and pen (stroke). */
  paint(path: Segment[], fill: boolean, stroke: boolean): void {
    if (!path.length) return;
    const { brush, evenOdd, clip } = this.state;
    if (fill && brush.kind === 'other') this.leftOut.add('pattern fills');
    if (fill && brush.kind === 'hatch') this.hatch(path);
    const fillColor = fill && brush.kind === 'solid' ? brush.color : undefined;
    const strokeStyle = stroke ? this.strokeStyle() : undefined;
    if (!fillColor && !strokeStyle) return;
    this.items.push({ kind: 'path', path, fill: fillColor, evenOdd, stroke: strokeStyle, clip });
  }

  /**
   * A hatched brush: one-pixel lines 8 device pixels apart (GDI's hatch cell), in the brush's colour,
   * clipped to the path; on the background colour when the background mode is opaque.
   */
  private hatch(path: Segment[]): void {
    const { brush, evenOdd, clip, bkMode, bkColor } = this.state;
    if (bkMode === 2) this.items.push({ kind: 'path', path, fill: bkColor, evenOdd, clip });
    const xs = path.flatMap((s) => (s.op === 'Z' ? [] : s.op === 'C' ? [s.x1, s.x2, s.x] : [s.x]));
    const ys = path.flatMap((s) => (s.op === 'Z' ? [] : s.op === 'C' ? [s.y1, s.y2, s.y] : [s.y]));
    const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const cell = 8;
    const size = Math.max(right - left, bottom - top);
    if (!(size / cell < 5_000)) return void this.leftOut.add('pattern fills');
    const lines: Segment[] = [];
    const line = (x1: number, y1: number, x2: number, y2: number) =>
      lines.push({ op: 'M', x: x1, y: y1 }, { op: 'L', x: x2, y: y2 });
    const style = brush.hatch ?? 0;
    if (style === 0 || style === 4)
      for (let y = Math.ceil(top / cell) * cell; y <= bottom; y += cell) line(left, y, right, y);
    if (style === 1 || style === 4)
      for (let x = Math.ceil(left / cell) * cell; x <= right; x += cell) line(x, top, x, bottom);
    // Diagonals through the box: x - y constant (HS_FDIAGONAL, down to the right), x + y (HS_BDIAGONAL, up).
    const span = right - left + bottom - top;
    if (style === 2 || style === 5)
      for (let c = Math.floor((left - bottom) / cell) * cell; c <= right - top; c += cell)
        line(c + top, top, c + top + span, top + span);
    if (style === 3 || style === 5)
      for (let c = Math.floor((left + top) / cell) * cell; c <= right + bottom; c += cell)
        line(c - top, top, c - top - span, top + span);
    const stroke: StrokeStyle = { color: brush.color, width: 1, dash: [], cap: 0, join: 0 };
    this.items.push({ kind: 'path', path: lines, evenOdd: false, stroke, clip: [...clip, { path, evenOdd }] });
  }

  private strokeStyle(): StrokeStyle | undefined {
    const { pen } = this.state;
    const style = pen.style & 0xf;
    if (style === PS_NULL) return undefined;
    const m = this.toDevice();
    const scale = Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
    const geometric = (pen.style & 0x10000) !== 0 || pen.width > 1;
    const width = geometric && pen.width > 0 ? pen.width * scale : 1;
    const dashes: Record<number, number[]> = { 1: [18, 6], 2: [3, 3], 3: [9, 6, 3, 6], 4: [9, 3, 3, 3, 3, 3] };
    const unit = Math.max(1, width) / 3;
    const caps: Record<number, 0 | 1 | 2> = { 0: 1, 1: 2, 2: 0 };
    const joins: Record<number, 0 | 1 | 2> = { 0: 1, 1: 2, 2: 0 };
    return {
      color: pen.color,
      width,
      dash: (dashes[style] ?? []).map((d) => d * unit),
      cap: geometric ? (caps[(pen.style >> 8) & 0xf] ?? 1) : 0,
      join: geometric ? (joins[(pen.style >> 12) & 0xf] ?? 1) : 0,
    };
  }

  /** The device rectangle of logical box, for fills of a region or a blit without a bitmap. */
  fillRect(box: number[], color: Rgb, device = false): void {
    const [l, t, r, b] = box;
    const path = device
      ? ([
          { op: 'M', x: l, y: t },
          { op: 'L', x: r, y: t },
          { op: 'L', x: r, y: b },
          { op: 'L', x: l, y: b },
          { op: 'Z' },
        ] as Segment[])
      : this.figure([l, t, r, t, r, b, l, b], true);
    this.items.push({ kind: 'path', path, fill: color, evenOdd: false, clip: this.state.clip });
  }

  // ---- clipping ----

  intersectClip(box: number[], exclude = false): void {
    const [l, t, r, b] = box;
    const rect = this.figure([l, t, r, t, r, b, l, b], true);
    if (!exclude) this.state.clip = [...this.state.clip, { path: rect, evenOdd: false }];
    else {
      const huge = 1e7;
      const outer: Segment[] = [
        { op: 'M', x: -huge, y: -huge },
        { op: 'L', x: huge, y: -huge },
        { op: 'L', x: huge, y: huge },
        { op: 'L', x: -huge, y: huge },
        { op: 'Z' },
      ];
      this.state.clip = [...this.state.clip, { path: [...outer, ...rect], evenOdd: true }];
    }
  }

  /** RGN_AND (1) and RGN_COPY (5) of a path or device rectangles; the other combinations are not drawn. */
  selectClip(path: Segment[] | undefined, mode: number): void {
    if (mode === 5 && !path) this.state.clip = [];
    else if (path && (mode === 1 || mode === 5)) {
      const clip = { path, evenOdd: this.state.evenOdd };
      this.state.clip = mode === 5 ? [clip] : [...this.state.clip, clip];
    } else this.leftOut.add('clipping regions combined by union or difference');
  }

  // ---- text ----

  /**
   * A text at a logical point, with the selected font, colour and alignment. `advances` are logical
   * distances between the characters' origins (EXTTEXTOUT's dx).
   */
  text(text: string, x: number, y: number, advances: number[] | undefined, advanced: boolean): void {
    if (++this.texts > MAX_TEXT_ITEMS) throw new MetafileError('too many texts');
    // A character outside the BMP split between two records (a label wrapped inside an emoji) stays whole,
    // at the end of the first.
    const last = this.items[this.items.length - 1];
    if (last?.kind === 'text' && /[\uD800-\uDBFF]$/.test(last.text) && /^[\uDC00-\uDFFF]/.test(text)) {
      last.text += text[0];
      last.advances?.push(0);
      text = text.slice(1);
      advances = advances?.slice(1);
      if (!text) return;
    }
    const { font, textAlign } = this.state;
    const m = this.toDevice();
    const xScale = Math.hypot(m[0], m[1]);
    const yScale = Math.hypot(m[2], m[3]) || 1;
    const [px, py] = textAlign & TA_UPDATECP ? this.state.position : [x, y];
    const [dx, dy] = applyTransform(m, px, py);
    // GM_ADVANCED text turns with the world transform; compatible mode keeps it upright.
    const turn = advanced ? (Math.atan2(-m[1], m[0]) * 180) / Math.PI : 0;
    const emLogical = font.height < 0 ? -font.height : font.height > 0 ? font.height : 12;
    const item: Item = {
      kind: 'text',
      text,
      font,
      // A positive height is the character cell's (pdf.ts scales it to the em with the font's line height).
      em: emLogical * yScale,
      stretch: xScale / yScale,
      angle: font.escapement / 10 + turn,
      x: dx,
      y: dy,
      color: this.state.textColor,
      advances: advances?.map((a) => a * xScale),
      align: {
        horizontal: (textAlign & 6) === 6 ? 'center' : textAlign & 2 ? 'right' : 'left',
        vertical: (textAlign & 24) === 24 ? 'baseline' : textAlign & 8 ? 'bottom' : 'top',
      },
      clip: this.state.clip,
    };
    this.items.push(item);
    if (textAlign & TA_UPDATECP && advances) {
      const total = advances.reduce((s, a) => s + a, 0);
      this.state.position = [px + total, py];
    }
  }

  /**
   * A bitmap (DIB) drawn into a logical destination rectangle; `source` is the part of the bitmap
   * shown (x, y from its top-left, width, height), the whole of it when undefined.
   */
  bitmap(dib: Uint8Array, dest: number[], source: number[] | undefined, rop = SRCCOPY, alpha = false): void {
    if (rop === NOP) return;
    // The transparent-bitmap idiom: a mask ANDed (white keeps what is below), then the picture XORed
    // or ORed (black keeps it). Drawn as the bitmap with that colour transparent, which is exact for
    // the idiom's black-and-white masks; any other raster operation is left out.
    const transparent: Rgb | undefined =
      rop === SRCAND ? [255, 255, 255] : rop === SRCINVERT || rop === SRCPAINT ? [0, 0, 0] : undefined;
    if (rop !== SRCCOPY && !transparent) {
      this.leftOut.add('bitmaps combined with raster operations');
      return;
    }
    const bmp = dibAsBmp(dib, alpha);
    if (!bmp) {
      this.leftOut.add('bitmaps in formats other than uncompressed, JPEG or PNG');
      return;
    }
    const [x, y, w, h] = dest;
    let [sx, sy, sw, sh] = source ?? [0, 0, bmp.width, bmp.height];
    if (!sw || !sh) [sx, sy, sw, sh] = [0, 0, bmp.width, bmp.height];
    // The whole bitmap placed so that the source rectangle lands on the destination, clipped to it.
    const scaleX = w / sw;
    const scaleY = h / sh;
    const m = this.toDevice();
    const left = x - sx * scaleX;
    const top = y - sy * scaleY;
    // The image's unit square (y up) → logical (y down) → device.
    const unit: Matrix = [bmp.width * scaleX, 0, 0, -bmp.height * scaleY, left, top + bmp.height * scaleY];
    const cropped = sx !== 0 || sy !== 0 || sw !== bmp.width || sh !== bmp.height;
    const clip = cropped
      ? [...this.state.clip, { path: this.figure([x, y, x + w, y, x + w, y + h, x, y + h], true), evenOdd: false }]
      : this.state.clip;
    this.items.push({ kind: 'bitmap', bmp: bmp.bytes, matrix: transform(m, unit), clip, transparent });
  }
}

/** A DIB (BITMAPINFO + bits) as a BMP file images.ts decodes, or as the JPEG/PNG it wraps. */
export function dibAsBmp(
  dib: Uint8Array,
  /** A 32-bit DIB's fourth byte is alpha (ALPHABLEND's AC_SRC_ALPHA), which a 40-byte header does not say. */
  alpha = false,
): { bytes: Uint8Array; width: number; height: number } | undefined {
  if (dib.length < 40) return undefined;
  const view = new DataView(dib.buffer, dib.byteOffset, dib.byteLength);
  const headerSize = view.getUint32(0, true);
  if (headerSize < 40 || headerSize > dib.length) return undefined;
  const width = view.getInt32(4, true);
  const height = Math.abs(view.getInt32(8, true));
  const bits = view.getUint16(14, true);
  const compression = view.getUint32(16, true);
  if (compression === 4 || compression === 5) {
    const size = view.getUint32(20, true);
    const bytes = dib.subarray(headerSize, headerSize + (size || dib.length));
    return { bytes, width, height };
  }
  if (!(compression === 0 || compression === 3) || ![1, 4, 8, 24, 32].includes(bits)) return undefined;
  const used = view.getUint32(32, true);
  const palette = bits <= 8 ? (used || 1 << bits) * 4 : compression === 3 && headerSize === 40 ? 12 : 0;
  const stride = Math.ceil((width * bits) / 32) * 4;
  if (width <= 0 || height <= 0 || headerSize + palette + stride * height > dib.length) return undefined;
  if (alpha && bits === 32 && headerSize === 40) {
    // The 40-byte header grown to 56 with its channel masks (BITMAPV3INFOHEADER): how images.ts reads alpha.
    const pixels = dib.subarray(40 + (compression === 3 ? 12 : 0));
    const bytes = new Uint8Array(14 + 56 + pixels.length);
    const file = new DataView(bytes.buffer);
    bytes.set([0x42, 0x4d]);
    file.setUint32(2, bytes.length, true);
    file.setUint32(10, 14 + 56, true);
    bytes.set(dib.subarray(0, 40), 14);
    file.setUint32(14, 56, true);
    file.setUint32(30, 3, true);
    [0xff0000, 0xff00, 0xff, 0xff000000].forEach((mask, i) => file.setUint32(54 + i * 4, mask, true));
    bytes.set(pixels, 70);
    return { bytes, width, height };
  }
  const bytes = new Uint8Array(14 + dib.length);
  bytes.set([0x42, 0x4d]);
  const file = new DataView(bytes.buffer);
  file.setUint32(2, bytes.length, true);
  file.setUint32(10, 14 + headerSize + palette, true);
  bytes.set(dib, 14);
  return { bytes, width, height };
}

/** A COLORREF (r, g, b, reserved) at a byte offset. */
export function colorRef(view: DataView, at: number): Rgb {
  return [view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2)];
}

/** Text of a single-byte or double-byte string in a font's character set (LOGFONT lfCharSet). */
export function decodeAnsi(bytes: Uint8Array, charset: number): string {
  const encodings: Record<number, string> = {
    128: 'shift_jis',
    129: 'euc-kr',
    134: 'gbk',
    136: 'big5',
    161: 'windows-1253',
    162: 'windows-1254',
    163: 'windows-1258',
    177: 'windows-1255',
    178: 'windows-1256',
    186: 'windows-1257',
    204: 'windows-1251',
    222: 'windows-874',
    238: 'windows-1250',
  };
  // The symbol character set's codes are the font's own (mapped to characters in pdf.ts).
  if (charset === 2) return String.fromCharCode(...bytes);
  try {
    return new TextDecoder(encodings[charset] ?? 'windows-1252').decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
