/**
 * OCR for scanned pages with tesseract.js (Apache-2.0). English is bundled (@tesseract.js-data/eng,
 * the integer "best" LSTM model, 2.9 MB gzipped); German, French, Spanish, Italian, Portuguese,
 * Dutch, Polish and Turkish are optional downloads (0.7–3.0 MB each) — the list and its sizes live in
 * ./ocr-languages.ts.
 *
 * In the browser every file comes from our own origin — never a CDN: the tesseract worker script,
 * the WASM core (SIMD / relaxed-SIMD / plain LSTM builds; tesseract picks one) and the language
 * data are copied to /engine-data/tesseract/ at build time (build/tesseract-assets.ts). workerBlobURL is off so
 * the worker is a plain same-origin script (our CSP allows no blob: workers). tesseract.js caches the
 * language data in IndexedDB after the first use (and the service worker caches the file), so OCR
 * keeps working offline in every language that has been used once.
 * In Node (tests, bench) the package paths are used and nothing is cached on disk.
 */
import type { PDFDocumentProxy } from '../pdf/pdfjs.ts';
import type { TextItem } from '../pdf/pdf-layout.ts';
import { cancelled, FolioError, throwIfAborted } from '../errors.ts';
import { ocrScale, renderOcrImage } from './ocr-image.ts';
import { isNode } from '../wasm.ts';
import {
  DEFAULT_OCR_LANGUAGE,
  OCR_LANGUAGES,
  OCR_MODEL,
  TESSERACT_BASE,
  findOcrLanguage,
  ocrLanguageUrl,
  type OcrLanguage,
} from '../../../../shared/ocr-languages.ts';
import { formatBytes } from '../../../../shared/format.ts';

export interface Recogniser {
  /**
   * Recognises one page; words come back as text items in page points (top-left origin). One page
   * at a time, for the corpus test and the bench; jobs go through ocr-pipeline.ts, which also says
   * whether the picture lacked a CJK font.
   */
  recognisePage(doc: PDFDocumentProxy, pageNumber: number, signal?: AbortSignal): Promise<TextItem[]>;
  /** Recognises a page image drawn by renderOcrImage (possibly in a render worker), `scale` pixels a point. */
  recogniseImage(png: Uint8Array, scale: number, signal?: AbortSignal): Promise<TextItem[]>;
  terminate(): Promise<void>;
}

/** OEM 1 = LSTM only (the bundled model has no legacy data). */
const LSTM_ONLY = 1;
/** Words below this confidence (0–100) are dropped. */
const MIN_CONFIDENCE = 50;

interface Bbox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface OcrWord {
  text: string;
  confidence: number;
  bbox: Bbox;
}
interface OcrLine {
  words: OcrWord[];
  bbox: Bbox;
  baseline?: Bbox;
  rowAttributes?: { ascenders: number; descenders: number; rowHeight: number };
}
interface OcrPage {
  blocks: Array<{ paragraphs: Array<{ lines: OcrLine[] }> }> | null;
}

async function workerOptions(language: OcrLanguage): Promise<Record<string, unknown>> {
  if (isNode) {
    const { createRequire } = await import(/* @vite-ignore */ 'node:module');
    const { dirname, join } = await import(/* @vite-ignore */ 'node:path');
    const require = createRequire(import.meta.url);
    const langRoot = dirname(require.resolve(`${language.package}/package.json`));
    return { langPath: join(langRoot, OCR_MODEL), gzip: true, cacheMethod: 'none' };
  }
  // Same paths as build/tesseract-assets.ts.
  const base = `${self.location.origin}${TESSERACT_BASE}`;
  return {
    workerPath: `${base}/worker.min.js`,
    corePath: `${base}/core`,
    langPath: `${base}/lang`,
    gzip: true,
    workerBlobURL: false,
  };
}

/** The language for a code from the options; an unknown code is a clear InvalidInput. */
export function ocrLanguageFor(code: string | undefined): OcrLanguage {
  const language = findOcrLanguage(code || DEFAULT_OCR_LANGUAGE);
  if (!language) {
    throw new FolioError(
      'InvalidInput',
      `OCR language "${code}" is not available. Choose one of: ` +
        `${OCR_LANGUAGES.map((l) => `${l.code} (${l.name})`).join(', ')}.`,
    );
  }
  return language;
}

/** Whether a language's data is already on this device (the service worker's cache); false when unknown. */
async function isCached(language: OcrLanguage): Promise<boolean> {
  if (isNode || typeof caches === 'undefined') return false;
  try {
    return (
      (await caches.match(`${self.location.origin}${ocrLanguageUrl(language.code)}`, { ignoreVary: true })) !==
      undefined
    );
  } catch {
    return false;
  }
}

/** What the progress line says while a language's data loads. */
export async function loadingStatus(language: OcrLanguage): Promise<string> {
  if (language.bundled || isNode || (await isCached(language))) return `Loading ${language.name} text recognition…`;
  return `Downloading ${language.name} text recognition data (${formatBytes(language.bytes)}, once)…`;
}

/**
 * Starts tesseract for `languageCode` (default English; validated against ./ocr-languages.ts).
 * `onStatus` hears what is happening while the language data loads ("Downloading German text
 * recognition data (1.3 MB, once)…"), then undefined once it is ready. Cancel during the load
 * rejects at once with Cancelled; the half-started tesseract worker is terminated when it settles.
 */
export async function createRecogniser(
  signal?: AbortSignal,
  languageCode?: string,
  onStatus?: (status: string | undefined) => void,
): Promise<Recogniser> {
  const language = ocrLanguageFor(languageCode);
  throwIfAborted(signal);
  onStatus?.(await loadingStatus(language));
  const { createWorker } = await import('tesseract.js');
  throwIfAborted(signal);
  const starting = createWorker(language.code, LSTM_ONLY, await workerOptions(language));
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      void starting.then((w) => w.terminate()).catch(() => undefined);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  let worker: Awaited<ReturnType<typeof createWorker>>;
  try {
    worker = await Promise.race([starting, aborted]);
  } catch (error) {
    if (signal?.aborted) throw cancelled();
    const message = (error as Error)?.message ?? String(error);
    throw new FolioError(
      'NotImplemented',
      `Text recognition (${language.name}) could not start: ` +
        `${message}` +
        (language.bundled ? '' : ' — the language data may not have downloaded; check the connection and try again.'),
    );
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    aborted.catch(() => undefined);
  }
  onStatus?.(undefined);
  let terminated = false;
  const terminate = async () => {
    if (terminated) return;
    terminated = true;
    await worker.terminate().catch(() => undefined);
  };

  const recogniseImage: Recogniser['recogniseImage'] = async (png, scale, pageSignal) => {
    throwIfAborted(pageSignal);
    const image = isNode
      ? (globalThis as unknown as { Buffer: { from(b: Uint8Array): unknown } }).Buffer.from(png)
      : new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' });
    // Cancel stops tesseract at once: its worker is terminated, and the job's promise rejects.
    const onAbort = () => void terminate();
    pageSignal?.addEventListener('abort', onAbort, { once: true });
    let result: { data: OcrPage };
    try {
      result = (await worker.recognize(image as Blob, {}, { blocks: true, text: false })) as unknown as {
        data: OcrPage;
      };
    } catch (error) {
      if (pageSignal?.aborted) throw cancelled();
      throw error;
    } finally {
      pageSignal?.removeEventListener('abort', onAbort);
    }
    throwIfAborted(pageSignal);
    return toItems(result.data, scale);
  };
  return {
    terminate,
    recogniseImage,
    async recognisePage(doc, pageNumber, pageSignal) {
      const { png } = await renderOcrImage(doc, pageNumber);
      return recogniseImage(png, await ocrScale(doc, pageNumber), pageSignal);
    },
  };
}

/** Tesseract's words (pixels) → text items (points). The line's height gives the font size. */
export function toItems(page: OcrPage, scale: number): TextItem[] {
  const items: TextItem[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const rowHeight = line.rowAttributes?.rowHeight ?? line.bbox.y1 - line.bbox.y0;
        const size = Math.max(4, (rowHeight / scale) * 0.85);
        for (const word of line.words) {
          const text = word.text.trim();
          // Pictures on a scanned page yield fragments of nonsense with low confidence; real
          // words of clean print score far higher. Lone symbols must be sure to be kept.
          if (!text || word.confidence < MIN_CONFIDENCE) continue;
          if (!/[\p{L}\p{N}]/u.test(text) && word.confidence < 85) continue;
          const baselineY =
            line.baseline && line.baseline.x1 !== line.baseline.x0
              ? line.baseline.y0 +
                ((line.baseline.y1 - line.baseline.y0) * ((word.bbox.x0 + word.bbox.x1) / 2 - line.baseline.x0)) /
                  (line.baseline.x1 - line.baseline.x0)
              : word.bbox.y1 - (line.rowAttributes?.descenders ?? 0);
          items.push({
            text,
            x: word.bbox.x0 / scale,
            top: baselineY / scale - size * 0.8,
            baseline: baselineY / scale,
            width: (word.bbox.x1 - word.bbox.x0) / scale,
            size,
            fontName: 'OCR',
            family: 'Arial',
            bold: false,
            italic: false,
            color: '000000',
          });
        }
      }
    }
  }
  return items;
}
