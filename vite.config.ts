import { cpSync, existsSync, createReadStream, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { tesseractAssets } from './build/tesseract-assets.ts';
import { precompress } from './build/precompress.ts';
import { libreOfficeAssets } from './build/libreoffice-assets.ts';
import { LIBREOFFICE_BASE } from './workers/engine/lib/libreoffice-files.ts';
import { OCR_LANGUAGES, ocrLanguageUrl } from './workers/engine/lib/ocr-languages.ts';

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

/** Files that are cached on first use rather than precached: engines, WASM, pdf.js data, engine data. */
export const ENGINE_ASSET = /^(assets\/engine\/|pdfjs\/|engine-data\/)|\.wasm$/;

/**
 * Optional downloads, cached when first used, never by "Make all tools available offline": the OCR
 * languages other than English, and the LibreOffice engine (237 MB, only when the user picks it or
 * opens a legacy .doc/.xls/.ppt).
 */
const OPTIONAL_ENGINE_FILES = new Set(OCR_LANGUAGES.filter((l) => !l.bundled).map((l) => ocrLanguageUrl(l.code)));
export const isOptionalEngineFile = (url: string) => OPTIONAL_ENGINE_FILES.has(url) || url.startsWith(LIBREOFFICE_BASE);

/**
 * Writes dist/engine-assets.json: every engine file with its size, so "Make all tools available
 * offline" can fetch them all (and show the total) without guessing names. The optional files
 * (OCR languages, LibreOffice) are left out.
 */
function engineAssetList(): Plugin {
  return {
    name: 'folio-engine-asset-list',
    apply: 'build',
    closeBundle() {
      const out = resolve('dist');
      if (!existsSync(out)) return;
      const files: Array<{ url: string; bytes: number }> = [];
      const walk = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const path = join(dir, name);
          if (statSync(path).isDirectory()) walk(path);
          else {
            const rel = relative(out, path).split('\\').join('/');
            if (ENGINE_ASSET.test(rel) && !isOptionalEngineFile(`/${rel}`)) files.push({ url: `/${rel}`, bytes: statSync(path).size });
          }
        }
      };
      walk(out);
      writeFileSync(join(out, 'engine-assets.json'), JSON.stringify({ files, totalBytes: files.reduce((s, f) => s + f.bytes, 0) }));
    },
  };
}

/** The SHA-256 of index.html's inline theme script, so the CSP can allow exactly that script. */
function inlineScriptHashes(): string[] {
  const html = readFileSync(resolve('index.html'), 'utf8');
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`,
  );
}

/** The email service the contact form may post to (SPEC Part A.7); nothing else leaves the origin. */
const EMAIL_SERVICE = 'https://api.emailjs.com';

export function contentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval' ${inlineScriptHashes().join(' ')}`,
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    `connect-src 'self' blob: data: ${EMAIL_SERVICE}`,
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
  ].join('; ');
}

/**
 * Cross-origin isolation (COOP + COEP): the optional LibreOffice engine runs on threads, which need
 * SharedArrayBuffer, which browsers give only to isolated pages. Folio loads nothing from another
 * origin; the contact form's fetch to the email service is a CORS request, which COEP allows.
 */
export const crossOriginIsolationHeaders = () => ({
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
});

const securityHeaders = () => ({
  'Content-Security-Policy': contentSecurityPolicy(),
  ...crossOriginIsolationHeaders(),
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
});

const engineChunkNames = {
  entryFileNames: 'assets/engine/[name]-[hash].js',
  chunkFileNames: 'assets/engine/[name]-[hash].js',
  assetFileNames: 'assets/engine/[name]-[hash][extname]',
};

export default defineConfig({
  plugins: [
    react(),
    pdfjsAssets(),
    tesseractAssets(),
    libreOfficeAssets(),
    engineAssetList(),
    precompress(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,json}'],
        globIgnores: ['assets/engine/**', 'pdfjs/**', 'engine-data/**', '**/*.wasm', 'engine-assets.json'],
        maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
      },
      manifest: {
        id: '/',
        name: 'Folio — private PDF tools',
        short_name: 'Folio',
        description: '17 PDF tools and 8 everyday utilities that run entirely on your device. Nothing is uploaded.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1f4fd1',
        categories: ['productivity', 'utilities'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        shortcuts: [
          { name: 'Merge PDF', url: '/tools/merge-pdf', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
          { name: 'Split PDF', url: '/tools/split-pdf', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
          { name: 'Compress PDF', url: '/tools/compress-pdf', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
          { name: 'PDF to Word', url: '/tools/pdf-to-word', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
        ],
        file_handlers: [
          {
            action: '/open',
            accept: {
              'application/pdf': ['.pdf'],
              'image/jpeg': ['.jpg', '.jpeg'],
              'image/png': ['.png'],
              'image/webp': ['.webp'],
            },
          },
        ],
        share_target: {
          action: '/share-target',
          method: 'POST',
          enctype: 'multipart/form-data',
          params: { files: [{ name: 'files', accept: ['application/pdf', 'image/jpeg', 'image/png', 'image/webp', '.pdf'] }] },
        },
        launch_handler: { client_mode: 'focus-existing' },
      } as Record<string, unknown>,
    }),
  ],
  worker: {
    format: 'es',
    rolldownOptions: { output: engineChunkNames },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 4096,
  },
  preview: { port: 4173, strictPort: true, headers: securityHeaders() },
  server: { port: 5173, headers: { 'Referrer-Policy': 'no-referrer', ...crossOriginIsolationHeaders() } },
});
