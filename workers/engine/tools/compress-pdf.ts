/**
 * Compress PDF. Two passes:
 * 1. Images: every image XObject reachable from the pages (through Form XObjects too) that Folio
 *    can decode exactly — 8-bit DeviceGray/DeviceRGB/ICCBased(1|3)/CalGray/CalRGB, stored as a
 *    plain JPEG (DCTDecode) or as Flate (with or without PNG predictors) — is downsampled when its
 *    resolution is above the target, turned into gray when it is gray anyway (or when asked), and
 *    re-encoded with MozJPEG. An image that would not shrink is left as it was. Transparency
 *    (SMask, stencil /Mask) is kept untouched; CMYK, Indexed, 16-bit, JBIG2, CCITT, JPEG 2000,
 *    colour-key masks and unusual decode arrays are skipped rather than risked.
 *    Identical images (same bytes and dictionary) are merged into one object.
 * 2. Structure: qpdf (WASM) rewrites the file with object streams, every Flate stream recompressed
 *    at level 9, and only the objects still referenced.
 * The result is never larger than the input: when nothing helps, the original comes back with a note.
 *
 * The resolution of an image is measured where it is drawn, taking the sharpest use (image-uses.ts).
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  type PDFObject,
} from 'pdf-lib';
import type { Engine, EngineContext, EngineOptions, EngineResult } from '../lib/types.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import { openPdf } from '../lib/pdf/pdf-open.ts';
import { handleActiveContent, hasActiveContent } from '../lib/pdf/active-content.ts';
import { savePdf } from '../lib/pdf/pdf-util.ts';
import { runQpdf } from '../lib/pdf/qpdf.ts';
import { decodeJpeg, encodeJpeg, imageHeader, makeImageData, pixelLimit, resizeImage } from '../lib/image/codecs.ts';
import { baseName, formatBytes } from '../../../shared/format.ts';
import { inflate, predictorParams, unpredict } from '../lib/pdf/filters.ts';
import { collectImages, type ImageUse } from '../lib/pdf/image-uses.ts';
import { nameOf, numberIn } from '../lib/pdf/object-graph.ts';

/** What one pass does to images. */
export interface CompressSettings {
  /** MozJPEG quality, 0–100. */
  quality: number;
  /** Images above this resolution (pixels per inch as drawn) are downsampled to it. */
  maxDpi: number;
  /** Re-encode lossless (Flate) images as JPEG too. Off at "light": screenshots and line art stay exact. */
  lossyFlate: boolean;
  grayscale: boolean;
  removeMetadata: boolean;
  /**
   * Drop /PieceInfo: editing data private to the application that made the file (Illustrator,
   * Quick PDF…), which no viewer shows and which can dwarf the visible content. Ghostscript and
   * Acrobat's optimiser drop it too. Kept at "light".
   */
  discardPrivateData: boolean;
}

export type CompressLevel = 'light' | 'recommended' | 'strong';

export const LEVELS: Record<CompressLevel, Omit<CompressSettings, 'grayscale' | 'removeMetadata'>> = {
  light: { quality: 85, maxDpi: 300, lossyFlate: false, discardPrivateData: false },
  recommended: { quality: 70, maxDpi: 150, lossyFlate: true, discardPrivateData: true },
  strong: { quality: 50, maxDpi: 96, lossyFlate: true, discardPrivateData: true },
};

/** Target-size mode tries these, mildest first, and keeps the first result that fits. */
const TARGET_LADDER: Array<Pick<CompressSettings, 'quality' | 'maxDpi'>> = [
  { quality: 85, maxDpi: 300 },
  { quality: 75, maxDpi: 200 },
  { quality: 70, maxDpi: 150 },
  { quality: 60, maxDpi: 120 },
  { quality: 50, maxDpi: 96 },
  { quality: 40, maxDpi: 72 },
  { quality: 30, maxDpi: 50 },
];

/** Downsample only when the image is this much above the target (as Ghostscript's threshold does). */
const DOWNSAMPLE_THRESHOLD = 1.2;
/** A recompressed image must be at least this much smaller to replace the original. */
const MIN_SAVING = 0.9;

export interface PassReport {
  bytes: Uint8Array;
  imagesFound: number;
  imagesRecompressed: number;
  skipped: Map<string, number>;
  privateDataRemoved: boolean;
}

const N = (name: string) => PDFName.of(name);

/** Components of a colour space Folio can carry through unchanged, or a reason to skip. */
function colourComponents(doc: PDFDocument, space: PDFObject | undefined): number | string {
  const resolved = space instanceof PDFRef ? doc.context.lookup(space) : space;
  const name = nameOf(resolved);
  if (name === 'DeviceGray' || name === 'CalGray') return 1;
  if (name === 'DeviceRGB' || name === 'CalRGB') return 3;
  if (resolved instanceof PDFArray && resolved.size() >= 1) {
    const family = nameOf(resolved.get(0));
    if (family === 'CalGray') return 1;
    if (family === 'CalRGB') return 3;
    if (family === 'ICCBased') {
      const profile = doc.context.lookup(resolved.get(1));
      const n = profile instanceof PDFStream ? numberIn(profile.dict, 'N') : undefined;
      if (n === 1 || n === 3) return n;
      return 'ICC CMYK colour';
    }
    return `${family ?? 'unknown'} colour`;
  }
  if (name === 'DeviceCMYK') return 'CMYK colour';
  return `${name ?? 'unknown'} colour`;
}

/**
 * 8-bit samples to RGBA, averaging k×k blocks on the way when k > 1: a 9000 × 9000 scan headed for
 * 150 dpi never exists as full-size RGBA (memory and time), and the exact resize does the rest.
 */
function toRgba(samples: Uint8Array, width: number, height: number, components: number, k = 1): ImageData {
  const outWidth = Math.floor(width / k);
  const outHeight = Math.floor(height / k);
  const rgba = new Uint8ClampedArray(outWidth * outHeight * 4);
  const area = k * k;
  for (let oy = 0; oy < outHeight; oy++) {
    for (let ox = 0; ox < outWidth; ox++) {
      let r = 0,
        g = 0,
        b = 0;
      for (let dy = 0; dy < k; dy++) {
        let s = ((oy * k + dy) * width + ox * k) * components;
        for (let dx = 0; dx < k; dx++, s += components) {
          r += samples[s];
          if (components === 3) {
            g += samples[s + 1];
            b += samples[s + 2];
          }
        }
      }
      const o = (oy * outWidth + ox) * 4;
      rgba[o] = r / area;
      rgba[o + 1] = components === 3 ? g / area : r / area;
      rgba[o + 2] = components === 3 ? b / area : r / area;
      rgba[o + 3] = 255;
    }
  }
  return makeImageData(rgba, outWidth, outHeight);
}

/** True when (almost) every pixel has R = G = B, allowing for JPEG's chroma noise. */
function isGray(image: ImageData): boolean {
  const { data } = image;
  const pixels = data.length / 4;
  let colourful = 0;
  const allowed = pixels / 1000;
  for (let o = 0; o < data.length; o += 4) {
    const r = data[o];
    if (Math.abs(r - data[o + 1]) > 6 || Math.abs(r - data[o + 2]) > 6) {
      if (++colourful > allowed) return false;
    }
  }
  return true;
}

/** ITU-R BT.601 luma into R, G and B, so a one-component JPEG of the R channel is the gray image. */
function toGray(image: ImageData): void {
  const { data } = image;
  for (let o = 0; o < data.length; o += 4) {
    const y = Math.round(0.299 * data[o] + 0.587 * data[o + 1] + 0.114 * data[o + 2]);
    data[o] = data[o + 1] = data[o + 2] = y;
  }
}

/** Decodes an image stream into RGBA, or returns why it is skipped. */
async function decodeImageStream(
  doc: PDFDocument,
  use: ImageUse,
  settings: CompressSettings,
): Promise<{ image: ImageData; components: number; wasJpeg: boolean } | string> {
  const { dict } = use.stream;
  if (dict.lookup(N('ImageMask'))?.toString() === 'true') return 'stencil mask';
  if (dict.lookup(N('Decode'))) return 'decode array';
  // A colour-key mask needs exact sample values, which JPEG does not keep. With an SMask present
  // readers ignore /Mask, so only a lone colour key is a reason to skip.
  if (dict.lookup(N('Mask')) instanceof PDFArray && !dict.get(N('SMask'))) return 'colour-key mask';
  const width = numberIn(dict, 'Width') ?? 0;
  const height = numberIn(dict, 'Height') ?? 0;
  if (width < 8 || height < 8) return 'tiny';
  if (width * height > pixelLimit()) return 'too large for this device';
  let filterObject = dict.lookup(N('Filter'));
  let parms = dict.lookup(N('DecodeParms'));
  let contents = use.stream.contents;
  if (filterObject instanceof PDFArray) {
    const filters = filterObject.asArray().map((f) => nameOf(doc.context.lookup(f)));
    // A deflated JPEG ([/FlateDecode /DCTDecode]) is a JPEG once inflated.
    if (filters.length === 2 && filters[0] === 'FlateDecode' && filters[1] === 'DCTDecode') {
      const parmsList = parms instanceof PDFArray ? parms.asArray().map((p) => doc.context.lookup(p)) : [];
      if (parmsList[0] instanceof PDFDict) return 'unusual filter parameters';
      contents = await inflate(contents);
      filterObject = N('DCTDecode');
      parms = parmsList[1];
    } else if (filters.length === 1) {
      filterObject = N(filters[0] ?? '');
      if (parms instanceof PDFArray) parms = parms.lookup(0);
    } else {
      return `${filters.map((f) => f?.replace('Decode', '')).join('+')} filters`;
    }
  }
  const filter = nameOf(filterObject);
  if (filter !== 'DCTDecode' && filter !== 'FlateDecode')
    return filter ? `${filter.replace('Decode', '')} image` : 'uncompressed image';
  const components = colourComponents(doc, dict.lookup(N('ColorSpace')));
  if (typeof components === 'string') return components;

  if (filter === 'DCTDecode') {
    // ColorTransform 0 on a 3-component JPEG means RGB samples without YCbCr; the decoder would guess.
    const transform = parms instanceof PDFDict ? numberIn(parms, 'ColorTransform') : undefined;
    if (transform !== undefined && !(transform === 1 && components === 3)) return 'unusual JPEG colour transform';
    const header = imageHeader(contents);
    if (!header || header.format !== 'jpeg') return 'unreadable JPEG';
    if (header.components !== components) return 'JPEG/colour space mismatch';
    if (header.width !== width || header.height !== height) return 'JPEG size mismatch';
    const image = await decodeJpeg(contents, { applyOrientation: false });
    return { image, components, wasJpeg: true };
  }

  if (!settings.lossyFlate) return 'lossless image kept lossless';
  if (numberIn(dict, 'BitsPerComponent') !== 8) return 'not 8 bits per sample';
  let samples = await inflate(contents);
  const params = predictorParams(parms);
  if (params.predictor >= 2 && params.predictor < 10) return 'TIFF predictor';
  if (params.predictor >= 10) {
    if (params.colors !== components || params.columns !== width || params.bitsPerComponent !== 8)
      return 'unusual predictor';
    try {
      samples = unpredict(samples, params);
    } catch {
      return 'damaged image data';
    }
  }
  if (samples.length < width * height * components) return 'damaged image data';
  // Whole-block pre-shrink towards the target resolution (the exact Lanczos resize follows).
  const k = use.dpi > settings.maxDpi * DOWNSAMPLE_THRESHOLD ? Math.max(1, Math.floor(use.dpi / settings.maxDpi)) : 1;
  return { image: toRgba(samples, width, height, components, k), components, wasJpeg: false };
}

/** Recompresses one image in place when that makes it smaller. Returns a skip reason or null. */
async function recompressImage(doc: PDFDocument, use: ImageUse, settings: CompressSettings): Promise<string | null> {
  let decoded;
  try {
    decoded = await decodeImageStream(doc, use, settings);
  } catch {
    return 'undecodable image';
  }
  if (typeof decoded === 'string') return decoded;
  let { image } = decoded;
  const { components } = decoded;
  const dict = use.stream.dict;

  const width = numberIn(dict, 'Width') ?? image.width;
  const dpi = use.dpi * (image.width / width); // lower when the decoder already shrank it
  if (dpi > settings.maxDpi * DOWNSAMPLE_THRESHOLD || (image.width < width && dpi > settings.maxDpi)) {
    const scale = Math.min(1, settings.maxDpi / dpi);
    image = await resizeImage(
      image,
      Math.max(1, Math.round(image.width * scale)),
      Math.max(1, Math.round(image.height * scale)),
    );
  }
  let gray = components === 1;
  if (!gray && (settings.grayscale || isGray(image))) {
    toGray(image);
    gray = true;
  }
  const jpeg = await encodeJpeg(image, { quality: settings.quality, grayscale: gray });
  const original = use.stream.contents.length;
  if (jpeg.length >= original * MIN_SAVING) return 'would not shrink';

  const next = dict.clone(doc.context);
  next.set(N('Width'), PDFNumber.of(image.width));
  next.set(N('Height'), PDFNumber.of(image.height));
  next.set(N('BitsPerComponent'), PDFNumber.of(8));
  next.set(N('Filter'), N('DCTDecode'));
  next.delete(N('DecodeParms'));
  next.delete(N('Length'));
  if (gray && components !== 1) next.set(N('ColorSpace'), N('DeviceGray'));
  if (settings.removeMetadata) next.delete(N('Metadata'));
  doc.context.assign(use.ref, PDFRawStream.of(next, jpeg));
  return null;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Points every XObject entry that names a duplicate image at the first copy. Returns how many merged. */
async function mergeDuplicateImages(
  doc: PDFDocument,
  images: Iterable<ImageUse>,
  xobjectDicts: PDFDict[],
): Promise<number> {
  const firstByHash = new Map<string, PDFRef>();
  const replacement = new Map<string, PDFRef>();
  for (const { ref } of images) {
    const stream = doc.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    const hash = `${await sha256(stream.contents)}:${stream.dict.toString()}`;
    const first = firstByHash.get(hash);
    if (first) replacement.set(ref.toString(), first);
    else firstByHash.set(hash, ref);
  }
  if (replacement.size === 0) return 0;
  for (const xobjects of xobjectDicts) {
    for (const [key, value] of xobjects.entries()) {
      const target = value instanceof PDFRef ? replacement.get(value.toString()) : undefined;
      if (target) xobjects.set(key, target);
    }
  }
  return replacement.size;
}

function removeMetadata(doc: PDFDocument): void {
  doc.context.trailerInfo.Info = undefined;
  doc.catalog.delete(N('Metadata'));
  for (const page of doc.getPages()) page.node.delete(N('Metadata'));
}

/** Removes /PieceInfo from the catalog and pages; true when there was any. */
function discardPrivateData(doc: PDFDocument): boolean {
  let found = doc.catalog.has(N('PieceInfo'));
  doc.catalog.delete(N('PieceInfo'));
  for (const page of doc.getPages()) {
    found ||= page.node.has(N('PieceInfo'));
    page.node.delete(N('PieceInfo'));
  }
  return found;
}

/** qpdf's lossless rewrite: object streams, Flate at level 9, unreferenced objects dropped. */
export async function structuralPass(bytes: Uint8Array): Promise<Uint8Array | undefined> {
  const result = await runQpdf(
    [
      '--object-streams=generate',
      '--compress-streams=y',
      '--recompress-flate',
      '--compression-level=9',
      '--decode-level=generalized',
      '/in.pdf',
      '/out.pdf',
    ],
    { inputs: { '/in.pdf': bytes }, outputs: ['/out.pdf'] },
  );
  const out = result.files['/out.pdf'];
  return out && result.exitCode !== 2 ? out : undefined;
}

/**
 * One full pass with the given settings over `doc` (changed in place), opened by openPdf from
 * `bytes` (decrypted / repaired). When no image changes, qpdf works on `bytes` directly.
 */
export async function compressPass(
  doc: PDFDocument,
  bytes: Uint8Array,
  settings: CompressSettings,
  ctx: EngineContext,
  progress: (done: number, total: number) => void = () => {},
): Promise<PassReport> {
  const { images, xobjectDicts } = await collectImages(doc);
  const skipped = new Map<string, number>();
  let recompressed = 0;
  let done = 0;
  const total = images.size + 1;
  for (const use of images.values()) {
    throwIfAborted(ctx.signal);
    const reason = await recompressImage(doc, use, settings);
    if (reason) skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
    else recompressed++;
    progress(++done, total);
  }
  const merged = await mergeDuplicateImages(doc, images.values(), xobjectDicts);
  if (settings.removeMetadata) removeMetadata(doc);
  const privateDataRemoved = settings.discardPrivateData && discardPrivateData(doc);

  throwIfAborted(ctx.signal);
  const changed = recompressed > 0 || merged > 0 || settings.removeMetadata || privateDataRemoved;
  const rewritten = changed ? await savePdf(doc, { objectStreams: false }) : bytes;
  const structured = await structuralPass(rewritten);
  progress(total, total);
  const best = structured && structured.length < rewritten.length ? structured : rewritten;
  return { bytes: best, imagesFound: images.size, imagesRecompressed: recompressed, skipped, privateDataRemoved };
}

export function settingsFromOptions(options: EngineOptions): CompressSettings {
  const level = String(options.level ?? 'recommended');
  const grayscale = options.grayscale === true;
  const removeMetadataOption = options.removeMetadata === true;
  if (level === 'custom') {
    return {
      quality: Number(options.imageQuality ?? 70),
      maxDpi: Number(options.maxDpi ?? 150),
      lossyFlate: true,
      discardPrivateData: true,
      grayscale,
      removeMetadata: removeMetadataOption,
    };
  }
  const preset = LEVELS[(level in LEVELS ? level : 'recommended') as CompressLevel];
  return { ...preset, grayscale, removeMetadata: removeMetadataOption };
}

function describeSkips(skipped: Map<string, number>): string | undefined {
  const parts = [...skipped]
    .filter(([reason]) => reason !== 'would not shrink' && reason !== 'tiny')
    .map(([reason, n]) => `${n} × ${reason}`);
  return parts.length ? `Left unchanged: ${parts.join(', ')}.` : undefined;
}

const outputName = (name: string) => `${baseName(name)}-compressed.pdf`;

export const run: Engine = async (inputs, options, ctx): Promise<EngineResult> => {
  const input = inputs[0];
  if (!input) throw new FolioError('InvalidInput', 'Please select at least one file');
  let opened = await openPdf(input);
  const wasEncrypted = opened.wasEncrypted;
  const original = input.bytes.length;
  // Scripts and actions go first (by default): every pass, and the "already well compressed" answer,
  // then start from the cleaned file.
  const active = handleActiveContent(opened.doc, options);
  let source = input;
  if (active.removed && hasActiveContent(active.report)) {
    source = { name: input.name, bytes: await savePdf(opened.doc) };
    opened = await openPdf(source);
  }
  const base = settingsFromOptions(options);
  const progress = ctx.progress ?? (() => {});
  const notes: string[] = [];

  let report: PassReport;
  if (options.level === 'target') {
    const targetMb = Number(options.targetSizeMb ?? 2);
    if (!Number.isFinite(targetMb) || targetMb <= 0)
      throw new FolioError('InvalidInput', 'Target size must be a positive number of MB.');
    const target = Math.round(targetMb * 1024 * 1024);
    let best: PassReport | undefined;
    for (let step = 0; step < TARGET_LADDER.length; step++) {
      const settings = { ...base, ...TARGET_LADDER[step], lossyFlate: step > 0 };
      // Each attempt starts from a fresh copy: a pass changes its document in place.
      const doc = step === 0 ? opened.doc : (await openPdf(source)).doc;
      const attempt = await compressPass(doc, opened.bytes, settings, ctx, (done, total) =>
        progress(step * total + done, TARGET_LADDER.length * total),
      );
      if (!best || attempt.bytes.length < best.bytes.length) best = attempt;
      if (attempt.bytes.length <= target) break;
      // Nothing left to shrink: further steps change no image, so they cannot help.
      if (attempt.imagesFound === 0) break;
    }
    report = best!;
    if (Math.min(report.bytes.length, original) > target) {
      notes.push(
        `Could not get this PDF under ${formatBytes(target)}: the smallest Folio can make it is ` +
          `${formatBytes(Math.min(report.bytes.length, original))} (its text, fonts and vector graphics cannot ` +
          `shrink further without losing content).`,
      );
    }
  } else {
    report = await compressPass(opened.doc, opened.bytes, base, ctx, progress);
  }

  if (report.bytes.length >= original) {
    notes.unshift(
      opened.wasRepaired
        ? `This PDF is already well compressed: Folio could not make it smaller (it is also slightly damaged; ` +
            `Folio's repaired copy came out larger), so here is the original (${formatBytes(original)}).`
        : `This PDF is already well compressed: Folio could not make it smaller, so here is the original ` +
            `(${formatBytes(original)}).`,
    );
    if (active.note) notes.push(active.note);
    return { bytes: source.bytes, filename: outputName(input.name), mime: 'application/pdf', notes };
  }
  const saved = Math.round((1 - report.bytes.length / original) * 100);
  notes.unshift(`${formatBytes(original)} → ${formatBytes(report.bytes.length)} (−${saved}%).`);
  if (report.imagesFound > 0) notes.push(`${report.imagesRecompressed} of ${report.imagesFound} images recompressed.`);
  if (report.privateDataRemoved)
    notes.push(
      'Removed editing data private to the application that made the file (PieceInfo); viewers never show it.',
    );
  const skips = describeSkips(report.skipped);
  if (skips) notes.push(skips);
  if (wasEncrypted)
    notes.push('The compressed copy is not password-protected. Protect it again with Protect PDF if needed.');
  if (active.note) notes.push(active.note);
  return { bytes: report.bytes, filename: outputName(input.name), mime: 'application/pdf', notes };
};
