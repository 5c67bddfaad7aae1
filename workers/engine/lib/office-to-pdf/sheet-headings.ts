/**
 * A sheet's row and column headings (Excel's Page Setup ▸ Sheet ▸ "Row and column headings",
 * `printOptions headings="1"`), printed as LibreOffice 7.4 prints them: above each page's columns a row
 * of their letters, 12.8 pt tall, and left of its rows a column of their numbers, 1 cm wide, each label
 * in Liberation Sans (Arial) 10 pt centred in a ruled box, the printed cells framed on the right and at
 * the bottom of every page. Measured with soffice on generated workbooks (tests/unit/xlsx-headings.test.ts).
 */
import type { Border, RunStyle, TableCell, TableRow } from './model.ts';
import { paragraph } from './model.ts';

/** LibreOffice's heading sizes (sc printfun.cxx: PRINT_HEADER_WIDTH 1 cm, PRINT_HEADER_HEIGHT 12.8 pt). */
export const HEADING_COLUMN_WIDTH = 72 / 2.54;
export const HEADING_ROW_HEIGHT = 12.8;

const HEADING_STYLE: RunStyle = { font: 'Arial', size: 10 };
const RULE: Border = { width: 0.5, color: [0, 0, 0] };
/** The frame's rule, also drawn under the last row of each page but the last (Table.ruleAtBreaks). */
export const HEADING_FRAME_RULE = RULE;

/** The labels of the printed grid: one per row of the grid (its sheet row number), one per column (its letters). */
export interface HeadingLabels {
  rows: string[];
  columns: string[];
}

function labelCell(text: string, column: number, factor: number): TableCell & { column: number } {
  return {
    column,
    colSpan: 1,
    rowSpan: 1,
    blocks: [
      paragraph([{ kind: 'text', text, style: { ...HEADING_STYLE, size: HEADING_STYLE.size * factor } }], {
        align: 'center',
        noWrap: true,
        lineSpacing: { rule: 'auto', value: 1 },
      }),
    ],
    borders: { top: RULE, right: RULE, bottom: RULE, left: RULE },
    verticalAlign: 'middle',
    padding: { top: 0, bottom: 0, left: 0, right: 0 },
    clip: true,
  };
}

/**
 * One page band of a sheet with its headings: a column of row numbers before its columns, a header row
 * (repeated on every page) of the letters of `columns` (the band's labels) above its rows. `factor` is the
 * sheet's print scale, which the headings take too.
 */
export function withHeadings(
  band: { widths: number[]; rows: TableRow[] },
  rowLabels: string[],
  columns: string[],
  factor: number,
): { widths: number[]; rows: TableRow[] } {
  const last = band.widths.length; // the band's last column, counted after the heading column
  const headingRow: TableRow = {
    cells: [labelCell('', 0, factor), ...columns.map((label, i) => labelCell(label, i + 1, factor))],
    minHeight: HEADING_ROW_HEIGHT * factor,
    exactHeight: true,
    header: true,
  };
  const rows = band.rows.map((row, r): TableRow => {
    const cells = row.cells.map((cell) => ({ ...cell, column: cell.column + 1 }));
    // The frame: a rule right of the last column and under the last row.
    const frame = (cell: TableCell & { column: number }) => {
      const right = cell.column + cell.colSpan - 1 === last;
      const bottom = r + cell.rowSpan === band.rows.length;
      return right || bottom
        ? {
            ...cell,
            borders: { ...cell.borders, ...(right && { right: RULE }), ...(bottom && { bottom: RULE }) },
          }
        : cell;
    };
    const framed = cells.map(frame);
    const covered = (c: number) => framed.some((cell) => cell.column <= c && c < cell.column + cell.colSpan);
    if (!covered(last)) framed.push(frame(emptyCell(last)));
    if (r === band.rows.length - 1) for (let c = 1; c < last; c++) if (!covered(c)) framed.push(frame(emptyCell(c)));
    framed.sort((a, b) => a.column - b.column);
    return {
      ...row,
      cells: [labelCell(rowLabels[r] ?? '', 0, factor), ...framed],
      overlays: row.overlays?.map((overlay) => ({ ...overlay, column: overlay.column + 1 })),
    };
  });
  return { widths: [HEADING_COLUMN_WIDTH * factor, ...band.widths], rows: [headingRow, ...rows] };
}

function emptyCell(column: number): TableCell & { column: number } {
  return {
    column,
    colSpan: 1,
    rowSpan: 1,
    blocks: [],
    borders: {},
    verticalAlign: 'bottom',
    padding: { top: 0, bottom: 0, left: 0, right: 0 },
  };
}
