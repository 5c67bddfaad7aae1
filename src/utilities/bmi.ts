/**
 * Body mass index for adults: weight (kg) / height (m)², WHO adult categories.
 *
 * The category is taken from the BMI rounded to one decimal, the figure the user sees, so 24.96
 * shows as "25.0 Overweight" rather than "25.0 Normal weight". Input bounds:
 * weight 30–300 kg, height 100–250 cm; imperial input is converted exactly (1 lb = 0.45359237 kg,
 * 1 in = 2.54 cm) and checked against the same bounds.
 */

export const WEIGHT_KG = { min: 30, max: 300, step: 0.1 } as const;
export const HEIGHT_CM = { min: 100, max: 250, step: 0.1 } as const;
export const KG_PER_LB = 0.45359237;
export const CM_PER_IN = 2.54;

/** WHO healthy range: 18.5 ≤ BMI < 25. */
export const HEALTHY_BMI = { min: 18.5, max: 24.9 } as const;

export type BmiCategory =
  'Underweight' | 'Normal weight' | 'Overweight' | 'Obesity class I' | 'Obesity class II' | 'Obesity class III';

export interface BmiResult {
  /** Unrounded. */
  bmi: number;
  /** One decimal, as a string ("22.9"). */
  bmiText: string;
  category: BmiCategory;
  /** Weights giving BMI 18.5 to 24.9 at this height, in kg. */
  healthyMinKg: number;
  healthyMaxKg: number;
}

export function bmiCategory(bmiOneDecimal: number): BmiCategory {
  if (bmiOneDecimal < 18.5) return 'Underweight';
  if (bmiOneDecimal < 25) return 'Normal weight';
  if (bmiOneDecimal < 30) return 'Overweight';
  if (bmiOneDecimal < 35) return 'Obesity class I';
  if (bmiOneDecimal < 40) return 'Obesity class II';
  return 'Obesity class III';
}

export function computeBmi(weightKg: number, heightCm: number): BmiResult {
  const metres = heightCm / 100;
  const bmi = weightKg / (metres * metres);
  const rounded = Math.round(bmi * 10) / 10;
  return {
    bmi,
    bmiText: rounded.toFixed(1),
    category: bmiCategory(rounded),
    healthyMinKg: HEALTHY_BMI.min * metres * metres,
    healthyMaxKg: HEALTHY_BMI.max * metres * metres,
  };
}

export type UnitSystem = 'metric' | 'imperial';

export interface BmiFields {
  system: UnitSystem;
  /** kg (metric) or lb (imperial), as typed. */
  weight: string;
  /** cm (metric) or feet (imperial), as typed. */
  height: string;
  /** Inches, imperial only (may be empty: 0). */
  inches?: string;
}

export type BmiInput = { ok: true; weightKg: number; heightCm: number } | { ok: false; error: string };

const lbText = (kg: number) => `${(kg / KG_PER_LB).toFixed(1)} lb`;
function feetInches(cm: number): string {
  const totalInches = cm / CM_PER_IN;
  const feet = Math.floor(totalInches / 12);
  return `${feet} ft ${(totalInches - feet * 12).toFixed(1)} in`;
}

function parseNumber(text: string | undefined): number | null {
  if (text === undefined || text.trim() === '') return null;
  const value = Number(text.trim().replace(',', '.'));
  return Number.isFinite(value) ? value : NaN;
}

/** Turns the typed fields into kg and cm, or a message saying what is wrong and why. */
export function validateBmiInput(fields: BmiFields): BmiInput {
  const weight = parseNumber(fields.weight);
  const height = parseNumber(fields.height);
  const inches = fields.system === 'imperial' ? (parseNumber(fields.inches) ?? 0) : 0;
  if (weight === null || height === null) return { ok: false, error: 'Weight and height are required' };
  if (Number.isNaN(weight) || Number.isNaN(height) || Number.isNaN(inches))
    return { ok: false, error: 'Weight and height must be numbers' };
  if (inches < 0 || inches >= 12) return { ok: false, error: 'Inches must be from 0 to less than 12' };

  const weightKg = fields.system === 'metric' ? weight : weight * KG_PER_LB;
  const heightCm = fields.system === 'metric' ? height : (height * 12 + inches) * CM_PER_IN;
  // Compare with a hair of tolerance so 661.4 lb (= 300.0 kg after rounding) is accepted.
  const epsilon = 0.05;
  if (weightKg < WEIGHT_KG.min - epsilon || weightKg > WEIGHT_KG.max + epsilon) {
    const range =
      fields.system === 'metric'
        ? `${WEIGHT_KG.min} and ${WEIGHT_KG.max} kg`
        : `${lbText(WEIGHT_KG.min)} and ${lbText(WEIGHT_KG.max)}`;
    return { ok: false, error: `Weight must be between ${range} — the adult range this calculator is made for` };
  }
  if (heightCm < HEIGHT_CM.min - epsilon || heightCm > HEIGHT_CM.max + epsilon) {
    const range =
      fields.system === 'metric'
        ? `${HEIGHT_CM.min} and ${HEIGHT_CM.max} cm`
        : `${feetInches(HEIGHT_CM.min)} and ${feetInches(HEIGHT_CM.max)}`;
    return { ok: false, error: `Height must be between ${range} — the adult range this calculator is made for` };
  }
  return { ok: true, weightKg, heightCm };
}

/** "58.8–76.3 kg" or "129.6–168.1 lb" for the healthy-weight line. */
export function formatWeightRange(minKg: number, maxKg: number, system: UnitSystem): string {
  if (system === 'metric') return `${minKg.toFixed(1)}–${maxKg.toFixed(1)} kg`;
  return `${(minKg / KG_PER_LB).toFixed(1)}–${(maxKg / KG_PER_LB).toFixed(1)} lb`;
}
