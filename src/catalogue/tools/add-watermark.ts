import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { REMOVE_SCRIPTS } from '../active-content-option.ts';
import { content } from '../content/add-watermark.ts';

const POSITION_CHOICES = [
  { value: 'top-left', label: 'Top left' },
  { value: 'top', label: 'Top centre' },
  { value: 'top-right', label: 'Top right' },
  { value: 'left', label: 'Middle left' },
  { value: 'center', label: 'Centre' },
  { value: 'right', label: 'Middle right' },
  { value: 'bottom-left', label: 'Bottom left' },
  { value: 'bottom', label: 'Bottom centre' },
  { value: 'bottom-right', label: 'Bottom right' },
  { value: 'tiled', label: 'Tiled (repeat over the page)' },
] as const;

const TEXT = { option: 'type', equals: ['text'] } as const;
const IMAGE = { option: 'type', equals: ['image'] } as const;

export const tool: FileToolEntry = {
  id: 'add-watermark',
  name: 'Add Watermark',
  description: 'Stamp text or an image over your pages',
  icon: 'watermark',
  order: 17,
  groups: { dropdown: 'Edit & Organize', toolsPage: 'Organize & Edit PDF', menu: 'PDF Tools' },
  kind: 'file',
  endpoint: '/api/pdf/watermark',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'add-watermark-result.pdf',
  options: [
    {
      kind: 'select',
      name: 'type',
      label: 'Watermark',
      default: 'text',
      choices: [
        { value: 'text', label: 'Text' },
        { value: 'image', label: 'Image (JPEG or PNG)' },
      ],
    },
    { kind: 'text', name: 'text', label: 'Watermark text', default: 'CONFIDENTIAL', maxLength: 200, showWhen: TEXT },
    {
      kind: 'number',
      name: 'fontSize',
      label: 'Font size',
      default: 48,
      min: 4,
      max: 400,
      step: 1,
      unit: 'pt',
      showWhen: TEXT,
    },
    { kind: 'color', name: 'color', label: 'Colour', default: '#4d4d4d', showWhen: TEXT },
    {
      kind: 'text',
      name: 'imageData',
      label: 'Watermark image',
      default: '',
      help: 'A JPEG or PNG (API clients may instead send it as the file field "image").',
      showWhen: IMAGE,
    },
    { kind: 'text', name: 'imageName', label: 'Watermark image name', default: '', showWhen: IMAGE },
    {
      kind: 'number',
      name: 'imageScale',
      label: 'Image width',
      default: 40,
      min: 1,
      max: 100,
      step: 1,
      unit: '% of page width',
      showWhen: IMAGE,
    },
    { kind: 'number', name: 'opacity', label: 'Opacity', default: 50, min: 0, max: 100, step: 1, unit: '%' },
    { kind: 'number', name: 'rotation', label: 'Rotation', default: 45, min: -180, max: 180, step: 1, unit: '°' },
    { kind: 'select', name: 'position', label: 'Position', default: 'center', choices: POSITION_CHOICES },
    { kind: 'pages', name: 'pages', label: 'Pages', default: '', placeholder: 'All pages, or e.g. 1-3, 5, 8-' },
    {
      kind: 'select',
      name: 'layer',
      label: 'Layer',
      default: 'over',
      choices: [
        { value: 'over', label: 'Over the content' },
        { value: 'under', label: 'Under the content (hidden behind opaque images)' },
      ],
    },
    REMOVE_SCRIPTS,
  ],
  validate: (values) =>
    values.type !== 'image' && String(values.text ?? '').trim() === '' ? 'Enter the watermark text.' : null,
  content,
};
