/// <reference lib="webworker" />
/**
 * The LibreOffice host: a classic dedicated worker that the engine worker starts
 * (workers/engine/lib/libreoffice/libreoffice.ts). It loads LibreOffice's Emscripten glue (soffice.js) with
 * importScripts — the glue is a classic script, and its pthread workers load the same file — and
 * drives LibreOfficeKit directly: documentLoad, saveAs, destroy.
 *
 * No imports: build/libreoffice-assets.ts transpiles this file on its own (transformWithOxc) to
 * /engine-data/libreoffice/<version>/lo-host.js. Everything is inside one block so that nothing
 * leaks into the global scope the glue shares.
 *
 * Protocol (one job at a time; the engine worker terminates this worker on a time limit):
 * → { type: 'init', glueUrl, wasm: ArrayBuffer, data: ArrayBuffer } ← { type: 'ready', ms } | { type: 'fatal', message
 * }
 * → { type: 'convert', id, extension, bytes: ArrayBuffer, format } ← { type: 'done', id, bytes, ms } | { type: 'error',
 * id, message }
 *   ← { type: 'fatal', message } at any time: something uncaught; the engine worker stops this host.
 * The wasm and data bytes come from the engine worker (which downloaded them with progress), so the
 * glue fetches nothing itself: `wasmBinary` and `getPreloadedPackage`.
 */
{
  interface LokModule {
    HEAPU8: Uint8Array;
    FS: {
      mkdir(path: string): void;
      writeFile(path: string, data: Uint8Array): void;
      readFile(path: string): Uint8Array;
      unlink(path: string): void;
    };
    ENV: Record<string, string>;
    _malloc(size: number): number;
    _free(pointer: number): void;
    _libreofficekit_hook(installPath: number): number;
    _lok_documentLoad(lok: number, url: number): number;
    _lok_documentSaveAs(doc: number, url: number, format: number, filterOptions: number): number;
    _lok_documentDestroy(doc: number): void;
  }

  interface InitMessage {
    type: 'init';
    glueUrl: string;
    wasm: ArrayBuffer;
    data: ArrayBuffer;
  }
  interface ConvertMessage {
    type: 'convert';
    id: number;
    extension: string;
    bytes: ArrayBuffer;
    format: string;
  }

  const scope = self as unknown as DedicatedWorkerGlobalScope & { Module?: Record<string, unknown> };
  let module: LokModule | undefined;
  let lok = 0;

  const cString = (text: string): number => {
    const bytes = new TextEncoder().encode(`${text}\0`);
    const pointer = module!._malloc(bytes.length);
    // Fresh view each time: the heap may have grown since the last call.
    module!.HEAPU8.set(bytes, pointer);
    return pointer;
  };

  const withStrings = <T>(texts: string[], call: (pointers: number[]) => T): T => {
    const pointers = texts.map(cString);
    try {
      return call(pointers);
    } finally {
      for (const pointer of pointers) module!._free(pointer);
    }
  };

  const init = async ({ glueUrl, wasm, data }: InitMessage): Promise<void> => {
    const started = performance.now();
    const base = glueUrl.slice(0, glueUrl.lastIndexOf('/') + 1);
    await new Promise<void>((resolve, reject) => {
      scope.Module = {
        // The pthread workers load the glue from this URL (same origin, same revision).
        mainScriptUrlOrBlob: glueUrl,
        // Never run LibreOffice's own main(): a second desktop start-up in a pthread, beside
        // LibreOfficeKit's, whose proxied file I/O stalls the first document (docs/decisions.md).
        // build/libreoffice-assets.ts checks that the glue still honours this option.
        noInitialRun: true,
        locateFile: (file: string) => base + file,
        wasmBinary: wasm,
        getPreloadedPackage: () => data,
        print: () => undefined,
        printErr: () => undefined,
        // One LibreOffice worker thread for its own thread pool: fewer pthreads to start.
        preRun: [
          () => {
            (scope.Module as unknown as LokModule).ENV.MAX_CONCURRENCY = '1';
          },
        ],
        onRuntimeInitialized: () => resolve(),
        onAbort: (reason: unknown) => reject(new Error(`LibreOffice stopped: ${String(reason)}`)),
      };
      try {
        scope.importScripts(glueUrl);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    module = scope.Module as unknown as LokModule;
    for (const dir of [
      '/tmp',
      '/tmp/in',
      '/tmp/out',
      '/instdir/user',
      '/instdir/user/temp',
      '/instdir/user/temp/embeddedfonts',
      '/instdir/user/temp/embeddedfonts/fromdocs',
      '/instdir/user/temp/embeddedfonts/fromsystem',
      '/instdir/user/registry',
      '/instdir/user/registry/data',
    ]) {
      try {
        module.FS.mkdir(dir);
      } catch {
        /* already there */
      }
    }
    lok = withStrings(['/instdir/program'], ([path]) => module!._libreofficekit_hook(path));
    if (!lok) throw new Error('LibreOfficeKit did not start');
    scope.postMessage({ type: 'ready', ms: Math.round(performance.now() - started) });
  };

  const convert = ({ id, extension, bytes, format }: ConvertMessage): void => {
    const started = performance.now();
    const m = module!;
    const input = `/tmp/in/document.${extension.replace(/[^a-z0-9]/gi, '') || 'bin'}`;
    const output = `/tmp/out/document.${format}`;
    try {
      m.FS.writeFile(input, new Uint8Array(bytes));
      const doc = withStrings([`file://${input}`], ([url]) => m._lok_documentLoad(lok, url));
      if (!doc) throw new Error('LibreOffice could not open the file');
      try {
        const ok = withStrings([`file://${output}`, format, ''], ([url, type, options]) =>
          m._lok_documentSaveAs(doc, url, type, options),
        );
        if (!ok) throw new Error(`LibreOffice could not save the file as ${format}`);
      } finally {
        m._lok_documentDestroy(doc);
      }
      const result = m.FS.readFile(output);
      const copy = result.slice();
      scope.postMessage({ type: 'done', id, bytes: copy.buffer, ms: Math.round(performance.now() - started) }, [
        copy.buffer,
      ]);
    } catch (error) {
      scope.postMessage({ type: 'error', id, message: error instanceof Error ? error.message : String(error) });
    } finally {
      for (const path of [input, output]) {
        try {
          m.FS.unlink(path);
        } catch {
          /* not written */
        }
      }
    }
  };

  // Anything uncaught (an error in the glue, a rejected promise in its start-up) is reported, so the
  // engine worker stops this host at once instead of waiting for its time limit.
  const report = (reason: unknown) =>
    scope.postMessage({ type: 'fatal', message: reason instanceof Error ? reason.message : String(reason) });
  scope.addEventListener('error', (event) => report(event.error ?? event.message));
  scope.addEventListener('unhandledrejection', (event) => report(event.reason));

  scope.onmessage = (event: MessageEvent<InitMessage | ConvertMessage>) => {
    const message = event.data;
    if (message.type === 'init') {
      init(message).catch((error: unknown) =>
        scope.postMessage({ type: 'fatal', message: error instanceof Error ? error.message : String(error) }),
      );
    } else if (message.type === 'convert') {
      if (!module || !lok) scope.postMessage({ type: 'error', id: message.id, message: 'LibreOffice is not started' });
      else convert(message);
    }
  };
}
