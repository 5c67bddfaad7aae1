import type { ToolContent } from '../types.ts';

/** Detail-page copy of split-pdf: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Split PDF breaks one document into several smaller ones. Split by page ranges you type, into single pages, ' +
    'every N pages, or into parts that stay under a file size, and get the pieces as a ZIP archive — or as one ' +
    'PDF when there is only one part.',
  features: [
    'Split by ranges: each range, such as 1-3 or 8-, becomes its own file',
    'Extract every page as a separate PDF, or cut every N pages',
    'Split by maximum file size to fit email attachment limits',
    'Odd or even pages only, using the same range language as every Folio tool',
    'Parts are named after the original file (report-pages-1-3.pdf) and downloaded together as report-split.zip',
  ],
  usage: [
    'Click Upload Files and select the PDF you want to split.',
    'Choose how to split: by ranges, every page, every N pages or by size.',
    'Type the ranges if needed; mistakes are pointed out before anything runs.',
    'Click Process Files and save the ZIP archive (or the single PDF).',
  ],
  perfectFor: [
    'Sending only the chapter someone needs',
    'Separating a batch scan into individual documents',
    "Keeping attachments under a mailbox's size limit",
    'Pulling single forms out of a long application pack',
  ],
  privacy:
    'The document is split inside your browser and the parts are packed into a ZIP on your device. Nothing is ' +
    'uploaded, so confidential pages are never copied to a server, and the file is released from memory when ' +
    'you close the tool.',
  whyUse:
    'Folio understands precise ranges like 1-3, 5, 8- or last, tells you when a range is wrong instead of ' +
    'ignoring it, and does the work locally with no page limit and no waiting for an upload.',
};
