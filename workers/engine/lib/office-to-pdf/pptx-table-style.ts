/**
 * PowerPoint table styles (ppt/tableStyles.xml, DrawingML `a:tblStyle`): which fill, borders and
 * text weight/colour each cell gets from the table's style and its "header row", "banded rows",
 * "first column"… flags. A style is a stack of parts, each covering a region of the table:
 * wholeTbl, banded columns, banded rows, last/first column, last/first row — later parts win.
 * Within a part, `left/right/top/bottom` borders are the region's outer edges and
 * `insideH/insideV` the edges between its cells.
 */
import type { Border, Rgb } from './model.ts';
import { attr, kid, kids, num, parseXml, type XmlElement } from './xml.ts';

/** Resolves a colour element's parent (solidFill, fontRef, tcTxStyle…) with the slide's theme and colour map. */
export type ColorOf = (parent: XmlElement | undefined) => Rgb | undefined;

export interface TableFlags {
  firstRow: boolean;
  lastRow: boolean;
  firstCol: boolean;
  lastCol: boolean;
  bandRow: boolean;
  bandCol: boolean;
}

export interface StyledCell {
  fill?: Rgb;
  bold?: boolean;
  italic?: boolean;
  color?: Rgb;
  /** `null` = the style says no line here. */
  borders: { top?: Border | null; bottom?: Border | null; left?: Border | null; right?: Border | null };
}

const EMU = 72 / 914400;

export interface TableStyles {
  byId: Map<string, XmlElement>;
  defaultId?: string;
}

export function readTableStyles(xml: string | undefined): TableStyles {
  const byId = new Map<string, XmlElement>();
  if (!xml) return { byId };
  const root = parseXml(xml);
  for (const style of kids(root, 'a:tblStyle')) {
    const id = attr(style, 'styleId');
    if (id) byId.set(id, style);
  }
  return { byId, defaultId: attr(root, 'def') };
}

export function tableFlags(tblPr: XmlElement | undefined): TableFlags {
  const on = (name: string) => attr(tblPr, name) === '1' || attr(tblPr, name) === 'true';
  return {
    firstRow: on('firstRow'),
    lastRow: on('lastRow'),
    firstCol: on('firstCol'),
    lastCol: on('lastCol'),
    bandRow: on('bandRow'),
    bandCol: on('bandCol'),
  };
}

/** A line (`a:ln`, or a table-cell `a:lnL`…): its border, `null` for "no line", undefined when unset. */
export function lineOf(ln: XmlElement | undefined, colorOf: ColorOf): Border | null | undefined {
  if (!ln) return undefined;
  if (kid(ln, 'a:noFill')) return null;
  const color = colorOf(kid(ln, 'a:solidFill'));
  if (!color) return undefined;
  return { width: Math.max(0.25, (num(ln, 'w') ?? 12700) * EMU), color };
}

function fillOf(tcStyle: XmlElement | undefined, colorOf: ColorOf): Rgb | 'none' | undefined {
  const fill = kid(tcStyle, 'a:fill');
  if (!fill) return undefined;
  if (kid(fill, 'a:noFill')) return 'none';
  return colorOf(kid(fill, 'a:solidFill'));
}

/** The style's look for the cell at (row, col) of a rows × cols table. */
export function styleCell(
  style: XmlElement | undefined,
  flags: TableFlags,
  row: number,
  col: number,
  rows: number,
  cols: number,
  colorOf: ColorOf,
): StyledCell {
  const cell: StyledCell = { borders: {} };
  if (!style) return cell;
  const bodyRow = row - (flags.firstRow ? 1 : 0);
  const bodyCol = col - (flags.firstCol ? 1 : 0);
  const inBodyRows = row >= (flags.firstRow ? 1 : 0) && row < rows - (flags.lastRow ? 1 : 0);
  const inBodyCols = col >= (flags.firstCol ? 1 : 0) && col < cols - (flags.lastCol ? 1 : 0);
  // [part, region rows, region cols] from lowest to highest priority.
  const parts: Array<[string, [number, number], [number, number]]> = [['wholeTbl', [0, rows - 1], [0, cols - 1]]];
  if (flags.bandCol && inBodyCols) parts.push([bodyCol % 2 === 0 ? 'band1V' : 'band2V', [0, rows - 1], [col, col]]);
  if (flags.bandRow && inBodyRows) parts.push([bodyRow % 2 === 0 ? 'band1H' : 'band2H', [row, row], [0, cols - 1]]);
  if (flags.lastCol && col === cols - 1) parts.push(['lastCol', [0, rows - 1], [col, col]]);
  if (flags.firstCol && col === 0) parts.push(['firstCol', [0, rows - 1], [0, 0]]);
  if (flags.lastRow && row === rows - 1) parts.push(['lastRow', [row, row], [0, cols - 1]]);
  if (flags.firstRow && row === 0) parts.push(['firstRow', [0, 0], [0, cols - 1]]);

  for (const [name, [r0, r1], [c0, c1]] of parts) {
    const part = kid(style, `a:${name}`);
    if (!part) continue;
    const tcStyle = kid(part, 'a:tcStyle');
    const fill = fillOf(tcStyle, colorOf);
    if (fill === 'none') cell.fill = undefined;
    else if (fill) cell.fill = fill;
    const bdr = kid(tcStyle, 'a:tcBdr');
    const edge = (outer: string, inner: string, isOuter: boolean) =>
      lineOf(kid(kid(bdr, `a:${isOuter ? outer : inner}`), 'a:ln'), colorOf);
    const sides = {
      top: edge('top', 'insideH', row === r0),
      bottom: edge('bottom', 'insideH', row === r1),
      left: edge('left', 'insideV', col === c0),
      right: edge('right', 'insideV', col === c1),
    };
    for (const [side, border] of Object.entries(sides) as Array<
      [keyof StyledCell['borders'], Border | null | undefined]
    >) {
      if (border !== undefined) cell.borders[side] = border;
    }
    const text = kid(part, 'a:tcTxStyle');
    if (text) {
      if (attr(text, 'b')) cell.bold = attr(text, 'b') === 'on';
      if (attr(text, 'i')) cell.italic = attr(text, 'i') === 'on';
      cell.color = colorOf(text) ?? colorOf(kid(text, 'a:fontRef')) ?? cell.color;
    }
  }
  return cell;
}
