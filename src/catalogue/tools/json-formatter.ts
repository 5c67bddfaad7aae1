import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/json-formatter.ts';

export const tool: UtilityToolEntry = {
  id: 'json-formatter',
  name: 'JSON Formatter',
  description: 'Format JSON data',
  icon: 'braces',
  category: 'utility',
  kind: 'utility',
  formReady: true,
  content,
};
