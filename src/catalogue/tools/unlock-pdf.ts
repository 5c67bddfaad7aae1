import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/unlock-pdf.ts';

export const tool: FileToolEntry = {
  id: 'unlock-pdf',
  name: 'Unlock PDF',
  description: 'Remove PDF password',
  icon: 'unlock',
  order: 15,
  groups: { dropdown: 'Secure PDF', toolsPage: 'Secure PDF', menu: 'PDF Tools' },
  kind: 'file',
  endpoint: '/api/pdf/unlock',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'unlock-pdf-result.pdf',
  options: [
    {
      kind: 'password',
      name: 'password',
      label: 'Password',
      default: '',
      autocomplete: 'current-password',
      help:
        'The password that opens the file, or its permissions password. Files that only restrict printing or ' +
        'copying need none.',
    },
  ],
  // No validate(): an empty password is legitimate for files that carry only restrictions (they
  // open without one). Whether a password is needed is known only from the file, so the engine
  // answers 'Password is required' when it is empty and the file needs one, and
  // 'Invalid Password' when it is wrong.
  content,
};
