/** Axis scales (automatic "nice" ranges and their ticks) and number formats of labels. */
import SSF from 'ssf';

/** A number in an Excel number format (General when there is none; the plain number if SSF cannot). */
export function formatNumber(value: number, formatCode: string | undefined): string {
  try {
    return SSF.format(formatCode && formatCode !== '' ? formatCode : 'General', value);
  } catch {
    return String(value);
  }
}

export interface Scale {
  min: number;
  max: number;
  step: number;
}

/**
 * Automatic axis scaling as LibreOffice (and, closely, Excel) does it: at most `maxCount` intervals
 * on 1/2/5×10ⁿ steps; a range of positive values that is wide compared with its distance from zero
 * starts at zero (`includeZero` forces it); values close to the top get one more interval.
 */
export function niceScale(
  dataMin: number,
  dataMax: number,
  maxCount = 10,
  options: {
    includeZero?: boolean;
    expandToZero?: boolean;
    min?: number;
    max?: number;
    step?: number;
    expandNearBorder?: boolean;
  } = {},
): Scale {
  let min = Number.isFinite(dataMin) ? dataMin : 0;
  let max = Number.isFinite(dataMax) ? dataMax : 1;
  if (min > max) [min, max] = [max, min];
  if (options.includeZero) {
    min = Math.min(0, min);
    max = Math.max(0, max);
  } else if (options.expandToZero !== false) {
    if (min > 0 && min / max < 5 / 6) min = 0;
    if (max < 0 && max / min < 5 / 6) max = 0;
  }
  if (options.min !== undefined) min = options.min;
  if (options.max !== undefined) max = options.max;
  if (min === max) {
    if (min === 0) max = 1;
    else if (min > 0) {
      min = options.min ?? 0;
      if (min === max) max = min * 2;
    } else {
      max = options.max ?? 0;
      if (min === max) min = max * 2;
    }
  }
  maxCount = Math.max(1, Math.floor(maxCount));
  const round = (v: number) => Number(v.toPrecision(12));
  if (options.step && options.step > 0 && (max - min) / options.step <= 1000) {
    const step = options.step;
    return {
      min: options.min ?? round(Math.floor(min / step) * step),
      max: options.max ?? round(Math.ceil(max / step) * step),
      step,
    };
  }
  const span = max - min;
  const rough = span >= 1 ? (Math.ceil(max) - Math.floor(min)) / maxCount : span / maxCount;
  let magnitude = 10 ** Math.floor(Math.log10(rough));
  const steps = [1, 2, 5];
  let k = steps.findIndex((s) => rough / magnitude <= s + 1e-9);
  if (k < 0) {
    k = 0;
    magnitude *= 10;
  }
  for (let guard = 0; guard < 40; guard++) {
    const step = steps[k] * magnitude;
    let lo = options.min ?? round(Math.floor(min / step + 1e-9) * step);
    let hi = options.max ?? round(Math.ceil(max / step - 1e-9) * step);
    if (hi <= lo) hi = round(lo + step);
    // Values close to an automatic border that is not zero: one more interval there, the lower side
    // first (as LibreOffice does; not for 3-D charts). A scatter chart's x values 1…4 run from 0.5 to 4.5.
    if (options.expandNearBorder !== false) {
      if (options.min === undefined && lo !== 0 && (hi - min) / (hi - lo) > 20 / 21) lo = round(lo - step);
      if (options.max === undefined && hi !== 0 && (max - lo) / (hi - lo) > 20 / 21) hi = round(hi + step);
    }
    if ((hi - lo) / step <= maxCount + 1e-9) return { min: lo, max: hi, step };
    k++;
    if (k === steps.length) {
      k = 0;
      magnitude *= 10;
    }
  }
  return { min, max, step: span };
}

/** The tick values of a scale, min to max (at most 201). */
export function ticks(scale: Scale): number[] {
  const out: number[] = [];
  const count = Math.round((scale.max - scale.min) / scale.step);
  for (let i = 0; i <= Math.min(count, 200); i++) out.push(Number((scale.min + i * scale.step).toPrecision(12)));
  return out;
}
