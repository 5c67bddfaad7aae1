import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { content } from '../content/pdf-to-jpg.ts';

export const tool: FileToolEntry = {
  id: 'pdf-to-jpg',
  name: 'PDF to JPG',
  description: 'Convert PDF to images',
  icon: 'image',
  order: 10,
  groups: { dropdown: 'Convert PDF', toolsPage: 'From PDF', menu: 'PDF Tools' },
  kind: 'file',
  endpoint: '/api/pdf/toJpg',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'converted.zip',
  options: [
    {
      kind: 'select',
      name: 'mode',
      label: 'Convert',
      default: 'pages',
      choices: [
        { value: 'pages', label: 'Every page to an image' },
        { value: 'images', label: 'Extract embedded images (as stored, no re-encoding)' },
      ],
    },
    {
      kind: 'select',
      name: 'resolution',
      label: 'Resolution',
      default: '150',
      choices: [
        { value: '72', label: '72 dpi (screen)' },
        { value: '150', label: '150 dpi (good)' },
        { value: '300', label: '300 dpi (print)' },
        { value: 'custom', label: 'Custom…' },
      ],
      showWhen: { option: 'mode', equals: ['pages'] },
    },
    {
      kind: 'number',
      name: 'dpi',
      label: 'Custom resolution',
      default: 200,
      min: 10,
      max: 1200,
      step: 1,
      unit: 'dpi',
      showWhen: { option: 'resolution', equals: ['custom'] },
    },
    {
      kind: 'select',
      name: 'format',
      label: 'Image format',
      default: 'jpeg',
      choices: [
        { value: 'jpeg', label: 'JPEG' },
        { value: 'jpeg-smallest', label: 'JPEG, smallest files (MozJPEG, slower)' },
        { value: 'png', label: 'PNG (lossless)' },
      ],
      showWhen: { option: 'mode', equals: ['pages'] },
    },
    {
      kind: 'number',
      name: 'quality',
      label: 'JPEG quality',
      default: 85,
      min: 1,
      max: 100,
      step: 1,
      help: 'Higher is sharper and larger; 85 is hard to tell from the original.',
      showWhen: { option: 'format', equals: ['jpeg', 'jpeg-smallest'] },
    },
    { kind: 'pages', name: 'pages', label: 'Pages', default: '', placeholder: 'All pages, or e.g. 1-3, 5, 8-' },
  ],
  content,
};
