import type { ToolContent } from '../types.ts';

/** Detail-page copy of bmi-calculator: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'BMI Calculator works out your body mass index from your weight and height, in metric or imperial units, ' +
    'and shows the WHO weight category together with the healthy weight range for your height.',
  features: [
    'Metric (kg and cm) or imperial units',
    'BMI to one decimal place',
    'WHO category, from underweight to obesity',
    'Healthy weight range for your height',
    'Clear explanations when a value is out of range',
  ],
  usage: [
    'Click Get Started.',
    'Choose metric or imperial units.',
    'Enter your weight and height.',
    'Click Calculate to see your BMI and category.',
  ],
  perfectFor: [
    'Keeping track of health goals',
    'Quick checks before a medical appointment',
    'Fitness coaches working with clients',
    'Learning how BMI categories are defined',
  ],
  privacy:
    'Health data is sensitive. Your weight and height are used only in this page to compute the result and are ' +
    'never transmitted or stored.',
  whyUse:
    'Folio gives an accurate result with context — the category and a healthy range — without ads, tracking or ' +
    'sign-up. BMI is a general indicator, not a diagnosis.',
};
