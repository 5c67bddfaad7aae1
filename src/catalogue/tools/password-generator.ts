import type { UtilityToolEntry } from '../types.ts';
import { draftContent } from '../accepts.ts';

export const tool: UtilityToolEntry = {
  id: 'password-generator',
  name: 'Password Generator',
  description: 'Generate secure passwords',
  icon: 'key',
  category: 'utility',
  kind: 'utility',
  formReady: false,
  content: draftContent('Generate secure passwords.'),
};
