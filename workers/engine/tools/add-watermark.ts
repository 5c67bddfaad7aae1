/**
 * Watermarks: text drawn as real vector text in an embedded, subset Unicode font (fonts.ts), or a
 * JPEG/PNG image, on the chosen pages, over or under the page content. Placement is computed in
 * the page as the reader sees it (crop box, /Rotate applied), so a watermark at "top right" with a
 * 45° angle looks the same on a page stored sideways. Nothing on the page is re-encoded: the
 * watermark is its own content stream added before (under) or after (over) the page's own.
 */
import {
  PDFArray,
  PDFDocument,
  PDFName,
  PDFRef,
  PDFStream,
  beginText,
  concatTransformationMatrix,
  drawObject,
  endText,
  popGraphicsState,
  pushGraphicsState,
  setFillingRgbColor,
  setFontAndSize,
  setGraphicsState,
  showText,
  moveText,
  type PDFFont,
  type PDFImage,
  type PDFOperator,
  type PDFPage,
} from 'pdf-lib';
import type { Engine, EngineInput } from '../lib/types.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import { openPdf } from '../lib/pdf/pdf-open.ts';
import { handleActiveContent } from '../lib/pdf/active-content.ts';
import { parsePageRanges } from '../../../shared/page-range.ts';
import { baseName } from '../../../shared/format.ts';
import { normalizeRotation, savePdf } from '../lib/pdf/pdf-util.ts';
import { fontForText, fontkit } from '../lib/fonts.ts';
import { POSITIONS, fitFactor, parseColour, placements, type Position } from '../../../shared/watermark-layout.ts';
import { rotationAt, type Matrix } from '../lib/pdf/matrix.ts';
import { orientationMatrix, orientationSwapsAxes, readJpegInfo } from '../lib/image/jpeg-info.ts';
import { uprightToUser, viewSize } from '../lib/pdf/edit-operations.ts';

export { parseColour, placements };

/** Maps the page as seen (origin bottom-left of the visible crop box) to the page's user space. */
export function visibleToUser(page: PDFPage): { matrix: Matrix; width: number; height: number } {
  const geometry = { box: page.getCropBox(), rotation: normalizeRotation(page.getRotation().angle) };
  return { matrix: uprightToUser(geometry), ...viewSize(geometry) };
}

interface TextMark {
  kind: 'text';
  text: string;
  font: PDFFont;
  size: number;
  colour: [number, number, number];
}
interface ImageMark {
  kind: 'image';
  image: PDFImage;
  /** EXIF orientation of a JPEG (1 for PNG): a photo stands as it does on screen, not as stored. */
  orientation: number;
  /** The size as displayed (width and height swapped for orientations 5–8). */
  width: number;
  height: number;
  scale: number;
}
type Mark = TextMark | ImageMark;

function markOperators(
  page: PDFPage,
  mark: Mark,
  settings: { position: Position; angle: number; opacity: number },
): PDFOperator[] {
  const { matrix, width, height } = visibleToUser(page);
  const gs = page.node.newExtGState(
    'FolioWmGS',
    page.doc.context.obj({ Type: 'ExtGState', ca: settings.opacity, CA: settings.opacity }),
  );
  const ops: PDFOperator[] = [pushGraphicsState(), setGraphicsState(gs), concatTransformationMatrix(...matrix)];
  if (mark.kind === 'text') {
    const fontName = page.node.newFontDictionary('FolioWm', mark.font.ref);
    const fit = fitFactor(
      width,
      height,
      mark.font.widthOfTextAtSize(mark.text, mark.size),
      mark.font.heightAtSize(mark.size),
      settings.angle,
    );
    const size = mark.size * fit;
    const w = mark.font.widthOfTextAtSize(mark.text, size);
    const ascent = mark.font.heightAtSize(size, { descender: false });
    const full = mark.font.heightAtSize(size);
    const encoded = mark.font.encodeText(mark.text);
    for (const [cx, cy] of placements(settings.position, width, height, w, full, settings.angle)) {
      ops.push(
        pushGraphicsState(),
        concatTransformationMatrix(...rotationAt(cx, cy, settings.angle)),
        beginText(),
        setFontAndSize(fontName, size),
        setFillingRgbColor(...mark.colour),
        // Centre the line box (descender to ascender) on the anchor.
        moveText(-w / 2, full / 2 - ascent),
        showText(encoded),
        endText(),
        popGraphicsState(),
      );
    }
  } else {
    const name = page.node.newXObject('FolioWmImage', mark.image.ref);
    const wanted = width * mark.scale;
    const fit = fitFactor(width, height, wanted, (wanted * mark.height) / mark.width, settings.angle);
    const w = wanted * fit;
    const h = (w * mark.height) / mark.width;
    for (const [cx, cy] of placements(settings.position, width, height, w, h, settings.angle)) {
      ops.push(
        pushGraphicsState(),
        concatTransformationMatrix(...rotationAt(cx, cy, settings.angle)),
        concatTransformationMatrix(...orientationMatrix(mark.orientation, -w / 2, -h / 2, w, h)),
        drawObject(name),
        popGraphicsState(),
      );
    }
  }
  ops.push(popGraphicsState());
  return ops;
}

/** The page's content stream references, whether /Contents is one stream or an array. */
function contentRefs(page: PDFPage): PDFRef[] {
  const raw = page.node.get(PDFName.of('Contents'));
  const resolved = raw instanceof PDFRef ? page.doc.context.lookup(raw) : raw;
  if (resolved instanceof PDFArray) return resolved.asArray().filter((r): r is PDFRef => r instanceof PDFRef);
  if (raw instanceof PDFRef && resolved instanceof PDFStream) return [raw];
  return [];
}

type LoadedImage = Pick<ImageMark, 'image' | 'orientation' | 'width' | 'height'>;

async function loadWatermarkImage(doc: PDFDocument, image: EngineInput | undefined): Promise<LoadedImage> {
  if (!image || image.bytes.byteLength === 0) {
    throw new FolioError('InvalidInput', 'Choose a JPEG or PNG image to use as the watermark.');
  }
  const b = image.bytes;
  try {
    if (b[0] === 0xff && b[1] === 0xd8) {
      const { orientation } = readJpegInfo(b);
      const embedded = await doc.embedJpg(b);
      const swap = orientationSwapsAxes(orientation);
      const [width, height] = swap ? [embedded.height, embedded.width] : [embedded.width, embedded.height];
      return { image: embedded, orientation, width, height };
    }
    if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) {
      const embedded = await doc.embedPng(b);
      return { image: embedded, orientation: 1, width: embedded.width, height: embedded.height };
    }
  } catch {
    throw new FolioError('InvalidImage', `"${image.name}" could not be read as an image (damaged or cut short).`);
  }
  throw new FolioError('InvalidImage', `"${image.name}" is not a JPEG or PNG image.`);
}

/**
 * The watermark image: a file sent in the multipart field `image` (API clients), or the form's
 * `imageData` field — a data: URL, because the modal's option values are strings.
 */
export function watermarkImageInput(inputs: EngineInput[], options: Record<string, unknown>): EngineInput | undefined {
  const fromField = inputs.find((i) => i.field === 'image');
  if (fromField) return fromField;
  const dataUrl = String(options.imageData ?? '');
  const match = /^data:[^;,]*;base64,(.*)$/s.exec(dataUrl);
  if (!match) return undefined;
  const binary = atob(match[1]);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return { name: String(options.imageName || 'watermark image'), bytes };
}

const number = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value : Number(value ?? fallback) || fallback;

export const run: Engine = async (inputs, options, ctx) => {
  const input = inputs.find((i) => !i.field) ?? inputs[0];
  if (!input) throw new FolioError('InvalidInput', 'Please select at least one file');
  const kind = options.type === 'image' ? 'image' : 'text';
  const text = String(options.text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (kind === 'text' && !text) throw new FolioError('InvalidInput', 'Enter the watermark text.');
  const position = (POSITIONS as readonly string[]).includes(String(options.position))
    ? (options.position as Position)
    : 'center';
  const settings = {
    position,
    angle: number(options.rotation, 45),
    opacity: Math.min(1, Math.max(0, number(options.opacity, 30) / 100)),
  };
  const layer = options.layer === 'under' ? 'under' : 'over';

  const { doc } = await openPdf(input);
  const active = handleActiveContent(doc, options);
  const pages = [...new Set(parsePageRanges(String(options.pages ?? ''), doc.getPageCount()))];

  let mark: Mark;
  if (kind === 'text') {
    const font = await fontForText(text);
    doc.registerFontkit(fontkit);
    mark = {
      kind: 'text',
      text,
      font: await doc.embedFont(font.bytes, { subset: true }),
      size: Math.min(400, Math.max(4, number(options.fontSize, 48))),
      colour: parseColour(String(options.color ?? '#808080')),
    };
  } else {
    mark = {
      kind: 'image',
      ...(await loadWatermarkImage(doc, watermarkImageInput(inputs, options))),
      scale: Math.min(1, Math.max(0.01, number(options.imageScale, 40) / 100)),
    };
  }

  // One q / Q pair shared by every page keeps the page's own graphics state from leaking into ours.
  const save = doc.context.register(doc.context.contentStream([pushGraphicsState()]));
  const restore = doc.context.register(doc.context.contentStream([popGraphicsState()]));
  ctx.progress?.(0, pages.length);
  for (const [done, pageNumber] of pages.entries()) {
    throwIfAborted(ctx.signal);
    const page = doc.getPage(pageNumber - 1);
    const existing = contentRefs(page);
    const watermark = doc.context.register(doc.context.contentStream(markOperators(page, mark, settings)));
    const contents = layer === 'under' ? [watermark, ...existing] : [save, ...existing, restore, watermark];
    page.node.set(PDFName.of('Contents'), doc.context.obj(contents));
    ctx.progress?.(done + 1, pages.length);
  }
  const bytes = await savePdf(doc);
  return {
    bytes,
    filename: `${baseName(input.name)}-watermarked.pdf`,
    mime: 'application/pdf',
    notes: [
      `Watermark on ${pages.length} of ${doc.getPageCount()} page${doc.getPageCount() === 1 ? '' : 's'}`,
      ...(active.note ? [active.note] : []),
    ],
  };
};
