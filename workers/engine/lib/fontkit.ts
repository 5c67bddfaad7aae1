/**
 * @pdf-lib/fontkit for pdf-lib's `registerFontkit`, with one bug fixed — use this instead of the
 * package whenever a TrueType font is embedded with `subset: true`.
 *
 * @pdf-lib/fontkit 1.1.1 writes a TrueType subset with a short `loca` table (offsets / 2) without
 * padding the glyphs: a glyph of odd length (Noto Sans "X", "W", "l"…) loses its last byte, and
 * pdf.js and Poppler then draw NOTHING with that font (the whole string disappears). Padding each
 * copied glyph to an even length (a zero byte after a glyph is allowed) fixes it. The wrapper
 * touches fontkit's TTFSubset internals (`_addGlyph`, `glyf`, `offset`), which the pinned version
 * has; CFF subsets have no `_addGlyph` and pass through untouched.
 */
import fontkitOriginal from '@pdf-lib/fontkit';

/**
 * The one generator in @pdf-lib/fontkit 1.1.1 (the syllable state machine the Indic and Universal
 * shapers run: Devanagari, Bengali, Tamil, Khmer…) was compiled by Babel for a global
 * `regeneratorRuntime` the package does not ship, so laying out such text threw "regeneratorRuntime is
 * not defined" and a Word document with one Hindi word failed. This supplies exactly what that compiled
 * code calls: `mark(fn)` and `wrap(body)`, where `body(context)` runs from `context.next` and returns
 * the next value, or `context.stop()` once finished. Nothing else in fontkit uses it.
 */
interface GeneratorContext {
  prev: number;
  next: number | string;
  done: boolean;
  stop(): undefined;
}
const generatorRuntime = {
  mark: <T>(fn: T): T => fn,
  wrap(body: (context: GeneratorContext) => unknown): IterableIterator<unknown> {
    const context: GeneratorContext = {
      prev: 0,
      next: 0,
      done: false,
      stop() {
        this.done = true;
        return undefined;
      },
    };
    return {
      next(): IteratorResult<unknown> {
        if (context.done) return { value: undefined, done: true };
        const value = body(context);
        return context.done ? { value: undefined, done: true } : { value, done: false };
      },
      [Symbol.iterator]() {
        return this;
      },
    };
  },
};
const scope = globalThis as { regeneratorRuntime?: unknown };
scope.regeneratorRuntime ??= generatorRuntime;

interface TtfSubsetInternals {
  _addGlyph?: (gid: number) => number;
  glyf?: Uint8Array[];
  offset?: number;
}
function padOddGlyphs<T extends object>(subset: T): T {
  const internals = subset as TtfSubsetInternals;
  const addGlyph = internals._addGlyph?.bind(subset);
  if (!addGlyph) return subset;
  internals._addGlyph = (gid: number) => {
    const index = addGlyph(gid);
    const glyf = internals.glyf!;
    const last = glyf[glyf.length - 1];
    if (last.length % 2 === 1) {
      const alloc = (last.constructor as { alloc?: (size: number) => Uint8Array }).alloc;
      const padded = alloc ? alloc(last.length + 1) : new Uint8Array(last.length + 1);
      padded.set(last);
      glyf[glyf.length - 1] = padded;
      internals.offset! += 1;
    }
    return index;
  };
  return subset;
}

type FontkitFont = ReturnType<typeof fontkitOriginal.create>;

/** fontkit for pdf-lib's registerFontkit, with the odd-glyph subset fix. */
export const fontkit = {
  ...fontkitOriginal,
  create(buffer: Uint8Array, postscriptName?: string): FontkitFont {
    const font = fontkitOriginal.create(buffer, postscriptName);
    const createSubset = font.createSubset.bind(font);
    font.createSubset = () => padOddGlyphs(createSubset());
    return font;
  },
} as typeof fontkitOriginal;
