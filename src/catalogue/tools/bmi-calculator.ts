import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/bmi-calculator.ts';

export const tool: UtilityToolEntry = {
  id: 'bmi-calculator',
  name: 'BMI Calculator',
  description: 'Calculate body mass index',
  icon: 'scale',
  category: 'utility',
  kind: 'utility',
  formReady: true,
  content,
};
