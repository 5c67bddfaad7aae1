/**
 * EMF records (MS-EMF) played into the device context of gdi.ts. Every read is bounds-checked
 * against the record it belongs to; a record that runs past the file, a size of 0 or a count past
 * its record ends the picture with a MetafileError.
 */
import { transform } from '../../pdf/matrix.ts';
import { colorRef, Dc, MAX_RECORDS, MetafileError, SRCCOPY, type Segment } from './gdi.ts';
import { Fields } from './fields.ts';

export interface Played {
  dc: Dc;
  /** The picture's box in device units: left, top, right, bottom. */
  box: [number, number, number, number];
  /** Natural size in millimetres. */
  sizeMm: [number, number];
  /** EMF+ records were seen (a dual file draws its EMF records; an EMF+-only one draws nothing). */
  emfPlus: boolean;
}

/** Painting records outside the subset, as the note names them. */
const LEFT_OUT: { [type: number]: string } = {
  41: 'arcs',
  55: 'arcs',
  56: 'figures drawn point by point',
  92: 'figures drawn point by point',
  53: 'flood fills',
  72: 'regions',
  73: 'regions',
  74: 'regions',
  78: 'masked or skewed bitmaps',
  79: 'masked or skewed bitmaps',
  116: 'masked or skewed bitmaps',
  96: 'some texts',
  97: 'some texts',
  108: 'some texts',
  118: 'gradients',
};
const BRUSH_KINDS: Array<'solid' | 'null' | 'hatch'> = ['solid', 'null', 'hatch'];
const BLACK: [number, number, number] = [0, 0, 0];
const WHITE: [number, number, number] = [255, 255, 255];
const PATCOPY = 0xf00021;
const EMF_PLUS = 0x2b464d45;

/** Plays an EMF; throws MetafileError when it cannot. */
export function playEmf(bytes: Uint8Array): Played {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 88 || view.getUint32(0, true) !== 1 || view.getUint32(40, true) !== 0x464d4520)
    throw new MetafileError('not an EMF');
  const header = new Fields(bytes.subarray(0, Math.min(bytes.length, view.getUint32(4, true))), 1);
  const bounds = header.rect(8);
  const frame = header.rect(24);
  const device = [header.i32(72), header.i32(76)];
  const mm = [header.i32(80), header.i32(84)];
  const pixelsPerMm: [number, number] = [
    device[0] > 0 && mm[0] > 0 ? device[0] / mm[0] : 96 / 25.4,
    device[1] > 0 && mm[1] > 0 ? device[1] / mm[1] : 96 / 25.4,
  ];
  const dc = new Dc(pixelsPerMm);
  let box: [number, number, number, number] = [
    (frame[0] / 100) * pixelsPerMm[0],
    (frame[1] / 100) * pixelsPerMm[1],
    (frame[2] / 100) * pixelsPerMm[0],
    (frame[3] / 100) * pixelsPerMm[1],
  ];
  if (!(box[2] > box[0] && box[3] > box[1])) box = [bounds[0], bounds[1], bounds[2] + 1, bounds[3] + 1];
  if (!(box[2] > box[0] && box[3] > box[1])) throw new MetafileError('picture without a size');
  const played: Played = {
    dc,
    box,
    sizeMm: [(box[2] - box[0]) / pixelsPerMm[0], (box[3] - box[1]) / pixelsPerMm[1]],
    emfPlus: false,
  };
  let at = 0;
  for (let count = 0; at + 8 <= bytes.length; count++) {
    if (count > MAX_RECORDS) throw new MetafileError('too many records');
    const type = view.getUint32(at, true);
    const size = view.getUint32(at + 4, true);
    if (size < 8 || size % 4 || at + size > bytes.length) throw new MetafileError(`record ${type} has a bad size`);
    if (type === 14) return played;
    const record = new Fields(bytes.subarray(at, at + size), type);
    if (type === 70 && size >= 16 && record.u32(12) === EMF_PLUS) played.emfPlus = true;
    else if (type !== 1) playRecord(dc, record);
    at += size;
  }
  throw new MetafileError('no end-of-file record');
}

function polyRecord(dc: Dc, r: Fields): void {
  const small = r.type >= 85 && r.type <= 92;
  const base = small ? r.type - 83 : r.type;
  if (base === 7 || base === 8) {
    // POLYPOLYLINE / POLYPOLYGON: the figures' point counts, then all points.
    const figures = r.u32(24);
    const total = r.u32(28);
    dc.countPoints(total + figures);
    const counts = Array.from({ length: figures }, (_, i) => r.u32(32 + i * 4));
    const points = r.points(32 + figures * 4, total, small);
    const path: Segment[] = [];
    let from = 0;
    for (const n of counts) {
      if ((from + n) * 2 > points.length) throw new MetafileError('figure past its points');
      path.push(...dc.figure(points.slice(from * 2, (from + n) * 2), base === 8));
      from += n;
    }
    return dc.shape(path, base === 8);
  }
  const count = r.u32(24);
  dc.countPoints(count);
  const points = r.points(28, count, small);
  switch (base) {
    case 2: // POLYBEZIER
      return dc.shape(dc.figure(points, false, true), false);
    case 3: // POLYGON
      return dc.shape(dc.figure(points, true), true);
    case 4: // POLYLINE
      return dc.shape(dc.figure(points, false), false);
    case 5: // POLYBEZIERTO
    case 6: {
      // POLYLINETO: from the current position, which moves to the last point
      const figure = dc.figure([...dc.state.position, ...points], false, base === 5);
      if (dc.path) dc.path.push(...(dc.path.length ? figure.slice(1) : figure));
      else dc.paint(figure, false, true);
      if (points.length >= 2) dc.state.position = [points[points.length - 2], points[points.length - 1]];
      return;
    }
  }
}

function textRecord(dc: Dc, r: Fields): void {
  const advanced = r.u32(24) === 2;
  const x = r.i32(36);
  const y = r.i32(40);
  const chars = r.u32(44);
  const offString = r.u32(48);
  const options = r.u32(52);
  const rect = r.rect(56);
  const offDx = r.u32(72);
  if (chars > 100_000) throw new MetafileError('text too long');
  const wide = r.type === 84;
  const raw = r.slice(offString, chars * (wide ? 2 : 1));
  const text = wide
    ? String.fromCharCode(...Array.from({ length: chars }, (_, i) => raw[i * 2] | (raw[i * 2 + 1] << 8)))
    : new TextDecoder('windows-1252').decode(raw);
  // ETO_OPAQUE: the rectangle filled with the background colour first.
  if (options & 2 && rect[2] > rect[0] && rect[3] > rect[1]) dc.fillRect(rect, dc.state.bkColor);
  if (!chars) return;
  const pairs = options & 0x2000 ? 2 : 1;
  const advances =
    offDx > 0 && offDx + chars * 4 * pairs <= r.bytes.length
      ? Array.from({ length: chars }, (_, i) => r.i32(offDx + i * 4 * pairs))
      : undefined;
  dc.text(text, x, y, advances, advanced);
}

function fontRecord(dc: Dc, r: Fields): void {
  const face = r.slice(40, 64);
  let name = '';
  for (let i = 0; i + 1 < face.length; i += 2) {
    const code = face[i] | (face[i + 1] << 8);
    if (!code) break;
    name += String.fromCharCode(code);
  }
  dc.setObject(r.u32(8), {
    kind: 'font',
    font: {
      height: r.i32(12),
      escapement: r.i32(20),
      weight: r.i32(28),
      italic: r.u8(32) !== 0,
      underline: r.u8(33) !== 0,
      strikeout: r.u8(34) !== 0,
      charset: r.u8(35),
      face: name,
    },
  });
}

function blitRecord(dc: Dc, r: Fields): void {
  if (r.type === 81) {
    // STRETCHDIBITS
    const dib = r.dib(r.u32(48), r.u32(52), r.u32(56), r.u32(60));
    if (!dib) return;
    const dest = [r.i32(24), r.i32(28), r.i32(72), r.i32(76)];
    return dc.bitmap(dib, dest, [r.i32(32), r.i32(36), r.i32(40), r.i32(44)], r.u32(68));
  }
  if (r.type === 80) {
    // SETDIBITSTODEVICE: one-to-one
    const dib = r.dib(r.u32(48), r.u32(52), r.u32(56), r.u32(60));
    if (!dib) return;
    const [w, h] = [r.i32(40), r.i32(44)];
    return dc.bitmap(dib, [r.i32(24), r.i32(28), w, h], [r.i32(32), r.i32(36), w, h]);
  }
  // BITBLT (76), STRETCHBLT (77), ALPHABLEND (114: a blend function where the others have a raster operation)
  const dest = [r.i32(24), r.i32(28), r.i32(32), r.i32(36)];
  const rop = r.type === 114 ? SRCCOPY : r.u32(40);
  const dib = r.dib(r.u32(84), r.u32(88), r.u32(92), r.u32(96));
  if (!dib) {
    // No source: a rectangle painted with the brush (PATCOPY), black or white.
    const solid = dc.state.brush.kind === 'solid' ? dc.state.brush.color : undefined;
    const color = rop === PATCOPY ? solid : rop === 0x42 ? BLACK : rop === 0xff0062 ? WHITE : undefined;
    if (rop === 0xaa0029) return;
    if (!color) return void dc.leftOut.add('raster operations');
    return dc.fillRect([dest[0], dest[1], dest[0] + dest[2], dest[1] + dest[3]], color);
  }
  const stretched = r.type !== 76;
  const source = [r.i32(44), r.i32(48), stretched ? r.i32(100) : dest[2], stretched ? r.i32(104) : dest[3]];
  dc.bitmap(dib, dest, source, rop, r.type === 114 && r.u32(40) >>> 24 === 1);
}

function regionRects(r: Fields, at: number): number[][] {
  const count = r.u32(at + 8);
  if (count > 100_000) throw new MetafileError('region too large');
  return Array.from({ length: count }, (_, i) => r.rect(at + 32 + i * 16));
}

/** One record (not the header, not EOF). */
function playRecord(dc: Dc, r: Fields): void {
  const s = dc.state;
  switch (r.type) {
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
    case 8:
    case 85:
    case 86:
    case 87:
    case 88:
    case 89:
    case 90:
    case 91:
      return polyRecord(dc, r);
    case 42:
      return dc.ellipse(r.rect(8));
    case 43:
      return dc.rectangle(r.rect(8));
    case 44:
      return dc.roundRect(r.rect(8), r.i32(24), r.i32(28));
    case 45:
    case 46:
    case 47:
      return dc.arc(
        r.rect(8),
        [r.i32(24), r.i32(28)],
        [r.i32(32), r.i32(36)],
        r.type === 45 ? 'arc' : r.type === 46 ? 'chord' : 'pie',
      );
    case 54: {
      const to = [r.i32(8), r.i32(12)];
      const segment = dc.figure([...s.position, ...to], false);
      if (dc.path) dc.path.push(...(dc.path.length ? segment.slice(1) : segment));
      else dc.paint(segment, false, true);
      s.position = to as [number, number];
      return;
    }
    case 59:
      dc.path = [];
      return;
    case 60:
      return;
    case 61:
      dc.path?.push({ op: 'Z' });
      return;
    case 62:
    case 63:
    case 64: {
      const path = dc.path ?? [];
      dc.path = undefined;
      return dc.paint(path, r.type !== 64, r.type !== 62);
    }
    case 67: {
      const path = dc.path;
      dc.path = undefined;
      return dc.selectClip(path ?? [], r.u32(8));
    }
    case 68:
      dc.path = undefined;
      return;
    case 75: {
      const mode = r.u32(12);
      if (!r.u32(8)) return dc.selectClip(undefined, mode);
      const rects = regionRects(r, 16);
      const path: Segment[] = rects.flatMap(([l, t, rr, b]) => [
        { op: 'M', x: l, y: t } as Segment,
        { op: 'L', x: rr, y: t },
        { op: 'L', x: rr, y: b },
        { op: 'L', x: l, y: b },
        { op: 'Z' },
      ]);
      const saved = s.evenOdd;
      s.evenOdd = false;
      dc.selectClip(path, mode);
      s.evenOdd = saved;
      return;
    }
    case 71: {
      // FILLRGN: device rectangles with a brush from the table
      const brush = dc.brushAt(r.u32(28));
      if (brush?.kind !== 'solid') return void dc.leftOut.add('pattern and hatch fills');
      for (const rect of regionRects(r, 32)) dc.fillRect(rect, brush.color, true);
      return;
    }
    case 76:
    case 77:
    case 80:
    case 81:
    case 114:
      return blitRecord(dc, r);
    case 82:
      return fontRecord(dc, r);
    case 83:
    case 84:
      return textRecord(dc, r);
    case 41:
    case 53:
    case 55:
    case 56:
    case 72:
    case 73:
    case 74:
    case 78:
    case 79:
    case 92:
    case 96:
    case 97:
    case 108:
    case 116:
    case 118:
      dc.leftOut.add(LEFT_OUT[r.type]);
      return;
    default:
      return stateRecord(dc, r);
  }
}

/** Records that change the device context: mapping, modes, colours, objects, saved states, clipping. */
function stateRecord(dc: Dc, r: Fields): void {
  const s = dc.state;
  switch (r.type) {
    case 9:
      s.winExt = [r.i32(8), r.i32(12)];
      return;
    case 10:
      s.winOrg = [r.i32(8), r.i32(12)];
      return;
    case 11:
      s.vpExt = [r.i32(8), r.i32(12)];
      return;
    case 12:
      s.vpOrg = [r.i32(8), r.i32(12)];
      return;
    case 17:
      s.mapMode = r.u32(8);
      return;
    case 18:
      s.bkMode = r.u32(8);
      return;
    case 19:
      s.evenOdd = r.u32(8) !== 2;
      return;
    case 22:
      s.textAlign = r.u32(8);
      return;
    case 24:
      s.textColor = colorRef(r.view, 8);
      return;
    case 25:
      s.bkColor = colorRef(r.view, 8);
      return;
    case 27:
      s.position = [r.i32(8), r.i32(12)];
      if (dc.path) dc.path.push(...dc.figure(s.position, false));
      return;
    case 29:
    case 30:
      return dc.intersectClip(r.rect(8), r.type === 29);
    case 33:
      return dc.save();
    case 34:
      return dc.restore(r.i32(8));
    case 35:
      s.world = r.xform(8);
      return;
    case 36: {
      const m = r.xform(8);
      const mode = r.u32(32);
      if (mode === 1) s.world = [1, 0, 0, 1, 0, 0];
      else if (mode === 2) s.world = transform(s.world, m);
      else if (mode === 3) s.world = transform(m, s.world);
      else if (mode === 4) s.world = m;
      return;
    }
    case 37: {
      const handle = r.u32(8);
      return dc.select(handle & 0x7fffffff, (handle & 0x80000000) !== 0);
    }
    case 38:
      return dc.setObject(r.u32(8), {
        kind: 'pen',
        pen: { style: r.u32(12), width: r.i32(16), color: colorRef(r.view, 24) },
      });
    case 95: {
      // EXTCREATEPEN: a solid-brush pen; others stroke with their colour
      const style = r.u32(36) === 1 ? 5 : r.u32(28);
      return dc.setObject(r.u32(8), { kind: 'pen', pen: { style, width: r.u32(32), color: colorRef(r.view, 40) } });
    }
    case 39: {
      const style = r.u32(12);
      return dc.setObject(r.u32(8), {
        kind: 'brush',
        brush: { color: colorRef(r.view, 16), kind: BRUSH_KINDS[style] ?? 'other', hatch: r.u32(20) },
      });
    }
    case 93:
    case 94:
      return dc.setObject(r.u32(8), { kind: 'brush', brush: { color: [0, 0, 0], kind: 'other' } });
    case 40:
      return dc.deleteObject(r.u32(8));
    default:
      // State the subset does not need (palettes, colour spaces, stretch and ROP2 modes, comments).
      return;
  }
}
