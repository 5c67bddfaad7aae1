/**
 * Images made for tests of the image tools: an animated WebP as libwebp's muxer writes it, a PNG
 * with an APNG animation chunk, and a JPEG with an EXIF orientation.
 */
import { encodeWebp } from '../../workers/engine/lib/image/codecs.ts';

const le32 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255];
const le24 = (n: number) => le32(n).slice(0, 3);
const riff = (type: string, data: number[]) => [
  ...Buffer.from(type, 'ascii'),
  ...le32(data.length),
  ...data,
  ...(data.length % 2 ? [0] : []),
];

/** An animated WebP as libwebp's muxer writes it: VP8X (animation flag), ANIM, one ANMF per frame. */
export async function animatedWebp(frames: ImageData[]): Promise<Uint8Array> {
  const { width, height } = frames[0];
  const anmf: number[] = [];
  for (const frame of frames) {
    const still = await encodeWebp(frame, { quality: 90, lossless: true });
    const bitstream = [...still.subarray(12)]; // the VP8L chunk after RIFF....WEBP
    anmf.push(
      ...riff('ANMF', [...le24(0), ...le24(0), ...le24(width - 1), ...le24(height - 1), ...le24(100), 0, ...bitstream]),
    );
  }
  const body = [
    ...Buffer.from('WEBP'),
    ...riff('VP8X', [0x02, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)]),
    ...riff('ANIM', [255, 255, 255, 255, 0, 0]),
    ...anmf,
  ];
  return new Uint8Array([...Buffer.from('RIFF'), ...le32(body.length), ...body]);
}

/** A PNG with an APNG animation control chunk (acTL) before its image data. */
export function withAnimationControl(png: Uint8Array): Uint8Array {
  const acTL = [0, 0, 0, 8, ...Buffer.from('acTL'), 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]; // CRC not checked here
  const afterHeader = 8 + 25; // signature + IHDR
  return new Uint8Array([...png.subarray(0, afterHeader), ...acTL, ...png.subarray(afterHeader)]);
}

/** Inserts an EXIF APP1 with the given Orientation (1–8) right after a JPEG's SOI. */
export function withExifOrientation(jpeg: Uint8Array, orientation: number): Uint8Array {
  const tiff = [
    0x4d,
    0x4d,
    0,
    0x2a,
    0,
    0,
    0,
    8,
    0,
    1,
    0x01,
    0x12,
    0,
    3,
    0,
    0,
    0,
    1,
    0,
    orientation,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const app1 = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  return new Uint8Array([...jpeg.subarray(0, 2), ...app1, ...jpeg.subarray(2)]);
}
