/**
 * Layers (optional content groups) across a qpdf page assembly. qpdf's `--empty --pages` copies the
 * layers a page uses (they are referenced from its resources) but not the catalog's /OCProperties,
 * which lists them and says which are hidden by default; without it a reader shows every layer, so
 * content the author hid (a hidden layer of a drawing, answers, print-only marks) would appear.
 *
 * Before qpdf runs, each layer of a source gets a marker key saying whether it starts visible
 * (markLayers, a new version of the layer in the source's incremental update). qpdf copies the key
 * with the layer; restoreLayers then finds the markers in qpdf's output, blanks them in place (the
 * key never reaches the result) and gives the /OCProperties to put in the result's catalog.
 */
import { PDFArray, PDFDict, PDFName, PDFRef, type PDFDocument } from 'pdf-lib';
import type { UpdatedObject, XrefTableReader } from './pdf-update.ts';
import { indexOfBytes } from './pdf-bytes.ts';

const MARKER = 'FolioLayer';
const MARKER_BYTES = new TextEncoder().encode(`/${MARKER}`);
const OC_PROPERTIES = PDFName.of('OCProperties');
const OFF = PDFName.of('OFF');

/** The layers a document lists in /OCProperties, each with whether its default configuration hides it. */
export function documentLayers(doc: PDFDocument): Array<{ ref: PDFRef; hidden: boolean }> {
  const properties = doc.catalog.lookupMaybe(OC_PROPERTIES, PDFDict);
  const layers = properties?.lookupMaybe(PDFName.of('OCGs'), PDFArray);
  if (!properties || !layers) return [];
  const config = properties.lookupMaybe(PDFName.of('D'), PDFDict);
  const listed = (key: string) => {
    const list = config?.lookupMaybe(PDFName.of(key), PDFArray);
    return new Set(list ? list.asArray().map((entry) => entry.toString()) : []);
  };
  // The default configuration: every layer ON unless listed in /OFF, or OFF unless listed in /ON.
  const startsOff = config?.lookup(PDFName.of('BaseState')) === OFF;
  const on = listed('ON');
  const off = listed('OFF');
  const seen = new Set<number>();
  const found: Array<{ ref: PDFRef; hidden: boolean }> = [];
  for (const entry of layers.asArray()) {
    if (!(entry instanceof PDFRef) || seen.has(entry.objectNumber)) continue;
    seen.add(entry.objectNumber);
    if (!(doc.context.lookup(entry) instanceof PDFDict)) continue;
    found.push({ ref: entry, hidden: startsOff ? !on.has(entry.toString()) : off.has(entry.toString()) });
  }
  return found;
}

/** New versions of the source's layers, each with the marker /FolioLayer /On or /Off. */
export function markLayers(doc: PDFDocument): UpdatedObject[] {
  return documentLayers(doc).map(({ ref, hidden }) => {
    const marked = (doc.context.lookup(ref) as PDFDict).clone(doc.context);
    marked.set(PDFName.of(MARKER), PDFName.of(hidden ? 'Off' : 'On'));
    return { ref, body: marked.toString() };
  });
}

/**
 * Lists layers copied into `dest` (refs in `dest`) in its /OCProperties, created on first use; a
 * hidden one joins the default configuration's /OFF list (for pdf-lib's page copier).
 */
export function addLayers(dest: PDFDocument, layers: ReadonlyArray<{ ref: PDFRef; hidden: boolean }>): void {
  if (layers.length === 0) return;
  const ctx = dest.context;
  let properties = dest.catalog.lookupMaybe(OC_PROPERTIES, PDFDict);
  if (!properties) {
    properties = ctx.obj({ OCGs: [], D: { Order: [], OFF: [] } });
    dest.catalog.set(OC_PROPERTIES, properties);
  }
  const config = properties.lookupMaybe(PDFName.of('D'), PDFDict)!;
  const list = (holder: PDFDict, key: string) => holder.lookupMaybe(PDFName.of(key), PDFArray)!;
  for (const { ref, hidden } of layers) {
    list(properties, 'OCGs').push(ref);
    list(config, 'Order').push(ref);
    if (hidden) list(config, 'OFF').push(ref);
  }
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c;
const isDelimiter = (byte: number) => isSpace(byte) || '/<>[]()%{}'.includes(String.fromCharCode(byte));

/**
 * Finds the marked layers in `assembled` (a file qpdf wrote without object streams, which nothing
 * else holds), blanks each marker with spaces in place (offsets stay valid) and returns the
 * /OCProperties listing them, those marked /Off hidden; undefined when no layer was copied.
 */
export function restoreLayers(assembled: Uint8Array, reader: XrefTableReader): PDFDict | undefined {
  const layers: PDFRef[] = [];
  const hidden: PDFRef[] = [];
  for (
    let at = indexOfBytes(assembled, MARKER_BYTES, 0);
    at !== -1;
    at = indexOfBytes(assembled, MARKER_BYTES, at + 1)
  ) {
    let end = at + MARKER_BYTES.length;
    if (!isDelimiter(assembled[end])) continue; // a longer name that starts the same
    while (isSpace(assembled[end])) end++;
    if (assembled[end] !== 0x2f /* / */) continue;
    let valueEnd = end + 1;
    while (valueEnd < assembled.length && !isDelimiter(assembled[valueEnd])) valueEnd++;
    const value = new TextDecoder().decode(assembled.subarray(end + 1, valueEnd));
    const ref = reader.objectContaining(at);
    if (!ref || (value !== 'On' && value !== 'Off')) continue;
    assembled.fill(0x20, at, valueEnd);
    layers.push(ref);
    if (value === 'Off') hidden.push(ref);
  }
  if (layers.length === 0) return undefined;
  const config = reader.context.obj({ Order: layers, ...(hidden.length > 0 ? { OFF: hidden } : {}) });
  return reader.context.obj({ OCGs: layers, D: config });
}

export { OC_PROPERTIES };
