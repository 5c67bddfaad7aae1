import type { UtilityToolEntry } from '../types.ts';
import { draftContent } from '../accepts.ts';

export const tool: UtilityToolEntry = {
  id: 'unit-converter',
  name: 'Unit Converter',
  description: 'Convert between units',
  icon: 'ruler',
  category: 'utility',
  kind: 'utility',
  formReady: false,
  content: draftContent('Convert between units.'),
};
