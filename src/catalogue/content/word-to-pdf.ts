import type { ToolContent } from '../types.ts';

/** Detail-page copy of word-to-pdf (spec §3 "Tool info content"): what the tool does in Folio, on the device. */
export const content: ToolContent = {
  overview:
    'Word to PDF converts Word documents — .docx, .doc, .odt and .rtf — into PDF files that look the same on every screen and printer. Fonts compatible with common Office fonts keep line breaks and page counts close to the original.',
  features: [
    'Accepts .docx, .doc, .odt and .rtf files',
    'Keeps styles, lists, tables, images, headers and footers',
    'Metric-compatible fonts for Calibri, Cambria, Arial, Times and Courier',
    'Optional page range and document outline in the PDF',
    'Clear messages for password-protected or damaged documents',
  ],
  usage: [
    'Click Upload Files and select a Word document.',
    'Set a page range if you only need part of it.',
    'Click Process Files; the first conversion also prepares the document engine and shows its progress.',
    'Download the PDF and share it.',
  ],
  perfectFor: [
    'Sending CVs and cover letters that look exactly as intended',
    'Submitting coursework in the required PDF format',
    'Freezing the layout of contracts and offers before signing',
    'Printing documents on a machine without Word installed',
  ],
  privacy:
    'The document engine is downloaded from Folio once and then runs entirely in your browser. Your document is converted in memory on your device and never sent anywhere.',
  whyUse:
    'You do not need Word, an office suite or an account to produce a clean PDF. Folio converts locally, works offline once its engine is cached, and leaves no copy of your document on anyone\'s server.',
};
