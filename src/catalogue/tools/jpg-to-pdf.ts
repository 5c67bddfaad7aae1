import type { FileToolEntry } from '../types.ts';
import { JPEG_PNG_IMAGES } from '../accepts.ts';
import { content } from '../content/jpg-to-pdf.ts';

export const tool: FileToolEntry = {
  id: 'jpg-to-pdf',
  name: 'JPG to PDF',
  description: 'Convert images to PDF',
  icon: 'image',
  category: 'pdf',
  kind: 'file',
  endpoint: '/api/pdf/fromJpg',
  fileField: 'files',
  multiple: true,
  accepts: JPEG_PNG_IMAGES,
  defaultFilename: 'jpg-to-pdf-result.pdf',
  options: [],
  engineReady: false,
  content,
};
