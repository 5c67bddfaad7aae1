/**
 * True redaction: the text and images under an area are removed from the page's content, not only
 * covered. The page's content stream is parsed (content-stream.ts) with the graphics and text state
 * tracked (CTM, text matrix, font, size, spacing, scaling, rise); every glyph whose box touches an
 * area is dropped from its Tj/TJ/'/" operator (replaced by a positioning gap so the glyphs around
 * it stay where they were), images drawn over an area are blanked under it (or dropped), inline
 * images and form XObjects are handled the same way (forms are copied, then redacted), annotations
 * over an area are removed, and objects nothing refers to any more — the old content streams, the
 * original images — are deleted from the file so the removed bytes are not saved.
 */
import {
  PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFObject, PDFPage, PDFRawStream, PDFRef, PDFStream, decodePDFRawStream,
} from 'pdf-lib';
import { Encodings, Font, type IFontNames } from '@pdf-lib/standard-fonts';
import { parseContentStream, rewriteContentStream, serializeOperand, type Operand, type Operation } from './content-stream.ts';

/** An axis-aligned area in the page's default user space (PDF points, y up). */
export interface Area {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface RedactionStats {
  glyphsRemoved: number;
  imagesBlanked: number;
  imagesRemoved: number;
  annotationsRemoved: number;
}

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m1 then m2 (PDF row-vector convention: p' = p × m1 × m2). */
export function multiply(m1: Matrix, m2: Matrix): Matrix {
  const [a, b, c, d, e, f] = m1;
  const [A, B, C, D, E, F] = m2;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

export function apply(m: Matrix, x: number, y: number): [number, number] {
  return [x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]];
}

export function invert(m: Matrix): Matrix | undefined {
  const [a, b, c, d, e, f] = m;
  const det = a * d - b * c;
  if (Math.abs(det) < 1e-12) return undefined;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

/** The bounding box of a rectangle (in some space) mapped through m. */
function boxThrough(m: Matrix, x0: number, y0: number, x1: number, y1: number): Area {
  const pts = [apply(m, x0, y0), apply(m, x1, y0), apply(m, x0, y1), apply(m, x1, y1)];
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

function overlaps(a: Area, b: Area): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

const hitsAny = (box: Area, areas: Area[]) => areas.some((area) => overlaps(box, area));

// ---------------------------------------------------------------------------------------------
// Fonts: enough metrics to know where each glyph is.

interface FontMetrics {
  codeLength: 1 | 2;
  /** Advance of a code in text space units (glyph width / 1000 for most fonts). */
  width(code: number): number;
  ascent: number;
  descent: number;
}

const STANDARD_FAMILIES: Array<[RegExp, IFontNames]> = [
  [/courier.*bold.*(oblique|italic)/i, 'Courier-BoldOblique'], [/courier.*bold/i, 'Courier-Bold'], [/courier.*(oblique|italic)/i, 'Courier-Oblique'], [/courier/i, 'Courier'],
  [/times.*bold.*italic/i, 'Times-BoldItalic'], [/times.*bold/i, 'Times-Bold'], [/times.*italic/i, 'Times-Italic'], [/times/i, 'Times-Roman'],
  [/(helvetica|arial).*bold.*(oblique|italic)/i, 'Helvetica-BoldOblique'], [/(helvetica|arial).*bold/i, 'Helvetica-Bold'], [/(helvetica|arial).*(oblique|italic)/i, 'Helvetica-Oblique'], [/helvetica|arial/i, 'Helvetica'],
  [/symbol/i, 'Symbol'], [/dingbats/i, 'ZapfDingbats'],
];

let winAnsiNames: Map<number, string> | undefined;
function winAnsiGlyphName(code: number): string | undefined {
  if (!winAnsiNames) {
    winAnsiNames = new Map();
    for (const cp of Encodings.WinAnsi.supportedCodePoints) {
      const { code: c, name } = Encodings.WinAnsi.encodeUnicodeCodePoint(cp);
      winAnsiNames.set(c, name);
    }
  }
  return winAnsiNames.get(code);
}

const num = (o: PDFObject | undefined, fallback: number) => (o instanceof PDFNumber ? o.asNumber() : fallback);

function fontMetrics(doc: PDFDocument, fontDict: PDFDict | undefined): FontMetrics {
  const fallback: FontMetrics = { codeLength: 1, width: () => 0.6, ascent: 0.85, descent: -0.25 };
  if (!fontDict) return fallback;
  const lookup = (dict: PDFDict, key: string) => doc.context.lookup(dict.get(PDFName.of(key)));
  const subtype = lookup(fontDict, 'Subtype');
  const subtypeName = subtype instanceof PDFName ? subtype.decodeText() : '';

  let descriptor: PDFDict | undefined;
  const ascentDescent = (d: PDFDict | undefined) => {
    if (!d) return { ascent: 0.85, descent: -0.25 };
    const ascent = num(lookup(d, 'Ascent'), 850) / 1000;
    const descent = num(lookup(d, 'Descent'), -250) / 1000;
    // Some files carry 0 or nonsense; keep a sane, generous box.
    return { ascent: ascent > 0.3 && ascent < 2 ? ascent : 0.85, descent: descent < 0 && descent > -1 ? descent : -0.25 };
  };

  if (subtypeName === 'Type0') {
    const descendants = lookup(fontDict, 'DescendantFonts');
    const cidFont = descendants instanceof PDFArray ? doc.context.lookup(descendants.get(0)) : undefined;
    const widths = new Map<number, number>();
    let defaultWidth = 1;
    if (cidFont instanceof PDFDict) {
      defaultWidth = num(lookup(cidFont, 'DW'), 1000) / 1000;
      const w = lookup(cidFont, 'W');
      if (w instanceof PDFArray) {
        const items = w.asArray().map((o) => doc.context.lookup(o));
        for (let i = 0; i < items.length; ) {
          const first = num(items[i], NaN);
          const next = items[i + 1];
          if (next instanceof PDFArray) {
            next.asArray().forEach((v, k) => widths.set(first + k, num(doc.context.lookup(v), 1000) / 1000));
            i += 2;
          } else {
            const last = num(next, NaN);
            const width = num(items[i + 2], 1000) / 1000;
            if (Number.isFinite(first) && Number.isFinite(last) && last - first < 70000) for (let c = first; c <= last; c++) widths.set(c, width);
            i += 3;
          }
        }
      }
      const fd = lookup(cidFont, 'FontDescriptor');
      descriptor = fd instanceof PDFDict ? fd : undefined;
    }
    return { codeLength: 2, width: (code) => widths.get(code) ?? defaultWidth, ...ascentDescent(descriptor) };
  }

  const fd = lookup(fontDict, 'FontDescriptor');
  descriptor = fd instanceof PDFDict ? fd : undefined;
  const firstChar = num(lookup(fontDict, 'FirstChar'), 0);
  const widthsArray = lookup(fontDict, 'Widths');
  let scale = 1 / 1000;
  if (subtypeName === 'Type3') {
    const fm = lookup(fontDict, 'FontMatrix');
    scale = fm instanceof PDFArray ? num(doc.context.lookup(fm.get(0)), 0.001) : 0.001;
  }
  const missingWidth = descriptor ? num(lookup(descriptor, 'MissingWidth'), NaN) : NaN;
  const widths = widthsArray instanceof PDFArray ? widthsArray.asArray().map((o) => num(doc.context.lookup(o), NaN)) : undefined;

  let standard: Font | undefined;
  const baseFont = lookup(fontDict, 'BaseFont');
  if (!widths && baseFont instanceof PDFName) {
    const name = baseFont.decodeText().replace(/^[A-Z]{6}\+/, '');
    const family = STANDARD_FAMILIES.find(([re]) => re.test(name));
    if (family) standard = Font.load(family[1]);
  }
  const { ascent, descent } = ascentDescent(descriptor);
  return {
    codeLength: 1,
    ascent,
    descent,
    width(code) {
      const w = widths?.[code - firstChar];
      if (w !== undefined && Number.isFinite(w)) return w * scale;
      if (standard) {
        const glyph = winAnsiGlyphName(code);
        const sw = glyph ? standard.getWidthOfGlyph(glyph) : undefined;
        if (typeof sw === 'number') return sw / 1000;
      }
      return Number.isFinite(missingWidth) && missingWidth > 0 ? missingWidth * scale : 0.6;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Walking a content stream.

interface GraphicsState {
  ctm: Matrix;
  charSpacing: number;
  wordSpacing: number;
  horizontalScale: number;
  leading: number;
  font: FontMetrics | undefined;
  /** The font's resource name and dictionary, reported for the glyphs an area removed. */
  fontName: string;
  fontDict: PDFDict | undefined;
  fontSize: number;
  rise: number;
}

interface WalkContext {
  doc: PDFDocument;
  areas: Area[];
  stats: RedactionStats;
  fonts: Map<PDFDict, FontMetrics>;
  notes: Set<string>;
  /** Form XObjects already copied for this page, by original ref + CTM, to keep names stable. */
  depth: number;
  /** Per area index: the font of the first glyph removed there (page content only, not forms). */
  removedFonts: Map<number, RemovedFont>;
}

export interface RemovedFont {
  /** Resource name in the page's /Font dictionary, e.g. "F1". */
  name: string;
  dict: PDFDict;
}

const numberOf = (o: Operand | undefined) => (o?.kind === 'number' ? o.value : 0);
const matrixOf = (ops: Operand[]): Matrix => [0, 1, 2, 3, 4, 5].map((i) => numberOf(ops[i])) as Matrix;

function subDict(doc: PDFDocument, resources: PDFDict | undefined, key: string): PDFDict | undefined {
  if (!resources) return undefined;
  const value = doc.context.lookup(resources.get(PDFName.of(key)));
  return value instanceof PDFDict ? value : undefined;
}

/** Splits a string operand into its character codes (1 byte, or 2 for composite fonts). */
function codesOf(bytes: Uint8Array, codeLength: 1 | 2): number[] {
  const codes: number[] = [];
  if (codeLength === 1) for (const b of bytes) codes.push(b);
  else for (let i = 0; i + 1 < bytes.length; i += 2) codes.push((bytes[i] << 8) | bytes[i + 1]);
  return codes;
}

function codeBytes(codes: number[], codeLength: 1 | 2): Uint8Array {
  const out = new Uint8Array(codes.length * codeLength);
  codes.forEach((c, i) => {
    if (codeLength === 1) out[i] = c;
    else {
      out[2 * i] = c >> 8;
      out[2 * i + 1] = c & 0xff;
    }
  });
  return out;
}

/**
 * Shows the text of one operator against the areas. Returns the TJ array to write when some
 * glyphs were removed (undefined when none were), and advances the text matrix.
 */
function showText(items: Operand[], gs: GraphicsState, text: { tm: Matrix }, ctx: WalkContext): Operand[] | undefined {
  const font = gs.font ?? fontMetrics(ctx.doc, undefined);
  const th = gs.horizontalScale;
  const out: Operand[] = [];
  let removedAny = false;
  let pendingGap = 0;
  const flushGap = () => {
    if (pendingGap !== 0) out.push({ kind: 'number', value: pendingGap });
    pendingGap = 0;
  };
  for (const item of items) {
    if (item.kind === 'number') {
      text.tm = multiply([1, 0, 0, 1, (-item.value / 1000) * gs.fontSize * th, 0], text.tm);
      pendingGap += item.value;
      continue;
    }
    if (item.kind !== 'string') continue;
    let kept: number[] = [];
    for (const code of codesOf(item.bytes, font.codeLength)) {
      const w0 = font.width(code);
      const trm = multiply([gs.fontSize * th, 0, 0, gs.fontSize, 0, gs.rise], multiply(text.tm, gs.ctm));
      const box = boxThrough(trm, 0, font.descent, Math.max(w0, 0.05), font.ascent);
      const wordSpace = font.codeLength === 1 && code === 32 ? gs.wordSpacing : 0;
      const advance = (w0 * gs.fontSize + gs.charSpacing + wordSpace) * th;
      if (hitsAny(box, ctx.areas)) {
        removedAny = true;
        ctx.stats.glyphsRemoved++;
        const areaIndex = ctx.areas.findIndex((area) => overlaps(box, area));
        if (ctx.depth === 0 && gs.fontDict && !ctx.removedFonts.has(areaIndex)) ctx.removedFonts.set(areaIndex, { name: gs.fontName, dict: gs.fontDict });
        if (kept.length) {
          flushGap();
          out.push({ kind: 'string', bytes: codeBytes(kept, font.codeLength), hex: true });
          kept = [];
        }
        // A gap the width of the removed glyph keeps everything after it in place.
        if (gs.fontSize !== 0 && th !== 0) pendingGap += (-advance / th / gs.fontSize) * 1000;
      } else {
        if (pendingGap !== 0 && kept.length) {
          out.push({ kind: 'string', bytes: codeBytes(kept, font.codeLength), hex: true });
          kept = [];
        }
        flushGap();
        kept.push(code);
      }
      text.tm = multiply([1, 0, 0, 1, advance, 0], text.tm);
    }
    if (kept.length) {
      flushGap();
      out.push({ kind: 'string', bytes: codeBytes(kept, font.codeLength), hex: true });
    }
  }
  flushGap();
  return removedAny ? out : undefined;
}

interface ImageHit {
  /** What to write instead of the Do: a new name for a blanked copy, or '' to drop the draw. */
  replacement: string;
}

/** Blanks (paints black) the pixels of an image that lie under the areas; undefined when it cannot decode it. */
function blankImagePixels(ctx: WalkContext, image: PDFRawStream, ctm: Matrix): PDFRef | undefined {
  const { doc } = ctx;
  const dict = image.dict;
  const get = (key: string) => doc.context.lookup(dict.get(PDFName.of(key)));
  const width = num(get('Width'), 0);
  const height = num(get('Height'), 0);
  const bpc = num(get('BitsPerComponent'), 8);
  const filter = get('Filter');
  const filterName = filter instanceof PDFName ? filter.decodeText() : filter instanceof PDFArray && filter.size() === 1 ? (doc.context.lookup(filter.get(0)) as PDFName).decodeText?.() : filter ? 'other' : 'none';
  const parms = get('DecodeParms');
  const colorSpace = get('ColorSpace');
  let components = 0;
  if (colorSpace instanceof PDFName) components = ({ DeviceRGB: 3, DeviceGray: 1, DeviceCMYK: 4 } as Record<string, number>)[colorSpace.decodeText()] ?? 0;
  else if (colorSpace instanceof PDFArray) {
    const family = doc.context.lookup(colorSpace.get(0));
    const iccStream = doc.context.lookup(colorSpace.get(1));
    if (family instanceof PDFName && family.decodeText() === 'ICCBased' && iccStream instanceof PDFStream) {
      components = num(doc.context.lookup(iccStream.dict.get(PDFName.of('N'))), 0);
    }
  }
  if (bpc !== 8 || components === 0 || width <= 0 || height <= 0 || parms || !(filterName === 'FlateDecode' || filterName === 'none')) return undefined;
  let pixels: Uint8Array;
  try {
    pixels = decodePDFRawStream(image).decode();
  } catch {
    return undefined;
  }
  if (pixels.length < width * height * components) return undefined;
  const inverse = invert(ctm);
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

function handleImage(ctx: WalkContext, name: string, image: PDFRawStream, ctm: Matrix, xobjects: PDFDict): ImageHit | undefined {
  const box = boxThrough(ctm, 0, 0, 1, 1);
  if (!hitsAny(box, ctx.areas)) return undefined;
  const fullyCovered = ctx.areas.some((a) => a.x0 <= box.x0 && a.y0 <= box.y0 && a.x1 >= box.x1 && a.y1 >= box.y1);
  if (!fullyCovered) {
    const blanked = blankImagePixels(ctx, image, ctm);
    if (blanked) {
      ctx.stats.imagesBlanked++;
      let newName = `${name}_R`;
      for (let i = 1; xobjects.has(PDFName.of(newName)); i++) newName = `${name}_R${i}`;
      xobjects.set(PDFName.of(newName), blanked);
      return { replacement: `/${newName} Do` };
    }
    ctx.notes.add('An image partly under a redaction area could not be blanked pixel by pixel, so it was removed from that page entirely.');
  }
  ctx.stats.imagesRemoved++;
  return { replacement: '' };
}

/**
 * Walks one content stream (a page's or a form's) and returns its redacted bytes, or undefined when
 * nothing in it touched an area.
 */
function redactStream(ctx: WalkContext, src: Uint8Array, resources: PDFDict | undefined, startCtm: Matrix): Uint8Array | undefined {
  const { doc } = ctx;
  const operations = parseContentStream(src);
  const replacements = new Map<Operation, string>();
  const fontsDict = subDict(doc, resources, 'Font');
  const xobjects = subDict(doc, resources, 'XObject');
  let gs: GraphicsState = { ctm: startCtm, charSpacing: 0, wordSpacing: 0, horizontalScale: 1, leading: 0, font: undefined, fontName: '', fontDict: undefined, fontSize: 0, rise: 0 };
  const stack: GraphicsState[] = [];
  const text = { tm: IDENTITY, tlm: IDENTITY };
  const markedContent: Array<{ op: Operation; tag: string; hasActualText: boolean }> = [];

  const nextLine = (tx: number, ty: number) => {
    text.tlm = multiply([1, 0, 0, 1, tx, ty], text.tlm);
    text.tm = text.tlm;
  };
  const show = (op: Operation, items: Operand[], prefix: string) => {
    const rewritten = showText(items, gs, text, ctx);
    if (!rewritten) return;
    replacements.set(op, `${prefix}${serializeOperand({ kind: 'array', items: rewritten })} TJ`);
    for (const mc of markedContent) {
      // /ActualText would still carry the removed words: keep the tag, drop its properties.
      if (mc.hasActualText) replacements.set(mc.op, `/${mc.tag} BMC`);
    }
  };

  for (const op of operations) {
    const o = op.operands;
    switch (op.operator) {
      case 'q':
        stack.push({ ...gs });
        break;
      case 'Q':
        if (stack.length) gs = stack.pop()!;
        break;
      case 'cm':
        gs.ctm = multiply(matrixOf(o), gs.ctm);
        break;
      case 'BT':
        text.tm = text.tlm = IDENTITY;
        break;
      case 'Tm':
        text.tm = text.tlm = matrixOf(o);
        break;
      case 'Td':
        nextLine(numberOf(o[0]), numberOf(o[1]));
        break;
      case 'TD':
        gs.leading = -numberOf(o[1]);
        nextLine(numberOf(o[0]), numberOf(o[1]));
        break;
      case 'T*':
        nextLine(0, -gs.leading);
        break;
      case 'Tc':
        gs.charSpacing = numberOf(o[0]);
        break;
      case 'Tw':
        gs.wordSpacing = numberOf(o[0]);
        break;
      case 'Tz':
        gs.horizontalScale = numberOf(o[0]) / 100;
        break;
      case 'TL':
        gs.leading = numberOf(o[0]);
        break;
      case 'Ts':
        gs.rise = numberOf(o[0]);
        break;
      case 'Tf': {
        const fontName = o[0]?.kind === 'name' ? o[0].value : '';
        const fontDict = fontsDict ? doc.context.lookup(fontsDict.get(PDFName.of(fontName))) : undefined;
        const dict = fontDict instanceof PDFDict ? fontDict : undefined;
        let metrics = dict ? ctx.fonts.get(dict) : undefined;
        if (!metrics) {
          metrics = fontMetrics(doc, dict);
          if (dict) ctx.fonts.set(dict, metrics);
        }
        gs.font = metrics;
        gs.fontName = fontName;
        gs.fontDict = dict;
        gs.fontSize = numberOf(o[1]);
        break;
      }
      case 'Tj':
        if (o[0]) show(op, [o[0]], '');
        break;
      case 'TJ':
        if (o[0]?.kind === 'array') show(op, o[0].items, '');
        break;
      case "'":
        nextLine(0, -gs.leading);
        if (o[0]) show(op, [o[0]], 'T* ');
        break;
      case '"':
        gs.wordSpacing = numberOf(o[0]);
        gs.charSpacing = numberOf(o[1]);
        nextLine(0, -gs.leading);
        if (o[2]) show(op, [o[2]], `${serializeOperand(o[0])} Tw ${serializeOperand(o[1])} Tc T* `);
        break;
      case 'BDC': {
        const props = o[1];
        const hasActualText = props?.kind === 'dict' && (props.entries.has('ActualText') || props.entries.has('Alt') || props.entries.has('E'));
        markedContent.push({ op, tag: o[0]?.kind === 'name' ? o[0].value : 'Span', hasActualText });
        break;
      }
      case 'BMC':
        markedContent.push({ op, tag: '', hasActualText: false });
        break;
      case 'EMC':
        markedContent.pop();
        break;
      case 'BI':
        if (hitsAny(boxThrough(gs.ctm, 0, 0, 1, 1), ctx.areas)) {
          replacements.set(op, '');
          ctx.stats.imagesRemoved++;
        }
        break;
      case 'Do': {
        const name = o[0]?.kind === 'name' ? o[0].value : '';
        if (!xobjects) break;
        const ref = xobjects.get(PDFName.of(name));
        const xobject = doc.context.lookup(ref);
        if (!(xobject instanceof PDFRawStream)) break;
        const subtype = xobject.dict.get(PDFName.of('Subtype'));
        if (subtype === PDFName.of('Image')) {
          const hit = handleImage(ctx, name, xobject, gs.ctm, xobjects);
          if (hit) replacements.set(op, hit.replacement);
        } else if (subtype === PDFName.of('Form') && ctx.depth < 12) {
          const replacement = redactForm(ctx, name, xobject, gs.ctm, xobjects);
          if (replacement) replacements.set(op, replacement);
        }
        break;
      }
      default:
        break;
    }
  }
  return replacements.size ? rewriteContentStream(src, operations, replacements) : undefined;
}

function redactForm(ctx: WalkContext, name: string, form: PDFRawStream, ctm: Matrix, xobjects: PDFDict): string | undefined {
  const { doc } = ctx;
  const matrixObj = doc.context.lookup(form.dict.get(PDFName.of('Matrix')));
  const formMatrix: Matrix = matrixObj instanceof PDFArray && matrixObj.size() === 6
    ? (matrixObj.asArray().map((v) => num(doc.context.lookup(v), 0)) as Matrix)
    : IDENTITY;
  const full = multiply(formMatrix, ctm);
  const bboxObj = doc.context.lookup(form.dict.get(PDFName.of('BBox')));
  if (bboxObj instanceof PDFArray && bboxObj.size() === 4) {
    const [x0, y0, x1, y1] = bboxObj.asArray().map((v) => num(doc.context.lookup(v), 0));
    if (!hitsAny(boxThrough(full, Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)), ctx.areas)) return undefined;
  }
  let src: Uint8Array;
  try {
    src = decodePDFRawStream(form).decode();
  } catch {
    return undefined;
  }
  const resourcesObj = doc.context.lookup(form.dict.get(PDFName.of('Resources')));
  const formResources = privateResources(doc, resourcesObj instanceof PDFDict ? resourcesObj : undefined);
  const redacted = redactStream({ ...ctx, depth: ctx.depth + 1 }, src, formResources, full);
  if (!redacted) return undefined;
  pruneUnusedXObjects(doc, formResources, redacted);
  const copy = doc.context.flateStream(redacted, {});
  for (const [key, value] of form.dict.entries()) {
    const k = key.decodeText();
    if (k !== 'Filter' && k !== 'DecodeParms' && k !== 'Length') copy.dict.set(key, value);
  }
  copy.dict.set(PDFName.of('Resources'), formResources);
  let newName = `${name}_R`;
  for (let i = 1; xobjects.has(PDFName.of(newName)); i++) newName = `${name}_R${i}`;
  xobjects.set(PDFName.of(newName), doc.context.register(copy));
  return `/${newName} Do`;
}

/**
 * A shallow copy of a resources dictionary with its own /XObject dictionary, so names can be added
 * and removed for one page or form without touching others that share the original.
 */
function privateResources(doc: PDFDocument, resources: PDFDict | undefined): PDFDict {
  const copy = resources ? resources.clone(doc.context) : doc.context.obj({});
  const xobjects = subDict(doc, copy, 'XObject');
  if (xobjects) copy.set(PDFName.of('XObject'), xobjects.clone(doc.context));
  return copy;
}

/** Drops /XObject names the (rewritten) content no longer draws, so what they held can leave the file. */
function pruneUnusedXObjects(doc: PDFDocument, resources: PDFDict, content: Uint8Array): void {
  const xobjects = subDict(doc, resources, 'XObject');
  if (!xobjects) return;
  const used = new Set<string>();
  for (const op of parseContentStream(content)) {
    if (op.operator === 'Do' && op.operands[0]?.kind === 'name') used.add(op.operands[0].value);
  }
  for (const key of xobjects.keys()) if (!used.has(key.decodeText())) xobjects.delete(key);
}

/** The decoded bytes of a page's content, all its streams joined. */
export function pageContentBytes(doc: PDFDocument, page: PDFPage): Uint8Array {
  const contents = doc.context.lookup(page.node.get(PDFName.of('Contents')));
  const streams: Array<PDFObject | undefined> = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : contents ? [contents] : [];
  const parts: Uint8Array[] = [];
  for (const stream of streams) {
    if (stream instanceof PDFRawStream) parts.push(decodePDFRawStream(stream).decode());
    else if (stream instanceof PDFStream) {
      const unencoded = (stream as unknown as { getUnencodedContents?: () => Uint8Array }).getUnencodedContents?.();
      parts.push(unencoded ?? stream.getContents());
    }
    parts.push(Uint8Array.of(0x0a));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * Removes the content under `areas` (page default user space) from one page. Call
 * `dropUnreachableObjects` once after all pages so the removed bytes are not saved.
 */
export function redactPage(
  doc: PDFDocument, page: PDFPage, areas: Area[], notes: Set<string> = new Set(), removedFonts: Map<number, RemovedFont> = new Map(),
): RedactionStats {
  const stats: RedactionStats = { glyphsRemoved: 0, imagesBlanked: 0, imagesRemoved: 0, annotationsRemoved: 0 };
  if (areas.length === 0) return stats;
  const ctx: WalkContext = { doc, areas, stats, fonts: new Map(), notes, depth: 0, removedFonts };
  const src = pageContentBytes(doc, page);
  const resources = privateResources(doc, page.node.Resources());
  const redacted = redactStream(ctx, src, resources, IDENTITY);
  if (redacted) {
    pruneUnusedXObjects(doc, resources, redacted);
    page.node.set(PDFName.of('Resources'), resources);
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(redacted)));
  }

  const annots = doc.context.lookup(page.node.get(PDFName.of('Annots')));
  if (annots instanceof PDFArray) {
    const kept = annots.asArray().filter((ref) => {
      const annot = doc.context.lookup(ref);
      if (!(annot instanceof PDFDict)) return true;
      if (annot.get(PDFName.of('Subtype')) === PDFName.of('Widget')) return true; // form fields stay (AcroForm refers to them)
      const rect = doc.context.lookup(annot.get(PDFName.of('Rect')));
      if (!(rect instanceof PDFArray) || rect.size() !== 4) return true;
      const [x0, y0, x1, y1] = rect.asArray().map((v) => num(doc.context.lookup(v), 0));
      const hit = hitsAny({ x0: Math.min(x0, x1), y0: Math.min(y0, y1), x1: Math.max(x0, x1), y1: Math.max(y0, y1) }, areas);
      if (hit) stats.annotationsRemoved++;
      return !hit;
    });
    page.node.set(PDFName.of('Annots'), doc.context.obj(kept));
  }
  // A stored thumbnail would still show what was removed.
  page.node.delete(PDFName.of('Thumb'));
  return stats;
}

/** Deletes every indirect object the document no longer reaches from its trailer. */
export function dropUnreachableObjects(doc: PDFDocument): number {
  const { context } = doc;
  const seen = new Set<PDFRef>();
  const queue: PDFObject[] = [];
  const trailer = context.trailerInfo;
  for (const root of [trailer.Root, trailer.Info, trailer.ID, trailer.Encrypt]) if (root) queue.push(root);
  while (queue.length) {
    const obj = queue.pop()!;
    if (obj instanceof PDFRef) {
      if (seen.has(obj)) continue;
      seen.add(obj);
      const target = context.lookup(obj);
      if (target) queue.push(target);
    } else if (obj instanceof PDFDict) {
      for (const [, value] of obj.entries()) queue.push(value);
    } else if (obj instanceof PDFArray) {
      queue.push(...obj.asArray());
    } else if (obj instanceof PDFStream) {
      queue.push(obj.dict);
    }
  }
  let dropped = 0;
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!seen.has(ref)) {
      context.delete(ref);
      dropped++;
    }
  }
  return dropped;
}

