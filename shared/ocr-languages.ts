/**
 * The one list of OCR languages. The catalogue (the `ocrLanguage` select of PDF to Word / PowerPoint /
 * Excel), the build plugin (build/tesseract-assets.ts copies each file to /engine-data/tesseract/lang/),
 * vite.config.ts (keeps the optional ones out of "Make all tools available offline"), the About page
 * (which languages are downloaded) and the engine (workers/engine/lib/ocr/ocr.ts validates the code and
 * loads the file) all read it. Pure data: it runs in the page, in the worker and in Node.
 *
 * Each language is the integer "best" LSTM model (4.0.0_best_int) of the npm package
 * @tesseract.js-data/<code> (MIT). English is part of the app's engines; the others are optional:
 * fetched from our own origin the first time they are used, then cached (service worker + tesseract's
 * IndexedDB cache) so they work offline. `bytes` is the size of the .traineddata.gz file;
 * tests/unit/ocr-languages.test.ts checks it, and the list, against node_modules.
 */

import { formatBytes } from './format.ts';

export interface OcrLanguage {
  /** Tesseract's language code, also the file name: lang/<code>.traineddata.gz. */
  code: string;
  /** English name of the language. */
  name: string;
  /** The npm package holding the data. */
  package: string;
  /** Size of <package>/4.0.0_best_int/<code>.traineddata.gz in bytes (the download). */
  bytes: number;
  /** True for English: part of "Make all tools available offline". The others are optional downloads. */
  bundled: boolean;
}

/** The model folder inside each @tesseract.js-data package. */
export const OCR_MODEL = '4.0.0_best_int';

/** Where OCR files are served from (build/tesseract-assets.ts, workers/engine/lib/ocr/ocr.ts). */
export const TESSERACT_BASE = '/engine-data/tesseract';

export const DEFAULT_OCR_LANGUAGE = 'eng';

export const OCR_LANGUAGES: readonly OcrLanguage[] = [
  { code: 'eng', name: 'English', package: '@tesseract.js-data/eng', bytes: 2_952_873, bundled: true },
  { code: 'deu', name: 'German', package: '@tesseract.js-data/deu', bytes: 1_333_102, bundled: false },
  { code: 'fra', name: 'French', package: '@tesseract.js-data/fra', bytes: 707_406, bundled: false },
  { code: 'spa', name: 'Spanish', package: '@tesseract.js-data/spa', bytes: 2_100_190, bundled: false },
  { code: 'ita', name: 'Italian', package: '@tesseract.js-data/ita', bytes: 1_660_998, bundled: false },
  { code: 'por', name: 'Portuguese', package: '@tesseract.js-data/por', bytes: 1_392_239, bundled: false },
  { code: 'nld', name: 'Dutch', package: '@tesseract.js-data/nld', bytes: 3_005_696, bundled: false },
  { code: 'pol', name: 'Polish', package: '@tesseract.js-data/pol', bytes: 2_642_356, bundled: false },
  { code: 'tur', name: 'Turkish', package: '@tesseract.js-data/tur', bytes: 2_141_291, bundled: false },
];

export function findOcrLanguage(code: string): OcrLanguage | undefined {
  return OCR_LANGUAGES.find((language) => language.code === code);
}

/** The URL path of a language's data file, e.g. /engine-data/tesseract/lang/deu.traineddata.gz. */
export function ocrLanguageUrl(code: string): string {
  return `${TESSERACT_BASE}/lang/${code}.traineddata.gz`;
}

/** The select's label: "English (included)", "German — 1.3 MB download, once". */
export function ocrLanguageLabel(language: OcrLanguage): string {
  return language.bundled
    ? `${language.name} (included)`
    : `${language.name} — ${formatBytes(language.bytes)} download, once`;
}
