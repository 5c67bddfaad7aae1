import type { UtilityToolEntry } from '../types.ts';
import { content } from '../content/password-generator.ts';

export const tool: UtilityToolEntry = {
  id: 'password-generator',
  name: 'Password Generator',
  description: 'Generate secure passwords',
  icon: 'key',
  category: 'utility',
  kind: 'utility',
  formReady: true,
  content,
};
