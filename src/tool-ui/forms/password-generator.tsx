/**
 * Password generator: length by slider and number (8–32, default 12), the four character classes
 * and "exclude look-alikes", how many passwords at once; entropy and strength update as options
 * change, a new set is drawn on every change and on Calculate. Logic: src/utilities/password.ts.
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { UtilityFormProps } from './registry.ts';
import {
  CHARACTER_CLASSES,
  DEFAULT_PASSWORD_OPTIONS,
  PASSWORD_LENGTH,
  generatePasswords,
  passwordEntropyBits,
  passwordOptionsError,
  strengthLabel,
  type CharacterClass,
  type PasswordOptions,
} from '../../utilities/password.ts';
import { CalculateButton, CopyButton, ErrorLine, useCopy } from './utility/kit.tsx';

const CLASS_LABELS: Record<CharacterClass, string> = {
  uppercase: 'Uppercase',
  lowercase: 'Lowercase',
  digits: 'Numbers',
  symbols: 'Symbols',
};
const CLASS_SAMPLES: Record<CharacterClass, string> = {
  uppercase: 'A–Z',
  lowercase: 'a–z',
  digits: '0–9',
  symbols: CHARACTER_CLASSES.symbols,
};
const COUNTS = [1, 3, 5, 10];
const STRENGTH_COLOURS = ['#d92d20', '#f04438', '#f79009', '#12b76a', '#039855'];

export default function PasswordGeneratorForm(_props: UtilityFormProps) {
  const id = useId();
  const [options, setOptions] = useState<PasswordOptions>(DEFAULT_PASSWORD_OPTIONS);
  // The number box may hold text while typing ("", "3"); the slider and generator use options.length.
  const [lengthText, setLengthText] = useState(String(DEFAULT_PASSWORD_OPTIONS.length));
  const [count, setCount] = useState(1);
  const [passwords, setPasswords] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const copyState = useCopy();

  const problem = passwordOptionsError(options);
  const bits = useMemo(() => (problem ? 0 : passwordEntropyBits(options)), [options, problem]);
  const label = strengthLabel(bits);
  const level = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'].indexOf(label);

  function generate(next: PasswordOptions, howMany: number) {
    const reason = passwordOptionsError(next);
    setError(reason);
    setPasswords(reason ? [] : generatePasswords(howMany, next));
  }

  // A fresh set whenever the options change (instant feedback), including the first render.
  useEffect(() => {
    generate(options, count);
  }, [options, count]);

  function update(patch: Partial<PasswordOptions>) {
    setOptions((current) => ({ ...current, ...patch }));
  }

  function onLengthText(text: string) {
    setLengthText(text);
    const value = Number(text);
    if (text.trim() !== '' && Number.isInteger(value) && value >= PASSWORD_LENGTH.min && value <= PASSWORD_LENGTH.max)
      update({ length: value });
    else
      setError(
        text.trim() === ''
          ? 'Length is required'
          : `Length must be a whole number from ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max}`,
      );
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const typed = Number(lengthText);
    if (
      lengthText.trim() === '' ||
      !Number.isInteger(typed) ||
      typed < PASSWORD_LENGTH.min ||
      typed > PASSWORD_LENGTH.max
    ) {
      setError(
        lengthText.trim() === ''
          ? 'Length is required'
          : `Length must be a whole number from ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max}`,
      );
      setPasswords([]);
      return;
    }
    generate(options, count);
  }

  return (
    <form className="u-form" onSubmit={onSubmit} noValidate>
      {passwords.length > 0 && (
        <section className="u-result" aria-label="Generated passwords">
          <ul className="u-passwords" data-testid="passwords">
            {passwords.map((password, index) => (
              <li key={`${index}-${password}`}>
                <code>{password}</code>
                <CopyButton text={password} copyKey={`password ${index + 1}`} label="Copy" state={copyState} />
              </li>
            ))}
          </ul>
          <p className="u-hint">
            Made on this device with the browser's cryptographic random generator, without bias; never sent or stored.
          </p>
        </section>
      )}
      <div className="u-field">
        <label htmlFor={`${id}-length`}>Length</label>
        <div className="u-length">
          <input
            type="range"
            aria-label="Length slider"
            min={PASSWORD_LENGTH.min}
            max={PASSWORD_LENGTH.max}
            step={1}
            value={options.length}
            onChange={(e) => {
              setLengthText(e.target.value);
              update({ length: Number(e.target.value) });
            }}
          />
          <input
            id={`${id}-length`}
            name="length"
            type="number"
            inputMode="numeric"
            min={PASSWORD_LENGTH.min}
            max={PASSWORD_LENGTH.max}
            step={1}
            value={lengthText}
            onChange={(e) => onLengthText(e.target.value)}
          />
        </div>
        <p className="u-hint">
          From {PASSWORD_LENGTH.min} to {PASSWORD_LENGTH.max} characters.
        </p>
      </div>

      <fieldset className="u-field" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="u-label" style={{ marginBottom: 6 }}>
          Characters
        </legend>
        <div className="u-checks">
          {(Object.keys(CLASS_LABELS) as CharacterClass[]).map((name) => (
            <label key={name} className="u-check">
              <input type="checkbox" checked={options[name]} onChange={(e) => update({ [name]: e.target.checked })} />
              <span>
                {CLASS_LABELS[name]}
                <small>{CLASS_SAMPLES[name]}</small>
              </span>
            </label>
          ))}
          <label className="u-check">
            <input
              type="checkbox"
              checked={options.excludeLookAlikes}
              onChange={(e) => update({ excludeLookAlikes: e.target.checked })}
            />
            <span>
              Exclude look-alikes
              <small>I l 1 O 0 o</small>
            </span>
          </label>
        </div>
      </fieldset>

      <div className="u-row">
        <div className="u-field">
          <label htmlFor={`${id}-count`}>How many</label>
          <select id={`${id}-count`} value={count} onChange={(e) => setCount(Number(e.target.value))}>
            {COUNTS.map((n) => (
              <option key={n} value={n}>
                {n} {n === 1 ? 'password' : 'passwords'}
              </option>
            ))}
          </select>
        </div>
        <div className="u-field grow" aria-live="polite">
          <div className="u-strength">
            <span>
              Strength: <strong data-testid="strength">{problem ? '—' : label}</strong>
            </span>
            <span data-testid="entropy">{problem ? '' : `${bits.toFixed(1)} bits of entropy`}</span>
          </div>
          <div
            className="u-meter"
            role="meter"
            aria-label="Password strength"
            aria-valuemin={0}
            aria-valuemax={128}
            aria-valuenow={Math.round(bits)}
          >
            <span
              style={{
                width: `${Math.min(100, (bits / 128) * 100)}%`,
                background: STRENGTH_COLOURS[Math.max(0, level)],
              }}
            />
          </div>
        </div>
      </div>

      <ErrorLine message={error} />
      <div className="u-actions">
        <CalculateButton>Generate</CalculateButton>
        {passwords.length > 1 && (
          <CopyButton text={passwords.join('\n')} copyKey="all" label="Copy all" state={copyState} />
        )}
      </div>
    </form>
  );
}
