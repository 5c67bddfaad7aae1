import { describe, expect, test } from 'vitest';
import { describeJsonError, formatJson, type JsonFormatOptions } from '../../../src/utilities/json.ts';

const opts = (patch: Partial<JsonFormatOptions> = {}): JsonFormatOptions => ({
  indent: '2',
  minify: false,
  sortKeys: false,
  ...patch,
});

function format(text: string, patch: Partial<JsonFormatOptions> = {}): string {
  const result = formatJson(text, opts(patch));
  if (!result.ok) throw new Error(result.error ? describeJsonError(result.error) : 'empty');
  return result.output;
}

describe('formatJson: output', () => {
  const sample = '{"b":1,"a":[1,2,{"c":null}],"e":{},"f":[],"s":"x\\ny"}';

  test('matches JSON.stringify for 2, 4 spaces and tabs, and minify', () => {
    const value: unknown = JSON.parse(sample);
    expect(format(sample)).toBe(JSON.stringify(value, null, 2));
    expect(format(sample, { indent: '4' })).toBe(JSON.stringify(value, null, 4));
    expect(format(sample, { indent: 'tab' })).toBe(JSON.stringify(value, null, '\t'));
    expect(format(JSON.stringify(value, null, 2), { minify: true })).toBe(JSON.stringify(value));
  });

  test('sorts keys at every depth, keeping arrays in order', () => {
    expect(format('{"b":{"z":1,"y":2},"a":[{"d":1,"c":2}],"A":0}', { sortKeys: true, minify: true })).toBe(
      '{"A":0,"a":[{"c":2,"d":1}],"b":{"y":2,"z":1}}',
    );
    // Escaped keys are sorted by what they say: "\u0061" is "a".
    expect(format('{"b":1,"\\u0061":2}', { sortKeys: true, minify: true })).toBe('{"\\u0061":2,"b":1}');
  });

  test('keeps data exactly: big integers, number spelling, escapes, unicode', () => {
    const text = '{"id":12345678901234567890,"x":1.50,"e":1E+3,"s":"\\u00e9\\/é😀","neg":-0}';
    expect(format(text, { minify: true })).toBe(text);
  });

  test('bare primitives, a byte-order mark and surrounding whitespace', () => {
    expect(format(' 42 ')).toBe('42');
    expect(format('"x"')).toBe('"x"');
    expect(format('\uFEFF{"a":true}', { minify: true })).toBe('{"a":true}');
  });

  test('very deep nesting does not overflow the stack', () => {
    const depth = 100_000;
    const text = '['.repeat(depth) + ']'.repeat(depth);
    const result = formatJson(text, opts({ minify: true }));
    expect(result.ok && result.output).toBe(text);
    expect(result.ok && result.stats.depth).toBe(depth);
  });

  test('stats count values and depth', () => {
    const result = formatJson('{"a":[1,2,{"b":null}]}', opts());
    expect(result.ok && result.stats).toEqual({ values: 6, depth: 3 });
  });

  test('empty input is reported as empty (the form says Input required)', () => {
    expect(formatJson('  \n ', opts())).toEqual({ ok: false, empty: true, error: null });
  });
});

describe('formatJson: errors with line and column', () => {
  test.each([
    ['{"a":1,}', 1, 8, 'Trailing comma before } is not allowed'],
    ['[1,2,]', 1, 6, 'Trailing comma before ] is not allowed'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, "Unexpected '\"': expected ',' or '}' after a property value"],
    ["{'a':1}", 1, 2, 'Strings must use double quotes, not single quotes'],
    ['{"a":1} // note', 1, 9, 'Comments are not allowed in JSON'],
    ['{"a":01}', 1, 6, 'Numbers cannot have leading zeros'],
    ['{"a":1.}', 1, 8, 'Invalid number: digits are expected after the decimal point'],
    ['{"a":"x', 1, 6, 'Unterminated string: a closing double quote is missing'],
    ['{"a":"x\ny"}', 1, 8, 'Unterminated string: line breaks inside strings must be written \\n'],
    ['{"a":"\\x"}', 1, 7, "Invalid escape 'x' in string"],
    ['{"a":tru}', 1, 6, "Unexpected 't': expected a value (object, array, string, number, true, false or null)"],
    ['[1 2]', 1, 4, "Unexpected '2': expected ',' or ']' after an array element"],
    ['{"a" 1}', 1, 6, "Unexpected '1': expected ':' after the property name"],
    ['{"a":1', 1, 7, "Unexpected end of input: expected ',' or '}' after a property value"],
    ['{} {}', 1, 4, "Unexpected '{': only one value is allowed (is a comma or bracket missing?)"],
    ['{a:1}', 1, 2, "Unexpected 'a': expected a property name in double quotes"],
    ['NaN', 1, 1, "Unexpected 'N': expected a value (object, array, string, number, true, false or null)"],
  ])('%j → line %i, column %i: %s', (text, line, column, reason) => {
    const result = formatJson(text, opts());
    expect(result.ok).toBe(false);
    if (result.ok || !result.error) return;
    expect(result.error).toMatchObject({ message: 'Invalid JSON format', line, column, reason });
    // Whatever this parser rejects, the browser's own parser rejects too.
    expect(() => JSON.parse(text)).toThrow();
  });

  test('the message and excerpt', () => {
    const result = formatJson('{\n  "name": "Folio",\n  "tools": 25,,\n}', opts());
    if (result.ok || !result.error) throw new Error('expected an error');
    expect(describeJsonError(result.error)).toBe(
      "Invalid JSON format at line 3, column 15: Unexpected ',': expected a property name in double quotes",
    );
    expect(result.error.excerpt).toBe('  "tools": 25,,');
    expect(result.error.excerpt[result.error.caret]).toBe(',');
  });

  test('agrees with JSON.parse on what is valid (generated cases)', () => {
    const pieces = ['{', '}', '[', ']', ',', ':', '"a"', '1', '-', '.5', 'true', 'null', ' ', '"\\u12"', '0'];
    let state = 12345;
    const next = () => (state = (state * 1103515245 + 12345) & 0x7fffffff);
    for (let n = 0; n < 5000; n++) {
      let text = '';
      const count = 1 + (next() % 7);
      for (let k = 0; k < count; k++) text += pieces[next() % pieces.length];
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      const result = formatJson(text, opts({ minify: true }));
      const empty = text.trim() === '';
      if (!empty) expect([text, result.ok]).toEqual([text, valid]);
      if (result.ok) expect(JSON.parse(result.output)).toEqual(JSON.parse(text));
    }
  });

  test('a 20 MB document formats (worker-free path in Node)', () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => ({
      id: i,
      name: `item ${i}`,
      tags: ['a', 'b'],
      price: i * 1.25,
      ok: i % 2 === 0,
      meta: { x: null },
    }));
    const text = JSON.stringify(rows);
    expect(text.length).toBeGreaterThan(13_000_000);
    const result = formatJson(text + text.slice(0, 0), opts({ indent: '4' }));
    expect(result.ok && result.output).toBe(JSON.stringify(rows, null, 4));
  });
});
