/**
 * The bench's word similarity (2·LCS / total words) is computed bit-parallel; it must give the
 * figure of the plain row-by-row LCS table on any input (random word lists over small vocabularies,
 * so that words repeat and chunk carries cross 32-bit boundaries).
 */
import { expect, test } from 'vitest';
import { longestCommonSubsequence, wordSimilarity } from '../../bench/lib.ts';
import { normWords, wordSimilarity as fixtureWordSimilarity } from '../support/office-fixtures.ts';

function tableLcs(a: string[], b: string[]): number {
  let previous = new Uint32Array(b.length + 1);
  let current = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++)
      current[j] = a[i - 1] === b[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
    [previous, current] = [current, previous];
  }
  return previous[b.length];
}

test('bit-parallel LCS equals the table on random word lists', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let round = 0; round < 300; round++) {
    const vocabulary = 2 + Math.floor(random() * 10);
    const words = (n: number) => Array.from({ length: n }, () => `w${Math.floor(random() * vocabulary)}`);
    const a = words(Math.floor(random() * 150));
    const b = words(Math.floor(random() * 150));
    expect(longestCommonSubsequence(a, b)).toBe(tableLcs(a, b));
  }
});

test('word similarity of texts', () => {
  expect(wordSimilarity('', '')).toBe(1);
  expect(wordSimilarity('a b c', 'a b c')).toBe(1);
  expect(wordSimilarity('a b c d', 'a x c d')).toBe(0.75);
  expect(wordSimilarity('one two', '')).toBe(0);
});

test('the office exports’ word similarity reads Chinese and Japanese characters as words', () => {
  // Text without spaces compares the same whether a PDF draws it as one string or one per character.
  expect(normWords('嘿嘿嘿 ゾゾ abc')).toEqual(['嘿', '嘿', '嘿', 'ゾ', 'ゾ', 'abc']);
  expect(fixtureWordSimilarity('1 • 嘿 嘿 嘿', '1 • 嘿嘿嘿')).toBe(1);
  expect(fixtureWordSimilarity('Hello, wörld 42', 'hello wörld 42')).toBe(1);
});
