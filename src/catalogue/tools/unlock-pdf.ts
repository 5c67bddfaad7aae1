import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/unlock-pdf.ts';

export const tool: FileToolEntry = {
  id: 'unlock-pdf',
  name: 'Unlock PDF',
  description: 'Remove PDF password',
  icon: 'unlock',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/unlock',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'unlock-pdf-result.pdf',
  options: [
    { kind: 'password', name: 'password', label: 'Password', default: '', autocomplete: 'current-password' },
  ],
  validate: (values) => (String(values.password ?? '') === '' ? 'Password is required' : null),
  engineReady: false,
  content,
};
