/**
 * Renders an OpenDocument Presentation (.odp) like pptx.ts renders a .pptx: one PDF page per
 * draw:page at the presentation's page size, with the page's background fill, the master page's
 * decorations, frames with text boxes, pictures and tables, and rectangles, ellipses, custom shapes
 * and lines with their fills and strokes. Charts and embedded objects are left out (and the user is told).
 */
import type JSZip from 'jszip';
import { PDFDocument, clip, endPath, popGraphicsState, pushGraphicsState, rectangle, rgb } from 'pdf-lib';
import type { Block, Paragraph, Rgb } from './model.ts';
import { attr, findAll, kid, kids, type XmlElement } from './xml.ts';
import type { ImageMime } from './images.ts';
import type { TextContext } from './text.ts';
import { measureBlocks, type OutlineEntry } from './flow.ts';
import { throwIfAborted } from '../errors.ts';
import { length, odfColor, OdfTextReader, type OdfStyles } from './odf.ts';
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

const SHAPES = new Set(['draw:rect', 'draw:ellipse', 'draw:circle', 'draw:custom-shape', 'draw:polygon', 'draw:path', 'draw:polyline', 'draw:regular-polygon']);

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
    if (block.lineSpacing.rule !== 'auto') block.lineSpacing = { ...block.lineSpacing, value: block.lineSpacing.value * factor };
    if (block.marker) block.marker = { ...block.marker, style: { ...block.marker.style, size: block.marker.style.size * factor } };
    for (const inline of block.inlines) {
      if (inline.kind === 'image' || inline.kind === 'drawing') { inline.width *= factor; inline.height *= factor; }
      else inline.style = { ...inline.style, size: inline.style.size * factor };
    }
  }
}

/** Graphic properties of a shape: its draw:style-name (graphic) and presentation:style-name chains. */
function graphicChain(styles: OdfStyles, el: XmlElement): XmlElement[] {
  return [...styles.chain('graphic', attr(el, 'draw:style-name')), ...styles.chain('presentation', attr(el, 'presentation:style-name'))];
}

export async function renderOdp(zip: JSZip, doc: PDFDocument, ctx: TextContext, options: { signal?: AbortSignal; progress?: (done: number, total: number) => void; slides?: (count: number) => number[]; includeHidden?: boolean }): Promise<OdpResult> {
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
    const masterName = attr(drawPage, 'draw:master-page-name');
    const { page: setup, master } = styles.pageSetup(masterName);
    const pageWidth = setup.width;
    const pageHeight = setup.height;
    const page = doc.addPage([pageWidth, pageHeight]);
    const reader = new OdfTextReader({ zip, styles, notes, baseRun: { font: 'Liberation Sans', size: 18 }, textWidth: pageWidth });
    const drawContext = { pageNumber: slideNumber, pageCount: drawPages.length };
    /** Text of a shape or text box; the shape's style gives the text its default font, size and colour. */
    const textBlocks = (container: XmlElement, chain: XmlElement[]) =>
      new OdfTextReader({ zip, styles, notes, baseRun: styles.runStyle(chain, { font: 'Liberation Sans', size: 18 }), textWidth: pageWidth }).blocks(container);

    // Background: the page's drawing-page style, else the master's.
    const fillOf = (chain: XmlElement[], properties: string): Rgb | 'none' | undefined => {
      const fill = styles.prop(chain, properties, 'draw:fill');
      if (fill === 'none') return 'none';
      if (fill === 'solid') return odfColor(styles.prop(chain, properties, 'draw:fill-color')) ?? [0.447, 0.624, 0.812];
      if (fill === 'gradient' || fill === 'bitmap' || fill === 'hatch') {
        notes.add('gradient and picture fills were drawn as plain colours');
        return odfColor(styles.prop(chain, properties, 'draw:fill-color'));
      }
      return undefined;
    };
    let background: Rgb | undefined;
    for (const source of [drawPage, master]) {
      const fill = source ? fillOf(styles.chain('drawing-page', attr(source, 'draw:style-name')), 'style:drawing-page-properties') : undefined;
      if (fill && fill !== 'none') { background = fill; break; }
    }
    page.drawRectangle({ x: 0, y: 0, width: pageWidth, height: pageHeight, color: rgb(...(background ?? [1, 1, 1])) });

    const drawText = async (blocks: Block[], box: Box, chain: XmlElement[], defaultAnchor: 'top' | 'middle') => {
      const paragraphs = blocks.filter((b): b is Paragraph => b.kind === 'paragraph');
      if (!paragraphs.some((p) => p.inlines.some((i) => i.kind !== 'text' || i.text))) {
        const tables = blocks.filter((b) => b.kind === 'table');
        if (!tables.length) return;
      }
      const p = (name: string) => styles.prop(chain, 'style:graphic-properties', name);
      const pad = (side: string, fallback: number) => length(p(`fo:padding-${side}`) ?? p('fo:padding')) ?? fallback;
      const left = pad('left', 7.1), right = pad('right', 7.1), top = pad('top', 3.6), bottom = pad('bottom', 3.6);
      const width = Math.max(4, box.width - left - right);
      let measured = await measureBlocks(blocks, width, ctx);
      // "Shrink on overflow": scale the text down until it fits the box, as Impress does.
      const fit = p('draw:fit-to-size');
      const available = box.height - top - bottom;
      if ((fit === 'shrink-to-fit' || fit === 'true' || fit === 'all' || p('style:shrink-to-fit') === 'true') && measured.height > available && available > 0) {
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
      const y = pageHeight - box.y - top - (anchor === 'middle' ? free / 2 : anchor === 'bottom' ? free : 0);
      measured.draw(page, box.x + left, y, drawContext);
    };

    const drawShape = async (el: XmlElement, offset: { x: number; y: number }) => {
      const chain = graphicChain(styles, el);
      const fill = fillOf(chain, 'style:graphic-properties');
      const strokeKind = styles.prop(chain, 'style:graphic-properties', 'draw:stroke');
      const stroke = strokeKind === 'none' ? undefined : odfColor(styles.prop(chain, 'style:graphic-properties', 'svg:stroke-color')) ?? (strokeKind ? [0.204, 0.396, 0.643] as Rgb : undefined);
      const strokeWidth = Math.max(0.5, length(styles.prop(chain, 'style:graphic-properties', 'svg:stroke-width')) ?? 0.75);
      if (el.nodeName === 'draw:line') {
        const [x1, y1, x2, y2] = ['svg:x1', 'svg:y1', 'svg:x2', 'svg:y2'].map((name) => length(attr(el, name)) ?? 0);
        page.drawLine({ start: { x: offset.x + x1, y: pageHeight - offset.y - y1 }, end: { x: offset.x + x2, y: pageHeight - offset.y - y2 }, thickness: strokeWidth, color: rgb(...(stroke ?? [0, 0, 0])) });
        await drawText(await textBlocks(el, chain), { x: offset.x + Math.min(x1, x2), y: offset.y + Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) }, chain, 'middle');
        return;
      }
      const own = boxOf(el);
      if (!own) return;
      const box = { ...own, x: own.x + offset.x, y: own.y + offset.y };
      const top = pageHeight - box.y;
      const fillColor = fill && fill !== 'none' ? rgb(...fill) : undefined;
      const strokeColor = stroke ? rgb(...stroke) : undefined;
      if (attr(el, 'draw:transform')) notes.add('rotated shapes were drawn unrotated');
      let geometry = el.nodeName;
      if (el.nodeName === 'draw:custom-shape') {
        // Shapes imported from PowerPoint are named 'ooxml-<preset>'.
        const type = (attr(kid(el, 'draw:enhanced-geometry'), 'draw:type') ?? 'rectangle').replace(/^ooxml-/, '');
        geometry = ['ellipse', 'circle', 'ring'].includes(type) ? 'draw:ellipse' : 'draw:rect';
        if (!['rectangle', 'rect', 'round-rectangle', 'roundRect', 'ellipse', 'circle', 'ring', 'non-primitive', 'flowchart-process', 'flowChartProcess', 'flowchart-alternate-process', 'flowChartAlternateProcess'].includes(type)) notes.add('some shapes were drawn as rectangles');
      } else if (el.nodeName !== 'draw:rect' && el.nodeName !== 'draw:ellipse' && el.nodeName !== 'draw:circle') notes.add('some shapes were drawn as rectangles');
      if (fillColor || strokeColor) {
        if (geometry === 'draw:ellipse' || geometry === 'draw:circle') {
          page.drawEllipse({ x: box.x + box.width / 2, y: top - box.height / 2, xScale: box.width / 2, yScale: box.height / 2, color: fillColor, borderColor: strokeColor, borderWidth: strokeColor ? strokeWidth : 0 });
        } else {
          page.drawRectangle({ x: box.x, y: top - box.height, width: box.width, height: box.height, color: fillColor, borderColor: strokeColor, borderWidth: strokeColor ? strokeWidth : 0 });
        }
      }
      await drawText(await textBlocks(el, chain), box, chain, 'middle');
    };

    const drawImage = async (image: { bytes: Uint8Array; mime: ImageMime }, box: Box) => {
      let embedded;
      try {
        embedded = await ctx.images.get(image.bytes, image.mime);
      } catch {
        notes.add('a picture could not be read');
        return;
      }
      const bottom = pageHeight - box.y - box.height;
      page.pushOperators(pushGraphicsState(), rectangle(box.x, bottom, box.width, box.height), clip(), endPath());
      page.drawImage(embedded, { x: box.x, y: bottom, width: box.width, height: box.height });
      page.pushOperators(popGraphicsState());
    };

    const drawFrame = async (frame: XmlElement, offset: { x: number; y: number }, isMaster: boolean) => {
      const own = boxOf(frame);
      if (!own) return;
      const box = { ...own, x: own.x + offset.x, y: own.y + offset.y };
      const chain = graphicChain(styles, frame);
      const presentationClass = attr(frame, 'presentation:class');
      // Empty placeholders ("Click to add Title") print nothing, as in Impress.
      if (attr(frame, 'presentation:placeholder') === 'true' || (isMaster && presentationClass)) return;
      // Only text frames show their style's fill (a table's or picture's frame does not).
      const fill = kid(frame, 'draw:text-box') ? fillOf(chain, 'style:graphic-properties') : undefined;
      if (fill && fill !== 'none') page.drawRectangle({ x: box.x, y: pageHeight - box.y - box.height, width: box.width, height: box.height, color: rgb(...fill) });
      const image = kid(frame, 'draw:image') ? await reader.image(frame) : undefined;
      if (image) { await drawImage(image, box); return; }
      const textBox = kid(frame, 'draw:text-box');
      if (textBox) {
        const anchor = presentationClass === 'title' ? 'middle' : 'top';
        await drawText(await textBlocks(textBox, chain), box, chain, anchor);
        return;
      }
      const table = kid(frame, 'table:table');
      if (table) {
        const measured = await measureBlocks([await reader.table(table)], box.width, ctx);
        measured.draw(page, box.x, pageHeight - box.y, drawContext);
        return;
      }
      if (kid(frame, 'draw:object') || kid(frame, 'draw:object-ole')) notes.add('charts and embedded objects were left out');
    };

    const drawTree = async (container: XmlElement | undefined, offset: { x: number; y: number }, isMaster: boolean) => {
      for (const el of kids(container)) {
        if (el.nodeName === 'draw:frame') await drawFrame(el, offset, isMaster);
        else if (SHAPES.has(el.nodeName) || el.nodeName === 'draw:line') await drawShape(el, offset);
        else if (el.nodeName === 'draw:g') await drawTree(el, offset, isMaster);
        else if (el.nodeName === 'draw:a') await drawTree(el, offset, isMaster);
      }
    };

    if (master) await drawTree(master, { x: 0, y: 0 }, true);
    await drawTree(drawPage, { x: 0, y: 0 }, false);

    const titleFrame = kids(drawPage, 'draw:frame').find((f) => attr(f, 'presentation:class') === 'title');
    const title = (titleFrame ? findAll(titleFrame, 'text:p').map((p) => p.textContent ?? '').join(' ') : '').replace(/\s+/g, ' ').trim();
    outline.push({ level: 0, title: title || `Slide ${slideNumber}`, pageIndex: doc.getPageCount() - 1, top: pageHeight });
    options.progress?.(++done, chosen.length);
  }
  return { pages: chosen.length, notes: [...notes], outline };
}
