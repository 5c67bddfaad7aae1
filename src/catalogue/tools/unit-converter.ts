import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/unit-converter.ts';

export const tool: UtilityToolEntry = {
  id: 'unit-converter',
  name: 'Unit Converter',
  description: 'Convert between units',
  icon: 'ruler',
  order: 24,
  groups: { dropdown: 'Utility Tools', toolsPage: 'Utility Tools', menu: 'Utility Tools' },
  kind: 'utility',
  content,
};
