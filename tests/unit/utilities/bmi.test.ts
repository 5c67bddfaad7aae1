import { describe, expect, test } from 'vitest';
import { computeBmi, formatWeightRange, validateBmiInput } from '../../../src/utilities/bmi.ts';

describe('computeBmi', () => {
  test.each([
    [70, 175, '22.9', 'Normal weight'],
    [50, 170, '17.3', 'Underweight'],
    [53.4, 170, '18.5', 'Normal weight'],
    [72.2, 170, '25.0', 'Overweight'], // 24.98… shows as 25.0, so it is categorised as 25.0
    [86.7, 170, '30.0', 'Obesity class I'],
    [110, 170, '38.1', 'Obesity class II'],
    [150, 170, '51.9', 'Obesity class III'],
    [30, 250, '4.8', 'Underweight'],
    [300, 100, '300.0', 'Obesity class III'],
  ])('%f kg, %f cm → %s %s', (kg, cm, text, category) => {
    const result = computeBmi(kg, cm);
    expect(result.bmiText).toBe(text);
    expect(result.category).toBe(category);
  });

  test('healthy weight range for the height (BMI 18.5–24.9)', () => {
    const { healthyMinKg, healthyMaxKg } = computeBmi(70, 175);
    expect(healthyMinKg).toBeCloseTo(56.65625, 6);
    expect(healthyMaxKg).toBeCloseTo(76.25625, 6);
    expect(formatWeightRange(healthyMinKg, healthyMaxKg, 'metric')).toBe('56.7–76.3 kg');
    expect(formatWeightRange(healthyMinKg, healthyMaxKg, 'imperial')).toBe('124.9–168.1 lb');
  });
});

describe('validateBmiInput', () => {
  test.each([
    [{ system: 'metric', weight: '', height: '175' }, 'Weight and height are required'],
    [{ system: 'metric', weight: '70', height: '' }, 'Weight and height are required'],
    [{ system: 'metric', weight: 'abc', height: '175' }, 'Weight and height must be numbers'],
    [
      { system: 'metric', weight: '29.9', height: '175' },
      'Weight must be between 30 and 300 kg — the adult range this calculator is made for',
    ],
    [
      { system: 'metric', weight: '301', height: '175' },
      'Weight must be between 30 and 300 kg — the adult range this calculator is made for',
    ],
    [
      { system: 'metric', weight: '70', height: '99.9' },
      'Height must be between 100 and 250 cm — the adult range this calculator is made for',
    ],
    [
      { system: 'metric', weight: '70', height: '250.1' },
      'Height must be between 100 and 250 cm — the adult range this calculator is made for',
    ],
    [
      { system: 'imperial', weight: '50', height: '5', inches: '9' },
      'Weight must be between 66.1 lb and 661.4 lb — the adult range this calculator is made for',
    ],
    [
      { system: 'imperial', weight: '150', height: '2', inches: '11' },
      'Height must be between 3 ft 3.4 in and 8 ft 2.4 in — the adult range this calculator is made for',
    ],
    [{ system: 'imperial', weight: '150', height: '5', inches: '12' }, 'Inches must be from 0 to less than 12'],
  ] as const)('%j → %s', (fields, message) => {
    expect(validateBmiInput(fields)).toEqual({ ok: false, error: message });
  });

  test.each([
    [{ system: 'metric', weight: '30', height: '100' }, 30, 100],
    [{ system: 'metric', weight: '300', height: '250' }, 300, 250],
    [{ system: 'metric', weight: '70,5', height: '175' }, 70.5, 175],
  ] as const)('metric bounds are inclusive %j', (fields, kg, cm) => {
    expect(validateBmiInput(fields)).toEqual({ ok: true, weightKg: kg, heightCm: cm });
  });

  test('imperial: 154.3 lb, 5 ft 9 in ≈ 70 kg, 175.26 cm → 22.8', () => {
    const input = validateBmiInput({ system: 'imperial', weight: '154.3', height: '5', inches: '9' });
    if (!input.ok) throw new Error(input.error);
    expect(input.weightKg).toBeCloseTo(69.989, 3);
    expect(input.heightCm).toBeCloseTo(175.26, 9);
    expect(computeBmi(input.weightKg, input.heightCm).bmiText).toBe('22.8');
    // Empty inches means 0.
    expect(validateBmiInput({ system: 'imperial', weight: '154.3', height: '6', inches: '' })).toMatchObject({
      ok: true,
      heightCm: 182.88,
    });
  });
});
