/**
 * PDF → PowerPoint (.pptx, built with pptxgenjs): one slide per page with the page's proportions;
 * text as editable text boxes at their places with their fonts, sizes, weights and colours; images
 * as pictures; drawings that text boxes cannot rebuild (charts, shapes, rules) as one picture of
 * the page rendered WITHOUT its text and images, behind everything else.
 *
 * pptxgenjs in a worker: only write({ outputType: 'arraybuffer' }) — its other outputs reach for
 * DOM or Node APIs.
 */
import PptxGenJS from 'pptxgenjs';
import type { Engine } from '../lib/types.ts';
import { throwIfAborted } from '../lib/errors.ts';
import { commonOptions, readOfficeSource } from '../lib/pdf-to-office/office-pages.ts';
import {
  buildFragments,
  buildParagraphs,
  readingOrder,
  type PageLayout,
  type Paragraph,
  type TextItem,
} from '../lib/pdf/pdf-layout.ts';
import { vocabularyOf, type Vocabulary } from '../lib/pdf/line-hyphens.ts';
import { findTables, insideBox, type Table } from '../lib/pdf-to-office/tables.ts';
import { overprintLayers } from '../lib/pdf-to-office/overprint.ts';
import { cropCanvas, encodeCanvas, releaseCanvas, renderPageCanvas } from '../lib/pdf/page-raster.ts';
import type { PDFDocumentProxy } from '../lib/pdf/pdfjs.ts';
import { baseName } from '../../../shared/format.ts';

const BACKGROUND_DPI = 144;
const PICTURE_DPI = 150;

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const dataUrl = (bytes: Uint8Array, mime: string) => `${mime};base64,${toBase64(bytes)}`;

/** Text runs of one paragraph, its lines kept as lines (PowerPoint must not re-wrap them). */
function paragraphRuns(paragraph: Paragraph, scale: number): PptxGenJS.TextProps[] {
  const runs: PptxGenJS.TextProps[] = [];
  paragraph.lines.forEach((line, lineIndex) => {
    const items = [...line.items].sort((a, b) => a.x - b.x);
    let lastRight = -Infinity;
    items.forEach((item, index) => {
      const gap = item.x - lastRight;
      let text = item.text;
      // Slanted labels side by side touch or overlap, yet are separate words.
      const separate = gap > item.size * 0.15 || item.rotated || items[index - 1]?.rotated;
      if (index > 0 && separate && !text.startsWith(' ')) text = ` ${text}`;
      lastRight = Math.max(lastRight, item.x + item.width);
      const last = runs.at(-1);
      const options: PptxGenJS.TextPropsOptions = {
        fontFace: item.family,
        fontSize: Math.max(1, Math.round(item.size * scale * 2) / 2),
        bold: item.bold,
        italic: item.italic,
        color: item.color,
      };
      const sameAsLast =
        last &&
        index > 0 &&
        last.options?.fontFace === options.fontFace &&
        last.options?.fontSize === options.fontSize &&
        last.options?.bold === options.bold &&
        last.options?.italic === options.italic &&
        last.options?.color === options.color;
      if (sameAsLast) last.text = `${last.text ?? ''}${text}`;
      else runs.push({ text, options });
    });
    const last = runs.at(-1);
    if (last && lineIndex < paragraph.lines.length - 1) last.options = { ...last.options, breakLine: true };
  });
  return runs;
}

type FirstDrawn = (items: Iterable<TextItem>) => number;

/** Whether a table's cells are drawn row by row, as a table's are: few pairs of cells out of order. */
function drawnRowByRow(table: Table, firstDrawn: FirstDrawn): boolean {
  const order = table.cells.filter((cell) => cell.items.length > 0).map((cell) => firstDrawn(cell.items));
  let inversions = 0;
  for (let i = 0; i < order.length; i++)
    for (let j = i + 1; j < order.length; j++) if (order[i] > order[j]) inversions++;
  const pairs = (order.length * (order.length - 1)) / 2;
  return pairs === 0 || inversions / pairs <= 0.2;
}

/**
 * The paragraph, or its lines one by one when the page does not draw them one after the other
 * (labels stacked above each other by position only: a value axis drawn bottom-up, a radar
 * chart's labels).
 */
function splitWhereDrawnOutOfOrder(paragraph: Paragraph, firstDrawn: FirstDrawn, lastDrawn: FirstDrawn): Paragraph[] {
  const lines = paragraph.lines;
  const inOrder = lines.every(
    (line, i) =>
      i === 0 ||
      (firstDrawn(line.items) > firstDrawn(lines[i - 1].items) &&
        firstDrawn(line.items) <= lastDrawn(lines[i - 1].items) + 2),
  );
  return inOrder ? [paragraph] : lines.flatMap((line) => buildParagraphs([line]));
}

type SlideBlock =
  { kind: 'paragraph'; paragraph: Paragraph; order: number } | { kind: 'table'; table: Table; order: number };

/**
 * A slide's paragraphs and tables, in the order it will hold them.
 *
 * A slide's reading order (screen readers, Tab, the selection pane) is its shapes' z-order, and a
 * PDF made from slides draws text in the deck's shape order: shapes are written in the order the
 * page draws them (the first of their text in the content stream), not sorted by position, so
 * chart labels and shapes side by side keep the source's order. Text the page draws out of visual
 * order is not one block: an unruled "table" whose cells are not drawn row by row (axis labels of
 * charts side by side) stays loose text, and lines of a paragraph drawn bottom-up (a value axis)
 * become boxes of their own. OCR'd pages come in reading order. Text drawn over itself (a master's
 * title repeated by its layout, a shadow) is read once per copy: each copy its own boxes.
 */
function slideBlocks(layout: PageLayout, vocabulary: Vocabulary): { tables: Table[]; blocks: SlideBlock[] } {
  const streamIndex = new Map(layout.items.map((item, index) => [item, index]));
  const firstDrawn = (items: Iterable<TextItem>) =>
    Math.min(Infinity, ...[...items].map((item) => streamIndex.get(item) ?? Infinity));
  const lastDrawn = (items: Iterable<TextItem>) =>
    Math.max(-Infinity, ...[...items].map((item) => streamIndex.get(item) ?? -Infinity));
  const layers = overprintLayers(layout.items);
  const readOnce = { ...layout, items: layers[0] ?? [] };
  const tables = layout.ocr
    ? []
    : findTables(readOnce).filter((table) => table.ruled || drawnRowByRow(table, firstDrawn));
  const blocks: SlideBlock[] = [];
  for (const layer of layers) {
    const flowItems = layer.filter((item) => !tables.some((t) => insideBox(item, t.box)));
    for (const paragraph of buildParagraphs(readingOrder(buildFragments(flowItems)), vocabulary)) {
      for (const part of splitWhereDrawnOutOfOrder(paragraph, firstDrawn, lastDrawn)) {
        blocks.push({
          kind: 'paragraph',
          paragraph: part,
          order: firstDrawn(part.lines.flatMap((line) => line.items)),
        });
      }
    }
  }
  for (const table of tables)
    blocks.push({ kind: 'table', table, order: firstDrawn(table.cells.flatMap((cell) => cell.items)) });
  return { tables, blocks: blocks.sort((a, b) => a.order - b.order) };
}

/** A slide and where its page lands on it: pages of another size are scaled to fit, centred. Inches. */
interface SlideFrame {
  slide: PptxGenJS.Slide;
  slideWidth: number;
  scale: number;
  inchX: (points: number) => number;
  inchY: (points: number) => number;
  inches: (points: number) => number;
}

function slideFrame(slide: PptxGenJS.Slide, layout: PageLayout, slideWidth: number, slideHeight: number): SlideFrame {
  const scale = Math.min(slideWidth / (layout.width / 72), slideHeight / (layout.height / 72));
  const offsetX = (slideWidth - (layout.width / 72) * scale) / 2;
  const offsetY = (slideHeight - (layout.height / 72) * scale) / 2;
  return {
    slide,
    slideWidth,
    scale,
    inchX: (points: number) => offsetX + (points / 72) * scale,
    inchY: (points: number) => offsetY + (points / 72) * scale,
    inches: (points: number) => (points / 72) * scale,
  };
}

function addParagraph(frame: SlideFrame, paragraph: Paragraph): void {
  const { scale, inchX, inchY, inches } = frame;
  const runs = paragraphRuns(paragraph, scale);
  if (runs.length === 0) return;
  const pitch =
    paragraph.lines.length > 1
      ? (paragraph.lines.at(-1)!.baseline - paragraph.lines[0].baseline) / (paragraph.lines.length - 1)
      : paragraph.size * 1.2;
  // A little extra width so that PowerPoint's own font metrics do not wrap a line.
  const width = (paragraph.right - paragraph.x) * 1.08 + paragraph.size;
  frame.slide.addText(runs, {
    x: inchX(paragraph.x),
    y: inchY(paragraph.top),
    w: Math.min(inches(width), frame.slideWidth - inchX(paragraph.x)),
    h: inches(Math.max(paragraph.bottom - paragraph.top, paragraph.size * 1.2)),
    margin: 0,
    valign: 'top',
    wrap: false,
    fit: 'none',
    lineSpacing: Math.max(1, Math.round(pitch * scale * 10) / 10),
    paraSpaceBefore: 0,
    paraSpaceAfter: 0,
  });
}

/** Tables become PowerPoint tables; ruled ones get borders (their lines are not in the background). */
function addTable(frame: SlideFrame, table: Table): void {
  const { scale, inchX, inchY, inches } = frame;
  const rowCount = table.rowEdges.length - 1;
  const rows: PptxGenJS.TableRow[] = [];
  for (let r = 0; r < rowCount; r++) {
    rows.push(
      table.cells
        .filter((c) => c.row === r)
        .map((cell) => {
          const item = cell.items[0];
          return {
            text: cell.text,
            options: {
              colspan: cell.colSpan > 1 ? cell.colSpan : undefined,
              rowspan: cell.rowSpan > 1 ? cell.rowSpan : undefined,
              fontFace: item?.family ?? 'Arial',
              fontSize: item ? Math.max(1, Math.round(item.size * scale * 2) / 2) : 10,
              bold: item?.bold ?? false,
              italic: item?.italic ?? false,
              color: item?.color ?? '000000',
            },
          };
        }),
    );
  }
  frame.slide.addTable(rows, {
    x: inchX(table.box.x),
    y: inchY(table.box.top),
    colW: table.colEdges.slice(1).map((edge, i) => inches(edge - table.colEdges[i])),
    rowH: table.rowEdges.slice(1).map((edge, i) => inches(edge - table.rowEdges[i])),
    margin: 2,
    valign: 'middle',
    border: table.ruled ? { type: 'solid', pt: 0.75, color: '000000' } : { type: 'none' },
  });
}

/**
 * The page's pictures, and behind everything its drawings as one picture rendered without text and
 * images (when asked for and the page has any drawings tables do not account for). Returns how many
 * pictures and backgrounds were placed.
 */
async function addPictures(
  doc: PDFDocumentProxy,
  frame: SlideFrame,
  page: PageLayout,
  pageTables: Table[],
  withBackground: boolean,
): Promise<{ pictures: number; backgrounds: number }> {
  const { slide, inchX, inchY, inches } = frame;
  const placed = { pictures: 0, backgrounds: 0 };
  // OCR'd pages: the recognised text is the content; the scan itself is not repeated under it.
  if (page.ocr) return placed;
  const looseRulings = page.rulings.filter(
    (s) =>
      !pageTables.some(
        (t) =>
          t.ruled &&
          s.x1 >= t.box.x - 3 &&
          s.x2 <= t.box.x + t.box.width + 3 &&
          s.y1 >= t.box.top - 3 &&
          s.y2 <= t.box.top + t.box.height + 3,
      ),
  );
  const needsBackground = withBackground && (page.hasVectorArt || looseRulings.length > 0);
  const images = page.images.filter((b) => b.width >= 4 && b.height >= 4);
  if (needsBackground) {
    const canvas = await renderPageCanvas(doc, page.pageNumber, BACKGROUND_DPI, ['text', 'images']);
    const jpeg = await encodeCanvas(canvas.canvas, 'jpeg', 0.85);
    releaseCanvas(canvas.canvas);
    slide.addImage({
      data: dataUrl(jpeg, 'image/jpeg'),
      x: inchX(0),
      y: inchY(0),
      w: inches(page.width),
      h: inches(page.height),
      altText: 'Page drawing',
    });
    placed.backgrounds++;
  }
  if (images.length === 0) return placed;
  const canvas = await renderPageCanvas(doc, page.pageNumber, PICTURE_DPI, ['text']);
  for (const box of images) {
    const x = Math.max(0, box.x);
    const top = Math.max(0, box.top);
    const w = Math.min(page.width, box.x + box.width) - x;
    const h = Math.min(page.height, box.top + box.height) - top;
    if (w < 4 || h < 4) continue;
    const crop = await cropCanvas(canvas, { x, top, width: w, height: h });
    const png = await encodeCanvas(crop, 'png');
    releaseCanvas(crop);
    slide.addImage({ data: dataUrl(png, 'image/png'), x: inchX(x), y: inchY(top), w: inches(w), h: inches(h) });
    placed.pictures++;
  }
  releaseCanvas(canvas.canvas);
  return placed;
}

export const run: Engine = async (inputs, options, ctx) => {
  const source = await readOfficeSource(inputs, { ...commonOptions(options), keepOverprints: true }, ctx);
  const { doc, layouts } = source;
  const withBackground = options.background !== false && options.background !== 'false';
  if (layouts.length === 0) throw new Error('No pages to convert');

  const pptx = new PptxGenJS();
  const first = layouts[0];
  // Inches; PowerPoint allows 1–56 in per side.
  const slideWidth = Math.min(56, Math.max(1, first.width / 72));
  const slideHeight = Math.min(56, Math.max(1, first.height / 72));
  pptx.defineLayout({ name: 'PDF', width: slideWidth, height: slideHeight });
  pptx.layout = 'PDF';
  pptx.author = 'Folio';
  pptx.title = baseName(inputs[0].name);

  let pictures = 0;
  let backgrounds = 0;
  const vocabulary = vocabularyOf(layouts.flatMap((l) => l.items.map((i) => i.text))); // for line-end hyphens
  for (const [index, layout] of layouts.entries()) {
    throwIfAborted(ctx.signal);
    const frame = slideFrame(pptx.addSlide(), layout, slideWidth, slideHeight);
    const { tables, blocks } = slideBlocks(layout, vocabulary);
    const placed = await addPictures(doc, frame, layout, tables, withBackground);
    pictures += placed.pictures;
    backgrounds += placed.backgrounds;
    for (const block of blocks) {
      if (block.kind === 'table') addTable(frame, block.table);
      else addParagraph(frame, block.paragraph);
    }
    source.written(index);
  }
  await doc.destroy();
  const buffer = (await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer;
  const notes = [...source.notes];
  if (pictures) notes.push(`${pictures} picture${pictures === 1 ? '' : 's'} placed.`);
  if (backgrounds) {
    notes.push(
      `${backgrounds} ${backgrounds === 1 ? 'slide keeps its' : 'slides keep their'} drawings as a background picture.`,
    );
  }
  return {
    bytes: new Uint8Array(buffer),
    filename: `${baseName(inputs[0].name)}.pptx`,
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    notes,
  };
};
