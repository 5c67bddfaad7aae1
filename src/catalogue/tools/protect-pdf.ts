import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/protect-pdf.ts';

export const tool: FileToolEntry = {
  id: 'protect-pdf',
  name: 'Protect PDF',
  description: 'Add password to PDF',
  icon: 'lock',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/protect',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'protect-pdf-result.pdf',
  options: [
    { kind: 'password', name: 'password', label: 'Password', default: '', confirm: true, autocomplete: 'new-password' },
  ],
  validate: (values) => {
    const password = String(values.password ?? '');
    if (password.length < 4) return 'Password must be at least 4 characters';
    if (password !== String(values.confirmPassword ?? '')) return 'Passwords do not match';
    return null;
  },
  engineReady: false,
  content,
};
