import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { REMOVE_SCRIPTS } from '../active-content-option.ts';
import { content } from '../content/organize-pdf.ts';

export const tool: FileToolEntry = {
  id: 'organize-pdf',
  name: 'Organize PDF',
  description: 'Reorder or delete pages',
  icon: 'organize',
  order: 12,
  groups: { dropdown: 'Edit & Organize', toolsPage: 'Organize & Edit PDF', menu: 'PDF Tools' },
  kind: 'file',
  endpoint: '/api/pdf/organize',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'organize-pdf-result.pdf',
  options: [
    {
      kind: 'text',
      name: 'pageOrder',
      label: 'Page order',
      default: '',
      placeholder: 'e.g. 3, 1r90, blank, 2',
      help:
        'Pages in their new order; pages left out are deleted, repeated ones duplicated. 2-5, last, odd, even ' +
        'work; add r90/r180/r270 to rotate; "blank" inserts a blank page.',
    },
    REMOVE_SCRIPTS,
  ],
  content,
};
