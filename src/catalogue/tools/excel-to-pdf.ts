import type { FileToolEntry } from '../types.ts';
import { EXCEL_FILES } from '../accepts.ts';
import { OFFICE_ENGINE_CHOICES } from '../office-engine.ts';
import { content } from '../content/excel-to-pdf.ts';

export const tool: FileToolEntry = {
  id: 'excel-to-pdf',
  name: 'Excel to PDF',
  description: 'Turn spreadsheets into PDF',
  icon: 'excel',
  order: 9,
  groups: { dropdown: 'Convert PDF', toolsPage: 'To PDF', menu: 'PDF Tools' },
  kind: 'file',
  endpoint: '/api/pdf/fromExcel',
  fileField: 'file',
  multiple: false,
  accepts: EXCEL_FILES,
  defaultFilename: 'excel-to-pdf-result.pdf',
  options: [
    { kind: 'select', name: 'engine', label: 'Engine', default: 'folio', choices: OFFICE_ENGINE_CHOICES },
    {
      kind: 'select',
      name: 'sheets',
      label: 'Sheets',
      default: 'all',
      choices: [
        { value: 'all', label: 'All sheets' },
        { value: 'active', label: 'Active sheet only' },
      ],
    },
    {
      kind: 'select',
      name: 'orientation',
      label: 'Orientation',
      default: 'auto',
      choices: [
        { value: 'auto', label: 'As set in the workbook' },
        { value: 'portrait', label: 'Portrait' },
        { value: 'landscape', label: 'Landscape' },
      ],
    },
    { kind: 'checkbox', name: 'fitToWidth', label: 'Fit each sheet to the page width', default: false },
    { kind: 'checkbox', name: 'outline', label: 'A bookmark for each sheet', default: true },
  ],
  // A document that keeps the layout engine busy this long without finishing a page is stopped.
  stallSeconds: 180,
  prepareOnOpen: true,
  content,
};
