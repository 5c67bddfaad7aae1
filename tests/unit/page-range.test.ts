import { describe, expect, test } from 'vitest';
import { parsePageGroups, parsePageRanges } from '../../shared/page-range.ts';

describe('page-range language', () => {
  test.each([
    ['', 5, [1, 2, 3, 4, 5]],
    ['1-3, 5', 5, [1, 2, 3, 5]],
    ['8-', 10, [8, 9, 10]],
    ['-2', 10, [1, 2]],
    ['last', 7, [7]],
    ['odd', 5, [1, 3, 5]],
    ['even', 5, [2, 4]],
    ['5-3', 5, [5, 4, 3]],
    ['2-last', 4, [2, 3, 4]],
    ['1,1,2', 3, [1, 1, 2]],
    [' 1 – 2 ; 4 ', 4, [1, 2, 4]],
  ])('"%s" of %i pages', (text, count, expected) => {
    expect(parsePageRanges(text, count)).toEqual(expected);
  });

  test.each([
    ['0', /start at 1/],
    ['9', /Page 9 does not exist: the document has 5 pages/],
    ['1-x', /"1-x" is not a page or a range/],
    ['1,,2', /empty entry/],
    ['abc', /"abc" is not a page or a range/],
    ['2-9', /Page 9 does not exist/],
  ])('"%s" is refused with a message that says why', (text, message) => {
    expect(() => parsePageRanges(text, 5)).toThrow(message);
  });

  test('groups keep one list per comma-separated part', () => {
    expect(parsePageGroups('1-2, 3, 4-', 5)).toEqual([[1, 2], [3], [4, 5]]);
    expect(() => parsePageGroups('', 5)).toThrow(/Enter the ranges/);
  });
});
