import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { OCR_OPTIONS } from '../ocr-options.ts';
import { content } from '../content/pdf-to-ppt.ts';

export const tool: FileToolEntry = {
  id: 'pdf-to-ppt',
  name: 'PDF to PPT',
  description: 'Convert PDF to PowerPoint',
  icon: 'powerpoint',
  order: 6,
  groups: { dropdown: 'Convert PDF', toolsPage: 'From PDF', menu: 'PDF Tools' },
  kind: 'file',
  endpoint: '/api/pdf/toPowerPoint',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'converted.pptx',
  options: [
    { kind: 'pages', name: 'pages', label: 'Pages', default: '', placeholder: 'All pages, or e.g. 1-3, 5, 8-' },
    {
      kind: 'checkbox',
      name: 'background',
      label: 'Keep drawings as a background picture',
      default: true,
      help: 'Charts, shapes and photos are kept as a picture behind the editable text.',
    },
    ...OCR_OPTIONS,
  ],
  content,
};
