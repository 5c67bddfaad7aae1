/**
 * Font metrics for placing glyphs (ISO 32000-1 §9.6–9.7): how many bytes a character code takes,
 * each code's advance and the font's ascent and descent, read from the font dictionary (/Widths,
 * a CID font's /W and /DW, the descriptor) or, for an unembedded standard font without /Widths,
 * from the standard 14 metrics. Enough to know where each glyph of a text-showing operator is.
 */
import { PDFArray, PDFDict, PDFName, type PDFDocument } from 'pdf-lib';
import { Encodings, Font, type IFontNames } from '@pdf-lib/standard-fonts';
import { numberOr as num } from './object-graph.ts';

export interface FontMetrics {
  codeLength: 1 | 2;
  /** Advance of a code in text space units (glyph width / 1000 for most fonts). */
  width(code: number): number;
  ascent: number;
  descent: number;
}

const STANDARD_FAMILIES: Array<[RegExp, IFontNames]> = [
  [/courier.*bold.*(oblique|italic)/i, 'Courier-BoldOblique'],
  [/courier.*bold/i, 'Courier-Bold'],
  [/courier.*(oblique|italic)/i, 'Courier-Oblique'],
  [/courier/i, 'Courier'],
  [/times.*bold.*italic/i, 'Times-BoldItalic'],
  [/times.*bold/i, 'Times-Bold'],
  [/times.*italic/i, 'Times-Italic'],
  [/times/i, 'Times-Roman'],
  [/(helvetica|arial).*bold.*(oblique|italic)/i, 'Helvetica-BoldOblique'],
  [/(helvetica|arial).*bold/i, 'Helvetica-Bold'],
  [/(helvetica|arial).*(oblique|italic)/i, 'Helvetica-Oblique'],
  [/helvetica|arial/i, 'Helvetica'],
  [/symbol/i, 'Symbol'],
  [/dingbats/i, 'ZapfDingbats'],
];

let winAnsiNames: Map<number, string> | undefined;
function winAnsiGlyphName(code: number): string | undefined {
  if (!winAnsiNames) {
    winAnsiNames = new Map();
    for (const cp of Encodings.WinAnsi.supportedCodePoints) {
      const { code: c, name } = Encodings.WinAnsi.encodeUnicodeCodePoint(cp);
      winAnsiNames.set(c, name);
    }
  }
  return winAnsiNames.get(code);
}

/** The metrics of a font dictionary; generic ones (0.6 em advances) when there is none. */
export function fontMetrics(doc: PDFDocument, fontDict: PDFDict | undefined): FontMetrics {
  const fallback: FontMetrics = { codeLength: 1, width: () => 0.6, ascent: 0.85, descent: -0.25 };
  if (!fontDict) return fallback;
  const lookup = (dict: PDFDict, key: string) => doc.context.lookup(dict.get(PDFName.of(key)));
  const subtype = lookup(fontDict, 'Subtype');
  const subtypeName = subtype instanceof PDFName ? subtype.decodeText() : '';

  let descriptor: PDFDict | undefined;
  const ascentDescent = (d: PDFDict | undefined) => {
    if (!d) return { ascent: 0.85, descent: -0.25 };
    const ascent = num(lookup(d, 'Ascent'), 850) / 1000;
    const descent = num(lookup(d, 'Descent'), -250) / 1000;
    // Some files carry 0 or nonsense; keep a sane, generous box.
    return {
      ascent: ascent > 0.3 && ascent < 2 ? ascent : 0.85,
      descent: descent < 0 && descent > -1 ? descent : -0.25,
    };
  };

  if (subtypeName === 'Type0') {
    const descendants = lookup(fontDict, 'DescendantFonts');
    const cidFont = descendants instanceof PDFArray ? doc.context.lookup(descendants.get(0)) : undefined;
    const widths = new Map<number, number>();
    let defaultWidth = 1;
    if (cidFont instanceof PDFDict) {
      defaultWidth = num(lookup(cidFont, 'DW'), 1000) / 1000;
      const w = lookup(cidFont, 'W');
      if (w instanceof PDFArray) {
        const items = w.asArray().map((o) => doc.context.lookup(o));
        for (let i = 0; i < items.length;) {
          const first = num(items[i], NaN);
          const next = items[i + 1];
          if (next instanceof PDFArray) {
            next.asArray().forEach((v, k) => widths.set(first + k, num(doc.context.lookup(v), 1000) / 1000));
            i += 2;
          } else {
            const last = num(next, NaN);
            const width = num(items[i + 2], 1000) / 1000;
            if (Number.isFinite(first) && Number.isFinite(last) && last - first < 70000)
              for (let c = first; c <= last; c++) widths.set(c, width);
            i += 3;
          }
        }
      }
      const fd = lookup(cidFont, 'FontDescriptor');
      descriptor = fd instanceof PDFDict ? fd : undefined;
    }
    return { codeLength: 2, width: (code) => widths.get(code) ?? defaultWidth, ...ascentDescent(descriptor) };
  }

  const fd = lookup(fontDict, 'FontDescriptor');
  descriptor = fd instanceof PDFDict ? fd : undefined;
  const firstChar = num(lookup(fontDict, 'FirstChar'), 0);
  const widthsArray = lookup(fontDict, 'Widths');
  let scale = 1 / 1000;
  if (subtypeName === 'Type3') {
    const fm = lookup(fontDict, 'FontMatrix');
    scale = fm instanceof PDFArray ? num(doc.context.lookup(fm.get(0)), 0.001) : 0.001;
  }
  const missingWidth = descriptor ? num(lookup(descriptor, 'MissingWidth'), NaN) : NaN;
  const widths =
    widthsArray instanceof PDFArray ? widthsArray.asArray().map((o) => num(doc.context.lookup(o), NaN)) : undefined;

  let standard: Font | undefined;
  const baseFont = lookup(fontDict, 'BaseFont');
  if (!widths && baseFont instanceof PDFName) {
    const name = baseFont.decodeText().replace(/^[A-Z]{6}\+/, '');
    const family = STANDARD_FAMILIES.find(([re]) => re.test(name));
    if (family) standard = Font.load(family[1]);
  }
  const { ascent, descent } = ascentDescent(descriptor);
  return {
    codeLength: 1,
    ascent,
    descent,
    width(code) {
      const w = widths?.[code - firstChar];
      if (w !== undefined && Number.isFinite(w)) return w * scale;
      if (standard) {
        const glyph = winAnsiGlyphName(code);
        const sw = glyph ? standard.getWidthOfGlyph(glyph) : undefined;
        if (typeof sw === 'number') return sw / 1000;
      }
      return Number.isFinite(missingWidth) && missingWidth > 0 ? missingWidth * scale : 0.6;
    },
  };
}
