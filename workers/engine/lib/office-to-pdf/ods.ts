/**
 * Reads an OpenDocument Spreadsheet (.ods) into the same grids as xlsx.ts (and paginates them with
 * its sectionsForGrid): each visible sheet's used range with column widths, row heights, the cells'
 * display text (Calc stores it beside the value), fonts, fills, borders, alignment and spans.
 * Repeated rows and columns (number-rows-repeated can be a million) are expanded only up to the last
 * cell with a value, and at most MAX_ROWS rows per sheet.
 */
import type JSZip from 'jszip';
import type { Block, RunStyle, Section, TableRow } from './model.ts';
import { regionsBlock } from './sheet-furniture.ts';
import { paragraph } from './model.ts';
import { attr, findAll, kid, kids, length, parseXml, zipText, type XmlElement } from './xml.ts';
import { OdfTextReader, repeat, type OdfStyles } from './odf.ts';
import { readOdfStyles } from './odt.ts';
import { displayText, sectionsForGrid, textCell, type Grid, type XlsxOptions } from './xlsx.ts';

const MAX_ROWS = 20_000;
const MAX_COLUMNS = 1024;
/** Cells (used rows × used columns) printed per sheet at most, so a huge sheet cannot exhaust memory. */
const MAX_CELLS = 500_000;
const NUMERIC = new Set(['float', 'percentage', 'currency', 'date', 'time']);

interface RowEntry {
  el: XmlElement;
  count: number;
}

function rowEntries(container: XmlElement, out: RowEntry[] = []): RowEntry[] {
  for (const el of kids(container)) {
    if (el.nodeName === 'table:table-row') out.push({ el, count: repeat(el, 'table:number-rows-repeated') });
    else if (['table:table-header-rows', 'table:table-row-group', 'table:table-rows'].includes(el.nodeName))
      rowEntries(el, out);
  }
  return out;
}

function cellText(cell: XmlElement): string {
  const paragraphs = kids(cell, 'text:p');
  if (!paragraphs.length) return '';
  const textOf = (node: XmlElement): string => {
    let out = '';
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3 || child.nodeType === 4) out += child.nodeValue ?? '';
      else if (child.nodeType === 1) {
        const el = child as XmlElement;
        if (el.nodeName === 'text:s') out += ' '.repeat(Math.min(200, repeat(el, 'text:c')));
        else if (el.nodeName === 'text:tab') out += '\t';
        else if (el.nodeName === 'text:line-break') out += '\n';
        else if (el.nodeName !== 'office:annotation') out += textOf(el);
      }
    }
    return out;
  };
  return paragraphs.map(textOf).join('\n');
}

function hasValue(cell: XmlElement): boolean {
  return (
    cell.nodeName === 'table:table-cell' && (attr(cell, 'office:value-type') !== undefined || cellText(cell) !== '')
  );
}

/** What every sheet of the workbook shares while it is read. */
interface OdsContext {
  zip: JSZip;
  styles: OdfStyles;
  notes: Set<string>;
  reader: OdfTextReader;
}

interface Column {
  width: number;
  hidden: boolean;
  cellStyle?: string;
}

/** Hidden sheets and sheets marked "do not print" are left out, as Calc prints; or only the active sheet. */
async function chooseSheets(
  zip: JSZip,
  styles: OdfStyles,
  spreadsheet: XmlElement,
  options: XlsxOptions,
): Promise<XmlElement[]> {
  const shown = (t: XmlElement) =>
    attr(kid(styles.style('table', attr(t, 'table:style-name')), 'style:table-properties'), 'table:display') !==
      'false' && attr(t, 'table:print') !== 'false';
  const sheets = kids(spreadsheet, 'table:table').filter(shown);
  if (options.sheets !== 'active') return sheets;
  const settings = await zipText(zip, 'settings.xml');
  const items = settings ? findAll(parseXml(settings), 'config:config-item') : [];
  const active = items.find((item) => attr(item, 'config:name') === 'ActiveTable')?.textContent;
  return [sheets.find((t) => attr(t, 'table:name') === active) ?? sheets[0]].filter(Boolean);
}

/** A Calc page header or footer: plain paragraphs, or left / centre / right regions side by side. */
async function sheetFurniture(
  o: OdsContext,
  master: XmlElement | undefined,
  kind: 'header' | 'footer',
  sheetName: string,
  width: number,
): Promise<Block[] | undefined> {
  const el = kid(master, `style:${kind}`);
  if (!el || attr(el, 'style:display') === 'false') return undefined;
  const baseRun = { font: 'Liberation Sans', size: 10 };
  const furnitureReader = new OdfTextReader({
    zip: o.zip,
    styles: o.styles,
    notes: o.notes,
    baseRun,
    textWidth: width,
    sheetName,
  });
  const regions = (['left', 'center', 'right'] as const).map((side) => kid(el, `style:region-${side}`));
  // Without regions, Calc centres the header or footer.
  if (!regions.some(Boolean)) {
    return (await furnitureReader.blocks(el)).map((block) =>
      block.kind === 'paragraph' ? { ...block, align: 'center' as const } : block,
    );
  }
  const [left, center, right] = await Promise.all(regions.map((region) => furnitureReader.blocks(region)));
  return regionsBlock([left, center, right], width);
}

/** Used range: the last row and column with a value, counting repeats without expanding them. */
function usedRange(rows: RowEntry[]): { maxRow: number; maxCol: number } {
  let maxRow = 0;
  let maxCol = 0;
  let rowIndex = 0;
  for (const entry of rows) {
    let col = 0;
    for (const cell of kids(entry.el)) {
      const count = repeat(cell, 'table:number-columns-repeated');
      if (hasValue(cell)) {
        maxRow = rowIndex + entry.count;
        maxCol = Math.max(maxCol, col + Math.max(count, repeat(cell, 'table:number-columns-spanned')));
      }
      col += count;
    }
    rowIndex += entry.count;
  }
  return { maxRow, maxCol };
}

/** The sheet's pictures, printed after its cells; charts are left out. */
async function sheetPictures(o: OdsContext, sheet: XmlElement): Promise<Block[]> {
  const pictures: Block[] = [];
  for (const frame of findAll(sheet, 'draw:frame')) {
    const image = await o.reader.image(frame);
    if (image) {
      const width = length(attr(frame, 'svg:width')) ?? 72,
        height = length(attr(frame, 'svg:height')) ?? 72;
      pictures.push(
        paragraph([{ kind: 'image', bytes: image.bytes, mime: image.mime, width, height }], { spaceBefore: 6 }),
      );
    } else if (kid(frame, 'draw:object')) o.notes.add('charts were left out');
  }
  return pictures;
}

/** Columns: widths, hidden ones, default cell styles (up to `maxCol`). */
function sheetColumns(styles: OdfStyles, sheet: XmlElement, maxCol: number): Column[] {
  const columns: Column[] = [];
  const collect = (container: XmlElement) => {
    for (const el of kids(container)) {
      if (el.nodeName === 'table:table-column') {
        const style = styles.style('table-column', attr(el, 'table:style-name'));
        const width = length(attr(kid(style, 'style:table-column-properties'), 'style:column-width')) ?? 64;
        const hidden = (attr(el, 'table:visibility') ?? 'visible') !== 'visible';
        const info = { width, hidden, cellStyle: attr(el, 'table:default-cell-style-name') };
        for (let i = 0; i < repeat(el, 'table:number-columns-repeated') && columns.length < maxCol; i++)
          columns.push(info);
      } else if (
        ['table:table-columns', 'table:table-header-columns', 'table:table-column-group'].includes(el.nodeName)
      )
        collect(el);
    }
  };
  collect(sheet);
  while (columns.length < maxCol) columns.push({ width: 64, hidden: false });
  return columns;
}

/** What a cell shows: Calc always writes the display text; other producers may give only the value. */
function shownText(el: XmlElement, valueType: string | undefined, numeric: boolean): string {
  let text = cellText(el);
  if (!text && numeric && attr(el, 'office:value') !== undefined)
    text = displayText(Number(attr(el, 'office:value')), 'General').text;
  if (!text && valueType === 'string') text = attr(el, 'office:string-value') ?? '';
  if (!text && valueType === 'boolean') text = attr(el, 'office:boolean-value') === 'true' ? 'TRUE' : 'FALSE';
  return text;
}

/** The rows of a sheet being read: its columns and the cells that spans cover. */
interface SheetGrid {
  columns: Column[];
  columnIndex: Map<number, number>;
  covered: Set<string>;
  maxCol: number;
}

/** One cell as a table cell, or undefined when it prints nothing (empty, unstyled, no span). */
function readCell(
  o: OdsContext,
  grid: SheetGrid,
  row: XmlElement,
  el: XmlElement,
  r: number,
  c: number,
  cells: Array<{ el: XmlElement; col: number }>,
): ReturnType<typeof textCell> | undefined {
  const { styles } = o;
  const { columns, maxCol } = grid;
  const styleName = attr(el, 'table:style-name') ?? attr(row, 'table:default-cell-style-name') ?? columns[c]?.cellStyle;
  const format = o.reader.cellFormat(styleName);
  const valueType = attr(el, 'office:value-type');
  const numeric = NUMERIC.has(valueType ?? '');
  const text = shownText(el, valueType, numeric);
  const style: RunStyle = styles.runStyle(format.chain, { font: 'Liberation Sans', size: 10 });
  const textAlign = styles.prop(format.chain, 'style:paragraph-properties', 'fo:text-align');
  const align =
    textAlign === 'center'
      ? 'center'
      : textAlign === 'end' || textAlign === 'right'
        ? 'right'
        : textAlign === 'justify'
          ? 'justify'
          : textAlign === 'start' || textAlign === 'left'
            ? 'left'
            : numeric
              ? 'right'
              : valueType === 'boolean'
                ? 'center'
                : 'left';
  const colSpanSource = repeat(el, 'table:number-columns-spanned');
  const rowSpan = repeat(el, 'table:number-rows-spanned');
  for (let dr = 0; dr < rowSpan; dr++)
    for (let dc = 0; dc < colSpanSource; dc++) if (dr || dc) grid.covered.add(`${r + dr}:${c + dc}`);
  const colSpan = Math.max(
    1,
    [...Array(colSpanSource).keys()].filter((i) => c + i < maxCol && !columns[c + i]?.hidden).length,
  );
  const spans = {
    shading: format.shading,
    borders: format.borders,
    verticalAlign: format.verticalAlign,
    rowSpan,
    colSpan,
  };
  const out = textCell(text, style, grid.columnIndex.get(c)!, spans, align);
  if (text.includes('\n'))
    out.blocks = text.split('\n').map((line) => paragraph([{ kind: 'text', text: line, style }], { align }));
  if (!text && !format.shading && !Object.values(format.borders).some(Boolean) && colSpanSource === 1 && rowSpan === 1)
    return undefined;
  // Text without "wrap text automatically" runs on past the cell's edge, as Calc prints it.
  if (!format.wrap) {
    for (const block of out.blocks) if (block.kind === 'paragraph') block.noWrap = true;
    const next = cells[c + colSpanSource]; // cells[i] is column i
    out.clip = Boolean(next && hasValue(next.el)) || align !== 'left';
  }
  return out;
}

/** The used rows of a sheet as table rows; repeated rows are expanded up to `maxRow`, hidden ones left out. */
function sheetRows(o: OdsContext, rows: RowEntry[], grid: SheetGrid, maxRow: number): TableRow[] {
  const { columns, maxCol } = grid;
  const tableRows: TableRow[] = [];
  let r = 0;
  for (const entry of rows) {
    if (r >= maxRow) break;
    const rowStyle = kid(o.styles.style('table-row', attr(entry.el, 'table:style-name')), 'style:table-row-properties');
    const height = length(attr(rowStyle, 'style:row-height')) ?? 12.8;
    const hidden = (attr(entry.el, 'table:visibility') ?? 'visible') !== 'visible';
    // Expand the cells of this row once; repeated rows share them.
    const cells: Array<{ el: XmlElement; col: number }> = [];
    let col = 0;
    for (const cell of kids(entry.el)) {
      const count = repeat(cell, 'table:number-columns-repeated');
      for (let i = 0; i < count && col < maxCol; i++) cells.push({ el: cell, col: col++ });
      if (col >= maxCol) break;
    }
    for (let copy = 0; copy < entry.count && r < maxRow; copy++, r++) {
      if (hidden) continue;
      const tableRow: TableRow = { cells: [], minHeight: height };
      for (const { el, col: c } of cells) {
        if (columns[c]?.hidden || grid.covered.has(`${r}:${c}`) || el.nodeName !== 'table:table-cell') continue;
        const out = readCell(o, grid, entry.el, el, r, c, cells);
        if (out) tableRow.cells.push(out);
      }
      tableRows.push(tableRow);
    }
  }
  return tableRows;
}

/** One sheet as sections of pages (none when it has neither cells nor pictures). */
async function readSheet(o: OdsContext, sheet: XmlElement, name: string, options: XlsxOptions) {
  const { styles, notes } = o;
  const rows = rowEntries(sheet);
  let { maxRow, maxCol } = usedRange(rows);
  const pictures = await sheetPictures(o, sheet);
  const masterName = attr(styles.style('table', attr(sheet, 'table:style-name')), 'style:master-page-name');
  const { page, master } = styles.pageSetup(masterName);
  const turned =
    (options.orientation === 'landscape' && page.width < page.height) ||
    (options.orientation === 'portrait' && page.width > page.height);
  if (turned) [page.width, page.height] = [page.height, page.width];
  if (maxRow === 0) return { pictures, sections: pictures.length ? [{ page, blocks: pictures, bookmark: name }] : [] };
  if (maxCol > MAX_COLUMNS) {
    notes.add(`only the first ${MAX_COLUMNS.toLocaleString('en')} columns of a sheet are printed`);
    maxCol = MAX_COLUMNS;
  }
  const rowLimit = Math.min(MAX_ROWS, Math.max(1, Math.floor(MAX_CELLS / maxCol)));
  if (maxRow > rowLimit) {
    notes.add(`only the first ${rowLimit.toLocaleString('en')} rows of a sheet this wide are printed`);
    maxRow = rowLimit;
  }
  const columns = sheetColumns(styles, sheet, maxCol);
  const columnIndex = new Map<number, number>();
  const widths: number[] = [];
  columns.forEach((column, c) => {
    if (column.hidden) return;
    columnIndex.set(c, widths.length);
    widths.push(column.width);
  });
  const grid: Grid = { widths, rows: sheetRows(o, rows, { columns, columnIndex, covered: new Set(), maxCol }, maxRow) };
  const pageMaster =
    styles.masterPages.get(masterName ?? 'Default') ?? styles.masterPages.get(styles.masterOrder[0] ?? '');
  const layout = styles.pageLayouts.get(attr(pageMaster, 'style:page-layout-name') ?? '');
  const fit = options.fitToWidth || attr(kid(layout, 'style:page-layout-properties'), 'style:scale-to-X') === '1';
  const sheetSections = sectionsForGrid(grid, page, { fitWidth: fit });
  const width = page.width - page.margin.left - page.margin.right;
  const furniture = {
    header: await sheetFurniture(o, master, 'header', name, width),
    footer: await sheetFurniture(o, master, 'footer', name, width),
  };
  for (const section of sheetSections) Object.assign(section, furniture);
  sheetSections[sheetSections.length - 1].blocks.push(...pictures);
  sheetSections[0].bookmark = name;
  return { pictures, sections: sheetSections };
}

export async function readOds(zip: JSZip, options: XlsxOptions): Promise<{ sections: Section[]; notes: string[] }> {
  const { styles, content } = await readOdfStyles(zip);
  const spreadsheet = kid(kid(content, 'office:body'), 'office:spreadsheet');
  if (!spreadsheet) throw new Error('the file has no spreadsheet body');
  const notes = new Set<string>();
  const chosen = await chooseSheets(zip, styles, spreadsheet, options);
  const baseRun = { font: 'Liberation Sans', size: 10 };
  const reader = new OdfTextReader({ zip, styles, notes, baseRun, textWidth: 500, cellAlign: 'bottom' });
  const o: OdsContext = { zip, styles, notes, reader };
  const sections: Section[] = [];
  let pictureSheets = 0;
  for (const sheet of chosen) {
    const name = attr(sheet, 'table:name') ?? `Sheet${sections.length + 1}`;
    const read = await readSheet(o, sheet, name, options);
    if (read.pictures.length) pictureSheets++;
    sections.push(...read.sections);
  }
  if (pictureSheets) notes.add('pictures are printed after the cells of their sheet, not at their place on it');
  return { sections, notes: [...notes] };
}
