import type { ToolContent } from '../types.ts';

/** Detail-page copy of pdf-to-excel: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'PDF to Excel finds the tables in a PDF and writes them into an .xlsx workbook, with numbers and dates ' +
    'stored as real numbers and dates so that formulas work straight away. Ruled and unruled tables are ' +
    'detected, and scanned pages can be read with OCR.',
  features: [
    'Detects tables with and without ruling lines',
    'One sheet per table or one sheet per page',
    'Numbers and dates written as values, not text',
    'Merged cells kept and column widths fitted to the content',
    'CSV output as an alternative, and a page range option',
    'Optional OCR for scanned statements and reports',
  ],
  usage: [
    'Click Upload Files and select a PDF containing tables.',
    'Choose pages, sheet layout and output format.',
    'Click Process Files.',
    'Open the downloaded workbook (e.g. report.xlsx) and check the figures.',
  ],
  perfectFor: [
    'Analysing bank and card statements in a spreadsheet',
    'Reusing price lists and inventories sent as PDF',
    'Pulling data tables out of research papers',
    'Reconciling invoices without retyping them',
  ],
  privacy:
    'Financial statements are exactly the files that should not be uploaded. Folio extracts the tables on your ' +
    'device, and the workbook is created in your browser and saved directly to your downloads.',
  whyUse:
    'Retyping tables is slow and error-prone. Folio keeps numbers as numbers so you can sum and sort ' +
    'immediately, and it never sends your data to a third party.',
};
