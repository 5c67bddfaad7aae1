/**
 * Graphic frames shared by the Office readers: chart parts found through a part's relationships
 * (drawn in a box, or as a 'drawing' inline for the flowing layout of .docx and .xlsx), and SmartArt's
 * pre-rendered drawing part (`dsp:drawing`) turned into ordinary `p:sp` shapes, drawn by the shape
 * routine of shapes.ts (on slides, and as a 'drawing' inline in .docx).
 */
import type JSZip from 'jszip';
import type { Inline } from './model.ts';
import { layoutChart, parseChart, themeFromXml, type ChartModel, type ChartTheme } from './charts/index.ts';
import { attr, find, kid, kids, num, parseXml, readRels, zipText, type XmlElement } from './xml.ts';
import { colorResolver, readDrawingTheme, shapesInline, type DrawingTheme } from './shapes.ts';

type Rels = Awaited<ReturnType<typeof readRels>>;

const P_NS = 'http://schemas.openxmlformats.org/presentationml/2006/main';

/** The chart model of a graphic frame's c:chart, resolved through its part's relationships. */
export async function readChartFrame(
  zip: JSZip,
  rels: Rels,
  frame: XmlElement,
  theme: ChartTheme,
): Promise<ChartModel | undefined> {
  const id = attr(find(frame, 'c:chart'), 'r:id');
  const target = id ? rels.get(id)?.target : undefined;
  const xml = target ? await zipText(zip, target) : undefined;
  if (!xml) return undefined;
  return parseChart(parseXml(xml), theme);
}

/** Notes what a chart leaves out: plot types it cannot draw (shown as an empty frame when nothing else is left). */
export function noteChartGaps(model: ChartModel, notes: { add(note: string): void }): void {
  for (const type of model.unsupported) notes.add(`${type} charts were not drawn`);
}

/** Office 2016's chart types (cx:chart: waterfall, treemap, histogram…), which are not drawn. */
export const NEWER_CHART_NOTE = 'charts of the types added in Office 2016 (waterfall, treemap, funnel…) were left out';

/** The theme a .docx or .xlsx uses (word/theme/theme1.xml, xl/theme/theme1.xml), for chart colours. */
export async function packageTheme(zip: JSZip, path: string): Promise<ChartTheme> {
  const xml = await zipText(zip, path);
  return themeFromXml(xml ? parseXml(xml) : undefined);
}

/** A chart as an inline of the flowing layout, drawn at width × height points. */
export function chartInline(model: ChartModel, width: number, height: number): Inline {
  return {
    kind: 'drawing',
    width,
    height,
    prepare: async (ctx, w, h) => {
      const drawing = await layoutChart(model, w, h, ctx);
      return (page, x, bottom) => drawing.draw(page, x, bottom + h);
    },
  };
}

/**
 * SmartArt: the pre-rendered drawing part of a `dgm:relIds` frame (found through the data part's
 * dsp:dataModelExt relId, else the part's diagramDrawing relationship), as a tree of p:sp shapes in
 * the frame's coordinates. A shape whose text box
 * (dsp:txXfrm) differs from its geometry gets its text as a separate, unfilled shape on top, and the
 * style's font colour is made the text's default.
 */
export async function smartArtTree(zip: JSZip, rels: Rels, frame: XmlElement): Promise<XmlElement | undefined> {
  const relIds = find(frame, 'dgm:relIds');
  if (!relIds) return undefined;
  let drawingPath: string | undefined;
  const dataPath = rels.get(attr(relIds, 'r:dm') ?? '')?.target;
  const dataXml = dataPath ? await zipText(zip, dataPath) : undefined;
  const drawingId = dataXml ? /dataModelExt[^>]*relId="([^"]+)"/.exec(dataXml)?.[1] : undefined;
  if (drawingId) drawingPath = rels.get(drawingId)?.target;
  drawingPath ??= [...rels.values()].find((r) => r.type.endsWith('/diagramDrawing'))?.target;
  const xml = drawingPath ? await zipText(zip, drawingPath) : undefined;
  if (!xml) return undefined;
  const renamed = xml
    .replace(
      /<(\/?)dsp:(spTree|grpSp|grpSpPr|sp|spPr|style|txBody|nvSpPr|nvGrpSpPr|cNvPr|cNvSpPr|cNvGrpSpPr)\b/g,
      '<$1p:$2',
    )
    .replace(/<dsp:drawing\b/, `<dsp:drawing xmlns:p="${P_NS}"`);
  let root: XmlElement;
  try {
    root = parseXml(renamed);
  } catch {
    return undefined;
  }
  const tree = find(root, 'p:spTree');
  if (!tree) return undefined;
  const doc = root.ownerDocument;
  if (!doc) return undefined;
  const el = (name: string) =>
    doc.createElementNS(name.startsWith('a:') ? 'http://schemas.openxmlformats.org/drawingml/2006/main' : P_NS, name);
  for (const sp of Array.from(tree.getElementsByTagName('p:sp')) as XmlElement[]) {
    const txXfrm = kid(sp, 'dsp:txXfrm');
    const txBody = kid(sp, 'p:txBody');
    // The style's font colour (white on the coloured boxes) wins over the master's text styles.
    const fontColor = kids(find(kid(sp, 'p:style'), 'a:fontRef'))[0];
    if (txBody && fontColor) {
      const lstStyle = el('a:lstStyle');
      for (let level = 1; level <= 9; level++) {
        const lvl = el(`a:lvl${level}pPr`);
        const defRPr = el('a:defRPr');
        const fill = el('a:solidFill');
        fill.appendChild(fontColor.cloneNode(true));
        defRPr.appendChild(fill);
        lvl.appendChild(defRPr);
        lstStyle.appendChild(lvl);
      }
      const old = kid(txBody, 'a:lstStyle');
      if (old) txBody.replaceChild(lstStyle, old);
      else txBody.insertBefore(lstStyle, kids(txBody, 'a:p')[0] ?? null);
    }
    if (txXfrm && txBody && sp.parentNode) {
      const text = el('p:sp');
      const textPr = el('p:spPr');
      const xfrm = el('a:xfrm');
      for (const child of kids(txXfrm)) xfrm.appendChild(child.cloneNode(true));
      // The text box turns by its own angle added to the shape's (a hexagon at 49° with its text at −90°).
      const turn = (num(kid(kid(sp, 'p:spPr'), 'a:xfrm'), 'rot') ?? 0) + (num(txXfrm, 'rot') ?? 0);
      if (turn) xfrm.setAttribute('rot', String(turn));
      textPr.appendChild(xfrm);
      textPr.appendChild(el('a:noFill'));
      const ln = el('a:ln');
      ln.appendChild(el('a:noFill'));
      textPr.appendChild(ln);
      text.appendChild(textPr);
      const style = kid(sp, 'p:style');
      if (style) text.appendChild(style.cloneNode(true));
      sp.removeChild(txBody);
      text.appendChild(txBody);
      sp.parentNode.insertBefore(text, sp.nextSibling);
    }
  }
  return tree;
}

/**
 * For the flowing readers (.docx, .xlsx): a function turning a drawing's c:chart into a 'drawing'
 * inline of width × height points (the theme is read once, on the first chart).
 */
export function chartReader(
  zip: JSZip,
  themePath: string,
  notes: { add(note: string): void },
): (frame: XmlElement, rels: Rels, width: number, height: number) => Promise<Inline | undefined> {
  let theme: Promise<ChartTheme> | undefined;
  return async (frame, rels, width, height) => {
    theme ??= packageTheme(zip, themePath).then((t) => ({ ...t, defaultBorder: true }));
    const model = await readChartFrame(zip, rels, frame, await theme).catch(() => undefined);
    if (!model) notes.add('a chart could not be read and was left out');
    else noteChartGaps(model, notes);
    return model && width > 0 && height > 0 ? chartInline(model, width, height) : undefined;
  };
}

/**
 * For .docx: a function turning a SmartArt frame (`dgm:relIds`) into a 'drawing' inline of width ×
 * height points — the frame's extent — drawn from its pre-rendered shapes with the package's theme;
 * undefined when the file carries no drawing part.
 */
export function smartArtReader(
  zip: JSZip,
  themePath: string,
  notes: { add(note: string): void },
): (frame: XmlElement, rels: Rels, width: number, height: number) => Promise<Inline | undefined> {
  let theme: Promise<DrawingTheme> | undefined;
  return async (frame, rels, width, height) => {
    theme ??= zipText(zip, themePath).then((xml) => readDrawingTheme(xml ? parseXml(xml) : undefined));
    const tree = await smartArtTree(zip, rels, frame).catch(() => undefined);
    if (!tree || width <= 0 || height <= 0) return undefined;
    const drawingTheme = await theme;
    return shapesInline(
      kids(tree),
      { x: 0, y: 0, width, height },
      {
        color: colorResolver(drawingTheme),
        theme: drawingTheme,
        textColor: drawingTheme.colors.dk1 ?? [0, 0, 0],
        defaultSize: 18,
        notes,
      },
    );
  };
}
