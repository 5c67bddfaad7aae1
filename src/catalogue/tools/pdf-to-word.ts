import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/pdf-to-word.ts';

export const tool: FileToolEntry = {
  id: 'pdf-to-word',
  name: 'PDF to Word',
  description: 'Convert PDF to Word',
  icon: 'word',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/toWord',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'converted.docx',
  options: [
    { kind: 'pages', name: 'pages', label: 'Pages', default: '', placeholder: 'All pages, or e.g. 1-3, 5, 8-' },
    { kind: 'checkbox', name: 'ocr', label: 'Recognise text in scanned pages', default: false, help: 'Reads pages that are only pictures (scans) with OCR, in English. Slower: a few seconds per page.' },
  ],
  engineReady: true,
  content,
};
