import type { ToolContent } from '../types.ts';

/** Detail-page copy of edit-pdf: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Edit PDF lets you change a document directly in your browser: add text and images, draw, highlight, cover ' +
    'areas with white, and redact content so that it is really removed. Changes are saved as real PDF content ' +
    'that stays sharp and searchable.',
  features: [
    'Add text with your choice of font, size, colour and style',
    'Place images such as a scanned signature or a logo',
    'Freehand drawing, shapes, highlights and whiteout',
    'True redaction: the text and images under the area are removed, not just hidden',
    'Undo and redo, keyboard shortcuts and touch support',
    'Quick mode: add one line of text at the top, centre or bottom of every page',
  ],
  usage: [
    'Click Upload Files and select a PDF.',
    'Pick a tool — text, image, draw, shape, highlight, whiteout or redact — and click on the page.',
    'Move, resize or delete what you added; undo if you change your mind.',
    'Click Process Files to save and download the edited PDF.',
  ],
  perfectFor: [
    'Filling in a form that has no form fields',
    'Signing a document with an image of your signature',
    'Blacking out personal data before sharing a document',
    'Correcting a date or a name in a finished PDF',
  ],
  privacy:
    'Editing happens entirely in your browser; the pages you see are rendered on your device and your changes ' +
    'are written into the file locally. Redaction removes the underlying content before the file is saved, so ' +
    'nothing hidden is left behind.',
  whyUse:
    'Folio gives you the editing tools of the big PDF sites without uploading documents that often contain ' +
    'signatures and personal details, and without a subscription.',
};
