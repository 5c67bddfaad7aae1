/**
 * Where a watermark goes on a page, shared by the add-watermark engine and the live preview in its
 * form (so the preview shows exactly what the engine will draw). Coordinates are the page as the
 * reader sees it, in points, origin bottom-left. Only errors.ts: the form chunk stays small.
 */
import { FolioError } from './errors.ts';

export const POSITIONS = [
  'top-left', 'top', 'top-right', 'left', 'center', 'right', 'bottom-left', 'bottom', 'bottom-right', 'tiled',
] as const;
export type Position = (typeof POSITIONS)[number];

/** "#RRGGBB" (or "#RGB") → 0–1 components; anything else is refused with a clear message. */
export function parseColour(value: string): [number, number, number] {
  const hex = value.trim().replace(/^#/, '');
  const full = /^[0-9a-f]{3}$/i.test(hex) ? hex.replace(/./g, (c) => c + c) : hex;
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new FolioError('InvalidInput', `Colour "${value}" is not a #RRGGBB colour.`);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as [number, number, number];
}

/**
 * Centres (in visible page coordinates) where a w × h item rotated by `angle` degrees goes.
 * The 3×3 grid keeps the rotated item's bounding box inside a margin; "tiled" covers the page
 * with a staggered grid.
 */
export function placements(position: Position, pageWidth: number, pageHeight: number, w: number, h: number, angle: number): Array<[number, number]> {
  const rad = (angle * Math.PI) / 180;
  const boxW = Math.abs(w * Math.cos(rad)) + Math.abs(h * Math.sin(rad));
  const boxH = Math.abs(w * Math.sin(rad)) + Math.abs(h * Math.cos(rad));
  if (position === 'tiled') {
    const stepX = boxW + Math.max(36, boxW * 0.5);
    const stepY = boxH + Math.max(36, boxH * 0.8);
    const centres: Array<[number, number]> = [];
    for (let row = 0, y = stepY / 2; y - boxH / 2 < pageHeight && row < 60; row++, y += stepY) {
      for (let x = (row % 2 ? stepX / 2 : 0) + boxW / 2; x - boxW / 2 < pageWidth && centres.length < 600; x += stepX) centres.push([x, y]);
    }
    return centres;
  }
  const margin = Math.min(36, pageWidth * 0.05, pageHeight * 0.05);
  const [vertical, horizontal] = position === 'center' ? ['', ''] : position.includes('-') ? position.split('-') : ['top', 'bottom'].includes(position) ? [position, ''] : ['', position];
  const x = horizontal === 'left' ? margin + boxW / 2 : horizontal === 'right' ? pageWidth - margin - boxW / 2 : pageWidth / 2;
  const y = vertical === 'top' ? pageHeight - margin - boxH / 2 : vertical === 'bottom' ? margin + boxH / 2 : pageHeight / 2;
  return [[x, y]];
}

