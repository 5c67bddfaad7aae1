/**
 * Calendar age between two dates (no times, no time zones: plain year-month-day arithmetic in UTC).
 *
 * Convention (documented in the README and shown in the form): a monthly or yearly anniversary that
 * does not exist in a month falls on that month's LAST day. So someone born on 29 February turns a
 * year older on 28 February in common years (born 2000-02-29 → on 2025-02-28: 25 years 0 months
 * 0 days; on 2025-03-01: 25 years 0 months 1 day), and someone born on 31 January is one month
 * older on 28/29 February. Anniversaries are always counted from the birth date itself (never
 * chained month by month), so a clamped February does not shift later months.
 */

export interface PlainDate {
  year: number;
  month: number; // 1–12
  day: number; // 1–31
}

export interface AgeResult {
  years: number;
  months: number;
  days: number;
  totalDays: number;
  totalWeeks: number;
  totalMonths: number;
  /** Weekday of the birth date, e.g. "Tuesday". */
  bornOn: string;
  /** The next birthday after the "on" date (today's birthday counts as next year's). */
  nextBirthday: PlainDate;
  daysToNextBirthday: number;
  /** Age in years the person turns on nextBirthday. */
  nextAge: number;
  isBirthday: boolean;
}

const DAY_MS = 86_400_000;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** Days since 1970-01-01 (proleptic Gregorian), exact for any year. */
export function dayNumber(date: PlainDate): number {
  const utc = new Date(0);
  utc.setUTCFullYear(date.year, date.month - 1, date.day);
  utc.setUTCHours(0, 0, 0, 0);
  return Math.round(utc.getTime() / DAY_MS);
}

export function compareDates(a: PlainDate, b: PlainDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** Parses "YYYY-MM-DD" (what <input type="date"> gives); null when it is not a real date. */
export function parsePlainDate(text: string): PlainDate | null {
  const match = /^(\d{4,6})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > daysInMonth(date.year, date.month)) return null;
  return date;
}

export function formatPlainDate(date: PlainDate): string {
  return (
    `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-` +
    `${String(date.day).padStart(2, '0')}`
  );
}

/** Today in the visitor's own time zone. */
export function today(now = new Date()): PlainDate {
  return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
}

/** The birth date moved on by whole months, clamped to the month's last day (the convention above). */
export function anniversary(birth: PlainDate, monthsLater: number): PlainDate {
  const monthIndex = birth.month - 1 + monthsLater;
  const year = birth.year + Math.floor(monthIndex / 12);
  const month = (((monthIndex % 12) + 12) % 12) + 1;
  return { year, month, day: Math.min(birth.day, daysInMonth(year, month)) };
}

export function calculateAge(birth: PlainDate, on: PlainDate): AgeResult {
  if (compareDates(on, birth) < 0) throw new RangeError('The date to calculate the age at is before the birth date');
  // Largest whole number of months whose anniversary is not after `on`.
  let totalMonths = (on.year - birth.year) * 12 + (on.month - birth.month);
  while (totalMonths > 0 && compareDates(anniversary(birth, totalMonths), on) > 0) totalMonths--;
  const lastMonthly = anniversary(birth, totalMonths);
  const totalDays = dayNumber(on) - dayNumber(birth);

  const years = Math.floor(totalMonths / 12);
  const isBirthday = totalMonths % 12 === 0 && compareDates(lastMonthly, on) === 0 && totalDays > 0;
  const nextAge = years + 1;
  const nextBirthday = anniversary(birth, nextAge * 12);
  const birthUtc = new Date(0);
  birthUtc.setUTCFullYear(birth.year, birth.month - 1, birth.day);

  return {
    years,
    months: totalMonths % 12,
    days: dayNumber(on) - dayNumber(lastMonthly),
    totalDays,
    totalWeeks: Math.floor(totalDays / 7),
    totalMonths,
    bornOn: WEEKDAYS[birthUtc.getUTCDay()],
    nextBirthday,
    daysToNextBirthday: dayNumber(nextBirthday) - dayNumber(on),
    nextAge,
    isBirthday,
  };
}

export type AgeInput = { ok: true; birth: PlainDate; on: PlainDate } | { ok: false; error: string };

/**
 * Checks the form's two fields with 'Please enter your birth date' for a missing birth date and clear
 * ones for the rest. `atText` is the optional "age at" date; empty means today.
 */
export function validateAgeInput(birthText: string, atText: string, now: PlainDate): AgeInput {
  if (birthText.trim() === '') return { ok: false, error: 'Birth date is required' };
  const birth = parsePlainDate(birthText);
  if (!birth) return { ok: false, error: 'Enter the birth date as a real calendar date (YYYY-MM-DD)' };
  if (birth.year < 1800) return { ok: false, error: 'Enter a birth date from the year 1800 on' };
  if (compareDates(birth, now) > 0) return { ok: false, error: 'Birth date cannot be in the future' };
  let on = now;
  if (atText.trim() !== '') {
    const at = parsePlainDate(atText);
    if (!at) return { ok: false, error: 'Enter the "age at" date as a real calendar date (YYYY-MM-DD)' };
    if (compareDates(at, birth) < 0)
      return { ok: false, error: 'The "age at" date must be on or after the birth date' };
    on = at;
  }
  return { ok: true, birth, on };
}
