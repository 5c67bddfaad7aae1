/**
 * The ink under a word as poppler draws it (a page raster at 4 pixels a point, `pdfPageRaster`): the
 * bands of rows below its letters, how much of its width they cover, and their colour. For words in
 * capitals, whose only ink below the letters is their underline.
 */
import type { Raster } from './images.ts';
import type { PopplerWord } from './pdf.ts';

export const UNDERLINE_DPI = 288; // 4 pixels a point

export interface UnderInk {
  /** Bands of rows with ink below the letters, top to bottom: [first row, last row]. */
  bands: Array<[number, number]>;
  /** Share of the word's columns with ink in the first band. */
  covered: number;
  /** Most rows with ink in one column of the first band. */
  tallestColumn: number;
  /** Mean colour of the ink below the letters. */
  color: [number, number, number];
}

/** The ink under a word's letters, within its box's columns and down to a third of its height below. */
export function underInk(raster: Raster, word: PopplerWord, columns?: [number, number]): UnderInk {
  const scale = UNDERLINE_DPI / 72;
  const [x1, x2] = (columns ?? [word.xMin, word.xMax]).map((x) => Math.round(x * scale));
  const top = Math.round(((word.yMin + word.yMax) / 2) * scale);
  const bottom = Math.round((word.yMax + (word.yMax - word.yMin) / 3) * scale);
  const inked = (x: number, y: number) => {
    const p = (y * raster.width + x) * 4;
    return raster.data[p] + raster.data[p + 1] + raster.data[p + 2] < 3 * 160;
  };
  const rows: boolean[] = [];
  for (let y = top; y <= bottom; y++) {
    let any = false;
    for (let x = x1 + 2; x < x2 - 2 && !any; x++) any = inked(x, y);
    rows.push(any);
  }
  const blocks: Array<[number, number]> = [];
  rows.forEach((ink, i) => {
    if (!ink) return;
    const last = blocks.at(-1);
    if (last && last[1] === top + i - 1) last[1] = top + i;
    else blocks.push([top + i, top + i]);
  });
  const bands = blocks.slice(1); // the first block is the letters' lower half
  const [from, to] = bands[0] ?? [0, -1];
  let covered = 0;
  let tallestColumn = 0;
  const sum = [0, 0, 0];
  let pixels = 0;
  for (let x = x1 + 2; x < x2 - 2; x++) {
    let count = 0;
    for (let y = from; y <= to; y++) {
      if (!inked(x, y)) continue;
      count++;
      const p = (y * raster.width + x) * 4;
      for (let c = 0; c < 3; c++) sum[c] += raster.data[p + c];
      pixels++;
    }
    if (count) covered++;
    tallestColumn = Math.max(tallestColumn, count);
  }
  const color = sum.map((v) => Math.round(v / Math.max(1, pixels))) as [number, number, number];
  return { bands, covered: covered / Math.max(1, x2 - x1 - 4), tallestColumn, color };
}

export const bandHeight = ([from, to]: [number, number]) => to - from + 1;
