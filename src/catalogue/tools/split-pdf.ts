import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/split-pdf.ts';

export const tool: FileToolEntry = {
  id: 'split-pdf',
  name: 'Split PDF',
  description: 'Split a PDF into separate files by pages or ranges',
  icon: 'split',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/split',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'converted.zip',
  options: [],
  engineReady: false,
  content,
};
