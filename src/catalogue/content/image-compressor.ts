import type { ToolContent } from '../types.ts';

/**
 * Detail-page copy of image-compressor: what the tool does in Folio, on the device (shown on its page, /tools/<id>).
 */
export const content: ToolContent = {
  overview:
    'Image Compressor shrinks photos and graphics with the same codecs used by professional tools: MozJPEG, ' +
    'WebP, AVIF and OxiPNG. Choose the quality and format, resize if you need to, and compare before and after ' +
    'side by side.',
  features: [
    'JPEG (MozJPEG), WebP, AVIF and PNG (OxiPNG) output',
    'Quality slider and optional resizing that keeps the aspect ratio',
    'Strips metadata such as camera details and location',
    'Reads JPEG, PNG, WebP and AVIF images',
    'Size before and after for each image, with a comparison slider',
  ],
  usage: [
    'Click Upload Files and select an image.',
    'Choose the output format and quality, and a new size if needed.',
    'Click Process Files.',
    'Compare the result with the original and download it.',
  ],
  perfectFor: [
    'Making website images load faster',
    'Fitting photos under upload limits of forms and job sites',
    'Saving space on your phone or in cloud storage',
    'Removing location data before sharing pictures',
  ],
  privacy:
    'Images are decoded and re-encoded by WebAssembly codecs in your browser. Your photos — and the location ' +
    'data they may contain — are never uploaded.',
  whyUse:
    'Folio uses state-of-the-art encoders, lets you compare the quality before you save, and keeps your ' +
    'pictures on your own device.',
};
