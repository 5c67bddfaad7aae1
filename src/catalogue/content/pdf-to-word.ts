import type { ToolContent } from '../types.ts';

/** Detail-page copy of pdf-to-word: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'PDF to Word turns a PDF into an editable .docx document. Folio reads the text with its position and fonts, ' +
    'rebuilds paragraphs, headings, lists and tables in reading order, and can recognise the text of scanned ' +
    'pages with OCR, so you get a document you can keep working on rather than a picture of a page.',
  features: [
    'Paragraphs, headings, bold, italic, font sizes and colours carried over',
    'Multi-column pages read column by column in the right order',
    'Tables rebuilt as real Word tables; bulleted and numbered lists kept',
    'Images placed in the text at their size; hyphenated line ends rejoined',
    'Optional OCR for scanned pages: English built in; German, French, Spanish, Italian, Portuguese, Dutch, ' +
      'Polish and Turkish as small one-time downloads',
    'Choose which pages to convert',
  ],
  usage: [
    'Click Upload Files and select a PDF.',
    'Choose the pages to convert and turn on OCR if the PDF is a scan.',
    'Click Process Files; progress is shown page by page.',
    'Open the downloaded Word file (named after your PDF, e.g. report.docx) in Word, LibreOffice or Google Docs.',
  ],
  perfectFor: [
    'Updating a contract or CV when only the PDF survives',
    'Reusing text and tables from reports in your own documents',
    'Making scanned letters editable and searchable',
    'Correcting typos in a document you cannot otherwise edit',
  ],
  privacy:
    'Text extraction, layout analysis and OCR all run in your browser. The language data for OCR is served by ' +
    'Folio itself, so even recognising a scanned page involves no third party, and your document is never ' +
    'uploaded.',
  whyUse:
    'Conversion quality is what makes or breaks this tool, and Folio rebuilds structure — headings, tables, ' +
    'lists — instead of dumping lines of text. It does so privately, with no page limit and no account.',
};
