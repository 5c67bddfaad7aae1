import type { FileToolEntry } from '../types.ts';
import { IMAGES } from '../accepts.ts';
import { content } from '../content/image-compressor.ts';

export const tool: FileToolEntry = {
  id: 'image-compressor',
  name: 'Image Compressor',
  description: 'Reduce image size',
  icon: 'image-compress',
  category: 'utility',
  kind: 'file',
  endpoint: '/api/pdf/compressImg',
  fileField: 'file',
  multiple: false,
  accepts: IMAGES,
  defaultFilename: 'image-compressor-result.pdf',
  options: [],
  engineReady: false,
  content,
};
