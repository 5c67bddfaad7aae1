/**
 * The Unicode watermark font, loaded on demand from our own origin (never a CDN):
 * - Noto Sans Regular (OFL, 629 KB TTF): Latin, Cyrillic, Greek — most watermarks need only this.
 * - Noto Sans SC Regular (OFL, 10.5 MB TTF, loaded only when the text needs it): CJK ideographs,
 *   kana, full-width forms, and Latin/Cyrillic/Greek too. Hangul is not in it.
 * - Noto Sans KR Regular (OFL, 6.2 MB TTF): Hangul, with Latin, kana and Han in Korean shapes; tried
 *   instead of SC when the text holds Hangul (SC cannot draw it, so loading it would be wasted).
 * They come from npm packages (@expo-google-fonts/noto-sans, -noto-sans-sc, -noto-sans-kr) and
 * are embedded as a subset (pdf-lib + fontkit, subset: true), so a PDF carries only the glyphs used:
 * a few KB, whatever the font file's size.
 */
import fontkitOriginal from '@pdf-lib/fontkit';
import { fontkit } from './fontkit.ts';
import { FONT_FILES, loadFontFile } from './font-files.ts';
import { FolioError } from './errors.ts';
import { HANGUL } from './unicode-scripts.ts';

export { fontkit };

interface FontSource {
  name: string;
  load: () => Promise<Uint8Array>;
  /** Text this font cannot be the answer for: it is not loaded for it. */
  skipFor?: RegExp;
}

const SOURCES: FontSource[] = [
  {
    name: 'Noto Sans',
    load: () => loadFontFile(FONT_FILES.notoSans),
  },
  {
    name: 'Noto Sans SC',
    load: () => loadFontFile(FONT_FILES.notoSansSc),
    skipFor: HANGUL,
  },
  {
    name: 'Noto Sans KR',
    load: () => loadFontFile(FONT_FILES.notoSansKr),
  },
];

type FontkitFont = ReturnType<typeof fontkitOriginal.create>;
const parsed = new Map<string, Promise<FontkitFont>>();
function parse(source: FontSource): Promise<FontkitFont> {
  let font = parsed.get(source.name);
  if (!font) {
    font = source.load().then((bytes) => fontkitOriginal.create(bytes));
    parsed.set(source.name, font);
    font.catch(() => parsed.delete(source.name));
  }
  return font;
}

/** A bundled font by name, parsed once per realm (the watermark's choice shares it). */
export function bundledFont(name: 'Noto Sans' | 'Noto Sans SC' | 'Noto Sans KR'): Promise<FontkitFont> {
  return parse(SOURCES.find((source) => source.name === name)!);
}

/** Characters that need no glyph of their own (spaces, line breaks, joiners, variation selectors). */
function needsNoGlyph(char: string): boolean {
  const cp = char.codePointAt(0)!;
  return /\s/u.test(char) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f);
}

export interface WatermarkFont {
  name: string;
  bytes: Uint8Array;
}

/**
 * The smallest bundled font that has every character of `text`. Throws InvalidInput naming the
 * characters no bundled font can draw (rather than printing empty boxes into someone's PDF).
 */
export async function fontForText(text: string): Promise<WatermarkFont> {
  const chars = [...new Set(text)].filter((c) => !needsNoGlyph(c));
  let missing: string[] = chars;
  for (const source of SOURCES) {
    if (source.skipFor?.test(text)) continue;
    const font = await parse(source);
    missing = chars.filter((c) => !font.hasGlyphForCodePoint(c.codePointAt(0)!));
    if (missing.length === 0) return { name: source.name, bytes: await source.load() };
  }
  throw new FolioError(
    'InvalidInput',
    `The watermark font cannot draw ${missing
      .slice(0, 8)
      .map((c) => `"${c}"`)
      .join(', ')}${missing.length > 8 ? ' …' : ''}. It covers Latin, Cyrillic, Greek, Chinese, Japanese and Korean.`,
  );
}
