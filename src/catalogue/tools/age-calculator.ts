import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/age-calculator.ts';

export const tool: UtilityToolEntry = {
  id: 'age-calculator',
  name: 'Age Calculator',
  description: 'Calculate age from birthdate',
  icon: 'calendar',
  category: 'utility',
  kind: 'utility',
  formReady: true,
  content,
};
