import { describe, expect, test } from 'vitest';
import {
  CATEGORIES,
  convert,
  formatNumber,
  validateConversion,
  type UnitCategory,
} from '../../../src/utilities/units.ts';

describe('convert: known answers', () => {
  test.each<[number, UnitCategory, string, string, number]>([
    [1, 'length', 'mi', 'km', 1.609344],
    [1, 'length', 'in', 'cm', 2.54],
    [1, 'length', 'ft', 'm', 0.3048],
    [1, 'length', 'yd', 'in', 36],
    [1, 'length', 'mi', 'ft', 5280],
    [100, 'length', 'cm', 'm', 1],
    [1, 'length', 'km', 'mm', 1_000_000],
    [1, 'length', 'km', 'mi', 0.621371192237],
    [10, 'length', 'cm', 'in', 3.93700787402],
    [1, 'length', 'nmi', 'm', 1852],
    [1, 'mass', 'lb', 'kg', 0.45359237],
    [1, 'mass', 'kg', 'lb', 2.20462262185],
    [1, 'mass', 'st', 'lb', 14],
    [16, 'mass', 'oz', 'lb', 1],
    [1, 'mass', 't', 'kg', 1000],
    [0, 'temperature', 'C', 'F', 32],
    [100, 'temperature', 'C', 'F', 212],
    [-40, 'temperature', 'C', 'F', -40],
    [98.6, 'temperature', 'F', 'C', 37],
    [0, 'temperature', 'K', 'C', -273.15],
    [0, 'temperature', 'F', 'K', 255.372222222],
    [1, 'volume', 'gal', 'l', 3.785411784],
    [1, 'volume', 'gal-uk', 'l', 4.54609],
    [1, 'volume', 'cup', 'floz', 8],
    [1, 'volume', 'tbsp', 'tsp', 3],
    [1, 'volume', 'm3', 'l', 1000],
    [1, 'volume', 'ft3', 'l', 28.316846592],
    [1, 'area', 'ha', 'm2', 10_000],
    [1, 'area', 'ac', 'm2', 4046.8564224],
    [1, 'area', 'mi2', 'ac', 640],
    [1, 'area', 'ft2', 'in2', 144],
    [100, 'speed', 'kmh', 'ms', 27.7777777778],
    [60, 'speed', 'mph', 'kmh', 96.56064],
    [1, 'speed', 'kn', 'kmh', 1.852],
    [1, 'time', 'd', 'h', 24],
    [1, 'time', 'wk', 'min', 10_080],
    [1, 'time', 'yr', 'd', 365.2425],
    [1, 'data', 'GiB', 'MiB', 1024],
    [1, 'data', 'GB', 'MB', 1000],
    [1, 'data', 'B', 'bit', 8],
    [1, 'data', 'GiB', 'GB', 1.073741824],
  ])('%f %s: %s → %s = %f', (value, category, from, to, expected) => {
    expect(convert(value, category, from, to)).toBeCloseTo(expected, 9);
  });

  test('exact where the definitions are exact (no floating-point noise shown)', () => {
    expect(convert(1, 'length', 'mi', 'km')).toBe(1.609344);
    expect(convert(1, 'length', 'in', 'cm')).toBe(2.54);
    expect(convert(0, 'temperature', 'C', 'F')).toBe(32);
    expect(convert(3, 'length', 'ft', 'yd')).toBe(1);
    expect(convert(0.1 + 0.2, 'length', 'm', 'm')).toBe(0.3);
  });

  test('never the placeholder ×1.5 of the original', () => {
    for (const category of CATEGORIES) {
      for (const from of category.units) {
        for (const to of category.units) {
          const there = convert(7, category.id, from.id, to.id);
          if (from.id === to.id) expect(there).toBe(7);
          // Round trip returns the value.
          expect(convert(there, category.id, to.id, from.id)).toBeCloseTo(7, 6);
        }
      }
    }
  });
});

describe('validateConversion', () => {
  test.each([
    ['', 'length', 'cm', 'in', 'All fields are required'],
    ['5', 'length', '', 'in', 'All fields are required'],
    ['5', 'length', 'cm', '', 'All fields are required'],
    ['five', 'length', 'cm', 'in', 'Enter a number, for example 12.5'],
    ['5', 'length', 'cm', 'kg', 'Choose units of the same kind'],
    ['-300', 'temperature', 'C', 'F', 'That is below absolute zero (−273.15 °C, −459.67 °F, 0 K)'],
    ['-1', 'temperature', 'K', 'C', 'That is below absolute zero (−273.15 °C, −459.67 °F, 0 K)'],
  ] as const)('%j %s %s→%s: %s', (value, category, from, to, message) => {
    expect(validateConversion(value, category, from, to)).toEqual({ ok: false, error: message });
  });

  test.each([
    ['1,234.5', 1234.5],
    [' 12 ', 12],
    ['1e3', 1000],
    ['-273.15', -273.15],
  ])('accepts %j', (text, value) => {
    expect(validateConversion(text, 'temperature', 'C', 'F')).toEqual({ ok: true, value });
  });
});

describe('formatNumber', () => {
  test.each([
    [1.609344, '1.609344'],
    [1234567.891, '1,234,567.891'],
    [0.621371192237, '0.6213711922'],
    [0, '0'],
    [1e-9, '1 × 10^-9'],
    [1.5e20, '1.5 × 10^20'],
    [-40, '-40'],
  ])('%f → %s', (value, text) => expect(formatNumber(value)).toBe(text));
});
