/**
 * WMF records (MS-WMF), with or without the placeable header, played into the device context of
 * gdi.ts. A WMF has no device of its own: the window it sets (else the placeable header's box) is
 * the picture, mapped onto a device space of the same size, as Word and LibreOffice play it.
 */
import { colorRef, Dc, decodeAnsi, MAX_RECORDS, MetafileError, type Segment } from './gdi.ts';
import type { Played } from './emf.ts';
import { Fields } from './fields.ts';

const BRUSH_KINDS: Array<'solid' | 'null' | 'hatch'> = ['solid', 'null', 'hatch'];
const PLACEABLE = 0x9ac6cdd7;

/** Plays a WMF; throws MetafileError when it cannot. */
export function playWmf(bytes: Uint8Array): Played {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 18) throw new MetafileError('not a WMF');
  let start = 0;
  let bbox: number[] | undefined;
  let inch = 1440;
  if (view.getUint32(0, true) === PLACEABLE) {
    if (bytes.length < 40) throw new MetafileError('not a WMF');
    bbox = [6, 8, 10, 12].map((o) => view.getInt16(o, true));
    inch = view.getUint16(14, true) || 1440;
    start = 22;
  }
  const headerWords = view.getUint16(start + 2, true);
  if (headerWords !== 9) throw new MetafileError('not a WMF');
  const records = readRecords(bytes, start + 18);
  // The reference window: the first one the records set, else the placeable header's box.
  let org: [number, number] | undefined;
  let ext: [number, number] | undefined;
  for (const r of records) {
    if (r.type === 0x020b && !org) org = [r.i16(8), r.i16(6)];
    if (r.type === 0x020c && !ext) ext = [r.i16(8), r.i16(6)];
  }
  if (!ext && bbox)
    [org, ext] = [
      [bbox[0], bbox[1]],
      [bbox[2] - bbox[0], bbox[3] - bbox[1]],
    ];
  if (!ext || !ext[0] || !ext[1]) throw new MetafileError('picture without a size');
  const size: [number, number] = [Math.abs(ext[0]), Math.abs(ext[1])];
  const dc = new Dc([96 / 25.4, 96 / 25.4]);
  Object.assign(dc.state, { mapMode: 8, winOrg: org ?? [0, 0], winExt: ext, vpOrg: [0, 0], vpExt: size });
  const units = bbox ? [Math.abs(bbox[2] - bbox[0]), Math.abs(bbox[3] - bbox[1])] : size;
  const played: Played = {
    dc,
    box: [0, 0, size[0], size[1]],
    sizeMm: [(units[0] / inch) * 25.4, (units[1] / inch) * 25.4],
    emfPlus: false,
  };
  for (const r of records) playRecord(dc, r);
  return played;
}

function readRecords(bytes: Uint8Array, from: number): Fields[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Fields[] = [];
  for (let at = from; at + 6 <= bytes.length;) {
    if (out.length > MAX_RECORDS) throw new MetafileError('too many records');
    const size = view.getUint32(at, true) * 2;
    const type = view.getUint16(at + 4, true);
    if (type === 0) return out;
    if (size < 6 || at + size > bytes.length) throw new MetafileError(`record ${type} has a bad size`);
    out.push(new Fields(bytes.subarray(at, at + size), type));
    at += size;
  }
  throw new MetafileError('no end-of-file record');
}

/** `count` (x, y) points of 16 bits at `at`. */
function points(r: Fields, at: number, count: number): number[] {
  return r.points(at, count, true);
}

/** A rectangle stored bottom, right, top, left (WMF's reversed order) → left, top, right, bottom. */
const box = (r: Fields, at: number) => [r.i16(at + 6), r.i16(at + 4), r.i16(at + 2), r.i16(at)];

function textRecord(dc: Dc, r: Fields): void {
  const charset = dc.state.font.charset;
  if (r.type === 0x0521) {
    const length = r.i16(6);
    const padded = length + (length % 2);
    const text = decodeAnsi(r.slice(8, length), charset);
    return dc.text(text, r.i16(10 + padded), r.i16(8 + padded), undefined, false);
  }
  // EXTTEXTOUT: y, x, length, options, [rectangle], string, [dx]
  const [y, x, length, options] = [r.i16(6), r.i16(8), r.i16(10), r.u16(12)];
  let at = 14;
  if (options & 6) {
    const rect = [r.i16(at), r.i16(at + 2), r.i16(at + 4), r.i16(at + 6)];
    if (options & 2) dc.fillRect(rect, dc.state.bkColor);
    at += 8;
  }
  if (length <= 0) return;
  const raw = r.slice(at, length);
  const text = decodeAnsi(raw, charset);
  at += length + (length % 2);
  // dx: one per byte; kept when each byte is one character (single-byte character sets)
  const advances =
    at + length * 2 <= r.bytes.length && text.length === length
      ? Array.from({ length }, (_, i) => r.i16(at + i * 2))
      : undefined;
  dc.text(text, x, y, advances, false);
}

function blitRecord(dc: Dc, r: Fields): void {
  const withoutBitmap = r.bytes.length / 2 === (r.type >> 8) + 3;
  const rop = r.u32(6);
  if (r.type === 0x061d || withoutBitmap) {
    // PATBLT, and blits without a source (a reserved word before the destination): the brush over a rectangle
    const at = r.type === 0x061d ? 10 : r.type === 0x0940 ? 16 : 20;
    const [h, w, y, x] = [r.i16(at), r.i16(at + 2), r.i16(at + 4), r.i16(at + 6)];
    if (rop === 0xf00021 && dc.state.brush.kind === 'solid')
      return dc.fillRect([x, y, x + w, y + h], dc.state.brush.color);
    if (rop !== 0xaa0029) dc.leftOut.add('raster operations');
    return;
  }
  if (r.type === 0x0f43) {
    const [sh, sw, sy, sx, dh, dw, dy, dx] = [12, 14, 16, 18, 20, 22, 24, 26].map((o) => r.i16(o));
    return dc.bitmap(r.bytes.subarray(28), [dx, dy, dw, dh], [sx, sy, sw, sh], rop);
  }
  if (r.type === 0x0b41) {
    const [sh, sw, sy, sx, dh, dw, dy, dx] = [10, 12, 14, 16, 18, 20, 22, 24].map((o) => r.i16(o));
    return dc.bitmap(r.bytes.subarray(26), [dx, dy, dw, dh], [sx, sy, sw, sh], rop);
  }
  // DIBBITBLT
  const [sy, sx, h, w, dy, dx] = [10, 12, 14, 16, 18, 20].map((o) => r.i16(o));
  return dc.bitmap(r.bytes.subarray(22), [dx, dy, w, h], [sx, sy, w, h], rop);
}

function fontRecord(dc: Dc, r: Fields): void {
  const face = r.bytes.subarray(24, Math.min(r.bytes.length, 56));
  const end = face.indexOf(0);
  dc.setObject(dc.freeSlot(), {
    kind: 'font',
    font: {
      height: r.i16(6),
      escapement: r.i16(10),
      weight: r.i16(14),
      italic: r.u8(16) !== 0,
      underline: r.u8(17) !== 0,
      strikeout: r.u8(18) !== 0,
      charset: r.u8(19),
      face: decodeAnsi(end >= 0 ? face.subarray(0, end) : face, 0),
    },
  });
}

function playRecord(dc: Dc, r: Fields): void {
  const s = dc.state;
  switch (r.type) {
    case 0x020b:
      s.winOrg = [r.i16(8), r.i16(6)];
      return;
    case 0x020c:
      s.winExt = [r.i16(8), r.i16(6)];
      return;
    case 0x020f:
      s.winOrg = [s.winOrg[0] + r.i16(8), s.winOrg[1] + r.i16(6)];
      return;
    case 0x0410:
      s.winExt = [(s.winExt[0] * r.i16(12)) / (r.i16(10) || 1), (s.winExt[1] * r.i16(8)) / (r.i16(6) || 1)];
      return;
    case 0x0102:
      s.bkMode = r.u16(6);
      return;
    case 0x0106:
      s.evenOdd = r.u16(6) !== 2;
      return;
    case 0x012e:
      s.textAlign = r.u16(6);
      return;
    case 0x0209:
      s.textColor = colorRef(r.view, 6);
      return;
    case 0x0201:
      s.bkColor = colorRef(r.view, 6);
      return;
    case 0x001e:
      return dc.save();
    case 0x0127:
      return dc.restore(r.i16(6));
    case 0x012d:
      return dc.select(r.u16(6));
    case 0x01f0:
      return dc.deleteObject(r.u16(6));
    case 0x02fa:
      return dc.setObject(dc.freeSlot(), {
        kind: 'pen',
        pen: { style: r.u16(6), width: r.i16(8), color: colorRef(r.view, 12) },
      });
    case 0x02fc: {
      const style = r.u16(6);
      return dc.setObject(dc.freeSlot(), {
        kind: 'brush',
        brush: { color: colorRef(r.view, 8), kind: BRUSH_KINDS[style] ?? 'other', hatch: r.u16(12) },
      });
    }
    case 0x02fb:
      return fontRecord(dc, r);
    case 0x00f7:
    case 0x06ff:
      return dc.setObject(dc.freeSlot(), { kind: 'other' });
    case 0x01f9:
    case 0x0142:
      return dc.setObject(dc.freeSlot(), { kind: 'brush', brush: { color: [0, 0, 0], kind: 'other' } });
    case 0x0214:
      s.position = [r.i16(8), r.i16(6)];
      return;
    case 0x0213: {
      const to: [number, number] = [r.i16(8), r.i16(6)];
      dc.paint(dc.figure([...s.position, ...to], false), false, true);
      s.position = to;
      return;
    }
    case 0x0324:
    case 0x0325: {
      const count = r.i16(6);
      dc.countPoints(count);
      return dc.shape(dc.figure(points(r, 8, count), r.type === 0x0324), r.type === 0x0324);
    }
    case 0x0538: {
      const figures = r.u16(6);
      const counts = Array.from({ length: figures }, (_, i) => r.u16(8 + i * 2));
      let at = 8 + figures * 2;
      const path: Segment[] = [];
      for (const n of counts) {
        dc.countPoints(n);
        path.push(...dc.figure(points(r, at, n), true));
        at += n * 4;
      }
      return dc.shape(path, true);
    }
    case 0x041b:
      return dc.rectangle(box(r, 6));
    case 0x0418:
      return dc.ellipse(box(r, 6));
    case 0x061c:
      return dc.roundRect(box(r, 10), r.i16(8), r.i16(6));
    case 0x0817:
    case 0x081a:
    case 0x0830: {
      const kind = r.type === 0x0817 ? 'arc' : r.type === 0x081a ? 'pie' : 'chord';
      return dc.arc(box(r, 14), [r.i16(12), r.i16(10)], [r.i16(8), r.i16(6)], kind);
    }
    case 0x0416:
    case 0x0415:
      return dc.intersectClip(box(r, 6), r.type === 0x0415);
    case 0x0521:
    case 0x0a32:
      return textRecord(dc, r);
    case 0x0f43:
    case 0x0b41:
    case 0x0940:
    case 0x061d:
      return blitRecord(dc, r);
    // flood fills, region paints, old-style bitmaps, SETDIBTODEV
    case 0x0419:
    case 0x0548:
    case 0x0228:
    case 0x0429:
    case 0x012a:
    case 0x012b:
    case 0x0922:
    case 0x0b23:
    case 0x0d33:
      dc.leftOut.add(
        r.type === 0x0922 || r.type === 0x0b23 || r.type === 0x0d33 ? 'old-style bitmaps' : 'regions and flood fills',
      );
      return;
    default:
      // Map mode (the player's window mapping stands), palettes, escapes, stretch and ROP2 modes.
      return;
  }
}
