/**
 * Images → one PDF, one page per image, in the order given. JPEGs are embedded byte for byte
 * (DCTDecode: no re-encoding, no quality loss) and their EXIF orientation is applied by the page's
 * transformation matrix, not by touching pixels. PNGs keep their transparency; WebP is decoded and
 * embedded losslessly. Files that are not images, are empty or are cut short are named in the
 * message; with `skipInvalid` the others are converted and the skipped ones listed in the notes.
 */
import {
  PDFDocument,
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  type PDFImage,
  type PDFPage,
} from 'pdf-lib';
import type { Engine, EngineInput } from '../lib/types.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import { savePdf } from '../lib/pdf/pdf-util.ts';
import { decodeImage, encodePng } from '../lib/image/codecs.ts';
import { orientationMatrix, orientationSwapsAxes, readJpegInfo } from '../lib/image/jpeg-info.ts';
import { commonName } from '../../../shared/format.ts';

/** Page sizes in PDF points (1/72 in), portrait. */
export const PAGE_SIZES = { a4: [595.28, 841.89], letter: [612, 792] } as const;
/** Margins in points: small ≈ 7 mm, large ≈ 18 mm. */
export const MARGINS = { none: 0, small: 20, large: 50 } as const;
/** "Fit to image" shows a pixel as a CSS pixel does: 96 per inch. */
const POINTS_PER_PIXEL = 72 / 96;
/** PDF readers refuse pages larger than 200 inches, or smaller than 3 units (ISO 32000, annex C). */
const MAX_PAGE_POINTS = 14_400;
const MIN_PAGE_POINTS = 3;

interface PreparedImage {
  name: string;
  image: PDFImage;
  /** The size as displayed (after the EXIF rotation), in pixels. */
  width: number;
  height: number;
  orientation: number;
}

class UnreadableImage extends Error {}

/** What the first bytes say a file is (names and MIME types lie). */
function sniff(bytes: Uint8Array): 'jpeg' | 'png' | 'webp' | 'gif' | 'pdf' | 'unknown' {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return 'gif';
  if (bytes.subarray(0, 1024).some((_, i) => at(i, 0x25, 0x50, 0x44, 0x46, 0x2d))) return 'pdf';
  return 'unknown';
}

function isPngComplete(bytes: Uint8Array): boolean {
  // IEND chunk type followed by its CRC closes every complete PNG.
  const tail = new TextDecoder('latin1').decode(bytes.subarray(Math.max(0, bytes.length - 64)));
  return tail.includes('IEND');
}

async function prepare(doc: PDFDocument, input: EngineInput): Promise<PreparedImage> {
  const { name, bytes } = input;
  if (bytes.byteLength === 0) throw new UnreadableImage(`"${name}" is empty (0 bytes)`);
  const kind = sniff(bytes);
  switch (kind) {
    case 'jpeg': {
      let info;
      try {
        info = readJpegInfo(bytes);
      } catch {
        throw new UnreadableImage(`"${name}" is a damaged JPEG`);
      }
      if (!info.complete) throw new UnreadableImage(`"${name}" is cut short (an incomplete JPEG)`);
      let image: PDFImage;
      try {
        image = await doc.embedJpg(bytes);
      } catch {
        throw new UnreadableImage(`"${name}" is a JPEG that cannot be read`);
      }
      const swap = orientationSwapsAxes(info.orientation);
      return {
        name,
        image,
        width: swap ? info.height : info.width,
        height: swap ? info.width : info.height,
        orientation: info.orientation,
      };
    }
    case 'png': {
      if (!isPngComplete(bytes)) throw new UnreadableImage(`"${name}" is cut short (an incomplete PNG)`);
      try {
        const image = await doc.embedPng(bytes);
        return { name, image, width: image.width, height: image.height, orientation: 1 };
      } catch {
        throw new UnreadableImage(`"${name}" is a PNG that cannot be read`);
      }
    }
    case 'webp': {
      let png: Uint8Array;
      try {
        png = await encodePng(await decodeImage(bytes, 'webp'), { level: 1 });
      } catch {
        throw new UnreadableImage(`"${name}" is a WebP image that cannot be read (damaged or cut short)`);
      }
      const image = await doc.embedPng(png);
      return { name, image, width: image.width, height: image.height, orientation: 1 };
    }
    case 'gif':
      throw new UnreadableImage(`"${name}" is a GIF image, not a JPEG, PNG or WebP`);
    case 'pdf':
      throw new UnreadableImage(`"${name}" is a PDF, not an image (use Merge PDF to combine PDFs)`);
    default:
      throw new UnreadableImage(`"${name}" is not a JPEG, PNG or WebP image`);
  }
}

/** Page size and the image's box on it, in points. */
export function layout(
  width: number,
  height: number,
  { pageSize, orientation, margin }: { pageSize: string; orientation: string; margin: string },
): { page: [number, number]; box: [number, number, number, number] } {
  const m = MARGINS[margin as keyof typeof MARGINS] ?? 0;
  if (pageSize !== 'a4' && pageSize !== 'letter') {
    let w = width * POINTS_PER_PIXEL;
    let h = height * POINTS_PER_PIXEL;
    const shrink = Math.min(1, (MAX_PAGE_POINTS - 2 * m) / w, (MAX_PAGE_POINTS - 2 * m) / h);
    w *= shrink;
    h *= shrink;
    // A tiny image (1 × 1 px) is centred on the smallest page readers accept.
    const [pw, ph] = [Math.max(MIN_PAGE_POINTS, w + 2 * m), Math.max(MIN_PAGE_POINTS, h + 2 * m)];
    return { page: [pw, ph], box: [(pw - w) / 2, (ph - h) / 2, w, h] };
  }
  const [short, long] = PAGE_SIZES[pageSize];
  const landscape = orientation === 'landscape' || (orientation !== 'portrait' && width > height);
  const [pw, ph] = landscape ? [long, short] : [short, long];
  const scale = Math.min((pw - 2 * m) / width, (ph - 2 * m) / height);
  const w = width * scale;
  const h = height * scale;
  return { page: [pw, ph], box: [(pw - w) / 2, (ph - h) / 2, w, h] };
}

function drawOriented(page: PDFPage, prepared: PreparedImage, box: [number, number, number, number]): void {
  const name = page.node.newXObject('Image', prepared.image.ref);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(...orientationMatrix(prepared.orientation, ...box)),
    drawObject(name),
    popGraphicsState(),
  );
}

export const run: Engine = async (inputs, options, ctx) => {
  if (inputs.length === 0) throw new FolioError('InvalidInput', 'Please select at least one file');
  const skipInvalid = options.skipInvalid === true;
  const settings = {
    pageSize: String(options.pageSize ?? 'fit'),
    orientation: String(options.orientation ?? 'auto'),
    margin: String(options.margin ?? 'none'),
  };
  const doc = await PDFDocument.create();
  doc.setProducer('Folio');
  doc.setCreator('Folio — JPG to PDF');
  const problems: string[] = [];
  ctx.progress?.(0, inputs.length);
  for (const [index, input] of inputs.entries()) {
    throwIfAborted(ctx.signal);
    let prepared: PreparedImage;
    try {
      prepared = await prepare(doc, input);
    } catch (error) {
      if (!(error instanceof UnreadableImage)) throw error;
      problems.push(error.message);
      ctx.progress?.(index + 1, inputs.length);
      continue;
    }
    if (problems.length === 0 || skipInvalid) {
      const { page: size, box } = layout(prepared.width, prepared.height, settings);
      const page = doc.addPage(size);
      drawOriented(page, prepared, box);
    }
    ctx.progress?.(index + 1, inputs.length);
  }
  if (problems.length > 0 && (!skipInvalid || doc.getPageCount() === 0)) {
    const others = inputs.length - problems.length;
    const hint =
      others > 0 && !skipInvalid
        ? ` Remove ${problems.length === 1 ? 'it' : 'them'}, or tick "Skip files that cannot be read" to convert ` +
          `the other ${others === 1 ? 'image' : `${others} images`}.`
        : '';
    throw new FolioError('InvalidImage', `${problems.join('; ')}.${hint}`);
  }
  const bytes = await savePdf(doc);
  const filename = `${commonName(
    inputs.map((input) => input.name),
    'images',
  )}.pdf`;
  const notes = [`${doc.getPageCount()} page${doc.getPageCount() === 1 ? '' : 's'}`];
  if (problems.length) notes.push(`Skipped: ${problems.join('; ')}`);
  return { bytes, filename, mime: 'application/pdf', notes };
};
