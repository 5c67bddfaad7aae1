/**
 * Precompressed copies of the built files — `file.br` (brotli) and `file.gz` (gzip) beside each
 * compressible file in dist/ (scripts, WASM, fonts, pdf.js data…) — and a preview-server
 * middleware that sends them to browsers that accept them (`npm start`). The engines are the
 * big part of Folio (fonts, WASM codecs, OCR core): a CJK font of 10.6 MB travels as 5.6 MB.
 * Static hosts that serve precompressed files (nginx `brotli_static`/`gzip_static`, Caddy
 * `precompressed`, most CDNs) use the same files; see docs/deploying.md.
 */
import { createHash } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, PreviewServer } from 'vite';

/** Extensions worth compressing (already-compressed formats — woff, png, .gz — are not). */
const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.json',
  '.webmanifest',
  '.svg',
  '.wasm',
  '.ttf',
  '.otf',
  '.bcmap',
  '.pfb',
  '.icc',
  '.txt',
  '.xml',
  '.data',
]);
const MIN_BYTES = 1024;

export const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.data': 'application/octet-stream',
};

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/** A precompressed sibling (`x.js.br` next to `x.js`), as opposed to a file that is itself compressed. */
export function isPrecompressedCopy(path: string): boolean {
  return /\.(br|gz)$/.test(path) && existsSync(path.replace(/\.(br|gz)$/, ''));
}

/**
 * Brotli 9 / gzip 9 for ordinary files; brotli 5 for the few very large ones (a 10 MB font: 1 s
 * instead of 3 s, 8 % bigger); gzip 6 instead of 9 for the huge optional LibreOffice files (147 MB
 * wasm → 41 MB brotli 5 in 4.4 s, 50 MB gzip 6 in 3.4 s; brotli 4 is no faster and 10 % bigger), so
 * that a build stays quick.
 */
export function compressionLevels(bytes: number): { brotliQuality: number; gzipLevel: number } {
  if (bytes > 50_000_000) return { brotliQuality: 5, gzipLevel: 6 };
  return { brotliQuality: bytes > 2_000_000 ? 5 : 9, gzipLevel: 9 };
}

/**
 * Compressed copies are kept by content hash (default `node_modules/.cache/folio-precompress`), so a
 * rebuild compresses only the files that changed: the 247 MB LibreOffice engine, the fonts and the
 * codecs are the same from one build to the next.
 */
export const DEFAULT_CACHE_DIR = resolve('node_modules/.cache/folio-precompress');

type Compressed = { br: Buffer | null; gz: Buffer | null; fromCache?: boolean };

async function compressOnce(raw: Buffer): Promise<Compressed> {
  const { brotliQuality, gzipLevel } = compressionLevels(raw.length);
  const [br, gz] = await Promise.all([
    brotli(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    }),
    gzipAsync(raw, { level: gzipLevel }),
  ]);
  // A copy that saves less than 5 % is not worth a second file.
  return { br: br.length < raw.length * 0.95 ? br : null, gz: gz.length < raw.length * 0.95 ? gz : null };
}

/** Written beside and renamed, so two builds sharing the cache never read a half-written entry. */
function writeAtomically(path: string, data: Buffer): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, path);
}

async function compressCached(raw: Buffer, cacheDir: string | null): Promise<Compressed> {
  if (!cacheDir) return compressOnce(raw);
  const { brotliQuality, gzipLevel } = compressionLevels(raw.length);
  const key = join(cacheDir, `${createHash('sha256').update(raw).digest('hex')}-b${brotliQuality}g${gzipLevel}`);
  if (existsSync(`${key}.done`)) {
    const read = (path: string) => (existsSync(path) ? readFileSync(path) : null);
    return { br: read(`${key}.br`), gz: read(`${key}.gz`), fromCache: true };
  }
  const result = await compressOnce(raw);
  mkdirSync(cacheDir, { recursive: true });
  if (result.br) writeAtomically(`${key}.br`, result.br);
  if (result.gz) writeAtomically(`${key}.gz`, result.gz);
  writeAtomically(`${key}.done`, Buffer.alloc(0));
  return result;
}

/** Writes .br and .gz beside every compressible file of `dir`, keeping only copies that are smaller. */
export async function precompressDirectory(
  dir: string,
  cacheDir: string | null = DEFAULT_CACHE_DIR,
): Promise<{ files: number; rawBytes: number; brotliBytes: number; cached: number }> {
  const files = walk(dir).filter((path) => COMPRESSIBLE.has(extname(path)) && statSync(path).size >= MIN_BYTES);
  let rawBytes = 0;
  let brotliBytes = 0;
  let cached = 0;
  // zlib's async calls run on libuv's thread pool: all cores, without blocking.
  await Promise.all(
    files.map(async (path) => {
      const raw = readFileSync(path);
      const { br, gz, fromCache } = await compressCached(raw, cacheDir);
      if (fromCache) cached++;
      rawBytes += raw.length;
      if (br) writeFileSync(`${path}.br`, br);
      brotliBytes += br ? br.length : raw.length;
      if (gz) writeFileSync(`${path}.gz`, gz);
    }),
  );
  return { files: files.length, rawBytes, brotliBytes, cached };
}

/** The encoding to send for a request, given its Accept-Encoding and the copies on disk. */
export function chooseEncoding(acceptEncoding: string | undefined, file: string): 'br' | 'gzip' | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '').split(',').flatMap((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return q !== undefined && Number(q) === 0 ? [] : [name.trim()];
    }),
  );
  const accepts = (name: string) => accepted.has(name);
  if (accepts('br') && existsSync(`${file}.br`)) return 'br';
  if (accepts('gzip') && existsSync(`${file}.gz`)) return 'gzip';
  return undefined;
}

function serveCompressed(server: PreviewServer, distDir: string): void {
  const headers = server.config.preview.headers ?? {};
  server.middlewares.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const pathname = decodeURIComponent((req.url ?? '/').split('?')[0]);
    const file = resolve(distDir, `.${pathname}`);
    const type = CONTENT_TYPES[extname(file)];
    if (!type || !file.startsWith(distDir) || !existsSync(file) || !statSync(file).isFile()) return next();
    const encoding = chooseEncoding(req.headers['accept-encoding'], file);
    if (!encoding) return next();
    const copy = `${file}.${encoding === 'br' ? 'br' : 'gz'}`;
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value as string);
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', statSync(copy).size);
    res.setHeader('Vary', 'Accept-Encoding');
    // Hashed file names never change; everything else is revalidated (as sirv does).
    res.setHeader(
      'Cache-Control',
      /-[\w-]{8}\.\w+$/.test(pathname) && pathname.startsWith('/assets/')
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
    );
    if (req.method === 'HEAD') return res.end();
    createReadStream(copy).pipe(res);
  });
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'folio-precompress',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (!existsSync(outDir)) return;
        const { files, rawBytes, brotliBytes, cached } = await precompressDirectory(outDir);
        this.info?.(
          `precompressed ${files} files (${cached} from cache): ${(rawBytes / 1e6).toFixed(1)} MB → ` +
            `${(brotliBytes / 1e6).toFixed(1)} MB brotli`,
        );
      },
    },
    configurePreviewServer(server) {
      serveCompressed(server, resolve(server.config.root, server.config.build.outDir));
    },
  };
}
