import { describe, expect, test } from 'vitest';
import { analyzeText, formatDuration, splitWords } from '../../../src/utilities/words.ts';

describe('analyzeText', () => {
  test('empty text is all zeros', () => {
    expect(analyzeText('')).toEqual({
      characters: 0,
      charactersNoSpaces: 0,
      words: 0,
      lines: 0,
      spaces: 0,
      sentences: 0,
      paragraphs: 0,
      readingSeconds: 0,
      keywords: [],
    });
  });

  test.each([
    // text, characters, without spaces, words, lines, spaces, sentences, paragraphs
    ['Hello world', 11, 10, 2, 1, 1, 1, 1],
    ['Hello,   world!  ', 17, 12, 2, 1, 5, 1, 1],
    ["Don't stop. It's fine!", 22, 19, 4, 1, 3, 2, 1],
    ['one\ntwo\n\nthree', 14, 11, 3, 4, 0, 3, 2], // line breaks are not spaces; a blank line splits paragraphs
    ['a\r\nb', 3, 2, 2, 2, 0, 2, 1], // CR LF is one character (one line break)
    ['tab\there', 8, 7, 2, 1, 1, 1, 1],
    // ICU: e | mail | test | example.com | 3.14 | and | 1,000
    ['e-mail: test@example.com, 3.14 and 1,000.', 41, 37, 7, 1, 4, 1, 1],
    ['👍🏽 café', 6, 5, 1, 1, 1, 1, 1], // an emoji with a skin tone is one character, not a word
    ['   \n\n  ', 7, 0, 0, 3, 5, 0, 0],
  ])('%j', (text, characters, charactersNoSpaces, words, lines, spaces, sentences, paragraphs) => {
    const stats = analyzeText(text);
    expect({
      characters: stats.characters,
      charactersNoSpaces: stats.charactersNoSpaces,
      words: stats.words,
      lines: stats.lines,
      spaces: stats.spaces,
      sentences: stats.sentences,
      paragraphs: stats.paragraphs,
    }).toEqual({
      characters,
      charactersNoSpaces,
      words,
      lines,
      spaces,
      sentences,
      paragraphs,
    });
  });

  test('CJK text is split into words, not counted as one run', () => {
    // "I like studying Chinese." — 4 dictionary words in ICU (我 / 喜欢 / 学习 / 中文).
    expect(analyzeText('我喜欢学习中文。').words).toBe(4);
    expect(analyzeText('我喜欢学习中文。').sentences).toBe(1);
    // Japanese mixes kanji and kana; whatever ICU's split, it is several words and no punctuation.
    expect(analyzeText('日本語を勉強しています').words).toBeGreaterThanOrEqual(4);
    // Without Intl.Segmenter: one word per Han/Kana character, Latin runs as usual.
    expect(splitWords('我喜欢 hello', false)).toEqual(['我', '喜', '欢', 'hello']);
  });

  test('fallback without Intl.Segmenter counts Latin words the same way', () => {
    for (const text of ['Hello world', "Don't stop. It's fine!", 'one\ntwo\n\nthree', 'naïve café — déjà vu']) {
      expect(splitWords(text, false)).toEqual(splitWords(text, true));
    }
  });

  test('reading time: 230 words a minute; Chinese at 400 characters a minute', () => {
    expect(analyzeText('word '.repeat(230)).readingSeconds).toBe(60);
    expect(analyzeText('word '.repeat(115)).readingSeconds).toBe(30);
    expect(analyzeText('中'.repeat(400)).readingSeconds).toBe(60);
  });

  test('top keywords skip common words and numbers, lower-case, most frequent first', () => {
    const stats = analyzeText('The PDF tools. PDF files and pdf pages; the tools work offline. 2025 2025 2025');
    expect(stats.keywords.slice(0, 3)).toEqual([
      { word: 'pdf', count: 3 },
      { word: 'tools', count: 2 },
      { word: 'files', count: 1 },
    ]);
    expect(stats.keywords.map((k) => k.word)).not.toContain('the');
    expect(stats.keywords.map((k) => k.word)).not.toContain('2025');
  });

  test('a megabyte of text is counted', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(23_000);
    const stats = analyzeText(text);
    expect(stats.words).toBe(9 * 23_000);
    expect(stats.sentences).toBe(23_000);
  });
});

test.each([
  [0, '0 s'],
  [45, '45 s'],
  [60, '1 min'],
  [90, '1 min 30 s'],
  [3720, '1 h 2 min'],
])('formatDuration(%i) = %s', (seconds, text) => expect(formatDuration(seconds)).toBe(text));
