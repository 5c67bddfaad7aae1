import { cpSync, existsSync, createReadStream, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * pdf.js needs its character maps, standard fonts, ICC profiles and image-decoder WASM at run time.
 * They are served from our own origin under /pdfjs/ (never a CDN): copied into dist/ at build time,
 * served from node_modules by the dev server.
 */
function pdfjsAssets(): Plugin {
  const root = resolve('node_modules/pdfjs-dist');
  const folders = ['cmaps', 'standard_fonts', 'wasm', 'iccs'];
  return {
    name: 'folio-pdfjs-assets',
    configureServer(server) {
      server.middlewares.use('/pdfjs', (req, res, next) => {
        const file = join(root, decodeURIComponent((req.url ?? '').split('?')[0]));
        if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) return next();
        createReadStream(file).pipe(res);
      });
    },
    writeBundle(options) {
      const out = options.dir ?? 'dist';
      for (const folder of folders) cpSync(join(root, folder), join(out, 'pdfjs', folder), { recursive: true });
    },
  };
}

export default defineConfig({
  plugins: [react(), pdfjsAssets()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 4096,
  },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
});
