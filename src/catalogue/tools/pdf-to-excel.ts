import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { OCR_OPTIONS } from '../ocr-options.ts';
import { content } from '../content/pdf-to-excel.ts';

export const tool: FileToolEntry = {
  id: 'pdf-to-excel',
  name: 'PDF to Excel',
  description: 'Extract tables to Excel',
  icon: 'excel',
  order: 8,
  groups: { dropdown: 'Convert PDF', toolsPage: 'From PDF', menu: 'PDF Tools' },
  home: { heroTile: 5 },
  kind: 'file',
  endpoint: '/api/pdf/toExcel',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'converted.xlsx',
  options: [
    { kind: 'pages', name: 'pages', label: 'Pages', default: '', placeholder: 'All pages, or e.g. 1-3, 5, 8-' },
    {
      kind: 'select',
      name: 'sheets',
      label: 'Sheets',
      default: 'table',
      choices: [
        { value: 'table', label: 'One sheet per table' },
        { value: 'page', label: 'One sheet per page' },
      ],
    },
    {
      kind: 'select',
      name: 'format',
      label: 'Output',
      default: 'xlsx',
      choices: [
        { value: 'xlsx', label: 'Excel workbook (.xlsx)' },
        { value: 'csv', label: 'CSV (one file per sheet, zipped when several)' },
      ],
    },
    ...OCR_OPTIONS,
  ],
  content,
};
