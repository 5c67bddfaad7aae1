import type { ToolContent } from '../types.ts';

/** Detail-page copy of color-picker: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Color Picker lets you choose a colour and copy its code in every common format: HEX, RGB, HSL, HSV and ' +
    "CMYK. It also checks the colour's contrast against white and black text against the WCAG accessibility " +
    'levels.',
  features: [
    'Visual picker plus HEX input (#RRGGBB or #RGB)',
    'HEX, RGB, HSL, HSV and CMYK values',
    'One-click copy for every format',
    'Contrast ratio against white and black, with WCAG AA and AAA results',
    'Eyedropper to sample any colour on screen, where the browser supports it',
  ],
  usage: [
    'Click Get Started.',
    'Pick a colour, type a HEX code or use the eyedropper.',
    'Read the values in each format.',
    'Click a value to copy it.',
  ],
  perfectFor: [
    'Web designers and developers matching brand colours',
    'Checking that text colours are readable',
    'Converting colour codes between design tools',
    'Finding the exact colour of something on screen',
  ],
  privacy:
    'Colours are converted in your browser and nothing is sent anywhere. The eyedropper reads only the pixel ' +
    'you choose, with your permission.',
  whyUse: 'Every format you need in one place, with an accessibility check built in — fast, free and free of ads.',
};
