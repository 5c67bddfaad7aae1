import type { ToolContent } from '../types.ts';

/** Detail-page copy of ppt-to-pdf: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'PPT to PDF converts PowerPoint presentations — .pptx and .odp — into PDF, one page per slide, keeping ' +
    'text, shapes, images and backgrounds. It is the easiest way to share a deck with someone who does not have ' +
    'PowerPoint.',
  features: [
    'Accepts .pptx and .odp presentations (older .ppt files get a clear message: save them as .pptx)',
    "One PDF page per slide, at the slide's size",
    'Text boxes, shapes, pictures and backgrounds preserved',
    'Optional slide range; a bookmark for each slide',
    'Clear messages for password-protected or damaged files',
  ],
  usage: [
    'Click Upload Files and select a presentation.',
    'Choose a slide range if you do not need them all.',
    'Click Process Files; progress is shown slide by slide.',
    'Download the PDF handout.',
  ],
  perfectFor: [
    'Sharing lecture slides as a handout',
    'Sending a pitch deck that opens on any device',
    'Printing slides without PowerPoint',
    'Archiving presentations in a stable format',
  ],
  privacy:
    "Your presentation is converted by Folio's own renderer in your browser tab. Slides, speaker content and " +
    'embedded media stay on your device; nothing is uploaded or stored elsewhere.',
  whyUse:
    'Presentations often hold unreleased plans and figures. Folio converts them without an upload, an account ' +
    'or a watermark, and the result opens the same everywhere.',
};
