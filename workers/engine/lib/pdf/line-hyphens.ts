/**
 * Hyphens at line ends: is "exam-" + "ple" the word "example" broken by the layout, or is
 * "well-" + "known" a compound that keeps its hyphen? Decided without a dictionary, so that any
 * language works:
 *
 * - U+00AD SOFT HYPHEN is, by definition (and as Tagged PDF writes layout hyphens), a break
 *   inside a word: always joined, hyphen dropped.
 * - U+2010 HYPHEN and U+2011 NON-BREAKING HYPHEN are hyphens of the text: kept, no space.
 * - U+002D HYPHEN-MINUS is either. The document itself is the dictionary: a joined form it also
 *   prints unbroken ("example") joins; a hyphenated form it also prints on one line
 *   ("well-known") keeps the hyphen. Without such evidence, shapes hyphenation never produces
 *   keep the hyphen — a single letter before the break ("e-" + "mail": hyphenation leaves at
 *   least two), digits ("3-" + "year") or capitals inside the first part ("PDF-" + "based"), and a
 *   next line starting with a capital or digit ("Jean-" + "Pierre", "COVID-" + "19"). Otherwise
 *   the break is taken for hyphenation, as `pdftotext` does (it drops every line-end hyphen).
 *
 * A list of compound prefixes ("self-", "non-", "multi-") would be English-only and still wrong:
 * hyphenation patterns break words at those very prefixes ("multi-ple", "self-ish").
 */

/** Words a document prints whole: `words` unbroken (lowercase), `hyphenated` with an inner hyphen. */
export interface Vocabulary {
  words: Set<string>;
  hyphenated: Set<string>;
}

const HYPHENS = '-\u2010\u2011';
const WORD = /[\p{L}\p{N}]+(?:[-\u2010\u2011][\p{L}\p{N}]+)*/gu;

/** The words of some texts (lines of a page or a document). A word broken at a line end is not a word. */
export function vocabularyOf(texts: Iterable<string>): Vocabulary {
  const vocabulary: Vocabulary = { words: new Set(), hyphenated: new Set() };
  for (const text of texts) {
    const normal = text.normalize('NFKC').toLowerCase();
    for (const match of normal.matchAll(WORD)) {
      const after = normal[match.index + match[0].length];
      if (after !== undefined && (HYPHENS.includes(after) || after === '\u00AD')) continue;
      const word = match[0].replace(/[\u2010\u2011]/g, '-');
      (word.includes('-') ? vocabulary.hyphenated : vocabulary.words).add(word);
    }
  }
  return vocabulary;
}

/** How a line ending in `before` meets the next line starting with `after`. */
export type LineJoint =
  /** A word broken by the layout: the hyphen goes, no space. */
  | 'join'
  /** A hyphenated word broken at its hyphen: the hyphen stays, no space. */
  | 'keep-hyphen'
  /** Two words: a space between the lines. */
  | 'space';

export function lineJoint(before: string, after: string, vocabulary?: Vocabulary): LineJoint {
  const end = /([\p{L}\p{N}]+)([-\u2010\u2011\u00AD])\s*$/u.exec(before);
  const start = /^\s*([\p{L}\p{N}]+)/u.exec(after);
  if (!end || !start) return before.endsWith('\u00AD') ? 'join' : 'space';
  const [, head, hyphen] = end;
  const tail = start[1];
  if (hyphen === '\u00AD') return 'join';
  if (hyphen !== '-') return 'keep-hyphen';
  const joined = `${head}${tail}`.normalize('NFKC').toLowerCase();
  const compound = `${head}-${tail}`.normalize('NFKC').toLowerCase();
  if (vocabulary?.hyphenated.has(compound)) return 'keep-hyphen';
  if (vocabulary?.words.has(joined)) return 'join';
  if (!/^\p{Ll}/u.test(tail)) return 'keep-hyphen';
  // `head` is the part after the word's last space or hyphen ("state-of-the-" → "the").
  const notHyphenation = [...head].length < 2 || /\p{N}/u.test(head) || /.\p{Lu}/u.test(head);
  return notHyphenation ? 'keep-hyphen' : 'join';
}
