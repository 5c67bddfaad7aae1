import type { FileAccept } from './types.ts';

export const PDF_FILES: FileAccept = { extensions: ['.pdf'], mimeTypes: ['application/pdf'], label: 'PDF files' };
export const JPEG_PNG_IMAGES: FileAccept = {
  extensions: ['.jpg', '.jpeg', '.png', '.webp'],
  mimeTypes: ['image/jpeg', 'image/png', 'image/webp'],
  label: 'JPEG, PNG or WebP images',
};
export const IMAGES: FileAccept = {
  extensions: ['.jpg', '.jpeg', '.png', '.webp', '.avif'],
  mimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/avif'],
  label: 'JPEG, PNG, WebP or AVIF images',
};
export const WORD_FILES: FileAccept = {
  extensions: ['.doc', '.docx', '.odt', '.rtf'],
  mimeTypes: [
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.oasis.opendocument.text',
    'application/rtf',
  ],
  label: 'Word documents (.doc, .docx, .odt, .rtf)',
};
export const EXCEL_FILES: FileAccept = {
  extensions: ['.xls', '.xlsx', '.ods', '.csv'],
  mimeTypes: [
    'application/vnd.ms-excel',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.oasis.opendocument.spreadsheet',
    'text/csv',
  ],
  label: 'spreadsheets (.xls, .xlsx, .ods, .csv)',
};
export const POWERPOINT_FILES: FileAccept = {
  extensions: ['.ppt', '.pptx', '.odp'],
  mimeTypes: [
    'application/vnd.ms-powerpoint',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/vnd.oasis.opendocument.presentation',
  ],
  label: 'presentations (.ppt, .pptx, .odp)',
};

/** The privacy paragraph shared in spirit by every tool; each tool may say more. */
export const ON_DEVICE_PRIVACY =
  'Your files never leave your device. Folio processes them in your browser, in a background worker, ' +
  'and keeps them only in memory: nothing is uploaded, logged or stored, and everything is released ' +
  'when you clear the tool or close the tab.';
