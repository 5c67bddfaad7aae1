import type { FileToolEntry } from '../types.ts';
import { JPEG_PNG_IMAGES } from '../accepts.ts';
import { content } from '../content/jpg-to-pdf.ts';

export const tool: FileToolEntry = {
  id: 'jpg-to-pdf',
  name: 'JPG to PDF',
  description: 'Convert images to PDF',
  icon: 'image',
  order: 11,
  groups: { dropdown: 'Convert PDF', toolsPage: 'To PDF', menu: 'PDF Tools' },
  home: { heroTile: 6 },
  kind: 'file',
  endpoint: '/api/pdf/fromJpg',
  fileField: 'files',
  multiple: true,
  accepts: JPEG_PNG_IMAGES,
  defaultFilename: 'jpg-to-pdf-result.pdf',
  options: [
    {
      kind: 'select',
      name: 'pageSize',
      label: 'Page size',
      default: 'fit',
      choices: [
        { value: 'fit', label: 'Fit to image' },
        { value: 'a4', label: 'A4 (210 × 297 mm)' },
        { value: 'letter', label: 'US Letter (8.5 × 11 in)' },
      ],
    },
    {
      kind: 'select',
      name: 'orientation',
      label: 'Orientation',
      default: 'auto',
      choices: [
        { value: 'auto', label: 'Automatic (follows each image)' },
        { value: 'portrait', label: 'Portrait' },
        { value: 'landscape', label: 'Landscape' },
      ],
      showWhen: { option: 'pageSize', equals: ['a4', 'letter'] },
    },
    {
      kind: 'select',
      name: 'margin',
      label: 'Margin',
      default: 'none',
      choices: [
        { value: 'none', label: 'No margin' },
        { value: 'small', label: 'Small (7 mm)' },
        { value: 'large', label: 'Large (18 mm)' },
      ],
    },
    {
      kind: 'checkbox',
      name: 'skipInvalid',
      label: 'Skip files that cannot be read',
      default: false,
      help:
        'Off: a file that is not an image, empty or cut short stops the conversion and is named. On: it is left ' +
        'out and listed, and the others are converted.',
    },
  ],
  content,
};
