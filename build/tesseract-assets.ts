/**
 * OCR files served from our own origin under /engine-data/tesseract/ (never a CDN; the service
 * worker caches /engine-data/ on first use and "make all tools available offline" lists it):
 *   worker.min.js                      tesseract.js's worker script (workerBlobURL: false)
 *   core/tesseract-core-*-lstm.wasm.js the WASM core, LSTM-only builds (plain, SIMD, relaxed SIMD)
 *   lang/eng.traineddata.gz            English, the integer "best" model (@tesseract.js-data/eng)
 * Copied into dist/ at build time and served from node_modules by the dev server.
 * workers/engine/lib/ocr.ts builds the same URLs.
 */
import { copyFileSync, createReadStream, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Plugin } from 'vite';

export const TESSERACT_BASE = '/engine-data/tesseract';

/** URL path under TESSERACT_BASE → file in node_modules. */
function assetMap(): Map<string, string> {
  const modules = resolve('node_modules');
  const map = new Map<string, string>();
  map.set('/worker.min.js', join(modules, 'tesseract.js/dist/worker.min.js'));
  for (const variant of ['tesseract-core-lstm', 'tesseract-core-simd-lstm', 'tesseract-core-relaxedsimd-lstm']) {
    map.set(`/core/${variant}.wasm.js`, join(modules, 'tesseract.js-core', `${variant}.wasm.js`));
  }
  map.set('/lang/eng.traineddata.gz', join(modules, '@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz'));
  return map;
}

export function tesseractAssets(): Plugin {
  return {
    name: 'folio-tesseract-assets',
    configureServer(server) {
      const map = assetMap();
      server.middlewares.use(TESSERACT_BASE, (req, res, next) => {
        const file = map.get(decodeURIComponent((req.url ?? '').split('?')[0]));
        if (!file || !existsSync(file)) return next();
        res.setHeader('Content-Type', file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream');
        createReadStream(file).pipe(res);
      });
    },
    writeBundle(options) {
      const out = join(options.dir ?? 'dist', TESSERACT_BASE);
      for (const [url, file] of assetMap()) {
        if (!existsSync(file)) throw new Error(`tesseract asset missing: ${file} (npm install tesseract.js @tesseract.js-data/eng)`);
        const target = join(out, url);
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(file, target);
      }
    },
  };
}
