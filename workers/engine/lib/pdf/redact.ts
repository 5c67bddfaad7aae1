/**
 * True redaction: the text and images under an area are removed from the page's content, not only
 * covered. The page's content stream is parsed (content-stream.ts) with the graphics and text state
 * tracked (CTM, text matrix, font, size, spacing, scaling, rise); every glyph whose box touches an
 * area is dropped from its Tj/TJ/'/" operator (replaced by a positioning gap so the glyphs around
 * it stay where they were), images drawn over an area are blanked under it (or dropped), inline
 * images and form XObjects are handled the same way (forms are copied, then redacted), annotations
 * over an area are removed, and objects nothing refers to any more — the old content streams, the
 * original images — are deleted from the file (object-graph.ts) so the removed bytes are not saved.
 * This module walks the content; redact-text.ts removes glyphs, redact-image.ts blanks images.
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFObject,
  PDFPage,
  PDFRawStream,
  PDFStream,
  decodePDFRawStream,
} from 'pdf-lib';
import {
  numberOperand,
  operandMatrix,
  parseContentStream,
  rewriteContentStream,
  serializeOperand,
} from './content-stream.ts';
import type { Operand, Operation } from './content-stream.ts';
import { fontMetrics } from './font-metrics.ts';
import { IDENTITY, boxThrough, transform, type Matrix } from './matrix.ts';
import { numberOr } from './object-graph.ts';
import { hitsAny, type Area, type RedactionStats, type RemovedFont, type WalkContext } from './redact-context.ts';
import { addUnderNewName, redactImageDraw } from './redact-image.ts';
import {
  applyTextOperator,
  initialGraphicsState,
  nextLine,
  showText,
  type GraphicsState,
  type TextState,
} from './redact-text.ts';

export type { Area, RedactionStats, RemovedFont } from './redact-context.ts';

function subDict(doc: PDFDocument, resources: PDFDict | undefined, key: string): PDFDict | undefined {
  if (!resources) return undefined;
  const value = doc.context.lookup(resources.get(PDFName.of(key)));
  return value instanceof PDFDict ? value : undefined;
}

/**
 * Walks one content stream (a page's or a form's) and returns its redacted bytes, or undefined when
 * nothing in it touched an area.
 */
function redactStream(
  ctx: WalkContext,
  src: Uint8Array,
  resources: PDFDict | undefined,
  startCtm: Matrix,
): Uint8Array | undefined {
  const { doc } = ctx;
  const operations = parseContentStream(src);
  const replacements = new Map<Operation, string>();
  const fontsDict = subDict(doc, resources, 'Font');
  const xobjects = subDict(doc, resources, 'XObject');
  let gs = initialGraphicsState(startCtm);
  const stack: GraphicsState[] = [];
  const text: TextState = { tm: IDENTITY, tlm: IDENTITY };
  const markedContent: Array<{ op: Operation; tag: string; hasActualText: boolean }> = [];

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
    if (applyTextOperator(op.operator, o, gs, text)) continue;
    switch (op.operator) {
      case 'q':
        stack.push({ ...gs });
        break;
      case 'Q':
        if (stack.length) gs = stack.pop()!;
        break;
      case 'cm': {
        const m = operandMatrix(o);
        if (m) gs.ctm = transform(gs.ctm, m);
        break;
      }
      case 'Tf':
        setFont(ctx, gs, fontsDict, o);
        break;
      case 'Tj':
        if (o[0]) show(op, [o[0]], '');
        break;
      case 'TJ':
        if (o[0]?.kind === 'array') show(op, o[0].items, '');
        break;
      case "'":
        nextLine(text, 0, -gs.leading);
        if (o[0]) show(op, [o[0]], 'T* ');
        break;
      case '"':
        gs.wordSpacing = numberOperand(o[0]);
        gs.charSpacing = numberOperand(o[1]);
        nextLine(text, 0, -gs.leading);
        if (o[2]) show(op, [o[2]], `${serializeOperand(o[0])} Tw ${serializeOperand(o[1])} Tc T* `);
        break;
      case 'BDC': {
        const props = o[1];
        const hasActualText =
          props?.kind === 'dict' &&
          (props.entries.has('ActualText') || props.entries.has('Alt') || props.entries.has('E'));
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
        const replacement = xobjects ? redactXObjectDraw(ctx, o, gs.ctm, xobjects) : undefined;
        if (replacement !== undefined) replacements.set(op, replacement);
        break;
      }
      default:
        break;
    }
  }
  return replacements.size ? rewriteContentStream(src, operations, replacements) : undefined;
}

/** `Tf`: the font's metrics (read once per font dictionary), name and size into the graphics state. */
function setFont(ctx: WalkContext, gs: GraphicsState, fontsDict: PDFDict | undefined, o: Operand[]): void {
  const fontName = o[0]?.kind === 'name' ? o[0].value : '';
  const fontDict = fontsDict ? ctx.doc.context.lookup(fontsDict.get(PDFName.of(fontName))) : undefined;
  const dict = fontDict instanceof PDFDict ? fontDict : undefined;
  let metrics = dict ? ctx.fonts.get(dict) : undefined;
  if (!metrics) {
    metrics = fontMetrics(ctx.doc, dict);
    if (dict) ctx.fonts.set(dict, metrics);
  }
  gs.font = metrics;
  gs.fontName = fontName;
  gs.fontDict = dict;
  gs.fontSize = numberOperand(o[1]);
}

/** `Do`: what to write instead of drawing an image or a form over an area; undefined to keep it. */
function redactXObjectDraw(ctx: WalkContext, o: Operand[], ctm: Matrix, xobjects: PDFDict): string | undefined {
  const name = o[0]?.kind === 'name' ? o[0].value : '';
  const xobject = ctx.doc.context.lookup(xobjects.get(PDFName.of(name)));
  if (!(xobject instanceof PDFRawStream)) return undefined;
  const subtype = xobject.dict.get(PDFName.of('Subtype'));
  if (subtype === PDFName.of('Image')) return redactImageDraw(ctx, name, xobject, ctm, xobjects);
  if (subtype === PDFName.of('Form') && ctx.depth < 12) return redactForm(ctx, name, xobject, ctm, xobjects);
  return undefined;
}

function redactForm(
  ctx: WalkContext,
  name: string,
  form: PDFRawStream,
  ctm: Matrix,
  xobjects: PDFDict,
): string | undefined {
  const { doc } = ctx;
  const matrixObj = doc.context.lookup(form.dict.get(PDFName.of('Matrix')));
  const formMatrix =
    matrixObj instanceof PDFArray && matrixObj.size() === 6
      ? (matrixObj.asArray().map((v) => numberOr(doc.context.lookup(v), 0)) as Matrix)
      : IDENTITY;
  const full = transform(ctm, formMatrix);
  const bboxObj = doc.context.lookup(form.dict.get(PDFName.of('BBox')));
  if (bboxObj instanceof PDFArray && bboxObj.size() === 4) {
    const [x0, y0, x1, y1] = bboxObj.asArray().map((v) => numberOr(doc.context.lookup(v), 0));
    if (!hitsAny(boxThrough(full, Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)), ctx.areas))
      return undefined;
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
  return `/${addUnderNewName(xobjects, name, doc.context.register(copy))} Do`;
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
  const streams: Array<PDFObject | undefined> =
    contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : contents ? [contents] : [];
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
  doc: PDFDocument,
  page: PDFPage,
  areas: Area[],
  notes: Set<string> = new Set(),
  removedFonts: Map<number, RemovedFont> = new Map(),
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
      // form fields stay (AcroForm refers to them)
      if (annot.get(PDFName.of('Subtype')) === PDFName.of('Widget')) return true;
      const rect = doc.context.lookup(annot.get(PDFName.of('Rect')));
      if (!(rect instanceof PDFArray) || rect.size() !== 4) return true;
      const [x0, y0, x1, y1] = rect.asArray().map((v) => numberOr(doc.context.lookup(v), 0));
      const hit = hitsAny(
        { x0: Math.min(x0, x1), y0: Math.min(y0, y1), x1: Math.max(x0, x1), y1: Math.max(y0, y1) },
        areas,
      );
      if (hit) stats.annotationsRemoved++;
      return !hit;
    });
    page.node.set(PDFName.of('Annots'), doc.context.obj(kept));
  }
  // A stored thumbnail would still show what was removed.
  page.node.delete(PDFName.of('Thumb'));
  return stats;
}
