import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/pdf-to-ppt.ts';

export const tool: FileToolEntry = {
  id: 'pdf-to-ppt',
  name: 'PDF to PPT',
  description: 'Convert PDF to PowerPoint',
  icon: 'powerpoint',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/toPowerPoint',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'converted.pptx',
  options: [],
  engineReady: false,
  content,
};
