import type { ToolContent } from '../types.ts';

/** Detail-page copy of add-watermark: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Add Watermark stamps text or an image across your pages — such as CONFIDENTIAL, DRAFT or a logo — with the ' +
    'size, colour, transparency, angle and position you choose. Text is written as real vector text, so it ' +
    'stays sharp at any zoom.',
  features: [
    'Text watermarks in any language, including Cyrillic, Greek and CJK',
    'Image watermarks from JPG or PNG files',
    'Font size, colour, opacity and rotation',
    'Nine positions or tiled across the page, over or under the content',
    'Apply to all pages or a chosen range, with a live preview',
  ],
  usage: [
    'Click Upload Files and select a PDF.',
    'Type the watermark text or choose an image.',
    'Adjust position, size, opacity and angle while watching the preview.',
    'Click Process Files and download the watermarked PDF.',
  ],
  perfectFor: [
    'Marking drafts and confidential documents',
    'Branding documents with a company logo',
    'Discouraging unauthorised sharing of proofs and samples',
    'Stamping copies as COPY or PAID',
  ],
  privacy:
    'The watermark is drawn into the PDF in your browser. Your document and your logo stay on your device; ' +
    'neither is uploaded.',
  whyUse:
    "Folio's watermarks are crisp vector text, support every script, and are previewed before you commit — with " +
    "no watermark of Folio's own added to your file.",
};
