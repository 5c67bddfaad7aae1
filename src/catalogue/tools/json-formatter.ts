import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/json-formatter.ts';

export const tool: UtilityToolEntry = {
  id: 'json-formatter',
  name: 'JSON Formatter',
  description: 'Format JSON data',
  icon: 'braces',
  order: 25,
  groups: { dropdown: 'Utility Tools', toolsPage: 'Utility Tools', menu: 'Utility Tools' },
  listOrder: { dropdown: 23 },
  home: { heroTile: 12 },
  kind: 'utility',
  content,
};
