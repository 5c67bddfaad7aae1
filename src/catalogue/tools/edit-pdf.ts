import type { FileToolEntry } from '../types.ts';
import { PDF_FILES } from '../accepts.ts';
import { REMOVE_SCRIPTS } from '../active-content-option.ts';
import { content } from '../content/edit-pdf.ts';

/**
 * /api/pdf/edit takes `text` + `position` (the contract's simple form). The page editor's panel adds `operations`
 * (JSON, see workers/engine/lib/pdf/edit-operations.ts) as an extra field; `pages`, `fontSize`,
 * `color` and `annotations` refine the simple form.
 */
export const tool: FileToolEntry = {
  id: 'edit-pdf',
  name: 'Edit PDF',
  description: 'Edit content of PDF',
  icon: 'edit',
  order: 13,
  groups: { dropdown: 'Edit & Organize', toolsPage: 'Organize & Edit PDF', menu: 'PDF Tools' },
  home: { heroTile: 7 },
  kind: 'file',
  endpoint: '/api/pdf/edit',
  fileField: 'file',
  multiple: false,
  accepts: PDF_FILES,
  defaultFilename: 'edit-pdf-result.pdf',
  options: [
    { kind: 'text', name: 'text', label: 'Text to add', default: '', placeholder: 'e.g. Approved', maxLength: 2000 },
    {
      kind: 'select',
      name: 'position',
      label: 'Position',
      default: 'center',
      choices: [
        { value: 'center', label: 'Center' },
        { value: 'top', label: 'Top' },
        { value: 'bottom', label: 'Bottom' },
      ],
    },
    {
      kind: 'pages',
      name: 'pages',
      label: 'Pages',
      default: '',
      placeholder: 'all pages',
      help: 'e.g. 1-3, 5, last, odd',
    },
    { kind: 'number', name: 'fontSize', label: 'Font size', default: 24, min: 6, max: 200, step: 1, unit: 'pt' },
    { kind: 'color', name: 'color', label: 'Text colour', default: '#000000' },
    {
      kind: 'checkbox',
      name: 'annotations',
      label: 'Keep as editable annotations',
      default: false,
      help:
        'Added text, drawings, shapes and highlights stay movable in other PDF editors. Whiteout, redaction and ' +
        'replaced text are always part of the page.',
    },
    REMOVE_SCRIPTS,
  ],
  content,
};
