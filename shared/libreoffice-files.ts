/**
 * Where the optional LibreOffice engine's files are served (our own origin, never a CDN), shared by
 * the build plugin (build/libreoffice-assets.ts) and the engine (libreoffice.ts). The folder carries
 * the package version: the service worker keeps /engine-data/ files cache-first, so a new LibreOffice
 * build must come under a new URL. The small files (the glue and our host worker) also carry a
 * revision, a hash of their content that the build defines as __LIBREOFFICE_REVISION__.
 */
import { formatBytes } from './format.ts';

export const LIBREOFFICE_PACKAGE = '@matbee/libreoffice-converter';
export const LIBREOFFICE_VERSION = '2.7.2';
export const LIBREOFFICE_BASE = `/engine-data/libreoffice/${LIBREOFFICE_VERSION}/`;

/** The files of LIBREOFFICE_BASE: Emscripten glue (patched), module, data package, our host worker, sizes. */
export const LIBREOFFICE_FILES = {
  glue: 'soffice.js',
  wasm: 'soffice.wasm',
  data: 'soffice.data',
  host: 'lo-host.js',
  sizes: 'sizes.json',
} as const;

/**
 * The engine's one download, soffice.wasm + soffice.data, in bytes: the one figure every label uses
 * (the tools' engine select, its error message, the About page). tests/unit/libreoffice.test.ts
 * checks it against the installed package; a new LIBREOFFICE_VERSION needs a new figure.
 */
export const LIBREOFFICE_DOWNLOAD_BYTES = 247_152_249;

/** "247 MB": how the download is named in labels. */
export const libreOfficeDownloadSize = () => formatBytes(LIBREOFFICE_DOWNLOAD_BYTES);

/**
 * The uncompressed sizes of the two big files, as written to sizes.json (progress needs totals under Content-Encoding).
 */
export interface LibreOfficeSizes {
  wasm: number;
  data: number;
}
