import { describe, expect, test } from 'vitest';
import {
  ALPHANUMERIC,
  SaslPrepError,
  passwordCandidates,
  passwordStrength,
  pdfDocEncode,
  randomPassword,
  saslPrep,
  toHex,
} from '../../shared/encryption-passwords.ts';

describe('SASLprep (RFC 4013), as PDF 2.0 prepares AES-256 passwords', () => {
  test('RFC 4013 §3 examples', () => {
    expect(saslPrep('I\u00adX', { stored: true })).toBe('IX'); // soft hyphen mapped to nothing
    expect(saslPrep('user', { stored: true })).toBe('user'); // no transformation
    expect(saslPrep('USER', { stored: true })).toBe('USER'); // case preserved
    expect(saslPrep('\u00aa', { stored: true })).toBe('a'); // NFKC
    expect(saslPrep('\u2168', { stored: true })).toBe('IX'); // NFKC
    expect(() => saslPrep('\u0007', { stored: true })).toThrow(SaslPrepError); // prohibited
    expect(() => saslPrep('\u0627\u0031', { stored: true })).toThrow(SaslPrepError); // bidi: must end with RandAL
  });

  test('non-ASCII spaces become spaces; NFD becomes NFC; CJK compatibility ideographs are unified', () => {
    expect(saslPrep('a\u00a0b\u3000c', { stored: true })).toBe('a b c');
    expect(saslPrep('pa\u0308sswo\u0308rt', { stored: true })).toBe('pässwört');
    // Unicode 3.2, not today's U+5F53
    expect(saslPrep('Password\u{2f874}!', { stored: false })).toBe('Password\u5f33!');
    expect(saslPrep('密码', { stored: true })).toBe('密码');
    expect(saslPrep('שלום', { stored: true })).toBe('שלום');
  });

  test('private use, non-characters and (when stored) unassigned code points are refused', () => {
    expect(() => saslPrep('a\ue000', { stored: false })).toThrow(SaslPrepError);
    expect(() => saslPrep('a\u{1fffe}', { stored: false })).toThrow(SaslPrepError);
    expect(() => saslPrep('a\u0378', { stored: true })).toThrow(SaslPrepError);
    expect(saslPrep('a\u0378', { stored: false })).toBe('a\u0378');
  });
});

describe('password candidates (byte strings tried against a file)', () => {
  test('ASCII: one candidate', () => {
    expect(passwordCandidates('secret').map(toHex)).toEqual([toHex(new TextEncoder().encode('secret'))]);
  });

  test('non-ASCII: SASLprep UTF-8, typed UTF-8, PDFDocEncoding, Latin-1 — without duplicates', () => {
    const hex = passwordCandidates('pa\u0308ss').map(toHex);
    expect(hex[0]).toBe('70c3a47373'); // "päss" NFC in UTF-8
    expect(hex[1]).toBe('7061cc887373'); // as typed (NFD)
    expect(new Set(hex).size).toBe(hex.length);
    expect(passwordCandidates('æøå').map(toHex)).toEqual(['c3a6c3b8c3a5', 'e6f8e5']);
  });

  test('PDFDocEncoding differs from Latin-1 for the euro sign, quotes and ligatures', () => {
    expect(toHex(pdfDocEncode('€“ﬁ”')!)).toBe('a08d938e');
    expect(pdfDocEncode('密')).toBeUndefined();
  });
});

describe('random passwords', () => {
  test('length and alphabet', () => {
    for (const length of [1, 12, 32, 100]) expect(randomPassword(length)).toHaveLength(length);
    expect(randomPassword(200, ALPHANUMERIC)).toMatch(/^[A-Za-z0-9]{200}$/);
    expect(randomPassword(32)).not.toBe(randomPassword(32));
  });

  test('every character is about equally likely (rejection sampling, no modulo bias)', () => {
    // 62 characters: a plain byte % 62 would make the first 8 characters 5/4 as likely as the rest.
    const counts = new Map<string, number>();
    const sample = randomPassword(62_000, ALPHANUMERIC);
    for (const c of sample) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const firstEight = [...ALPHANUMERIC.slice(0, 8)].reduce((sum, c) => sum + counts.get(c)!, 0) / 8;
    const rest = [...ALPHANUMERIC.slice(8)].reduce((sum, c) => sum + counts.get(c)!, 0) / 54;
    expect(firstEight / rest).toBeGreaterThan(0.93);
    expect(firstEight / rest).toBeLessThan(1.07);
  });
});

describe('password strength hint', () => {
  test('levels', () => {
    expect(passwordStrength('abc').label).toBe('Too short');
    expect(passwordStrength('1234').label).toBe('Weak');
    expect(passwordStrength('password1').label).toBe('Weak');
    expect(passwordStrength('aaaaaaaaaaaa').level).toBeLessThanOrEqual(1);
    expect(passwordStrength('Tr0ub4dor&3').level).toBeGreaterThanOrEqual(3);
    expect(passwordStrength('correct horse battery staple').level).toBe(4);
    expect(passwordStrength(randomPassword(16)).level).toBe(4);
  });
});
