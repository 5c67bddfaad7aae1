/**
 * An EMF or WMF picture as a PDF form XObject: the records played by emf.ts / wmf.ts into gdi.ts's
 * display list, written as PDF paths, text (through the renderers' FontBook, so it is real,
 * searchable text in the same metric-compatible fonts) and images (DIBs through images.ts).
 *
 * The form's /Matrix maps the picture's box onto the unit square, which is how an image XObject is
 * drawn; so it is handed back as a PDFImage whose ref is the form, and every caller that draws a
 * picture (`page.drawImage`: flowing text, slides, sheets, fills) draws a metafile unchanged.
 */
import {
  appendBezierCurve,
  beginText,
  closePath,
  concatTransformationMatrix,
  drawObject,
  endPath,
  endText,
  lineTo,
  moveTo,
  PDFArray,
  PDFDocument,
  PDFImage,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  type PDFFont,
  type PDFRef,
  popGraphicsState,
  pushGraphicsState,
  setDashPattern,
  setFillingRgbColor,
  setFontAndSize,
  setLineCap,
  setLineJoin,
  setLineWidth,
  setStrokingRgbColor,
  setTextMatrix,
} from 'pdf-lib';
import type { FontBook } from '../fonts.ts';
import { embeddable } from '../images.ts';
import { symbolFontOf, symbolFontText } from '../symbol-fonts.ts';
import { playEmf, type Played } from './emf.ts';
import { MetafileError, type ClipPath, type Item, type Rgb, type Segment } from './gdi.ts';
import { playWmf } from './wmf.ts';

export { MetafileError } from './gdi.ts';

interface Resources {
  fonts: Map<PDFFont, string>;
  images: Map<PDFRef, string>;
  undecoded?: boolean;
}

const op = (name: PDFOperatorNames) => PDFOperator.of(name);
const color = (c: Rgb) => [c[0] / 255, c[1] / 255, c[2] / 255] as const;

function pathOps(path: Segment[]): PDFOperator[] {
  return path.map((s) =>
    s.op === 'M'
      ? moveTo(s.x, s.y)
      : s.op === 'L'
        ? lineTo(s.x, s.y)
        : s.op === 'C'
          ? appendBezierCurve(s.x1, s.y1, s.x2, s.y2, s.x, s.y)
          : closePath(),
  );
}

function clipOps(clip: ClipPath[]): PDFOperator[] {
  return clip.flatMap((c) => [
    ...pathOps(c.path),
    op(c.evenOdd ? PDFOperatorNames.ClipEvenOdd : PDFOperatorNames.ClipNonZero),
    endPath(),
  ]);
}

function pathItem(item: Extract<Item, { kind: 'path' }>): PDFOperator[] {
  const ops = [pushGraphicsState(), ...clipOps(item.clip)];
  if (item.fill) ops.push(setFillingRgbColor(...color(item.fill)));
  const { stroke } = item;
  if (stroke) {
    ops.push(setStrokingRgbColor(...color(stroke.color)), setLineWidth(stroke.width));
    ops.push(setLineCap(stroke.cap), setLineJoin(stroke.join));
    if (stroke.dash.length) ops.push(setDashPattern(stroke.dash, 0));
  }
  ops.push(...pathOps(item.path));
  const even = item.evenOdd;
  const paint = item.fill
    ? stroke
      ? even
        ? PDFOperatorNames.FillEvenOddAndStroke
        : PDFOperatorNames.FillNonZeroAndStroke
      : even
        ? PDFOperatorNames.FillEvenOdd
        : PDFOperatorNames.FillNonZero
    : PDFOperatorNames.StrokePath;
  ops.push(op(paint), popGraphicsState());
  return ops;
}

async function textItem(
  item: Extract<Item, { kind: 'text' }>,
  fonts: FontBook,
  resources: Resources,
): Promise<PDFOperator[]> {
  const { font } = item;
  const symbol = symbolFontOf(font.face);
  const text = symbol ? symbolFontText(item.text, symbol) : item.text;
  const request = { family: font.face || 'Arial', bold: font.weight >= 600, italic: font.italic };
  const metrics = await fonts.metrics(request);
  // A positive LOGFONT height is the character cell (ascent + descent), a negative one the em.
  const em = font.height > 0 ? item.em / metrics.lineHeight : item.em;
  const ascent = metrics.ascent;
  const descent = Math.max(0, metrics.lineHeight - metrics.ascent);
  // Each character with its font (fallbacks for what the chosen font lacks) and its advance in ems.
  const glyphs: Array<{ text: string; font: PDFFont; natural: number; advance: number }> = [];
  // The records' advances are per UTF-16 unit: a character outside the BMP takes its two units' sum.
  let unit = 0;
  for (const char of Array.from(text)) {
    const given =
      item.advances && unit < item.advances.length
        ? item.advances.slice(unit, unit + char.length).reduce((sum, a) => sum + a, 0)
        : undefined;
    unit += char.length;
    for (const span of await fonts.spans(char, request)) {
      const natural = span.font.widthOfTextAtSize(span.text, 1);
      glyphs.push({
        text: span.text,
        font: span.font,
        natural,
        advance: given !== undefined ? given / (em * item.stretch) : natural,
      });
    }
  }
  const total = glyphs.reduce((sum, g) => sum + g.advance, 0);
  const angle = (item.angle * Math.PI) / 180;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  // Text space → device (y down): the advance along the turned baseline, glyphs upright.
  const m = [em * item.stretch * cos, -em * item.stretch * sin, em * sin, -em * cos];
  const shiftX = item.align.horizontal === 'center' ? -total / 2 : item.align.horizontal === 'right' ? -total : 0;
  const shiftY = item.align.vertical === 'top' ? -ascent : item.align.vertical === 'bottom' ? descent : 0;
  const x = item.x + m[0] * shiftX + m[2] * shiftY;
  const y = item.y + m[1] * shiftX + m[3] * shiftY;
  const ops = [pushGraphicsState(), ...clipOps(item.clip), setFillingRgbColor(...color(item.color)), beginText()];
  ops.push(setTextMatrix(m[0], m[1], m[2], m[3], x, y));
  // Runs of one font, each glyph followed by the gap between its own width and its given advance.
  let pen = 0;
  for (let i = 0; i < glyphs.length;) {
    const runFont = glyphs[i].font;
    let name = resources.fonts.get(runFont);
    if (!name) resources.fonts.set(runFont, (name = `F${resources.fonts.size}`));
    ops.push(setFontAndSize(name, 1), setTextMatrix(m[0], m[1], m[2], m[3], x + m[0] * pen, y + m[1] * pen));
    const parts: Array<ReturnType<PDFFont['encodeText']> | PDFNumber> = [];
    for (; i < glyphs.length && glyphs[i].font === runFont; i++) {
      const g = glyphs[i];
      parts.push(runFont.encodeText(g.text));
      const gap = g.natural - g.advance;
      if (Math.abs(gap) > 1e-4) parts.push(PDFNumber.of(Math.round(gap * 1000 * 100) / 100));
      pen += g.advance;
    }
    const array = PDFArray.withContext(runFont.doc.context);
    for (const part of parts) array.push(part);
    ops.push(PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [array]));
  }
  ops.push(endText(), popGraphicsState());
  return ops;
}

async function bitmapItem(
  item: Extract<Item, { kind: 'bitmap' }>,
  doc: PDFDocument,
  resources: Resources,
): Promise<PDFOperator[]> {
  let embedded;
  try {
    const e = await embeddable(item.bmp, item.transparent);
    embedded = e.format === 'png' ? await doc.embedPng(e.bytes) : await doc.embedJpg(e.bytes);
  } catch {
    // Too large for this device's memory, or a DIB images.ts cannot decode: said in the note.
    resources.undecoded = true;
    return [];
  }
  const name = `I${resources.images.size}`;
  resources.images.set(embedded.ref, name);
  const [a, b, c, d, e, f] = item.matrix;
  return [
    pushGraphicsState(),
    ...clipOps(item.clip),
    concatTransformationMatrix(a, b, c, d, e, f),
    drawObject(name),
    popGraphicsState(),
  ];
}

/** Plays an EMF or WMF (sniffed from its first bytes). */
export function playMetafile(bytes: Uint8Array): Played {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 44 && view.getUint32(0, true) === 1 && view.getUint32(40, true) === 0x464d4520)
    return playEmf(bytes);
  return playWmf(bytes);
}

export interface DrawnMetafile {
  image: PDFImage;
  /** What was outside the subset and left out of the picture (for the result's notes). */
  leftOut: string[];
}

/**
 * The metafile as a form XObject behind a PDFImage (see the module comment). Throws MetafileError when
 * the file cannot be read, draws nothing, or is EMF+ only.
 */
export async function drawMetafile(doc: PDFDocument, bytes: Uint8Array, fonts: FontBook): Promise<DrawnMetafile> {
  const played = playMetafile(bytes);
  const { dc, box } = played;
  if (!dc.items.length)
    throw new MetafileError(played.emfPlus ? 'an EMF+ picture without EMF records' : 'a picture that draws nothing');
  const resources: Resources = { fonts: new Map(), images: new Map() };
  const ops: PDFOperator[] = [];
  for (const item of dc.items) {
    if (item.kind === 'path') ops.push(...pathItem(item));
    else if (item.kind === 'text') ops.push(...(await textItem(item, fonts, resources)));
    else ops.push(...(await bitmapItem(item, doc, resources)));
  }
  const [left, top, right, bottom] = box;
  const [width, height] = [right - left, bottom - top];
  const context = doc.context;
  const fontDict = Object.fromEntries([...resources.fonts].map(([font, name]) => [name, font.ref]));
  const imageDict = Object.fromEntries([...resources.images].map(([ref, name]) => [name, ref]));
  const form = context.formXObject(ops, {
    BBox: [left, top, right, bottom],
    // Device (y down) → the unit square (y up), as an image XObject is drawn.
    Matrix: [1 / width, 0, 0, -1 / height, -left / width, bottom / height],
    Resources: { Font: fontDict, XObject: imageDict },
  });
  const ref = context.register(form);
  // pdf-lib's drawImage only checks that the image is a PDFImage; its own embed() is never called
  // for this one (it is not in the document's list of images to embed: the form is registered above).
  const image = Object.assign(Object.create(PDFImage.prototype) as PDFImage, {
    ref,
    doc,
    width: Math.round((played.sizeMm[0] / 25.4) * 96),
    height: Math.round((played.sizeMm[1] / 25.4) * 96),
  });
  if (resources.undecoded) dc.leftOut.add('bitmaps that could not be decoded');
  return { image, leftOut: [...dc.leftOut] };
}
