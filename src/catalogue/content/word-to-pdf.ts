import type { ToolContent } from '../types.ts';

/** Detail-page copy of word-to-pdf: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Word to PDF converts Word documents (.docx), OpenDocument text (.odt) and RTF files into PDF files that ' +
    'look the same on every screen and printer. Folio lays the document out itself, in your browser, with fonts ' +
    'metric-compatible with Calibri, Cambria, Arial, Times and Courier, so line breaks and page counts stay ' +
    'close to the original.',
  features: [
    'Accepts .docx, .odt and .rtf files (older .doc files get a clear message: save them as .docx)',
    'Keeps styles, lists, tables, images, headers and footers',
    'Metric-compatible fonts for Calibri, Cambria, Arial, Times and Courier',
    'Bookmarks from the headings, and an optional page range',
    'Clear messages for password-protected or damaged documents',
  ],
  usage: [
    'Click Upload Files and select a Word document.',
    'Set a page range if you only need part of it.',
    'Click Process Files; pages are laid out on your device and the PDF downloads when it is ready.',
    'Download the PDF and share it.',
  ],
  perfectFor: [
    'Sending CVs and cover letters that look exactly as intended',
    'Submitting coursework in the required PDF format',
    'Freezing the layout of contracts and offers before signing',
    'Printing documents on a machine without Word installed',
  ],
  privacy:
    'The converter and its fonts are downloaded from Folio once and then run entirely in your browser. Your ' +
    'document is converted in memory on your device and never sent anywhere.',
  whyUse:
    'You do not need Word, an office suite or an account to produce a clean PDF. Folio converts locally, works ' +
    "offline once its fonts are cached, and leaves no copy of your document on anyone's server.",
};
