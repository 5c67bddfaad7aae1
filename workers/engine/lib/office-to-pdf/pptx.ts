/**
 * Renders a .pptx: one PDF page per slide at the presentation's size, with the slide's background,
 * shapes and text boxes (drawn by shapes.ts, the shape routine shared with Word and Excel: preset and
 * custom geometries with their fills and outlines), pictures and tables. Placeholders take their
 * position and text style from the slide layout and master, theme colours are resolved through the
 * master's colour map, and autofit scaling is applied. Charts are drawn by charts/ in their frames;
 * SmartArt from its pre-rendered drawing part.
 */
import type JSZip from 'jszip';
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import type { Border, Inline, Rgb, Table, TableCell, TableRow } from './model.ts';
import { lineOf, readTableStyles, styleCell, tableFlags, type TableStyles } from './pptx-table-style.ts';
import { drawPicture, paragraph as makeParagraph } from './model.ts';
import { attr, find, imageMime, kid, kids, num, parseXml, readRels, zipText, type XmlElement } from './xml.ts';
import type { TextContext } from './text.ts';
import { pixelDensity } from './images.ts';
import { measureBlocks, type OutlineEntry } from './flow.ts';
import { throwIfAborted } from '../errors.ts';
import { layoutChart, type ChartTheme } from './charts/index.ts';
import { noteChartGaps, readChartFrame, smartArtTree } from './graphics.ts';
import {
  EMU,
  colorResolver,
  cropOf,
  groupTransform,
  identity,
  paintBackground,
  prepareShape,
  readDrawingTheme,
  xfrmBox,
  type Box,
  type DrawingTheme,
  type ShapeEnv,
  type Transform,
} from './shapes.ts';

interface Part {
  path: string;
  root: XmlElement;
  rels: Awaited<ReturnType<typeof readRels>>;
}

async function readPart(zip: JSZip, path: string): Promise<Part | undefined> {
  const text = await zipText(zip, path);
  if (!text) return undefined;
  return { path, root: parseXml(text), rels: await readRels(zip, path) };
}

function relTarget(part: Part, typeSuffix: string): string | undefined {
  for (const rel of part.rels.values()) if (rel.type.endsWith(typeSuffix)) return rel.target;
  return undefined;
}

export interface PptxResult {
  pages: number;
  notes: string[];
  /** Each slide's title, for the PDF's bookmarks. */
  outline: OutlineEntry[];
}

export interface PptxOptions {
  signal?: AbortSignal;
  progress?: (done: number, total: number) => void;
  slides?: (count: number) => number[];
  includeHidden?: boolean;
}

type PictureOf = NonNullable<ShapeEnv['picture']>;

/** What every slide of a presentation shares. */
interface Deck {
  zip: JSZip;
  doc: PDFDocument;
  ctx: TextContext;
  notes: Set<string>;
  theme: DrawingTheme;
  tableStyles: TableStyles;
  slideWidth: number;
  slideHeight: number;
  slidePaths: string[];
  /** Pictures' bytes by path, read once: the same array is embedded once (ImageCache), however many slides show it. */
  readPicture(target: string): Promise<Uint8Array> | undefined;
  /** The picture an a:blipFill of this part names (picture fills of shapes and backgrounds). */
  pictureOf(part: Part): PictureOf;
}

/** One slide being drawn: its part, layout and master, its page, and how it resolves colours. */
interface Slide {
  deck: Deck;
  slideNumber: number;
  slide: Part;
  layout?: Part;
  master?: Part;
  page: PDFPage;
  colorOf: ShapeEnv['color'];
  /** A colour name through the master's colour map: bg1 → lt1, tx1 → dk1… */
  mapped(name: string): string;
  shapeEnv: ShapeEnv;
  dctx: { pageNumber: number; pageCount: number };
  chartTheme: ChartTheme;
}

interface PlaceholderKey {
  type: string;
  idx?: string;
}

function placeholderKey(ph: XmlElement | undefined): PlaceholderKey | undefined {
  return ph ? { type: attr(ph, 'type') ?? 'body', idx: attr(ph, 'idx') } : undefined;
}

/** Placeholders of the layout and master, by index, else by type (a title matches a centred title). */
function findPlaceholder(part: Part | undefined, key: PlaceholderKey): XmlElement | undefined {
  const shapes = part ? (Array.from(part.root.getElementsByTagName('p:sp')) as XmlElement[]) : [];
  const withPh = shapes.map((sp) => ({ sp, ph: placeholderKey(find(sp, 'p:ph')) })).filter((s) => s.ph);
  const titles = ['title', 'ctrTitle'];
  return (
    withPh.find((s) => key.idx !== undefined && s.ph!.idx === key.idx)?.sp ??
    withPh.find((s) => s.ph!.type === key.type || (titles.includes(key.type) && titles.includes(s.ph!.type)))?.sp
  );
}

/** The master's text style for a placeholder type (titles, body text, other text). */
function textStyleFor(master: Part | undefined, phType: string | undefined): XmlElement | undefined {
  const txStyles = kid(master?.root, 'p:txStyles');
  if (!phType) return kid(txStyles, 'p:otherStyle');
  if (phType === 'title' || phType === 'ctrTitle') return kid(txStyles, 'p:titleStyle');
  if (['body', 'subTitle', 'obj'].includes(phType)) return kid(txStyles, 'p:bodyStyle');
  return kid(txStyles, 'p:otherStyle');
}

/** Where an element sits: its own xfrm, else its placeholder's on the layout, else on the master. */
function placedBox(s: Slide, el: XmlElement, spPrTag: string): Box | undefined {
  const ph = placeholderKey(find(kid(el, 'p:nvSpPr') ?? kid(el, 'p:nvPicPr') ?? kid(el, 'p:nvCxnSpPr'), 'p:ph'));
  const layoutSp = ph ? findPlaceholder(s.layout, ph) : undefined;
  const masterSp = ph ? findPlaceholder(s.master, ph) : undefined;
  return (
    xfrmBox(kid(kid(el, spPrTag), 'a:xfrm')) ??
    xfrmBox(kid(kid(layoutSp, 'p:spPr'), 'a:xfrm')) ??
    xfrmBox(kid(kid(masterSp, 'p:spPr'), 'a:xfrm'))
  );
}

async function readDeck(zip: JSZip, doc: PDFDocument, ctx: TextContext): Promise<Deck> {
  const presentation = await readPart(zip, 'ppt/presentation.xml');
  const tableStyles = readTableStyles(await zipText(zip, 'ppt/tableStyles.xml'));
  if (!presentation) throw new Error('ppt/presentation.xml is missing');
  const size = kid(presentation.root, 'p:sldSz');
  const themePath = relTarget(presentation, '/theme');
  const themePart = themePath ? await readPart(zip, themePath) : undefined;
  const slideIds = kids(kid(presentation.root, 'p:sldIdLst'), 'p:sldId');
  const pictureBytes = new Map<string, Promise<Uint8Array>>();
  const readPicture = (target: string): Promise<Uint8Array> | undefined => {
    const file = zip.file(target);
    if (!file) return undefined;
    if (!pictureBytes.has(target)) pictureBytes.set(target, file.async('uint8array'));
    return pictureBytes.get(target);
  };
  return {
    zip,
    doc,
    ctx,
    notes: new Set<string>(),
    theme: readDrawingTheme(themePart?.root),
    tableStyles,
    slideWidth: (num(size, 'cx') ?? 9144000) * EMU,
    slideHeight: (num(size, 'cy') ?? 6858000) * EMU,
    slidePaths: slideIds
      .map((s) => presentation.rels.get(attr(s, 'r:id') ?? '')?.target)
      .filter((p): p is string => Boolean(p)),
    readPicture,
    pictureOf: (part) => async (blipFill) => {
      const id = attr(kid(blipFill, 'a:blip'), 'r:embed');
      const target = id ? part.rels.get(id)?.target : undefined;
      const bytes = target ? await readPicture(target) : undefined;
      return bytes ? { image: await ctx.images.get(bytes, imageMime(target!)), dpi: pixelDensity(bytes) } : undefined;
    },
  };
}

/** The slide's page and how its shapes resolve colours, placeholders, pictures and links. */
async function openSlide(deck: Deck, slide: Part, slideNumber: number): Promise<Slide> {
  const { theme, ctx, notes } = deck;
  const layoutPath = relTarget(slide, '/slideLayout');
  const layout = layoutPath ? await readPart(deck.zip, layoutPath) : undefined;
  const masterPath = layout ? relTarget(layout, '/slideMaster') : undefined;
  const master = masterPath ? await readPart(deck.zip, masterPath) : undefined;
  const clrMap = kid(master?.root, 'p:clrMap');
  const defaults: Record<string, string> = { bg1: 'lt1', tx1: 'dk1', bg2: 'lt2', tx2: 'dk2' };
  const mapped = (name: string) => attr(clrMap, name) ?? defaults[name] ?? name;
  const colorOf = colorResolver(theme, clrMap);
  const page = deck.doc.addPage([deck.slideWidth, deck.slideHeight]);
  const shapeEnv: ShapeEnv = {
    ctx,
    color: colorOf,
    theme,
    textColor: theme.colors[mapped('tx1')] ?? [0, 0, 0],
    defaultSize: 18,
    notes,
    picture: deck.pictureOf(slide),
    hyperlink: (rId) => (slide.rels.get(rId)?.external ? slide.rels.get(rId)?.target : undefined),
    otherStyle: kid(kid(master?.root, 'p:txStyles'), 'p:otherStyle'),
    placeholder: (sp) => {
      const ph = placeholderKey(find(kid(sp, 'p:nvSpPr') ?? kid(sp, 'p:nvCxnSpPr'), 'p:ph'));
      return (
        ph && {
          type: ph.type,
          layoutSp: findPlaceholder(layout, ph),
          masterSp: findPlaceholder(master, ph),
          textStyle: textStyleFor(master, ph.type),
        }
      );
    },
  };
  const accents = [1, 2, 3, 4, 5, 6].map((i) => theme.colors[`accent${i}`]).filter(Boolean);
  return {
    deck,
    slideNumber,
    slide,
    layout,
    master,
    page,
    colorOf,
    mapped,
    shapeEnv,
    dctx: { pageNumber: slideNumber, pageCount: deck.slidePaths.length },
    chartTheme: { accents, font: theme.minorFont, color: colorOf },
  };
}

/**
 * Background: the slide's, else the layout's, else the master's (colour, gradient, picture or theme
 * style), on white.
 */
async function paintSlideBackground(s: Slide): Promise<void> {
  const { slideWidth, slideHeight, theme } = s.deck;
  s.page.drawRectangle({ x: 0, y: 0, width: slideWidth, height: slideHeight, color: rgb(1, 1, 1) });
  for (const part of [s.slide, s.layout, s.master]) {
    const bg = find(part?.root, 'p:bg');
    if (!bg || !part) continue;
    const env = { color: s.colorOf, theme, picture: s.deck.pictureOf(part) };
    const painted = await paintBackground(s.page, bg, slideWidth, slideHeight, env);
    if (!painted && kid(kid(bg, 'p:bgPr'), 'a:blipFill'))
      s.deck.notes.add('picture backgrounds that could not be read were replaced by white');
    break;
  }
}

/** A shape (or connector) with its text, through the shape routine shared with Word and Excel. */
async function drawShape(s: Slide, sp: XmlElement, transform: Transform, env = s.shapeEnv): Promise<void> {
  const box = placedBox(s, sp, 'p:spPr');
  if (!box) return;
  const paint = await prepareShape(sp, transform(box), env);
  paint?.(s.page, 0, s.deck.slideHeight, s.dctx);
}

/** Draws a picture into its box, cropped by its srcRect (fractions in 1/1000 %). */
async function drawPictureIn(s: Slide, part: Part, pic: XmlElement, box: Box): Promise<void> {
  const { page } = s;
  const { slideHeight } = s.deck;
  const id = attr(find(pic, 'a:blip'), 'r:embed');
  const target = id ? part.rels.get(id)?.target : undefined;
  if (!target) return;
  const bytes = s.deck.readPicture(target);
  if (!bytes) return;
  let image;
  try {
    image = await s.deck.ctx.images.get(await bytes, imageMime(target));
  } catch {
    // A broken picture, or a metafile outside what metafile/ draws (ImageCache notes those): a light frame.
    const format = target.split('.').pop()?.toUpperCase();
    if (format !== 'EMF' && format !== 'WMF')
      s.deck.notes.add(`pictures in ${format} format were drawn as empty frames`);
    const y = slideHeight - box.y - box.height;
    page.drawRectangle({
      x: box.x,
      y,
      width: box.width,
      height: box.height,
      borderColor: rgb(0.8, 0.8, 0.8),
      borderWidth: 0.5,
    });
    return;
  }
  const bottom = slideHeight - box.y - box.height;
  drawPicture(page, image, { x: box.x, y: bottom, width: box.width, height: box.height }, cropOf(pic));
  // The picture's own outline (spPr a:ln or its style's line).
  (await prepareShape(pic, box, s.shapeEnv, { outlineOnly: true }))?.(page, 0, slideHeight, s.dctx);
}

/** A table cell's paragraphs: runs in the theme's minor font, styled by the table style unless they say otherwise. */
function cellParagraphs(s: Slide, tc: XmlElement, styled: ReturnType<typeof styleCell>) {
  const { theme } = s.deck;
  const aligns: Record<string, 'center' | 'right' | 'justify'> = { ctr: 'center', r: 'right', just: 'justify' };
  return kids(kid(tc, 'a:txBody'), 'a:p').map((p) =>
    makeParagraph(
      kids(p, 'a:r').map((r): Inline => {
        const rPr = kid(r, 'a:rPr');
        const flag = (name: string, fallback: boolean | undefined) =>
          attr(rPr, name) === undefined ? fallback : attr(rPr, name) === '1';
        const color = s.colorOf(kid(rPr, 'a:solidFill')) ?? styled.color ?? theme.colors[s.mapped('tx1')];
        const size = (num(rPr, 'sz') ?? 1800) / 100;
        const style = {
          size,
          font: theme.minorFont,
          bold: flag('b', styled.bold),
          italic: flag('i', styled.italic),
          color,
        };
        return { kind: 'text', text: kid(r, 'a:t')?.textContent ?? '', style };
      }),
      { align: aligns[attr(kid(p, 'a:pPr'), 'algn') ?? ''] ?? 'left' },
    ),
  );
}

/**
 * DrawingML's vertical text (a:tcPr vert) as a turn of the cell's text: East Asian and Mongolian
 * vertical text turn Latin letters as "vert" does (their upright CJK characters are not drawn upright).
 */
const TURNED_TEXT: Record<string, TableCell['textDirection']> = {
  vert: 'down',
  eaVert: 'down',
  mongolianVert: 'down',
  vert270: 'up',
};

const isOn = (value: string | undefined) => value === '1' || value === 'true';

/**
 * An a:tbl as the layout model's table: the table style's look per cell, with the cell's own fill,
 * lines, anchor and margins over it.
 */
function readTable(s: Slide, tbl: XmlElement): Table {
  const widths = kids(kid(tbl, 'a:tblGrid'), 'a:gridCol').map((c) => (num(c, 'w') ?? 0) * EMU);
  // The table's style (or the presentation's default style) and its header/banding flags.
  const tblPr = kid(tbl, 'a:tblPr');
  const { tableStyles } = s.deck;
  const styleId = kid(tblPr, 'a:tableStyleId')?.textContent?.trim() || tableStyles.defaultId;
  const style = styleId ? tableStyles.byId.get(styleId) : undefined;
  const flags = tableFlags(tblPr);
  const trs = kids(tbl, 'a:tr');
  const rows: TableRow[] = trs.map((tr, rowIndex) => {
    let column = 0;
    const cells: Array<TableCell & { column: number }> = [];
    for (const tc of kids(tr, 'a:tc')) {
      // A cell covered by the one on its left (hMerge) is listed in the grid column that cell's gridSpan
      // already counted; a cell covered by the one above (vMerge) holds its own column(s).
      if (isOn(attr(tc, 'hMerge'))) continue;
      const span = num(tc, 'gridSpan') ?? 1;
      const start = column;
      column += span;
      if (isOn(attr(tc, 'vMerge'))) continue;
      const tcPr = kid(tc, 'a:tcPr');
      const styled = styleCell(style, flags, rowIndex, start, trs.length, widths.length, s.colorOf);
      const text = cellParagraphs(s, tc, styled);
      // The cell's own fill, lines, anchor and margins win over the style.
      const fill = solidFill(tcPr, s.colorOf);
      const side = (own: string, fromStyle: Border | null | undefined) => {
        const line = lineOf(kid(tcPr, own), s.colorOf);
        const border = line === undefined ? fromStyle : line;
        return border ?? undefined;
      };
      const margin = (name: string, fallback: number) => (num(tcPr, name) ?? fallback) * EMU;
      const anchor = attr(tcPr, 'anchor');
      const { borders } = styled;
      cells.push({
        column: start,
        colSpan: span,
        rowSpan: num(tc, 'rowSpan') ?? 1,
        blocks: text,
        shading: fill === 'none' ? undefined : (fill ?? styled.fill),
        borders: {
          top: side('a:lnT', borders.top),
          bottom: side('a:lnB', borders.bottom),
          left: side('a:lnL', borders.left),
          right: side('a:lnR', borders.right),
        },
        verticalAlign: anchor === 'ctr' ? 'middle' : anchor === 'b' ? 'bottom' : 'top',
        textDirection: TURNED_TEXT[attr(tcPr, 'vert') ?? ''],
        padding: {
          top: margin('marT', 45720),
          bottom: margin('marB', 45720),
          left: margin('marL', 91440),
          right: margin('marR', 91440),
        },
      });
    }
    return { cells, minHeight: (num(tr, 'h') ?? 0) * EMU };
  });
  return { kind: 'table', columnWidths: widths, rows, indentLeft: 0, align: 'left' };
}

function solidFill(spPr: XmlElement | undefined, colorOf: ShapeEnv['color']): Rgb | 'none' | undefined {
  if (!spPr) return undefined;
  if (kid(spPr, 'a:noFill')) return 'none';
  const fill = kid(spPr, 'a:solidFill');
  return fill ? colorOf(fill) : undefined;
}

async function drawTable(s: Slide, frame: XmlElement, transform: Transform): Promise<void> {
  const box0 = xfrmBox(kid(frame, 'p:xfrm'));
  const tbl = find(frame, 'a:tbl');
  if (!box0 || !tbl) return;
  const box = transform(box0);
  const measured = await measureBlocks([readTable(s, tbl)], box.width, s.deck.ctx);
  measured.draw(s.page, box.x, s.deck.slideHeight - box.y, {
    pageNumber: s.slideNumber,
    pageCount: s.deck.slidePaths.length,
  });
}

/** A p:graphicFrame: a table, a chart, an embedded object's preview, or SmartArt's pre-rendered shapes. */
async function drawGraphicFrame(s: Slide, frame: XmlElement, transform: Transform): Promise<void> {
  const { zip, notes } = s.deck;
  const frameBox = xfrmBox(kid(frame, 'p:xfrm'));
  if (find(frame, 'a:tbl')) await drawTable(s, frame, transform);
  else if (find(frame, 'c:chart')) {
    const chart = frameBox ? await readChartFrame(zip, s.slide.rels, frame, s.chartTheme) : undefined;
    if (chart && frameBox) {
      noteChartGaps(chart, notes);
      const box = transform(frameBox);
      (await layoutChart(chart, box.width, box.height, s.deck.ctx)).draw(s.page, box.x, s.deck.slideHeight - box.y);
    } else notes.add('a chart could not be read and was left out');
  } else if (find(frame, 'p:oleObj')) {
    // An embedded object (a worksheet, a document…): its preview picture in the frame (often a
    // metafile, drawn by metafile/), from the mc:Fallback or the object itself.
    const preview = find(frame, 'p:pic');
    if (preview && frameBox) await drawPictureIn(s, s.slide, preview, transform(frameBox));
    else notes.add('embedded objects without a preview picture were left out');
  } else {
    // SmartArt: its pre-rendered shapes, in the frame's coordinates.
    const tree = frameBox ? await smartArtTree(zip, s.slide.rels, frame) : undefined;
    if (tree && frameBox)
      await drawTree(s, tree, (box) => transform({ ...box, x: frameBox.x + box.x, y: frameBox.y + box.y }));
    else notes.add('diagrams (SmartArt) without a pre-rendered drawing were left out');
  }
}

async function drawTree(s: Slide, tree: XmlElement | undefined, transform: Transform): Promise<void> {
  for (const child of kids(tree)) {
    if (child.nodeName === 'p:sp' || child.nodeName === 'p:cxnSp') await drawShape(s, child, transform);
    else if (child.nodeName === 'p:pic') {
      const box = placedBox(s, child, 'p:spPr');
      if (box) await drawPictureIn(s, s.slide, child, transform(box));
    } else if (child.nodeName === 'p:graphicFrame') await drawGraphicFrame(s, child, transform);
    else if (child.nodeName === 'p:grpSp') await drawTree(s, child, groupTransform(child, transform));
    else if (child.nodeName === 'mc:AlternateContent') await drawTree(s, kid(child, 'mc:Fallback'), transform);
  }
}

/**
 * Master and layout decorations (not placeholders), which lie under the slide's own shapes. A slide
 * with showMasterSp="0" hides both; a layout with it hides the master's.
 */
async function drawDecorations(s: Slide): Promise<void> {
  if (attr(s.slide.root, 'showMasterSp') === '0') return;
  const masterHidden = attr(s.layout?.root, 'showMasterSp') === '0';
  for (const part of [masterHidden ? undefined : s.master, s.layout]) {
    if (!part) continue;
    for (const el of kids(find(part.root, 'p:spTree')).filter((child) => !find(child, 'p:ph'))) {
      if (el.nodeName === 'p:sp') await drawShape(s, el, identity, { ...s.shapeEnv, picture: s.deck.pictureOf(part) });
      else if (el.nodeName === 'p:pic') {
        // A picture of the master or layout (a logo, a band): found through that part's relationships.
        const box = xfrmBox(kid(kid(el, 'p:spPr'), 'a:xfrm'));
        if (box) await drawPictureIn(s, part, el, box);
      }
    }
  }
}

/** The text of the slide's title placeholder, for its bookmark. */
function slideTitle(slide: Part): string {
  const shapes = Array.from(slide.root.getElementsByTagName('p:sp')) as XmlElement[];
  const titleShape = shapes.find((sp) => ['title', 'ctrTitle'].includes(attr(find(sp, 'p:ph'), 'type') ?? ''));
  const texts = titleShape ? (Array.from(titleShape.getElementsByTagName('a:t')) as XmlElement[]) : [];
  return texts
    .map((t) => t.textContent ?? '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export async function renderPptx(
  zip: JSZip,
  doc: PDFDocument,
  ctx: TextContext,
  options: PptxOptions,
): Promise<PptxResult> {
  const deck = await readDeck(zip, doc, ctx);
  const { slidePaths, notes } = deck;
  const chosen = options.slides ? options.slides(slidePaths.length) : slidePaths.map((_, i) => i + 1);
  let done = 0;
  const outline: OutlineEntry[] = [];
  let hiddenSlides = 0;
  for (const slideNumber of chosen) {
    throwIfAborted(options.signal);
    const slide = await readPart(zip, slidePaths[slideNumber - 1]);
    if (!slide) continue;
    // Hidden slides are left out, as PowerPoint's own PDF export does — unless asked for by number.
    if (!options.includeHidden && attr(slide.root, 'show') === '0') {
      hiddenSlides++;
      options.progress?.(++done, chosen.length);
      continue;
    }
    const s = await openSlide(deck, slide, slideNumber);
    await paintSlideBackground(s);
    await drawDecorations(s);
    await drawTree(s, find(slide.root, 'p:spTree'), identity);
    const title = slideTitle(slide);
    outline.push({
      level: 0,
      title: title || `Slide ${slideNumber}`,
      pageIndex: doc.getPageCount() - 1,
      top: deck.slideHeight,
    });
    options.progress?.(++done, chosen.length);
  }
  if (hiddenSlides) {
    const were = hiddenSlides > 1 ? 's were' : ' was';
    notes.add(
      `${hiddenSlides} hidden slide${were} left out, as PowerPoint leaves them out of a PDF ` +
        '(choose slides by number to include them)',
    );
  }
  return { pages: chosen.length - hiddenSlides, notes: [...notes], outline };
}
