/**
 * Image blanking for redaction: an image XObject drawn over an area is copied with the pixels under
 * the area painted black (8-bit, uncompressed or Flate, Gray/RGB/CMYK/ICC), or dropped from the
 * page when it lies wholly inside an area or cannot be decoded exactly.
 */
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFStream, decodePDFRawStream, type PDFRef } from 'pdf-lib';
import { filterNames } from './filters.ts';
import { boxThrough, inverseTransform, type Matrix } from './matrix.ts';
import { numberOr } from './object-graph.ts';
import { hitsAny, type WalkContext } from './redact-context.ts';

/** Components per sample of the colour spaces blanking handles; 0 for any other. */
function componentsOf(ctx: WalkContext, colorSpace: unknown): number {
  const { doc } = ctx;
  if (colorSpace instanceof PDFName) {
    return ({ DeviceRGB: 3, DeviceGray: 1, DeviceCMYK: 4 } as Record<string, number>)[colorSpace.decodeText()] ?? 0;
  }
  if (colorSpace instanceof PDFArray) {
    const family = doc.context.lookup(colorSpace.get(0));
    const iccStream = doc.context.lookup(colorSpace.get(1));
    if (family instanceof PDFName && family.decodeText() === 'ICCBased' && iccStream instanceof PDFStream) {
      return numberOr(doc.context.lookup(iccStream.dict.get(PDFName.of('N'))), 0);
    }
  }
  return 0;
}

/** Blanks (paints black) the pixels of an image that lie under the areas; undefined when it cannot decode it. */
function blankImagePixels(ctx: WalkContext, image: PDFRawStream, ctm: Matrix): PDFRef | undefined {
  const { doc } = ctx;
  const dict = image.dict;
  const get = (key: string) => doc.context.lookup(dict.get(PDFName.of(key)));
  const width = numberOr(get('Width'), 0);
  const height = numberOr(get('Height'), 0);
  const bpc = numberOr(get('BitsPerComponent'), 8);
  const filters = filterNames(dict);
  const plainOrFlate = filters.length === 0 || (filters.length === 1 && filters[0] === 'FlateDecode');
  const components = componentsOf(ctx, get('ColorSpace'));
  if (bpc !== 8 || components === 0 || width <= 0 || height <= 0 || get('DecodeParms') || !plainOrFlate)
    return undefined;
  let pixels: Uint8Array;
  try {
    pixels = decodePDFRawStream(image).decode();
  } catch {
    return undefined;
  }
  if (pixels.length < width * height * components) return undefined;
  const inverse = inverseTransform(ctm);
  if (!inverse) return undefined;
  pixels = pixels.slice();
  for (const area of ctx.areas) {
    // The area in image space: the unit square, row 0 at the top.
    const box = boxThrough(inverse, area.x0, area.y0, area.x1, area.y1);
    const c0 = Math.max(0, Math.floor(box.x0 * width));
    const c1 = Math.min(width, Math.ceil(box.x1 * width));
    const r0 = Math.max(0, Math.floor((1 - box.y1) * height));
    const r1 = Math.min(height, Math.ceil((1 - box.y0) * height));
    for (let r = r0; r < r1; r++) pixels.fill(0, (r * width + c0) * components, (r * width + c1) * components);
  }
  const copy = doc.context.flateStream(pixels, {});
  for (const [key, value] of dict.entries()) {
    const k = key.decodeText();
    if (k !== 'Filter' && k !== 'DecodeParms' && k !== 'Length') copy.dict.set(key, value);
  }
  return doc.context.register(copy);
}

/**
 * What to write instead of the `Do` of an image drawn with `ctm`: a draw of a blanked copy (added to
 * `xobjects` under a new name), '' to drop the draw, or undefined when no area touches the image.
 */
export function redactImageDraw(
  ctx: WalkContext,
  name: string,
  image: PDFRawStream,
  ctm: Matrix,
  xobjects: PDFDict,
): string | undefined {
  const box = boxThrough(ctm, 0, 0, 1, 1);
  if (!hitsAny(box, ctx.areas)) return undefined;
  const fullyCovered = ctx.areas.some((a) => a.x0 <= box.x0 && a.y0 <= box.y0 && a.x1 >= box.x1 && a.y1 >= box.y1);
  if (!fullyCovered) {
    const blanked = blankImagePixels(ctx, image, ctm);
    if (blanked) {
      ctx.stats.imagesBlanked++;
      return `/${addUnderNewName(xobjects, name, blanked)} Do`;
    }
    ctx.notes.add(
      'An image partly under a redaction area could not be blanked pixel by pixel, so it was removed from that ' +
        'page entirely.',
    );
  }
  ctx.stats.imagesRemoved++;
  return '';
}

/** Adds `ref` to a resource dictionary as name_R (or name_R1, name_R2… when taken) and returns that name. */
export function addUnderNewName(resources: PDFDict, name: string, ref: PDFRef): string {
  let newName = `${name}_R`;
  for (let i = 1; resources.has(PDFName.of(newName)); i++) newName = `${name}_R${i}`;
  resources.set(PDFName.of(newName), ref);
  return newName;
}
