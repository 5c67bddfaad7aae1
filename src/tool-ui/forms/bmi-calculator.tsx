/**
 * BMI calculator: metric (kg, cm) or imperial (lb, ft + in) input within set bounds
 * (30–300 kg, 100–250 cm, step 0.1); Calculate shows BMI to one decimal, the WHO category, where
 * it sits on the scale and the healthy weight range for the height. Logic: src/utilities/bmi.ts.
 */
import { useId, useState, type FormEvent } from 'react';
import type { UtilityFormProps } from './registry.ts';
import {
  HEIGHT_CM,
  WEIGHT_KG,
  computeBmi,
  formatWeightRange,
  validateBmiInput,
  type BmiCategory,
  type UnitSystem,
} from '../../utilities/bmi.ts';
import { CalculateButton, ErrorLine } from './utility/kit.tsx';

const SCALE = { min: 15, max: 40 };
const BANDS: { upTo: number; colour: string }[] = [
  { upTo: 18.5, colour: '#60a5fa' },
  { upTo: 25, colour: '#22c55e' },
  { upTo: 30, colour: '#f59e0b' },
  { upTo: 35, colour: '#f97316' },
  { upTo: 40, colour: '#ef4444' },
];
const TONE: Record<BmiCategory, 'pass' | 'fail' | 'neutral'> = {
  Underweight: 'neutral',
  'Normal weight': 'pass',
  Overweight: 'fail',
  'Obesity class I': 'fail',
  'Obesity class II': 'fail',
  'Obesity class III': 'fail',
};
const position = (bmi: number) =>
  ((Math.min(SCALE.max, Math.max(SCALE.min, bmi)) - SCALE.min) / (SCALE.max - SCALE.min)) * 100;

const METRIC_RANGES = 'Weight 30–300 kg, height 100–250 cm.';
const IMPERIAL_RANGES = 'Weight 66.1–661.4 lb, height 3 ft 3.4 in – 8 ft 2.4 in.';

export default function BmiCalculatorForm(_props: UtilityFormProps) {
  const id = useId();
  const [system, setSystem] = useState<UnitSystem>('metric');
  const [weight, setWeight] = useState('');
  const [height, setHeight] = useState('');
  const [inches, setInches] = useState('');
  const [submitted, setSubmitted] = useState(false);

  const input = validateBmiInput({ system, weight, height, inches });
  const result = submitted && input.ok ? computeBmi(input.weightKg, input.heightCm) : null;
  const error = submitted && !input.ok ? input.error : null;

  function switchSystem(next: UnitSystem) {
    if (next === system) return;
    // Carry valid values over, converted, so switching units does not lose what was typed.
    if (input.ok) {
      if (next === 'imperial') {
        const totalInches = input.heightCm / 2.54;
        const feet = Math.floor(totalInches / 12);
        setWeight((input.weightKg / 0.45359237).toFixed(1));
        setHeight(String(feet));
        setInches((totalInches - feet * 12).toFixed(1));
      } else {
        setWeight(input.weightKg.toFixed(1));
        setHeight(input.heightCm.toFixed(1));
        setInches('');
      }
    } else {
      setWeight('');
      setHeight('');
      setInches('');
      setSubmitted(false);
    }
    setSystem(next);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
  }

  const metric = system === 'metric';
  return (
    <form className="u-form" onSubmit={onSubmit} noValidate>
      <div className="u-segmented" role="radiogroup" aria-label="Units">
        {(['metric', 'imperial'] as const).map((value) => (
          <label key={value}>
            <input
              type="radio"
              name={`${id}-system`}
              value={value}
              checked={system === value}
              onChange={() => switchSystem(value)}
            />
            {value === 'metric' ? 'Metric (kg, cm)' : 'Imperial (lb, ft, in)'}
          </label>
        ))}
      </div>
      <div className="u-row">
        <div className="u-field grow">
          <label htmlFor={`${id}-weight`}>Weight ({metric ? 'kg' : 'lb'})</label>
          <input
            id={`${id}-weight`}
            name="weight"
            type="number"
            inputMode="decimal"
            step={0.1}
            min={metric ? WEIGHT_KG.min : 66.1}
            max={metric ? WEIGHT_KG.max : 661.4}
            placeholder={metric ? 'e.g. 70' : 'e.g. 154'}
            value={weight}
            onChange={(e) => setWeight(e.target.value)}
          />
        </div>
        <div className="u-field grow">
          <label htmlFor={`${id}-height`}>Height ({metric ? 'cm' : 'ft'})</label>
          <input
            id={`${id}-height`}
            name="height"
            type="number"
            inputMode="decimal"
            step={metric ? 0.1 : 1}
            min={metric ? HEIGHT_CM.min : 3}
            max={metric ? HEIGHT_CM.max : 8}
            placeholder={metric ? 'e.g. 175' : 'e.g. 5'}
            value={height}
            onChange={(e) => setHeight(e.target.value)}
          />
        </div>
        {!metric && (
          <div className="u-field grow">
            <label htmlFor={`${id}-inches`}>Inches</label>
            <input
              id={`${id}-inches`}
              name="inches"
              type="number"
              inputMode="decimal"
              step={0.1}
              min={0}
              max={11.9}
              placeholder="e.g. 9"
              value={inches}
              onChange={(e) => setInches(e.target.value)}
            />
          </div>
        )}
      </div>
      <p className="u-hint">{metric ? METRIC_RANGES : IMPERIAL_RANGES} For adults (18+).</p>
      <ErrorLine message={error} />
      <div className="u-actions">
        <CalculateButton />
      </div>

      {result && input.ok && (
        <section className="u-result" aria-label="BMI" aria-live="polite">
          <p className="u-result-title">Your BMI</p>
          <p className="u-headline" data-testid="bmi-value">
            {result.bmiText}{' '}
            <span className={`u-badge ${TONE[result.category]}`} data-testid="bmi-category">
              {result.category}
            </span>
          </p>
          <div className="u-scale" aria-hidden="true">
            <span className="u-scale-marker" style={{ left: `${position(result.bmi)}%` }} />
            <div className="u-scale-bar">
              {BANDS.map((band, index) => {
                const from = index === 0 ? SCALE.min : BANDS[index - 1].upTo;
                return (
                  <span
                    key={band.upTo}
                    style={{
                      width: `${((band.upTo - from) / (SCALE.max - SCALE.min)) * 100}%`,
                      background: band.colour,
                    }}
                  />
                );
              })}
            </div>
            <div className="u-scale-labels">
              {[18.5, 25, 30, 35].map((mark) => (
                <span key={mark} style={{ left: `${position(mark)}%` }}>
                  {mark}
                </span>
              ))}
            </div>
          </div>
          <p className="u-hint" style={{ fontSize: '0.95rem', color: 'var(--text)' }} data-testid="bmi-healthy">
            Healthy weight for your height:{' '}
            <strong>{formatWeightRange(result.healthyMinKg, result.healthyMaxKg, system)}</strong> (BMI 18.5–24.9).
          </p>
          <p className="u-hint">
            WHO adult categories: under 18.5 underweight, 18.5–24.9 normal, 25–29.9 overweight, 30 and over obesity. BMI
            does not tell muscle from fat; it is a screening figure, not a diagnosis.
          </p>
        </section>
      )}
    </form>
  );
}
