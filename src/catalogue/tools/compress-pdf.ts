import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/compress-pdf.ts';

export const tool: FileToolEntry = {
  id: 'compress-pdf',
  name: 'Compress PDF',
  description: 'Reduce PDF file size',
  icon: 'compress',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/compress',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'compress-pdf-result.pdf',
  options: [],
  engineReady: false,
  content,
};
