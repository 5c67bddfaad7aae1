/**
 * Renders an OpenDocument Presentation (.odp) like pptx.ts renders a .pptx: one PDF page per
 * draw:page at the presentation's page size, with the page's background fill, the master page's
 * decorations, frames with text boxes, pictures and tables, and rectangles, ellipses, custom shapes
 * and lines with their fills and strokes. Charts and embedded objects are left out (and the user is told).
 */
import type JSZip from 'jszip';
import { PDFDocument, clip, endPath, popGraphicsState, pushGraphicsState, rectangle, rgb, type PDFPage } from 'pdf-lib';
import type { Block, Paragraph, Rgb } from './model.ts';
import { attr, findAll, kid, kids, length, type XmlElement } from './xml.ts';
import type { ImageMime } from './images.ts';
import type { TextContext } from './text.ts';
import { measureBlocks, type OutlineEntry } from './flow.ts';
import { throwIfAborted } from '../errors.ts';
import { odfColor, OdfTextReader, type OdfStyles } from './odf.ts';
import { readOdfStyles } from './odt.ts';

export interface OdpResult {
  pages: number;
  notes: string[];
  outline: OutlineEntry[];
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const SHAPES = new Set([
  'draw:rect',
  'draw:ellipse',
  'draw:circle',
  'draw:custom-shape',
  'draw:polygon',
  'draw:path',
  'draw:polyline',
  'draw:regular-polygon',
]);

function boxOf(el: XmlElement): Box | undefined {
  const width = length(attr(el, 'svg:width'));
  const height = length(attr(el, 'svg:height'));
  if (width === undefined || height === undefined) return undefined;
  return { x: length(attr(el, 'svg:x')) ?? 0, y: length(attr(el, 'svg:y')) ?? 0, width, height };
}

/** Scales the text of blocks (font sizes, paragraph spacing) by `factor`, for shrink-to-fit text boxes. */
function scaleText(blocks: Block[], factor: number): void {
  for (const block of blocks) {
    if (block.kind === 'table') {
      for (const row of block.rows) for (const cell of row.cells) scaleText(cell.blocks, factor);
      continue;
    }
    if (block.kind !== 'paragraph') continue;
    block.spaceBefore *= factor;
    block.spaceAfter *= factor;
    if (block.lineSpacing.rule !== 'auto')
      block.lineSpacing = { ...block.lineSpacing, value: block.lineSpacing.value * factor };
    if (block.marker)
      block.marker = { ...block.marker, style: { ...block.marker.style, size: block.marker.style.size * factor } };
    for (const inline of block.inlines) {
      if (inline.kind === 'image' || inline.kind === 'drawing') {
        inline.width *= factor;
        inline.height *= factor;
      } else if (inline.kind !== 'measured') inline.style = { ...inline.style, size: inline.style.size * factor };
    }
  }
}

/** Graphic properties of a shape: its draw:style-name (graphic) and presentation:style-name chains. */
function graphicChain(styles: OdfStyles, el: XmlElement): XmlElement[] {
  return [
    ...styles.chain('graphic', attr(el, 'draw:style-name')),
    ...styles.chain('presentation', attr(el, 'presentation:style-name')),
  ];
}

export interface OdpOptions {
  signal?: AbortSignal;
  progress?: (done: number, total: number) => void;
  slides?: (count: number) => number[];
  includeHidden?: boolean;
}

interface Offset {
  x: number;
  y: number;
}

/** One slide being drawn: the document's styles, the slide's page and its text reader. */
interface OdpSlide {
  zip: JSZip;
  styles: OdfStyles;
  notes: Set<string>;
  ctx: TextContext;
  page: PDFPage;
  pageWidth: number;
  pageHeight: number;
  reader: OdfTextReader;
  drawContext: { pageNumber: number; pageCount: number };
}

/** A fill of a style chain: solid colours; gradients, pictures and hatches as their plain colour. */
function fillOf(s: OdpSlide, chain: XmlElement[], properties: string): Rgb | 'none' | undefined {
  const fill = s.styles.prop(chain, properties, 'draw:fill');
  if (fill === 'none') return 'none';
  if (fill === 'solid') return odfColor(s.styles.prop(chain, properties, 'draw:fill-color')) ?? [0.447, 0.624, 0.812];
  if (fill === 'gradient' || fill === 'bitmap' || fill === 'hatch') {
    s.notes.add('gradient and picture fills were drawn as plain colours');
    return odfColor(s.styles.prop(chain, properties, 'draw:fill-color'));
  }
  return undefined;
}

/** Text of a shape or text box; the shape's style gives the text its default font, size and colour. */
function textBlocks(s: OdpSlide, container: XmlElement, chain: XmlElement[]): Promise<Block[]> {
  const baseRun = s.styles.runStyle(chain, { font: 'Liberation Sans', size: 18 });
  return new OdfTextReader({ zip: s.zip, styles: s.styles, notes: s.notes, baseRun, textWidth: s.pageWidth }).blocks(
    container,
  );
}

/** Background: the page's drawing-page style, else the master's. */
function paintBackground(s: OdpSlide, drawPage: XmlElement, master: XmlElement | undefined): void {
  let background: Rgb | undefined;
  for (const source of [drawPage, master]) {
    const chain = source ? s.styles.chain('drawing-page', attr(source, 'draw:style-name')) : undefined;
    const fill = chain ? fillOf(s, chain, 'style:drawing-page-properties') : undefined;
    if (fill && fill !== 'none') {
      background = fill;
      break;
    }
  }
  s.page.drawRectangle({
    x: 0,
    y: 0,
    width: s.pageWidth,
    height: s.pageHeight,
    color: rgb(...(background ?? [1, 1, 1])),
  });
}

/** Text in a box, inside the style's padding, shrunk to fit when the style says so, anchored as it says. */
async function drawText(
  s: OdpSlide,
  blocks: Block[],
  box: Box,
  chain: XmlElement[],
  defaultAnchor: 'top' | 'middle',
): Promise<void> {
  const { styles, ctx } = s;
  const paragraphs = blocks.filter((b): b is Paragraph => b.kind === 'paragraph');
  if (!paragraphs.some((p) => p.inlines.some((i) => i.kind !== 'text' || i.text))) {
    const tables = blocks.filter((b) => b.kind === 'table');
    if (!tables.length) return;
  }
  const p = (name: string) => styles.prop(chain, 'style:graphic-properties', name);
  const pad = (side: string, fallback: number) => length(p(`fo:padding-${side}`) ?? p('fo:padding')) ?? fallback;
  const left = pad('left', 7.1),
    right = pad('right', 7.1),
    top = pad('top', 3.6),
    bottom = pad('bottom', 3.6);
  const width = Math.max(4, box.width - left - right);
  let measured = await measureBlocks(blocks, width, ctx);
  // "Shrink on overflow": scale the text down until it fits the box, as Impress does.
  const fit = p('draw:fit-to-size');
  const available = box.height - top - bottom;
  const shrinks = fit === 'shrink-to-fit' || fit === 'true' || fit === 'all' || p('style:shrink-to-fit') === 'true';
  if (shrinks && measured.height > available && available > 0) {
    let scale = 1;
    for (let attempt = 0; attempt < 6 && measured.height > available && scale > 0.25; attempt++) {
      const factor = Math.max(0.25 / scale, Math.min(0.95, available / measured.height));
      scale *= factor;
      scaleText(blocks, factor);
      measured = await measureBlocks(blocks, width, ctx);
    }
  }
  const anchor = p('draw:textarea-vertical-align') ?? defaultAnchor;
  const free = box.height - top - bottom - measured.height;
  const y = s.pageHeight - box.y - top - (anchor === 'middle' ? free / 2 : anchor === 'bottom' ? free : 0);
  measured.draw(s.page, box.x + left, y, s.drawContext);
}

/**
 * Custom shapes drawn as what they are (others as rectangles); shapes imported from PowerPoint are
 * named 'ooxml-<preset>'.
 */
const DRAWN_AS_IS = new Set([
  'rectangle',
  'rect',
  'round-rectangle',
  'roundRect',
  'ellipse',
  'circle',
  'ring',
  'non-primitive',
  'flowchart-process',
  'flowChartProcess',
  'flowchart-alternate-process',
  'flowChartAlternateProcess',
]);

/** A shape's outline: ellipses as ellipses, everything else as its rectangle (with a note). */
function shapeGeometry(s: OdpSlide, el: XmlElement): string {
  if (el.nodeName === 'draw:custom-shape') {
    const type = (attr(kid(el, 'draw:enhanced-geometry'), 'draw:type') ?? 'rectangle').replace(/^ooxml-/, '');
    if (!DRAWN_AS_IS.has(type)) s.notes.add('some shapes were drawn as rectangles');
    return ['ellipse', 'circle', 'ring'].includes(type) ? 'draw:ellipse' : 'draw:rect';
  }
  if (el.nodeName !== 'draw:rect' && el.nodeName !== 'draw:ellipse' && el.nodeName !== 'draw:circle') {
    s.notes.add('some shapes were drawn as rectangles');
  }
  return el.nodeName;
}

async function drawShape(s: OdpSlide, el: XmlElement, offset: Offset): Promise<void> {
  const { styles, page, pageHeight } = s;
  const chain = graphicChain(styles, el);
  const fill = fillOf(s, chain, 'style:graphic-properties');
  const strokeKind = styles.prop(chain, 'style:graphic-properties', 'draw:stroke');
  const strokeDefault = strokeKind ? ([0.204, 0.396, 0.643] as Rgb) : undefined;
  const stroke =
    strokeKind === 'none'
      ? undefined
      : (odfColor(styles.prop(chain, 'style:graphic-properties', 'svg:stroke-color')) ?? strokeDefault);
  const strokeWidth = Math.max(0.5, length(styles.prop(chain, 'style:graphic-properties', 'svg:stroke-width')) ?? 0.75);
  if (el.nodeName === 'draw:line') {
    const [x1, y1, x2, y2] = ['svg:x1', 'svg:y1', 'svg:x2', 'svg:y2'].map((name) => length(attr(el, name)) ?? 0);
    const start = { x: offset.x + x1, y: pageHeight - offset.y - y1 };
    const end = { x: offset.x + x2, y: pageHeight - offset.y - y2 };
    page.drawLine({ start, end, thickness: strokeWidth, color: rgb(...(stroke ?? [0, 0, 0])) });
    const lineBox = {
      x: offset.x + Math.min(x1, x2),
      y: offset.y + Math.min(y1, y2),
      width: Math.abs(x2 - x1),
      height: Math.abs(y2 - y1),
    };
    await drawText(s, await textBlocks(s, el, chain), lineBox, chain, 'middle');
    return;
  }
  const own = boxOf(el);
  if (!own) return;
  const box = { ...own, x: own.x + offset.x, y: own.y + offset.y };
  const top = pageHeight - box.y;
  const fillColor = fill && fill !== 'none' ? rgb(...fill) : undefined;
  const strokeColor = stroke ? rgb(...stroke) : undefined;
  if (attr(el, 'draw:transform')) s.notes.add('rotated shapes were drawn unrotated');
  const geometry = shapeGeometry(s, el);
  if (fillColor || strokeColor) {
    const paint = { color: fillColor, borderColor: strokeColor, borderWidth: strokeColor ? strokeWidth : 0 };
    if (geometry === 'draw:ellipse' || geometry === 'draw:circle') {
      page.drawEllipse({
        x: box.x + box.width / 2,
        y: top - box.height / 2,
        xScale: box.width / 2,
        yScale: box.height / 2,
        ...paint,
      });
    } else page.drawRectangle({ x: box.x, y: top - box.height, width: box.width, height: box.height, ...paint });
  }
  await drawText(s, await textBlocks(s, el, chain), box, chain, 'middle');
}

async function drawImage(s: OdpSlide, image: { bytes: Uint8Array; mime: ImageMime }, box: Box): Promise<void> {
  let embedded;
  try {
    embedded = await s.ctx.images.get(image.bytes, image.mime);
  } catch {
    s.notes.add('a picture could not be read');
    return;
  }
  const bottom = s.pageHeight - box.y - box.height;
  s.page.pushOperators(pushGraphicsState(), rectangle(box.x, bottom, box.width, box.height), clip(), endPath());
  s.page.drawImage(embedded, { x: box.x, y: bottom, width: box.width, height: box.height });
  s.page.pushOperators(popGraphicsState());
}

/** A draw:frame: a picture, a text box, a table, or (left out) a chart or embedded object. */
async function drawFrame(s: OdpSlide, frame: XmlElement, offset: Offset, isMaster: boolean): Promise<void> {
  const own = boxOf(frame);
  if (!own) return;
  const box = { ...own, x: own.x + offset.x, y: own.y + offset.y };
  const chain = graphicChain(s.styles, frame);
  const presentationClass = attr(frame, 'presentation:class');
  // Empty placeholders ("Click to add Title") print nothing, as in Impress.
  if (attr(frame, 'presentation:placeholder') === 'true' || (isMaster && presentationClass)) return;
  // Only text frames show their style's fill (a table's or picture's frame does not).
  const fill = kid(frame, 'draw:text-box') ? fillOf(s, chain, 'style:graphic-properties') : undefined;
  if (fill && fill !== 'none') {
    s.page.drawRectangle({
      x: box.x,
      y: s.pageHeight - box.y - box.height,
      width: box.width,
      height: box.height,
      color: rgb(...fill),
    });
  }
  const image = kid(frame, 'draw:image') ? await s.reader.image(frame) : undefined;
  if (image) {
    await drawImage(s, image, box);
    return;
  }
  const textBox = kid(frame, 'draw:text-box');
  if (textBox) {
    const anchor = presentationClass === 'title' ? 'middle' : 'top';
    await drawText(s, await textBlocks(s, textBox, chain), box, chain, anchor);
    return;
  }
  const table = kid(frame, 'table:table');
  if (table) {
    const measured = await measureBlocks([await s.reader.table(table)], box.width, s.ctx);
    measured.draw(s.page, box.x, s.pageHeight - box.y, s.drawContext);
    return;
  }
  if (kid(frame, 'draw:object') || kid(frame, 'draw:object-ole'))
    s.notes.add('charts and embedded objects were left out');
}

async function drawTree(
  s: OdpSlide,
  container: XmlElement | undefined,
  offset: Offset,
  isMaster: boolean,
): Promise<void> {
  for (const el of kids(container)) {
    if (el.nodeName === 'draw:frame') await drawFrame(s, el, offset, isMaster);
    else if (SHAPES.has(el.nodeName) || el.nodeName === 'draw:line') await drawShape(s, el, offset);
    else if (el.nodeName === 'draw:g') await drawTree(s, el, offset, isMaster);
    else if (el.nodeName === 'draw:a') await drawTree(s, el, offset, isMaster);
  }
}

export async function renderOdp(
  zip: JSZip,
  doc: PDFDocument,
  ctx: TextContext,
  options: OdpOptions,
): Promise<OdpResult> {
  const { styles, content } = await readOdfStyles(zip);
  const presentation = kid(kid(content, 'office:body'), 'office:presentation');
  if (!presentation) throw new Error('the file has no presentation body');
  const notes = new Set<string>();
  const drawPages = kids(presentation, 'draw:page');
  const chosen = options.slides ? options.slides(drawPages.length) : drawPages.map((_, i) => i + 1);
  const outline: OutlineEntry[] = [];
  let done = 0;
  for (const slideNumber of chosen) {
    throwIfAborted(options.signal);
    const drawPage = drawPages[slideNumber - 1];
    const { page: setup, master } = styles.pageSetup(attr(drawPage, 'draw:master-page-name'));
    const pageWidth = setup.width;
    const pageHeight = setup.height;
    const page = doc.addPage([pageWidth, pageHeight]);
    const reader = new OdfTextReader({
      zip,
      styles,
      notes,
      baseRun: { font: 'Liberation Sans', size: 18 },
      textWidth: pageWidth,
    });
    const drawContext = { pageNumber: slideNumber, pageCount: drawPages.length };
    const slide: OdpSlide = { zip, styles, notes, ctx, page, pageWidth, pageHeight, reader, drawContext };
    paintBackground(slide, drawPage, master);
    if (master) await drawTree(slide, master, { x: 0, y: 0 }, true);
    await drawTree(slide, drawPage, { x: 0, y: 0 }, false);
    const titleFrame = kids(drawPage, 'draw:frame').find((f) => attr(f, 'presentation:class') === 'title');
    const titleText = titleFrame
      ? findAll(titleFrame, 'text:p')
          .map((p) => p.textContent ?? '')
          .join(' ')
      : '';
    const title = titleText.replace(/\s+/g, ' ').trim();
    outline.push({
      level: 0,
      title: title || `Slide ${slideNumber}`,
      pageIndex: doc.getPageCount() - 1,
      top: pageHeight,
    });
    options.progress?.(++done, chosen.length);
  }
  return { pages: chosen.length, notes: [...notes], outline };
}
