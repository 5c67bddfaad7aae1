import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { REMOVE_SCRIPTS } from '../active-content-option.ts';
import { content } from '../content/rotate-pdf.ts';

export const tool: FileToolEntry = {
  id: 'rotate-pdf',
  name: 'Rotate PDF',
  description: 'Rotate pages to the right orientation',
  icon: 'rotate',
  order: 14,
  groups: { dropdown: 'Edit & Organize', toolsPage: 'Organize & Edit PDF', menu: 'PDF Tools' },
  home: { heroTile: 8 },
  kind: 'file',
  endpoint: '/api/pdf/rotate',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'rotate-pdf-result.pdf',
  options: [
    {
      kind: 'select',
      name: 'angle',
      label: 'Rotation',
      default: '90',
      choices: [
        { value: '90', label: '90° clockwise' },
        { value: '180', label: '180°' },
        { value: '270', label: '90° counter-clockwise' },
      ],
    },
    {
      kind: 'pages',
      name: 'pages',
      label: 'Pages to rotate',
      default: '',
      placeholder: 'all pages',
      help: 'Empty = all pages; or e.g. 1-3, 5, even. Click thumbnails to choose.',
    },
    REMOVE_SCRIPTS,
  ],
  content,
};
