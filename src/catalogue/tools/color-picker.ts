import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/color-picker.ts';

export const tool: UtilityToolEntry = {
  id: 'color-picker',
  name: 'Color Picker',
  description: 'Pick and copy color codes',
  icon: 'palette',
  order: 23,
  groups: { dropdown: 'Utility Tools', toolsPage: 'Utility Tools', menu: 'Utility Tools' },
  listOrder: { dropdown: 21 },
  home: { heroTile: 11 },
  kind: 'utility',
  content,
};
