/**
 * Renders a .pptx: one PDF page per slide at the presentation's size, with the slide's background,
 * shapes and text boxes (drawn by shapes.ts, the shape routine shared with Word and Excel: preset and
 * custom geometries with their fills and outlines), pictures and tables. Placeholders take their position and text style from the slide layout and
 * master, theme colours are resolved through the master's colour map, and autofit scaling is applied.
 * Charts are drawn by chart.ts in their frames; SmartArt from its pre-rendered drawing part.
 */
import type JSZip from 'jszip';
import { PDFDocument, clip, endPath, popGraphicsState, pushGraphicsState, rectangle, rgb } from 'pdf-lib';
import type { Border, Inline, Rgb, Table, TableCell, TableRow } from './model.ts';
import { lineOf, readTableStyles, styleCell, tableFlags } from './pptx-table-style.ts';
import { paragraph as makeParagraph } from './model.ts';
import { attr, find, imageMime, kid, kids, num, parseXml, readRels, zipText, type XmlElement } from './xml.ts';
import type { TextContext } from './text.ts';
import { pixelDensity } from './images.ts';
import { measureBlocks, type OutlineEntry } from './flow.ts';
import { throwIfAborted } from '../errors.ts';
import { layoutChart, type ChartTheme } from './charts/index.ts';
import { readChartFrame, smartArtTree } from './graphics.ts';
import { EMU, colorResolver, groupTransform, identity, paintBackground, prepareShape, readDrawingTheme, xfrmBox, type Box, type DrawingTheme, type ShapeEnv, type Transform } from './shapes.ts';

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

export async function renderPptx(zip: JSZip, doc: PDFDocument, ctx: TextContext, options: { signal?: AbortSignal; progress?: (done: number, total: number) => void; slides?: (count: number) => number[]; includeHidden?: boolean }): Promise<PptxResult> {
  const notes = new Set<string>();
  const presentation = await readPart(zip, 'ppt/presentation.xml');
  const tableStyles = readTableStyles(await zipText(zip, 'ppt/tableStyles.xml'));
  if (!presentation) throw new Error('ppt/presentation.xml is missing');
  const size = kid(presentation.root, 'p:sldSz');
  const slideWidth = (num(size, 'cx') ?? 9144000) * EMU;
  const slideHeight = (num(size, 'cy') ?? 6858000) * EMU;

  // Theme.
  const themePath = relTarget(presentation, '/theme');
  const themePart = themePath ? await readPart(zip, themePath) : undefined;
  const theme: DrawingTheme = readDrawingTheme(themePart?.root);

  const slideIds = kids(kid(presentation.root, 'p:sldIdLst'), 'p:sldId');
  const slidePaths = slideIds.map((s) => presentation.rels.get(attr(s, 'r:id') ?? '')?.target).filter((p): p is string => Boolean(p));
  const chosen = options.slides ? options.slides(slidePaths.length) : slidePaths.map((_, i) => i + 1);

  let done = 0;
  const outline: OutlineEntry[] = [];
  // Pictures' bytes by path, read once: the same array is embedded once (ImageCache), however many slides show it.
  const pictureBytes = new Map<string, Promise<Uint8Array>>();
  const readPicture = (target: string): Promise<Uint8Array> | undefined => {
    const file = zip.file(target);
    if (!file) return undefined;
    if (!pictureBytes.has(target)) pictureBytes.set(target, file.async('uint8array'));
    return pictureBytes.get(target);
  };
  /** The picture an a:blipFill of this part names (picture fills of shapes and backgrounds). */
  const pictureOf = (part: Part) => async (blipFill: XmlElement) => {
    const id = attr(kid(blipFill, 'a:blip'), 'r:embed');
    const target = id ? part.rels.get(id)?.target : undefined;
    const bytes = target ? await readPicture(target) : undefined;
    return bytes ? { image: await ctx.images.get(bytes, imageMime(target!)), dpi: pixelDensity(bytes) } : undefined;
  };
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
    const layoutPath = relTarget(slide, '/slideLayout');
    const layout = layoutPath ? await readPart(zip, layoutPath) : undefined;
    const masterPath = layout ? relTarget(layout, '/slideMaster') : undefined;
    const master = masterPath ? await readPart(zip, masterPath) : undefined;

    // Colour map of the master: bg1 → lt1, tx1 → dk1…
    const clrMap = kid(master?.root, 'p:clrMap');
    const mapped = (name: string) => attr(clrMap, name) ?? ({ bg1: 'lt1', tx1: 'dk1', bg2: 'lt2', tx2: 'dk2' } as Record<string, string>)[name] ?? name;
    const colorOf = colorResolver(theme, clrMap);
    const solidFill = (spPr: XmlElement | undefined): Rgb | 'none' | undefined => {
      if (!spPr) return undefined;
      if (kid(spPr, 'a:noFill')) return 'none';
      const fill = kid(spPr, 'a:solidFill');
      return fill ? colorOf(fill) : undefined;
    };

    const page = doc.addPage([slideWidth, slideHeight]);

    // Background: the slide's, else the layout's, else the master's (colour, gradient, picture or theme style), on white.
    page.drawRectangle({ x: 0, y: 0, width: slideWidth, height: slideHeight, color: rgb(1, 1, 1) });
    for (const part of [slide, layout, master]) {
      const bg = find(part?.root, 'p:bg');
      if (!bg || !part) continue;
      const painted = await paintBackground(page, bg, slideWidth, slideHeight, { color: colorOf, theme, picture: pictureOf(part) });
      if (!painted && kid(kid(bg, 'p:bgPr'), 'a:blipFill')) notes.add('picture backgrounds that could not be read were replaced by white');
      break;
    }

    // Placeholders of the layout and master, by type and index.
    const placeholderKey = (ph: XmlElement | undefined) => (ph ? { type: attr(ph, 'type') ?? 'body', idx: attr(ph, 'idx') } : undefined);
    const findPlaceholder = (part: Part | undefined, key: { type: string; idx?: string }): XmlElement | undefined => {
      const shapes = part ? Array.from(part.root.getElementsByTagName('p:sp')) as XmlElement[] : [];
      const withPh = shapes.map((sp) => ({ sp, ph: placeholderKey(find(sp, 'p:ph')) })).filter((s) => s.ph);
      return (
        withPh.find((s) => key.idx !== undefined && s.ph!.idx === key.idx)?.sp ??
        withPh.find((s) => s.ph!.type === key.type || (['title', 'ctrTitle'].includes(key.type) && ['title', 'ctrTitle'].includes(s.ph!.type)))?.sp
      );
    };


    const textStyleFor = (phType: string | undefined) => {
      const txStyles = kid(master?.root, 'p:txStyles');
      if (!phType) return kid(txStyles, 'p:otherStyle');
      if (phType === 'title' || phType === 'ctrTitle') return kid(txStyles, 'p:titleStyle');
      if (['body', 'subTitle', 'obj'].includes(phType)) return kid(txStyles, 'p:bodyStyle');
      return kid(txStyles, 'p:otherStyle');
    };

    /** Where an element sits: its own xfrm, else its placeholder's on the layout, else on the master. */
    const placedBox = (el: XmlElement, spPrTag: string) => {
      const ph = placeholderKey(find(kid(el, 'p:nvSpPr') ?? kid(el, 'p:nvPicPr') ?? kid(el, 'p:nvCxnSpPr'), 'p:ph'));
      const layoutSp = ph ? findPlaceholder(layout, ph) : undefined;
      const masterSp = ph ? findPlaceholder(master, ph) : undefined;
      const box = xfrmBox(kid(kid(el, spPrTag), 'a:xfrm')) ?? xfrmBox(kid(kid(layoutSp, 'p:spPr'), 'a:xfrm')) ?? xfrmBox(kid(kid(masterSp, 'p:spPr'), 'a:xfrm'));
      return { ph, layoutSp, masterSp, box };
    };

    const shapeEnv: ShapeEnv = {
      ctx,
      color: colorOf,
      theme,
      textColor: theme.colors[mapped('tx1')] ?? [0, 0, 0],
      defaultSize: 18,
      notes,
      picture: pictureOf(slide),
      hyperlink: (rId) => (slide.rels.get(rId)?.external ? slide.rels.get(rId)?.target : undefined),
      otherStyle: kid(kid(master?.root, 'p:txStyles'), 'p:otherStyle'),
      placeholder: (sp) => {
        const ph = placeholderKey(find(kid(sp, 'p:nvSpPr') ?? kid(sp, 'p:nvCxnSpPr'), 'p:ph'));
        return ph && { type: ph.type, layoutSp: findPlaceholder(layout, ph), masterSp: findPlaceholder(master, ph), textStyle: textStyleFor(ph.type) };
      },
    };
    const dctx = { pageNumber: slideNumber, pageCount: slidePaths.length };

    /** A shape (or connector) with its text, through the shape routine shared with Word and Excel. */
    const drawShape = async (sp: XmlElement, transform: Transform, env = shapeEnv) => {
      const { box } = placedBox(sp, 'p:spPr');
      if (!box) return;
      const paint = await prepareShape(sp, transform(box), env);
      paint?.(page, 0, slideHeight, dctx);
    };

    /** Draws a picture into its box, cropped by its srcRect (fractions in 1/1000 %). */
    const drawPictureIn = async (part: Part, pic: XmlElement, box: Box) => {
      const id = attr(find(pic, 'a:blip'), 'r:embed');
      const target = id ? part.rels.get(id)?.target : undefined;
      if (!target) return;
      const bytes = readPicture(target);
      if (!bytes) return;
      let image;
      try {
        image = await ctx.images.get(await bytes, imageMime(target));
      } catch {
        // A metafile (EMF/WMF) or a broken picture: a light frame where it stands.
        notes.add(`pictures in ${target.split('.').pop()?.toUpperCase()} format were drawn as empty frames`);
        page.drawRectangle({ x: box.x, y: slideHeight - box.y - box.height, width: box.width, height: box.height, borderColor: rgb(0.8, 0.8, 0.8), borderWidth: 0.5 });
        return;
      }
      const crop = find(pic, 'a:srcRect');
      const [l, t, r, b] = ['l', 't', 'r', 'b'].map((side) => (num(crop, side) ?? 0) / 100000);
      const fullWidth = box.width / Math.max(0.01, 1 - l - r);
      const fullHeight = box.height / Math.max(0.01, 1 - t - b);
      const bottom = slideHeight - box.y - box.height;
      const cropped = l || t || r || b;
      if (cropped) page.pushOperators(pushGraphicsState(), rectangle(box.x, bottom, box.width, box.height), clip(), endPath());
      page.drawImage(image, { x: box.x - l * fullWidth, y: bottom - b * fullHeight, width: fullWidth, height: fullHeight });
      if (cropped) page.pushOperators(popGraphicsState());
      // The picture's own outline (spPr a:ln or its style's line).
      (await prepareShape(pic, box, shapeEnv, { outlineOnly: true }))?.(page, 0, slideHeight, dctx);
    };

    const drawPicture = async (pic: XmlElement, transform: Transform) => {
      const { box } = placedBox(pic, 'p:spPr');
      if (box) await drawPictureIn(slide, pic, transform(box));
    };

    const drawTable = async (frame: XmlElement, transform: Transform) => {
      const box0 = xfrmBox(kid(frame, 'p:xfrm'));
      const tbl = find(frame, 'a:tbl');
      if (!box0 || !tbl) return;
      const box = transform(box0);
      const widths = kids(kid(tbl, 'a:tblGrid'), 'a:gridCol').map((c) => (num(c, 'w') ?? 0) * EMU);
      // The table's style (or the presentation's default style) and its header/banding flags.
      const tblPr = kid(tbl, 'a:tblPr');
      const styleId = kid(tblPr, 'a:tableStyleId')?.textContent?.trim() || tableStyles.defaultId;
      const style = styleId ? tableStyles.byId.get(styleId) : undefined;
      const flags = tableFlags(tblPr);
      const trs = kids(tbl, 'a:tr');
      const rows: TableRow[] = trs.map((tr, rowIndex) => {
        let column = 0;
        const cells: Array<TableCell & { column: number }> = [];
        for (const tc of kids(tr, 'a:tc')) {
          const span = num(tc, 'gridSpan') ?? 1;
          const start = column;
          column += span;
          if (attr(tc, 'hMerge') === '1' || attr(tc, 'vMerge') === '1') continue;
          const tcPr = kid(tc, 'a:tcPr');
          const styled = styleCell(style, flags, rowIndex, start, trs.length, widths.length, colorOf);
          const text = kids(kid(tc, 'a:txBody'), 'a:p').map((p) => makeParagraph(
            kids(p, 'a:r').map((r): Inline => {
              const rPr = kid(r, 'a:rPr');
              const flag = (name: string, fallback: boolean | undefined) => (attr(rPr, name) === undefined ? fallback : attr(rPr, name) === '1');
              return { kind: 'text', text: kid(r, 'a:t')?.textContent ?? '', style: { size: (num(rPr, 'sz') ?? 1800) / 100, font: theme.minorFont, bold: flag('b', styled.bold), italic: flag('i', styled.italic), color: colorOf(kid(rPr, 'a:solidFill')) ?? styled.color ?? theme.colors[mapped('tx1')] } };
            }),
            { align: ({ ctr: 'center', r: 'right', just: 'justify' } as const)[attr(kid(p, 'a:pPr'), 'algn') ?? ''] ?? 'left' },
          ));
          // The cell's own fill, lines, anchor and margins win over the style.
          const fill = solidFill(tcPr);
          const side = (own: string, fromStyle: Border | null | undefined) => {
            const line = lineOf(kid(tcPr, own), colorOf);
            const border = line === undefined ? fromStyle : line;
            return border ?? undefined;
          };
          const margin = (name: string, fallback: number) => (num(tcPr, name) ?? fallback) * EMU;
          const anchor = attr(tcPr, 'anchor');
          cells.push({
            column: start,
            colSpan: span,
            rowSpan: num(tc, 'rowSpan') ?? 1,
            blocks: text,
            shading: fill === 'none' ? undefined : fill ?? styled.fill,
            borders: { top: side('a:lnT', styled.borders.top), bottom: side('a:lnB', styled.borders.bottom), left: side('a:lnL', styled.borders.left), right: side('a:lnR', styled.borders.right) },
            verticalAlign: anchor === 'ctr' ? 'middle' : anchor === 'b' ? 'bottom' : 'top',
            padding: { top: margin('marT', 45720), bottom: margin('marB', 45720), left: margin('marL', 91440), right: margin('marR', 91440) },
          });
        }
        return { cells, minHeight: (num(tr, 'h') ?? 0) * EMU };
      });
      const table: Table = { kind: 'table', columnWidths: widths, rows, indentLeft: 0, align: 'left' };
      const measured = await measureBlocks([table], box.width, ctx);
      measured.draw(page, box.x, slideHeight - box.y, { pageNumber: slideNumber, pageCount: slidePaths.length });
    };

    const chartTheme: ChartTheme = { accents: [1, 2, 3, 4, 5, 6].map((i) => theme.colors[`accent${i}`]).filter(Boolean), font: theme.minorFont, color: colorOf };
    const drawTree = async (tree: XmlElement | undefined, transform: Transform) => {
      for (const child of kids(tree)) {
        if (child.nodeName === 'p:sp' || child.nodeName === 'p:cxnSp') await drawShape(child, transform);
        else if (child.nodeName === 'p:pic') await drawPicture(child, transform);
        else if (child.nodeName === 'p:graphicFrame') {
          const frameBox = xfrmBox(kid(child, 'p:xfrm'));
          if (find(child, 'a:tbl')) await drawTable(child, transform);
          else if (find(child, 'c:chart')) {
            const chart = frameBox ? await readChartFrame(zip, slide.rels, child, chartTheme) : undefined;
            if (chart && frameBox) {
              const box = transform(frameBox);
              (await layoutChart(chart, box.width, box.height, ctx)).draw(page, box.x, slideHeight - box.y);
            } else notes.add('a chart could not be read and was left out');
          } else if (find(child, 'p:oleObj')) {
            // An embedded object (a worksheet, a document…): its preview picture in the frame (a
            // metafile preview leaves a light frame), from the mc:Fallback or the object itself.
            const preview = find(child, 'p:pic');
            if (preview && frameBox) await drawPictureIn(slide, preview, transform(frameBox));
            else notes.add('embedded objects without a preview picture were left out');
          } else {
            // SmartArt: its pre-rendered shapes, in the frame's coordinates.
            const tree = frameBox ? await smartArtTree(zip, slide.rels, child) : undefined;
            if (tree && frameBox) await drawTree(tree, (box) => transform({ ...box, x: frameBox.x + box.x, y: frameBox.y + box.y }));
            else notes.add('diagrams (SmartArt) without a pre-rendered drawing were left out');
          }
        } else if (child.nodeName === 'p:grpSp') {
          await drawTree(child, groupTransform(child, transform));
        } else if (child.nodeName === 'mc:AlternateContent') {
          await drawTree(kid(child, 'mc:Fallback'), transform);
        }
      }
    };

    // Master and layout decorations (not placeholders) lie under the slide's own shapes.
    const decorations = (part: Part | undefined) => {
      const tree = find(part?.root, 'p:spTree');
      return kids(tree).filter((el) => !find(el, 'p:ph'));
    };
    if (attr(slide.root, 'showMasterSp') !== '0') {
      for (const part of [master, layout]) {
        if (!part) continue;
        for (const el of decorations(part)) {
          if (el.nodeName === 'p:sp') await drawShape(el, identity, { ...shapeEnv, picture: pictureOf(part) });
          else if (el.nodeName === 'p:pic') await drawDecorationPicture(part, el);
        }
      }
    }
    /** A picture of the master or layout (a logo, a band): its image is found through that part's relationships. */
    async function drawDecorationPicture(part: Part, el: XmlElement) {
      const box = xfrmBox(kid(kid(el, 'p:spPr'), 'a:xfrm'));
      if (box) await drawPictureIn(part, el, box);
    }
    await drawTree(find(slide.root, 'p:spTree'), identity);
    const titleShape = (Array.from(slide.root.getElementsByTagName('p:sp')) as XmlElement[]).find((sp) => ['title', 'ctrTitle'].includes(attr(find(sp, 'p:ph'), 'type') ?? ''));
    const title = (titleShape ? (Array.from(titleShape.getElementsByTagName('a:t')) as XmlElement[]).map((t) => t.textContent ?? '').join(' ') : '').replace(/\s+/g, ' ').trim();
    outline.push({ level: 0, title: title || `Slide ${slideNumber}`, pageIndex: doc.getPageCount() - 1, top: slideHeight });
    options.progress?.(++done, chosen.length);
  }
  if (hiddenSlides) notes.add(`${hiddenSlides} hidden slide${hiddenSlides > 1 ? 's were' : ' was'} left out, as PowerPoint leaves them out of a PDF (choose slides by number to include them)`);
  return { pages: chosen.length - hiddenSlides, notes: [...notes], outline };
}

