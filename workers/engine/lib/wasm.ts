/**
 * Loading a WebAssembly module that a package ships, the same way in a browser worker and in Node:
 * the browser fetches the URL Vite gave us (our own origin, cached by the service worker), Node reads
 * the file from node_modules. Compiled once per realm and reused; instances are made per job.
 */
const compiled = new Map<string, Promise<WebAssembly.Module>>();

export const isNode =
  typeof process !== 'undefined' &&
  typeof process.versions?.node === 'string' &&
  typeof window === 'undefined' &&
  typeof WorkerGlobalScope === 'undefined';

declare const WorkerGlobalScope: unknown;

/**
 * @param browserUrl the URL from a `?url` import of the .wasm file
 * @param nodeSpecifier the package path of the same file, resolved from node_modules in Node
 */
export function compileWasm(browserUrl: string, nodeSpecifier: string): Promise<WebAssembly.Module> {
  let module = compiled.get(nodeSpecifier);
  if (!module) {
    module = (async () => {
      if (isNode) {
        const { createRequire } = await import(/* @vite-ignore */ 'node:module');
        const { readFile } = await import(/* @vite-ignore */ 'node:fs/promises');
        const path = createRequire(import.meta.url).resolve(nodeSpecifier);
        return WebAssembly.compile(await readFile(path));
      }
      const response = await fetch(browserUrl);
      if (!response.ok) throw new Error(`Could not load ${nodeSpecifier} (${response.status})`);
      return WebAssembly.compileStreaming(response);
    })();
    compiled.set(nodeSpecifier, module);
    module.catch(() => compiled.delete(nodeSpecifier));
  }
  return module;
}
