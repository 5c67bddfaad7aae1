/** Spreadsheet cell references ("B2", "$A$1:$H$40"), 1-based, shared by the Excel readers. */

/** A block of cells: first and last row and column, 1-based and inclusive. */
export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** "A" → 1, "Z" → 26, "AA" → 27. */
export function columnNumber(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
}

/** 1 → "A", 27 → "AA". */
export function columnName(column: number): string {
  let name = '';
  for (let c = column; c > 0; c = Math.floor((c - 1) / 26)) name = String.fromCharCode(65 + ((c - 1) % 26)) + name;
  return name;
}

/** A range like "B2:H40" (or "$B$2:$H$40", or one cell "C3"); undefined when it is not one. */
export function cellRange(range: string | undefined): CellRange | undefined {
  const match = /^\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/i.exec(range?.trim() ?? '');
  if (!match) return undefined;
  const [c1, r1, c2, r2] = [
    columnNumber(match[1]),
    Number(match[2]),
    columnNumber(match[3] ?? match[1]),
    Number(match[4] ?? match[2]),
  ];
  return { top: Math.min(r1, r2), left: Math.min(c1, c2), bottom: Math.max(r1, r2), right: Math.max(c1, c2) };
}
