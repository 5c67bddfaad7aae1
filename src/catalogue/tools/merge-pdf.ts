import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/merge-pdf.ts';

export const tool: FileToolEntry = {
  id: 'merge-pdf',
  name: 'Merge PDF',
  description: 'Combine multiple PDF files',
  icon: 'merge',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/merge',
  fileField: 'files',
  multiple: true,
  accepts: PDF_FILES,
  defaultFilename: 'merge-pdf-result.pdf',
  options: [],
  engineReady: false,
  content,
};
