import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/password-generator.ts';

export const tool: UtilityToolEntry = {
  id: 'password-generator',
  name: 'Password Generator',
  description: 'Generate secure passwords',
  icon: 'key',
  order: 19,
  groups: { dropdown: 'Utility Tools', toolsPage: 'Utility Tools', menu: 'Utility Tools' },
  kind: 'utility',
  content,
};
