/**
 * dist/engine-assets.json: every engine file (worker chunks, WASM, fonts, pdf.js data, OCR, the
 * LibreOffice engine) with its size and group, and for each tool the core files its engine needs.
 * The service worker caches the core group in the background after the first visit; a tool window
 * that opens offline with some of its files missing says what it needs instead of failing on a
 * module URL. Types and groups: src/pwa/engine-files.ts.
 *
 * How a tool's files are found: a plugin in the worker build records every worker chunk (its static
 * and dynamic imports and code) and asset; a tool's files are its chunk, everything that chunk
 * imports (statically or lazily), every emitted file named in their code, and the engine worker's
 * own static imports. Files fetched by a fixed path rather than imported (pdf.js data under /pdfjs/,
 * tesseract under /engine-data/tesseract/) belong to every tool whose code names that path.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { Plugin } from 'vite';
import {
  CJK_FONT_FILE,
  SYMBOL_FONT_FILE,
  RTL_FONT_FILE,
  type EngineAssetList,
  type EngineFile,
  type EngineGroup,
} from '../src/pwa/engine-files.ts';
import { LIBREOFFICE_BASE } from '../shared/libreoffice-files.ts';
import { OCR_LANGUAGES, TESSERACT_BASE, ocrLanguageUrl } from '../shared/ocr-languages.ts';

interface BuiltFile {
  fileName: string;
  imports: string[];
  dynamicImports: string[];
  /** Code of a chunk, or the text of a JavaScript asset (a nested worker); '' for binary assets. */
  text: string;
  facadeModuleId?: string | null;
}

/** Every file of every worker bundle (the engine worker and the workers it starts), by file name. */
const workerFiles = new Map<string, BuiltFile>();

/** Goes in `worker.plugins`: records the worker bundles' graph for engineAssetList. */
export function recordWorkerGraph(): Plugin {
  return {
    name: 'folio-worker-graph',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') {
          workerFiles.set(output.fileName, {
            fileName: output.fileName,
            imports: output.imports,
            dynamicImports: output.dynamicImports,
            text: output.code,
            facadeModuleId: output.facadeModuleId,
          });
        } else {
          const text = /\.m?js$/.test(output.fileName) && typeof output.source === 'string' ? output.source : '';
          workerFiles.set(output.fileName, { fileName: output.fileName, imports: [], dynamicImports: [], text });
        }
      }
    },
  };
}

/** Files under these paths are fetched by path at run time; a tool needing one needs them all. */
const FETCHED_BY_PATH = ['/pdfjs/', TESSERACT_BASE];

const OPTIONAL_OCR = new Map(OCR_LANGUAGES.filter((l) => !l.bundled).map((l) => [ocrLanguageUrl(l.code), l.code]));

export function engineGroup(url: string): EngineGroup {
  if (url.startsWith(LIBREOFFICE_BASE)) return 'libreoffice';
  const ocr = OPTIONAL_OCR.get(url);
  if (ocr) return `ocr-${ocr}`;
  if (CJK_FONT_FILE.test(url)) return 'cjk-fonts';
  if (SYMBOL_FONT_FILE.test(url)) return 'symbol-fonts';
  if (RTL_FONT_FILE.test(url)) return 'rtl-fonts';
  return 'core';
}

/** The files of dist/ that are engines (same test as the service worker's cache-first route). */
function listEngineFiles(out: string, isEngineAsset: (path: string) => boolean): EngineFile[] {
  const files: EngineFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const rel = relative(out, path).split('\\').join('/');
        // Precompressed copies (x.js.br beside x.js) are the server's business, not files of their own.
        if (/\.(br|gz)$/.test(rel) && existsSync(path.replace(/\.(br|gz)$/, ''))) continue;
        if (isEngineAsset(rel))
          files.push({ url: `/${rel}`, bytes: statSync(path).size, group: engineGroup(`/${rel}`) });
      }
    }
  };
  walk(out);
  return files.sort((a, b) => a.url.localeCompare(b.url));
}

/** Names of emitted files that appear in `text` (an import, `new URL('x.wasm', import.meta.url)`, a `?url`). */
function namedFiles(text: string, byBaseName: Map<string, string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/[\w.-]+\.(?:m?js|wasm|ttf|otf|woff2?|data|json)\b/g)) {
    const fileName = byBaseName.get(match[0]);
    if (fileName) found.push(fileName);
  }
  return found;
}

/** Tool id → the worker files its engine needs (file names relative to dist/). */
export function toolClosures(files: Map<string, BuiltFile>): Map<string, Set<string>> {
  const byBaseName = new Map([...files.keys()].map((name) => [basename(name), name]));
  const toolChunks = [...files.values()].filter(
    (f) => f.facadeModuleId && /\/workers\/engine\/tools\/[\w-]+\.ts$/.test(f.facadeModuleId),
  );
  const toolFileNames = new Set(toolChunks.map((f) => f.fileName));
  const entry = [...files.values()].find((f) => f.facadeModuleId?.endsWith('/workers/engine.worker.ts'));

  // The worker itself: its entry and static imports (its lazy imports are the tools, and thumbnails).
  const base = new Set<string>();
  const addStatic = (name: string) => {
    if (base.has(name)) return;
    base.add(name);
    files.get(name)?.imports.forEach(addStatic);
  };
  if (entry) addStatic(entry.fileName);

  const closures = new Map<string, Set<string>>();
  for (const tool of toolChunks) {
    const needed = new Set(base);
    const add = (name: string) => {
      if (needed.has(name) || (toolFileNames.has(name) && name !== tool.fileName)) return;
      needed.add(name);
      const file = files.get(name);
      if (!file) return;
      [...file.imports, ...file.dynamicImports, ...namedFiles(file.text, byBaseName)].forEach(add);
    };
    add(tool.fileName);
    const id = tool.facadeModuleId!.replace(/^.*\/tools\/([\w-]+)\.ts$/, '$1');
    closures.set(id, needed);
  }
  return closures;
}

export function buildEngineAssetList(out: string, isEngineAsset: (path: string) => boolean): EngineAssetList {
  const files = listEngineFiles(out, isEngineAsset);
  const index = new Map(files.map((file, i) => [file.url, i]));
  const tools: Record<string, number[]> = {};
  for (const [toolId, names] of toolClosures(workerFiles)) {
    const needed = new Set<number>();
    const texts = [...names].map((name) => workerFiles.get(name)?.text ?? '');
    for (const name of names) {
      const i = index.get(`/${name}`);
      if (i !== undefined) needed.add(i);
    }
    for (const prefix of FETCHED_BY_PATH) {
      if (!texts.some((text) => text.includes(prefix))) continue;
      files.forEach((file, i) => {
        if (file.url.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)) needed.add(i);
      });
    }
    // Only the core group decides whether a tool can run: the optional groups are per document.
    tools[toolId] = [...needed].filter((i) => files[i].group === 'core').sort((a, b) => a - b);
  }
  const version = createHash('sha256')
    .update(files.map((f) => `${f.url} ${f.bytes}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const totalBytes = files.reduce((sum, f) => (f.group === 'core' ? sum + f.bytes : sum), 0);
  return { version, files, totalBytes, tools };
}

/** Writes dist/engine-assets.json once the bundle (and the copied engine data) is written. */
export function engineAssetList(isEngineAsset: (path: string) => boolean): Plugin {
  return {
    name: 'folio-engine-asset-list',
    apply: 'build',
    // Before vite-plugin-pwa's closeBundle, which precaches this file with the app shell.
    closeBundle: {
      order: 'pre',
      sequential: true,
      handler() {
        const out = 'dist';
        if (!existsSync(out)) return;
        const list = buildEngineAssetList(out, isEngineAsset);
        if (Object.keys(list.tools).length === 0)
          throw new Error('engine-assets: no tool chunk found in the worker build');
        writeFileSync(join(out, 'engine-assets.json'), JSON.stringify(list));
      },
    },
  };
}
