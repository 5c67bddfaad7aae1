/**
 * Embedded objects on a sheet (`oleObject`: a worksheet, a document, a package) printed as their
 * preview picture, as Excel and LibreOffice print them. The preview is the VML shape of the sheet's
 * legacy drawing whose id matches the object's shapeId (`_x0000_s1025` for 1025), placed by its
 * `x:Anchor`; it is most often a Windows metafile, drawn by metafile/.
 */
import type JSZip from 'jszip';
import { pictureDrawing } from './model.ts';
import type { AnchoredShape, SheetMetrics } from './xlsx-charts.ts';
import { imageMime, readRels, zipText } from './xml.ts';

/** The sheet's object previews, and whether every object has one. */
export async function objectPreviews(
  zip: JSZip,
  sheetPath: string,
  sheetXml: string,
  metrics: SheetMetrics | undefined,
): Promise<{ shapes: AnchoredShape[]; all: boolean }> {
  const ids = new Set([...sheetXml.matchAll(/<(?:\w+:)?oleObject\b[^>]*?\bshapeId="(\d+)"/g)].map((m) => m[1]));
  if (!ids.size) return { shapes: [], all: true };
  const vmlId = /<legacyDrawing\b[^>]*r:id="([^"]+)"/.exec(sheetXml)?.[1];
  const vmlPath = vmlId ? (await readRels(zip, sheetPath)).get(vmlId)?.target : undefined;
  const vml = vmlPath ? await zipText(zip, vmlPath) : undefined;
  if (!vml || !vmlPath) return { shapes: [], all: false };
  const vmlRels = await readRels(zip, vmlPath);
  const column = metrics?.column ?? (() => 48);
  const row = metrics?.row ?? (() => 15);
  const shapes: AnchoredShape[] = [];
  // VML is read by pattern, as for shown notes (xlsx-charts.ts): it is not always well-formed XML.
  for (const [shape] of vml.matchAll(/<v:shape\b[\s\S]*?<\/v:shape>/g)) {
    const id = /\bid="_x0000_s(\d+)"/.exec(shape)?.[1];
    if (!id || !ids.has(id) || /visibility:\s*hidden/.test(shape)) continue;
    const target = vmlRels.get(/<v:imagedata\b[^>]*?o:relid="([^"]+)"/.exec(shape)?.[1] ?? '')?.target;
    const mime = target ? imageMime(target) : undefined;
    const file = target ? zip.file(target) : null;
    const anchor = /<x:Anchor>([^<]*)<\/x:Anchor>/
      .exec(shape)?.[1]
      .split(',')
      .map((v) => Number(v.trim()) || 0);
    if (!file || !mime || !anchor || anchor.length < 8) continue;
    const [leftColumn, leftOffset, topRow, topOffset, rightColumn, rightOffset, bottomRow, bottomOffset] = anchor;
    // Offsets are in pixels (0.75 pt); at most a few thousand cells are summed for a hostile anchor.
    let width = (rightOffset - leftOffset) * 0.75;
    for (let c = leftColumn; c < Math.min(rightColumn, leftColumn + 5_000); c++) width += column(c);
    let height = (bottomOffset - topOffset) * 0.75;
    for (let r = topRow; r < Math.min(bottomRow, topRow + 5_000); r++) height += row(r);
    if (!(width > 0 && height > 0)) continue;
    const bytes = await file.async('uint8array');
    shapes.push({
      row: topRow,
      column: leftColumn,
      rowOffset: topOffset * 0.75,
      columnOffset: leftOffset * 0.75,
      drawing: pictureDrawing({ kind: 'image', bytes, mime, width, height }),
    });
  }
  return { shapes, all: shapes.length === ids.size };
}
