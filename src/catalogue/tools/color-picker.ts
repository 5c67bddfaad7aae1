import type { UtilityToolEntry } from '../types.ts';
import { draftContent } from '../accepts.ts';

export const tool: UtilityToolEntry = {
  id: 'color-picker',
  name: 'Color Picker',
  description: 'Pick and copy color codes',
  icon: 'palette',
  category: 'utility',
  kind: 'utility',
  formReady: false,
  content: draftContent('Pick and copy color codes.'),
};
