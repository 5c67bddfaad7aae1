import type { ToolContent } from '../types.ts';

/** Detail-page copy of excel-to-pdf: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Excel to PDF turns spreadsheets — .xlsx, .ods and .csv — into paginated PDF documents, keeping column ' +
    'widths, cell styles, merged cells and number formats. Choose all sheets or the active one, and fit wide ' +
    'sheets to the page width.',
  features: [
    'Accepts .xlsx, .ods and .csv files (older .xls files get a clear message: save them as .xlsx)',
    'All sheets or only the active sheet',
    'Fit to page width and landscape orientation for wide tables',
    'Cell styles, merged cells and number formats preserved',
    'Clear messages for password-protected or damaged workbooks',
  ],
  usage: [
    'Click Upload Files and select a spreadsheet.',
    'Choose which sheets to include and how to fit them on the page.',
    'Click Process Files.',
    'Download the PDF, ready to print or send.',
  ],
  perfectFor: [
    'Sending budgets and quotes that cannot be edited by accident',
    'Printing timetables and rosters neatly',
    'Attaching financial tables to reports',
    'Sharing a CSV export with people who do not use spreadsheets',
  ],
  privacy:
    'Spreadsheets often hold salaries, prices and customer lists. Folio converts them inside your browser, so ' +
    'the workbook and the PDF never leave your device.',
  whyUse:
    'Getting a spreadsheet to print well is fiddly; Folio paginates it for you with sensible widths and keeps ' +
    'the formatting, with no office suite, upload or account needed.',
};
