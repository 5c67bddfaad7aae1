/**
 * Which writing system a character belongs to, in words a reader knows ("Korean (Hangul)",
 * "Arabic", "emoji"): for the notes that say which characters a document's PDF could not draw,
 * and for choosing the fallback font that has them.
 */

export const HANGUL = /\p{Script=Hangul}/u;
/** Chinese characters, kana, bopomofo, CJK punctuation and full-width forms. */
export const CJK =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}\u3000-\u30ff\u31f0-\u31ff\uff00-\uffef]/u;
export const EMOJI = /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u;
/** Arabic letters, digits, punctuation and marks (Script_Extensions: marks Arabic shares with Syriac count). */
export const ARABIC = /\p{Script_Extensions=Arabic}/u;
export const HEBREW = /\p{Script_Extensions=Hebrew}/u;

/**
 * Characters drawn as part of the character before them: combining marks, zero-width joiners,
 * variation selectors (text or emoji style), skin-tone modifiers, emoji tag characters.
 */
export const ATTACHED = /^(?:\p{M}|\u200c|\u200d|[\u{1f3fb}-\u{1f3ff}]|[\u{e0020}-\u{e007f}])$/u;

/** Characters that print nothing: format controls (bidi marks, joiners), control codes, variation selectors. */
export const INVISIBLE = /[\p{Cf}\p{Cc}\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;

const NAMED: Array<[string, RegExp]> = [
  ['Korean (Hangul)', HANGUL],
  ['Chinese/Japanese', CJK],
  ['emoji', EMOJI],
  ...[
    'Arabic',
    'Hebrew',
    'Thai',
    'Lao',
    'Devanagari',
    'Bengali',
    'Gurmukhi',
    'Gujarati',
    'Oriya',
    'Tamil',
    'Telugu',
    'Kannada',
    'Malayalam',
    'Sinhala',
    'Tibetan',
    'Myanmar',
    'Khmer',
    'Georgian',
    'Armenian',
    'Ethiopic',
    'Syriac',
    'Thaana',
    'Mongolian',
    'Cherokee',
    'Gothic',
    'Runic',
    'Ogham',
    'Coptic',
    // Script_Extensions: a combining vowel sign shared by Arabic and Syriac counts as Arabic.
  ].map((name): [string, RegExp] => [name, new RegExp(`\\p{Script_Extensions=${name}}`, 'u')]),
  ['mathematical letters', /[\u{1d400}-\u{1d7ff}]/u],
  ['private-use (symbol font) characters', /\p{Co}/u],
  ['symbols', /[\p{S}\p{P}]/u],
];

/** The name of a character's writing system, or "other characters". */
export function scriptName(char: string): string {
  return NAMED.find(([, pattern]) => pattern.test(char))?.[0] ?? 'other characters';
}

/** Characters grouped by writing system, largest group first: "Arabic: ن ص ١ …; Hebrew: ע ב". */
export function describeByScript(chars: Iterable<string>, perScript = 8): string {
  const groups = new Map<string, string[]>();
  for (const char of chars) {
    const name = scriptName(char);
    groups.set(name, [...(groups.get(name) ?? []), char]);
  }
  return [...groups]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([name, list]) => {
      const shown = list.slice(0, perScript).map((c) => (/\p{Co}/u.test(c) ? `U+${hex(c)}` : c));
      return `${name}: ${shown.join(' ')}${list.length > perScript ? ` … (${list.length})` : ''}`;
    })
    .join('; ');
}

function hex(char: string): string {
  return char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
}
