/**
 * Unit conversion by exact factors to one base unit per category (metre, kilogram, litre, square
 * metre, metre per second, second, byte); temperature by its affine formulas. The factors are the
 * legal definitions (1 in = 0.0254 m, 1 lb = 0.45359237 kg, 1 US gal = 3.785411784 L, …), so the
 * only error is floating point, which display rounding to 12 significant digits removes.
 */

export type UnitCategory = 'length' | 'mass' | 'temperature' | 'volume' | 'area' | 'speed' | 'time' | 'data';

export interface UnitDef {
  id: string;
  label: string;
  /** Short symbol shown after numbers. */
  symbol: string;
  /** How many base units one of this unit is (not used for temperature). */
  factor: number;
}

export interface CategoryDef {
  id: UnitCategory;
  label: string;
  units: readonly UnitDef[];
  /** The pair shown when the category is chosen. */
  defaults: readonly [string, string];
}

const u = (id: string, label: string, symbol: string, factor: number): UnitDef => ({ id, label, symbol, factor });

const INCH = 0.0254;
const FOOT = 12 * INCH;
const YARD = 3 * FOOT;
const MILE = 1760 * YARD;
const POUND = 0.45359237;
const US_GALLON = 3.785411784; // litres (231 in³)
const US_FLUID_OUNCE = US_GALLON / 128;

export const CATEGORIES: readonly CategoryDef[] = [
  {
    id: 'length',
    label: 'Length',
    defaults: ['cm', 'in'],
    units: [
      u('mm', 'Millimetres', 'mm', 0.001),
      u('cm', 'Centimetres', 'cm', 0.01),
      u('m', 'Metres', 'm', 1),
      u('km', 'Kilometres', 'km', 1000),
      u('in', 'Inches', 'in', INCH),
      u('ft', 'Feet', 'ft', FOOT),
      u('yd', 'Yards', 'yd', YARD),
      u('mi', 'Miles', 'mi', MILE),
      u('nmi', 'Nautical miles', 'nmi', 1852),
    ],
  },
  {
    id: 'mass',
    label: 'Mass',
    defaults: ['kg', 'lb'],
    units: [
      u('mg', 'Milligrams', 'mg', 1e-6),
      u('g', 'Grams', 'g', 0.001),
      u('kg', 'Kilograms', 'kg', 1),
      u('t', 'Tonnes (metric)', 't', 1000),
      u('oz', 'Ounces', 'oz', POUND / 16),
      u('lb', 'Pounds', 'lb', POUND),
      u('st', 'Stones', 'st', 14 * POUND),
      u('short-ton', 'Short tons (US)', 'ton (US)', 2000 * POUND),
      u('long-ton', 'Long tons (UK)', 'ton (UK)', 2240 * POUND),
    ],
  },
  {
    id: 'temperature',
    label: 'Temperature',
    defaults: ['C', 'F'],
    units: [u('C', 'Celsius', '°C', 1), u('F', 'Fahrenheit', '°F', 1), u('K', 'Kelvin', 'K', 1)],
  },
  {
    id: 'volume',
    label: 'Volume',
    defaults: ['l', 'gal'],
    units: [
      u('ml', 'Millilitres', 'mL', 0.001),
      u('l', 'Litres', 'L', 1),
      u('m3', 'Cubic metres', 'm³', 1000),
      u('tsp', 'Teaspoons (US)', 'tsp', US_FLUID_OUNCE / 6),
      u('tbsp', 'Tablespoons (US)', 'tbsp', US_FLUID_OUNCE / 2),
      u('floz', 'Fluid ounces (US)', 'fl oz', US_FLUID_OUNCE),
      u('cup', 'Cups (US)', 'cup', US_FLUID_OUNCE * 8),
      u('pt', 'Pints (US)', 'pt', US_FLUID_OUNCE * 16),
      u('qt', 'Quarts (US)', 'qt', US_FLUID_OUNCE * 32),
      u('gal', 'Gallons (US)', 'gal', US_GALLON),
      u('gal-uk', 'Gallons (UK)', 'gal (UK)', 4.54609),
      u('in3', 'Cubic inches', 'in³', INCH * INCH * INCH * 1000),
      u('ft3', 'Cubic feet', 'ft³', FOOT * FOOT * FOOT * 1000),
    ],
  },
  {
    id: 'area',
    label: 'Area',
    defaults: ['m2', 'ft2'],
    units: [
      u('mm2', 'Square millimetres', 'mm²', 1e-6),
      u('cm2', 'Square centimetres', 'cm²', 1e-4),
      u('m2', 'Square metres', 'm²', 1),
      u('ha', 'Hectares', 'ha', 10_000),
      u('km2', 'Square kilometres', 'km²', 1e6),
      u('in2', 'Square inches', 'in²', INCH * INCH),
      u('ft2', 'Square feet', 'ft²', FOOT * FOOT),
      u('yd2', 'Square yards', 'yd²', YARD * YARD),
      u('ac', 'Acres', 'ac', 4840 * YARD * YARD),
      u('mi2', 'Square miles', 'mi²', MILE * MILE),
    ],
  },
  {
    id: 'speed',
    label: 'Speed',
    defaults: ['kmh', 'mph'],
    units: [
      u('ms', 'Metres per second', 'm/s', 1),
      u('kmh', 'Kilometres per hour', 'km/h', 1000 / 3600),
      u('mph', 'Miles per hour', 'mph', MILE / 3600),
      u('fts', 'Feet per second', 'ft/s', FOOT),
      u('kn', 'Knots', 'kn', 1852 / 3600),
    ],
  },
  {
    id: 'time',
    label: 'Time',
    defaults: ['h', 'min'],
    units: [
      u('msec', 'Milliseconds', 'ms', 0.001),
      u('s', 'Seconds', 's', 1),
      u('min', 'Minutes', 'min', 60),
      u('h', 'Hours', 'h', 3600),
      u('d', 'Days', 'd', 86_400),
      u('wk', 'Weeks', 'wk', 7 * 86_400),
      // Mean Gregorian year (365.2425 days) and a twelfth of it.
      u('mo', 'Months (average)', 'mo', (365.2425 * 86_400) / 12),
      u('yr', 'Years (average)', 'yr', 365.2425 * 86_400),
    ],
  },
  {
    id: 'data',
    label: 'Data size',
    defaults: ['MB', 'MiB'],
    units: [
      u('bit', 'Bits', 'bit', 1 / 8),
      u('B', 'Bytes', 'B', 1),
      u('kB', 'Kilobytes (1000)', 'kB', 1e3),
      u('MB', 'Megabytes (1000²)', 'MB', 1e6),
      u('GB', 'Gigabytes (1000³)', 'GB', 1e9),
      u('TB', 'Terabytes (1000⁴)', 'TB', 1e12),
      u('KiB', 'Kibibytes (1024)', 'KiB', 1024),
      u('MiB', 'Mebibytes (1024²)', 'MiB', 1024 ** 2),
      u('GiB', 'Gibibytes (1024³)', 'GiB', 1024 ** 3),
      u('TiB', 'Tebibytes (1024⁴)', 'TiB', 1024 ** 4),
    ],
  },
];

export function category(id: UnitCategory): CategoryDef {
  const found = CATEGORIES.find((c) => c.id === id);
  if (!found) throw new RangeError(`Unknown unit category ${id}`);
  return found;
}

export function findUnit(categoryId: UnitCategory, unitId: string): UnitDef | undefined {
  return category(categoryId).units.find((unit) => unit.id === unitId);
}

function toKelvin(value: number, unit: string): number {
  if (unit === 'C') return value + 273.15;
  if (unit === 'F') return ((value - 32) * 5) / 9 + 273.15;
  return value;
}

function fromKelvin(kelvin: number, unit: string): number {
  if (unit === 'C') return kelvin - 273.15;
  if (unit === 'F') return ((kelvin - 273.15) * 9) / 5 + 32;
  return kelvin;
}

/** Converts exactly up to floating point; the result is rounded to 12 significant digits. */
export function convert(value: number, categoryId: UnitCategory, fromId: string, toId: string): number {
  const from = findUnit(categoryId, fromId);
  const to = findUnit(categoryId, toId);
  if (!from || !to) throw new RangeError(`Cannot convert ${fromId} to ${toId} as ${categoryId}`);
  let result: number;
  if (categoryId === 'temperature') {
    // Direct formulas for C↔F so 0 °C gives exactly 32 °F (no detour through 273.15).
    if (fromId === toId) result = value;
    else if (fromId === 'C' && toId === 'F') result = (value * 9) / 5 + 32;
    else if (fromId === 'F' && toId === 'C') result = ((value - 32) * 5) / 9;
    else result = fromKelvin(toKelvin(value, fromId), toId);
  } else {
    result = (value * from.factor) / to.factor;
  }
  return roundSignificant(result, 12);
}

export function roundSignificant(value: number, digits: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(digits));
}

/** Plain decimals with thousands separators for ordinary sizes, scientific notation for extremes. */
export function formatNumber(value: number, significantDigits = 10): string {
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e15 || magnitude < 1e-6) {
    const [mantissa, exponent] = value.toExponential(significantDigits - 1).split('e');
    return `${mantissa.replace(/\.?0+$/, '')} × 10^${Number(exponent)}`;
  }
  return new Intl.NumberFormat('en-US', { maximumSignificantDigits: significantDigits }).format(value);
}

export type ConversionInput = { ok: true; value: number } | { ok: false; error: string };

/** 'All fields are required' for a missing field, then clear messages for the rest. */
export function validateConversion(
  valueText: string,
  categoryId: UnitCategory,
  fromId: string,
  toId: string,
): ConversionInput {
  if (valueText.trim() === '' || !fromId || !toId) return { ok: false, error: 'All fields are required' };
  const value = Number(
    valueText
      .trim()
      .replace(/[\s_]/g, '')
      .replace(/,(?=\d{3}(\D|$))/g, ''),
  );
  if (!Number.isFinite(value)) return { ok: false, error: 'Enter a number, for example 12.5' };
  if (!findUnit(categoryId, fromId) || !findUnit(categoryId, toId))
    return { ok: false, error: 'Choose units of the same kind' };
  if (categoryId === 'temperature' && toKelvin(value, fromId) < -1e-9) {
    return { ok: false, error: 'That is below absolute zero (−273.15 °C, −459.67 °F, 0 K)' };
  }
  return { ok: true, value };
}
