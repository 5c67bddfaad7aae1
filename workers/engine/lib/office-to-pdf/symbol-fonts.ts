/**
 * Text in the symbol fonts Office documents use (Symbol, Wingdings, Webdings) as the Unicode characters
 * those fonts draw. The documents store the font's own codes (Symbol's "a" is α), often moved into the
 * private-use area (U+F061); Folio draws with other fonts, so a code printed as it is would be a wrong letter.
 */

/** Adobe's Symbol encoding (what Word's and PowerPoint's Symbol font draws), code → character. */
const SYMBOL: Record<number, string> = {
  ...Object.fromEntries(
    Array.from(' !∀#∃%&∋()∗+,−./0123456789:;<=>?≅ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ[∴]⊥_‾αβχδεφγηιϕκλμνοπθρστυϖωξψζ{|}∼').map(
      (char, i) => [0x20 + i, char],
    ),
  ),
  ...Object.fromEntries(
    Array.from('€ϒ′≤⁄∞ƒ♣♦♥♠↔←↑→↓°±″≥×∝∂•÷≠≡≈…⏐⎯↵ℵℑℜ℘⊗⊕∅∩∪⊃⊇⊄⊂⊆∈∉∠∇®©™∏√⋅¬∧∨⇔⇐⇑⇒⇓◊〈®©™∑⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪').map((char, i) => [
      0xa0 + i,
      char,
    ]),
  ),
  ...Object.fromEntries(Array.from('〉∫⌠⎮⌡⎞⎟⎠⎤⎥⎦⎫⎬⎭').map((char, i) => [0xf1 + i, char])),
};

/** The Wingdings characters documents use most (bullets, check marks, arrows, faces), code → character. */
const WINGDINGS: Record<number, string> = {
  0x4a: '☺',
  0x4b: '😐',
  0x4c: '☹',
  0x6c: '●',
  0x6e: '■',
  0x6f: '□',
  0x71: '❑',
  0x75: '◆',
  0x76: '❖',
  0x77: '⬥',
  0xa7: '▪',
  0xa8: '◻',
  0xd8: '➢',
  0xe0: '➔',
  0xe8: '➔',
  0xef: '⇦',
  0xf0: '⇨',
  0xfb: '✗',
  0xfc: '✓',
  0xfd: '☒',
  0xfe: '☑',
};

export type SymbolFont = 'symbol' | 'wingdings' | 'webdings';

/** Which symbol font a font name is, if any. */
export function symbolFontOf(font: string | undefined): SymbolFont | undefined {
  if (/^wingdings/i.test(font ?? '')) return 'wingdings';
  if (/^symbol$/i.test(font ?? '')) return 'symbol';
  if (/^webdings$/i.test(font ?? '')) return 'webdings';
  return undefined;
}

/** Code → character tables (none for Webdings: its codes are printed as they are, or as a bullet in a list). */
const TABLES: Record<SymbolFont, Record<number, string>> = { symbol: SYMBOL, wingdings: WINGDINGS, webdings: {} };

/** One character of a symbol font (its code, or that code moved to U+F0xx) as Unicode; undefined when unknown. */
export function symbolFontChar(char: string, font: SymbolFont): string | undefined {
  const value = char.charCodeAt(0);
  const code = value >= 0xf000 && value <= 0xf0ff ? value - 0xf000 : value;
  return TABLES[font][code];
}

/** Text in a symbol font as Unicode: each known code as its character, the others as they are. */
export function symbolFontText(text: string, font: SymbolFont): string {
  return Array.from(text, (char) => symbolFontChar(char, font) ?? char).join('');
}
