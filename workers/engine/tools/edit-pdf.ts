/**
 * Edit PDF. Two ways in:
 * - the contract's simple form (/api/pdf/edit: `text` + `position` center|top|bottom, plus optional
 *   `pages`, `fontSize`, `color`): that text is written on every chosen page;
 * - `operations`: JSON from the page editor (lib/pdf/edit-operations.ts) — text, images, pen strokes,
 *   shapes, highlights, whiteout, true redaction and replacement of existing text.
 * Everything is written as real PDF content with pdf-lib (text stays selectable and searchable),
 * or, with `annotations` on, as annotations with appearance streams that other editors can still
 * move and change (whiteout, redaction and replaced text are always part of the page).
 */
import {
  BlendMode,
  LineCapStyle,
  PDFArray,
  PDFContentStream,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFPage,
  PDFRef,
  PDFString,
  beginText,
  concatTransformationMatrix,
  endText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingColor,
  setFontAndSize,
  setLineJoin,
  setTextMatrix,
  showText,
  LineJoinStyle,
  type RGB,
} from 'pdf-lib';
import type { Engine, EngineOptions } from '../lib/types.ts';
import { FolioError, throwIfAborted } from '../lib/errors.ts';
import { openPdf } from '../lib/pdf/pdf-open.ts';
import { handleActiveContent } from '../lib/pdf/active-content.ts';
import { parsePageRanges } from '../../../shared/page-range.ts';
import { baseName } from '../../../shared/format.ts';
import { normalizeRotation, savePdf } from '../lib/pdf/pdf-util.ts';
import {
  BASELINE_EM,
  LINE_HEIGHT_EM,
  parseOperations,
  uprightToUser,
  viewRectToUser,
  viewSize,
  viewToUser,
  type EditOperation,
  type PageGeometry,
} from '../lib/pdf/edit-operations.ts';
import { FontCache } from '../lib/pdf/edit-fonts.ts';
import { redactPage, type Area, type RedactionStats, type RemovedFont } from '../lib/pdf/redact.ts';
import { dropUnreachableObjects } from '../lib/pdf/object-graph.ts';
import { Encodings } from '@pdf-lib/standard-fonts';

export const SIMPLE_MARGIN = 36;

function colour(hex: string | null | undefined, fallback?: RGB): RGB | undefined {
  if (!hex || !/^#[0-9a-f]{6}$/i.test(hex)) return fallback;
  const n = parseInt(hex.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

function geometryOf(page: PDFPage): PageGeometry {
  const box = page.getCropBox();
  return { box, rotation: normalizeRotation(page.getRotation().angle) };
}

function decodeBase64(data: string): Uint8Array {
  const clean = data.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
  try {
    const binary = atob(clean);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    throw new FolioError('InvalidImage', 'An image in the edits is not valid base64 data.');
  }
}

/** Wraps the page's existing content in q … Q so that a CTM it leaves behind cannot shift our drawing. */
function isolateExistingContent(doc: PDFDocument, page: PDFPage): void {
  page.node.normalize();
  const start = doc.context.register(doc.context.stream('q\n'));
  const end = doc.context.register(doc.context.stream('\nQ\n'));
  page.node.wrapContentStreams(start, end);
}

type PageWithStream = { contentStream?: PDFContentStream; contentStreamRef?: PDFRef };

interface PageJob {
  doc: PDFDocument;
  page: PDFPage;
  geometry: PageGeometry;
  height: number;
  fonts: FontCache;
  images: Map<string, Promise<import('pdf-lib').PDFImage>>;
}

/**
 * The character codes of `text` in the page font that held the replaced text, when that font can
 * write it: a simple font (Type1/TrueType) that is not embedded (the viewer supplies every glyph)
 * or embedded whole (not a subset, whose missing glyphs would print as nothing), with WinAnsi
 * encoding — or, with another or no encoding, plain ASCII that all Latin encodings share.
 */
export function codesInOriginalFont(doc: PDFDocument, font: RemovedFont, text: string): Uint8Array | undefined {
  const { dict } = font;
  const lookup = (d: PDFDict, key: string) => doc.context.lookup(d.get(PDFName.of(key)));
  const subtype = lookup(dict, 'Subtype');
  if (subtype !== PDFName.of('Type1') && subtype !== PDFName.of('TrueType')) return undefined;
  const baseFont = lookup(dict, 'BaseFont');
  if (!(baseFont instanceof PDFName) || /^[A-Z]{6}\+/.test(baseFont.decodeText())) return undefined;
  if (/symbol|dingbats/i.test(baseFont.decodeText())) return undefined;
  const encoding = lookup(dict, 'Encoding');
  if (encoding instanceof PDFDict) return undefined; // /Differences: codes mean something else
  const winAnsi = encoding === PDFName.of('WinAnsiEncoding');
  const codes: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (winAnsi && Encodings.WinAnsi.canEncodeUnicodeCodePoint(cp))
      codes.push(Encodings.WinAnsi.encodeUnicodeCodePoint(cp).code);
    else if (cp >= 0x20 && cp < 0x7f && cp !== 0x27 && cp !== 0x60) codes.push(cp);
    else return undefined;
  }
  return Uint8Array.from(codes);
}

/** Writes replacement text with the page's own font resource, in upright view space. */
function drawInOriginalFont(
  job: PageJob,
  op: EditOperation & { type: 'edit-text' },
  font: RemovedFont,
  codes: Uint8Array,
): void {
  const baseline = typeof op.baseline === 'number' ? op.baseline : op.y + op.size * BASELINE_EM[op.font];
  const hex = PDFHexString.of(Array.from(codes, (c) => c.toString(16).padStart(2, '0')).join(''));
  job.page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(...uprightToUser(job.geometry)),
    beginText(),
    setFontAndSize(font.name, op.size),
    setFillingColor(colour(op.color, rgb(0, 0, 0))!),
    setTextMatrix(1, 0, 0, 1, op.x, job.height - baseline),
    showText(hex),
    endText(),
    popGraphicsState(),
  );
}

/** Draws one operation with pdf-lib's page API, in upright view space (the caller set the matrix). */
async function drawOperation(job: PageJob, op: EditOperation): Promise<void> {
  const { page, height: H } = job;
  const opacity = 'opacity' in op && typeof op.opacity === 'number' ? Math.min(1, Math.max(0, op.opacity)) : undefined;
  switch (op.type) {
    case 'text':
    case 'edit-text': {
      if (op.text.trim() === '') return;
      const font = await job.fonts.get(op.text, { family: op.font, bold: op.bold, italic: op.italic });
      const lines = op.text.split(/\r\n|\r|\n/);
      const firstBaseline =
        op.type === 'edit-text' && typeof op.baseline === 'number'
          ? op.baseline
          : op.y + op.size * BASELINE_EM[op.font];
      lines.forEach((line, i) => {
        if (line === '') return;
        page.drawText(line, {
          x: op.x,
          y: H - (firstBaseline + i * op.size * LINE_HEIGHT_EM),
          size: op.size,
          font,
          color: colour(op.color, rgb(0, 0, 0)),
          opacity,
        });
      });
      return;
    }
    case 'image': {
      const bytes = decodeBase64(op.data);
      const isPng = bytes[0] === 0x89 && bytes[1] === 0x50;
      const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
      if (!isPng && !isJpeg) throw new FolioError('InvalidImage', 'Only JPEG and PNG images can be added.');
      let image = job.images.get(op.data);
      if (!image) {
        image = (isPng ? job.doc.embedPng(bytes) : job.doc.embedJpg(bytes)).catch(() => {
          throw new FolioError('InvalidImage', 'An added image could not be read (damaged JPEG or PNG).');
        });
        job.images.set(op.data, image);
      }
      page.drawImage(await image, { x: op.x, y: H - op.y - op.height, width: op.width, height: op.height, opacity });
      return;
    }
    case 'pen': {
      if (op.points.length === 0) return;
      const [first, ...rest] = op.points;
      const lines = (rest.length ? rest : [first]).map(([x, y]) => `L ${x} ${y}`);
      const path = `M ${first[0]} ${first[1]} ${lines.join(' ')}`;
      page.pushOperators(setLineJoin(LineJoinStyle.Round));
      // SVG paths are y-down from (x, y): with y = H they are in view coordinates as given.
      page.drawSvgPath(path, {
        x: 0,
        y: H,
        borderColor: colour(op.color, rgb(0, 0, 0)),
        borderWidth: op.width,
        borderLineCap: LineCapStyle.Round,
        borderOpacity: opacity,
      });
      return;
    }
    case 'rect':
    case 'ellipse': {
      const fill = colour(op.fill);
      const stroke = colour(op.stroke);
      const common = {
        ...(fill ? { color: fill, opacity } : {}),
        ...(stroke
          ? { borderColor: stroke, borderWidth: op.strokeWidth ?? 2, borderOpacity: opacity }
          : { borderWidth: 0 }),
      };
      if (!fill && !stroke) return;
      if (op.type === 'rect')
        page.drawRectangle({ x: op.x, y: H - op.y - op.height, width: op.width, height: op.height, ...common });
      else
        page.drawEllipse({
          x: op.x + op.width / 2,
          y: H - op.y - op.height / 2,
          xScale: op.width / 2,
          yScale: op.height / 2,
          ...common,
        });
      return;
    }
    case 'line':
    case 'arrow': {
      const color = colour(op.color, rgb(0, 0, 0));
      let { x2, y2 } = op;
      if (op.type === 'arrow') {
        const angle = Math.atan2(op.y2 - op.y1, op.x2 - op.x1);
        const head = Math.max(8, op.width * 4);
        const back = (a: number) => [op.x2 - head * Math.cos(angle + a), op.y2 - head * Math.sin(angle + a)];
        const [lx, ly] = back(Math.PI / 7);
        const [rx, ry] = back(-Math.PI / 7);
        page.drawSvgPath(`M ${op.x2} ${op.y2} L ${lx} ${ly} L ${rx} ${ry} Z`, { x: 0, y: H, color, opacity });
        const length = Math.hypot(op.x2 - op.x1, op.y2 - op.y1);
        const shorten = Math.min(length, head * Math.cos(Math.PI / 7) * 0.9);
        x2 = op.x2 - shorten * Math.cos(angle);
        y2 = op.y2 - shorten * Math.sin(angle);
      }
      page.drawLine({
        start: { x: op.x1, y: H - op.y1 },
        end: { x: x2, y: H - y2 },
        thickness: op.width,
        color,
        opacity,
        lineCap: LineCapStyle.Round,
      });
      return;
    }
    case 'highlight':
      page.drawRectangle({
        x: op.x,
        y: H - op.y - op.height,
        width: op.width,
        height: op.height,
        color: colour(op.color, rgb(1, 0.92, 0.23)),
        opacity: 0.4,
        blendMode: BlendMode.Multiply,
        borderWidth: 0,
      });
      return;
    case 'whiteout':
      page.drawRectangle({
        x: op.x,
        y: H - op.y - op.height,
        width: op.width,
        height: op.height,
        color: colour(op.color, rgb(1, 1, 1)),
        borderWidth: 0,
      });
      return;
    case 'redact':
      page.drawRectangle({
        x: op.x,
        y: H - op.y - op.height,
        width: op.width,
        height: op.height,
        color: rgb(0, 0, 0),
        borderWidth: 0,
      });
      return;
  }
}

/** Draws an operation straight into the page content, through the upright-view matrix. */
async function drawFlat(job: PageJob, op: EditOperation): Promise<void> {
  job.page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...uprightToUser(job.geometry)));
  await drawOperation(job, op);
  job.page.pushOperators(popGraphicsState());
}

/** The operation's extent in view space (for an annotation's /Rect), with room for strokes. */
function viewBounds(op: EditOperation, textWidth: number): { x: number; y: number; width: number; height: number } {
  switch (op.type) {
    case 'pen': {
      const xs = op.points.map((p) => p[0]);
      const ys = op.points.map((p) => p[1]);
      const pad = op.width;
      return {
        x: Math.min(...xs) - pad,
        y: Math.min(...ys) - pad,
        width: Math.max(...xs) - Math.min(...xs) + 2 * pad,
        height: Math.max(...ys) - Math.min(...ys) + 2 * pad,
      };
    }
    case 'line':
    case 'arrow': {
      const pad = Math.max(op.width, op.type === 'arrow' ? Math.max(8, op.width * 4) : 0);
      return {
        x: Math.min(op.x1, op.x2) - pad,
        y: Math.min(op.y1, op.y2) - pad,
        width: Math.abs(op.x2 - op.x1) + 2 * pad,
        height: Math.abs(op.y2 - op.y1) + 2 * pad,
      };
    }
    case 'text': {
      const lines = op.text.split(/\r\n|\r|\n/).length;
      return { x: op.x - 2, y: op.y - 2, width: textWidth + 4, height: op.size * LINE_HEIGHT_EM * lines + 4 };
    }
    default: {
      const pad = 'strokeWidth' in op && op.strokeWidth ? op.strokeWidth : 1;
      return { x: op.x - pad, y: op.y - pad, width: op.width + 2 * pad, height: op.height + 2 * pad };
    }
  }
}

const ANNOTATION_SUBTYPE: Partial<Record<EditOperation['type'], string>> = {
  text: 'FreeText',
  image: 'Stamp',
  pen: 'Ink',
  rect: 'Square',
  ellipse: 'Circle',
  line: 'Line',
  arrow: 'Line',
  highlight: 'Highlight',
};

/**
 * Draws an operation into a form XObject and attaches it to the page as an annotation whose normal
 * appearance is that form: it looks the same as the flattened version, and editors can move it.
 */
async function drawAsAnnotation(job: PageJob, op: EditOperation, index: number): Promise<void> {
  const { doc, page, geometry } = job;
  let textWidth = 0;
  if (op.type === 'text') {
    const font = await job.fonts.get(op.text, { family: op.font, bold: op.bold, italic: op.italic });
    textWidth = Math.max(...op.text.split(/\r\n|\r|\n/).map((l) => font.widthOfTextAtSize(l, op.size)));
  }
  const area = viewRectToUser(geometry, viewBounds(op, textWidth));
  const rect = [area.x0, area.y0, area.x1, area.y1];
  const form = doc.context.formXObject([], { BBox: rect, Matrix: [1, 0, 0, 1, 0, 0] });
  // pdf-lib's drawing methods write to the page's current content stream: point it at the form.
  const target = page as unknown as PageWithStream;
  const saved = { stream: target.contentStream, ref: target.contentStreamRef };
  target.contentStream = form;
  try {
    await drawFlat(job, op);
  } finally {
    target.contentStream = saved.stream;
    target.contentStreamRef = saved.ref;
  }
  const resources = page.node.Resources();
  if (resources) form.dict.set(PDFName.of('Resources'), resources);
  const formRef = doc.context.register(form);

  const subtype = ANNOTATION_SUBTYPE[op.type] ?? 'Square';
  const annot: Record<string, unknown> = {
    Type: 'Annot',
    Subtype: subtype,
    Rect: rect,
    AP: { N: formRef },
    F: 4,
    NM: PDFString.of(`folio-edit-${index}-${Date.now().toString(36)}`),
    T: PDFHexString.fromText('Folio'),
  };
  const toUser = (x: number, y: number) => viewToUser(geometry, x, y);
  const rgbArray = (hex: string | null | undefined) => {
    const c = colour(hex);
    return c ? [c.red, c.green, c.blue] : undefined;
  };
  switch (op.type) {
    case 'text':
      annot.Contents = PDFHexString.fromText(op.text);
      annot.DA = PDFString.of(`/Helv ${op.size} Tf ${(rgbArray(op.color) ?? [0, 0, 0]).join(' ')} rg`);
      annot.C = [];
      break;
    case 'pen':
      annot.InkList = [op.points.flatMap(([x, y]) => toUser(x, y))];
      annot.C = rgbArray(op.color);
      annot.BS = { W: op.width };
      break;
    case 'line':
    case 'arrow':
      annot.L = [...toUser(op.x1, op.y1), ...toUser(op.x2, op.y2)];
      annot.C = rgbArray(op.color);
      annot.BS = { W: op.width };
      if (op.type === 'arrow') annot.LE = ['None', 'OpenArrow'];
      break;
    case 'rect':
    case 'ellipse':
      annot.C = rgbArray(op.stroke) ?? [];
      if (op.fill) annot.IC = rgbArray(op.fill);
      annot.BS = { W: op.stroke ? (op.strokeWidth ?? 2) : 0 };
      break;
    case 'highlight': {
      const a = viewRectToUser(geometry, op);
      annot.QuadPoints = [a.x0, a.y1, a.x1, a.y1, a.x0, a.y0, a.x1, a.y0];
      annot.C = rgbArray(op.color ?? '#ffeb3b');
      break;
    }
    case 'image':
      annot.Name = 'Image';
      break;
    default:
      break;
  }
  const annotRef = doc.context.register(doc.context.obj(annot as Parameters<typeof doc.context.obj>[0]));
  const annots = page.node.lookup(PDFName.of('Annots'));
  if (annots instanceof PDFArray) annots.push(annotRef);
  else page.node.set(PDFName.of('Annots'), doc.context.obj([annotRef]));
}

/** The contract's simple form as editor operations: the same text on each chosen page. */
async function simpleTextOperations(
  doc: PDFDocument,
  fonts: FontCache,
  options: EngineOptions,
): Promise<EditOperation[]> {
  const text = String(options.text ?? '').replace(/\r\n?/g, '\n');
  if (text.trim() === '') return [];
  const pages = [...new Set(parsePageRanges(String(options.pages ?? ''), doc.getPageCount()))];
  const size = typeof options.fontSize === 'number' && options.fontSize > 0 ? options.fontSize : 24;
  const color = typeof options.color === 'string' && /^#[0-9a-f]{6}$/i.test(options.color) ? options.color : '#000000';
  const position = String(options.position ?? 'center');
  if (!['center', 'top', 'bottom'].includes(position)) {
    throw new FolioError('InvalidInput', `Position: "${position}" is not one of center, top, bottom.`);
  }
  const font = await fonts.get(text, { family: 'sans' });
  const lines = text.split('\n');
  const lineHeight = size * LINE_HEIGHT_EM;
  const blockHeight = lineHeight * lines.length;
  const textWidth = Math.max(...lines.map((l) => font.widthOfTextAtSize(l, size)));
  return pages.map((pageNumber) => {
    const { width, height } = viewSize(geometryOf(doc.getPage(pageNumber - 1)));
    const top =
      position === 'top'
        ? SIMPLE_MARGIN
        : position === 'bottom'
          ? height - SIMPLE_MARGIN - blockHeight
          : (height - blockHeight) / 2;
    return {
      type: 'text',
      page: pageNumber,
      x: Math.max(0, (width - textWidth) / 2),
      y: top,
      text,
      size,
      color,
      font: 'sans',
    } satisfies EditOperation;
  });
}

export const run: Engine = async (inputs, options, ctx) => {
  const input = inputs[0];
  if (!input) throw new FolioError('InvalidInput', 'Please select at least one file');
  const { doc } = await openPdf(input);
  const active = handleActiveContent(doc, options);
  const fonts = new FontCache(doc);
  const pageCount = doc.getPageCount();

  const operations: EditOperation[] = [];
  const rawOperations = typeof options.operations === 'string' ? options.operations.trim() : '';
  if (rawOperations) operations.push(...parseOperations(rawOperations, pageCount));
  operations.push(...(await simpleTextOperations(doc, fonts, options)));
  if (operations.length === 0) {
    throw new FolioError(
      'InvalidInput',
      'Nothing to change: type the text to add, or make an edit in the editor first.',
    );
  }
  const asAnnotations = options.annotations === true || options.annotations === 'true';

  const byPage = new Map<number, EditOperation[]>();
  operations.forEach((op) => byPage.set(op.page, [...(byPage.get(op.page) ?? []), op]));
  const totals: RedactionStats = { glyphsRemoved: 0, imagesBlanked: 0, imagesRemoved: 0, annotationsRemoved: 0 };
  const notes = new Set<string>();
  let done = 0;
  let redacted = false;
  let editedInOriginalFont = 0;
  let editedInStandardFont = 0;
  const images = new Map<string, Promise<import('pdf-lib').PDFImage>>();
  for (const [pageNumber, pageOps] of [...byPage].sort((a, b) => a[0] - b[0])) {
    throwIfAborted(ctx.signal);
    const page = doc.getPage(pageNumber - 1);
    const geometry = geometryOf(page);
    // Redaction and replaced text first: content under them is removed before anything is drawn.
    const areaOps = pageOps.filter((op) => op.type === 'redact' || op.type === 'edit-text');
    const areas: Area[] = areaOps.map((op) =>
      viewRectToUser(geometry, op as { x: number; y: number; width: number; height: number }),
    );
    const removedFonts = new Map<number, RemovedFont>();
    if (areas.length) {
      const stats = redactPage(doc, page, areas, notes, removedFonts);
      redacted = true;
      for (const key of Object.keys(totals) as Array<keyof RedactionStats>) totals[key] += stats[key];
    }
    isolateExistingContent(doc, page);
    const job: PageJob = { doc, page, geometry, height: viewSize(geometry).height, fonts, images };
    for (const [index, op] of pageOps.entries()) {
      if (op.type === 'edit-text' && op.text.trim() !== '' && !op.text.includes('\n')) {
        const font = removedFonts.get(areaOps.indexOf(op));
        const codes = font && codesInOriginalFont(doc, font, op.text);
        if (font && codes) {
          drawInOriginalFont(job, op, font, codes);
          editedInOriginalFont++;
          continue;
        }
        editedInStandardFont++;
      }
      const flattened = !asAnnotations || op.type === 'whiteout' || op.type === 'redact' || op.type === 'edit-text';
      if (flattened) await drawFlat(job, op);
      else await drawAsAnnotation(job, op, index);
    }
    ctx.progress?.(++done, byPage.size);
  }
  if (redacted) {
    dropUnreachableObjects(doc);
    const parts = [`${totals.glyphsRemoved} character${totals.glyphsRemoved === 1 ? '' : 's'} removed`];
    if (totals.imagesBlanked + totals.imagesRemoved)
      parts.push(
        `${totals.imagesBlanked + totals.imagesRemoved} image` +
          `${totals.imagesBlanked + totals.imagesRemoved === 1 ? '' : 's'} redacted`,
      );
    if (totals.annotationsRemoved)
      parts.push(`${totals.annotationsRemoved} annotation${totals.annotationsRemoved === 1 ? '' : 's'} removed`);
    notes.add(`Redaction: ${parts.join(', ')}.`);
  }
  if (editedInOriginalFont)
    notes.add(
      `${editedInOriginalFont} text edit${editedInOriginalFont === 1 ? '' : 's'} written in the document's own font.`,
    );
  if (editedInStandardFont)
    notes.add(
      `${editedInStandardFont} text edit${editedInStandardFont === 1 ? '' : 's'} written in a standard font ` +
        `(the original font is embedded as a subset or cannot write the new characters).`,
    );
  // Metadata can hold a preview of the old text (XMP) — keep it, but the page thumbnails went with redaction.
  if (active.note) notes.add(active.note);
  const bytes = await savePdf(doc);
  return { bytes, filename: `${baseName(input.name)}-edited.pdf`, mime: 'application/pdf', notes: [...notes] };
};
