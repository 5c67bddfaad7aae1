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
import { attr, findAll, kid, kids, parseXml, zipText, type XmlElement } from './xml.ts';
import { length, OdfTextReader, repeat } from './odf.ts';
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
    else if (['table:table-header-rows', 'table:table-row-group', 'table:table-rows'].includes(el.nodeName)) rowEntries(el, out);
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
  return cell.nodeName === 'table:table-cell' && (attr(cell, 'office:value-type') !== undefined || cellText(cell) !== '');
}

export async function readOds(zip: JSZip, options: XlsxOptions): Promise<{ sections: Section[]; notes: string[] }> {
  const { styles, content } = await readOdfStyles(zip);
  const spreadsheet = kid(kid(content, 'office:body'), 'office:spreadsheet');
  if (!spreadsheet) throw new Error('the file has no spreadsheet body');
  const notes = new Set<string>();
  // Hidden sheets and sheets marked "do not print" are left out, as Calc prints.
  const sheets = kids(spreadsheet, 'table:table').filter((t) => attr(kid(styles.style('table', attr(t, 'table:style-name')), 'style:table-properties'), 'table:display') !== 'false' && attr(t, 'table:print') !== 'false');
  let chosen = sheets;
  if (options.sheets === 'active') {
    const settings = await zipText(zip, 'settings.xml');
    const active = settings ? findAll(parseXml(settings), 'config:config-item').find((item) => attr(item, 'config:name') === 'ActiveTable')?.textContent : undefined;
    chosen = [sheets.find((t) => attr(t, 'table:name') === active) ?? sheets[0]].filter(Boolean);
  }
  const reader = new OdfTextReader({ zip, styles, notes, baseRun: { font: 'Liberation Sans', size: 10 }, textWidth: 500, cellAlign: 'bottom' });

  /** A Calc page header or footer: plain paragraphs, or left / centre / right regions side by side. */
  const sheetFurniture = async (master: XmlElement | undefined, kind: 'header' | 'footer', sheetName: string, width: number): Promise<Block[] | undefined> => {
    const el = kid(master, `style:${kind}`);
    if (!el || attr(el, 'style:display') === 'false') return undefined;
    const furnitureReader = new OdfTextReader({ zip, styles, notes, baseRun: { font: 'Liberation Sans', size: 10 }, textWidth: width, sheetName });
    const regions = (['left', 'center', 'right'] as const).map((side) => kid(el, `style:region-${side}`));
    // Without regions, Calc centres the header or footer.
    if (!regions.some(Boolean)) return (await furnitureReader.blocks(el)).map((block) => (block.kind === 'paragraph' ? { ...block, align: 'center' as const } : block));
    const [left, center, right] = await Promise.all(regions.map((region) => furnitureReader.blocks(region)));
    return regionsBlock([left, center, right], width);
  };
  const sections: Section[] = [];
  let pictureSheets = 0;

  for (const sheet of chosen) {
    const name = attr(sheet, 'table:name') ?? `Sheet${sections.length + 1}`;
    const rows = rowEntries(sheet);
    // Used range: the last row and column with a value, counting repeats without expanding them.
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
    const pictures: Block[] = [];
    for (const frame of findAll(sheet, 'draw:frame')) {
      const image = await reader.image(frame);
      if (image) pictures.push(paragraph([{ kind: 'image', bytes: image.bytes, mime: image.mime, width: length(attr(frame, 'svg:width')) ?? 72, height: length(attr(frame, 'svg:height')) ?? 72 }], { spaceBefore: 6 }));
      else if (kid(frame, 'draw:object')) notes.add('charts were left out');
    }
    if (pictures.length) pictureSheets++;
    const masterName = attr(styles.style('table', attr(sheet, 'table:style-name')), 'style:master-page-name');
    const { page, master } = styles.pageSetup(masterName);
    if ((options.orientation === 'landscape' && page.width < page.height) || (options.orientation === 'portrait' && page.width > page.height)) [page.width, page.height] = [page.height, page.width];
    if (maxRow === 0) {
      if (pictures.length) sections.push({ page, blocks: pictures, bookmark: name });
      continue;
    }
    if (maxCol > MAX_COLUMNS) {
      notes.add(`only the first ${MAX_COLUMNS.toLocaleString('en')} columns of a sheet are printed`);
      maxCol = MAX_COLUMNS;
    }
    const rowLimit = Math.min(MAX_ROWS, Math.max(1, Math.floor(MAX_CELLS / maxCol)));
    if (maxRow > rowLimit) {
      notes.add(`only the first ${rowLimit.toLocaleString('en')} rows of a sheet this wide are printed`);
      maxRow = rowLimit;
    }

    // Columns: widths, hidden ones, default cell styles.
    const columns: Array<{ width: number; hidden: boolean; cellStyle?: string }> = [];
    const collectColumns = (container: XmlElement) => {
      for (const el of kids(container)) {
        if (el.nodeName === 'table:table-column') {
          const style = styles.style('table-column', attr(el, 'table:style-name'));
          const width = length(attr(kid(style, 'style:table-column-properties'), 'style:column-width')) ?? 64;
          const info = { width, hidden: (attr(el, 'table:visibility') ?? 'visible') !== 'visible', cellStyle: attr(el, 'table:default-cell-style-name') };
          for (let i = 0; i < repeat(el, 'table:number-columns-repeated') && columns.length < maxCol; i++) columns.push(info);
        } else if (['table:table-columns', 'table:table-header-columns', 'table:table-column-group'].includes(el.nodeName)) collectColumns(el);
      }
    };
    collectColumns(sheet);
    while (columns.length < maxCol) columns.push({ width: 64, hidden: false });
    const columnIndex = new Map<number, number>();
    const widths: number[] = [];
    columns.forEach((column, c) => {
      if (column.hidden) return;
      columnIndex.set(c, widths.length);
      widths.push(column.width);
    });

    const tableRows: TableRow[] = [];
    const covered = new Set<string>();
    let r = 0;
    for (const entry of rows) {
      if (r >= maxRow) break;
      const rowStyle = kid(styles.style('table-row', attr(entry.el, 'table:style-name')), 'style:table-row-properties');
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
          if (columns[c]?.hidden || covered.has(`${r}:${c}`) || el.nodeName !== 'table:table-cell') continue;
          const styleName = attr(el, 'table:style-name') ?? attr(entry.el, 'table:default-cell-style-name') ?? columns[c]?.cellStyle;
          const format = reader.cellFormat(styleName);
          const valueType = attr(el, 'office:value-type');
          const numeric = NUMERIC.has(valueType ?? '');
          let text = cellText(el);
          // Calc always writes the display text; other producers may give only the value.
          if (!text && numeric && attr(el, 'office:value') !== undefined) text = displayText(Number(attr(el, 'office:value')), 'General').text;
          if (!text && valueType === 'string') text = attr(el, 'office:string-value') ?? '';
          if (!text && valueType === 'boolean') text = attr(el, 'office:boolean-value') === 'true' ? 'TRUE' : 'FALSE';
          const style: RunStyle = styles.runStyle(format.chain, { font: 'Liberation Sans', size: 10 });
          const textAlign = styles.prop(format.chain, 'style:paragraph-properties', 'fo:text-align');
          const align = textAlign === 'center' ? 'center' : textAlign === 'end' || textAlign === 'right' ? 'right' : textAlign === 'justify' ? 'justify' : textAlign === 'start' || textAlign === 'left' ? 'left' : numeric ? 'right' : valueType === 'boolean' ? 'center' : 'left';
          const colSpanSource = repeat(el, 'table:number-columns-spanned');
          const rowSpan = repeat(el, 'table:number-rows-spanned');
          for (let dr = 0; dr < rowSpan; dr++) for (let dc = 0; dc < colSpanSource; dc++) if (dr || dc) covered.add(`${r + dr}:${c + dc}`);
          const colSpan = Math.max(1, [...Array(colSpanSource).keys()].filter((i) => c + i < maxCol && !columns[c + i]?.hidden).length);
          const out = textCell(text, style, columnIndex.get(c)!, {
            shading: format.shading,
            borders: format.borders,
            verticalAlign: format.verticalAlign,
            rowSpan,
            colSpan,
          }, align);
          if (text.includes('\n')) out.blocks = text.split('\n').map((line) => paragraph([{ kind: 'text', text: line, style }], { align }));
          if (!text && !format.shading && !Object.values(format.borders).some(Boolean) && colSpanSource === 1 && rowSpan === 1) continue;
          // Text without "wrap text automatically" runs on past the cell's edge, as Calc prints it.
          if (!format.wrap) {
            for (const block of out.blocks) if (block.kind === 'paragraph') block.noWrap = true;
            const next = cells[c + colSpanSource]; // cells[i] is column i
            out.clip = Boolean(next && hasValue(next.el)) || align !== 'left';
          }
          tableRow.cells.push(out);
        }
        tableRows.push(tableRow);
      }
    }
    const grid: Grid = { widths, rows: tableRows };
    const layout = styles.pageLayouts.get(attr(styles.masterPages.get(masterName ?? 'Default') ?? styles.masterPages.get(styles.masterOrder[0] ?? ''), 'style:page-layout-name') ?? '');
    const fit = options.fitToWidth || attr(kid(layout, 'style:page-layout-properties'), 'style:scale-to-X') === '1';
    const sheetSections = sectionsForGrid(grid, page, { fitWidth: fit });
    const furniture = { header: await sheetFurniture(master, 'header', name, page.width - page.margin.left - page.margin.right), footer: await sheetFurniture(master, 'footer', name, page.width - page.margin.left - page.margin.right) };
    for (const section of sheetSections) Object.assign(section, furniture);
    sheetSections[sheetSections.length - 1].blocks.push(...pictures);
    sheetSections[0].bookmark = name;
    sections.push(...sheetSections);
  }
  if (pictureSheets) notes.add('pictures are printed after the cells of their sheet, not at their place on it');
  return { sections, notes: [...notes] };
}
