import type { ToolContent } from '../types.ts';

/** Detail-page copy of jpg-to-pdf: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'JPG to PDF turns photos and scans — JPEG, PNG and WebP — into a single PDF, one image per page. JPEG ' +
    "images are embedded as they are, with no re-encoding and no loss of quality, and the photo's orientation " +
    'is respected.',
  features: [
    'Combine many images into one PDF, in the order you choose',
    'Page size fitted to each image, or A4 or US Letter',
    'Automatic, portrait or landscape orientation, with optional margins',
    'JPEG embedded unchanged; camera orientation (EXIF) honoured',
    'Unreadable files are named, and the rest can still be converted',
  ],
  usage: [
    'Click Upload Files and select one or more images.',
    'Drag them into the order you want.',
    'Choose page size, orientation and margin.',
    'Click Process Files and download the PDF.',
  ],
  perfectFor: [
    'Turning phone photos of paperwork into one document',
    'Submitting scanned ID or receipts as a single PDF',
    'Building a simple portfolio or photo booklet',
    'Archiving handwritten notes',
  ],
  privacy:
    'Photos of documents often show addresses, signatures and ID numbers. Folio builds the PDF in your browser, ' +
    'so the images never leave your device and are released from memory when you are done.',
  whyUse:
    'Folio keeps your JPEGs at full quality, gets the orientation right, and lets you convert as many images as ' +
    'you like with no account and no upload.',
};
