/**
 * What an update removes (called by src/sw.ts on activation): every engine cache of an older layout
 * (`folio-engines-*` other than ENGINE_CACHE), and every file in ENGINE_CACHE that this version's
 * engine-assets.json does not list — an old version's content-hashed chunks and WASM, a previous
 * LibreOffice (its URL carries the package version). Takes the CacheStorage it works on, so it is
 * tested in Node with a stand-in (tests/unit/engine-cache-prune.test.ts).
 */
import { ENGINE_CACHE, ENGINE_CACHE_PREFIX, type EngineAssetList } from './engine-files.ts';

type Storage = Pick<CacheStorage, 'keys' | 'delete' | 'open'>;

/** Returns the paths removed from ENGINE_CACHE and the names of the caches deleted. */
export async function pruneEngineCaches(
  storage: Storage,
  list: EngineAssetList,
): Promise<{ files: string[]; caches: string[] }> {
  const deletedCaches: string[] = [];
  for (const name of await storage.keys()) {
    if (name.startsWith(ENGINE_CACHE_PREFIX) && name !== ENGINE_CACHE && (await storage.delete(name)))
      deletedCaches.push(name);
  }
  const current = new Set(list.files.map((file) => file.url));
  const cache = await storage.open(ENGINE_CACHE);
  const removed: string[] = [];
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (!current.has(path) && (await cache.delete(request))) removed.push(path);
  }
  return { files: removed, caches: deletedCaches };
}
