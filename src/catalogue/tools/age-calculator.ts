import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/age-calculator.ts';

export const tool: UtilityToolEntry = {
  id: 'age-calculator',
  name: 'Age Calculator',
  description: 'Calculate age from birthdate',
  icon: 'calendar',
  order: 21,
  groups: { dropdown: 'Utility Tools', toolsPage: 'Utility Tools', menu: 'Utility Tools' },
  listOrder: { dropdown: 25 },
  kind: 'utility',
  content,
};
