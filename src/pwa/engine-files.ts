/**
 * The build's list of engine files (dist/engine-assets.json, written by build/engine-assets.ts) and
 * what the service worker, the About page and the tool window read from it. Pure data and
 * functions: it runs in the page, in the service worker and in Node (the build).
 *
 * Every file is in one group:
 *   core         cached in the background after the first visit (every tool's engine, WASM, pdf.js
 *                data, English OCR);
 *   cjk-fonts    the Chinese, Japanese and Korean fonts, used only for text in those scripts;
 *   symbol-fonts the emoji and symbol fonts, used only for those characters;
 *   rtl-fonts    the Arabic and Hebrew fonts, used only for text in those scripts;
 *   ocr-<code>   an optional OCR language;
 *   libreoffice  the optional LibreOffice engine.
 * The optional groups are cached when first used, or with one click on the About page.
 */
import { formatBytes } from '../../shared/format.ts';

export type EngineGroup = 'core' | 'cjk-fonts' | 'symbol-fonts' | 'rtl-fonts' | 'libreoffice' | `ocr-${string}`;

export interface EngineFile {
  /** Path on our origin, e.g. /assets/engine/qpdf-C3Giu3T4.wasm. */
  url: string;
  /** Size of the file itself (what is stored; the download is smaller when compressed). */
  bytes: number;
  group: EngineGroup;
}

export interface EngineAssetList {
  /** A hash of every file name and size: changes when any engine file changes. */
  version: string;
  files: EngineFile[];
  /** Bytes of the core group: what background caching stores. */
  totalBytes: number;
  /** Per file tool: indexes into `files` of the core files its engine needs to run. */
  tools: Record<string, number[]>;
}

/** The cache every engine file goes into. The suffix is the layout's version (older ones are deleted). */
export const ENGINE_CACHE = 'folio-engines-v2';
export const ENGINE_CACHE_PREFIX = 'folio-engines-';

/**
 * The Noto Sans SC and KR fonts, kept out of the core set: 33 MB, needed only for Chinese, Japanese and
 * Korean text.
 */
export const CJK_FONT_FILE = /\/NotoSans(SC|KR)_[^/]*\.ttf$/;

/** Noto Emoji and Noto Sans Symbols 2, kept out of the core set: 2.1 MB, needed only for those characters. */
export const SYMBOL_FONT_FILE = /\/Noto(Emoji|SansSymbols2)_[^/]*\.ttf$/;

/** Noto Sans Arabic and Noto Sans Hebrew, kept out of the core set: needed only for text in those scripts. */
export const RTL_FONT_FILE = /\/NotoSans(Arabic|Hebrew)_[^/]*\.ttf$/;

export const GROUP_LABELS: Record<string, string> = {
  core: 'All tools',
  'cjk-fonts': 'Chinese, Japanese and Korean fonts',
  'symbol-fonts': 'Emoji and symbol fonts',
  'rtl-fonts': 'Arabic and Hebrew fonts',
  libreoffice: 'LibreOffice engine',
};

export function groupBytes(list: EngineAssetList, group: EngineGroup): number {
  return list.files.reduce((sum, file) => (file.group === group ? sum + file.bytes : sum), 0);
}

export function groupFiles(list: EngineAssetList, group: EngineGroup): EngineFile[] {
  return list.files.filter((file) => file.group === group);
}

/** The core files a tool needs; undefined for a tool without an engine of its own. */
export function toolFiles(list: EngineAssetList, toolId: string): EngineFile[] | undefined {
  return list.tools[toolId]?.map((index) => list.files[index]);
}

/** The message a tool shows when its engine is not on this device and the network is off. */
export function needsDownloadMessage(toolName: string, missingBytes: number): string {
  return (
    `${toolName} needs a one-time download of ${formatBytes(missingBytes)} — connect to the internet once, then ` +
    `it works offline.`
  );
}
