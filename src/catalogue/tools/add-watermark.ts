import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/add-watermark.ts';

export const tool: FileToolEntry = {
  id: 'add-watermark',
  name: 'Add Watermark',
  description: 'Stamp text or an image over your pages',
  icon: 'watermark',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/watermark',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'add-watermark-result.pdf',
  options: [
    { kind: 'text', name: 'text', label: 'Watermark text', default: 'CONFIDENTIAL' },
  ],
  engineReady: false,
  content,
};
