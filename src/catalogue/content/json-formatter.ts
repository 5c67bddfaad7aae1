import type { ToolContent } from '../types.ts';

/** Detail-page copy of json-formatter: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'JSON Formatter makes JSON readable: indent it with 2 or 4 spaces or tabs, minify it, sort its keys, and ' +
    'find syntax errors by line and column. Large files are processed in a background worker so the page stays ' +
    'responsive.',
  features: [
    'Pretty-print with 2 spaces, 4 spaces or tabs',
    'Minify to the smallest valid JSON',
    'Sort object keys alphabetically',
    'Validation that shows the line and column of an error',
    'Copy or download the result; large files handled without freezing the tab',
  ],
  usage: [
    'Click Get Started.',
    'Paste your JSON.',
    'Choose format, minify or sort keys.',
    'Click to process, then copy or download the result.',
  ],
  perfectFor: [
    'Developers reading API responses',
    'Finding the missing comma in a configuration file',
    'Shrinking JSON payloads before sending them',
    'Comparing data by sorting keys consistently',
  ],
  privacy:
    'JSON often contains API keys, tokens and customer data. Folio formats it in your browser and never sends ' +
    'it anywhere.',
  whyUse:
    'Pasting production data into an online formatter is a common way secrets leak. Folio gives you the same ' +
    'convenience with the data staying on your machine.',
};
