/**
 * The optional LibreOffice engine's files, served from our own origin under
 * /engine-data/libreoffice/<version>/ (never a CDN; the service worker caches /engine-data/ on first
 * use). Model: build/tesseract-assets.ts.
 *   soffice.wasm  LibreOffice compiled to WebAssembly (@matbee/libreoffice-converter's wasm/, MPL-2.0)
 *   soffice.data  its Emscripten file-system package (program files, fonts, registry)
 *   soffice.js    the Emscripten glue, PATCHED: a pthread pool of 32 workers instead of 4 (see below)
 *   lo-host.js    our host worker (workers/libreoffice/lo-host.ts), transpiled here
 *   sizes.json    the uncompressed sizes of the two big files (progress totals under Content-Encoding)
 * They are optional (237 MB): vite.config.ts leaves them out of engine-assets.json, so "Make all
 * tools available offline" does not fetch them. Copied into dist/ at build time; the dev server
 * serves the same (patched, transpiled) files.
 */
import { copyFileSync, createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { transformWithOxc, type Plugin } from 'vite';
import {
  LIBREOFFICE_BASE,
  LIBREOFFICE_FILES,
  LIBREOFFICE_PACKAGE,
  LIBREOFFICE_VERSION,
  type LibreOfficeSizes,
} from '../shared/libreoffice-files.ts';

/**
 * Why the patch: the glue starts a pool of 4 pthread workers before LibreOffice runs, and Emscripten
 * can only start a new worker when the thread that asks returns to the event loop — which a blocked
 * LibreOffice thread never does. LibreOffice starts more than 4 threads (up to 17 seen), so with 4
 * conversions hang with every thread in a futex wait (3 of 20 files in Chromium). With 32, 20 of 20
 * in a row, no hang. A package update that renames this line must not silently drop the fix: the
 * build throws instead.
 */
export const POOL_PATTERN = 'var pthreadPoolSize=4';
export const POOL_SIZE = 32;

/**
 * Not a patch, a check: the host worker passes `noInitialRun: true` so that LibreOffice's own main()
 * never runs (the glue is built with PROXY_TO_PTHREAD and would start soffice's desktop start-up in a
 * second thread beside LibreOfficeKit: first documents took 50–63 s or stalled; see lo-host.ts). A
 * glue that no longer reads the option would bring that back silently, so the build throws instead.
 */
export const NO_INITIAL_RUN_PATTERN = 'if(Module["noInitialRun"])shouldRunNow=false;';

const occurrences = (source: string, pattern: string) => source.split(pattern).length - 1;

export function patchGlue(source: string): string {
  const count = occurrences(source, POOL_PATTERN);
  if (count !== 1) {
    throw new Error(
      `libreoffice-assets: expected "${POOL_PATTERN}" once in ${LIBREOFFICE_FILES.glue}, found it ${count} times. ` +
        (`The pthread pool fix (${POOL_SIZE} workers; with 4, conversions hang) cannot be applied: check the new ` +
          `glue and update build/libreoffice-assets.ts.`),
    );
  }
  const noInitialRun = occurrences(source, NO_INITIAL_RUN_PATTERN);
  if (noInitialRun !== 1) {
    throw new Error(
      `libreoffice-assets: expected '${NO_INITIAL_RUN_PATTERN}' once in ${LIBREOFFICE_FILES.glue}, found it ` +
        `${noInitialRun} times. ` +
        ("The host worker relies on Module.noInitialRun to keep LibreOffice's own main() from running beside " +
          'LibreOfficeKit (first documents stall): check the new glue and update build/libreoffice-assets.ts and ' +
          'workers/libreoffice/lo-host.ts.'),
    );
  }
  return source.replace(POOL_PATTERN, `var pthreadPoolSize=${POOL_SIZE}`);
}

export function packageDir(modules = resolve('node_modules')): string {
  return join(modules, LIBREOFFICE_PACKAGE);
}

/** Throws when the installed package is not the version the URLs name. */
function checkVersion(dir: string): void {
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  if (version !== LIBREOFFICE_VERSION) {
    throw new Error(
      `libreoffice-assets: ${LIBREOFFICE_PACKAGE} is ${version}, but shared/libreoffice-files.ts names ` +
        `${LIBREOFFICE_VERSION}: update LIBREOFFICE_VERSION (new URLs, so cached copies are not mixed).`,
    );
  }
}

export async function transpileHost(hostSource = resolve('workers/libreoffice/lo-host.ts')): Promise<string> {
  const { code } = await transformWithOxc(readFileSync(hostSource, 'utf8'), hostSource, {
    lang: 'ts',
    target: 'es2022',
  });
  return code;
}

/** The generated small files (patched glue, host, sizes) and the paths of the big ones. */
export async function libreOfficeFiles(
  modules = resolve('node_modules'),
): Promise<{ generated: Map<string, string>; copied: Map<string, string>; revision: string }> {
  const dir = packageDir(modules);
  checkVersion(dir);
  const wasm = join(dir, 'wasm', LIBREOFFICE_FILES.wasm);
  const data = join(dir, 'wasm', LIBREOFFICE_FILES.data);
  const glue = patchGlue(readFileSync(join(dir, 'wasm', LIBREOFFICE_FILES.glue), 'utf8'));
  const host = await transpileHost();
  const sizes: LibreOfficeSizes = { wasm: statSync(wasm).size, data: statSync(data).size };
  const generated = new Map([
    [LIBREOFFICE_FILES.glue, glue],
    [LIBREOFFICE_FILES.host, host],
    [LIBREOFFICE_FILES.sizes, JSON.stringify(sizes)],
  ]);
  const revision = createHash('sha256').update(glue).update(host).digest('hex').slice(0, 10);
  return {
    generated,
    copied: new Map([
      [LIBREOFFICE_FILES.wasm, wasm],
      [LIBREOFFICE_FILES.data, data],
    ]),
    revision,
  };
}

/**
 * The Content-Security-Policy for LibreOffice's worker scripts (lo-host.js and soffice.js, which
 * is also every pthread worker's script). A dedicated worker takes its CSP from its own script's
 * response, so this relaxes nothing on the page or in the other engines: LibreOffice's embind glue
 * builds its C++ bindings with `new Function`, so these workers need 'unsafe-eval' (without it,
 * LibreOffice does not start). They fetch nothing (the engine worker hands them the bytes).
 */
export function libreOfficeWorkerCsp(): string {
  return [
    "default-src 'none'",
    "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    "connect-src 'self'",
  ].join('; ');
}

/** True for the LibreOffice worker scripts, which get libreOfficeWorkerCsp(). */
export const isLibreOfficeWorkerScript = (pathname: string) =>
  pathname.startsWith(LIBREOFFICE_BASE) && pathname.endsWith('.js');

export function libreOfficeAssets(): Plugin {
  let files: Awaited<ReturnType<typeof libreOfficeFiles>> | undefined;
  const load = async () => (files ??= await libreOfficeFiles());
  return {
    name: 'folio-libreoffice-assets',
    async config() {
      // The small files change with our code: their URLs carry this revision (cache-first service worker).
      return { define: { __LIBREOFFICE_REVISION__: JSON.stringify((await load()).revision) } };
    },
    configureServer(server) {
      server.middlewares.use(LIBREOFFICE_BASE, (req, res, next) => {
        void load().then(({ generated, copied }) => {
          const name = decodeURIComponent((req.url ?? '').split('?')[0]).replace(/^\//, '');
          const text = generated.get(name);
          const file = copied.get(name);
          if (text === undefined && !file) return next();
          // The dev server's headers (cross-origin isolation) are per response: a worker script without them would not
          // load.
          for (const [header, value] of Object.entries(server.config.server.headers ?? {}))
            if (value !== undefined) res.setHeader(header, value);
          res.setHeader(
            'Content-Type',
            name.endsWith('.js')
              ? 'text/javascript'
              : name.endsWith('.json')
                ? 'application/json'
                : name.endsWith('.wasm')
                  ? 'application/wasm'
                  : 'application/octet-stream',
          );
          if (text !== undefined) res.end(text);
          else {
            res.setHeader('Content-Length', statSync(file!).size);
            createReadStream(file!).pipe(res);
          }
        }, next);
      });
    },
    configurePreviewServer(server) {
      // Runs before the static and precompressed file servers: whatever CSP they set for these
      // scripts becomes the workers' own.
      server.middlewares.use((req, res, next) => {
        if (isLibreOfficeWorkerScript(decodeURIComponent((req.url ?? '').split('?')[0]))) {
          const setHeader = res.setHeader.bind(res);
          res.setHeader = (name: string, value: number | string | readonly string[]) =>
            setHeader(name, name.toLowerCase() === 'content-security-policy' ? libreOfficeWorkerCsp() : value);
        }
        next();
      });
    },
    async writeBundle(options) {
      const { generated, copied } = await load();
      const out = join(options.dir ?? 'dist', LIBREOFFICE_BASE);
      mkdirSync(out, { recursive: true });
      for (const [name, text] of generated) writeFileSync(join(out, name), text);
      for (const [name, file] of copied) {
        if (!existsSync(file)) throw new Error(`libreoffice asset missing: ${file} (npm install)`);
        copyFileSync(file, join(out, name));
      }
    },
  };
}
