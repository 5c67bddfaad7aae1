/**
 * Drawings of a workbook, read from the package itself (exceljs reads neither charts nor shapes):
 * charts on worksheets (xl/drawings/drawingN.xml), shapes and text boxes (xdr:sp, xdr:cxnSp,
 * xdr:grpSp), each sized by its two-cell, one-cell or absolute anchor and placed at the cell it is
 * anchored at, as 'drawing' inlines; and chart sheets (xl/chartsheets/, one printed page each).
 * Shapes are drawn by the shape routine shared with PowerPoint (shapes.ts). Cell
 * notes (comments) that are shown on the sheet are printed where they are shown, as LibreOffice does.
 */
import type JSZip from 'jszip';
import type { Crop, DrawingInline, Inline, PageSetup, Section } from './model.ts';
import { paragraph } from './model.ts';
import { objectPreviews } from './xlsx-objects.ts';
import { chartReader, NEWER_CHART_NOTE } from './graphics.ts';
import { columnName } from './cell-refs.ts';
import { attr, find, kid, kids, num, parseXml, readRels, zipText, type XmlElement } from './xml.ts';
import {
  EMU,
  colorResolver,
  localName,
  ownBox,
  part,
  readDrawingTheme,
  shapesInline,
  type ShapeEnv,
} from './shapes.ts';

/** Column widths and row heights of a worksheet in points (0-based indexes). */
export interface SheetMetrics {
  column(index: number): number;
  row(index: number): number;
}

/** A shape anchored at a cell: 0-based row and column, offsets into that cell in points. */
export interface AnchoredShape {
  row: number;
  column: number;
  rowOffset: number;
  columnOffset: number;
  drawing: DrawingInline;
  /** A cell note shown on the sheet (not printed when the sheet prints its notes at the end instead). */
  note?: boolean;
  /** A hidden object: it paints nothing, but the printed range and pages reach it as they reach any drawing. */
  hidden?: boolean;
}

export interface WorkbookCharts {
  /** Charts, shapes, text boxes and shown notes of each worksheet at their anchors, by sheet name. */
  shapes: Map<string, AnchoredShape[]>;
  /** Chart sheets with the name of the worksheet they come before (undefined: after all). */
  chartSheets: Array<{ name: string; before?: string; charts: Inline[] }>;
  /** Sheets whose embedded objects all have a preview picture, printed (xlsx-objects.ts). */
  objectsShown: Set<string>;
  /**
   * The crop of each picture of a worksheet's drawing (a:srcRect), in the drawing's order — the order
   * exceljs lists the pictures in, which does not read crops.
   */
  pictureCrops: Map<string, Array<Crop | undefined>>;
}

function anchorSize(anchor: XmlElement, metrics: SheetMetrics | undefined): { width: number; height: number } {
  const ext = kid(anchor, 'xdr:ext');
  if (ext) return { width: (num(ext, 'cx') ?? 0) * EMU, height: (num(ext, 'cy') ?? 0) * EMU };
  const from = kid(anchor, 'xdr:from');
  const to = kid(anchor, 'xdr:to');
  const cell = (el: XmlElement | undefined, name: string) => Number(kid(el, name)?.textContent ?? 0) || 0;
  if (!from || !to) return { width: 0, height: 0 };
  const column = metrics?.column ?? (() => 48);
  const row = metrics?.row ?? (() => 15);
  let width = (cell(to, 'xdr:colOff') - cell(from, 'xdr:colOff')) * EMU;
  for (let c = cell(from, 'xdr:col'); c < cell(to, 'xdr:col'); c++) width += column(c);
  let height = (cell(to, 'xdr:rowOff') - cell(from, 'xdr:rowOff')) * EMU;
  for (let r = cell(from, 'xdr:row'); r < cell(to, 'xdr:row'); r++) height += row(r);
  return { width, height };
}

/** Where an anchor's top-left corner is: its `xdr:from` cell and offsets, or an absolute position (cell A1). */
function anchorStart(anchor: XmlElement): Omit<AnchoredShape, 'drawing'> {
  const cell = (el: XmlElement | undefined, name: string) => Number(kid(el, name)?.textContent ?? 0) || 0;
  const from = kid(anchor, 'xdr:from');
  const pos = kid(anchor, 'xdr:pos');
  return from
    ? {
        row: cell(from, 'xdr:row'),
        column: cell(from, 'xdr:col'),
        rowOffset: cell(from, 'xdr:rowOff') * EMU,
        columnOffset: cell(from, 'xdr:colOff') * EMU,
      }
    : { row: 0, column: 0, rowOffset: (num(pos, 'y') ?? 0) * EMU, columnOffset: (num(pos, 'x') ?? 0) * EMU };
}

/** The charts of a drawing part, in anchor order, with their anchored sizes and places. */
async function drawingCharts(
  zip: JSZip,
  read: ReturnType<typeof chartReader>,
  drawingPath: string,
  anchors: XmlElement[],
  metrics: SheetMetrics | undefined,
  fit?: { width: number; height: number },
): Promise<AnchoredShape[]> {
  if (!anchors.some((anchor) => find(anchor, 'c:chart'))) return [];
  const rels = await readRels(zip, drawingPath);
  const out: AnchoredShape[] = [];
  for (const anchor of anchors) {
    const frame = find(anchor, 'c:chart')
      ? (kid(anchor, 'xdr:graphicFrame') ?? find(anchor, 'xdr:graphicFrame'))
      : undefined;
    if (!frame) continue;
    let { width, height } = anchorSize(anchor, metrics);
    if (fit && width > 0 && height > 0) {
      const scale = Math.min(fit.width / width, fit.height / height);
      width *= scale;
      height *= scale;
    }
    const inline = await read(frame, rels, width, height);
    if (inline?.kind === 'drawing') out.push({ ...anchorStart(anchor), drawing: inline });
  }
  return out;
}

/**
 * The anchors of a drawing part, parsed once, and the hidden ones apart. Hidden objects are dropped from
 * the text first: old converters leave thousands of them (a 3 MB part), and they print nothing.
 */
async function drawingAnchors(zip: JSZip, path: string): Promise<{ anchors: XmlElement[]; hidden: string[] }> {
  let xml = await zipText(zip, path);
  if (!xml) return { anchors: [], hidden: [] };
  const open = /<(\w+:)?wsDr\b[^>]*>/.exec(xml);
  let hidden: string[] = [];
  if (open) {
    const prefix = open[1] ?? '';
    const body = xml.slice(open.index + open[0].length).replace(new RegExp(`</${prefix}wsDr>\\s*$`), '');
    const anchors = body.split(new RegExp(`(?<=</${prefix}(?:twoCellAnchor|oneCellAnchor|absoluteAnchor)>)`));
    const isHidden = (anchor: string) =>
      /\shidden="(?:1|true)"/.test(/<(?:\w+:)?cNvPr\b[^>]*>/.exec(anchor)?.[0] ?? '');
    const shown = anchors.filter((anchor) => !isHidden(anchor));
    hidden = anchors.filter(isHidden);
    if (shown.length < anchors.length) xml = `${open[0]}${shown.join('')}</${prefix}wsDr>`;
  }
  return { anchors: kids(parseXml(xml)), hidden };
}

/**
 * Hidden drawing objects (`cNvPr hidden="1"`, such as the comment boxes Apache POI leaves), as drawings that
 * paint nothing: LibreOffice still extends the printed range to them and prints the pages they cover (a
 * hidden box over A1:K51 prints four empty pages). Read by pattern from their two-cell anchors.
 */
function hiddenShapes(anchors: string[], metrics: SheetMetrics | undefined): AnchoredShape[] {
  const out: AnchoredShape[] = [];
  const corner = (anchor: string, name: string) => {
    const xml = new RegExp(`<(?:\\w+:)?${name}>([\\s\\S]*?)</(?:\\w+:)?${name}>`).exec(anchor)?.[1] ?? '';
    const value = (tag: string) => Number(new RegExp(`<(?:\\w+:)?${tag}>\\s*(\\d+)`).exec(xml)?.[1] ?? NaN);
    return { col: value('col'), colOff: value('colOff'), row: value('row'), rowOff: value('rowOff') };
  };
  const column = metrics?.column ?? (() => 48);
  const row = metrics?.row ?? (() => 15);
  for (const anchor of anchors) {
    const [from, to] = [corner(anchor, 'from'), corner(anchor, 'to')];
    if (![from.col, from.row, to.col, to.row].every(Number.isFinite)) continue;
    let width = ((to.colOff || 0) - (from.colOff || 0)) * EMU;
    for (let c = from.col; c < to.col; c++) width += column(c);
    let height = ((to.rowOff || 0) - (from.rowOff || 0)) * EMU;
    for (let r = from.row; r < to.row; r++) height += row(r);
    if (!(width > 0 && height > 0)) continue;
    out.push({
      row: from.row,
      column: from.col,
      rowOffset: (from.rowOff || 0) * EMU,
      columnOffset: (from.colOff || 0) * EMU,
      hidden: true,
      drawing: { kind: 'drawing', width, height, prepare: async () => () => {} },
    });
  }
  return out;
}

/** Does a shape tree paint anything (hidden shapes and empty unfilled frames do not)? */
function visible(element: XmlElement): boolean {
  if (['true', '1'].includes(attr(find(element, 'xdr:cNvPr'), 'hidden') ?? '')) return false;
  const spPr = part(element, 'spPr');
  const text = Array.from(element.getElementsByTagName('a:t')).some((t) => t.textContent?.trim());
  const filled = (el: XmlElement | undefined) =>
    Boolean(el && !kid(el, 'a:noFill') && (kid(el, 'a:solidFill') || kid(el, 'a:gradFill')));
  return localName(element) === 'grpSp'
    ? kids(element).some((child) => ['sp', 'cxnSp', 'grpSp'].includes(localName(child)) && visible(child))
    : text || filled(spPr) || filled(kid(spPr, 'a:ln')) || Boolean(part(element, 'style'));
}

/** The shapes of a drawing part with their anchors, as drawings at their anchored size. */
async function drawingShapes(
  anchors: XmlElement[],
  metrics: SheetMetrics | undefined,
  env: Omit<ShapeEnv, 'ctx'>,
): Promise<AnchoredShape[]> {
  const out: AnchoredShape[] = [];
  for (const anchor of anchors) {
    const shape = kids(anchor).find((el) => ['sp', 'cxnSp', 'grpSp'].includes(localName(el)));
    if (!shape || !visible(shape)) continue;
    const { width, height } = anchorSize(anchor, metrics);
    if (!(width > 0 && height > 0)) continue;
    const source = ownBox(shape) ?? { x: 0, y: 0, width, height };
    out.push({
      ...anchorStart(anchor),
      drawing: {
        ...(shapesInline(
          [shape],
          source.width > 0 && source.height > 0 ? source : { ...source, width, height },
          env,
        ) as DrawingInline),
        width,
        height,
      },
    });
  }
  return out;
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"]/g,
    (ch) => `&${({ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot' } as Record<string, string>)[ch]};`,
  );

/**
 * The notes a sheet shows (its VML shape is not `visibility:hidden`), as yellow note boxes at their
 * VML anchor ("left column, offset px, top row, offset px, right column, offset, bottom row, offset")
 * with the note's text and run formatting from the comments part. Drawn as a DrawingML text box so
 * the shape routine lays out their text like any other.
 */
async function shownNotes(
  zip: JSZip,
  sheetPath: string,
  sheetXml: string,
  metrics: SheetMetrics | undefined,
  env: Omit<ShapeEnv, 'ctx'>,
): Promise<AnchoredShape[]> {
  const rels = await readRels(zip, sheetPath);
  const vmlId = /<legacyDrawing\b[^>]*r:id="([^"]+)"/.exec(sheetXml)?.[1];
  const vmlPath = vmlId ? rels.get(vmlId)?.target : undefined;
  const commentsPath = [...rels.values()].find((r) => r.type.endsWith('/comments'))?.target;
  const vml = vmlPath ? await zipText(zip, vmlPath) : undefined;
  const commentsXml = commentsPath ? await zipText(zip, commentsPath) : undefined;
  if (!vml || !commentsXml || !/ObjectType=["']Note["']/.test(vml)) return [];
  const comments = new Map(
    kids(find(parseXml(commentsXml), 'commentList'), 'comment').map((c) => [attr(c, 'ref') ?? '', c]),
  );
  const column = metrics?.column ?? (() => 48);
  const row = metrics?.row ?? (() => 15);
  const out: AnchoredShape[] = [];
  // VML is not well-formed XML often enough (bare <br>, unquoted attributes) to parse: read each shape by pattern.
  for (const [shape] of vml.matchAll(/<v:shape\b[\s\S]*?<\/v:shape>/g)) {
    if (
      !/ObjectType=["']Note["']/.test(shape) ||
      /visibility:\s*hidden/.test(/\bstyle=(["'])([\s\S]*?)\1/.exec(shape)?.[2] ?? '')
    )
      continue;
    const anchor = /<x:Anchor>([^<]*)<\/x:Anchor>/
      .exec(shape)?.[1]
      .split(',')
      .map((v) => Number(v.trim()) || 0);
    const noteRow = Number(/<x:Row>(\d+)/.exec(shape)?.[1]);
    const noteColumn = Number(/<x:Column>(\d+)/.exec(shape)?.[1]);
    const comment = comments.get(`${columnName(noteColumn + 1)}${noteRow + 1}`);
    if (!anchor || anchor.length < 8 || !comment) continue;
    const [leftColumn, leftOffset, topRow, topOffset, rightColumn, rightOffset, bottomRow, bottomOffset] = anchor;
    let width = (rightOffset - leftOffset) * 0.75;
    for (let c = leftColumn; c < rightColumn; c++) width += column(c);
    let height = (bottomOffset - topOffset) * 0.75;
    for (let r = topRow; r < bottomRow; r++) height += row(r);
    if (!(width > 0 && height > 0)) continue;
    // Runs, split into paragraphs at line breaks.
    const paragraphs: string[][] = [[]];
    for (const run of kids(kid(comment, 'text')).flatMap((el) =>
      el.tagName === 'r' ? [el] : el.tagName === 't' ? [el] : [],
    )) {
      const t = run.tagName === 't' ? run : kid(run, 't');
      const rPr = run.tagName === 'r' ? kid(run, 'rPr') : undefined;
      const size = num(kid(rPr, 'sz'), 'val') ?? 9;
      const props = `sz="${Math.round(size * 100)}"${kid(rPr, 'b') ? ' b="1"' : ''}${kid(rPr, 'i') ? ' i="1"' : ''}`;
      (t?.textContent ?? '').split(/\r?\n/).forEach((piece, i) => {
        if (i > 0) paragraphs.push([]);
        if (piece)
          paragraphs[paragraphs.length - 1].push(
            `<a:r><a:rPr ${props}/><a:t xml:space="preserve">${escapeXml(piece)}</a:t></a:r>`,
          );
      });
    }
    const fill = /fillcolor="#?([0-9a-fA-F]{6})/.exec(shape)?.[1] ?? 'FFFFE1';
    const emu = (pt: number) => Math.round(pt / EMU);
    const sp = parseXml(
      `<xdr:sp xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ` +
        `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">` +
        `<xdr:nvSpPr><xdr:cNvPr id="1" name="Note"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr>` +
        (`<xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${emu(width)}" ` +
          `cy="${emu(height)}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`) +
        (`<a:solidFill><a:srgbClr val="${fill}"/></a:solidFill><a:ln w="9525"><a:solidFill><a:srgbClr ` +
          `val="000000"/></a:solidFill></a:ln></xdr:spPr>`) +
        `<xdr:txBody><a:bodyPr wrap="square" lIns="91440" tIns="45720" rIns="91440" bIns="45720" anchor="t"/>` +
        paragraphs.map((runs) => `<a:p>${runs.join('')}</a:p>`).join('') +
        `</xdr:txBody></xdr:sp>`,
    );
    out.push({
      row: topRow,
      column: leftColumn,
      rowOffset: topOffset * 0.75,
      columnOffset: leftOffset * 0.75,
      note: true,
      drawing: { ...(shapesInline([sp], { x: 0, y: 0, width, height }, env) as DrawingInline), width, height },
    });
  }
  return out;
}

/** Each picture's crop in a drawing part, in document order (read by pattern, as exceljs reads the part). */
async function pictureCrops(zip: JSZip, drawingPath: string): Promise<Array<Crop | undefined>> {
  const xml = (await zipText(zip, drawingPath)) ?? '';
  return [...xml.matchAll(/<(\w+:)?pic\b[\s\S]*?<\/\1pic>/g)].map(([pic]) => {
    const rect = /<(?:\w+:)?srcRect\b([^>]*)>/.exec(pic)?.[1] ?? '';
    const side = (name: string) => Number(new RegExp(`\\b${name}="(-?\\d+)"`).exec(rect)?.[1] ?? 0) / 100000;
    const [left, top, right, bottom] = ['l', 't', 'r', 'b'].map(side);
    return left || top || right || bottom ? { left, top, right, bottom } : undefined;
  });
}

export async function readWorkbookCharts(
  zip: JSZip,
  metricsOf: (sheet: string) => SheetMetrics | undefined,
  chartSheetPage: PageSetup,
  notes: { add(note: string): void } = new Set(),
): Promise<WorkbookCharts> {
  const result: WorkbookCharts = {
    shapes: new Map(),
    chartSheets: [],
    objectsShown: new Set(),
    pictureCrops: new Map(),
  };
  if (!Object.keys(zip.files).some((name) => name.startsWith('xl/drawings/') || name.startsWith('xl/charts/')))
    return result;
  const themeXml = await zipText(zip, 'xl/theme/theme1.xml');
  const theme = readDrawingTheme(themeXml ? parseXml(themeXml) : undefined);
  const shapeEnv: Omit<ShapeEnv, 'ctx'> = {
    color: colorResolver(theme),
    theme,
    textColor: theme.colors.dk1 ?? [0, 0, 0],
    defaultSize: 11,
    notes,
  };
  const workbook = await zipText(zip, 'xl/workbook.xml');
  if (!workbook) return result;
  const read = chartReader(zip, 'xl/theme/theme1.xml', notes);
  const workbookRels = await readRels(zip, 'xl/workbook.xml');
  const pending: Array<{ name: string; charts: Inline[] }> = [];
  for (const sheet of kids(find(parseXml(workbook), 'sheets'), 'sheet')) {
    const name = attr(sheet, 'name') ?? '';
    const rel = workbookRels.get(attr(sheet, 'r:id') ?? '');
    if (!rel) continue;
    const sheetXml = await zipText(zip, rel.target);
    const drawingId = sheetXml ? /<drawing\b[^>]*r:id="([^"]+)"/.exec(sheetXml)?.[1] : undefined;
    const drawingPath = drawingId ? (await readRels(zip, rel.target)).get(drawingId)?.target : undefined;
    if (rel.type.endsWith('/chartsheet')) {
      const fit = {
        width: chartSheetPage.width - chartSheetPage.margin.left - chartSheetPage.margin.right,
        height: chartSheetPage.height - chartSheetPage.margin.top - chartSheetPage.margin.bottom - 24,
      };
      const charts = drawingPath
        ? await drawingCharts(zip, read, drawingPath, (await drawingAnchors(zip, drawingPath)).anchors, undefined, fit)
        : [];
      if (charts.length) pending.push({ name, charts: charts.map((chart) => chart.drawing) });
      continue;
    }
    for (const waiting of pending.splice(0)) result.chartSheets.push({ ...waiting, before: name });
    const shown = sheetXml ? await shownNotes(zip, rel.target, sheetXml, metricsOf(name), shapeEnv) : [];
    const objects = sheetXml ? await objectPreviews(zip, rel.target, sheetXml, metricsOf(name)) : undefined;
    if (objects?.all) result.objectsShown.add(name);
    const notes = [...shown, ...(objects?.shapes ?? [])];
    if (notes.length) result.shapes.set(name, notes);
    if (!drawingPath) continue;
    result.pictureCrops.set(name, await pictureCrops(zip, drawingPath));
    const { anchors, hidden } = await drawingAnchors(zip, drawingPath);
    if (anchors.some((anchor) => find(anchor, 'cx:chart'))) shapeEnv.notes.add(NEWER_CHART_NOTE);
    const charts = await drawingCharts(zip, read, drawingPath, anchors, metricsOf(name));
    const shapes = [
      ...(await drawingShapes(anchors, metricsOf(name), shapeEnv)),
      ...hiddenShapes(hidden, metricsOf(name)),
    ];
    if (charts.length || shapes.length) result.shapes.set(name, [...charts, ...shapes, ...notes]);
  }
  result.chartSheets.push(...pending);
  return result;
}

/** A chart sheet as its own section (one page). */
export function chartSheetSection(sheet: { name: string; charts: Inline[] }, page: PageSetup): Section {
  return { page, blocks: sheet.charts.map((chart) => paragraph([chart])), bookmark: sheet.name };
}
