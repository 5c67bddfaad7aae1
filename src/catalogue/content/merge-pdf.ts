import type { ToolContent } from '../types.ts';

/** Detail-page copy of merge-pdf: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Merge PDF joins as many PDF files as you like into one document, in the order you choose. Pick whole files ' +
    "or only some of their pages, keep each file's bookmarks and links, and download a single tidy PDF — all " +
    'without the files leaving your device.',
  features: [
    "Combine any number of PDFs; the only limit is your device's memory",
    'Reorder files by dragging them or sort them by name',
    'Take only the pages you need from each file, such as 1-3, 5 or last',
    "Keeps each document's bookmarks and links, and can add a bookmark per file",
    'Password-protected files are opened with their password, then merged',
  ],
  usage: [
    'Click Upload Files and select two or more PDF files.',
    'Drag the files into the order you want, or sort them by name.',
    'Optionally enter a page range for any file.',
    'Click Process Files; the merged PDF downloads when it is ready.',
  ],
  perfectFor: [
    'Putting a report, its appendices and a cover letter into one file',
    'Sending scanned receipts or invoices as a single attachment',
    'Assembling chapters or lecture notes into one document',
    'Combining signed pages back into the full contract',
  ],
  privacy:
    'Merging happens in a background worker in your browser. Your PDFs are read from your disk into memory and ' +
    'the combined file is written straight back to your downloads; no page is ever sent over the network.',
  whyUse:
    'Most merge services make you upload every document and cap the number of files. Folio has no cap, adds no ' +
    'watermark and needs no account — and because nothing is uploaded, merging a large batch is limited only by ' +
    'your device, not by an upload bar.',
};
