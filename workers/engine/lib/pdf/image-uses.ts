/**
 * Where a document's image XObjects are drawn, and at what resolution: every page's content is
 * walked (content-stream.ts) with the transformation matrix at each `Do`, through nested form
 * XObjects, taking each image's sharpest use. Where content cannot be read, the page size bounds
 * the resolution (an image never covers more than its page), which never undershoots.
 * Soft masks and stencil masks are left out: they follow their image.
 */
import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';
import { operandMatrix, readOperations } from './content-stream.ts';
import { filterNames } from './filters.ts';
import { inflate } from './stream-decode.ts';
import { IDENTITY, transform, type Matrix } from './matrix.ts';
import { nameOf, numberIn } from './object-graph.ts';

const N = (name: string) => PDFName.of(name);

export interface ImageUse {
  ref: PDFRef;
  stream: PDFRawStream;
  /**
   * The lowest resolution (pixels per inch, along the image's shorter-resolved axis) at which any
   * page draws it. Measured from the content streams' transformation matrices; where a content
   * stream cannot be read, from the page size (an image never covers more than its page).
   */
  dpi: number;
}

/**
 * Walks a content stream and reports each `Do` with the current transformation matrix; only
 * q/Q/cm matter for that.
 */
function scanContent(bytes: Uint8Array, onDo: (name: string, ctm: Matrix) => void, start: Matrix): void {
  const stack: Matrix[] = [];
  let ctm = start;
  for (const { operator, operands } of readOperations(bytes)) {
    if (operator === 'q') stack.push(ctm);
    else if (operator === 'Q') ctm = stack.pop() ?? start;
    else if (operator === 'cm') {
      const m = operandMatrix(operands);
      if (m) ctm = transform(ctm, m);
    } else if (operator === 'Do') {
      const name = operands.at(-1);
      if (name?.kind === 'name') onDo(name.value, ctm);
    }
  }
}

async function decodedContent(stream: PDFObject | undefined): Promise<Uint8Array | undefined> {
  if (!(stream instanceof PDFRawStream)) return undefined;
  const filters = filterNames(stream.dict);
  if (filters.length === 0) return stream.contents;
  if (filters.length === 1 && filters[0] === 'FlateDecode' && !stream.dict.lookup(N('DecodeParms')))
    return inflate(stream.contents);
  return undefined;
}

/** Every image XObject drawn by the pages, through nested Form XObjects, with the resolution it is drawn at. */
export async function collectImages(
  doc: PDFDocument,
): Promise<{ images: Map<string, ImageUse>; xobjectDicts: PDFDict[] }> {
  const images = new Map<string, ImageUse>();
  const masks = new Set<string>();
  const xobjectDicts: PDFDict[] = [];
  const seenDicts = new Set<PDFDict>();

  const noteImage = (ref: PDFRef, stream: PDFStream, dpi: number) => {
    const smask = stream.dict.get(N('SMask'));
    if (smask instanceof PDFRef) masks.add(smask.toString());
    const mask = stream.dict.get(N('Mask'));
    if (mask instanceof PDFRef) masks.add(mask.toString());
    const known = images.get(ref.toString());
    if (known) known.dpi = Math.min(known.dpi, dpi);
    else if (stream instanceof PDFRawStream) images.set(ref.toString(), { ref, stream, dpi });
  };
  const pixelSize = (stream: PDFStream) => [numberIn(stream.dict, 'Width') ?? 1, numberIn(stream.dict, 'Height') ?? 1];

  /** Resolutions from page size only: used where content cannot be read, and for images never drawn. */
  const visitByPageSize = (resources: PDFDict | undefined, pageInches: number, formsSeen: Set<string>) => {
    const xobjects = resources?.lookup(N('XObject'));
    if (!(xobjects instanceof PDFDict)) return;
    if (!seenDicts.has(xobjects)) {
      seenDicts.add(xobjects);
      xobjectDicts.push(xobjects);
    }
    for (const [, value] of xobjects.entries()) {
      if (!(value instanceof PDFRef)) continue;
      const object = doc.context.lookup(value);
      if (!(object instanceof PDFStream)) continue;
      const subtype = nameOf(object.dict.lookup(N('Subtype')));
      if (subtype === 'Image') {
        const [w, h] = pixelSize(object);
        const estimate = Math.max(w, h) / pageInches;
        // Only an upper bound on the drawn size: keep a measured value if there is one.
        if (!images.has(value.toString())) noteImage(value, object, estimate);
      } else if (subtype === 'Form' && !formsSeen.has(value.toString())) {
        visitByPageSize(
          object.dict.lookup(N('Resources')) as PDFDict | undefined,
          pageInches,
          new Set(formsSeen).add(value.toString()),
        );
      }
    }
  };

  const visitContent = async (content: Uint8Array, resources: PDFDict | undefined, start: Matrix, depth: number) => {
    const xobjects = resources?.lookup(N('XObject'));
    if (!(xobjects instanceof PDFDict)) return;
    const draws: Array<[string, Matrix]> = [];
    scanContent(content, (name, ctm) => draws.push([name, ctm]), start);
    for (const [name, ctm] of draws) {
      const ref = xobjects.get(N(name));
      if (!(ref instanceof PDFRef)) continue;
      const object = doc.context.lookup(ref);
      if (!(object instanceof PDFStream)) continue;
      const subtype = nameOf(object.dict.lookup(N('Subtype')));
      if (subtype === 'Image') {
        const [w, h] = pixelSize(object);
        const drawnWidth = Math.hypot(ctm[0], ctm[1]) / 72;
        const drawnHeight = Math.hypot(ctm[2], ctm[3]) / 72;
        if (drawnWidth <= 0 || drawnHeight <= 0) continue;
        noteImage(ref, object, Math.min(w / drawnWidth, h / drawnHeight));
      } else if (subtype === 'Form' && depth < 12) {
        const matrixObject = object.dict.lookup(N('Matrix'));
        const matrix =
          matrixObject instanceof PDFArray && matrixObject.size() === 6
            ? (matrixObject.asArray().map((v) => (v instanceof PDFNumber ? v.asNumber() : 0)) as Matrix)
            : IDENTITY;
        const formContent = await decodedContent(object).catch(() => undefined);
        if (formContent)
          await visitContent(
            formContent,
            object.dict.lookup(N('Resources')) as PDFDict | undefined,
            transform(ctm, matrix),
            depth + 1,
          );
      }
    }
  };

  for (const page of doc.getPages()) {
    const { width, height } = page.getSize();
    const resources = page.node.Resources();
    const contents = page.node.Contents();
    const parts = contents instanceof PDFArray ? contents.asArray().map((p) => doc.context.lookup(p)) : [contents];
    const decoded = await Promise.all(parts.map((p) => decodedContent(p).catch(() => undefined)));
    if (decoded.length > 0 && decoded.every((d) => d)) {
      const joined = new Uint8Array(decoded.reduce((sum, d) => sum + d!.length + 1, 0));
      let offset = 0;
      for (const d of decoded) {
        joined.set(d!, offset);
        joined[offset + d!.length] = 0x0a;
        offset += d!.length + 1;
      }
      await visitContent(joined, resources, IDENTITY, 0);
    }
    // Images the content scan did not see (unreadable streams, Do inside patterns…) get the page bound.
    visitByPageSize(resources, Math.max(width, height) / 72, new Set());
  }
  for (const mask of masks) images.delete(mask);
  return { images, xobjectDicts };
}
