import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/edit-pdf.ts';

export const tool: FileToolEntry = {
  id: 'edit-pdf',
  name: 'Edit PDF',
  description: 'Edit content of PDF',
  icon: 'edit',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/edit',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'edit-pdf-result.pdf',
  options: [
    { kind: 'text', name: 'text', label: 'Text to add', default: '' },
    {
      kind: 'select', name: 'position', label: 'Position', default: 'center',
      choices: [{ value: 'center', label: 'Center' }, { value: 'top', label: 'Top' }, { value: 'bottom', label: 'Bottom' }],
    },
  ],
  engineReady: false,
  content,
};
