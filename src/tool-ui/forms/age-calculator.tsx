/**
 * Age calculator: birth date (required, not in the future) and an optional "age on" date (empty =
 * today). Calculate shows years, months and days, totals and the next birthday; once shown, the
 * result follows edits. Logic and the 29 February convention: src/utilities/age.ts.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import type { UtilityFormProps } from './registry.ts';
import { calculateAge, formatPlainDate, today, validateAgeInput, type PlainDate } from '../../utilities/age.ts';
import { CalculateButton, ErrorLine, Stat, formatCount } from './utility/kit.tsx';

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

/** A date in words in the browser's locale, so it reads in the order the date fields show (mm/dd or dd/mm). */
function longDate(date: PlainDate): string {
  const utc = new Date(Date.UTC(date.year, date.month - 1, date.day));
  return new Intl.DateTimeFormat(undefined, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(utc);
}

export default function AgeCalculatorForm(_props: UtilityFormProps) {
  const id = useId();
  const now = useMemo(() => today(), []);
  const [birth, setBirth] = useState('');
  const [at, setAt] = useState('');
  const [submitted, setSubmitted] = useState(false);

  const input = validateAgeInput(birth, at, now);
  const age = submitted && input.ok ? calculateAge(input.birth, input.on) : null;
  const error = submitted && !input.ok ? input.error : null;
  const onToday = at.trim() === '';

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
  }

  return (
    <form className="u-form" onSubmit={onSubmit} noValidate>
      <div className="u-row">
        <div className="u-field grow">
          <label htmlFor={`${id}-birth`}>Birth date</label>
          <input
            id={`${id}-birth`}
            name="birthDate"
            type="date"
            max={formatPlainDate(now)}
            min="1800-01-01"
            value={birth}
            onChange={(e) => setBirth(e.target.value)}
            required
          />
        </div>
        <div className="u-field grow">
          <label htmlFor={`${id}-at`}>
            Age on{' '}
            <span className="u-hint" style={{ display: 'inline' }}>
              (optional)
            </span>
          </label>
          <input id={`${id}-at`} name="atDate" type="date" value={at} onChange={(e) => setAt(e.target.value)} />
        </div>
      </div>
      <p className="u-hint">Leave “Age on” empty for today ({longDate(now)}).</p>
      <ErrorLine message={error} />
      <div className="u-actions">
        <CalculateButton />
      </div>

      {age && input.ok && (
        <section className="u-result" aria-label="Age" aria-live="polite">
          <p className="u-result-title">{onToday ? 'Age today' : `Age on ${longDate(input.on)}`}</p>
          <p className="u-headline" data-testid="age-headline">
            {plural(age.years, 'year')}, {plural(age.months, 'month')}, {plural(age.days, 'day')}
          </p>
          <div className="u-stats">
            <Stat label="Total months" value={formatCount(age.totalMonths)} />
            <Stat label="Total weeks" value={formatCount(age.totalWeeks)} />
            <Stat label="Total days" value={formatCount(age.totalDays)} />
            <Stat label="Day of birth" value={age.bornOn} />
          </div>
          <p className="u-hint" style={{ fontSize: '0.95rem', color: 'var(--text)' }} data-testid="next-birthday">
            {age.isBirthday ? `🎉 Birthday ${onToday ? 'today' : 'on that day'}! ` : ''}
            Next birthday: <strong>{longDate(age.nextBirthday)}</strong>, turning {age.nextAge} — in{' '}
            {plural(age.daysToNextBirthday, 'day')}.
          </p>
          {input.birth.day > 28 && (
            <p className="u-hint">
              When a month has no{' '}
              {input.birth.day === 29 && input.birth.month === 2 ? '29 February' : `day ${input.birth.day}`}, its last
              day counts as the anniversary
              {input.birth.month === 2 && input.birth.day === 29
                ? ', so in common years the birthday is 28 February'
                : ''}
              .
            </p>
          )}
        </section>
      )}
    </form>
  );
}
