/**
 * The OCR options the three office exports share (PDF to Word, PowerPoint, Excel): the checkbox and,
 * shown only when it is ticked, the language — English included, the others downloaded from Folio's
 * own origin the first time they are used (the list: workers/engine/lib/ocr/ocr-languages.ts).
 */
import type { OptionSpec } from './types.ts';
import { DEFAULT_OCR_LANGUAGE, OCR_LANGUAGES, ocrLanguageLabel } from '../../shared/ocr-languages.ts';

export const OCR_OPTIONS: readonly OptionSpec[] = [
  {
    kind: 'checkbox',
    name: 'ocr',
    label: 'Recognise text in scanned pages',
    default: false,
    help: 'Reads pages that are only pictures (scans) with OCR. Slower: a few seconds per page.',
  },
  {
    kind: 'select',
    name: 'ocrLanguage',
    label: 'Language of the scanned text',
    default: DEFAULT_OCR_LANGUAGE,
    choices: OCR_LANGUAGES.map((language) => ({ value: language.code, label: ocrLanguageLabel(language) })),
    help:
      'English is included. Another language is downloaded from Folio itself the first time you use it, then kept ' +
      'for offline use.',
    showWhen: { option: 'ocr', equals: ['true'] },
  },
];
