/**
 * Text drawn again over itself: a slide master's title repeated by its layout, a shadow or
 * outline drawn as a second copy a point or two away, "fake bold" drawn twice. Read as one line,
 * the copies interleave ("TitleTitle"); `pdftotext` keeps one copy. The copies are sorted into
 * layers: each item goes into the first layer that holds no earlier copy of it, so layer 0 is the
 * page read once, and the later layers are the copies, in the order the page draws them.
 */
import type { TextItem } from '../pdf/pdf-layout.ts';

/** Share of the smaller box two copies must cover of each other. */
const COVER = 0.5;

function boxOf(item: TextItem) {
  return { left: item.x, right: item.x + item.width, top: item.top, bottom: item.baseline + item.size * 0.2 };
}

/** Whether `b` is a copy of `a`: the same text in about the same size, mostly over it. */
function isCopy(a: TextItem, b: TextItem): boolean {
  if (Math.abs(a.size - b.size) > Math.max(a.size, b.size) * 0.1) return false;
  const p = boxOf(a);
  const q = boxOf(b);
  const width = Math.min(p.right, q.right) - Math.max(p.left, q.left);
  const height = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
  if (width <= 0 || height <= 0) return false;
  const smaller = Math.min((p.right - p.left) * (p.bottom - p.top), (q.right - q.left) * (q.bottom - q.top));
  return width * height >= smaller * COVER;
}

/** The items (in the order the page draws them) in layers of copies; layer 0 has every text once. */
export function overprintLayers(items: TextItem[]): TextItem[][] {
  const layers: TextItem[][] = [];
  // Earlier items by their text, with the layer each went into: only items of equal text can be copies.
  const byText = new Map<string, Array<{ item: TextItem; layer: number }>>();
  for (const item of items) {
    const key = item.text.trim();
    const same = byText.get(key) ?? [];
    const taken = new Set(same.filter((earlier) => isCopy(earlier.item, item)).map((earlier) => earlier.layer));
    let layer = 0;
    while (taken.has(layer)) layer++;
    (layers[layer] ??= []).push(item);
    same.push({ item, layer });
    byText.set(key, same);
  }
  return layers;
}

/** The page's text read once: later copies of text drawn over itself are left out. */
export function withoutOverprints(items: TextItem[]): TextItem[] {
  return overprintLayers(items)[0] ?? [];
}
