import type { ToolContent } from '../types.ts';

/** Detail-page copy of rotate-pdf: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Rotate PDF turns pages by 90°, 180° or 270°, either every page or only the pages you choose. The rotation ' +
    "is added to each page's existing orientation, so pages that were already turned end up the right way.",
  features: [
    'Rotate clockwise, counter-clockwise or upside down',
    'All pages or selected pages, chosen by clicking thumbnails or typing a range',
    "Respects each page's existing rotation",
    'Lossless: page content is not re-rendered or recompressed',
  ],
  usage: [
    'Click Upload Files and select a PDF.',
    'Choose the angle and which pages to turn.',
    'Click Process Files.',
    'Download the corrected PDF.',
  ],
  perfectFor: [
    'Fixing scans that came out sideways or upside down',
    'Turning landscape tables so they read correctly',
    'Preparing documents for on-screen reading',
    'Correcting phone photos converted to PDF',
  ],
  privacy:
    'Rotation only changes a setting on each page, and Folio makes that change inside your browser. The ' +
    'document is never uploaded and is discarded from memory when you finish.',
  whyUse:
    'It takes seconds, keeps full quality, and needs no upload — the quickest way to make a sideways document ' +
    'readable.',
};
