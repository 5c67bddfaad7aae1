import type { FileToolEntry } from '../types.ts';
import { IMAGES } from '../accepts.ts';
import { content } from '../content/image-compressor.ts';

/**
 * One `file` per request; the panel (src/tool-ui/forms/image-compressor.tsx) compresses a
 * batch one request per image and zips the results itself.
 */
export const tool: FileToolEntry = {
  id: 'image-compressor',
  name: 'Image Compressor',
  description: 'Reduce image size',
  icon: 'image-compress',
  order: 18,
  groups: { dropdown: 'Utility Tools', toolsPage: 'Utility Tools', menu: 'Utility Tools' },
  home: { popular: 4, heroTile: 9 },
  kind: 'file',
  endpoint: '/api/pdf/compressImg',
  fileField: 'file',
  multiple: false,
  accepts: IMAGES,
  defaultFilename: 'image-compressor-result.pdf',
  options: [
    {
      name: 'format',
      kind: 'select',
      label: 'Output format',
      default: 'auto',
      choices: [
        { value: 'auto', label: 'Same as the original' },
        { value: 'jpeg', label: 'JPEG (MozJPEG) — photos, works everywhere' },
        { value: 'webp', label: 'WebP — smaller, all current browsers' },
        { value: 'avif', label: 'AVIF — smallest, slower to encode' },
        { value: 'png', label: 'PNG (OxiPNG) — lossless, screenshots and graphics' },
      ],
    },
    {
      name: 'quality',
      kind: 'number',
      label: 'Quality',
      help: 'Lower is smaller. 75 is a good balance for photos. PNG ignores it.',
      default: 75,
      min: 1,
      max: 100,
      step: 1,
    },
    {
      name: 'maxWidth',
      kind: 'number',
      label: 'Maximum width',
      help: '0 keeps the width. The aspect ratio is always kept.',
      default: 0,
      min: 0,
      max: 30000,
      step: 1,
      unit: 'px',
    },
    {
      name: 'maxHeight',
      kind: 'number',
      label: 'Maximum height',
      help: '0 keeps the height.',
      default: 0,
      min: 0,
      max: 30000,
      step: 1,
      unit: 'px',
    },
    {
      name: 'palette',
      kind: 'checkbox',
      label: 'PNG: reduce to 256 colours (smaller, slightly lossy)',
      default: false,
    },
    { name: 'stripMetadata', kind: 'checkbox', label: 'Remove metadata (EXIF, GPS location, camera)', default: true },
  ],
  content,
};
