import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { REMOVE_SCRIPTS } from '../active-content-option.ts';
import { content } from '../content/split-pdf.ts';

export const tool: FileToolEntry = {
  id: 'split-pdf',
  name: 'Split PDF',
  description: 'Split a PDF into separate files by pages or ranges',
  icon: 'split',
  order: 2,
  groups: { dropdown: 'Edit & Organize', toolsPage: 'Organize & Edit PDF', menu: 'PDF Tools' },
  home: { popular: 2 },
  kind: 'file',
  endpoint: '/api/pdf/split',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'converted.zip',
  options: [
    {
      kind: 'select',
      name: 'mode',
      label: 'Split',
      default: 'each',
      choices: [
        { value: 'each', label: 'Every page into its own file' },
        { value: 'ranges', label: 'By page ranges (each range one file)' },
        { value: 'everyN', label: 'Every N pages' },
        { value: 'size', label: 'By maximum file size' },
        { value: 'oddEven', label: 'Odd and even pages (two files)' },
        { value: 'outline', label: 'By chapter (top-level bookmarks)' },
      ],
    },
    {
      kind: 'pages',
      name: 'ranges',
      label: 'Ranges',
      default: '',
      placeholder: 'e.g. 1-3, 4-8, 9-',
      help: 'Each comma-separated range becomes one file: 1-3, 5, 8- (to the end), last, odd, even.',
      showWhen: { option: 'mode', equals: ['ranges'] },
    },
    {
      kind: 'number',
      name: 'everyN',
      label: 'Pages per file',
      default: 2,
      min: 1,
      max: 10000,
      step: 1,
      showWhen: { option: 'mode', equals: ['everyN'] },
    },
    {
      kind: 'number',
      name: 'maxSizeMb',
      label: 'Maximum size per file',
      unit: 'MB',
      default: 5,
      min: 0.1,
      max: 4000,
      step: 0.1,
      help: 'A single page larger than this becomes a file of its own.',
      showWhen: { option: 'mode', equals: ['size'] },
    },
    REMOVE_SCRIPTS,
  ],
  content,
};
