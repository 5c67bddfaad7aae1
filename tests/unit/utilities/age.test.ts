import { describe, expect, test } from 'vitest';
import { calculateAge, parsePlainDate, validateAgeInput, type PlainDate } from '../../../src/utilities/age.ts';

const d = (text: string): PlainDate => {
  const date = parsePlainDate(text);
  if (!date) throw new Error(`bad test date ${text}`);
  return date;
};

describe('calculateAge', () => {
  test.each([
    // birth, on, years, months, days, total days
    ['2000-01-01', '2000-01-01', 0, 0, 0, 0],
    ['2000-01-15', '2025-06-20', 25, 5, 5, 9288],
    ['1990-05-20', '2025-05-19', 34, 11, 29, 12783],
    ['1990-05-20', '2025-05-20', 35, 0, 0, 12784],
    // Leap-day births: the convention is "last day of the month" (Feb 28 in common years).
    ['2000-02-29', '2025-02-28', 25, 0, 0, 9131],
    ['2000-02-29', '2025-03-01', 25, 0, 1, 9132],
    ['2000-02-29', '2025-02-27', 24, 11, 29, 9130],
    ['2000-02-29', '2024-02-29', 24, 0, 0, 8766],
    ['2000-02-29', '2024-02-28', 23, 11, 30, 8765],
    // Month ends: born on the 31st, a short month's anniversary is its last day.
    ['2024-01-31', '2024-02-29', 0, 1, 0, 29],
    ['2023-01-31', '2023-02-28', 0, 1, 0, 28],
    ['2023-01-31', '2023-03-01', 0, 1, 1, 29],
    ['2023-01-31', '2023-03-31', 0, 2, 0, 59],
    ['2023-01-31', '2023-04-30', 0, 3, 0, 89],
    ['2023-03-31', '2023-04-29', 0, 0, 29, 29],
    // Across year ends and centuries (1900 is not a leap year, 2000 is).
    ['1899-12-31', '1900-03-01', 0, 2, 1, 60],
    ['1999-12-31', '2000-03-01', 0, 2, 1, 61],
    ['1950-07-04', '2026-01-03', 75, 5, 30, 27577],
  ])('born %s, on %s → %i y %i m %i d, %i days', (birth, on, years, months, days, totalDays) => {
    const age = calculateAge(d(birth), d(on));
    expect([age.years, age.months, age.days, age.totalDays]).toEqual([years, months, days, totalDays]);
  });

  test.each([
    ['2000-02-29', '2025-01-10', '2025-02-28', 49, 25],
    ['2000-02-29', '2027-12-01', '2028-02-29', 90, 28],
    ['1990-05-20', '2025-05-20', '2026-05-20', 365, 36],
    ['1990-12-31', '2025-12-30', '2025-12-31', 1, 35],
  ])('born %s, on %s: next birthday %s in %i days (turning %i)', (birth, on, next, inDays, nextAge) => {
    const age = calculateAge(d(birth), d(on));
    expect(age.nextBirthday).toEqual(d(next));
    expect(age.daysToNextBirthday).toBe(inDays);
    expect(age.nextAge).toBe(nextAge);
  });

  test('birthday today, weekday of birth', () => {
    const age = calculateAge(d('1990-05-20'), d('2025-05-20'));
    expect(age.isBirthday).toBe(true);
    expect(age.bornOn).toBe('Sunday');
    expect(calculateAge(d('2000-02-29'), d('2025-02-28')).isBirthday).toBe(true);
    expect(calculateAge(d('2000-02-29'), d('2024-02-28')).isBirthday).toBe(false);
  });

  test('years, months and days are consistent day by day across four years', () => {
    // Walking one day at a time, the age never goes backwards and days reset only at a monthly anniversary.
    const birth = d('2000-02-29');
    let previous = calculateAge(birth, birth);
    for (let offset = 1; offset < 4 * 366; offset++) {
      const date = new Date(Date.UTC(2000, 1, 29 + offset));
      const on = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
      const age = calculateAge(birth, on);
      expect(age.totalDays).toBe(offset);
      const order = (a: typeof age) => a.years * 10_000 + a.months * 100 + a.days;
      expect(order(age)).toBeGreaterThan(order(previous));
      if (age.days !== 0) expect(age.days).toBe(previous.days + 1);
      previous = age;
    }
  });
});

describe('validateAgeInput', () => {
  const now = d('2025-06-01');
  test.each([
    ['', '', 'Birth date is required'],
    ['   ', '', 'Birth date is required'],
    ['2025-06-02', '', 'Birth date cannot be in the future'],
    ['2025-02-30', '', 'Enter the birth date as a real calendar date (YYYY-MM-DD)'],
    ['2023-02-29', '', 'Enter the birth date as a real calendar date (YYYY-MM-DD)'],
    ['1700-01-01', '', 'Enter a birth date from the year 1800 on'],
    ['2000-01-01', '1999-12-31', 'The "age at" date must be on or after the birth date'],
  ])('birth %j at %j → %s', (birth, at, message) => {
    expect(validateAgeInput(birth, at, now)).toEqual({ ok: false, error: message });
  });

  test('today is the default; an "age at" date (even a future one) is used when given', () => {
    expect(validateAgeInput('2000-01-01', '', now)).toEqual({ ok: true, birth: d('2000-01-01'), on: now });
    expect(validateAgeInput('2000-01-01', '2040-01-01', now)).toEqual({
      ok: true,
      birth: d('2000-01-01'),
      on: d('2040-01-01'),
    });
    expect(validateAgeInput('2025-06-01', '', now).ok).toBe(true);
  });
});
