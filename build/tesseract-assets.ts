/**
 * OCR files served from our own origin under /engine-data/tesseract/ (never a CDN; the service
 * worker caches /engine-data/ on first use):
 *   worker.min.js                      tesseract.js's worker script (workerBlobURL: false)
 *   core/tesseract-core-*-lstm.wasm.js the WASM core, LSTM-only builds (plain, SIMD, relaxed SIMD)
 *   lang/<code>.traineddata.gz         every language of shared/ocr-languages.ts, the
 *                                      integer "best" model of @tesseract.js-data/<code>
 * English is part of "Make all tools available offline"; the other languages are optional
 * downloads (vite.config.ts leaves them out of engine-assets.json).
 * Copied into dist/ at build time and served from node_modules by the dev server.
 * workers/engine/lib/ocr/ocr.ts builds the same URLs.
 */
import { copyFileSync, createReadStream, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { OCR_LANGUAGES, OCR_MODEL, TESSERACT_BASE, ocrLanguageUrl } from '../shared/ocr-languages.ts';

export { TESSERACT_BASE };

/** URL path under TESSERACT_BASE → file in node_modules. */
export function assetMap(modules = resolve('node_modules')): Map<string, string> {
  const map = new Map<string, string>();
  map.set('/worker.min.js', join(modules, 'tesseract.js/dist/worker.min.js'));
  for (const variant of ['tesseract-core-lstm', 'tesseract-core-simd-lstm', 'tesseract-core-relaxedsimd-lstm']) {
    map.set(`/core/${variant}.wasm.js`, join(modules, 'tesseract.js-core', `${variant}.wasm.js`));
  }
  for (const language of OCR_LANGUAGES) {
    map.set(
      ocrLanguageUrl(language.code).slice(TESSERACT_BASE.length),
      join(modules, language.package, OCR_MODEL, `${language.code}.traineddata.gz`),
    );
  }
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
        // The dev server's headers (cross-origin isolation) are per response: the OCR worker needs them.
        for (const [header, value] of Object.entries(server.config.server.headers ?? {}))
          if (value !== undefined) res.setHeader(header, value);
        res.setHeader('Content-Type', file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream');
        createReadStream(file).pipe(res);
      });
    },
    writeBundle(options) {
      const out = join(options.dir ?? 'dist', TESSERACT_BASE);
      for (const [url, file] of assetMap()) {
        if (!existsSync(file)) throw new Error(`tesseract asset missing: ${file} (npm install)`);
        const target = join(out, url);
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(file, target);
      }
    },
  };
}
