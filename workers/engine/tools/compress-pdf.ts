/**
 * Compress PDF. Two passes:
 * 1. Images: every image XObject reachable from the pages (through Form XObjects too) that Folio
 *    can decode exactly — 8- or 16-bit DeviceGray/DeviceRGB/ICCBased(1|3)/CalGray/CalRGB, or Lab
 *    (turned into sRGB), stored as a plain JPEG (DCTDecode) or as Flate (with or without PNG
 *    predictors) — is downsampled when its resolution is above the target, turned into gray when it
 *    is gray anyway (or when asked), and re-encoded with MozJPEG. An image that would not shrink is
 *    left as it was. Transparency (SMask, stencil /Mask) is kept untouched; CMYK, Indexed, JBIG2,
 *    CCITT, JPEG 2000, colour-key masks and unusual decode arrays are skipped rather than risked.
 *    Identical images (same bytes and dictionary) are merged into one object. The dictionary checks
 *    are made here; decoding and encoding (lib/image/recompress.ts) run across a pool of image
 *    workers in the browser (lib/image/image-pool.ts), largest image first, in-process in Node.
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
import { endsEarly } from '../lib/pdf/pdf-bytes.ts';
import { handleActiveContent, hasActiveContent } from '../lib/pdf/active-content.ts';
import { savePdf } from '../lib/pdf/pdf-util.ts';
import { runQpdf } from '../lib/pdf/qpdf.ts';
import { pixelLimit } from '../lib/image/codecs.ts';
import type { ImageJob, RecompressedImage } from '../lib/image/recompress.ts';
import { recompressAll } from '../lib/image/image-pool.ts';
import { DEFAULT_LAB_RANGE, type LabParams } from '../lib/image/lab.ts';
import { baseName, formatBytes } from '../../../shared/format.ts';
import { predictorParams } from '../lib/pdf/filters.ts';
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

export interface PassReport {
  bytes: Uint8Array;
  imagesFound: number;
  imagesRecompressed: number;
  /** Why each image left as it was (by object reference) was left. */
  skipped: Map<string, string>;
  privateDataRemoved: boolean;
}

const N = (name: string) => PDFName.of(name);

interface ColourSpace {
  components: number;
  lab?: LabParams;
}

/** The numbers in an array of exactly `length` numbers, else undefined. */
function numbersIn(object: PDFObject | undefined, length: number): number[] | undefined {
  if (!(object instanceof PDFArray) || object.size() !== length) return undefined;
  const values = object.asArray().map((item) => (item instanceof PDFNumber ? item.asNumber() : NaN));
  return values.every(Number.isFinite) ? values : undefined;
}

/** A /Lab colour space's white point and a*, b* ranges, or why it is skipped. */
function labParams(doc: PDFDocument, dict: PDFObject | undefined): LabParams | string {
  const resolved = dict instanceof PDFRef ? doc.context.lookup(dict) : dict;
  if (!(resolved instanceof PDFDict)) return 'Lab colour without a white point';
  const white = numbersIn(resolved.lookup(N('WhitePoint')), 3);
  if (!white || !(white[0] > 0 && white[1] === 1 && white[2] > 0)) return 'Lab colour without a white point';
  const range = resolved.has(N('Range')) ? numbersIn(resolved.lookup(N('Range')), 4) : [...DEFAULT_LAB_RANGE];
  if (!range || !(range[0] < range[1] && range[2] < range[3])) return 'Lab colour with an unusual range';
  return { whitePoint: white as LabParams['whitePoint'], range: range as LabParams['range'] };
}

/** How Folio reads a colour space (gray, RGB, or Lab turned into RGB), or a reason to skip. */
function colourSpace(doc: PDFDocument, space: PDFObject | undefined): ColourSpace | string {
  const resolved = space instanceof PDFRef ? doc.context.lookup(space) : space;
  const name = nameOf(resolved);
  if (name === 'DeviceGray' || name === 'CalGray') return { components: 1 };
  if (name === 'DeviceRGB' || name === 'CalRGB') return { components: 3 };
  if (resolved instanceof PDFArray && resolved.size() >= 1) {
    const family = nameOf(resolved.get(0));
    if (family === 'CalGray') return { components: 1 };
    if (family === 'CalRGB') return { components: 3 };
    if (family === 'Lab') {
      const lab = labParams(doc, resolved.get(1));
      return typeof lab === 'string' ? lab : { components: 3, lab };
    }
    if (family === 'ICCBased') {
      const profile = doc.context.lookup(resolved.get(1));
      const n = profile instanceof PDFStream ? numberIn(profile.dict, 'N') : undefined;
      if (n === 1 || n === 3) return { components: n };
      return 'ICC CMYK colour';
    }
    return `${family ?? 'unknown'} colour`;
  }
  if (name === 'DeviceCMYK') return 'CMYK colour';
  return `${name ?? 'unknown'} colour`;
}

/** What the image's dictionary says about how to recompress it, or why it is skipped. */
function imageJob(doc: PDFDocument, use: ImageUse, settings: CompressSettings): ImageJob | string {
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
  let deflated = false;
  if (filterObject instanceof PDFArray) {
    const filters = filterObject.asArray().map((f) => nameOf(doc.context.lookup(f)));
    // A deflated JPEG ([/FlateDecode /DCTDecode]) is a JPEG once inflated.
    if (filters.length === 2 && filters[0] === 'FlateDecode' && filters[1] === 'DCTDecode') {
      const parmsList = parms instanceof PDFArray ? parms.asArray().map((p) => doc.context.lookup(p)) : [];
      if (parmsList[0] instanceof PDFDict) return 'unusual filter parameters';
      deflated = true;
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
  const colour = colourSpace(doc, dict.lookup(N('ColorSpace')));
  if (typeof colour === 'string') return colour;
  const { components } = colour;
  const job = { contents: use.stream.contents, width, height, components, lab: colour.lab, dpi: use.dpi };

  if (filter === 'DCTDecode') {
    // ColorTransform 0 on a 3-component JPEG means RGB samples without YCbCr; the decoder would guess.
    const transform = parms instanceof PDFDict ? numberIn(parms, 'ColorTransform') : undefined;
    if (transform !== undefined && !(transform === 1 && components === 3)) return 'unusual JPEG colour transform';
    return { ...job, encoding: deflated ? 'deflated-jpeg' : 'jpeg' };
  }

  if (!settings.lossyFlate) return 'lossless image kept lossless';
  const bitsPerComponent = numberIn(dict, 'BitsPerComponent');
  if (bitsPerComponent !== 8 && bitsPerComponent !== 16) return 'not 8 or 16 bits per sample';
  const predictor = predictorParams(parms);
  if (predictor.predictor >= 2 && predictor.predictor < 10) return 'TIFF predictor';
  if (
    predictor.predictor >= 10 &&
    (predictor.colors !== components || predictor.columns !== width || predictor.bitsPerComponent !== bitsPerComponent)
  )
    return 'unusual predictor';
  return { ...job, encoding: 'flate', predictor, bitsPerComponent };
}

/** Puts the recompressed JPEG in place of the image (same object number, so every use follows). */
function replaceImage(
  doc: PDFDocument,
  use: ImageUse,
  job: ImageJob,
  image: Exclude<RecompressedImage, { skipped: string }>,
  settings: CompressSettings,
): void {
  const next = use.stream.dict.clone(doc.context);
  next.set(N('Width'), PDFNumber.of(image.width));
  next.set(N('Height'), PDFNumber.of(image.height));
  next.set(N('BitsPerComponent'), PDFNumber.of(8));
  next.set(N('Filter'), N('DCTDecode'));
  next.delete(N('DecodeParms'));
  next.delete(N('Length'));
  if (image.gray && job.components !== 1) next.set(N('ColorSpace'), N('DeviceGray'));
  else if (job.lab) next.set(N('ColorSpace'), N('DeviceRGB')); // the samples are sRGB now
  if (settings.removeMetadata) next.delete(N('Metadata'));
  doc.context.assign(use.ref, PDFRawStream.of(next, image.jpeg));
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

/**
 * qpdf's lossless rewrite: object streams, Flate at level 9, unreferenced objects dropped. With
 * warnings (exit 3) qpdf has repaired something, and may have lost the page tree of a damaged file
 * doing so: that output is used only when it has the `pageCount` pages `bytes` has.
 */
export async function structuralPass(bytes: Uint8Array, pageCount: number): Promise<Uint8Array | undefined> {
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
  if (!out || result.exitCode === 2) return undefined;
  if (result.exitCode === 3 && (await pagesIn(out)) !== pageCount) return undefined;
  return out;
}

/** The pages pdf-lib finds in `bytes`; 0 when it cannot read them. */
async function pagesIn(bytes: Uint8Array): Promise<number> {
  try {
    return (await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false })).getPageCount();
  } catch {
    return 0;
  }
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
  imageWorkers?: number,
): Promise<PassReport> {
  const { images, xobjectDicts } = await collectImages(doc);
  const skipped = new Map<string, string>();
  const skip = (use: ImageUse, reason: string) => skipped.set(use.ref.toString(), reason);
  let recompressed = 0;
  let done = 0;
  const total = images.size + 1;
  const uses: ImageUse[] = [];
  const jobs: ImageJob[] = [];
  for (const use of images.values()) {
    const job = imageJob(doc, use, settings);
    if (typeof job === 'string') {
      skip(use, job);
      progress(++done, total);
    } else {
      uses.push(use);
      jobs.push(job);
    }
  }
  throwIfAborted(ctx.signal);
  const results = await recompressAll(jobs, settings, {
    signal: ctx.signal,
    inputBytes: bytes.length,
    workers: imageWorkers,
    onResult: () => progress(++done, total),
  });
  results.forEach((result, i) => {
    if ('skipped' in result) return skip(uses[i], result.skipped);
    replaceImage(doc, uses[i], jobs[i], result, settings);
    recompressed++;
  });
  const merged = await mergeDuplicateImages(doc, images.values(), xobjectDicts);
  if (settings.removeMetadata) removeMetadata(doc);
  const privateDataRemoved = settings.discardPrivateData && discardPrivateData(doc);

  throwIfAborted(ctx.signal);
  const changed = recompressed > 0 || merged > 0 || settings.removeMetadata || privateDataRemoved;
  const rewritten = changed ? await savePdf(doc, { objectStreams: false }) : bytes;
  const structured = await structuralPass(rewritten, doc.getPageCount());
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

function describeSkips(skipped: Map<string, string>): string | undefined {
  const counts = new Map<string, number>();
  for (const reason of skipped.values()) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const parts = [...counts]
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
  // Image workers to start, when asked (tests, bench); else what the device affords.
  const asked = Number(options.imageWorkers);
  const imageWorkers = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, 16) : undefined;
  const progress = ctx.progress ?? (() => {});
  const notes: string[] = [];

  let report: PassReport;
  if (options.level === 'target') {
    const targetMb = Number(options.targetSizeMb ?? 2);
    if (!Number.isFinite(targetMb) || targetMb <= 0)
      throw new FolioError('InvalidInput', 'Target size must be a positive number of MB.');
    const target = Math.round(targetMb * 1024 * 1024);
    let best: PassReport | undefined;
    // Why each image was left as it was by the latest attempt that left it: the first attempt keeps
    // every Flate image lossless, which is not why the later ones could not shrink it.
    const lastSkip = new Map<string, string>();
    for (let step = 0; step < TARGET_LADDER.length; step++) {
      const settings = { ...base, ...TARGET_LADDER[step], lossyFlate: step > 0 };
      // Each attempt starts from a fresh copy: a pass changes its document in place.
      const doc = step === 0 ? opened.doc : (await openPdf(source)).doc;
      const attempt = await compressPass(
        doc,
        opened.bytes,
        settings,
        ctx,
        (done, total) => progress(step * total + done, TARGET_LADDER.length * total),
        imageWorkers,
      );
      if (!best || attempt.bytes.length < best.bytes.length) best = attempt;
      for (const [ref, reason] of attempt.skipped) lastSkip.set(ref, reason);
      if (attempt.bytes.length <= target) break;
      // Nothing left to shrink: further steps change no image, so they cannot help.
      if (attempt.imagesFound === 0) break;
    }
    report = { ...best!, skipped: new Map([...best!.skipped.keys()].map((ref) => [ref, lastSkip.get(ref)!])) };
    if (Math.min(report.bytes.length, original) > target) {
      // Images Folio cannot recompress (CMYK, JBIG2, JPEG 2000 …) may be most of what is left.
      const kept = describeSkips(report.skipped) ? 'the images left unchanged, listed below, and ' : '';
      notes.push(
        `Could not get this PDF under ${formatBytes(target)}: the smallest Folio can make it is ` +
          `${formatBytes(Math.min(report.bytes.length, original))} (${kept}its text, fonts and vector graphics ` +
          `cannot shrink further without losing content).`,
      );
    }
  } else {
    report = await compressPass(opened.doc, opened.bytes, base, ctx, progress, imageWorkers);
  }

  // A file cut short is not given back as it is: most readers cannot open it, the repaired copy they can.
  const cutShort = endsEarly(input.bytes);
  if (report.bytes.length >= original && !cutShort) {
    notes.unshift(
      opened.wasRepaired
        ? `This PDF is already well compressed: Folio could not make it smaller (it is also slightly damaged; ` +
            `Folio's repaired copy came out larger), so here is the original (${formatBytes(original)}).`
        : `This PDF is already well compressed: Folio could not make it smaller, so here is the original ` +
            `(${formatBytes(original)}).`,
    );
    const kept = describeSkips(report.skipped);
    if (kept) notes.push(kept);
    if (active.note) notes.push(active.note);
    return { bytes: source.bytes, filename: outputName(input.name), mime: 'application/pdf', notes };
  }
  const saved = Math.round((1 - report.bytes.length / original) * 100);
  notes.unshift(
    report.bytes.length >= original
      ? `${formatBytes(original)} → ${formatBytes(report.bytes.length)}: the repaired copy of a file cut short.`
      : `${formatBytes(original)} → ${formatBytes(report.bytes.length)} (−${saved}%).`,
  );
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
