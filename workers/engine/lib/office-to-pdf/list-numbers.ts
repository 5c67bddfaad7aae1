/**
 * List, note and page numbers in the styles Word (w:numFmt, w:pgNumType w:fmt) and ODF
 * (style:num-format) share, and Word's "- 1 -" page numbers and English ordinals (1st, 2nd).
 */
export type NumberStyle =
  | 'decimal'
  | 'decimalZero'
  | 'lowerLetter'
  | 'upperLetter'
  | 'lowerRoman'
  | 'upperRoman'
  | 'numberInDash'
  | 'ordinal'
  | 'none';

/** `n` (from 1) written in `style`; letters repeat past z (aa, bb…), as both Word and LibreOffice count. */
export function listNumber(n: number, style: NumberStyle): string {
  switch (style) {
    case 'lowerLetter':
      return letters(n);
    case 'upperLetter':
      return letters(n).toUpperCase();
    case 'lowerRoman':
      return roman(n);
    case 'upperRoman':
      return roman(n).toUpperCase();
    case 'decimalZero':
      return n < 10 ? `0${n}` : String(n);
    case 'numberInDash':
      return `- ${n} -`;
    case 'ordinal':
      return `${n}${[11, 12, 13].includes(n % 100) ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
    case 'none':
      return '';
    default:
      return String(n);
  }
}

function letters(n: number): string {
  return String.fromCharCode(97 + ((n - 1) % 26)).repeat(Math.floor((n - 1) / 26) + 1);
}

const ROMAN: Array<[number, string]> = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];

function roman(n: number): string {
  let out = '';
  for (const [value, digits] of ROMAN)
    while (n >= value) {
      out += digits;
      n -= value;
    }
  return out;
}
