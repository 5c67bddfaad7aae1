import type { FileToolEntry } from '../types.ts';
import { EXCEL_FILES } from '../accepts.ts';
import { content } from '../content/excel-to-pdf.ts';

export const tool: FileToolEntry = {
  id: 'excel-to-pdf',
  name: 'Excel to PDF',
  description: 'Turn spreadsheets into PDF',
  icon: 'excel',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/fromExcel',
  fileField: 'file',
  multiple: false,
  accepts: EXCEL_FILES,
  defaultFilename: 'excel-to-pdf-result.pdf',
  options: [],
  engineReady: false,
  content,
};
