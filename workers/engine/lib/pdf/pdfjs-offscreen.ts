/**
 * What pdf.js needs from a document, done without one, for pages drawn in a Web Worker:
 * canvases (OffscreenCanvas) and the colour filters of soft masks and transfer functions.
 *
 * pdf.js's DOMFilterFactory builds SVG <filter> elements in the document and hands the canvas
 * `url(<document.URL>#id)` to apply; a worker has neither, and an OffscreenCanvas there can only
 * apply CSS filter functions. PixelFilterFactory instead registers each filter as a function on
 * pixels under a private name, and the contexts our canvas factory makes apply it themselves when
 * an image (the mask, or a picture under a transfer function) is drawn with that name as `filter`.
 * Vector fills under a transfer function are drawn without it (as in pdf.js on Node).
 */

type PixelFilter = (rgba: Uint8ClampedArray) => void;

/** Filters by the name pdf.js assigns to `context.filter`; shared by every document in this worker. */
const pixelFilters = new Map<string, PixelFilter>();
let filterCount = 0;

function register(filter: PixelFilter): string {
  const name = `folio-pixel-filter-${filterCount++}`;
  pixelFilters.set(name, filter);
  return name;
}

/** A table of 256 values 0–255 (pdf.js's transfer maps) as a lookup for each byte. */
function lookup(map: ArrayLike<number>): Uint8ClampedArray {
  const table = new Uint8ClampedArray(256);
  for (let i = 0; i < 256; i++) table[i] = map[i];
  return table;
}

/** The FilterFactory interface of pdf.js (src/display/filter_factory.js), on pixels. */
export class PixelFilterFactory {
  #cache = new Map<unknown, string>();

  #cached(key: unknown, make: () => PixelFilter): string {
    let name = this.#cache.get(key);
    if (!name) {
      name = register(make());
      this.#cache.set(key, name);
    }
    return name;
  }

  /** A transfer function (TR in an ExtGState): one table per colour channel. */
  addFilter(maps: ArrayLike<number>[] | null): string {
    if (!maps) return 'none';
    return this.#cached(maps, () => {
      const [r, g, b] = (maps.length === 1 ? [maps[0], maps[0], maps[0]] : maps).map(lookup);
      return (rgba) => {
        for (let i = 0; i < rgba.length; i += 4) {
          rgba[i] = r[rgba[i]];
          rgba[i + 1] = g[rgba[i + 1]];
          rgba[i + 2] = b[rgba[i + 2]];
        }
      };
    });
  }

  /** An alpha soft mask's transfer function. */
  addAlphaFilter(map: ArrayLike<number>): string {
    return this.#cached(map, () => {
      const a = lookup(map);
      return (rgba) => {
        for (let i = 3; i < rgba.length; i += 4) rgba[i] = a[rgba[i]];
      };
    });
  }

  /** A luminosity soft mask: the mask's luminosity becomes alpha (then its transfer function, if any). */
  addLuminosityFilter(map: ArrayLike<number> | null): string {
    return this.#cached(map ?? 'luminosity', () => {
      const a = map ? lookup(map) : undefined;
      return (rgba) => {
        for (let i = 0; i < rgba.length; i += 4) {
          const luminosity = Math.round(0.3 * rgba[i] + 0.59 * rgba[i + 1] + 0.11 * rgba[i + 2]);
          rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
          rgba[i + 3] = a ? a[luminosity] : luminosity;
        }
      };
    });
  }

  /** High-contrast page colours are a viewer feature: never asked for when drawing pages to files. */
  addHCMFilter(): string {
    return 'none';
  }

  addHighlightHCMFilter(): string {
    return 'none';
  }

  destroy(): void {
    for (const name of this.#cache.values()) pixelFilters.delete(name);
    this.#cache.clear();
  }
}

const nativeFilter = () => Object.getOwnPropertyDescriptor(OffscreenCanvasRenderingContext2D.prototype, 'filter')!;

/** Makes `context` apply our pixel filters to images drawn while one is its `filter`. */
function withPixelFilters(context: OffscreenCanvasRenderingContext2D): OffscreenCanvasRenderingContext2D {
  const native = nativeFilter();
  let name: string | undefined;
  const saved: (string | undefined)[] = [];
  Object.defineProperty(context, 'filter', {
    configurable: true,
    get: () => name ?? native.get!.call(context),
    set: (value: string) => {
      name = pixelFilters.has(value) ? value : undefined;
      native.set!.call(context, name ? 'none' : value);
    },
  });
  const save = context.save.bind(context);
  const restore = context.restore.bind(context);
  const drawImage = context.drawImage.bind(context) as (...args: unknown[]) => void;
  context.save = () => {
    saved.push(name);
    save();
  };
  context.restore = () => {
    restore();
    name = saved.pop();
  };
  context.drawImage = ((image: CanvasImageSource & { width: number; height: number }, ...rest: number[]) => {
    const filter = name && pixelFilters.get(name);
    let source: CanvasImageSource = image;
    let region = rest.length === 8 ? rest.slice(0, 4) : [0, 0, image.width, image.height];
    if (filter) {
      source = filtered(image, region, filter);
      region = [0, 0, (source as OffscreenCanvas).width, (source as OffscreenCanvas).height];
    }
    const target =
      rest.length === 8 ? rest.slice(4) : rest.length === 4 ? rest : [rest[0], rest[1], region[2], region[3]];
    const reduced = context.imageSmoothingEnabled ? areaAveraged(context, source, region, target) : undefined;
    if (reduced) drawImage(reduced, target[0], target[1]);
    else drawImage(source, ...region, ...target);
    for (const scratch of [source, reduced]) {
      if (scratch instanceof OffscreenCanvas && scratch !== image) scratch.width = scratch.height = 0;
    }
  }) as OffscreenCanvasRenderingContext2D['drawImage'];
  return context;
}

/** `region` of `image` through a pixel filter, as a new canvas. */
function filtered(image: CanvasImageSource, [sx, sy, sw, sh]: number[], filter: PixelFilter): OffscreenCanvas {
  const width = Math.max(1, Math.round(sw));
  const height = Math.max(1, Math.round(sh));
  const scratch = new OffscreenCanvas(width, height);
  const scratchContext = scratch.getContext('2d', { willReadFrequently: true })!;
  scratchContext.drawImage(image, sx, sy, sw, sh, 0, 0, width, height);
  const pixels = scratchContext.getImageData(0, 0, width, height);
  filter(pixels.data);
  scratchContext.putImageData(pixels, 0, 0);
  return scratch;
}

/**
 * A picture drawn smaller than stored, each target pixel the average of the source area it covers
 * (a box filter, as poppler does), for the case pdf.js uses for every upright or quarter-turned
 * image: integer target size, pixel-aligned (drawImageAtIntegerCoords). Chromium's canvas samples
 * 2 × 2 source pixels per target pixel instead, which turns a scan's fine detail into noise. Undefined
 * when the draw is not such a reduction (then the canvas draws it as usual).
 */
function areaAveraged(
  context: OffscreenCanvasRenderingContext2D,
  source: CanvasImageSource,
  [sx, sy, sw, sh]: number[],
  [, , dw, dh]: number[],
): OffscreenCanvas | undefined {
  const { a, b, c, d } = context.getTransform();
  const quarterTurn = a === 0 && d === 0 && Math.abs(b) === 1 && Math.abs(c) === 1;
  const upright = b === 0 && c === 0 && Math.abs(a) === 1 && Math.abs(d) === 1;
  if (!(upright || quarterTurn)) return undefined;
  const whole = [sx, sy, sw, sh, dw, dh].every(Number.isInteger);
  if (!whole || dw <= 0 || dh <= 0 || (dw >= sw && dh >= sh) || dw > sw || dh > sh) return undefined;
  // pdf.js's own halving steps (_scaleImage) are exact 2 × 2 averages already: left to the canvas.
  if (dw === Math.ceil(sw / 2) && dh === Math.ceil(sh / 2)) return undefined;
  const columns = coverage(sw, dw);
  const rowsOf = sourceRowShares(sh, dh);
  const out = new ImageData(dw, dh);
  const to = out.data;
  // Premultiplied sums (transparent pixels add no colour) of the output rows not yet complete.
  const sums = new Map<number, Float64Array>();
  const line = new Float64Array(dw * 4);
  const strip = new OffscreenCanvas(sw, Math.min(sh, STRIP_ROWS));
  const stripContext = strip.getContext('2d', { willReadFrequently: true })!;
  for (let top = 0; top < sh; top += STRIP_ROWS) {
    const count = Math.min(STRIP_ROWS, sh - top);
    stripContext.clearRect(0, 0, sw, count);
    stripContext.drawImage(source, sx, sy + top, sw, count, 0, 0, sw, count);
    const from = stripContext.getImageData(0, 0, sw, count).data;
    for (let row = 0; row < count; row++) {
      line.fill(0);
      for (let x = 0; x < dw; x++) {
        let r = 0,
          g = 0,
          bl = 0,
          al = 0;
        for (const [index, weight] of columns[x]) {
          const p = (row * sw + index) * 4;
          const w = weight * from[p + 3];
          r += from[p] * w;
          g += from[p + 1] * w;
          bl += from[p + 2] * w;
          al += w;
        }
        line[x * 4] = r;
        line[x * 4 + 1] = g;
        line[x * 4 + 2] = bl;
        line[x * 4 + 3] = al;
      }
      for (const [outRow, weight, last] of rowsOf[top + row]) {
        let sum = sums.get(outRow);
        if (!sum) sums.set(outRow, (sum = new Float64Array(dw * 4)));
        for (let i = 0; i < sum.length; i++) sum[i] += line[i] * weight;
        if (!last) continue;
        for (let x = 0; x < dw; x++) {
          const q = x * 4;
          const p = (outRow * dw + x) * 4;
          const alpha = sum[q + 3];
          if (alpha > 0) {
            to[p] = sum[q] / alpha;
            to[p + 1] = sum[q + 1] / alpha;
            to[p + 2] = sum[q + 2] / alpha;
          }
          to[p + 3] = alpha;
        }
        sums.delete(outRow);
      }
    }
  }
  strip.width = strip.height = 0;
  const reduced = new OffscreenCanvas(dw, dh);
  reduced.getContext('2d')!.putImageData(out, 0, 0);
  return reduced;
}

const STRIP_ROWS = 256;

/** For each source row: the output rows it falls in, its share of each, and whether it is that row's last. */
function sourceRowShares(from: number, to: number): [number, number, boolean][][] {
  const shares: [number, number, boolean][][] = Array.from({ length: from }, () => []);
  coverage(from, to).forEach((cell, outRow) => {
    cell.forEach(([index, share], k) => shares[index].push([outRow, share, k === cell.length - 1]));
  });
  return shares;
}

/** For each of `to` cells over `from` source cells: the source indexes it covers, with the share of each. */
function coverage(from: number, to: number): [number, number][][] {
  const step = from / to;
  const cells: [number, number][][] = [];
  for (let i = 0; i < to; i++) {
    const start = i * step;
    const end = start + step;
    const cell: [number, number][] = [];
    for (let j = Math.floor(start); j < Math.min(from, Math.ceil(end)); j++) {
      const share = Math.min(end, j + 1) - Math.max(start, j);
      if (share > 0) cell.push([j, share / step]);
    }
    cells.push(cell);
  }
  return cells;
}

/** A canvas as pdf.js's CanvasFactory hands it around: OffscreenCanvas here, @napi-rs/canvas in Node. */
export interface CanvasTarget {
  canvas: { width: number; height: number } | null;
  context: unknown;
}

/** Resizing and releasing, the part of pdf.js's CanvasFactory interface every canvas kind shares. */
export abstract class CanvasFactoryBase {
  abstract create(width: number, height: number): CanvasTarget;

  reset(target: CanvasTarget, width: number, height: number): void {
    if (!target.canvas) return;
    target.canvas.width = width;
    target.canvas.height = height;
  }

  destroy(target: CanvasTarget): void {
    if (target.canvas) target.canvas.width = target.canvas.height = 0;
    target.canvas = null;
    target.context = null;
  }
}

/** The CanvasFactory interface of pdf.js (src/display/canvas_factory.js), on OffscreenCanvas. */
export class OffscreenCanvasFactory extends CanvasFactoryBase {
  create(width: number, height: number): { canvas: OffscreenCanvas; context: OffscreenCanvasRenderingContext2D } {
    if (width <= 0 || height <= 0) throw new Error('Invalid canvas size');
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error(`A ${width} × ${height} canvas could not be made (not enough memory?)`);
    // Pictures are mostly drawn smaller than stored: 'high' averages the pixels a target pixel
    // covers (as poppler does) where the default's bilinear sampling skips most of them.
    context.imageSmoothingQuality = 'high';
    return { canvas, context: withPixelFilters(context) };
  }
}

/**
 * Page canvases kept for the next page of the same size. A new page-sized OffscreenCanvas costs
 * its allocation and first fill on every page — measured in Chromium on the 2-core VM: 30–50 ms
 * for an A4 page at 150 dpi, 45 % of a 50-page PDF → JPG job's drawing time (fresh memory
 * faults in slowly there; less on other machines, never nothing). The two newest are kept (a
 * lane draws one page while the browser encodes the one before; an export's crops come and go
 * between pages), each for IDLE_MS only, so a finished job's pixels do not stay in the worker.
 * Node (@napi-rs/canvas) allocates through malloc, which reuses freed memory by itself, and keeps
 * nothing here.
 */
const KEPT_CANVASES = 2;
const IDLE_MS = 2_000;

type OffscreenTarget = { canvas: OffscreenCanvas; context: OffscreenCanvasRenderingContext2D };

const idleCanvases: Array<{ target: OffscreenTarget; kind: object; timer: ReturnType<typeof setTimeout> }> = [];

/** A kept canvas of exactly `width` × `height` made by a factory of class `kind`, cleared; undefined if none. */
export function takeIdleCanvas(kind: object, width: number, height: number): OffscreenTarget | undefined {
  const index = idleCanvases.findIndex(
    (idle) => idle.kind === kind && idle.target.canvas.width === width && idle.target.canvas.height === height,
  );
  if (index < 0) return undefined;
  const [{ target, timer }] = idleCanvases.splice(index, 1);
  clearTimeout(timer);
  // reset() clears the pixels and the drawing state and keeps the canvas's memory; the filter
  // goes through withPixelFilters' setter so its own state is cleared too.
  target.context.reset();
  target.context.filter = 'none';
  target.context.imageSmoothingQuality = 'high';
  return target;
}

/** Whether `canvas` is kept for reuse now (a second release of it must leave it alone). */
export function isIdleCanvas(canvas: object): boolean {
  return idleCanvases.some((idle) => idle.target.canvas === canvas);
}

/** Keeps a finished page's canvas for the next page (takeIdleCanvas), freeing the oldest kept beyond KEPT_CANVASES. */
export function keepIdleCanvas(kind: object, target: OffscreenTarget): void {
  if (typeof target.context.reset !== 'function') {
    target.canvas.width = target.canvas.height = 0;
    return;
  }
  // The newest are kept: the page just finished is the likeliest size of the next one.
  while (idleCanvases.length >= KEPT_CANVASES) {
    const oldest = idleCanvases.shift()!;
    clearTimeout(oldest.timer);
    oldest.target.canvas.width = oldest.target.canvas.height = 0;
  }
  const entry = {
    target,
    kind,
    timer: setTimeout(() => {
      idleCanvases.splice(idleCanvases.indexOf(entry), 1);
      target.canvas.width = target.canvas.height = 0;
    }, IDLE_MS),
  };
  idleCanvases.push(entry);
}
