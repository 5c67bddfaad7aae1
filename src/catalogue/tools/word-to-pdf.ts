import type { FileToolEntry } from '../types.ts';
import { WORD_FILES } from '../accepts.ts';
import { OFFICE_ENGINE_CHOICES } from '../office-engine.ts';
import { content } from '../content/word-to-pdf.ts';

export const tool: FileToolEntry = {
  id: 'word-to-pdf',
  name: 'Word to PDF',
  description: 'Turn Word documents into PDF',
  icon: 'word',
  order: 5,
  groups: { dropdown: 'Convert PDF', toolsPage: 'To PDF', menu: 'PDF Tools' },
  kind: 'file',
  endpoint: '/api/pdf/fromWord',
  fileField: 'file',
  multiple: false,
  accepts: WORD_FILES,
  defaultFilename: 'word-to-pdf-result.pdf',
  options: [
    { kind: 'select', name: 'engine', label: 'Engine', default: 'folio', choices: OFFICE_ENGINE_CHOICES },
    { kind: 'pages', name: 'pages', label: 'Pages to keep', default: '', placeholder: 'All pages (or e.g. 1-3, 5)' },
    { kind: 'checkbox', name: 'outline', label: 'Bookmarks from the headings', default: true },
  ],
  // A document that keeps the layout engine busy this long without finishing a page is stopped.
  stallSeconds: 180,
  prepareOnOpen: true,
  content,
};
