/**
 * Where a watermark goes on a page, shared by the add-watermark engine and the live preview in its
 * form (so the preview shows exactly what the engine will draw). Coordinates are the page as the
 * reader sees it, in points, origin bottom-left. Only errors.ts: the form chunk stays small.
 */
import { FolioError } from './errors.ts';

export const POSITIONS = [
  'top-left',
  'top',
  'top-right',
  'left',
  'center',
  'right',
  'bottom-left',
  'bottom',
  'bottom-right',
  'tiled',
] as const;
export type Position = (typeof POSITIONS)[number];

/** "#RRGGBB" (or "#RGB") → 0–1 components; anything else is refused with a clear message. */
export function parseColour(value: string): [number, number, number] {
  const hex = value.trim().replace(/^#/, '');
  const full = /^[0-9a-f]{3}$/i.test(hex) ? hex.replace(/./g, (c) => c + c) : hex;
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new FolioError('InvalidInput', `Colour "${value}" is not a #RRGGBB colour.`);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as [number, number, number];
}

/** The rotated item's bounding box. */
function rotatedBox(w: number, h: number, angle: number): [number, number] {
  const rad = (angle * Math.PI) / 180;
  return [
    Math.abs(w * Math.cos(rad)) + Math.abs(h * Math.sin(rad)),
    Math.abs(w * Math.sin(rad)) + Math.abs(h * Math.cos(rad)),
  ];
}

const marginOf = (pageWidth: number, pageHeight: number) => Math.min(36, pageWidth * 0.05, pageHeight * 0.05);

/**
 * How much a w × h item rotated by `angle` must shrink (≤ 1) so that it fits inside the page's
 * margins: a watermark larger than a small page would be cut off (and its clipped letters lost to
 * text extraction and search).
 */
export function fitFactor(pageWidth: number, pageHeight: number, w: number, h: number, angle: number): number {
  const [boxW, boxH] = rotatedBox(w, h, angle);
  const margin = marginOf(pageWidth, pageHeight);
  return Math.min(1, (pageWidth - 2 * margin) / boxW, (pageHeight - 2 * margin) / boxH);
}

/**
 * Centres (in visible page coordinates) where a w × h item rotated by `angle` degrees goes
 * (callers shrink it with fitFactor first). The 3×3 grid keeps the rotated item's bounding box
 * inside a margin; "tiled" covers the page with a staggered grid centred on the page's centre.
 */
export function placements(
  position: Position,
  pageWidth: number,
  pageHeight: number,
  w: number,
  h: number,
  angle: number,
): Array<[number, number]> {
  const [boxW, boxH] = rotatedBox(w, h, angle);
  if (position === 'tiled') {
    const stepX = boxW + Math.max(36, boxW * 0.5);
    const stepY = boxH + Math.max(36, boxH * 0.8);
    const rows = Math.min(30, Math.ceil((pageHeight / 2 + boxH / 2) / stepY));
    const columns = Math.min(30, Math.ceil((pageWidth / 2 + boxW / 2) / stepX) + 1);
    const centres: Array<[number, number]> = [];
    for (let row = -rows; row <= rows; row++) {
      const y = pageHeight / 2 + row * stepY;
      if (Math.abs(y - pageHeight / 2) - boxH / 2 >= pageHeight / 2) continue;
      const shift = Math.abs(row) % 2 ? stepX / 2 : 0;
      for (let column = -columns; column <= columns; column++) {
        const x = pageWidth / 2 + column * stepX + shift;
        if (Math.abs(x - pageWidth / 2) - boxW / 2 < pageWidth / 2) centres.push([x, y]);
      }
    }
    return centres;
  }
  const margin = marginOf(pageWidth, pageHeight);
  const [vertical, horizontal] =
    position === 'center'
      ? ['', '']
      : position.includes('-')
        ? position.split('-')
        : ['top', 'bottom'].includes(position)
          ? [position, '']
          : ['', position];
  const x =
    horizontal === 'left' ? margin + boxW / 2 : horizontal === 'right' ? pageWidth - margin - boxW / 2 : pageWidth / 2;
  const y =
    vertical === 'top' ? pageHeight - margin - boxH / 2 : vertical === 'bottom' ? margin + boxH / 2 : pageHeight / 2;
  return [[x, y]];
}
