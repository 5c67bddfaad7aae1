import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/color-picker.ts';

export const tool: UtilityToolEntry = {
  id: 'color-picker',
  name: 'Color Picker',
  description: 'Pick and copy color codes',
  icon: 'palette',
  category: 'utility',
  kind: 'utility',
  formReady: true,
  content,
};
