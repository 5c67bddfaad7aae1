import type { ToolContent } from '../types.ts';

/** Detail-page copy of pdf-to-jpg: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'PDF to JPG renders the pages of a PDF as high-quality images, or extracts the pictures embedded in it ' +
    'exactly as they are stored. Choose the resolution, the format and the pages; one page gives one image, ' +
    'several pages come as a ZIP archive.',
  features: [
    'Render pages at 72, 150 or 300 dpi, or a custom resolution',
    "Pages drawn in parallel on all your processor cores; JPEG by the browser's fast encoder, MozJPEG for the " +
      'smallest files, or lossless PNG',
    'Extract embedded images without re-encoding them',
    'Convert all pages or a range such as 1-3, 5',
    'Multiple images named page by page (report-p001.jpg …) and delivered as one ZIP (report-pages.zip)',
  ],
  usage: [
    'Click Upload Files and select a PDF.',
    'Choose between rendering pages and extracting images.',
    'Set the resolution, format and pages.',
    'Click Process Files and save the image or the ZIP archive.',
  ],
  perfectFor: [
    'Posting a page of a document on social media or a website',
    'Inserting a PDF page into a slide or a document as a picture',
    'Recovering the original photos from a PDF brochure',
    'Creating thumbnails and previews of documents',
  ],
  privacy:
    'Pages are drawn by pdf.js in a background worker in your browser and encoded on your device. No page image ' +
    'is uploaded, and the archive is assembled locally.',
  whyUse:
    'Folio gives you control over resolution and quality, extracts original images without loss, and handles ' +
    'long documents page by page without uploading anything.',
};
