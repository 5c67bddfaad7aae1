import type { ToolContent } from '../types.ts';

/** Detail-page copy of organize-pdf: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    "Organize PDF lets you rearrange a document's pages: drag them into a new order, delete the ones you do not " +
    'need, duplicate or rotate pages and insert blank ones, working from page thumbnails. You can also type the ' +
    'new order as a list of page numbers.',
  features: [
    'Thumbnail grid of every page, rendered as you scroll',
    'Drag and drop to reorder; select several pages at once',
    'Delete, duplicate and rotate pages, or insert blank pages',
    'Type a page order such as 3,1,2 instead of dragging',
    'Bookmarks and links are kept where their pages remain',
  ],
  usage: [
    'Click Upload Files and select a PDF.',
    'Drag page thumbnails into the order you want, or type the page order.',
    'Delete, duplicate, rotate or add blank pages as needed.',
    'Click Process Files and download the reorganised PDF.',
  ],
  perfectFor: [
    'Fixing a scan whose pages came out of order',
    'Removing blank or unwanted pages before sending',
    'Moving an appendix or summary to the right place',
    'Adding blank pages for notes before printing',
  ],
  privacy:
    'Thumbnails are rendered and pages rearranged in your browser. The document stays on your device ' +
    'throughout, and nothing about it is sent or stored elsewhere.',
  whyUse:
    'Seeing every page makes reorganising quick and reliable. Folio does it without an upload or an account, ' +
    'and with no limit on the number of pages.',
};
