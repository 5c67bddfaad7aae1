/**
 * Normalises a workbook package that exceljs's reader refuses although Excel and LibreOffice open it.
 * exceljs parses with a strict, prefix-sensitive SAX reader and throws on anything it does not
 * expect; this rewrites each XML part through the tolerant xmldom parser into the shape exceljs
 * knows, without changing what is printed:
 * - a byte-order mark before the XML declaration, and any document type declaration, are dropped;
 * - SpreadsheetML and package elements written with a prefix (`<x:workbook>`) lose the prefix, and
 *   those of Excel 2007's beta namespace move to the standard one;
 * - elements of namespaces Office does not define (another program's extensions), extension lists
 *   (`extLst`) and filter criteria (`autoFilter`'s icon, colour and custom filters:
 *   filter buttons are not printed) are left out;
 * - rows and cells without a reference (`<row>` without `r`) are numbered as Excel numbers them;
 * - columns and cells past Excel's last column (XFD) or row are cut off;
 * - entries named with backslashes or in another case than their relationships use are renamed;
 * - document properties (docProps/) and table definitions (xl/tables/: their cells' own formats are
 *   printed, their filter buttons and banding are not), are left out.
 */
import JSZip from 'jszip';
import { XMLSerializer } from '@xmldom/xmldom';
import { parseXml, type XmlElement } from './xml.ts';
import { cellRange, columnName } from './cell-refs.ts';

const SPREADSHEETML = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const EXCEL_2006_BETA = 'http://schemas.microsoft.com/office/excel/2006/2';
const UNPREFIXED_NAMESPACES = new Set([
  SPREADSHEETML,
  'http://schemas.openxmlformats.org/package/2006/relationships',
  'http://schemas.openxmlformats.org/package/2006/content-types',
]);
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
/** Namespaces of Office Open XML and of Microsoft's extensions; elements in any other are left out. */
const KNOWN_NAMESPACE =
  /^(http:\/\/schemas\.openxmlformats\.org\/|http:\/\/schemas\.microsoft\.com\/|urn:schemas-microsoft-com:|http:\/\/purl\.org\/|http:\/\/www\.w3\.org\/)/;
const MAX_COLUMN = 16384;
const MAX_ROW = 1048576;

function elementChildren(element: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (let node = element.firstChild; node; node = node.nextSibling)
    if (node.nodeType === 1) out.push(node as XmlElement);
  return out;
}

/** The same element without its prefix (attributes and children moved over), in `namespace`. */
function unprefixed(element: XmlElement, namespace = element.namespaceURI, name = element.localName!): XmlElement {
  const doc = element.ownerDocument!;
  const copy = doc.createElementNS(namespace, name) as XmlElement;
  for (const attribute of Array.from(element.attributes)) {
    // The prefix's own declaration is replaced by the default namespace below.
    if (attribute.name === `xmlns:${element.prefix}` || attribute.name === 'xmlns') continue;
    copy.setAttributeNS(attribute.namespaceURI, attribute.name, attribute.value);
  }
  while (element.firstChild) copy.appendChild(element.firstChild);
  element.parentNode?.replaceChild(copy, element);
  return copy;
}

function repairElement(element: XmlElement, isRoot: boolean): XmlElement {
  // Excel 2007's beta format: the same elements in another namespace (shared strings as sstItem).
  if (element.namespaceURI === EXCEL_2006_BETA) {
    element = unprefixed(element, SPREADSHEETML, element.localName === 'sstItem' ? 'si' : element.localName!);
    if (isRoot) element.setAttribute('xmlns', SPREADSHEETML);
  } else if (element.prefix && UNPREFIXED_NAMESPACES.has(element.namespaceURI ?? '')) {
    element = unprefixed(element);
    if (isRoot) element.setAttribute('xmlns', element.namespaceURI!);
  }
  // Relationship ids under another prefix than r: (`d3p1:id`), which exceljs reads by name.
  for (const attribute of Array.from(element.attributes)) {
    if (attribute.namespaceURI !== RELATIONSHIPS || attribute.prefix === 'r') continue;
    element.removeAttributeNode(attribute);
    element.setAttributeNS(RELATIONSHIPS, `r:${attribute.localName}`, attribute.value);
  }
  const name = element.localName;
  if (name === 'extLst' || name === 'tableParts' || !KNOWN_NAMESPACE.test(element.namespaceURI ?? '')) {
    element.parentNode?.removeChild(element);
    return element;
  }
  if (name === 'autoFilter') {
    for (const child of elementChildren(element)) element.removeChild(child);
    return element;
  }
  if (name === 'sheetData') numberRowsAndCells(element);
  if (name === 'col') {
    const min = Number(element.getAttribute('min'));
    if (min > MAX_COLUMN) element.parentNode?.removeChild(element);
    else if (Number(element.getAttribute('max')) > MAX_COLUMN) element.setAttribute('max', String(MAX_COLUMN));
  }
  for (const child of elementChildren(element)) repairElement(child, false);
  return element;
}

/** Rows and cells without a reference follow the one before; any past Excel's grid are cut off. */
function numberRowsAndCells(sheetData: XmlElement): void {
  let rowNumber = 0;
  for (const row of elementChildren(sheetData)) {
    if (row.localName !== 'row') continue;
    const given = Number(row.getAttribute('r'));
    rowNumber = Number.isInteger(given) && given > rowNumber ? given : rowNumber + 1;
    if (rowNumber > MAX_ROW) {
      sheetData.removeChild(row);
      continue;
    }
    row.setAttribute('r', String(rowNumber));
    let column = 0;
    for (const cell of elementChildren(row)) {
      if (cell.localName !== 'c') continue;
      const reference = cellRange(cell.getAttribute('r') ?? undefined);
      column = reference && reference.left > column ? reference.left : column + 1;
      if (column > MAX_COLUMN) {
        row.removeChild(cell);
        continue;
      }
      cell.setAttribute('r', `${columnName(column)}${rowNumber}`);
    }
    row.removeAttribute('spans');
  }
}

/** Rewrites the package as described above; undefined when it is not a readable zip. */
export async function repairWorkbookPackage(bytes: Uint8Array): Promise<Uint8Array | undefined> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    return undefined;
  }
  const entries = Object.keys(zip.files).filter((name) => !zip.files[name].dir);
  // Targets named by relationships, to give entries the case their references use.
  const referenced = new Map<string, string>();
  const out = new JSZip();
  const serializer = new XMLSerializer();
  const texts = new Map<string, string>();
  const binaries = new Map<string, Uint8Array>();
  for (const entry of entries) {
    const name = entry.replace(/\\/g, '/');
    if (/^(docProps|xl\/tables)\//i.test(name)) continue;
    if (/\.(xml|rels|vml)$/i.test(name)) {
      let text = await zip.files[entry].async('string');
      // VML is written like HTML by some tools: a <br> left open.
      if (/\.vml$/i.test(name)) text = text.replace(/<br\s*>/gi, '<br/>');
      // Office Open XML allows no document type declaration: its entities (an entity-expansion bomb)
      // are dropped, and references to them read as nothing rather than as "&name;".
      if (/<!DOCTYPE/i.test(text))
        text = text
          .replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/i, '')
          .replace(/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)[a-z_][\w.-]*;/gi, '');
      try {
        const root = repairElement(parseXml(text), true);
        texts.set(name, serializer.serializeToString(root.ownerDocument!));
      } catch {
        texts.set(name, text);
      }
      if (/\.rels$/i.test(name)) {
        const folder = name.replace(/_rels\/[^/]*$/i, '');
        for (const match of texts.get(name)!.matchAll(/Target="([^"]+)"/g)) {
          const target = match[1].startsWith('/') ? match[1].slice(1) : normalise(folder + match[1]);
          referenced.set(target.toLowerCase(), target);
        }
      }
    } else binaries.set(name, await zip.files[entry].async('uint8array'));
  }
  referenced.set('[content_types].xml', '[Content_Types].xml');
  renameWorksheets(texts, referenced);
  for (const [name, content] of [...texts, ...binaries]) out.file(referenced.get(name.toLowerCase()) ?? name, content);
  return out.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/**
 * exceljs finds worksheets by their entry name (xl/worksheets/sheet<N>.xml): a worksheet stored under
 * another name is renamed to a free sheet<N>, with its relationship and its own relationships.
 */
function renameWorksheets(texts: Map<string, string>, referenced: Map<string, string>): void {
  const relsName = [...texts.keys()].find((name) => name.toLowerCase() === 'xl/_rels/workbook.xml.rels');
  if (!relsName) return;
  const taken = new Set([...referenced.values(), ...texts.keys()].map((name) => name.toLowerCase()));
  let next = 1;
  const rels = texts.get(relsName)!.replace(/<Relationship\b[^>]*>/g, (tag) => {
    const target = /Target="([^"]+)"/.exec(tag)?.[1];
    if (!target || !/\/worksheet"/.test(tag)) return tag;
    const path = target.startsWith('/') ? target.slice(1) : normalise(`xl/${target}`);
    if (/^xl\/worksheets\/sheet\d+\.xml$/.test(path)) return tag;
    const source = [...texts.keys()].find((name) => name.toLowerCase() === path.toLowerCase());
    if (!source) return tag;
    while (taken.has(`xl/worksheets/sheet${next}.xml`)) next++;
    const renamed = `xl/worksheets/sheet${next}.xml`;
    taken.add(renamed);
    texts.set(renamed, texts.get(source)!);
    texts.delete(source);
    const ownRelsPath = `${source.replace(/[^/]*$/, '')}_rels/${source.replace(/^.*\//, '')}.rels`.toLowerCase();
    const ownRels = [...texts.keys()].find((key) => key.toLowerCase() === ownRelsPath);
    if (ownRels && source.startsWith('xl/worksheets/')) {
      texts.set(`xl/worksheets/_rels/sheet${next}.xml.rels`, texts.get(ownRels)!);
      texts.delete(ownRels);
    }
    referenced.delete(path.toLowerCase());
    return tag.replace(/Target="[^"]+"/, `Target="worksheets/sheet${next}.xml"`);
  });
  texts.set(relsName, rels);
}

function normalise(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}
