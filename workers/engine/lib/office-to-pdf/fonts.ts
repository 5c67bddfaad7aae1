/**
 * Fonts for rendering Office documents: metric-compatible replacements for the common Office
 * fonts, so lines break where Word/Excel/PowerPoint break them — Carlito for Calibri, Caladea for
 * Cambria, Arimo for Arial, Tinos for Times New Roman, Cousine for Courier New (all from
 * @fontsource, OFL/Apache) — then Noto Sans for other Latin/Greek/Cyrillic, chosen per character.
 * A character none of those has goes to a fallback font by writing system: Noto Sans KR for Hangul,
 * Noto Sans SC for Chinese and Japanese, Noto Sans Arabic and Noto Sans Hebrew, Noto Emoji
 * (monochrome) for emoji, Noto Sans Symbols 2 for arrows, dingbats and other symbols. Only the fonts
 * a document actually needs are loaded (the fallbacks are 0.05–10 MB each and kept out of the PWA's
 * core download, see src/pwa/engine-files.ts), and pdf-lib embeds only the glyphs it uses (subset).
 */
import { fontkit } from '../fontkit.ts';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import { loadPackageAsset } from '../assets.ts';
import { FONT_FILES, loadFontFile, type FontFile } from '../font-files.ts';
import { ARABIC, ATTACHED, CJK, EMOJI, HANGUL, HEBREW, INVISIBLE, describeByScript } from '../unicode-scripts.ts';

type Variant = `${400 | 700}-${'normal' | 'italic'}`;
type FamilyId = 'carlito' | 'caladea' | 'arimo' | 'tinos' | 'cousine';

// Each family ships per-script subsets; latin and latin-ext cover Western and Central European text.
const fontsourceFiles = import.meta.glob<string>(
  '/node_modules/@fontsource/{carlito,caladea,arimo,tinos,cousine}/files/*-latin{,-ext}-{400,700}-{normal,italic}.woff',
  {
    query: '?url',
    import: 'default',
  },
);

const NOTO: Record<Variant, FontFile> = {
  '400-normal': FONT_FILES.notoSans,
  '700-normal': FONT_FILES.notoSansBold,
  '400-italic': FONT_FILES.notoSansItalic,
  '700-italic': FONT_FILES.notoSansBoldItalic,
};

/** Fonts for characters the request's own fonts lack, each with the writing systems it is there for. */
const FALLBACKS = {
  chinese: {
    label: 'Chinese/Japanese',
    file: FONT_FILES.notoSansSc,
  },
  korean: {
    label: 'Korean',
    file: FONT_FILES.notoSansKr,
  },
  'korean-bold': {
    label: 'Korean',
    file: FONT_FILES.notoSansKrBold,
  },
  arabic: {
    label: 'Arabic',
    file: FONT_FILES.notoSansArabic,
  },
  'arabic-bold': {
    label: 'Arabic',
    file: FONT_FILES.notoSansArabicBold,
  },
  hebrew: {
    label: 'Hebrew',
    file: FONT_FILES.notoSansHebrew,
  },
  'hebrew-bold': {
    label: 'Hebrew',
    file: FONT_FILES.notoSansHebrewBold,
  },
  emoji: {
    label: 'emoji',
    file: FONT_FILES.notoEmoji,
  },
  symbols: {
    label: 'symbol',
    file: FONT_FILES.notoSansSymbols2,
  },
} satisfies Record<string, { label: string; file: FontFile }>;
type FallbackId = keyof typeof FALLBACKS;

/**
 * The fallback fonts to try, in order, for a character: by writing system, so a Korean document
 * loads the Korean font and not the 10 MB Chinese one, and a stray arrow loads 1.2 MB, not 10.
 */
function fallbacksFor(char: string, bold: boolean): FallbackId[] {
  if (HANGUL.test(char)) return [bold ? 'korean-bold' : 'korean'];
  if (CJK.test(char)) return ['chinese'];
  if (ARABIC.test(char)) return [bold ? 'arabic-bold' : 'arabic'];
  if (HEBREW.test(char)) return [bold ? 'hebrew-bold' : 'hebrew'];
  if (EMOJI.test(char)) return ['emoji', 'symbols', 'chinese'];
  return ['symbols', 'emoji', 'chinese'];
}

/** Office font name (lower case) → the metric-compatible family that replaces it. */
const SUBSTITUTES: Record<string, FamilyId> = {
  calibri: 'carlito',
  'calibri light': 'carlito',
  carlito: 'carlito',
  'segoe ui': 'carlito',
  aptos: 'carlito',
  candara: 'carlito',
  cambria: 'caladea',
  'cambria math': 'caladea',
  caladea: 'caladea',
  georgia: 'caladea',
  constantia: 'caladea',
  arial: 'arimo',
  helvetica: 'arimo',
  'liberation sans': 'arimo',
  arimo: 'arimo',
  verdana: 'arimo',
  tahoma: 'arimo',
  'trebuchet ms': 'arimo',
  'century gothic': 'arimo',
  'times new roman': 'tinos',
  times: 'tinos',
  'liberation serif': 'tinos',
  tinos: 'tinos',
  'book antiqua': 'tinos',
  garamond: 'tinos',
  'palatino linotype': 'tinos',
  'courier new': 'cousine',
  courier: 'cousine',
  consolas: 'cousine',
  'liberation mono': 'cousine',
  cousine: 'cousine',
  'lucida console': 'cousine',
};

export function substituteFamily(officeFont: string | undefined): FamilyId {
  return (
    SUBSTITUTES[(officeFont ?? '').trim().toLowerCase()] ??
    (/(serif|roman|times|book)/i.test(officeFont ?? '') && !/sans/i.test(officeFont ?? '') ? 'tinos' : 'carlito')
  );
}

interface LoadedFont {
  pdfFont: PDFFont;
  covers(codePoint: number): boolean;
  /** Line height for single spacing and the ascent, as multiples of the font size (from hhea/OS2). */
  lineHeight: number;
  ascent: number;
}

export interface FontRequest {
  family?: string;
  bold?: boolean;
  italic?: boolean;
}

/** One text segment drawn in one font. */
export interface FontSpan {
  text: string;
  font: PDFFont;
}

/**
 * Loads the fonts nearly every document uses — Carlito (Calibri's stand-in: Office's default) and
 * Noto Sans, regular and bold — ahead of the first job: the Office tools' warm-up.
 */
export async function prefetchCommonFonts(): Promise<void> {
  const loads: Array<Promise<Uint8Array>> = [];
  for (const variant of ['400-normal', '700-normal'] as const) {
    const path = `/node_modules/@fontsource/carlito/files/carlito-latin-${variant}.woff`;
    const url = fontsourceFiles[path];
    if (url) loads.push(url().then((resolved) => loadPackageAsset(resolved, path.replace('/node_modules/', ''))));
    loads.push(loadFontFile(NOTO[variant]));
  }
  await Promise.all(loads);
}

/**
 * Whether fontkit can read the glyph a font maps a code point to. Some of the fontsource subsets map
 * U+00A0 (no-break space) to a glyph whose outline lies past the end of the glyf table: measuring it
 * throws "Trying to access beyond buffer length", so such a character is drawn with the next font.
 */
function readableGlyph(face: ReturnType<typeof fontkit.create>, cp: number): boolean {
  try {
    const glyph = face.glyphForCodePoint(cp);
    return Number.isFinite(glyph.advanceWidth) && Number.isFinite(glyph.cbox.minX);
  } catch {
    return false;
  }
}

/**
 * The result's notes about fonts: which Office fonts were replaced by a look-alike, and which
 * characters no font could draw (printed as "?"), by writing system. Empty when neither happened.
 */
export function fontNotes(fonts: FontBook): string[] {
  const notes: string[] = [];
  const replaced = fonts.substitutions();
  if (replaced.length)
    notes.push(
      `fonts not available in the browser were replaced by look-alikes (line breaks may differ): ` +
        `${replaced.join(', ')}`,
    );
  const missing = fonts.missingCharacters();
  if (missing.length) {
    const unavailable = fonts.unavailableFallbacks();
    notes.push(
      `characters no font here can draw were printed as "?" (${describeByScript(missing)})` +
        (unavailable.length
          ? `; the ${unavailable.join(' and ')} font${unavailable.length > 1 ? 's' : ''} could not be ` +
            `downloaded: connect to the internet once and convert again`
          : ''),
    );
  }
  return notes;
}

/** What the progress line calls the Office renderers while their fonts download the first time. */
export const DOCUMENT_ENGINE = 'Preparing the document engine';

/**
 * Per-document font cache. `spans(text, request)` splits text into pieces each drawn with the
 * first font that has all its characters.
 */
export class FontBook {
  private readonly loaded = new Map<string, Promise<LoadedFont | undefined>>();

  constructor(private readonly doc: PDFDocument) {
    doc.registerFontkit(fontkit);
  }

  private load(key: string, source: () => Promise<Uint8Array>): Promise<LoadedFont | undefined> {
    let font = this.loaded.get(key);
    if (!font) {
      font = (async () => {
        const bytes = await source();
        const face = fontkit.create(bytes as unknown as Buffer);
        const pdfFont = await this.doc.embedFont(bytes, { subset: true });
        const em = face.unitsPerEm;
        return {
          pdfFont,
          covers: (cp: number) => face.hasGlyphForCodePoint(cp) && readableGlyph(face, cp),
          lineHeight: (face.ascent - face.descent + face.lineGap) / em,
          ascent: face.ascent / em,
        };
      })().catch(() => undefined);
      this.loaded.set(key, font);
    }
    return font;
  }

  private readonly chains = new Map<string, Promise<LoadedFont[]>>();

  /** Office fonts drawn with a family that is not metric-compatible with them → that family. */
  private readonly lookAlikes = new Map<string, FamilyId>();

  /** "Wingdings (drawn with Carlito)"…: the fonts replaced by a look-alike, for the result's notes. */
  substitutions(): string[] {
    return [...this.lookAlikes].map(
      ([font, family]) => `${font} (drawn with ${family[0].toUpperCase()}${family.slice(1)})`,
    );
  }

  private chain(request: FontRequest): Promise<LoadedFont[]> {
    const family = substituteFamily(request.family);
    const name = request.family?.trim();
    if (name && !SUBSTITUTES[name.toLowerCase()] && this.lookAlikes.size < 50) this.lookAlikes.set(name, family);
    const variant: Variant = `${request.bold ? 700 : 400}-${request.italic ? 'italic' : 'normal'}`;
    const key = `${family}/${variant}`;
    let chain = this.chains.get(key);
    if (!chain) {
      chain = this.loadChain(family, variant);
      this.chains.set(key, chain);
    }
    return chain;
  }

  private async loadChain(family: FamilyId, variant: Variant): Promise<LoadedFont[]> {
    const fonts: Array<LoadedFont | undefined> = [];
    for (const subset of ['latin', 'latin-ext']) {
      const path = `/node_modules/@fontsource/${family}/files/${family}-${subset}-${variant}.woff`;
      const url = fontsourceFiles[path];
      if (url)
        fonts.push(
          await this.load(path, async () => loadPackageAsset(await url(), path.replace('/node_modules/', ''))),
        );
    }
    const noto = NOTO[variant];
    fonts.push(await this.load(noto[1], () => loadFontFile(noto)));
    return fonts.filter((f): f is LoadedFont => f !== undefined);
  }

  /** Characters no font could draw (printed as "?"), at most a few hundred kept for the note. */
  private readonly missing = new Set<string>();
  /** Fallback fonts that could not be loaded (offline before their first use), by label. */
  private readonly unavailable = new Set<string>();

  missingCharacters(): string[] {
    return [...this.missing];
  }

  unavailableFallbacks(): string[] {
    return [...this.unavailable];
  }

  private async fallback(id: FallbackId): Promise<LoadedFont | undefined> {
    const { label, file } = FALLBACKS[id];
    const font = await this.load(file[1], () => loadFontFile(file));
    if (!font) this.unavailable.add(label);
    return font;
  }

  /** The font that draws a character: the first of the chain that has it, else a fallback by writing system. */
  private async fontFor(char: string, chain: LoadedFont[], bold: boolean): Promise<LoadedFont | undefined> {
    const cp = char.codePointAt(0)!;
    const font = chain.find((f) => f.covers(cp));
    // An invisible character (a bidi mark, a variation selector) is not worth a font download.
    if (font || INVISIBLE.test(char)) return font;
    for (const id of fallbacksFor(char, bold)) {
      const fallback = await this.fallback(id);
      if (fallback?.covers(cp)) return fallback;
    }
    return undefined;
  }

  /** Single-spacing line height and ascent of a request's primary font, as multiples of the size. */
  async metrics(request: FontRequest): Promise<{ lineHeight: number; ascent: number }> {
    const [first] = await this.chain(request);
    if (!first) throw new Error('No font could be loaded');
    return { lineHeight: first.lineHeight, ascent: first.ascent };
  }

  /** Which font of a chain draws a code point, remembered per chain. */
  private readonly choices = new WeakMap<LoadedFont[], Map<number, LoadedFont | undefined>>();

  async spans(text: string, request: FontRequest): Promise<FontSpan[]> {
    const chain = await this.chain(request);
    let choice = this.choices.get(chain);
    if (!choice) this.choices.set(chain, (choice = new Map()));
    const spans: FontSpan[] = [];
    let previous: LoadedFont | 'missing' | undefined;
    for (const char of text) {
      const cp = char.codePointAt(0)!;
      // A mark, joiner or skin tone stays with the character before it when that font has it, so the
      // font's own rules apply (an emoji sequence's ligature, a mark placed on its letter); after a
      // character printed as "?" it is part of that "?".
      if (cp >= 0x300 && previous !== undefined && ATTACHED.test(char)) {
        if (previous === 'missing') continue;
        if (previous.covers(cp)) {
          spans[spans.length - 1].text += char;
          continue;
        }
      }
      let font = choice.get(cp);
      if (!choice.has(cp)) choice.set(cp, (font = await this.fontFor(char, chain, Boolean(request.bold))));
      if (!font && INVISIBLE.test(char)) continue;
      if (!font && this.missing.size < 500) this.missing.add(char);
      previous = font ?? 'missing';
      // A character no font has: a "?" in the primary font (and a note), rather than an empty box.
      const pdfFont = (font ?? chain[0]).pdfFont;
      const safeChar = font ? char : '?';
      const last = spans[spans.length - 1];
      if (last && last.font === pdfFont) last.text += safeChar;
      else spans.push({ text: safeChar, font: pdfFont });
    }
    return spans;
  }
}
