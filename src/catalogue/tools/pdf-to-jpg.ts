import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/pdf-to-jpg.ts';

export const tool: FileToolEntry = {
  id: 'pdf-to-jpg',
  name: 'PDF to JPG',
  description: 'Convert PDF to images',
  icon: 'image',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/toJpg',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'converted.zip',
  options: [],
  engineReady: false,
  content,
};
