import type { ToolContent } from '../types.ts';

/** Detail-page copy of pdf-to-ppt: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    "PDF to PPT turns each page of a PDF into a PowerPoint slide with the page's proportions. Text becomes " +
    'editable text boxes in the right places with their fonts, sizes and colours, and pictures stay pictures, ' +
    'so a slide deck exported as PDF can be edited again.',
  features: [
    "One slide per page, with the page's aspect ratio",
    'Text as editable text boxes positioned where it was on the page',
    'Images inserted as pictures you can move and resize',
    'Charts and drawings kept as a background picture behind the editable text',
    'Optional OCR for scanned pages and a page range',
  ],
  usage: [
    'Click Upload Files and select a PDF.',
    'Choose the pages and whether to keep drawings as a background.',
    'Click Process Files.',
    'Open the downloaded presentation (e.g. report.pptx) in PowerPoint, Keynote, Impress or Google Slides.',
  ],
  perfectFor: [
    'Editing a presentation when you only received the PDF',
    'Reusing slides from a conference handout',
    'Turning a one-page report into a slide for a meeting',
    'Updating figures in a deck whose source file was lost',
  ],
  privacy:
    'Each page is analysed and rebuilt as a slide inside your browser. Neither the PDF nor the presentation is ' +
    'uploaded, and both are released from memory when you close the tool.',
  whyUse:
    'Folio produces slides you can actually edit instead of flat images, keeps the layout recognisable, and ' +
    'does it on your device with no sign-up and no limits.',
};
