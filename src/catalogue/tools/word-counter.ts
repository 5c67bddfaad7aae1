import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/word-counter.ts';

export const tool: UtilityToolEntry = {
  id: 'word-counter',
  name: 'Word Counter',
  description: 'Count words and characters',
  icon: 'text',
  order: 20,
  groups: { dropdown: 'Utility Tools', toolsPage: 'Utility Tools', menu: 'Utility Tools' },
  kind: 'utility',
  content,
};
