import { cpSync, existsSync, createReadStream, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { tesseractAssets } from './build/tesseract-assets.ts';
import { precompress } from './build/precompress.ts';
import { libreOfficeAssets } from './build/libreoffice-assets.ts';
import { engineAssetList, recordWorkerGraph } from './build/engine-assets.ts';

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

/**
 * Engine files: not precached with the app shell, but cached by the service worker in the background
 * after the first visit (the core set) or when first used (the optional ones). Listed, with their
 * groups and each tool's share, in dist/engine-assets.json (build/engine-assets.ts).
 */
export const ENGINE_ASSET = /^(assets\/engine\/|pdfjs\/|engine-data\/)|\.wasm$/;

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
    engineAssetList((path) => ENGINE_ASSET.test(path)),
    precompress(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,json}'],
        // engine-assets.json is precached: the service worker reads this version's list from it.
        globIgnores: ['assets/engine/**', 'pdfjs/**', 'engine-data/**', '**/*.wasm'],
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
          {
            name: 'Compress PDF',
            url: '/tools/compress-pdf',
            icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }],
          },
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
          params: {
            files: [{ name: 'files', accept: ['application/pdf', 'image/jpeg', 'image/png', 'image/webp', '.pdf'] }],
          },
        },
        launch_handler: { client_mode: 'focus-existing' },
      } as Record<string, unknown>,
    }),
  ],
  worker: {
    format: 'es',
    plugins: () => [recordWorkerGraph()],
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
