/**
 * exceljs checks each merged range it reads against every range merged before it, which makes
 * reading a sheet quadratic in its merges (5,000 merges: 12.5 million comparisons, seconds of work;
 * tens of thousands: minutes). This replaces that check on exceljs's Worksheet with one lookup per
 * merged cell, and a range that overlaps one merged before it is skipped instead of failing the
 * whole workbook ("Cannot merge already merged cells"), as Excel keeps the first.
 */
import ExcelJS from 'exceljs';

interface MergeRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}
interface WorksheetInternals {
  _merges: Record<string, unknown>;
  _mergeCellsInternal(dimensions: MergeRange, ignoreStyle?: boolean): void;
  folioMergedCells?: Set<number>;
  folioLargeMerges?: MergeRange[];
}

/** Ranges of more cells than this are compared one by one instead of being listed cell by cell. */
const LARGE_MERGE = 4096;
const overlaps = (a: MergeRange, b: MergeRange) =>
  a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;

let patched = false;

export function linearMerges(): void {
  if (patched) return;
  patched = true;
  const prototype = Object.getPrototypeOf(new ExcelJS.Workbook().addWorksheet('probe')) as WorksheetInternals;
  const original = prototype._mergeCellsInternal;
  if (typeof original !== 'function') return; // another exceljs version: its own check stays
  prototype._mergeCellsInternal = function (this: WorksheetInternals, dimensions: MergeRange, ignoreStyle?: boolean) {
    const cells = (this.folioMergedCells ??= new Set());
    const large = (this.folioLargeMerges ??= []);
    const area = (dimensions.bottom - dimensions.top + 1) * (dimensions.right - dimensions.left + 1);
    if (large.some((range) => overlaps(range, dimensions))) return;
    const key = (r: number, c: number) => r * 16385 + c;
    if (area > LARGE_MERGE) {
      for (const cell of cells)
        if (
          overlaps(
            {
              top: Math.floor(cell / 16385),
              bottom: Math.floor(cell / 16385),
              left: cell % 16385,
              right: cell % 16385,
            },
            dimensions,
          )
        )
          return;
      large.push({ top: dimensions.top, left: dimensions.left, bottom: dimensions.bottom, right: dimensions.right });
    } else {
      for (let r = dimensions.top; r <= dimensions.bottom; r++)
        for (let c = dimensions.left; c <= dimensions.right; c++) if (cells.has(key(r, c))) return;
      for (let r = dimensions.top; r <= dimensions.bottom; r++)
        for (let c = dimensions.left; c <= dimensions.right; c++) cells.add(key(r, c));
    }
    // exceljs's own merge, with nothing earlier for its check to compare against.
    const earlier = this._merges;
    this._merges = {};
    try {
      original.call(this, dimensions, ignoreStyle);
    } finally {
      this._merges = Object.assign(earlier, this._merges);
    }
  };
}
