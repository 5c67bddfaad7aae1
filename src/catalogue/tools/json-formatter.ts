import type { UtilityToolEntry } from '../types.ts';
import { draftContent } from '../accepts.ts';

export const tool: UtilityToolEntry = {
  id: 'json-formatter',
  name: 'JSON Formatter',
  description: 'Format JSON data',
  icon: 'braces',
  category: 'utility',
  kind: 'utility',
  formReady: false,
  content: draftContent('Format JSON data.'),
};
