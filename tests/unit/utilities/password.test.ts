import { describe, expect, test } from 'vitest';
import {
  CHARACTER_CLASSES,
  DEFAULT_PASSWORD_OPTIONS,
  LOOK_ALIKES,
  UniformIntegers,
  generatePassword,
  generatePasswords,
  passwordEntropyBits,
  passwordOptionsError,
  strengthLabel,
  type PasswordOptions,
  type RandomSource,
} from '../../../src/utilities/password.ts';

/** A deterministic 32-bit generator (SplitMix32-style) so the statistical tests never flake. */
function seeded(seed: number): RandomSource {
  let state = seed >>> 0;
  return (target) => {
    for (let i = 0; i < target.length; i++) {
      state = (state + 0x9e3779b9) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      target[i] = (z ^ (z >>> 16)) >>> 0;
    }
  };
}

/** Upper critical value of chi-square with df degrees of freedom at p = 1e-4 (Wilson–Hilferty). */
function chiSquareCritical(df: number): number {
  const z = 3.719;
  const a = 2 / (9 * df);
  return df * Math.pow(1 - a + z * Math.sqrt(a), 3);
}

function chiSquare(counts: Map<string, number>, alphabet: string): { statistic: number; df: number } {
  const total = [...alphabet].reduce((sum, c) => sum + (counts.get(c) ?? 0), 0);
  const expected = total / alphabet.length;
  let statistic = 0;
  for (const c of alphabet) statistic += ((counts.get(c) ?? 0) - expected) ** 2 / expected;
  return { statistic, df: alphabet.length - 1 };
}

function countCharacters(passwords: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const password of passwords) for (const c of password) counts.set(c, (counts.get(c) ?? 0) + 1);
  return counts;
}

const only = (patch: Partial<PasswordOptions>): PasswordOptions => ({
  ...DEFAULT_PASSWORD_OPTIONS,
  uppercase: false,
  lowercase: false,
  digits: false,
  symbols: false,
  ...patch,
});

describe('UniformIntegers (rejection sampling)', () => {
  test('rejects draws at or above the last whole multiple of n', () => {
    // For n = 10, 2^32 mod 10 = 6, so draws ≥ 2^32 − 6 must be thrown away.
    const draws = [0xffffffff, 0xfffffffa, 0xfffffff9, 7];
    const source: RandomSource = (target) => {
      for (let i = 0; i < target.length; i++) target[i] = draws.shift() ?? 3;
    };
    const random = new UniformIntegers(source);
    expect(random.below(10)).toBe(0xfffffff9 % 10); // 0xfffffff9 = 4294967289 is the largest accepted draw
    expect(random.below(10)).toBe(7);
  });

  test('stays in range for awkward sizes', () => {
    const random = new UniformIntegers(seeded(1));
    for (const n of [1, 2, 3, 7, 10, 62, 72, 1000, 2 ** 31 + 1]) {
      for (let i = 0; i < 200; i++) {
        const value = random.below(n);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThan(n);
      }
    }
  });
});

describe('generatePassword', () => {
  test('honours length and classes', () => {
    for (const length of [8, 12, 32]) {
      const password = generatePassword({ ...DEFAULT_PASSWORD_OPTIONS, length });
      expect(password).toHaveLength(length);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/[0-9]/);
      expect(password).toMatch(/[!@#$%^&*()]/);
      expect(password).toMatch(/^[A-Za-z0-9!@#$%^&*()]+$/);
    }
  });

  test.each([
    ['digits only', only({ digits: true }), /^[0-9]{12}$/],
    ['no symbols', { ...DEFAULT_PASSWORD_OPTIONS, symbols: false }, /^[A-Za-z0-9]{12}$/],
    ['symbols only', only({ symbols: true }), /^[!@#$%^&*()]{12}$/],
    ['lowercase only', only({ lowercase: true }), /^[a-z]{12}$/],
  ])('%s', (_name, options, pattern) => {
    for (const password of generatePasswords(50, options)) expect(password).toMatch(pattern);
  });

  test('every password contains each chosen class, even at the minimum length', () => {
    for (const password of generatePasswords(2000, { ...DEFAULT_PASSWORD_OPTIONS, length: 8 }, seeded(7))) {
      for (const chars of Object.values(CHARACTER_CLASSES))
        expect([...password].some((c) => chars.includes(c))).toBe(true);
    }
  });

  test('excluding look-alikes removes Il1O0o', () => {
    const passwords = generatePasswords(
      500,
      { ...DEFAULT_PASSWORD_OPTIONS, length: 32, excludeLookAlikes: true },
      seeded(3),
    );
    for (const c of LOOK_ALIKES) expect(passwords.join('')).not.toContain(c);
  });

  test('refuses unusable options with a clear reason', () => {
    expect(passwordOptionsError(only({}))).toBe('Choose at least one kind of character');
    expect(passwordOptionsError({ ...DEFAULT_PASSWORD_OPTIONS, length: 7 })).toBe(
      'Length must be a whole number from 8 to 32',
    );
    expect(passwordOptionsError({ ...DEFAULT_PASSWORD_OPTIONS, length: 33 })).toBe(
      'Length must be a whole number from 8 to 32',
    );
    expect(passwordOptionsError({ ...DEFAULT_PASSWORD_OPTIONS, length: NaN })).toBe('Length is required');
    expect(() => generatePassword(only({}))).toThrow(RangeError);
    // The exported function accepts 4–128 so other tools (protect-pdf) can ask for other lengths.
    expect(generatePassword({ ...DEFAULT_PASSWORD_OPTIONS, length: 64 })).toHaveLength(64);
  });

  test('passwords differ (crypto source)', () => {
    const passwords = generatePasswords(1000, DEFAULT_PASSWORD_OPTIONS);
    expect(new Set(passwords).size).toBe(1000);
  });
});

describe('uniformity (chi-square, p = 1e-4)', () => {
  test('two classes of equal size (52 characters, not a power of two): every character equally likely', () => {
    const alphabet = CHARACTER_CLASSES.uppercase + CHARACTER_CLASSES.lowercase; // 52: not a power of two
    const passwords = generatePasswords(10_000, only({ uppercase: true, lowercase: true, length: 20 }), seeded(42));
    // Both classes must appear, which slightly favours neither (same size), so all 52 stay uniform.
    const { statistic, df } = chiSquare(countCharacters(passwords), alphabet);
    expect(statistic).toBeLessThan(chiSquareCritical(df));
  });

  test('all classes: characters are uniform within each class, and in every position', () => {
    const passwords = generatePasswords(20_000, DEFAULT_PASSWORD_OPTIONS, seeded(99));
    const counts = countCharacters(passwords);
    for (const alphabet of Object.values(CHARACTER_CLASSES)) {
      const { statistic, df } = chiSquare(counts, alphabet);
      expect(statistic).toBeLessThan(chiSquareCritical(df));
    }
    // The first and last positions see the same distribution as the whole (no position bias).
    for (const position of [0, 11]) {
      const atPosition = countCharacters(passwords.map((p) => p[position]));
      for (const alphabet of Object.values(CHARACTER_CLASSES)) {
        const { statistic, df } = chiSquare(atPosition, alphabet);
        expect(statistic).toBeLessThan(chiSquareCritical(df));
      }
    }
  });

  test('the test can fail: a modulo-biased generator is caught', () => {
    // 8-bit draws reduced by % 52 favour the first 256 mod 52 = 48 characters (5 vs 4 chances).
    const source = seeded(5);
    const buffer = new Uint32Array(1);
    const alphabet = CHARACTER_CLASSES.uppercase + CHARACTER_CLASSES.lowercase;
    const counts = new Map<string, number>();
    for (let i = 0; i < 200_000; i++) {
      source(buffer);
      const c = alphabet[(buffer[0] & 0xff) % 52];
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    const { statistic, df } = chiSquare(counts, alphabet);
    expect(statistic).toBeGreaterThan(chiSquareCritical(df));
  });
});

describe('entropy and strength', () => {
  test.each([
    // Single class: exactly L · log2(N).
    [only({ digits: true, length: 10 }), 10 * Math.log2(10)],
    [only({ lowercase: true, length: 12 }), 12 * Math.log2(26)],
  ])('single class %#', (options, bits) => {
    expect(passwordEntropyBits(options)).toBeCloseTo(bits, 9);
  });

  test('all classes: log2 of the count of valid passwords (checked by brute force on a tiny case)', () => {
    // Brute force: strings of length 4 over digits+symbols (20 chars) containing both kinds.
    let valid = 0;
    const pool = CHARACTER_CLASSES.digits + CHARACTER_CLASSES.symbols;
    for (let n = 0; n < 20 ** 4; n++) {
      let digits = false;
      let symbols = false;
      for (let k = n, j = 0; j < 4; j++, k = Math.floor(k / 20)) {
        if (k % 20 < 10) digits = true;
        else symbols = true;
      }
      if (digits && symbols) valid++;
    }
    expect(pool).toHaveLength(20);
    expect(passwordEntropyBits(only({ digits: true, symbols: true, length: 4 }))).toBeCloseTo(Math.log2(valid), 9);
  });

  test('default options give a strong password; labels follow the thresholds', () => {
    const bits = passwordEntropyBits(DEFAULT_PASSWORD_OPTIONS);
    expect(bits).toBeGreaterThan(72);
    expect(bits).toBeLessThan(12 * Math.log2(72));
    expect(strengthLabel(bits)).toBe('Strong');
    expect(strengthLabel(20)).toBe('Very weak');
    expect(strengthLabel(35)).toBe('Weak');
    expect(strengthLabel(50)).toBe('Fair');
    expect(strengthLabel(128)).toBe('Very strong');
  });
});
