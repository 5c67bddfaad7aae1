import type { FileToolEntry } from '../types.ts';
import { POWERPOINT_FILES } from '../accepts.ts';
import { OFFICE_ENGINE_CHOICES } from '../office-engine.ts';
import { content } from '../content/ppt-to-pdf.ts';

export const tool: FileToolEntry = {
  id: 'ppt-to-pdf',
  name: 'PPT to PDF',
  description: 'Turn PowerPoint slides into PDF',
  icon: 'powerpoint',
  order: 7,
  groups: { dropdown: 'Convert PDF', toolsPage: 'To PDF', menu: 'PDF Tools' },
  home: { heroTile: 10 },
  kind: 'file',
  endpoint: '/api/pdf/fromPowerPoint',
  fileField: 'file',
  multiple: false,
  accepts: POWERPOINT_FILES,
  defaultFilename: 'ppt-to-pdf-result.pdf',
  options: [
    { kind: 'select', name: 'engine', label: 'Engine', default: 'folio', choices: OFFICE_ENGINE_CHOICES },
    { kind: 'pages', name: 'pages', label: 'Slides', default: '', placeholder: 'All slides (or e.g. 1-3, 5)' },
    { kind: 'checkbox', name: 'outline', label: 'A bookmark for each slide (its title)', default: true },
  ],
  // A document that keeps the layout engine busy this long without finishing a page is stopped.
  stallSeconds: 180,
  prepareOnOpen: true,
  content,
};
