/**
 * "Make all tools available offline": fetches every engine file listed in /engine-assets.json
 * (written at build time) so the service worker caches it, and asks the browser to keep the
 * storage (navigator.storage.persist). The app shell itself is always precached. OCR languages
 * other than English are not in the list: they are downloaded (and cached) when first used.
 */
import { OCR_LANGUAGES, ocrLanguageUrl, type OcrLanguage } from '../../workers/engine/lib/ocr-languages.ts';

export interface EngineAssetList {
  files: Array<{ url: string; bytes: number }>;
  totalBytes: number;
}

export async function fetchEngineAssetList(): Promise<EngineAssetList> {
  const response = await fetch('/engine-assets.json', { cache: 'no-store' });
  if (!response.ok) throw new Error('The list of tool engines could not be loaded.');
  return (await response.json()) as EngineAssetList;
}

export async function cacheAllEngines(
  list: EngineAssetList,
  onProgress: (doneBytes: number, totalBytes: number) => void,
  signal?: AbortSignal,
): Promise<{ persisted: boolean }> {
  if (!navigator.serviceWorker?.controller) throw new Error('Offline support is not active yet: reload the page once and try again.');
  let done = 0;
  for (const file of list.files) {
    const response = await fetch(file.url, { signal });
    if (!response.ok) throw new Error(`Could not download ${file.url} (${response.status}).`);
    await response.arrayBuffer();
    done += file.bytes;
    onProgress(done, list.totalBytes);
  }
  const persisted = (await navigator.storage?.persist?.()) ?? false;
  return { persisted };
}

/** The optional OCR languages whose data the service worker has cached (used once on this device). */
export async function downloadedOcrLanguages(): Promise<OcrLanguage[]> {
  if (typeof caches === 'undefined') return [];
  const optional = OCR_LANGUAGES.filter((language) => !language.bundled);
  const cached = await Promise.all(optional.map(async (language) => (await caches.match(ocrLanguageUrl(language.code), { ignoreVary: true }).catch(() => undefined)) !== undefined));
  return optional.filter((_, i) => cached[i]);
}
