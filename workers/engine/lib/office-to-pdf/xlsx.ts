/**
 * Reads a workbook (.xlsx with exceljs, or .csv) into sections of the layout model: each sheet's
 * used range as a table with column widths, row heights, number formats (SheetJS's SSF), fonts,
 * fills, alignment, borders and merged cells; text without "wrap text" runs on past the
 * cell's edge as it does in Excel. Sheets wider than the page are split into column bands
 * (down, then over, as Excel prints), unless "fit to page width" scales them down.
 */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import SSF from 'ssf';
import { withLocaleNames } from './format-locale.ts';
import { clip, endPath, popGraphicsState, pushGraphicsState, rectangle } from 'pdf-lib';
import type { Block, Border, Crop, DrawingInline, PageSetup, RunStyle, Section, TableCell, TableRow } from './model.ts';
import { firstStrongDirection, mirrorColumns } from './bidi.ts';
import { paragraph, pictureDrawing } from './model.ts';
import {
  chartSheetSection,
  readWorkbookCharts,
  type AnchoredShape,
  type SheetMetrics,
  type WorkbookCharts,
} from './xlsx-charts.ts';
import { EMU } from './shapes.ts';
import { excelColor, readExcelPalette, type ExcelPalette } from './xlsx-colors.ts';
import { conditionalLooks, excelUnderline } from './xlsx-conditional.ts';
import { cellRange, type CellRange } from './cell-refs.ts';
import { attr, find, findAll, imageMime, num, parseXml, readRels, zipText } from './xml.ts';
import { parseExcelHeaderFooter, regionsBlock } from './sheet-furniture.ts';
import {
  HEADING_COLUMN_WIDTH,
  HEADING_FRAME_RULE,
  HEADING_ROW_HEIGHT,
  withHeadings,
  type HeadingLabels,
} from './sheet-headings.ts';
import { repairWorkbookPackage } from './xlsx-repair.ts';
import { linearMerges } from './exceljs-merges.ts';
import { assertCsvFits, assertCsvTextFits, assertPrintableRange } from '../input-limits.ts';

export interface XlsxOptions {
  sheets: 'all' | 'active';
  fitToWidth: boolean;
  orientation: 'auto' | 'portrait' | 'landscape';
  /** For the &F code of headers and footers. */
  fileName?: string;
}

const A4: [number, number] = [595.28, 841.89];
const LETTER: [number, number] = [612, 792];
const DEFAULT_FONT: RunStyle = { font: 'Calibri', size: 11 };

/**
 * The widest digit of a font in points, as LibreOffice measures it to size columns: the digit
 * advance (in ems) of the font it prints with. Fonts it has no metric-compatible stand-in for fall
 * back to DejaVu Sans (fontconfig's default), whose digits are wider than most: a sheet in such a
 * font gets LibreOffice's wider columns, not an estimate of the missing font.
 */
export function digitWidthPt(font: { name?: string; size?: number }): number {
  const family = (font.name ?? 'Calibri').trim().toLowerCase();
  // Family names as fontconfig matches them (fc-match): "Arial" is Liberation Sans, "Arial Black" or
  // "Helvetica Neue" are not, and fall back like any other.
  const em = /^(calibri|carlito)$/.test(family)
    ? 0.5068
    : /^(cambria|caladea)$/.test(family)
      ? 0.517
      : /^(arial|helvetica|nimbus sans) narrow$/.test(family)
        ? 0.456
        : /^(arial|helvetica|liberation sans|arimo|nimbus sans)$/.test(family)
          ? 0.5562
          : /^(times new roman|times|liberation serif|tinos|nimbus roman)$/.test(family)
            ? 0.5
            : /^(courier new|courier|liberation mono|cousine|nimbus mono ps)$/.test(family)
              ? 0.6
              : /^(consolas|dejavu sans mono|bitstream vera sans mono)$/.test(family)
                ? 0.602
                : 0.6362;
  return (font.size ?? 11) * em;
}

/** Excel's "maximum digit width" in pixels at 96 per inch: Calibri 11 pt → 7 px, Calibri 12 pt → 8 px. */
export function maxDigitWidth(font: { name?: string; size?: number }): number {
  return Math.max(5, Math.round((digitWidthPt(font) * 96) / 72));
}

/**
 * Column width → points, as LibreOffice sizes columns. An explicit width (characters, padding
 * included; also a sheet's defaultColWidth) is that many digits of the default font, unrounded
 * (Excel rounds to whole pixels: 5 characters of Calibri 11 are 26.25 pt in Excel, 27.9 pt in
 * LibreOffice, which fits 18 such columns on A4 between half-inch margins where Excel fits 19).
 * Without one, the sheet's base width (characters, 8 unless the sheet says) plus 5 px of padding,
 * rounded up to a multiple of 8 px as Excel lays out default columns (Calibri 11: 64 px, "8.43"),
 * which LibreOffice matches.
 */
export function columnWidthPt(width: number | undefined, digitPt = 5.575, baseColWidth = 8): number {
  if (width !== undefined) return width * digitPt;
  const mdw = Math.max(5, Math.round((digitPt * 96) / 72));
  return Math.ceil((baseColWidth * mdw + 5) / 8) * 8 * 0.75;
}

/**
 * What exceljs does not read from a sheet's XML: its sheetFormatPr's `baseColWidth`, and whether it has a page setup.
 */
interface SheetXmlFacts {
  baseColWidth?: number;
  /** sheetFormatPr's defaultRowHeight (exceljs reads 15 when the element is missing, 0 when the attribute is). */
  defaultRowHeight?: number;
  /** The sheet has no pageSetup (LibreOffice prints it on its default page, A4) / no pageMargins. */
  noPageSetup: boolean;
  noPageMargins: boolean;
  /** Embedded objects (OLE: documents, equations…), which are not printed. */
  embeddedObjects: boolean;
  /** Rows (1-based) that start a page: the sheet's manual page breaks (exceljs does not read them). */
  rowBreaks: number[];
}

/** Sheet name → facts read from its XML. */
async function sheetXmlFacts(zip: JSZip): Promise<Map<string, SheetXmlFacts>> {
  const facts = new Map<string, SheetXmlFacts>();
  const workbookXml = await zipText(zip, 'xl/workbook.xml');
  if (!workbookXml) return facts;
  const rels = await readRels(zip, 'xl/workbook.xml');
  for (const sheet of findAll(parseXml(workbookXml), 'sheet')) {
    const target = rels.get(attr(sheet, 'r:id') ?? '')?.target;
    const xml = target ? await zipText(zip, target) : undefined;
    if (!xml) continue;
    const base = /<sheetFormatPr[^>]*\sbaseColWidth="([\d.]+)"/.exec(xml)?.[1];
    const defaultHeight = /<sheetFormatPr[^>]*\sdefaultRowHeight="([\d.]+)"/.exec(xml)?.[1];
    const noPageSetup = !/<(\w+:)?pageSetup[\s/>]/.test(xml);
    const noPageMargins = !/<(\w+:)?pageMargins[\s/>]/.test(xml);
    const embeddedObjects = /<(\w+:)?oleObject[\s/>]/.test(xml);
    // <brk id="50"/> breaks after row 50: row 51 starts the next page.
    const breaks = /<(\w+:)?rowBreaks[\s>][\s\S]*?<\/(\w+:)?rowBreaks>/.exec(xml)?.[0] ?? '';
    const rowBreaks = [...breaks.matchAll(/<(?:\w+:)?brk\s[^>]*?\bid="(\d+)"/g)].map((match) => Number(match[1]) + 1);
    facts.set(attr(sheet, 'name') ?? '', {
      baseColWidth: base ? Number(base) : undefined,
      defaultRowHeight: defaultHeight ? Number(defaultHeight) : undefined,
      noPageSetup,
      noPageMargins,
      embeddedObjects,
      rowBreaks,
    });
  }
  return facts;
}

/**
 * LibreOffice's default row height (256 twips, 0.45 cm), used for a sheet whose sheetFormatPr gives none: 451
 * hundredths of a millimetre in its PDF (measured: 12.785 pt a row).
 */
const LIBREOFFICE_DEFAULT_ROW_HEIGHT = (451 * 72) / 2540;

/**
 * The height LibreOffice 7.4 prints an .xlsx row of `points` at: whole 96 dpi pixels, then whole hundredths of a
 * millimetre, each rounded down (14.4 pt → 19 px → 502 → 14.230 pt; 20 → 26 px → 687 → 19.474 pt). Measured with
 * soffice on generated workbooks (tests/unit/xlsx-print.test.ts); stored heights (`ht`) and the sheet's
 * defaultRowHeight alike, with or without customHeight. A row is not grown for its fonts or wrapped text: a 14 pt
 * or a wrapped cell in a row without a height still prints it at the sheet's default height.
 */
export function libreOfficeRowHeight(points: number): number {
  if (!(points > 0)) return 0;
  return Math.floor((points * 96) / 72 + 1e-6) * 0.75;
}

/** Row `r` (1-based) of a sheet as LibreOffice prints it: its own height, else the sheet's default. */
function rowHeightPt(ws: ExcelJS.Worksheet, r: number, facts: SheetXmlFacts | undefined): number {
  const own = ws.findRow(r)?.height;
  if (own !== undefined) return libreOfficeRowHeight(own);
  if (facts && facts.defaultRowHeight === undefined) return LIBREOFFICE_DEFAULT_ROW_HEIGHT;
  return libreOfficeRowHeight(facts?.defaultRowHeight ?? ws.properties.defaultRowHeight ?? 15);
}

/** The workbook's default font: the first font of xl/styles.xml. */
async function defaultFont(zip: JSZip): Promise<{ name?: string; size?: number }> {
  const styles = await zipText(zip, 'xl/styles.xml');
  const font = styles ? find(find(parseXml(styles), 'fonts'), 'font') : undefined;
  return { name: attr(find(font, 'name'), 'val'), size: num(find(font, 'sz'), 'val') };
}

function borderOf(side: Partial<ExcelJS.Border> | undefined, palette: ExcelPalette): Border | undefined {
  if (!side?.style) return undefined;
  const width =
    side.style === 'thick'
      ? 1.5
      : side.style === 'medium' || side.style.startsWith('medium')
        ? 1
        : side.style === 'hair'
          ? 0.25
          : 0.5;
  return { width, color: excelColor(side.color, palette) ?? [0, 0, 0] };
}

/** Excel's last column (XFD). */
const MAX_COLUMN = 16384;

const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/** A cell's link: a hyperlink cell's address, or the first argument of a HYPERLINK("address", …) formula. */
function cellLink(value: ExcelJS.CellValue): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  if ('hyperlink' in value) return (value as ExcelJS.CellHyperlinkValue).hyperlink;
  if ('formula' in value && typeof value.formula === 'string') {
    // Excel writes a quote inside the address as "".
    return /^\s*=?\s*HYPERLINK\(\s*"((?:[^"]|"")*)"/i.exec(value.formula)?.[1].replace(/""/g, '"');
  }
  return undefined;
}

/**
 * A cell's value with its formula's cached result. exceljs's formula values leave out a result that is
 * 0, FALSE or "" (it copies only truthy fields), which Excel and LibreOffice show; the cell still has it.
 */
function shownValue(cell: ExcelJS.Cell): ExcelJS.CellValue {
  const value = cell.value;
  if (value && typeof value === 'object' && ('formula' in value || 'sharedFormula' in value) && !('result' in value))
    return { ...value, result: cell.result } as ExcelJS.CellValue;
  return value;
}

/**
 * The codes exceljs gives the built-in formats 14 and 22, and what they show: Excel shows them as the
 * system's short date (and time), LibreOffice (en-US) as 1/13/2012 and 1/13/2012 22:59, not 01-13-12.
 */
const BUILT_IN_DATE_FORMATS: Record<string, string> = {
  'mm-dd-yy': 'm/d/yyyy',
  'm/d/yy "h":mm': 'm/d/yyyy h:mm',
};

/**
 * A number through a number format. exceljs reads a format's escaped literals without their
 * backslash (yyyy\-mm\-dd\Thh:mm becomes yyyy-mm-ddThh:mm, d\.m\.yyyy d.m.yyyy), which SheetJS's SSF
 * then refuses ("unrecognized character T"): letters that are not format codes, and the points of
 * a date format, are escaped again.
 */
function formatNumber(format: string, value: number): string {
  // Excel and LibreOffice round the number's 15 significant digits: 1.005 (stored as 1.00499999999999989…)
  // shows as 1.01 in "0.00", where SheetJS's SSF rounds the binary value (100.49999… hundredths) to 1.00.
  // Its 15 digits, nudged away from zero below the 15th, round as decimals do.
  if (Number.isFinite(value) && value !== 0) {
    const decimal = Number(value.toPrecision(15));
    value = decimal + decimal * 4e-16;
  }
  format = withLocaleNames(format, value);
  try {
    return SSF.format(format, value);
  } catch (error) {
    // (A point is a literal too in a date format, which has no digit placeholders: "d.m.yyyy". The digits
    // of a locale or currency tag such as [$-407] are not placeholders.)
    const literalPoint = !/[0#?]/.test(format.replace(/"[^"]*"|\[[^\]]*\]/g, ''));
    let escaped = '';
    let quoted = false;
    let bracketed = false;
    for (let i = 0; i < format.length; i++) {
      const ch = format[i];
      const literal = (/\p{L}/u.test(ch) && !/[yYmMdDhHsSeEbBgGaApP]/.test(ch)) || (ch === '.' && literalPoint);
      if (ch === '\\') escaped += ch + (format[++i] ?? '');
      else if (!quoted && !bracketed && literal) escaped += `\\${ch}`;
      else {
        if (ch === '"') quoted = !quoted;
        else if (!quoted && ch === '[') bracketed = true;
        else if (ch === ']') bracketed = false;
        escaped += ch;
      }
    }
    if (escaped === format) throw error;
    return SSF.format(escaped, value);
  }
}

/** The text Excel shows for a cell: its value through its number format. */
export function displayText(value: ExcelJS.CellValue, numFmt: string | undefined): { text: string; numeric: boolean } {
  if (numFmt && BUILT_IN_DATE_FORMATS[numFmt]) numFmt = BUILT_IN_DATE_FORMATS[numFmt];
  if (value === null || value === undefined) return { text: '', numeric: false };
  if (typeof value === 'object' && 'result' in (value as object))
    return displayText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue, numFmt);
  if (typeof value === 'object' && 'richText' in (value as object))
    return {
      text: unescapeXmlChars((value as ExcelJS.CellRichTextValue).richText.map((r) => r.text).join('')),
      numeric: false,
    };
  if (typeof value === 'object' && 'text' in (value as object) && 'hyperlink' in (value as object))
    return displayText((value as ExcelJS.CellHyperlinkValue).text as ExcelJS.CellValue, numFmt);
  if (typeof value === 'object' && 'error' in (value as object))
    return { text: String((value as ExcelJS.CellErrorValue).error), numeric: false };
  if (value instanceof Date) {
    const serial = (value.getTime() - EXCEL_EPOCH) / 86_400_000;
    try {
      return { text: formatNumber(numFmt && numFmt !== 'General' ? numFmt : 'yyyy-mm-dd', serial), numeric: true };
    } catch {
      return { text: value.toISOString().slice(0, 10), numeric: true };
    }
  }
  if (typeof value === 'number') {
    try {
      return { text: formatNumber(numFmt || 'General', value), numeric: true };
    } catch {
      return { text: String(value), numeric: true };
    }
  }
  if (typeof value === 'boolean') return { text: value ? 'TRUE' : 'FALSE', numeric: false };
  // (A formula without a cached result shows nothing until it is calculated.)
  if (typeof value === 'object') return { text: '', numeric: false };
  return { text: typeof value === 'string' ? unescapeXmlChars(value) : String(value), numeric: false };
}

/**
 * A string's characters that XML cannot hold, which SpreadsheetML writes as _xHHHH_ (ECMA-376
 * §22.4.2.4): exceljs decodes them when the hex is in capitals only, so "Text_x000d_Test" (as Excel
 * writes a carriage return) stayed as it was. A carriage return or tab shows as nothing, as in LibreOffice.
 */
function unescapeXmlChars(text: string): string {
  if (!text.includes('_x') && !/[\r\t]/.test(text)) return text;
  return text
    .replace(/_x(?=[0-9A-F]{0,3}[a-f])([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/[\r\t]/g, '');
}

/** SpreadsheetML paper sizes (ECMA-376 §18.3.1.63) in points, the common ones. */
const PAPER_SIZES: Record<number, [number, number]> = {
  1: LETTER,
  2: LETTER,
  3: [792, 1224],
  4: [1224, 792],
  5: [612, 1008],
  7: [522, 756],
  8: [841.89, 1190.55],
  9: A4,
  10: A4,
  11: [419.53, 595.28],
  12: [708.66, 1000.63],
  13: [515.91, 728.5],
  66: [1190.55, 1683.78],
};

export function pageFor(ws: ExcelJS.Worksheet | undefined, options: XlsxOptions): PageSetup {
  const setup = ws?.pageSetup;
  // A sheet without a paper size has the schema's default, 1 (Letter: Excel leaves the attribute
  // out for Letter, and LibreOffice reads it so); a CSV file, which has no page setup, prints on A4.
  const paper = ws ? Number(setup?.paperSize ?? 1) : 9;
  let [width, height] = PAPER_SIZES[paper] ?? A4;
  const landscape =
    options.orientation === 'landscape' || (options.orientation === 'auto' && setup?.orientation === 'landscape');
  if (landscape) [width, height] = [height, width];
  const m = setup?.margins;
  const inch = (v: number | undefined, fallback: number) => (typeof v === 'number' && v >= 0 ? v : fallback) * 72;
  return {
    width,
    height,
    margin: {
      top: inch(m?.top, 0.75),
      bottom: inch(m?.bottom, 0.75),
      left: inch(m?.left, 0.7),
      right: inch(m?.right, 0.7),
    },
    headerDistance: inch(m?.header, 0.3),
    footerDistance: inch(m?.footer, 0.3),
  };
}

/**
 * The page of a sheet without a pageSetup element: LibreOffice's default page style, A4, with the
 * sheet's margins, or without pageMargins either 0.748 in at the sides and 0.984 in at the top and bottom.
 */
function defaultPage(page: PageSetup, noMargins: boolean): PageSetup {
  const [width, height] = page.width > page.height ? [A4[1], A4[0]] : A4;
  const side = 0.748 * 72,
    edge = 0.984 * 72;
  return {
    ...page,
    width,
    height,
    margin: noMargins ? { top: edge, bottom: edge, left: side, right: side } : page.margin,
  };
}

export interface Grid {
  widths: number[];
  rows: TableRow[];
}

function scaleGrid(grid: Grid, factor: number): void {
  grid.widths = grid.widths.map((w) => w * factor);
  const scaleBlocks = (blocks: Block[]) => {
    for (const block of blocks) {
      if (block.kind !== 'paragraph') continue;
      for (const inline of block.inlines)
        if ('style' in inline) inline.style = { ...inline.style, size: inline.style.size * factor };
    }
  };
  for (const row of grid.rows) {
    row.minHeight *= factor;
    row.overlays = row.overlays?.map((o) => ({
      ...o,
      x: o.x * factor,
      y: o.y * factor,
      drawing: { ...o.drawing, width: o.drawing.width * factor, height: o.drawing.height * factor },
    }));
    for (const cell of row.cells) {
      scaleBlocks(cell.blocks);
      cell.padding = {
        top: cell.padding.top * factor,
        bottom: cell.padding.bottom * factor,
        left: cell.padding.left * factor,
        right: cell.padding.right * factor,
      };
    }
  }
}

/** Cuts a grid into bands of columns that each fit `width`. */
function columnBands(grid: Grid, width: number): Grid[] {
  const bands: Array<[number, number]> = [];
  let start = 0;
  let used = 0;
  grid.widths.forEach((w, i) => {
    // (A tolerance: columns scaled to fit the width sum to it up to rounding.)
    if (i > start && used + w > width + 0.01) {
      bands.push([start, i]);
      start = i;
      used = 0;
    }
    used += w;
  });
  bands.push([start, grid.widths.length]);
  if (bands.length === 1) return [grid];
  const edges = [0];
  for (const w of grid.widths) edges.push(edges[edges.length - 1] + w);
  // Each cell goes to the bands it reaches (one pass over the cells, not one per band).
  const bandOf = new Int32Array(grid.widths.length);
  bands.forEach(([from, to], b) => bandOf.fill(b, from, to));
  const out: Grid[] = bands.map(([from, to]) => ({ widths: grid.widths.slice(from, to), rows: [] }));
  for (const row of grid.rows) {
    const pieces = out.map(() => ({
      ...row,
      cells: [] as TableRow['cells'],
      overlays: row.overlays ? ([] as NonNullable<TableRow['overlays']>) : undefined,
    }));
    for (const cell of row.cells) {
      const last = Math.min(cell.column + cell.colSpan, grid.widths.length) - 1;
      for (let b = bandOf[Math.min(cell.column, grid.widths.length - 1)]; b <= bandOf[Math.max(0, last)]; b++) {
        const [from, to] = bands[b];
        const piece = {
          ...cell,
          column: Math.max(cell.column, from) - from,
          colSpan: Math.min(cell.column + cell.colSpan, to) - Math.max(cell.column, from),
        };
        const sum = (a: number, z: number) => grid.widths.slice(a, Math.max(a, z)).reduce((x, w) => x + w, 0);
        if (piece.colSpan < cell.colSpan)
          piece.beyond = { left: sum(cell.column, from), right: sum(to, cell.column + cell.colSpan) };
        pieces[b].cells.push(piece);
      }
      for (const [b, left] of runOnBands(row, cell, edges, bands)) pieces[b].cells.unshift(runOnPiece(cell, left));
    }
    // A drawing is printed in the band where its anchor column is, and its part on each band to the
    // right that it reaches (drawn from off the page's left edge), as LibreOffice splits it.
    for (const overlay of row.overlays ?? []) {
      const first = bandOf[overlay.column];
      if (first === undefined) continue;
      pieces[first].overlays!.push({ ...overlay, column: overlay.column - bands[first][0] });
      const left = edges[overlay.column] + overlay.x;
      for (let b = first + 1; b < bands.length && edges[bands[b][0]] < left + overlay.drawing.width - 0.5; b++)
        pieces[b].overlays!.push({ ...overlay, column: 0, x: left - edges[bands[b][0]] });
    }
    pieces.forEach((piece, b) => out[b].rows.push(piece));
  }
  return out;
}

/**
 * The later bands of columns that a cell's text runs on into (left-aligned, not wrapped or clipped, over
 * empty cells up to the band's first column), each with the distance from the cell's left edge to the band's.
 */
function runOnBands(
  row: TableRow,
  cell: TableCell & { column: number },
  edges: number[],
  bands: Array<[number, number]>,
): Array<[number, number]> {
  if (cell.clip || cell.colSpan !== 1 || cell.rowSpan !== 1) return [];
  const inlines = cell.blocks.flatMap((b) =>
    b.kind === 'paragraph' && b.noWrap && b.align === 'left' ? b.inlines : [],
  );
  const width = inlines.reduce((sum, i) => sum + (i.kind === 'text' ? estimatedWidth(i.text, i.style.size) : 0), 0);
  const reach = edges[cell.column] + cell.padding.left + width;
  const out: Array<[number, number]> = [];
  for (const [b, [from]] of bands.entries()) {
    if (from <= cell.column) continue;
    if (edges[from] >= reach) break;
    // (Text runs on over empty cells only: a cell up to the band's first column stops it.)
    if (row.cells.some((other) => other.column > cell.column && other.column <= from && cellPrints(other))) break;
    out.push([b, edges[from] - edges[cell.column]]);
  }
  return out;
}

/**
 * The rest of a run-on text on a later page of columns, as LibreOffice prints it: the text laid out from
 * `left` points before the page's first column (off the page), its end running on over the page's empty cells.
 */
function runOnPiece(cell: TableCell & { column: number }, left: number): TableCell & { column: number } {
  return {
    ...cell,
    column: 0,
    colSpan: 1,
    borders: {},
    shading: undefined,
    bar: undefined,
    beyond: { left, right: 0 },
  };
}

/** Whether a cell prints anything a page would be kept for: text, a border, a data bar, a merged range. */
function cellPrints(cell: TableCell): boolean {
  if (cell.bar || cell.rowSpan > 1 || Object.values(cell.borders).some(Boolean)) return true;
  return cell.blocks.some((b) => b.kind !== 'paragraph' || b.inlines.some((i) => i.kind !== 'text' || i.text.trim()));
}

/** The columns a row's cells' text runs on over (past unclipped cells), as [first, last] pairs. */
function runOnSpans(row: TableRow, edges: number[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const lastColumn = edges.length - 2;
  for (const cell of row.cells) {
    if (cell.clip) continue;
    const text = cell.blocks.flatMap((b) => (b.kind === 'paragraph' ? b.inlines : []));
    const width = text.reduce((sum, i) => sum + (i.kind === 'text' ? estimatedWidth(i.text, i.style.size) : 0), 0);
    if (!(width > 0)) continue;
    let c = cell.column + cell.colSpan - 1;
    while (c < lastColumn && edges[c + 1] - edges[cell.column] < width) c++;
    if (c >= cell.column + cell.colSpan) spans.push([cell.column + cell.colSpan, c]);
  }
  return spans;
}

/**
 * The rows that begin each page of a band, as the layout cuts them: rows are exactly their height, print
 * titles (up to half a page) repeat at the top of every page after the first, a manual break starts a page.
 */
function pageStarts(rows: TableRow[], contentHeight: number): number[] {
  let repeated = 0;
  const titleHeight = rows
    .filter((row) => row.header)
    .reduce((sum, row) => ((repeated += row.minHeight) <= contentHeight / 2 ? sum + row.minHeight : sum), 0);
  const starts: number[] = [];
  let used = 0;
  rows.forEach((row, r) => {
    if (r === 0 || used + row.minHeight > contentHeight || row.pageBreakBefore) {
      starts.push(r);
      if (r > 0) used = titleHeight;
    }
    used += row.minHeight;
  });
  return starts;
}

/**
 * Leaves out the pages of a band of columns that print nothing, as LibreOffice does (its "suppress
 * output of empty pages", on by default): rows are cut into pages as the layout cuts them, and the rows
 * of a page without text (its own, text running on into it from the left, or a formula without a
 * cached result: `alsoPrints`), borders or drawings (hidden ones too) are dropped, fills alone not
 * counting. The pages around it break where they did.
 */
function withoutEmptyPages(
  band: Grid,
  contentHeight: number,
  alsoPrints: (r: number) => boolean,
): Grid & { keptRows?: number[] } {
  const rows = band.rows;
  if (!rows.every((row) => row.exactHeight)) return band;
  const starts = pageStarts(rows, contentHeight);
  const kept: TableRow[] = [];
  const keptRows: number[] = [];
  let spanEnd = -1; // the last row a merged cell of an earlier row reaches
  let breakCarried = false; // a left-out page began at a manual break: the next page begins with one
  starts.forEach((start, p) => {
    const end = starts[p + 1] ?? rows.length;
    let printed = false;
    for (let r = start; r < end; r++) {
      const row = rows[r];
      printed ||= r <= spanEnd || Boolean(row.overlays?.length) || row.cells.some(cellPrints) || alsoPrints(r);
      for (const cell of row.cells) spanEnd = Math.max(spanEnd, r + cell.rowSpan - 1);
    }
    if (!printed) {
      breakCarried ||= Boolean(rows[start].pageBreakBefore);
      return;
    }
    for (let r = start; r < end; r++) {
      kept.push(r === start && breakCarried && kept.length ? { ...rows[r], pageBreakBefore: true } : rows[r]);
      keptRows.push(r);
    }
    breakCarried = false;
  });
  return kept.length === rows.length ? band : { ...band, rows: kept, keptRows };
}

/**
 * The part of a drawing from `from` to `to` points below its top edge, clipped to that part: a drawing
 * taller than the rest of its page prints that share there and the rest on the next pages.
 */
function drawingWindow(drawing: DrawingInline, from: number, to: number): DrawingInline {
  return {
    ...drawing,
    height: to - from,
    prepare: async (ctx, width, height) => {
      const scale = width / drawing.width;
      const draw = await drawing.prepare(ctx, width, drawing.height * scale);
      return (page, x, bottom) => {
        page.pushOperators(pushGraphicsState(), rectangle(x, bottom, width, height), clip(), endPath());
        draw(page, x, bottom + height + from * scale - drawing.height * scale);
        page.pushOperators(popGraphicsState());
      };
    },
  };
}

/**
 * Drawings that reach past the last row of their page are printed as LibreOffice prints them: each page
 * of rows they cover shows its share (a picture 1,050 pt tall prints its top on one page and the rest on
 * the next), so that page is printed too. The shares are overlays on the first row of each page.
 */
function drawingsAcrossPages(band: Grid, contentHeight: number): Grid {
  const rows = band.rows;
  if (!rows.some((row) => row.overlays?.length) || !rows.every((row) => row.exactHeight)) return band;
  const starts = pageStarts(rows, contentHeight);
  if (starts.length < 2) return band;
  const top = [0];
  for (const row of rows) top.push(top[top.length - 1] + row.minHeight);
  const overlays = rows.map((row) => row.overlays?.slice());
  let page = 0;
  rows.forEach((row, r) => {
    while (starts[page + 1] !== undefined && starts[page + 1] <= r) page++;
    row.overlays?.forEach((overlay, i) => {
      const from = top[r] + overlay.y;
      const to = from + overlay.drawing.height;
      const pageEnd = (p: number) => top[starts[p + 1] ?? rows.length];
      if (page === starts.length - 1 || to <= pageEnd(page) + 0.5) return;
      overlays[r]![i] = { ...overlay, drawing: drawingWindow(overlay.drawing, 0, pageEnd(page) - from) };
      for (let p = page + 1; p < starts.length && top[starts[p]] < to - 0.5; p++) {
        const share = drawingWindow(overlay.drawing, top[starts[p]] - from, Math.min(to, pageEnd(p)) - from);
        (overlays[starts[p]] ??= []).push({ ...overlay, y: 0, drawing: share });
      }
    });
  });
  return {
    ...band,
    rows: rows.map((row, r) => (overlays[r] === row.overlays ? row : { ...row, overlays: overlays[r] })),
  };
}

/** How many pages `sizes` (column widths or row heights) times `factor` fill, each holding whole ones up to `limit`. */
function pagesFor(sizes: number[], factor: number, limit: number): number {
  let pages = 1;
  let used = 0;
  for (const unscaled of sizes) {
    const size = unscaled * factor;
    // (The tolerance of columnBands: sizes scaled to fit the page sum to it up to rounding.)
    if (used > 0 && used + size > limit + 0.01) {
      pages++;
      used = 0;
    }
    used += size;
  }
  return pages;
}

/**
 * The scale at which the grid fits `pagesWide` pages across and `pagesTall` down (0: no limit), as Excel's "fit
 * to … pages" asks and LibreOffice finds it: the largest whole percent (10 to 100) at which whole columns and
 * whole rows fill no more pages than that (2 pages tall, 200 rows of 15 pt in 733.9 pt: 48 %, 101 rows a page;
 * 2 pages wide, 30 columns: 15 a page). Rows count at their set heights (text that wraps taller is not counted).
 */
function fitFactor(grid: Grid, width: number, height: number, pagesWide: number, pagesTall: number): number {
  const heights = grid.rows.map((row) => row.minHeight);
  const totalWidth = grid.widths.reduce((a, b) => a + b, 0);
  const totalHeight = heights.reduce((a, b) => a + b, 0);
  let factor = 1;
  if (pagesWide > 0 && totalWidth > width * pagesWide) factor = (width * pagesWide) / totalWidth;
  if (pagesTall > 0 && totalHeight * factor > height * pagesTall) factor = (height * pagesTall) / totalHeight;
  const fits = (f: number) =>
    (pagesWide <= 0 || pagesFor(grid.widths, f, width) <= pagesWide) &&
    (pagesTall <= 0 || pagesFor(heights, f, height) <= pagesTall);
  let percent = Math.max(10, Math.floor(factor * 100 + 1e-9));
  while (percent > 10 && !fits(percent / 100)) percent--;
  // Fitted to a width alone, LibreOffice then tries 2 % smaller (whole percent, rounded down) and keeps
  // that if it prints fewer pages down (its tdf#103516: a last page of one or two rows disappears).
  if (pagesWide > 0 && pagesTall <= 0) {
    const pagesDown = pagesFor(heights, percent / 100, height);
    const nudged = Math.floor(percent * 0.98);
    if (pagesDown > 1 && nudged >= 10 && pagesFor(heights, nudged / 100, height) < pagesDown) percent = nudged;
  }
  return percent / 100;
}

/** How a sheet is scaled and placed on its pages (Excel's Page Setup). */
export interface GridPrint {
  /** Fit all columns on the page width. */
  fitWidth: boolean;
  /** Fit the columns on this many pages across (Excel "fit to … pages wide"; 0 or undefined: no limit). */
  fitPagesWide?: number;
  /** Fit all rows on this many pages (Excel "fit to … pages tall"; 0 or undefined: no limit). */
  fitHeight?: number;
  /** Scale in percent when not fitting (Excel "adjust to … % normal size"). */
  scale?: number;
  /** Centre the printed columns between the margins. */
  center?: boolean;
  /** A right-to-left sheet: column A at the right of the first page, each page's columns from the right. */
  rightToLeft?: boolean;
  /** Print the row and column headings (the grid's row numbers and column letters), as LibreOffice prints them. */
  headings?: HeadingLabels;
  /** Grid row → grid columns of formulas without a result: they print nothing, but keep their page. */
  blankFormulas?: number[][];
  /** Page Layout › Sheet Options › Gridlines › Print: lines around every cell of the printed range. */
  gridLines?: boolean;
}

/** Printed gridlines: thin and black, as Excel and LibreOffice print them. */
const GRIDLINE: Border = { width: 0.5, color: [0, 0, 0] };

export function sectionsForGrid(grid: Grid, page: PageSetup, print: GridPrint): Section[] {
  const { headings } = print;
  // (The headings take their column and row of each page, at the sheet's scale.)
  const pageWidth = page.width - page.margin.left - page.margin.right;
  const pageHeight = page.height - page.margin.top - page.margin.bottom;
  let available = pageWidth - (headings ? HEADING_COLUMN_WIDTH : 0);
  let contentHeight = pageHeight - (headings ? HEADING_ROW_HEIGHT : 0);
  let factor = print.scale && print.scale >= 10 && print.scale <= 400 ? print.scale / 100 : 1;
  const pagesWide = print.fitWidth ? 1 : (print.fitPagesWide ?? 0);
  if (pagesWide > 0 || print.fitHeight)
    factor = fitFactor(grid, available, contentHeight, pagesWide, print.fitHeight ?? 0);
  if (factor !== 1) scaleGrid(grid, factor);
  if (headings) {
    available = pageWidth - HEADING_COLUMN_WIDTH * factor;
    contentHeight = pageHeight - HEADING_ROW_HEIGHT * factor;
  }
  const edges = [0];
  for (const w of grid.widths) edges.push(edges[edges.length - 1] + w);
  const runOn = new Map<number, Array<[number, number]>>(); // (measured only for rows on pages that look empty)
  const spans = (r: number) => runOn.get(r) ?? runOn.set(r, runOnSpans(grid.rows[r], edges)).get(r)!;
  let from = 0;
  const bands = columnBands(grid, available).map((band) => {
    const [first, last] = [from, from + band.widths.length - 1];
    from += band.widths.length;
    // (With the headings too: LibreOffice prints them on the pages it prints.)
    const printed = withoutEmptyPages(
      drawingsAcrossPages(band, contentHeight),
      contentHeight,
      (r) =>
        spans(r).some(([a, b]) => a <= last && b >= first) ||
        Boolean(print.blankFormulas?.[r]?.some((c) => c >= first && c <= last)),
    );
    if (!headings || printed.rows.length === 0) return printed;
    const rowLabels = 'keptRows' in printed ? printed.keptRows!.map((r) => headings.rows[r]) : headings.rows;
    return withHeadings(printed, rowLabels, headings.columns.slice(first, last + 1), factor);
  });
  return bands
    .filter((band, i) => band.rows.length > 0 || (i === 0 && bands.every((b) => b.rows.length === 0)))
    .map((band) => ({
      page,
      blocks: [
        {
          kind: 'table',
          columnWidths: print.rightToLeft ? mirrorColumns(band.widths, mirrorBeyond(band.rows)) : band.widths,
          rows: band.rows,
          indentLeft: 0,
          align: print.center ? 'center' : print.rightToLeft ? 'right' : 'left',
          ...(headings && { ruleAtBreaks: HEADING_FRAME_RULE }),
          ...(print.gridLines && { gridLines: GRIDLINE }),
        },
      ],
    }));
}

/** Right to left, the columns of a split merge on earlier pages lie to the right of this page's part. */
function mirrorBeyond(rows: TableRow[]): TableRow[] {
  for (const row of rows)
    for (const cell of row.cells) if (cell.beyond) cell.beyond = { left: cell.beyond.right, right: cell.beyond.left };
  return rows;
}

/** The sheet's page header and footer (odd pages, and even / first page when the sheet asks for them). */
function addHeadersAndFooters(ws: ExcelJS.Worksheet, sections: Section[], options: XlsxOptions): void {
  const hf = ws.headerFooter as Partial<ExcelJS.HeaderFooter> | undefined;
  if (!hf || sections.length === 0) return;
  const page = sections[0].page;
  const width = page.width - page.margin.left - page.margin.right;
  const ctx = { sheetName: ws.name, fileName: options.fileName ?? '', base: DEFAULT_FONT };
  const blocks = (code: string | undefined) => regionsBlock(parseExcelHeaderFooter(code, ctx), width);
  const odd = { header: blocks(hf.oddHeader), footer: blocks(hf.oddFooter) };
  const even = hf.differentOddEven ? { header: blocks(hf.evenHeader), footer: blocks(hf.evenFooter) } : undefined;
  const first = hf.differentFirst ? { header: blocks(hf.firstHeader), footer: blocks(hf.firstFooter) } : undefined;
  sections.forEach((section, index) => {
    Object.assign(section, odd);
    if (even) section.evenPages = even;
    if (first && index === 0) section.firstPage = first;
  });
}

/**
 * The sheet's pictures at their anchors (exceljs reads them), drawn over the cells like shapes and
 * cropped as the drawing part says (`crops`, in the same order; none when the counts differ).
 */
function sheetPictures(
  workbook: ExcelJS.Workbook,
  ws: ExcelJS.Worksheet,
  columnWidth: (c: number) => number,
  rowHeight: (r: number) => number,
  crops: Array<Crop | undefined> = [],
): AnchoredShape[] {
  const out: AnchoredShape[] = [];
  const images = ws.getImages();
  for (const [index, placed] of images.entries()) {
    const image = workbook.getImage(Number(placed.imageId));
    const bytes = image?.buffer ? new Uint8Array(image.buffer as unknown as ArrayBuffer) : undefined;
    const mime = image?.extension ? imageMime(`picture.${image.extension}`) : undefined;
    if (!bytes || !mime) continue; // (a metafile that cannot be drawn is skipped when it is laid out)
    type Corner = { nativeCol: number; nativeColOff?: number; nativeRow: number; nativeRowOff?: number };
    const range = placed.range as unknown as { tl: Corner; br?: Corner; ext?: { width: number; height: number } };
    // A two-cell anchor: the sheet's columns and rows between its corners (0-based), plus the offsets.
    const { tl, br } = range;
    const span = (from: number, to: number, size: (i: number) => number) =>
      Array.from({ length: Math.max(0, to - from) }, (_, i) => size(from + i + 1)).reduce((a, b) => a + b, 0);
    const width = range.ext
      ? range.ext.width * 0.75
      : br
        ? span(tl.nativeCol, br.nativeCol, columnWidth) + ((br.nativeColOff ?? 0) - (tl.nativeColOff ?? 0)) * EMU
        : 4 * 48;
    const height = range.ext
      ? range.ext.height * 0.75
      : br
        ? span(tl.nativeRow, br.nativeRow, rowHeight) + ((br.nativeRowOff ?? 0) - (tl.nativeRowOff ?? 0)) * EMU
        : 10 * 15;
    if (!(width > 0 && height > 0)) continue;
    const crop = crops.length === images.length ? crops[index] : undefined;
    const drawing = pictureDrawing({ kind: 'image', bytes, mime, width, height, ...(crop ? { crop } : {}) });
    out.push({
      row: range.tl.nativeRow,
      column: range.tl.nativeCol,
      rowOffset: (range.tl.nativeRowOff ?? 0) * EMU,
      columnOffset: (range.tl.nativeColOff ?? 0) * EMU,
      drawing,
    });
  }
  return out;
}

/** The sheet's notes as Excel prints them "at end of sheet": "Cell: B2" and "Comment: …", row by row. */
function noteList(ws: ExcelJS.Worksheet, maxRow: number, maxCol: number): Block[] {
  const blocks: Block[] = [];
  for (let r = 1; r <= maxRow; r++) {
    for (let c = 1; c <= maxCol; c++) {
      const note = ws.findCell(r, c)?.note as string | { texts?: Array<{ text: string }> } | undefined;
      const text = typeof note === 'string' ? note : (note?.texts?.map((t) => t.text).join('') ?? '');
      if (!text) continue;
      blocks.push(
        paragraph([{ kind: 'text', text: `Cell: ${ws.getCell(r, c).address}`, style: DEFAULT_FONT }], {
          spaceBefore: blocks.length ? 8 : 0,
        }),
      );
      text
        .split(/\r?\n/)
        .forEach((line, i) =>
          blocks.push(paragraph([{ kind: 'text', text: i === 0 ? `Comment: ${line}` : line, style: DEFAULT_FONT }])),
        );
    }
  }
  return blocks;
}

/** East Asian wide and fullwidth characters (CJK, kana, Hangul, fullwidth forms): a whole em each. */
const WIDE_CHARACTER = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;

/**
 * A text's width in points from Calibri-like character classes (narrow, capitals and m/w, digits, wide East
 * Asian characters, the rest).
 */
function estimatedWidth(text: string, size: number): number {
  let ems = 0;
  for (const ch of text)
    ems += /[\s.,;:'!|ijltfr()[\]-]/.test(ch)
      ? 0.28
      : /[A-Zmw]/.test(ch)
        ? 0.62
        : /\d/.test(ch)
          ? 0.507
          : WIDE_CHARACTER.test(ch)
            ? 1
            : 0.48;
  return ems * size;
}

/**
 * The last column that text running on past the used range reaches: a row's last text, without
 * "wrap text" and aligned left, runs on over the empty columns to its right, and LibreOffice prints
 * those columns too (the text's width is estimated from its characters).
 */
function runOnReach(ws: ExcelJS.Worksheet, maxRow: number, maxCol: number, columnWidth: (c: number) => number): number {
  let reach = maxCol;
  ws.eachRow({ includeEmpty: false }, (row, r) => {
    if (r > maxRow) return;
    let last: ExcelJS.Cell | undefined;
    row.eachCell({ includeEmpty: false }, (cell) => {
      if (cell.value !== null && cell.value !== undefined && cell.value !== '') last = cell;
    });
    if (!last || last.isMerged || last.alignment?.wrapText) return;
    const horizontal = last.alignment?.horizontal;
    const { text, numeric } = displayText(shownValue(last), last.numFmt);
    if (numeric || (horizontal && horizontal !== 'left')) return;
    let width = estimatedWidth(text, last.font?.size ?? DEFAULT_FONT.size);
    let c = Number(last.col);
    while (c < MAX_COLUMN && c < maxCol + 50) {
      width -= columnWidth(c);
      if (width <= 0) break;
      c++;
    }
    reach = Math.max(reach, c);
  });
  return reach;
}

export function textCell(
  text: string,
  style: RunStyle,
  column: number,
  overrides: Partial<TableCell> = {},
  align: 'left' | 'center' | 'right' | 'justify' = 'left',
): TableCell & { column: number } {
  return {
    column,
    colSpan: 1,
    rowSpan: 1,
    blocks: [paragraph([{ kind: 'text', text, style }], { align, lineSpacing: { rule: 'auto', value: 1 } })],
    borders: {},
    verticalAlign: 'bottom',
    // Half a point above and below: a line of the default font fits Excel's default row height (Calibri 11 in 15 pt).
    padding: { top: 0.5, bottom: 0.5, left: 2.5, right: 2.5 },
    ...overrides,
  };
}

/** What printing one cell needs from its sheet. */
interface SheetCellContext {
  palette: ExcelPalette;
  looks: ReturnType<typeof conditionalLooks>;
  merges: Map<string, { rows: number; cols: number }>;
  hiddenCols: Set<number>;
  columnIndex: Map<number, number>;
  /** The sheet is laid out right to left: a cell's neighbour on the right is the column before it. */
  rightToLeft: boolean;
}

/**
 * A TRUE / FALSE or an error value (#N/A, #DIV/0!…), itself or as a formula's result: "General"
 * aligns it right in LibreOffice, as a number (Excel centres it).
 */
function logicalOrError(value: ExcelJS.CellValue): boolean {
  const result = value && typeof value === 'object' && 'result' in value ? value.result : value;
  return typeof result === 'boolean' || Boolean(result && typeof result === 'object' && 'error' in result);
}

/**
 * One cell as printed (its text through its number format, font, fill, borders, alignment), or undefined when it shows
 * nothing.
 */
function printedCell(
  row: ExcelJS.Row,
  r: number,
  c: number,
  sheet: SheetCellContext,
): (TableCell & { column: number }) | undefined {
  const { palette, looks, merges, hiddenCols, columnIndex } = sheet;
  const cell = row.getCell(c);
  const shown = shownValue(cell);
  const { text, numeric } = displayText(shown, cell.numFmt);
  const font = cell.font ?? {};
  const style: RunStyle = {
    font: font.name ?? DEFAULT_FONT.font,
    size: font.size ?? DEFAULT_FONT.size,
    bold: font.bold,
    italic: font.italic,
    underline: excelUnderline(font.underline),
    strike: font.strike,
    color: excelColor(font.color, palette),
    link: cellLink(cell.value),
  };
  const look = looks.get(`${r}:${c}`);
  if (look)
    Object.assign(
      style,
      Object.fromEntries(
        Object.entries({
          color: look.color,
          bold: look.bold,
          italic: look.italic,
          underline: look.underline === false ? undefined : look.underline,
          strike: look.strike,
        }).filter(([, v]) => v !== undefined),
      ),
    );
  const horizontal = cell.alignment?.horizontal;
  const align =
    horizontal === 'center' || horizontal === 'centerContinuous'
      ? 'center'
      : horizontal === 'right'
        ? 'right'
        : horizontal === 'justify'
          ? 'justify'
          : horizontal === 'left'
            ? 'left'
            : numeric || logicalOrError(shown)
              ? 'right'
              : 'left';
  const fill =
    look?.fill ??
    (cell.fill?.type === 'pattern' && cell.fill.pattern === 'solid'
      ? excelColor(cell.fill.fgColor, palette)
      : undefined);
  const merge = merges.get(`${r}:${c}`);
  const vertical = cell.alignment?.vertical;
  const out = textCell(
    text,
    style,
    columnIndex.get(c)!,
    {
      shading: fill,
      borders: {
        top: borderOf(cell.border?.top, palette),
        bottom: borderOf(cell.border?.bottom, palette),
        left: borderOf(cell.border?.left, palette),
        right: borderOf(cell.border?.right, palette),
      },
      verticalAlign: vertical === 'top' ? 'top' : vertical === 'middle' ? 'middle' : 'bottom',
      rowSpan: merge?.rows ?? 1,
      colSpan: merge ? [...Array(merge.cols).keys()].filter((i) => !hiddenCols.has(c + i)).length || 1 : 1,
    },
    align,
  );
  // Right-to-left text: the cell's reading order, else its first letter ("context", Excel's default);
  // a General-aligned text then starts at the right.
  const readingOrder = (cell.alignment as { readingOrder?: string } | undefined)?.readingOrder;
  const direction = readingOrder === 'rtl' || readingOrder === 'ltr' ? readingOrder : firstStrongDirection(text);
  if (direction === 'rtl')
    for (const block of out.blocks)
      if (block.kind === 'paragraph') {
        block.direction = 'rtl';
        if (!horizontal && !numeric && typeof cell.value !== 'boolean') block.align = 'right';
      }
  if (look?.bar) out.bar = look.bar;
  if (!text && !fill && !Object.values(out.borders).some(Boolean) && !merge) return undefined;
  // Text without "wrap text" runs on past the cell's edge, as Excel prints it.
  if (cell.alignment?.wrapText) out.clip = true;
  else {
    for (const block of out.blocks) if (block.kind === 'paragraph') block.noWrap = true;
    const nextColumn = sheet.rightToLeft ? c - 1 : c + (merge?.cols ?? 1);
    const next = nextColumn >= 1 && nextColumn <= MAX_COLUMN ? row.findCell(nextColumn)?.value : undefined;
    out.clip = !(next === null || next === undefined || next === '') || align !== 'left';
    // ("General" numbers lose decimals to fit instead; that is not done here: they are cut.)
    out.hashesWhenTooWide =
      numeric && (cell.value instanceof Date || Boolean(cell.numFmt && cell.numFmt !== 'General'));
  }
  return out;
}

/** The workbook read by exceljs, and the package bytes it was read from (normalised when exceljs refused them). */
async function loadWorkbook(bytes: Uint8Array): Promise<{ workbook: ExcelJS.Workbook; bytes: Uint8Array }> {
  const workbook = new ExcelJS.Workbook();
  const failure = await workbook.xlsx.load(bytes as unknown as ArrayBuffer).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!failure && workbook.worksheets.length > 0) return { workbook, bytes };
  // exceljs's reader is strict where Excel is not (and finds no sheet in parts it does not expect
  // where they are): read the package again once normalised.
  const repaired = await repairWorkbookPackage(bytes);
  if (!repaired) throw failure ?? new Error('the workbook has no sheets');
  const again = new ExcelJS.Workbook();
  await again.xlsx.load(repaired as unknown as ArrayBuffer);
  return { workbook: again, bytes: repaired };
}

/**
 * The used range: the last row and column with a value, how many cells hold one, and each column's
 * last row with a value.
 */
function usedRange(ws: ExcelJS.Worksheet): {
  maxRow: number;
  maxCol: number;
  cellsWithValues: number;
  lastValueRow: Map<number, number>;
} {
  let maxRow = 0;
  let maxCol = 0;
  let cellsWithValues = 0;
  const lastValueRow = new Map<number, number>();
  ws.eachRow({ includeEmpty: false }, (row, r) => {
    row.eachCell({ includeEmpty: false }, (cell, c) => {
      if (cell.value !== null && cell.value !== undefined && cell.value !== '') {
        maxRow = Math.max(maxRow, r);
        maxCol = Math.max(maxCol, c);
        lastValueRow.set(c, r);
        cellsWithValues++;
      }
    });
  });
  return { maxRow, maxCol, cellsWithValues, lastValueRow };
}

/** LibreOffice stops looking for formatted cells below a column's data at a run of this many equal rows. */
const VISIBLE_RUN_STOP = 84;

/**
 * How far empty cells with borders extend the printed range, as LibreOffice finds its print area
 * (ScAttrArray::GetLastVisibleAttr): below each column's last value (row 1 when it has none), runs
 * of rows whose borders look the same are followed until a run of 84 or more (a ruled column down
 * to the end of the sheet, the rows without borders before the next ruled cell) ends the search; the
 * last ruled run before it counts. Fills alone do not extend what LibreOffice prints.
 */
function borderReach(ws: ExcelJS.Worksheet, lastValueRow: Map<number, number>): { maxRow: number; maxCol: number } {
  const ruled = new Map<number, Array<[number, string]>>();
  // exceljs's eachRow / eachCell pass over cells with a style but no value, or visit every index up to
  // the last one (creating a row for each): its sparse arrays of the rows and cells it read are walked instead.
  type Stored<T> = { _rows?: Array<T | undefined>; _cells?: Array<T | undefined> };
  (ws as unknown as Stored<ExcelJS.Row>)._rows?.forEach((row, index) => {
    const r = index + 1;
    (row as unknown as Stored<ExcelJS.Cell>)._cells?.forEach((cell, cellIndex) => {
      const c = cellIndex + 1;
      const border = cell?.border;
      if (!border) return;
      const sides = (['left', 'right', 'top', 'bottom', 'diagonal'] as const)
        .map((side) => (border[side]?.style ? `${side}:${border[side]!.style}` : ''))
        .join();
      if (sides.replace(/,/g, '')) (ruled.get(c) ?? ruled.set(c, []).get(c)!).push([r, sides]);
    });
  });
  let maxRow = 0;
  let maxCol = 0;
  for (const [c, cells] of ruled) {
    let next = (lastValueRow.get(c) ?? 1) + 1; // the first row of the next run
    let i = cells.findIndex(([r]) => r >= next);
    while (i >= 0 && i < cells.length) {
      const [start, look] = cells[i];
      if (start - next >= VISIBLE_RUN_STOP) break; // a run of rows without borders
      let end = start;
      while (i + 1 < cells.length && cells[i + 1][0] === end + 1 && cells[i + 1][1] === look) end = cells[++i][0];
      if (end - start + 1 >= VISIBLE_RUN_STOP) break;
      maxRow = Math.max(maxRow, end);
      maxCol = Math.max(maxCol, c);
      next = end + 1;
      i++;
    }
  }
  return { maxRow, maxCol };
}

/**
 * The sheet's merged ranges: each one's size at its top-left cell ("row:column"), the cells it covers,
 * and the last row and column any of them reaches.
 */
function sheetMerges(ws: ExcelJS.Worksheet): {
  merges: Map<string, { rows: number; cols: number }>;
  covered: Set<string>;
  bottom: number;
  right: number;
} {
  const merges = new Map<string, { rows: number; cols: number }>();
  const covered = new Set<string>();
  let bottom = 0;
  let right = 0;
  for (const range of (ws.model as { merges?: string[] }).merges ?? []) {
    const [a, b] = range.split(':');
    const start = ws.getCell(a);
    const end = ws.getCell(b ?? a);
    const r1 = Number(start.row),
      c1 = Number(start.col),
      r2 = Number(end.row),
      c2 = Number(end.col);
    merges.set(`${r1}:${c1}`, { rows: r2 - r1 + 1, cols: c2 - c1 + 1 });
    for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) if (r !== r1 || c !== c1) covered.add(`${r}:${c}`);
    bottom = Math.max(bottom, r2);
    right = Math.max(right, c2);
  }
  return { merges, covered, bottom, right };
}

/** The printed area's columns: the hidden ones, the widths of the others, and each visible one's index in widths. */
function visibleColumns(
  ws: ExcelJS.Worksheet,
  area: CellRange,
  columnWidth: (c: number) => number,
): { hiddenCols: Set<number>; widths: number[]; columnIndex: Map<number, number> } {
  const hiddenCols = new Set<number>();
  const widths: number[] = [];
  const columnIndex = new Map<number, number>();
  for (let c = area.left; c <= area.right; c++) {
    const column = ws.getColumn(c);
    if (column.hidden) {
      hiddenCols.add(c);
      continue;
    }
    columnIndex.set(c, widths.length);
    widths.push(columnWidth(c));
  }
  return { hiddenCols, widths, columnIndex };
}

function isFormula(value: ExcelJS.CellValue | undefined): boolean {
  return Boolean(value && typeof value === 'object' && ('formula' in value || 'sharedFormula' in value));
}

/**
 * The printed area's visible rows with their cells, each visible row's index in rows, and the columns (of
 * the grid) of each row's formulas that show nothing (no cached result): LibreOffice recalculates them, and a
 * page with a formula is never an empty page.
 */
function printedRows(
  ws: ExcelJS.Worksheet,
  area: CellRange,
  isTitleRow: (r: number) => boolean,
  cells: SheetCellContext & { covered: Set<string> },
  facts: SheetXmlFacts | undefined,
): { rows: TableRow[]; rowIndex: Map<number, number>; blankFormulas: number[][] } {
  const rows: TableRow[] = [];
  const rowIndex = new Map<number, number>();
  const blankFormulas: number[][] = [];
  for (let r = area.top; r <= area.bottom; r++) {
    const row = ws.getRow(r);
    if (row.hidden) continue;
    rowIndex.set(r, rows.length);
    // A row is as tall as the sheet says (its height, else the sheet's default), whatever its cells
    // hold: Excel and LibreOffice print stored heights and cut off text that wraps taller.
    const height = rowHeightPt(ws, r, facts);
    const tableRow: TableRow = {
      cells: [],
      minHeight: height,
      exactHeight: true,
      header: isTitleRow(r),
    };
    for (let c = area.left; c <= area.right; c++) {
      if (cells.hiddenCols.has(c) || cells.covered.has(`${r}:${c}`)) continue;
      const out = printedCell(row, r, c, cells);
      if (out) tableRow.cells.push(out);
      else if (isFormula(row.findCell(c)?.value)) (blankFormulas[rows.length] ??= []).push(cells.columnIndex.get(c)!);
    }
    rows.push(tableRow);
  }
  return { rows, rowIndex, blankFormulas };
}

/**
 * The row and column (1-based) a drawing's bottom-right corner lies in, counting its size from its
 * anchor over the sheet's row heights and column widths (hidden ones too: a drawing keeps its size).
 */
function shapeFarCell(
  shape: AnchoredShape,
  columnWidth: (c: number) => number,
  rowHeight: (r: number) => number,
): [number, number] {
  let c = shape.column + 1;
  for (let x = columnWidth(c) - shape.columnOffset; x < shape.drawing.width - 0.5 && c < MAX_COLUMN; c++)
    x += columnWidth(c + 1);
  let r = shape.row + 1;
  for (let y = rowHeight(r) - shape.rowOffset; y < shape.drawing.height - 0.5 && r < shape.row + 10000; r++)
    y += rowHeight(r + 1);
  return [r, c];
}

/** Shapes lie over the cells from their anchor (the next visible row / column when that one is hidden). */
function overlayShapes(
  shapes: AnchoredShape[],
  area: CellRange,
  rows: TableRow[],
  rowIndex: Map<number, number>,
  columnIndex: Map<number, number>,
): void {
  for (const shape of shapes) {
    let r = shape.row + 1;
    while (!rowIndex.has(r) && r <= area.bottom) r++;
    let c = shape.column + 1;
    while (!columnIndex.has(c) && c <= area.right) c++;
    const row = rows[rowIndex.get(r) ?? -1];
    const column = columnIndex.get(c);
    if (!row || column === undefined) continue;
    (row.overlays ??= []).push({ column, x: shape.columnOffset, y: shape.rowOffset, drawing: shape.drawing });
  }
}

/** The printed rows' numbers and the printed columns' letters, in the grid's order. */
function headingLabels(
  ws: ExcelJS.Worksheet,
  rowIndex: Map<number, number>,
  columnIndex: Map<number, number>,
): HeadingLabels {
  const rows: string[] = [];
  for (const [r, index] of rowIndex) rows[index] = String(r);
  const columns: string[] = [];
  for (const [c, index] of columnIndex) columns[index] = ws.getColumn(c).letter;
  return { rows, columns };
}

/** What printing one sheet needs from its workbook. */
interface WorkbookContext {
  workbook: ExcelJS.Workbook;
  options: XlsxOptions;
  palette: ExcelPalette;
  /** The default font's widest digit in points, which column widths are counted in. */
  digitPt: number;
  xmlFacts: Map<string, SheetXmlFacts>;
  charts: WorkbookCharts | undefined;
  shapeNotes: Set<string>;
}

/** One worksheet's printed sections (none when it prints nothing). */
function printSheet(ws: ExcelJS.Worksheet, book: WorkbookContext): Section[] {
  const { workbook, options, palette, digitPt, xmlFacts, charts, shapeNotes } = book;
  if (xmlFacts.get(ws.name)?.embeddedObjects && !charts?.objectsShown.has(ws.name))
    shapeNotes.add('embedded objects (OLE) were left out');
  const used = usedRange(ws);
  let { maxRow, maxCol } = used;
  if (maxRow > 0) {
    const ruled = borderReach(ws, used.lastValueRow);
    maxRow = Math.max(maxRow, ruled.maxRow);
    maxCol = Math.max(maxCol, ruled.maxCol);
  }
  assertPrintableRange(
    options.fileName ?? 'the workbook',
    ws.name,
    maxRow,
    maxCol,
    used.cellsWithValues,
    ws.getCell(maxRow || 1, maxCol || 1).address,
  );
  const columnWidth = (c: number) =>
    columnWidthPt(ws.getColumn(c).width ?? ws.properties.defaultColWidth, digitPt, xmlFacts.get(ws.name)?.baseColWidth);
  // (Text runs on to the right; on a right-to-left sheet that is towards column A, already printed.)
  const rightToLeft = (ws.views?.[0] as { rightToLeft?: boolean } | undefined)?.rightToLeft === true;
  if (!rightToLeft) maxCol = runOnReach(ws, maxRow, maxCol, columnWidth);
  // Notes: Excel prints them at the end of the sheet when asked to; else those shown on the sheet
  // are printed where they are shown (as LibreOffice does; Excel's default would leave them out).
  const notesAtEnd = (ws.pageSetup as { cellComments?: string } | undefined)?.cellComments === 'atEnd';
  // Pictures, charts, shapes and text boxes are printed at their anchor cell, so the printed range reaches it.
  const rowHeight = (r: number) => rowHeightPt(ws, r, xmlFacts.get(ws.name));
  const shapes = [
    ...sheetPictures(workbook, ws, columnWidth, rowHeight, charts?.pictureCrops.get(ws.name)),
    ...(charts?.shapes.get(ws.name) ?? []),
  ].filter((shape) => !(notesAtEnd && shape.note));
  // LibreOffice prints the whole of each drawing: the range reaches the cell its far corner lies in.
  for (const shape of shapes) {
    const [lastRow, lastCol] = shapeFarCell(shape, columnWidth, rowHeight);
    maxRow = Math.max(maxRow, Math.min(lastRow, maxRow + 500));
    maxCol = Math.max(maxCol, Math.min(lastCol, maxCol + 50));
  }
  if (maxRow === 0) return [];

  const { merges, covered, bottom, right } = sheetMerges(ws);
  maxRow = Math.max(maxRow, bottom);
  maxCol = Math.max(maxCol, right);

  // The print area, when the sheet has one (the first of several), else the used range; and the
  // print titles: rows repeated at the top of every page.
  const setup = ws.pageSetup as Partial<ExcelJS.PageSetup> | undefined;
  // (A print area past the last used cell prints up to that cell: a whole-sheet area is not a million empty rows.)
  const printArea = cellRange(setup?.printArea?.split('&&')[0]);
  const area = printArea
    ? { ...printArea, bottom: Math.min(printArea.bottom, maxRow), right: Math.min(printArea.right, maxCol) }
    : { top: 1, left: 1, bottom: maxRow, right: maxCol };
  const [titleFrom, titleTo] = (setup?.printTitlesRow ?? '').split(':').map(Number);

  const { hiddenCols, widths, columnIndex } = visibleColumns(ws, area, columnWidth);

  // Conditional formats, on the cells' values (numbers as numbers, anything else as its display text).
  const looks = conditionalLooks(
    ws,
    palette,
    area,
    (r, c) => {
      const cell = ws.findCell(r, c);
      const value = cell && shownValue(cell);
      const result =
        value && typeof value === 'object' && 'result' in value ? (value as ExcelJS.CellFormulaValue).result : value;
      if (typeof result === 'number') return result;
      return cell ? displayText(value, cell.numFmt).text || undefined : undefined;
    },
    shapeNotes,
  );
  const { rows, rowIndex, blankFormulas } = printedRows(
    ws,
    area,
    (r) => r >= titleFrom && r <= titleTo,
    { palette, looks, merges, hiddenCols, columnIndex, covered, rightToLeft },
    xmlFacts.get(ws.name),
  );
  overlayShapes(shapes, area, rows, rowIndex, columnIndex);
  const fitToPage = Boolean(setup?.fitToPage);
  // Manual page breaks: on the first printed row from the break on (not when the rows are fitted to a
  // number of pages tall, as in LibreOffice).
  if (!(fitToPage && (setup?.fitToHeight ?? 1) > 0))
    for (const breakRow of xmlFacts.get(ws.name)?.rowBreaks ?? []) {
      let r = breakRow;
      while (r <= area.bottom && !rowIndex.has(r)) r++;
      const index = rowIndex.get(r);
      if (index) rows[index].pageBreakBefore = true;
    }
  const page = xmlFacts.get(ws.name)?.noPageSetup
    ? defaultPage(pageFor(ws, options), xmlFacts.get(ws.name)!.noPageMargins)
    : pageFor(ws, options);
  const sheetSections = sectionsForGrid({ widths, rows }, page, {
    fitWidth: Boolean(options.fitToWidth),
    fitPagesWide: fitToPage ? (setup?.fitToWidth ?? 1) : undefined,
    fitHeight: fitToPage ? (setup?.fitToHeight ?? 1) : undefined,
    scale: setup?.scale,
    center: Boolean(setup?.horizontalCentered),
    rightToLeft,
    headings: setup?.showRowColHeaders ? headingLabels(ws, rowIndex, columnIndex) : undefined,
    blankFormulas,
    gridLines: setup?.showGridLines === true,
  });
  if (notesAtEnd) {
    const notesPage = noteList(ws, maxRow, maxCol);
    if (notesPage.length) sheetSections.push({ page, blocks: notesPage });
  }
  sheetSections[0].bookmark = ws.name;
  // Page Setup › First page number: the sheet's pages are numbered from it (the next sheet counts on).
  const first = setup as { useFirstPageNumber?: boolean; firstPageNumber?: number } | undefined;
  if (first?.useFirstPageNumber && Number.isInteger(first.firstPageNumber))
    sheetSections[0].pageNumbers = { start: first.firstPageNumber };
  addHeadersAndFooters(ws, sheetSections, options);
  return sheetSections;
}

/** The sizes of a worksheet's columns and rows in points, to place the charts and shapes anchored to its cells. */
function sheetMetrics(
  workbook: ExcelJS.Workbook,
  digitPt: number,
  xmlFacts: Map<string, SheetXmlFacts>,
): (name: string) => SheetMetrics | undefined {
  return (name) => {
    const ws = workbook.getWorksheet(name);
    return (
      ws && {
        column: (c) =>
          columnWidthPt(
            ws.getColumn(c + 1).width ?? ws.properties.defaultColWidth,
            digitPt,
            xmlFacts.get(ws.name)?.baseColWidth,
          ),
        row: (r) => rowHeightPt(ws, r + 1, xmlFacts.get(ws.name)),
      }
    );
  };
}

export async function readXlsx(
  bytes: Uint8Array,
  options: XlsxOptions,
): Promise<{ sections: Section[]; notes: string[] }> {
  const notes: string[] = [];
  linearMerges();
  let workbook: ExcelJS.Workbook;
  ({ workbook, bytes } = await loadWorkbook(bytes));
  const shapeNotes = new Set<string>();
  const activeIndex = (workbook.views?.[0] as { activeTab?: number } | undefined)?.activeTab ?? 0;
  const visible = workbook.worksheets.filter((ws) => ws.state !== 'hidden' && ws.state !== 'veryHidden');
  const sheets =
    options.sheets === 'active' ? [workbook.worksheets[activeIndex] ?? visible[0]].filter(Boolean) : visible;
  const sections: Section[] = [];
  const parts = await JSZip.loadAsync(bytes);
  const palette = await readExcelPalette(parts);
  const digitPt = digitWidthPt(await defaultFont(parts));
  const xmlFacts = await sheetXmlFacts(parts);
  // Charts (read from the package: exceljs does not read them), and chart sheets in their place.
  const charts = await readWorkbookCharts(
    parts,
    sheetMetrics(workbook, digitPt, xmlFacts),
    pageFor(undefined, options),
    shapeNotes,
  ).catch(() => void shapeNotes.add('charts and drawn shapes that could not be read were left out'));
  const chartSheetsBefore = (name: string | undefined) =>
    (options.sheets === 'all' ? (charts?.chartSheets.filter((c) => c.before === name) ?? []) : []).map((c) =>
      chartSheetSection(c, pageFor(undefined, options)),
    );

  const book: WorkbookContext = {
    workbook,
    options,
    palette,
    digitPt,
    xmlFacts,
    charts: charts ?? undefined,
    shapeNotes,
  };
  for (const ws of sheets) {
    sections.push(...chartSheetsBefore(ws.name));
    sections.push(...printSheet(ws, book));
  }
  sections.push(...chartSheetsBefore(undefined));
  notes.push(...shapeNotes);
  if (sections.length === 0) notes.push('the workbook has no cells with values');
  return { sections, notes };
}

/** RFC 4180 CSV (quotes, doubled quotes, CRLF), with the delimiter guessed from the first line. */
export function parseCsv(text: string): string[][] {
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
  const delimiter = [',', ';', '\t']
    .map((d) => [d, firstLine.split(d).length] as const)
    .sort((a, b) => b[1] - a[1])[0][0];
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

export function readCsv(text: string, options: XlsxOptions): Section[] {
  assertCsvTextFits(options.fileName ?? 'the CSV file', text);
  const rows = parseCsv(text.replace(/^\uFEFF/, ''));
  assertCsvFits(options.fileName ?? 'the CSV file', rows);
  const columns = rows.reduce((most, r) => Math.max(most, r.length), 0);
  const widths = Array.from({ length: columns }, (_, c) =>
    Math.min(300, Math.max(40, ...rows.slice(0, 200).map((r) => (r[c] ?? '').length * 5.6 + 8))),
  );
  const grid: Grid = {
    widths,
    rows: rows.map((cells, r) => ({
      minHeight: 15,
      header: r === 0,
      cells: cells.map((text, c) => {
        const numeric = /^-?[\d.,]+%?$/.test(text.trim()) && text.trim() !== '';
        return textCell(
          text,
          { ...DEFAULT_FONT, bold: r === 0 },
          c,
          {
            borders: {
              top: { width: 0.25, color: [0.75, 0.75, 0.75] },
              bottom: { width: 0.25, color: [0.75, 0.75, 0.75] },
            },
          },
          numeric ? 'right' : 'left',
        );
      }),
    })),
  };
  return sectionsForGrid(grid, pageFor(undefined, options), { fitWidth: options.fitToWidth });
}
