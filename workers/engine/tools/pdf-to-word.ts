/**
 * PDF → Word (.docx, built with `docx`): an editable document, not a picture of each page.
 * Text is grouped into lines, columns (read column by column) and paragraphs; headings are found
 * by size and weight; bold, italic, size, font and colour are kept; bullets become Word bullets;
 * ruled and aligned tables become Word tables (merged cells kept); pictures are placed inline at
 * their size; each PDF page starts a new page (its own section, with the page's size); lines that
 * repeat at the top/bottom of most pages are written once as the header/footer.
 */
import {
  AlignmentType,
  Document,
  Footer,
  Header,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Packer,
  PageOrientation,
  PageNumber,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ISectionOptions,
} from 'docx';
import type { Engine } from '../lib/types.ts';
import { throwIfAborted } from '../lib/errors.ts';
import { commonOptions, readOfficeSource } from '../lib/pdf-to-office/office-pages.ts';
import { baseName } from '../../../shared/format.ts';
import {
  bodySize,
  buildFragments,
  buildParagraphs,
  readingOrder,
  type Box,
  type Fragment,
  type PageLayout,
  type Paragraph as LayoutParagraph,
  type TextItem,
} from '../lib/pdf/pdf-layout.ts';
import { findTables, insideBox, type Table as LayoutTable } from '../lib/pdf-to-office/tables.ts';
import { vocabularyOf, type Vocabulary } from '../lib/pdf/line-hyphens.ts';
import type { PDFDocumentProxy } from '../lib/pdf/pdfjs.ts';
import { cropCanvas, encodeCanvas, releaseCanvas, renderPageCanvas } from '../lib/pdf/page-raster.ts';

const twips = (points: number) => Math.round(points * 20);
const halfPoints = (points: number) => Math.max(2, Math.round(points * 2));
/** docx sizes pictures in pixels at 96 per inch. */
const pixels = (points: number) => Math.max(1, Math.round((points * 96) / 72));

type Block =
  | { kind: 'paragraph'; top: number; x: number; right: number; paragraph: LayoutParagraph }
  | { kind: 'table'; top: number; x: number; right: number; table: LayoutTable }
  | { kind: 'image'; top: number; x: number; right: number; box: Box; png?: Uint8Array };

interface RepeatedLines {
  header: Set<string>;
  footer: Set<string>;
  headerText?: string;
  footerText?: string;
}

const repeatKey = (text: string) => text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();

/** Lines near the top/bottom edge that recur on at least half the pages (page numbers included). */
function findRepeatedLines(layouts: PageLayout[]): RepeatedLines {
  const result: RepeatedLines = { header: new Set(), footer: new Set() };
  if (layouts.length < 2) return result;
  const counts = { header: new Map<string, number>(), footer: new Map<string, number>() };
  const firstText = { header: new Map<string, string>(), footer: new Map<string, string>() };
  for (const layout of layouts) {
    const seen = { header: new Set<string>(), footer: new Set<string>() };
    for (const fragment of buildFragments(layout.items)) {
      const zone =
        fragment.bottom < layout.height * 0.09 ? 'header' : fragment.top > layout.height * 0.91 ? 'footer' : undefined;
      if (!zone) continue;
      const key = repeatKey(fragment.text);
      if (!key || seen[zone].has(key)) continue;
      seen[zone].add(key);
      counts[zone].set(key, (counts[zone].get(key) ?? 0) + 1);
      if (!firstText[zone].has(key)) firstText[zone].set(key, fragment.text);
    }
  }
  const needed = Math.max(2, Math.ceil(layouts.length / 2));
  for (const zone of ['header', 'footer'] as const) {
    const keys = [...counts[zone]].filter(([, n]) => n >= needed).map(([k]) => k);
    for (const key of keys) result[zone].add(key);
    const text = keys.map((k) => firstText[zone].get(k)!).join('  ');
    if (text) result[`${zone}Text`] = text;
  }
  return result;
}

/**
 * Without repetition to go by (one page, or headers that change per page), lines alone in the top
 * or bottom margin — body-size or smaller, well apart from the text — are that page's header/footer.
 */
function marginLines(
  fragments: Fragment[],
  layout: PageLayout,
  body: number,
): { header: Fragment[]; footer: Fragment[] } {
  const header: Fragment[] = [];
  const footer: Fragment[] = [];
  const small = (f: Fragment) => f.size <= body * 1.1 + 0.5;
  const topZone = fragments.filter((f) => f.bottom < layout.height * 0.075 && small(f));
  const bottomZone = fragments.filter((f) => f.top > layout.height * 0.925 && small(f));
  const rest = fragments.filter((f) => !topZone.includes(f) && !bottomZone.includes(f));
  if (rest.length === 0) return { header, footer };
  const bodyTop = Math.min(...rest.map((f) => f.top));
  const bodyBottom = Math.max(...rest.map((f) => f.bottom));
  for (const f of topZone) if (bodyTop - f.bottom >= f.size * 1.2) header.push(f);
  for (const f of bottomZone) if (f.top - bodyBottom >= f.size * 1.2) footer.push(f);
  return { header, footer };
}

const edgeText = (lines: Fragment[]) =>
  [...lines]
    .sort((a, b) => a.top - b.top || a.x - b.x)
    .map((f) => f.text)
    .join('  ');

function isRepeated(fragment: Fragment, layout: PageLayout, repeated: RepeatedLines): boolean {
  const key = repeatKey(fragment.text);
  if (fragment.bottom < layout.height * 0.09) return repeated.header.has(key);
  if (fragment.top > layout.height * 0.91) return repeated.footer.has(key);
  return false;
}

function textRun(text: string, item: TextItem, sizeOverride?: number): TextRun {
  return new TextRun({
    text,
    bold: item.bold,
    italics: item.italic,
    size: halfPoints(sizeOverride ?? item.size),
    color: item.color,
    font: item.family,
  });
}

/** Header/footer paragraph: digits of a page number become Word's PAGE field. */
function edgeParagraph(text: string): Paragraph {
  const pageNo = /^(.*?)(\d+)(\s*(?:of|\/)\s*\d+)?(.*)$/i.exec(text);
  if (pageNo && /^(page\s*)?$/i.test(pageNo[1].trim()) && !pageNo[4].trim()) {
    return new Paragraph({
      alignment: AlignmentType.CENTER,
      children: [
        new TextRun(pageNo[1]),
        new TextRun({ children: [PageNumber.CURRENT] }),
        ...(pageNo[3] ? [new TextRun(pageNo[3])] : []),
      ],
    });
  }
  return new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun(text)] });
}

function headingLevels(
  layouts: PageLayout[],
  body: number,
): Map<number, (typeof HeadingLevel)[keyof typeof HeadingLevel]> {
  const sizes = new Set<number>();
  for (const layout of layouts)
    for (const item of layout.items) if (item.size >= body * 1.15) sizes.add(Math.round(item.size * 2) / 2);
  const levels = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3];
  const map = new Map<number, (typeof HeadingLevel)[keyof typeof HeadingLevel]>();
  [...sizes].sort((a, b) => b - a).forEach((size, i) => map.set(size, levels[Math.min(i, levels.length - 1)]));
  return map;
}

function wordTable(table: LayoutTable): Table {
  const rows = table.rowEdges.length - 1;
  const widths = table.colEdges.slice(1).map((edge, i) => Math.max(twips(12), twips(edge - table.colEdges[i])));
  const tableRows: TableRow[] = [];
  for (let r = 0; r < rows; r++) {
    const cells = table.cells.filter((c) => c.row === r);
    tableRows.push(
      new TableRow({
        children: cells.map((cell) => {
          const first = cell.items[0];
          const paragraphs = (cell.text || '')
            .split('\n')
            .map((line) => new Paragraph({ children: first ? [textRun(line, first)] : [new TextRun(line)] }));
          const width = widths.slice(cell.col, cell.col + cell.colSpan).reduce((a, b) => a + b, 0);
          return new TableCell({
            children: paragraphs,
            columnSpan: cell.colSpan > 1 ? cell.colSpan : undefined,
            rowSpan: cell.rowSpan > 1 ? cell.rowSpan : undefined,
            width: { size: width, type: WidthType.DXA },
          });
        }),
      }),
    );
  }
  return new Table({
    rows: tableRows,
    columnWidths: widths,
    width: { size: widths.reduce((a, b) => a + b, 0), type: WidthType.DXA },
  });
}

/** Where numbered lists stand: a list continues (across pages too) while its numbers follow on. */
interface ListState {
  instance: number;
  last: number | undefined;
}

/**
 * Word numbering for a paragraph that starts a list at 1 or carries on from the previous number;
 * undefined for any other paragraph (another number stays literal text).
 */
function listNumbering(
  p: LayoutParagraph,
  lists: ListState,
): { reference: string; level: number; instance: number } | undefined {
  const numbered = p.list === 'number' ? /^\(?(\d{1,3})([.)])\s+/.exec(p.text) : null;
  const value = numbered ? Number(numbered[1]) : NaN;
  if (numbered && lists.last !== undefined && value === lists.last + 1) {
    lists.last = value;
  } else if (numbered && value === 1) {
    lists.instance++;
    lists.last = 1;
  } else {
    lists.last = undefined;
    return undefined;
  }
  return {
    reference: numbered[2] === ')' ? 'folio-numbers-paren' : 'folio-numbers',
    level: 0,
    instance: lists.instance,
  };
}

/** What the whole document decides for every page. */
interface DocumentContext {
  doc: PDFDocumentProxy;
  repeated: RepeatedLines;
  /** Header/footer lines repeat across pages, so they are written once for the whole document. */
  usesRepeated: boolean;
  body: number;
  vocabulary: Vocabulary;
  levels: Map<number, (typeof HeadingLevel)[keyof typeof HeadingLevel]>;
  lists: ListState;
}

interface PageBlocks {
  blocks: Block[];
  /** This page's own header and footer lines (when none repeat across pages). */
  margins: { header: Fragment[]; footer: Fragment[] };
  tableCount: number;
  imageCount: number;
}

/** A page's paragraphs, tables and pictures, in the order the document will hold them. */
async function pageBlocks(layout: PageLayout, context: DocumentContext): Promise<PageBlocks> {
  const { doc, repeated, usesRepeated, body, vocabulary } = context;
  // A boxed header or footer (a one-row table in the margin) is a header/footer, not a table.
  const inMargin = (t: LayoutTable) =>
    t.box.top + t.box.height < layout.height * 0.08 || t.box.top > layout.height * 0.92;
  const tables = layout.ocr ? [] : findTables(layout).filter((t) => !inMargin(t));
  const flowItems = layout.items.filter((item) => !tables.some((t) => insideBox(item, t.box)));
  let fragments = buildFragments(flowItems).filter((f) => !isRepeated(f, layout, repeated));
  const margins = usesRepeated || layout.ocr ? { header: [], footer: [] } : marginLines(fragments, layout, body);
  fragments = fragments.filter((f) => !margins.header.includes(f) && !margins.footer.includes(f));
  const paragraphs = buildParagraphs(readingOrder(fragments), vocabulary);
  const blocks: Block[] = paragraphs.map((p) => ({
    kind: 'paragraph',
    top: p.top,
    x: p.x,
    right: p.right,
    paragraph: p,
  }));
  const others: Block[] = tables.map((t) => ({
    kind: 'table',
    top: t.box.top,
    x: t.box.x,
    right: t.box.x + t.box.width,
    table: t,
  }));
  let imageCount = 0;
  // Pictures (a scanned page without OCR is one big picture); OCR'd pages keep only their text.
  const pictures = layout.ocr ? [] : layout.images.filter((b) => b.width >= 8 && b.height >= 8);
  if (pictures.length) {
    const canvas = await renderPageCanvas(doc, layout.pageNumber, 150, ['text']);
    for (const box of pictures) {
      const clipped = clipBox(box, layout);
      if (!clipped) continue;
      const crop = await cropCanvas(canvas, clipped);
      others.push({
        kind: 'image',
        top: clipped.top,
        x: clipped.x,
        right: clipped.x + clipped.width,
        box: clipped,
        png: await encodeCanvas(crop, 'png'),
      });
      releaseCanvas(crop);
      imageCount++;
    }
    releaseCanvas(canvas.canvas);
  }
  // Tables and pictures go before the first paragraph (in reading order) below them in the same column.
  for (const block of others.sort((a, b) => a.top - b.top)) {
    const index = blocks.findIndex(
      (b) => b.kind === 'paragraph' && b.top >= block.top - 1 && b.x < block.right && b.right > block.x,
    );
    if (index === -1) blocks.push(block);
    else blocks.splice(index, 0, block);
  }
  return { blocks, margins, tableCount: tables.length, imageCount };
}

/** Where a page's text stands: its left and right text edges and the Word page margins they give. */
interface PageFrame {
  left: number;
  textRight: number;
  margin: number;
  rightMargin: number;
}

function pageFrame(layout: PageLayout, blocks: Block[]): PageFrame {
  const left = Math.min(layout.width * 0.5, ...blocks.map((b) => b.x));
  const textRight = Math.max(layout.width * 0.5, ...blocks.map((b) => b.right));
  return {
    left,
    textRight,
    margin: Math.min(72, Math.max(18, left)),
    rightMargin: Math.min(72, Math.max(18, layout.width - textRight)),
  };
}

/** A picture at its size, unless it would not fit between the margins (full-page scans). */
function imageParagraph(box: Box, png: Uint8Array, layout: PageLayout, frame: PageFrame): Paragraph {
  const { margin, rightMargin } = frame;
  const fit = Math.min(1, (layout.width - margin - rightMargin) / box.width, (layout.height - 72 - 8) / box.height);
  return new Paragraph({
    children: [
      new ImageRun({
        type: 'png',
        data: png,
        transformation: { width: pixels(box.width * fit), height: pixels(box.height * fit) },
      }),
    ],
    indent: {
      left: twips(Math.max(0, Math.min(box.x - margin, layout.width - margin - rightMargin - box.width * fit))),
    },
  });
}

/** A text paragraph: heading, bullet or numbered item, centred or indented, with the gap above it kept. */
function textParagraph(
  p: LayoutParagraph,
  previousBottom: number | undefined,
  frame: PageFrame,
  context: DocumentContext,
): Paragraph {
  const { left, textRight, margin } = frame;
  const { levels, body, lists } = context;
  const gap = previousBottom === undefined ? 0 : Math.max(0, Math.min(p.top - previousBottom, 48));
  const level = p.text.length < 200 ? levels.get(Math.round(p.size * 2) / 2) : undefined;
  const boldHeading =
    !level && p.bold && p.lines.length === 1 && p.text.length < 90 && p.size >= body - 0.5 && !/[.:,;]$/.test(p.text);
  const numbering = listNumbering(p, lists);
  const numbered = numbering !== undefined;
  const runs = p.runs.map((r, i) => {
    let text = r.text;
    if (i === 0 && p.list === 'bullet') text = text.replace(/^[•●▪■◦○‣∙·\-–*]\s+/, '');
    if (i === 0 && numbered) text = text.replace(/^\s*\(?\d{1,3}[.)]\s+/, '');
    return textRun(text, r.item);
  });
  const width = p.right - p.x;
  const centre = (p.x + p.right) / 2;
  const centred =
    p.lines.length <= 3 &&
    width < (textRight - left) * 0.8 &&
    Math.abs(centre - (left + textRight) / 2) < 6 &&
    p.x > left + 12;
  return new Paragraph({
    children: runs,
    heading: level ?? (boldHeading ? HeadingLevel.HEADING_3 : undefined),
    bullet: p.list === 'bullet' ? { level: 0 } : undefined,
    numbering,
    alignment: centred ? AlignmentType.CENTER : undefined,
    indent: !centred && !p.list && p.x - margin > 4 ? { left: twips(p.x - margin) } : undefined,
    spacing: { before: twips(gap > p.size * 0.5 ? gap : 0), after: 0 },
  });
}

/** The Word content of a page's blocks (never empty: Word needs a paragraph in every section). */
function pageChildren(
  blocks: Block[],
  layout: PageLayout,
  frame: PageFrame,
  context: DocumentContext,
): Array<Paragraph | Table> {
  const children: Array<Paragraph | Table> = [];
  let previousBottom: number | undefined;
  for (const block of blocks) {
    if (block.kind === 'table') {
      children.push(wordTable(block.table));
      previousBottom = block.table.box.top + block.table.box.height;
    } else if (block.kind === 'image') {
      children.push(imageParagraph(block.box, block.png!, layout, frame));
      previousBottom = block.box.top + block.box.height;
    } else {
      children.push(textParagraph(block.paragraph, previousBottom, frame, context));
      previousBottom = block.paragraph.bottom;
    }
  }
  if (children.length === 0) children.push(new Paragraph({ children: [] }));
  return children;
}

/** Headers and footers of a page's section: the repeated ones once (first section), else the page's own. */
function edgeSections(
  isFirst: boolean,
  repeated: RepeatedLines,
  usesRepeated: boolean,
  margins: PageBlocks['margins'],
): Pick<ISectionOptions, 'headers' | 'footers'> {
  if (usesRepeated) {
    return {
      ...(isFirst && repeated.headerText
        ? { headers: { default: new Header({ children: [edgeParagraph(repeated.headerText)] }) } }
        : {}),
      ...(isFirst && repeated.footerText
        ? { footers: { default: new Footer({ children: [edgeParagraph(repeated.footerText)] }) } }
        : {}),
    };
  }
  // Each page its own (possibly empty) header and footer, so none is inherited by a later page.
  return {
    headers: {
      default: new Header({
        children: [margins.header.length ? edgeParagraph(edgeText(margins.header)) : new Paragraph({ children: [] })],
      }),
    },
    footers: {
      default: new Footer({
        children: [margins.footer.length ? edgeParagraph(edgeText(margins.footer)) : new Paragraph({ children: [] })],
      }),
    },
  };
}

/** One PDF page as a Word section of the page's size. */
async function pageSection(
  layout: PageLayout,
  isFirst: boolean,
  context: DocumentContext,
): Promise<{ section: ISectionOptions; tableCount: number; imageCount: number }> {
  const { blocks, margins, tableCount, imageCount } = await pageBlocks(layout, context);
  const frame = pageFrame(layout, blocks);
  const children = pageChildren(blocks, layout, frame, context);
  const section: ISectionOptions = {
    properties: {
      page: {
        // Word reads w:orient for the printer's paper; docx writes a landscape page's sides swapped
        // from the portrait ones it is given.
        size:
          layout.width > layout.height
            ? { width: twips(layout.height), height: twips(layout.width), orientation: PageOrientation.LANDSCAPE }
            : { width: twips(layout.width), height: twips(layout.height) },
        margin: {
          top: twips(36),
          bottom: twips(36),
          left: twips(frame.margin),
          right: twips(frame.rightMargin),
          header: twips(18),
          footer: twips(18),
        },
      },
    },
    ...edgeSections(isFirst, context.repeated, context.usesRepeated, margins),
    children,
  };
  return { section, tableCount, imageCount };
}

export const run: Engine = async (inputs, options, ctx) => {
  const source = await readOfficeSource(inputs, commonOptions(options), ctx);
  const { doc, layouts } = source;
  const repeated = findRepeatedLines(layouts);
  const allItems = layouts.flatMap((l) => l.items);
  const body = bodySize(allItems);
  const context: DocumentContext = {
    doc,
    repeated,
    usesRepeated: Boolean(repeated.headerText || repeated.footerText),
    body,
    // Words the whole document prints unbroken decide its line-end hyphens.
    vocabulary: vocabularyOf(allItems.map((item) => item.text)),
    levels: headingLevels(layouts, body),
    lists: { instance: 0, last: undefined },
  };
  const sections: ISectionOptions[] = [];
  let tableCount = 0;
  let imageCount = 0;

  for (const layout of layouts) {
    throwIfAborted(ctx.signal);
    const page = await pageSection(layout, sections.length === 0, context);
    tableCount += page.tableCount;
    imageCount += page.imageCount;
    sections.push(page.section);
    source.written(sections.length - 1);
  }
  await doc.destroy();

  const bytes = await packDocument(baseName(inputs[0].name), body, sections);
  const notes = [...source.notes];
  if (tableCount) notes.push(`${tableCount} table${tableCount === 1 ? '' : 's'} rebuilt as Word tables.`);
  if (imageCount) notes.push(`${imageCount} picture${imageCount === 1 ? '' : 's'} placed.`);
  return {
    bytes,
    filename: `${baseName(inputs[0].name)}.docx`,
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    notes,
  };
};

/** The .docx of the pages' sections, with the numbering the lists use. */
async function packDocument(title: string, bodySize: number, sections: ISectionOptions[]): Promise<Uint8Array> {
  const document = new Document({
    creator: 'Folio',
    title,
    styles: { default: { document: { run: { font: 'Arial', size: halfPoints(bodySize) } } } },
    numbering: {
      config: (['.', ')'] as const).map((mark) => ({
        reference: mark === '.' ? 'folio-numbers' : 'folio-numbers-paren',
        levels: [
          {
            level: 0,
            format: LevelFormat.DECIMAL,
            text: `%1${mark}`,
            alignment: AlignmentType.LEFT,
            style: { paragraph: { indent: { left: 720, hanging: 360 } } },
          },
        ],
      })),
    },
    sections,
  });
  const blob = await Packer.toBlob(document);
  return new Uint8Array(await blob.arrayBuffer());
}

/** An image box clipped to the page (images often bleed off the edges). */
function clipBox(box: Box, layout: PageLayout): Box | undefined {
  const x = Math.max(0, box.x);
  const top = Math.max(0, box.top);
  const right = Math.min(layout.width, box.x + box.width);
  const bottom = Math.min(layout.height, box.top + box.height);
  if (right - x < 4 || bottom - top < 4) return undefined;
  return { x, top, width: right - x, height: bottom - top };
}
