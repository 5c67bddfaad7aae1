/**
 * Unit converter: a category (length, mass, temperature, volume, area, speed, time, data size),
 * a value and two units with a swap button. Calculate converts ('All fields are
 * required'); once shown, the result follows edits. Logic and factors: src/utilities/units.ts.
 */
import { useId, useState, type FormEvent } from 'react';
import type { UtilityFormProps } from './registry.ts';
import {
  CATEGORIES,
  category,
  convert,
  findUnit,
  formatNumber,
  validateConversion,
  type UnitCategory,
} from '../../utilities/units.ts';
import { CalculateButton, CopyButton, ErrorLine, useCopy } from './utility/kit.tsx';

export default function UnitConverterForm(_props: UtilityFormProps) {
  const id = useId();
  const [categoryId, setCategoryId] = useState<UnitCategory>('length');
  const [value, setValue] = useState('');
  const [fromUnit, setFromUnit] = useState<string>(category('length').defaults[0]);
  const [toUnit, setToUnit] = useState<string>(category('length').defaults[1]);
  const [submitted, setSubmitted] = useState(false);
  const copyState = useCopy();

  const def = category(categoryId);
  const input = validateConversion(value, categoryId, fromUnit, toUnit);
  const result = submitted && input.ok ? convert(input.value, categoryId, fromUnit, toUnit) : null;
  const error = submitted && !input.ok ? input.error : null;
  const from = findUnit(categoryId, fromUnit);
  const to = findUnit(categoryId, toUnit);
  const resultText = result === null ? '' : formatNumber(result);

  function chooseCategory(next: UnitCategory) {
    const nextDef = category(next);
    setCategoryId(next);
    setFromUnit(nextDef.defaults[0]);
    setToUnit(nextDef.defaults[1]);
  }

  function swap() {
    setFromUnit(toUnit);
    setToUnit(fromUnit);
    // Carry the shown result over as the new value, so swapping converts back.
    if (result !== null) setValue(String(result));
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
  }

  const unitOptions = def.units.map((unit) => (
    <option key={unit.id} value={unit.id}>
      {unit.label} ({unit.symbol})
    </option>
  ));

  return (
    <form className="u-form" onSubmit={onSubmit} noValidate>
      <div className="u-row">
        <div className="u-field grow">
          <label htmlFor={`${id}-category`}>Kind of unit</label>
          <select
            id={`${id}-category`}
            value={categoryId}
            onChange={(e) => chooseCategory(e.target.value as UnitCategory)}
          >
            {CATEGORIES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="u-field grow">
          <label htmlFor={`${id}-value`}>Value</label>
          <input
            id={`${id}-value`}
            name="value"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 12.5"
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </div>
      </div>
      <div className="u-convert">
        <div className="u-field">
          <label htmlFor={`${id}-from`}>From</label>
          <select id={`${id}-from`} name="fromUnit" value={fromUnit} onChange={(e) => setFromUnit(e.target.value)}>
            {unitOptions}
          </select>
        </div>
        <button type="button" className="u-swap" onClick={swap} aria-label="Swap units" title="Swap units">
          ⇄
        </button>
        <div className="u-field">
          <label htmlFor={`${id}-to`}>To</label>
          <select id={`${id}-to`} name="toUnit" value={toUnit} onChange={(e) => setToUnit(e.target.value)}>
            {unitOptions}
          </select>
        </div>
      </div>
      <ErrorLine message={error} />
      <div className="u-actions">
        <CalculateButton>Convert</CalculateButton>
      </div>

      {result !== null && input.ok && from && to && (
        <section className="u-result" aria-label="Conversion" aria-live="polite">
          <p className="u-result-title">Result</p>
          <p className="u-headline" data-testid="conversion">
            {formatNumber(input.value)} {from.symbol} = {resultText} {to.symbol}
          </p>
          <div className="u-actions">
            <CopyButton text={resultText.replace(/,/g, '')} copyKey="result" label="Copy result" state={copyState} />
            {categoryId !== 'temperature' && fromUnit !== toUnit && (
              <span className="u-hint">
                1 {from.symbol} = {formatNumber(convert(1, categoryId, fromUnit, toUnit))} {to.symbol}
              </span>
            )}
          </div>
        </section>
      )}
    </form>
  );
}
