/** Bounds-checked little-endian reads inside one metafile record. */
import type { Matrix } from '../../pdf/matrix.ts';
import { MetafileError } from './gdi.ts';

/** A record's fields, each read checked against the record's own length. */
export class Fields {
  readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly type: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private check(at: number, size: number): void {
    if (at < 0 || at + size > this.bytes.length) throw new MetafileError(`record ${this.type} is too short`);
  }
  i32(at: number): number {
    this.check(at, 4);
    return this.view.getInt32(at, true);
  }
  u32(at: number): number {
    this.check(at, 4);
    return this.view.getUint32(at, true);
  }
  i16(at: number): number {
    this.check(at, 2);
    return this.view.getInt16(at, true);
  }
  u16(at: number): number {
    this.check(at, 2);
    return this.view.getUint16(at, true);
  }
  u8(at: number): number {
    this.check(at, 1);
    return this.view.getUint8(at);
  }
  f32(at: number): number {
    this.check(at, 4);
    return this.view.getFloat32(at, true);
  }
  slice(at: number, size: number): Uint8Array {
    this.check(at, size);
    return this.bytes.subarray(at, at + size);
  }
  rect(at: number): number[] {
    return [this.i32(at), this.i32(at + 4), this.i32(at + 8), this.i32(at + 12)];
  }
  xform(at: number): Matrix {
    const m = [0, 4, 8, 12, 16, 20].map((o) => this.f32(at + o)) as Matrix;
    if (!m.every(Number.isFinite)) throw new MetafileError('transform is not a number');
    return m;
  }
  /** `count` points of 32-bit (8 bytes) or 16-bit (4 bytes) coordinates at `at`. */
  points(at: number, count: number, small: boolean): number[] {
    const size = small ? 2 : 4;
    this.check(at, count * size * 2);
    const out = new Array<number>(count * 2);
    for (let i = 0; i < count * 2; i++) out[i] = small ? this.i16(at + i * 2) : this.i32(at + i * 4);
    return out;
  }
  /** A DIB from its BITMAPINFO and bits offsets (from the record's start). */
  dib(offInfo: number, sizeInfo: number, offBits: number, sizeBits: number): Uint8Array | undefined {
    if (!sizeInfo) return undefined;
    const info = this.slice(offInfo, sizeInfo);
    const bits = this.slice(offBits, sizeBits);
    const dib = new Uint8Array(info.length + bits.length);
    dib.set(info);
    dib.set(bits, info.length);
    return dib;
  }
}
