/**
 * Password generation without bias.
 *
 * - Every random index comes from `crypto.getRandomValues` through rejection sampling: a 32-bit draw
 *   at or above the largest multiple of n is thrown away, so `draw % n` is exactly uniform
 *   (plain `% n` would favour the first 2^32 mod n symbols).
 * - "At least one character of each chosen class" is met by drawing every character uniformly from
 *   the whole pool and redrawing the whole password when a class is missing. The result is uniform
 *   over the set of valid passwords, so the entropy reported is exact: log2(number of valid
 *   passwords), counted by inclusion–exclusion. (Placing one forced character per class, then
 *   shuffling, would make passwords with several characters from a small class less likely.)
 *
 * The protect-pdf form reuses generatePassword() for its "generate" link.
 */

export const CHARACTER_CLASSES = {
  uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lowercase: 'abcdefghijklmnopqrstuvwxyz',
  digits: '0123456789',
  /** The symbols offered: !@#$%^&*() and friends. */
  symbols: '!@#$%^&*()',
} as const;

export type CharacterClass = keyof typeof CHARACTER_CLASSES;
export const CLASS_ORDER: readonly CharacterClass[] = ['uppercase', 'lowercase', 'digits', 'symbols'];

/** Characters easy to confuse in many fonts: capital i, small L, one, capital o, zero, small o. */
export const LOOK_ALIKES = 'Il1O0o';

/** The form's bounds; generatePassword itself accepts 4–128 so other tools can reuse it. */
export const PASSWORD_LENGTH = { min: 8, max: 32, default: 12 } as const;
const FUNCTION_LENGTH = { min: 4, max: 128 } as const;

export interface PasswordOptions {
  length: number;
  uppercase: boolean;
  lowercase: boolean;
  digits: boolean;
  symbols: boolean;
  excludeLookAlikes: boolean;
}

export const DEFAULT_PASSWORD_OPTIONS: PasswordOptions = {
  length: PASSWORD_LENGTH.default,
  uppercase: true,
  lowercase: true,
  digits: true,
  symbols: true,
  excludeLookAlikes: false,
};

/** Fills the array with uniformly random 32-bit values; tests pass a seeded generator. */
export type RandomSource = (target: Uint32Array) => void;

const cryptoSource: RandomSource = (target) => {
  crypto.getRandomValues(target);
};

const TWO_TO_32 = 0x1_0000_0000;

/** Draws uniform integers in [0, n) from a 32-bit source, buffering draws to keep calls few. */
export class UniformIntegers {
  private buffer = new Uint32Array(256);
  private next = this.buffer.length;

  constructor(private readonly source: RandomSource = cryptoSource) {}

  private draw(): number {
    if (this.next >= this.buffer.length) {
      this.source(this.buffer);
      this.next = 0;
    }
    return this.buffer[this.next++];
  }

  /** Uniform in [0, n): draws at or above the last whole multiple of n are rejected. */
  below(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > TWO_TO_32)
      throw new RangeError(`below(${n}): n must be an integer in 1..2^32`);
    const limit = TWO_TO_32 - (TWO_TO_32 % n);
    for (;;) {
      const value = this.draw();
      if (value < limit) return value % n;
    }
  }
}

/** The classes chosen in the options, each with its characters after look-alikes are removed. */
export function chosenClasses(options: PasswordOptions): { name: CharacterClass; characters: string }[] {
  return CLASS_ORDER.filter((name) => options[name]).map((name) => ({
    name,
    characters: options.excludeLookAlikes
      ? [...CHARACTER_CLASSES[name]].filter((c) => !LOOK_ALIKES.includes(c)).join('')
      : CHARACTER_CLASSES[name],
  }));
}

/** A user-facing reason the options cannot produce a password, or null when they can. */
export function passwordOptionsError(
  options: PasswordOptions,
  bounds: { min: number; max: number } = PASSWORD_LENGTH,
): string | null {
  if (!Number.isFinite(options.length)) return 'Length is required';
  if (!Number.isInteger(options.length) || options.length < bounds.min || options.length > bounds.max) {
    return `Length must be a whole number from ${bounds.min} to ${bounds.max}`;
  }
  if (chosenClasses(options).length === 0) return 'Choose at least one kind of character';
  return null;
}

/**
 * One password meeting the options: uniform over all strings of that length from the pool that
 * contain at least one character of each chosen class. Throws RangeError on unusable options.
 */
export function generatePassword(options: PasswordOptions, source?: RandomSource): string {
  return generatePasswords(1, options, source)[0];
}

/** Several passwords at once (one random stream, so one buffer of draws serves them all). */
export function generatePasswords(count: number, options: PasswordOptions, source?: RandomSource): string[] {
  const problem = passwordOptionsError(options, FUNCTION_LENGTH);
  if (problem) throw new RangeError(problem);
  const classes = chosenClasses(options);
  const pool = classes.map((c) => c.characters).join('');
  // Class index of each pool character, so the "every class present" check needs no string search.
  const classOf = new Uint8Array(pool.length);
  let offset = 0;
  classes.forEach((c, index) => {
    classOf.fill(index, offset, offset + c.characters.length);
    offset += c.characters.length;
  });

  const random = new UniformIntegers(source);
  const passwords: string[] = [];
  const picks = new Array<string>(options.length);
  while (passwords.length < count) {
    let seen = 0;
    for (let i = 0; i < options.length; i++) {
      const index = random.below(pool.length);
      picks[i] = pool[index];
      seen |= 1 << classOf[index];
    }
    // Redraw the whole password when a chosen class is missing (keeps the result uniform).
    if (seen === (1 << classes.length) - 1) passwords.push(picks.join(''));
  }
  return passwords;
}

/**
 * Exact entropy in bits of generatePassword's output: log2 of the number of valid passwords.
 * Inclusion–exclusion over the chosen classes: Σ over subsets S of (−1)^|S| (N − |S's characters|)^L.
 */
export function passwordEntropyBits(options: PasswordOptions): number {
  const classes = chosenClasses(options);
  if (classes.length === 0 || options.length < 1) return 0;
  const sizes = classes.map((c) => c.characters.length);
  const poolSize = sizes.reduce((a, b) => a + b, 0);
  const length = options.length;
  // Work relative to N^L to stay in floating-point range: count = N^L · Σ (−1)^|S| (1 − m_S/N)^L.
  let fraction = 0;
  for (let subset = 0; subset < 1 << sizes.length; subset++) {
    let missing = 0;
    let bits = 0;
    for (let i = 0; i < sizes.length; i++) {
      if (subset & (1 << i)) {
        missing += sizes[i];
        bits++;
      }
    }
    fraction += (bits % 2 ? -1 : 1) * Math.pow(1 - missing / poolSize, length);
  }
  if (fraction <= 0) return 0;
  return length * Math.log2(poolSize) + Math.log2(fraction);
}

export type StrengthLabel = 'Very weak' | 'Weak' | 'Fair' | 'Strong' | 'Very strong';

/** Thresholds in bits against offline guessing: under 40 weak, 60+ strong, 80+ very strong. */
export function strengthLabel(bits: number): StrengthLabel {
  if (bits < 28) return 'Very weak';
  if (bits < 40) return 'Weak';
  if (bits < 60) return 'Fair';
  if (bits < 80) return 'Strong';
  return 'Very strong';
}
