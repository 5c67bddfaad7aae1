/**
 * Loading a data file that a package ships (a font, a language model…) the same way in a browser
 * worker and in Node: the browser fetches the URL Vite gave us (`import url from 'pkg/file?url'`,
 * served from our own origin and cached by the service worker), Node reads the file from
 * node_modules. Each file is loaded once per realm.
 */
import { isNode } from './wasm.ts';

const loaded = new Map<string, Promise<Uint8Array>>();

/**
 * @param browserUrl the URL from a `?url` import of the file
 * @param nodeSpecifier the same file as a package path, e.g. '@fontsource/carlito/files/carlito-latin-400-normal.woff'
 */
export function loadPackageAsset(browserUrl: string, nodeSpecifier: string): Promise<Uint8Array> {
  let bytes = loaded.get(nodeSpecifier);
  if (!bytes) {
    bytes = (async () => {
      if (isNode) {
        const { createRequire } = await import(/* @vite-ignore */ 'node:module');
        const { readFile } = await import(/* @vite-ignore */ 'node:fs/promises');
        return new Uint8Array(await readFile(createRequire(import.meta.url).resolve(nodeSpecifier)));
      }
      const response = await fetch(browserUrl);
      if (!response.ok) throw new Error(`Could not load ${nodeSpecifier} (${response.status})`);
      return new Uint8Array(await response.arrayBuffer());
    })();
    loaded.set(nodeSpecifier, bytes);
    bytes.catch(() => loaded.delete(nodeSpecifier));
  }
  return bytes;
}
