/**
 * Chinese, Japanese and Korean text in fonts a PDF does not embed, drawn in the bundled Noto fonts
 * (Noto Sans SC for Chinese characters, kana and full-width forms; Noto Sans KR for Hangul) in every
 * picture pdf.js makes for Folio, in a worker and in Node alike.
 *
 * pdf.js, as Folio runs it (`disableFontFace`, no system fonts: see pdfjs.ts), draws an embedded
 * font's glyphs as paths and replaces a missing Latin font by its standard font data. For any other
 * missing font — MS-Mincho, SimSun, KozMinPr6N, STSong-Light, HYSMyeongJo…, whatever the encoding
 * (UniJIS-UCS2-H, 90ms-RKSJ-H, Identity-H with a ToUnicode map) — it calls the canvas's `fillText`
 * with each character's Unicode value (from ToUnicode, or from the Adobe-Japan1/GB1/CNS1/Korea1
 * tables it ships) at the place the PDF's widths (/W) give it. The canvas then draws with the
 * device's own fonts: empty boxes where it has no CJK font (@napi-rs/canvas in Node, a worker's
 * OffscreenCanvas on systems without one), another shape on each device elsewhere. pdf.js has no
 * option to supply a font for such a name, and with `disableFontFace` it calls `fillText` for
 * nothing else, so the contexts it draws on take over `fillText`, `strokeText` and `measureText`
 * for CJK characters: each is drawn as the Noto glyph's outline, at pdf.js's place and font size.
 * Other characters go to the canvas as before.
 *
 * Drawing is synchronous and the fonts (6–10 MB) load only when a drawing asks for one: a page that
 * meets a character whose font is not loaded yet is drawn without it, then `loadMissedFonts()` and
 * the page is drawn again (drawPage in pdfjs.ts, comparing `missedGlyphs()` before and after). A
 * page without such text never gets here.
 *
 * Vertical writing (-V encodings): pdf.js places each character upright down the column, as it does
 * with an embedded font. Brackets and stops come as their vertical presentation forms (U+FE10…,
 * U+FE30…), which Noto has; other characters with a vertical variant in a real font (the long
 * vowel mark ー, dashes) keep their horizontal shape (Noto's `vert` feature is not applied).
 * Serif faces (Mincho, Song, Myeongjo) are drawn in the sans-serif Noto; bold ones are emboldened
 * by stroking the outline.
 */
import { CJK, HANGUL } from '../unicode-scripts.ts';

type FallbackName = 'Noto Sans SC' | 'Noto Sans KR';

/** What is used of a fontkit font. */
interface OutlineFont {
  unitsPerEm: number;
  hasGlyphForCodePoint(codePoint: number): boolean;
  glyphForCodePoint(codePoint: number): { advanceWidth: number; path: { toSVG(): string } };
}

/** A character's glyph: outline in font units (y up) and advance in ems. */
interface Outline {
  path: Path2D;
  advance: number;
  unitsPerEm: number;
}

/** The context calls used; OffscreenCanvasRenderingContext2D and @napi-rs/canvas's context have them. */
type TextContext = Pick<
  OffscreenCanvasRenderingContext2D,
  | 'font'
  | 'fillText'
  | 'strokeText'
  | 'measureText'
  | 'save'
  | 'restore'
  | 'translate'
  | 'scale'
  | 'fill'
  | 'stroke'
  | 'lineWidth'
  | 'lineJoin'
  | 'fillStyle'
  | 'strokeStyle'
>;

/**
 * CJK signs outside the scripts' own blocks: kanbun, strokes, enclosed and squared forms, and the
 * vertical forms of punctuation that pdf.js gives a vertical (-V) encoding's brackets and stops.
 */
const CJK_FORMS = /[\u3190-\u31ef\u3200-\u33ff\ufe10-\ufe1f\ufe30-\ufe4f]/u;
const ANY_CJK = new RegExp(`${CJK.source}|${HANGUL.source}|${CJK_FORMS.source}`, 'u');
/** Stroke width, in ems, that makes a regular outline read as bold. */
const EMBOLDEN = 0.035;

const loaded = new Map<FallbackName, OutlineFont>();
const unavailable = new Set<FallbackName>();
const wanted = new Set<FallbackName>();
const loading = new Map<FallbackName, Promise<void>>();
const outlines = new Map<OutlineFont, Map<number, Outline | null>>();
let misses = 0;
/** Characters left to the canvas because their bundled font could not be loaded, per context and in all. */
const fontlessByContext = new WeakMap<object, number>();
let fontless = 0;

/** How a fallback font is loaded: the bundled file (lib/fonts.ts); tests give one that fails. */
export type FallbackFontLoader = (name: FallbackName) => Promise<OutlineFont>;
const bundledLoader: FallbackFontLoader = (name) => import('../fonts.ts').then(({ bundledFont }) => bundledFont(name));
let loadFont = bundledLoader;

/** Loads fallback fonts with `loader` from now on (the bundled files when omitted), forgetting those loaded. */
export function setFallbackFontLoader(loader: FallbackFontLoader = bundledLoader): void {
  loadFont = loader;
  for (const fonts of [loaded, unavailable, wanted, loading] as const) fonts.clear();
}

/** The fallback fonts for a character, in the order they are tried. */
function fontsFor(char: string): FallbackName[] {
  if (HANGUL.test(char)) return ['Noto Sans KR'];
  if (CJK.test(char) || CJK_FORMS.test(char)) return ['Noto Sans SC', 'Noto Sans KR'];
  return [];
}

function outlineIn(font: OutlineFont, codePoint: number): Outline | null {
  let cache = outlines.get(font);
  if (!cache) outlines.set(font, (cache = new Map()));
  let outline = cache.get(codePoint);
  if (outline === undefined) {
    const glyph = font.hasGlyphForCodePoint(codePoint) ? font.glyphForCodePoint(codePoint) : undefined;
    outline = glyph
      ? {
          path: new Path2D(glyph.path.toSVG()),
          advance: glyph.advanceWidth / font.unitsPerEm,
          unitsPerEm: font.unitsPerEm,
        }
      : null;
    cache.set(codePoint, outline);
  }
  return outline;
}

/** The bundled glyph for a character; 'native' for the canvas to draw it; 'missed' until its font loads. */
function outlineOf(char: string, context: object): Outline | 'native' | 'missed' {
  const codePoint = char.codePointAt(0)!;
  const names = fontsFor(char);
  for (const name of names) {
    if (unavailable.has(name)) continue;
    const font = loaded.get(name);
    if (!font) {
      wanted.add(name);
      misses++;
      return 'missed';
    }
    const outline = outlineIn(font, codePoint);
    if (outline) return outline;
  }
  if (names.some((name) => unavailable.has(name))) {
    fontless++;
    fontlessByContext.set(context, (fontlessByContext.get(context) ?? 0) + 1);
  }
  return 'native';
}

/** The font size in pixels of a canvas font string ("normal bold 40px "MS", sans-serif"). */
function pixelSize(font: string): number {
  return Number(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? 10);
}

function paintOutline(context: TextContext, outline: Outline, x: number, y: number, stroke: boolean): void {
  const { font } = context;
  const scale = pixelSize(font) / outline.unitsPerEm;
  context.save();
  context.translate(x, y);
  context.scale(scale, -scale);
  if (stroke) {
    context.lineWidth /= scale;
    context.stroke(outline.path);
  } else {
    context.fill(outline.path);
    if (/\bbold\b|\b[6-9]00\b/.test(font)) {
      context.strokeStyle = context.fillStyle;
      context.lineWidth = EMBOLDEN * outline.unitsPerEm;
      context.lineJoin = 'round';
      context.stroke(outline.path);
    }
  }
  context.restore();
}

type Draw = (text: string, x: number, y: number) => void;
type Measure = (text: string) => TextMetrics;
/** How layOut draws: the canvas's own call for other characters, and whether glyphs are stroked. */
interface Drawing {
  native: Draw;
  stroke: boolean;
}

/**
 * Runs over `text`: bundled glyphs drawn (when `drawing` is given) and measured here, runs of other
 * characters handed to the canvas. Returns the advance in pixels.
 */
function layOut(
  context: TextContext,
  text: string,
  [x, y]: [number, number],
  measure: Measure,
  drawing?: Drawing,
): number {
  const size = pixelSize(context.font);
  let offset = 0;
  let run = '';
  const flush = () => {
    if (!run) return;
    drawing?.native(run, x + offset, y);
    offset += measure(run).width;
    run = '';
  };
  for (const char of text) {
    const outline = outlineOf(char, context);
    if (outline === 'native') {
      run += char;
      continue;
    }
    flush();
    if (outline === 'missed') {
      offset += size;
      continue;
    }
    if (drawing) paintOutline(context, outline, x + offset, y, drawing.stroke);
    offset += outline.advance * size;
  }
  flush();
  return offset;
}

/** Metrics of text drawn here: its advance, and the em box as its bounds. */
function metrics(width: number, size: number): TextMetrics {
  const ascent = 0.88 * size;
  const descent = 0.12 * size;
  return {
    width,
    actualBoundingBoxLeft: 0,
    actualBoundingBoxRight: width,
    actualBoundingBoxAscent: ascent,
    actualBoundingBoxDescent: descent,
    fontBoundingBoxAscent: ascent,
    fontBoundingBoxDescent: descent,
    emHeightAscent: ascent,
    emHeightDescent: descent,
    alphabeticBaseline: 0,
    hangingBaseline: ascent,
    ideographicBaseline: -descent,
  };
}

/**
 * Makes a context pdf.js draws on with `disableFontFace` draw CJK characters of fonts pdf.js could
 * not load in the bundled Noto fonts (see the top of this file). Returns the same context.
 */
export function withCjkFallback<Context extends TextContext>(context: Context): Context {
  const fillText = context.fillText.bind(context) as Draw;
  const strokeText = context.strokeText.bind(context) as Draw;
  const measureText = context.measureText.bind(context) as Measure;
  const fill: Draw = (text, x, y) => {
    if (ANY_CJK.test(text)) layOut(context, text, [x, y], measureText, { native: fillText, stroke: false });
    else fillText(text, x, y);
  };
  const stroke: Draw = (text, x, y) => {
    if (ANY_CJK.test(text)) layOut(context, text, [x, y], measureText, { native: strokeText, stroke: true });
    else strokeText(text, x, y);
  };
  context.fillText = (text: string, x: number, y: number, maxWidth?: number) =>
    maxWidth === undefined ? fill(text, x, y) : fillText(text, x, y);
  context.strokeText = (text: string, x: number, y: number, maxWidth?: number) =>
    maxWidth === undefined ? stroke(text, x, y) : strokeText(text, x, y);
  context.measureText = (text: string) =>
    ANY_CJK.test(text)
      ? metrics(layOut(context, text, [0, 0], measureText), pixelSize(context.font))
      : measureText(text);
  return context;
}

/** Characters met so far whose fallback font was not loaded: compare before and after a drawing. */
export function missedGlyphs(): number {
  return misses;
}

/**
 * CJK characters drawn by the canvas itself (empty boxes, or a device font) because their bundled
 * font could not be loaded: on `context` when given, else on any context. Compare before and after
 * a drawing.
 */
export function fontlessGlyphs(context?: object): number {
  return context ? (fontlessByContext.get(context) ?? 0) : fontless;
}

/**
 * Lets the fonts that could not be loaded be tried again when a drawing next asks for them (a
 * worker kept between jobs may be online again): called for each document opened.
 */
export function retryUnavailableFonts(): void {
  for (const name of unavailable) loading.delete(name);
  unavailable.clear();
}

/**
 * Loads the fallback fonts drawings have asked for (and waits for those already loading). A font
 * that cannot be loaded (offline before the CJK fonts were saved) is left to the canvas until
 * retryUnavailableFonts().
 */
export async function loadMissedFonts(): Promise<void> {
  for (const name of wanted) {
    if (loading.has(name)) continue;
    const load = loadFont(name).then(
      (font) => void loaded.set(name, font),
      () => void unavailable.add(name),
    );
    loading.set(name, load);
  }
  wanted.clear();
  await Promise.all(loading.values());
}

/** The note naming pages drawn without the font: the same words in the UI's page previews. */
export { cjkFontNote } from '../../../../shared/cjk-font-note.ts';
