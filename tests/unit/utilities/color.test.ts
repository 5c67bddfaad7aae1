import { describe, expect, test } from 'vitest';
import { BLACK, WHITE, colorNotations, contrastVerdict, parseHex, toHex } from '../../../src/utilities/color.ts';

describe('parseHex', () => {
  test.each([
    ['#FF0000', { r: 255, g: 0, b: 0 }],
    ['#ff8800', { r: 255, g: 136, b: 0 }],
    ['3b82f6', { r: 59, g: 130, b: 246 }],
    ['#f80', { r: 255, g: 136, b: 0 }],
    [' #ABC ', { r: 170, g: 187, b: 204 }],
  ])('%s', (text, rgb) => expect(parseHex(text)).toEqual(rgb));

  test.each(['', '#', '#12', '#1234', '#12345', '#1234567', '#GG0000', 'red', 'rgb(1,2,3)'])('refuses %j', (text) => {
    expect(parseHex(text)).toBeNull();
  });
});

describe('colorNotations', () => {
  test.each([
    ['#FF0000', 'rgb(255, 0, 0)', 'hsl(0, 100%, 50%)', 'hsv(0, 100%, 100%)', 'cmyk(0%, 100%, 100%, 0%)'],
    ['#000000', 'rgb(0, 0, 0)', 'hsl(0, 0%, 0%)', 'hsv(0, 0%, 0%)', 'cmyk(0%, 0%, 0%, 100%)'],
    ['#FFFFFF', 'rgb(255, 255, 255)', 'hsl(0, 0%, 100%)', 'hsv(0, 0%, 100%)', 'cmyk(0%, 0%, 0%, 0%)'],
    ['#3B82F6', 'rgb(59, 130, 246)', 'hsl(217, 91%, 60%)', 'hsv(217, 76%, 96%)', 'cmyk(76%, 47%, 0%, 4%)'],
    ['#808000', 'rgb(128, 128, 0)', 'hsl(60, 100%, 25%)', 'hsv(60, 100%, 50%)', 'cmyk(0%, 0%, 100%, 50%)'],
    ['#FF00FF', 'rgb(255, 0, 255)', 'hsl(300, 100%, 50%)', 'hsv(300, 100%, 100%)', 'cmyk(0%, 100%, 0%, 0%)'],
    // hue 359.8 → 0, never 360
    ['#FF0001', 'rgb(255, 0, 1)', 'hsl(0, 100%, 50%)', 'hsv(0, 100%, 100%)', 'cmyk(0%, 100%, 100%, 0%)'],
  ])('%s', (hex, rgb, hsl, hsv, cmyk) => {
    const color = parseHex(hex)!;
    expect(colorNotations(color)).toEqual({ hex, rgb, hsl, hsv, cmyk });
    expect(toHex(color)).toBe(hex);
  });
});

describe('WCAG contrast', () => {
  test.each([
    // colour, vs white, vs black
    ['#000000', '21.00', '1.00'],
    ['#FFFFFF', '1.00', '21.00'],
    ['#777777', '4.47', '4.68'], // 4.478… and 4.689…: truncated, so a near-miss never reads as a pass
    ['#767676', '4.54', '4.62'],
    ['#3B82F6', '3.67', '5.70'],
  ])('%s: %s on white, %s on black', (hex, onWhite, onBlack) => {
    const color = parseHex(hex)!;
    expect(contrastVerdict(color, WHITE).ratioText).toBe(onWhite);
    expect(contrastVerdict(color, BLACK).ratioText).toBe(onBlack);
  });

  test('AA/AAA thresholds', () => {
    expect(contrastVerdict(parseHex('#777777')!, WHITE)).toMatchObject({
      aaNormal: false,
      aaLarge: true,
      aaaNormal: false,
      aaaLarge: false,
    });
    expect(contrastVerdict(parseHex('#767676')!, WHITE)).toMatchObject({
      aaNormal: true,
      aaLarge: true,
      aaaNormal: false,
      aaaLarge: true,
    });
    expect(contrastVerdict(parseHex('#595959')!, WHITE)).toMatchObject({ aaNormal: true, aaaNormal: true });
  });
});
