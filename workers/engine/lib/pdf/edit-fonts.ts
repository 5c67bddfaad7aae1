/**
 * Fonts for text that the editor writes into a PDF. Text the 14 standard PDF fonts can encode
 * (WinAnsi: Western European) uses them — nothing to embed, and viewers know them. Anything else
 * (Greek, Cyrillic, Vietnamese, CJK…) embeds a subset of Noto Sans, or Noto Sans SC when the text
 * holds CJK characters (Noto Sans KR when it holds Hangul, which SC lacks), so it stays real,
 * selectable, searchable text. Subsets go through
 * lib/fontkit.ts (the images engineer's fix for fontkit's odd-length glyph truncation).
 */
import { Encodings } from '@pdf-lib/standard-fonts';
import { PDFDocument, PDFFont, StandardFonts } from 'pdf-lib';
import { fontkit } from '../fontkit.ts';
import { HANGUL } from '../unicode-scripts.ts';
import { FONT_FILES, loadFontFile, type FontFile } from '../font-files.ts';
import type { FontFamily } from './edit-operations.ts';

export interface FontChoice {
  family: FontFamily;
  bold?: boolean;
  italic?: boolean;
}

const STANDARD: Record<FontFamily, [StandardFonts, StandardFonts, StandardFonts, StandardFonts]> = {
  sans: [
    StandardFonts.Helvetica,
    StandardFonts.HelveticaBold,
    StandardFonts.HelveticaOblique,
    StandardFonts.HelveticaBoldOblique,
  ],
  serif: [
    StandardFonts.TimesRoman,
    StandardFonts.TimesRomanBold,
    StandardFonts.TimesRomanItalic,
    StandardFonts.TimesRomanBoldItalic,
  ],
  mono: [
    StandardFonts.Courier,
    StandardFonts.CourierBold,
    StandardFonts.CourierOblique,
    StandardFonts.CourierBoldOblique,
  ],
};

const NOTO: FontFile[] = [
  FONT_FILES.notoSans,
  FONT_FILES.notoSansBold,
  FONT_FILES.notoSansItalic,
  FONT_FILES.notoSansBoldItalic,
];
const NOTO_SC: FontFile[] = [FONT_FILES.notoSansSc, FONT_FILES.notoSansScBold];
const NOTO_KR: FontFile[] = [FONT_FILES.notoSansKr, FONT_FILES.notoSansKrBold];

/** True when every character can be written with a standard font (WinAnsi encoding). */
export function fitsStandardFont(text: string): boolean {
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x0a || cp === 0x0d) continue;
    if (!Encodings.WinAnsi.canEncodeUnicodeCodePoint(cp)) return false;
  }
  return true;
}

/** Han, kana, Hangul, CJK punctuation and full-width forms. */
export function hasCjk(text: string): boolean {
  return /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[\u{20000}-\u{2ffff}]/u.test(text);
}

/** Embeds fonts into one document, each at most once. */
export class FontCache {
  private readonly fonts = new Map<string, Promise<PDFFont>>();
  private fontkitRegistered = false;
  constructor(private readonly doc: PDFDocument) {}

  /** The font to write `text` with, in the chosen style (the Unicode fallback may not have every style). */
  get(text: string, choice: FontChoice): Promise<PDFFont> {
    const style = (choice.bold ? 1 : 0) + (choice.italic ? 2 : 0);
    let key: string;
    let load: () => Promise<PDFFont>;
    if (fitsStandardFont(text)) {
      const name = STANDARD[choice.family][style];
      key = name;
      load = () => this.doc.embedFont(name);
    } else {
      const cjk = HANGUL.test(text) ? NOTO_KR : hasCjk(text) ? NOTO_SC : undefined;
      const file = cjk ? cjk[choice.bold ? 1 : 0] : NOTO[style];
      key = file[1];
      load = async () => {
        if (!this.fontkitRegistered) {
          this.doc.registerFontkit(fontkit);
          this.fontkitRegistered = true;
        }
        return this.doc.embedFont(await loadFontFile(file), { subset: true });
      };
    }
    let font = this.fonts.get(key);
    if (!font) {
      font = load();
      this.fonts.set(key, font);
    }
    return font;
  }
}
