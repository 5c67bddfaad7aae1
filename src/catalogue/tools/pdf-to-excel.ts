import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/pdf-to-excel.ts';

export const tool: FileToolEntry = {
  id: 'pdf-to-excel',
  name: 'PDF to Excel',
  description: 'Extract tables to Excel',
  icon: 'excel',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/toExcel',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'converted.xlsx',
  options: [],
  engineReady: false,
  content,
};
