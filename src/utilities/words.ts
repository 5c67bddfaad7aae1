/**
 * Text statistics for the word counter.
 *
 * Words are found with Intl.Segmenter (word granularity), so punctuation is not a word, "don't"
 * is one word, and Chinese/Japanese text (written without spaces) is split into dictionary words
 * by the browser's ICU data instead of counting a whole sentence as one word. Where Intl.Segmenter
 * is missing, a Unicode regex is used and each Han/Kana character counts as one word.
 *
 * Definitions (shown in the UI):
 * - characters: user-perceived characters (grapheme clusters), so an emoji or "é" counts once;
 * - characters without spaces: the same, leaving out every whitespace character (line breaks too);
 * - spaces: whitespace other than line breaks (spaces, tabs, no-break spaces);
 * - lines: line breaks + 1 (0 for empty text); paragraphs: blocks separated by blank lines;
 * - reading time: 230 words a minute, and 400 characters a minute for Chinese/Japanese words.
 */

export const WORDS_PER_MINUTE = 230;
export const CJK_CHARACTERS_PER_MINUTE = 400;

export interface Keyword {
  word: string;
  count: number;
}

export interface TextStats {
  characters: number;
  charactersNoSpaces: number;
  words: number;
  lines: number;
  spaces: number;
  sentences: number;
  paragraphs: number;
  /** Whole seconds, rounded up, at the reading speeds above (0 for no words). */
  readingSeconds: number;
  /** Most frequent words (lower-cased, common English words and numbers left out). */
  keywords: Keyword[];
}

// Han, Hiragana, Katakana (incl. half-width): scripts written without spaces between words.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CJK_GLOBAL = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const WHITESPACE = /\s/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

const STOP_WORDS = new Set(
  (
    'a about above after again all also am an and any are as at be because been before being below between both ' +
    'but by can ' +
    ('could did do does doing down during each few for from further had has have having he her here hers herself ' +
      'him himself his ') +
    ('how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
      'our ours ') +
    ('ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
      'these they ') +
    ('this those through to too under until up very was we were what when where which while who whom why will ' +
      'with would you ') +
    ("your yours yourself yourselves s t don didn doesn isn wasn aren weren won wouldn shouldn couldn can't " +
      "don't it's i'm ") +
    "you're we're they're that's there's let's"
  ).split(' '),
);

type Segmenter = { segment(text: string): Iterable<{ segment: string; isWordLike?: boolean }> };

type Granularity = 'word' | 'sentence' | 'grapheme';

function segmenter(granularity: Granularity): Segmenter | null {
  if (typeof Intl === 'undefined' || !('Segmenter' in Intl)) return null;
  return chunkedSegmenter(new Intl.Segmenter(undefined, { granularity }), granularity);
}

/**
 * V8's Intl.Segmenter slows down with the length of the string (every step costs time in
 * proportion to the whole input: 100 KB took 18 s for graphemes in Node 20, 0.3 s in 1,000-character
 * pieces, less in smaller ones). So long text is segmented in pieces of about CHUNK characters, cut only where a
 * boundary is certain: after whitespace (never inside CR LF) for words and characters, after a
 * line break — or, in a very long paragraph, after sentence punctuation and a space before a
 * non-lower-case letter — for sentences.
 */
const CHUNK = 256;
const SENTENCE_END = /[.!?。！？]/u;
const LOWER_CASE = /\p{Ll}/u;

function safeCut(text: string, at: number, granularity: Granularity): boolean {
  const before = text[at - 1];
  const after = text[at];
  if (before === '\r' && after === '\n') return false;
  if (granularity === 'sentence') {
    if (before === '\n' || before === '\r' || before === '。' || before === '！' || before === '？') return true;
    // "…end. Next": a cut after the space(s) that follow sentence punctuation, before a non-lower-case letter.
    if (!WHITESPACE.test(before) || WHITESPACE.test(after) || LOWER_CASE.test(after)) return false;
    let k = at - 1;
    while (k > 0 && WHITESPACE.test(text[k])) k--;
    return SENTENCE_END.test(text[k]);
  }
  // Words and characters: whitespace always ends both; CJK full stops and commas end words.
  return WHITESPACE.test(before) || before === '。' || before === '，' || before === '、';
}

function cutPoint(text: string, start: number, granularity: Granularity): number {
  const limit = start + CHUNK;
  if (limit >= text.length) return text.length;
  for (let at = limit; at > start + CHUNK / 4; at--) if (safeCut(text, at, granularity)) return at;
  if (granularity === 'sentence') {
    // Look a little further for a sure break; past that, any space will do (a long run-on text
    // may then count one sentence more or less, which beats freezing).
    const far = Math.min(text.length, limit + 16 * CHUNK);
    for (let at = limit; at < far; at++) if (safeCut(text, at, granularity)) return at;
    for (let at = far; at > start + 1; at--) if (WHITESPACE.test(text[at - 1])) return at;
    return far;
  }
  // No whitespace at all: cut anyway, but never inside a surrogate pair or before a combining mark.
  let at = limit;
  while (at < text.length && (/[\uDC00-\uDFFF\u200D]/.test(text[at]) || /\p{M}/u.test(text[at]))) at++;
  return at;
}

function chunkedSegmenter(inner: Intl.Segmenter, granularity: Granularity): Segmenter {
  return {
    *segment(text: string) {
      for (let start = 0; start < text.length;) {
        const end = cutPoint(text, start, granularity);
        yield* inner.segment(start === 0 && end === text.length ? text : text.slice(start, end));
        start = end;
      }
    },
  };
}

/** The word-like pieces of the text, in order. */
export function splitWords(text: string, useSegmenter = true): string[] {
  const words: string[] = [];
  const seg = useSegmenter ? segmenter('word') : null;
  if (seg) {
    for (const piece of seg.segment(text)) {
      // isWordLike is false for punctuation and spaces; a few symbols (emoji) are neither.
      if (piece.isWordLike) words.push(piece.segment);
    }
    return words;
  }
  // Fallback: runs of letters/digits (with inner apostrophes or hyphens); Han/Kana one by one.
  const pattern =
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{M}\p{N}]+(?:['’\-.][\p{L}\p{M}\p{N}]+)*/gu;
  for (const match of text.matchAll(pattern)) words.push(match[0]);
  return words;
}

const LINE_BREAKS = new Set(['\n', '\r', '\r\n', '\u2028', '\u2029']);
/** Text in which every UTF-16 unit is a character of its own (no combining marks, emoji, surrogates). */
const SIMPLE_TEXT =
  // eslint-disable-next-line no-control-regex -- control characters are ordinary one-unit characters here
  /^[\u0000-\u02FF\u0370-\u0482\u048A-\u0590\u2000-\u200C\u2010-\u20CF\u2100-\u2BFF\u3000-\u3098\u309D-\u9FFF]*$/u;

function countGraphemes(text: string): { all: number; nonSpace: number; spaces: number } {
  const counts = { all: 0, nonSpace: 0, spaces: 0 };
  const add = (piece: string) => {
    counts.all++;
    if (!WHITESPACE.test(piece)) counts.nonSpace++;
    else if (!LINE_BREAKS.has(piece)) counts.spaces++;
  };
  const seg =
    typeof Intl !== 'undefined' && 'Segmenter' in Intl
      ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
      : null;
  for (let start = 0; start < text.length;) {
    const end = cutPoint(text, start, 'grapheme');
    const piece = text.slice(start, end);
    if (!seg || SIMPLE_TEXT.test(piece)) {
      // Fast path (most text): one unit, one character, except CR LF which is one line break.
      for (let i = 0; i < piece.length; i++) {
        if (piece[i] === '\r' && piece[i + 1] === '\n') i++;
        add(piece[i]);
      }
    } else {
      for (const part of seg.segment(piece)) add(part.segment);
    }
    start = end;
  }
  return counts;
}

function countSentences(text: string): number {
  const seg = segmenter('sentence');
  if (seg) {
    let count = 0;
    for (const piece of seg.segment(text)) if (LETTER_OR_DIGIT.test(piece.segment)) count++;
    return count;
  }
  return text.split(/(?<=[.!?。！？])\s*/u).filter((s) => LETTER_OR_DIGIT.test(s)).length;
}

export function topKeywords(words: readonly string[], limit = 10): Keyword[] {
  const counts = new Map<string, number>();
  for (const raw of words) {
    const word = raw.toLocaleLowerCase().replace(/’/g, "'");
    if (STOP_WORDS.has(word) || /^[\p{N}.,'-]+$/u.test(word)) continue;
    // One Latin letter is never a keyword; one Han character can be.
    if (word.length < 2 && !CJK.test(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts]
    .map(([word, count]) => ({ word, count }))
    .sort((a, b) => b.count - a.count || a.word.localeCompare(b.word))
    .slice(0, limit);
}

export function analyzeText(text: string, options: { useSegmenter?: boolean; keywordLimit?: number } = {}): TextStats {
  const words = splitWords(text, options.useSegmenter ?? true);
  const graphemes = countGraphemes(text);
  let cjkCharacters = 0;
  let otherWords = 0;
  for (const word of words) {
    if (CJK.test(word)) cjkCharacters += word.match(CJK_GLOBAL)?.length ?? 0;
    else otherWords++;
  }
  const minutes = otherWords / WORDS_PER_MINUTE + cjkCharacters / CJK_CHARACTERS_PER_MINUTE;
  return {
    characters: graphemes.all,
    charactersNoSpaces: graphemes.nonSpace,
    words: words.length,
    lines: text === '' ? 0 : text.split(/\r\n|\r|\n|\u2028|\u2029/).length,
    spaces: graphemes.spaces,
    sentences: countSentences(text),
    paragraphs: text.split(/(?:\r\n|\r(?!\n)|\n)[^\S\r\n]*(?:\r\n|\r(?!\n)|\n)\s*/u).filter((p) => p.trim() !== '')
      .length,
    readingSeconds: Math.ceil(minutes * 60),
    keywords: topKeywords(words, options.keywordLimit),
  };
}

/** "45 s", "1 min", "4 min 30 s", "1 h 2 min" for the reading-time figure. */
export function formatDuration(seconds: number): string {
  if (seconds === 0) return '0 s';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes >= 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
}
