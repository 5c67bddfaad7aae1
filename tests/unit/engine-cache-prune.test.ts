/**
 * An update removes the previous version's engine files (src/pwa/engine-cache-prune.ts): over a
 * stand-in CacheStorage holding an old layout's cache and, in the current one, a previous build's
 * chunk and WASM and a previous LibreOffice next to files the new list still names.
 */
import { describe, expect, test } from 'vitest';
import { pruneEngineCaches } from '../../src/pwa/engine-cache-prune.ts';
import { ENGINE_CACHE, type EngineAssetList } from '../../src/pwa/engine-files.ts';

const ORIGIN = 'https://folio.example';

/** Just what the function uses of Cache and CacheStorage, over maps of URL → body. */
function storage(contents: Record<string, string[]>) {
  const caches = new Map(Object.entries(contents).map(([name, urls]) => [name, new Set(urls.map((u) => ORIGIN + u))]));
  const cacheOf = (name: string) => {
    if (!caches.has(name)) caches.set(name, new Set());
    const entries = caches.get(name)!;
    return {
      keys: async () => [...entries].map((url) => new Request(url)),
      delete: async (request: Request | string) => entries.delete(typeof request === 'string' ? request : request.url),
    };
  };
  const stand = {
    keys: async () => [...caches.keys()],
    delete: async (name: string) => caches.delete(name),
    open: async (name: string) => cacheOf(name) as unknown as Cache,
  };
  return { stand, caches };
}

const list: EngineAssetList = {
  version: 'new',
  totalBytes: 3,
  tools: {},
  files: [
    { url: '/assets/engine/merge-pdf-NEW.js', bytes: 1, group: 'core' },
    { url: '/assets/engine/qpdf-SAME.wasm', bytes: 1, group: 'core' },
    { url: '/engine-data/libreoffice/2.8.0/soffice.wasm', bytes: 1, group: 'libreoffice' },
  ],
};

describe('pruneEngineCaches', () => {
  test('deletes older cache layouts and files the new version does not list; keeps the rest and other caches', async () => {
    const { stand, caches } = storage({
      'folio-engines-v1': ['/assets/engine/merge-pdf-OLD.js'],
      [ENGINE_CACHE]: [
        '/assets/engine/merge-pdf-OLD.js',
        '/assets/engine/avif_enc-OLD.wasm',
        '/assets/engine/qpdf-SAME.wasm',
        '/engine-data/libreoffice/2.7.2/soffice.wasm',
        '/engine-data/libreoffice/2.7.2/soffice.data',
      ],
      'workbox-precache-v2-https://folio.example/': ['/index.html'],
    });
    const removed = await pruneEngineCaches(stand as unknown as CacheStorage, list);
    expect(removed.caches).toEqual(['folio-engines-v1']);
    expect(removed.files.sort()).toEqual([
      '/assets/engine/avif_enc-OLD.wasm',
      '/assets/engine/merge-pdf-OLD.js',
      '/engine-data/libreoffice/2.7.2/soffice.data',
      '/engine-data/libreoffice/2.7.2/soffice.wasm',
    ]);
    expect([...caches.get(ENGINE_CACHE)!]).toEqual([`${ORIGIN}/assets/engine/qpdf-SAME.wasm`]);
    expect([...caches.keys()].sort()).toEqual([ENGINE_CACHE, 'workbox-precache-v2-https://folio.example/']);
  });
});
