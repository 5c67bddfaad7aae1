import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { REMOVE_SCRIPTS } from '../active-content-option.ts';
import { content } from '../content/merge-pdf.ts';

export const tool: FileToolEntry = {
  id: 'merge-pdf',
  name: 'Merge PDF',
  description: 'Combine multiple PDF files',
  icon: 'merge',
  order: 1,
  groups: { dropdown: 'Edit & Organize', toolsPage: 'Organize & Edit PDF', menu: 'PDF Tools' },
  home: { popular: 1, heroTile: 1 },
  kind: 'file',
  endpoint: '/api/pdf/merge',
  fileField: 'files',
  multiple: true,
  accepts: PDF_FILES,
  defaultFilename: 'merge-pdf-result.pdf',
  options: [
    {
      kind: 'checkbox',
      name: 'bookmarkEachFile',
      label: 'Add a bookmark for each file',
      default: false,
      help: "Each file's own bookmarks are kept either way; this adds one entry per file above them.",
    },
    // Filled by the merge panel (src/tool-ui/forms/merge-pdf.tsx): a JSON array of page ranges,
    // one per file in order, '' = every page. API clients may send it too, e.g. ["1-3", "", "last"].
    {
      kind: 'text',
      name: 'ranges',
      label: 'Pages of each file (JSON array)',
      default: '',
      placeholder: '["1-3", "", "last"]',
    },
    REMOVE_SCRIPTS,
  ],
  content,
};
