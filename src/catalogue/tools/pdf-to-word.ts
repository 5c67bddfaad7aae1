import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { OCR_OPTIONS } from '../ocr-options.ts';
import { content } from '../content/pdf-to-word.ts';

export const tool: FileToolEntry = {
  id: 'pdf-to-word',
  name: 'PDF to Word',
  description: 'Convert PDF to Word',
  icon: 'word',
  order: 4,
  groups: { dropdown: 'Convert PDF', toolsPage: 'From PDF', menu: 'PDF Tools' },
  home: { popular: 3, heroTile: 2 },
  kind: 'file',
  endpoint: '/api/pdf/toWord',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'converted.docx',
  options: [
    { kind: 'pages', name: 'pages', label: 'Pages', default: '', placeholder: 'All pages, or e.g. 1-3, 5, 8-' },
    ...OCR_OPTIONS,
  ],
  content,
};
