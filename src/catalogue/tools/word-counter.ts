import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/word-counter.ts';

export const tool: UtilityToolEntry = {
  id: 'word-counter',
  name: 'Word Counter',
  description: 'Count words and characters',
  icon: 'text',
  category: 'utility',
  kind: 'utility',
  formReady: true,
  content,
};
