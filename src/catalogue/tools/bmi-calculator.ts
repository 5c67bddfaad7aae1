import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/bmi-calculator.ts';

export const tool: UtilityToolEntry = {
  id: 'bmi-calculator',
  name: 'BMI Calculator',
  description: 'Calculate body mass index',
  icon: 'scale',
  order: 22,
  groups: { dropdown: 'Utility Tools', toolsPage: 'Utility Tools', menu: 'Utility Tools' },
  kind: 'utility',
  content,
};
