/**
 * Embedded images of a PDF, as they are stored: a DCTDecode stream IS a JPEG file and is written
 * out byte for byte (no re-encoding, no quality loss); a JPXDecode stream is a JPEG 2000 file (.jp2).
 * Other images (Flate/LZW/RunLength/ASCII-coded pixels) are decoded here — PNG predictors, 1–16 bit
 * samples, Gray/RGB/CMYK/ICC/Indexed colour, /Decode inversion, image masks — and written as PNG,
 * which is lossless. CCITT fax and JBIG2 scans, and Separation/DeviceN/Lab colour, are reported as
 * skipped rather than guessed at.
 */
import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  PDFHexString,
  decodePDFRawStream,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';
import { encodePng, makeImageData, pixelLimit } from '../image/codecs.ts';
import { filterNames, predictorParams } from './filters.ts';
import { unpredict } from './stream-decode.ts';

export interface ExtractedImage {
  /** 'jpg' and 'jp2' are the original stream bytes; 'png' was decoded and re-encoded losslessly. */
  extension: 'jpg' | 'jp2' | 'png';
  bytes: Uint8Array;
  width: number;
  height: number;
}

export type ExtractOutcome = { image: ExtractedImage } | { skipped: string };

/** The image XObjects a page draws, its form XObjects' images included, each once, in resource order. */
export function pageImageRefs(doc: PDFDocument, pageIndex: number): PDFRef[] {
  const found: PDFRef[] = [];
  const seenForms = new Set<string>();
  const walk = (resources: PDFDict | undefined) => {
    const xobjects = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict);
    if (!xobjects) return;
    for (const [, value] of xobjects.entries()) {
      if (!(value instanceof PDFRef)) continue;
      const object = doc.context.lookup(value);
      if (!(object instanceof PDFStream)) continue;
      const subtype = object.dict.lookupMaybe(PDFName.of('Subtype'), PDFName);
      if (subtype === PDFName.of('Image')) {
        if (!found.some((ref) => ref === value)) found.push(value);
      } else if (subtype === PDFName.of('Form') && !seenForms.has(value.toString())) {
        seenForms.add(value.toString());
        walk(object.dict.lookupMaybe(PDFName.of('Resources'), PDFDict));
      }
    }
  };
  const page = doc.getPage(pageIndex);
  walk(page.node.Resources());
  return found;
}

const num = (dict: PDFDict, key: string, fallback: number): number => {
  const value = dict.lookup(PDFName.of(key));
  return value instanceof PDFNumber ? value.asNumber() : fallback;
};

/** A colour space reduced to what the pixel conversion needs. */
type ColourSpace =
  | { kind: 'gray' | 'rgb' | 'cmyk' }
  | { kind: 'indexed'; base: 'gray' | 'rgb' | 'cmyk'; hival: number; lookup: Uint8Array };

function streamBytes(stream: PDFStream): Uint8Array {
  if (stream instanceof PDFRawStream)
    return filterNames(stream.dict).length ? decodePDFRawStream(stream).decode() : stream.contents;
  return stream.getContents();
}

function colourSpace(doc: PDFDocument, object: PDFObject | undefined): ColourSpace | string {
  const value = object instanceof PDFRef ? doc.context.lookup(object) : object;
  if (value instanceof PDFName) {
    const name = value.decodeText();
    if (name === 'DeviceGray' || name === 'G' || name === 'CalGray') return { kind: 'gray' };
    if (name === 'DeviceRGB' || name === 'RGB' || name === 'CalRGB') return { kind: 'rgb' };
    if (name === 'DeviceCMYK' || name === 'CMYK') return { kind: 'cmyk' };
    return name;
  }
  if (value instanceof PDFArray && value.size() > 0) {
    const family = (doc.context.lookup(value.get(0)) as PDFName).decodeText?.() ?? '';
    if (family === 'CalGray') return { kind: 'gray' };
    if (family === 'CalRGB') return { kind: 'rgb' };
    if (family === 'ICCBased') {
      const profile = doc.context.lookup(value.get(1));
      const n = profile instanceof PDFStream ? num(profile.dict, 'N', 3) : 3;
      return { kind: n === 1 ? 'gray' : n === 4 ? 'cmyk' : 'rgb' };
    }
    if (family === 'Indexed' || family === 'I') {
      const base = colourSpace(doc, value.get(1));
      if (typeof base === 'string' || base.kind === 'indexed') return 'Indexed over an unusual colour space';
      const hival = (doc.context.lookup(value.get(2)) as PDFNumber).asNumber();
      const table = doc.context.lookup(value.get(3));
      let lookup: Uint8Array;
      if (table instanceof PDFString || table instanceof PDFHexString) lookup = table.asBytes();
      else if (table instanceof PDFStream) lookup = streamBytes(table);
      else return 'Indexed without a lookup table';
      return { kind: 'indexed', base: base.kind, hival, lookup };
    }
    return family;
  }
  return 'no colour space';
}

/** Reads sample `index` of `bits` bits from a row-aligned buffer. */
function sampleReader(data: Uint8Array, bits: number) {
  return (byteOffset: number, sampleIndex: number): number => {
    if (bits === 8) return data[byteOffset + sampleIndex] ?? 0;
    if (bits === 16) return data[byteOffset + sampleIndex * 2] ?? 0; // keep the high byte
    const bitOffset = sampleIndex * bits;
    const byte = data[byteOffset + (bitOffset >> 3)] ?? 0;
    const shift = 8 - bits - (bitOffset & 7);
    return (byte >> shift) & ((1 << bits) - 1);
  };
}

const cmykToRgb = (c: number, m: number, y: number, k: number): [number, number, number] => [
  255 - Math.min(255, c + k),
  255 - Math.min(255, m + k),
  255 - Math.min(255, y + k),
];

/** Decodes one image XObject's stream to a file; never throws for an odd image, it reports it. */
export async function extractImage(doc: PDFDocument, ref: PDFRef): Promise<ExtractOutcome> {
  const stream = doc.context.lookup(ref);
  if (!(stream instanceof PDFRawStream)) return { skipped: 'not a stored stream' };
  const dict = stream.dict;
  const width = num(dict, 'Width', 0);
  const height = num(dict, 'Height', 0);
  if (width <= 0 || height <= 0) return { skipped: 'no size' };
  const filters = filterNames(dict);
  const last = filters.at(-1);
  if (filters.length === 1 && (last === 'DCTDecode' || last === 'DCT')) {
    return { image: { extension: 'jpg', bytes: stream.contents, width, height } };
  }
  if (filters.length === 1 && last === 'JPXDecode') {
    return { image: { extension: 'jp2', bytes: stream.contents, width, height } };
  }
  // Decoding allocates width × height RGBA pixels (and the PNG encoder a copy): check before.
  if (width * height > pixelLimit()) return { skipped: `${width} × ${height} pixels: too large for this device` };
  const unsupported = filters.find(
    (f) =>
      ![
        'FlateDecode',
        'Fl',
        'LZWDecode',
        'LZW',
        'ASCII85Decode',
        'A85',
        'ASCIIHexDecode',
        'AHx',
        'RunLengthDecode',
        'RL',
      ].includes(f),
  );
  if (unsupported) return { skipped: `${unsupported} image` };

  const isMask = dict.lookup(PDFName.of('ImageMask')) === dict.context.obj(true);
  const bits = isMask ? 1 : num(dict, 'BitsPerComponent', 8);
  const space = isMask ? ({ kind: 'gray' } as const) : colourSpace(doc, dict.lookup(PDFName.of('ColorSpace')));
  if (typeof space === 'string') return { skipped: `${space} colour` };
  const components = space.kind === 'indexed' ? 1 : space.kind === 'gray' ? 1 : space.kind === 'rgb' ? 3 : 4;

  let data: Uint8Array;
  try {
    data = decodePDFRawStream(stream).decode();
  } catch {
    return { skipped: 'undecodable data' };
  }
  const rowBytes = Math.ceil((width * components * bits) / 8);
  // Keys missing from /DecodeParms default to the image's own layout rather than to 1 (a garbled image).
  const layout = { colors: components, bitsPerComponent: bits, columns: width };
  const params = predictorParams(dict.lookup(PDFName.of('DecodeParms')), layout);
  if (params.predictor === 2) return { skipped: 'TIFF-predicted image' };
  try {
    data = unpredict(data, params);
  } catch {
    return { skipped: 'damaged image data' };
  }

  // /Decode [1 0] (or an image mask without /Decode [1 0]: 0 paints) inverts the samples.
  const decode = dict.lookupMaybe(PDFName.of('Decode'), PDFArray);
  const inverted = decode ? decode.lookup(0, PDFNumber).asNumber() > decode.lookup(1, PDFNumber).asNumber() : false;
  const max = (1 << Math.min(bits, 8)) - 1;
  const read = sampleReader(data, bits);
  const scale = (v: number) => (bits >= 8 ? v : Math.round((v * 255) / max));
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = y * rowBytes;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      rgba[o + 3] = 255;
      if (isMask) {
        const paint = (read(row, x) === 0) !== inverted;
        rgba[o] = rgba[o + 1] = rgba[o + 2] = 0;
        rgba[o + 3] = paint ? 255 : 0;
        continue;
      }
      if (space.kind === 'indexed') {
        const index = Math.min(read(row, x), space.hival);
        const n = space.base === 'gray' ? 1 : space.base === 'rgb' ? 3 : 4;
        const at = index * n;
        const t = space.lookup;
        if (n === 1) rgba[o] = rgba[o + 1] = rgba[o + 2] = t[at] ?? 0;
        else if (n === 3) {
          rgba[o] = t[at] ?? 0;
          rgba[o + 1] = t[at + 1] ?? 0;
          rgba[o + 2] = t[at + 2] ?? 0;
        } else
          [rgba[o], rgba[o + 1], rgba[o + 2]] = cmykToRgb(t[at] ?? 0, t[at + 1] ?? 0, t[at + 2] ?? 0, t[at + 3] ?? 0);
        continue;
      }
      const s = (c: number) => {
        const v = scale(read(row, x * components + c));
        return inverted ? 255 - v : v;
      };
      if (components === 1) rgba[o] = rgba[o + 1] = rgba[o + 2] = s(0);
      else if (components === 3) {
        rgba[o] = s(0);
        rgba[o + 1] = s(1);
        rgba[o + 2] = s(2);
      } else [rgba[o], rgba[o + 1], rgba[o + 2]] = cmykToRgb(s(0), s(1), s(2), s(3));
    }
  }
  return {
    image: {
      extension: 'png',
      bytes: await encodePng(makeImageData(rgba, width, height), { level: 1 }),
      width,
      height,
    },
  };
}
