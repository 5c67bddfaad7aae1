import type { ToolId } from './types.ts';

/** A titled, ordered list of tool ids. Every list of tools in the UI is one of these. */
export interface ToolSection { title: string; ids: readonly ToolId[] }

/** The header's Tools dropdown: four columns (spec §2, "Top header"). */
export const headerColumns: readonly ToolSection[] = [
  { title: 'Convert PDF', ids: ['pdf-to-word', 'word-to-pdf', 'pdf-to-ppt', 'ppt-to-pdf', 'pdf-to-excel', 'excel-to-pdf', 'pdf-to-jpg', 'jpg-to-pdf'] },
  { title: 'Edit & Organize', ids: ['merge-pdf', 'split-pdf', 'organize-pdf', 'edit-pdf', 'rotate-pdf', 'add-watermark'] },
  { title: 'Secure PDF', ids: ['compress-pdf', 'unlock-pdf', 'protect-pdf'] },
  { title: 'Utility Tools', ids: ['image-compressor', 'password-generator', 'word-counter', 'color-picker', 'bmi-calculator', 'json-formatter', 'unit-converter', 'age-calculator'] },
];

/** The /tools page groups (spec §2, "Tools page"). */
export const toolsPageGroups: readonly ToolSection[] = [
  { title: 'From PDF', ids: ['pdf-to-word', 'pdf-to-ppt', 'pdf-to-excel', 'pdf-to-jpg'] },
  { title: 'To PDF', ids: ['word-to-pdf', 'ppt-to-pdf', 'excel-to-pdf', 'jpg-to-pdf'] },
  { title: 'Organize & Edit PDF', ids: ['merge-pdf', 'split-pdf', 'organize-pdf', 'edit-pdf', 'rotate-pdf', 'add-watermark'] },
  { title: 'Secure PDF', ids: ['compress-pdf', 'unlock-pdf', 'protect-pdf'] },
  { title: 'Utility Tools', ids: ['image-compressor', 'password-generator', 'word-counter', 'age-calculator', 'bmi-calculator', 'color-picker', 'unit-converter', 'json-formatter'] },
];

/** The slide-in "Tool Menu": PDF Tools (17) and Utility Tools (8), in the spec's id order. */
export const sideMenuSections: readonly ToolSection[] = [
  { title: 'PDF Tools', ids: ['merge-pdf', 'split-pdf', 'compress-pdf', 'pdf-to-word', 'word-to-pdf', 'pdf-to-ppt', 'ppt-to-pdf', 'pdf-to-excel', 'excel-to-pdf', 'pdf-to-jpg', 'jpg-to-pdf', 'organize-pdf', 'edit-pdf', 'rotate-pdf', 'unlock-pdf', 'protect-pdf', 'add-watermark'] },
  { title: 'Utility Tools', ids: ['image-compressor', 'password-generator', 'word-counter', 'age-calculator', 'bmi-calculator', 'color-picker', 'unit-converter', 'json-formatter'] },
];

/** The home page's Popular Tools cards. */
export const popularToolIds: readonly ToolId[] = ['merge-pdf', 'split-pdf', 'pdf-to-word', 'image-compressor'];
