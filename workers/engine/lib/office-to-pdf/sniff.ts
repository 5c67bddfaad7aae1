/**
 * What kind of Office file the bytes are, from their content rather than their name, so a
 * password-protected, legacy or damaged file — or one given to the wrong tool — gets a clear
 * message instead of a parser crash. OOXML packages are told apart by their main part, OpenDocument
 * packages by their `mimetype` file (or the manifest's root media type), RTF by its `{\rtf` start.
 */
import JSZip from 'jszip';
import { FolioError } from '../errors.ts';
import { attr, findAll, parseXml } from './xml.ts';

export type OfficeKind = 'docx' | 'xlsx' | 'pptx' | 'csv';
/** The three Office tools, named by their main format. */
export type OfficeTool = Exclude<OfficeKind, 'csv'>;
export type DocumentKind = OfficeTool | 'odt' | 'ods' | 'odp' | 'rtf';

export type OfficeInput = { kind: 'docx' | 'xlsx' | 'pptx' | 'odt' | 'ods' | 'odp'; zip: JSZip } | { kind: 'rtf' };

const OOXML_MAIN: Record<OfficeTool, string> = {
  docx: 'word/document.xml',
  xlsx: 'xl/workbook.xml',
  pptx: 'ppt/presentation.xml',
};
const LEGACY: Record<OfficeTool, string> = { docx: '.doc', xlsx: '.xls', pptx: '.ppt' };
const MODERN: Record<OfficeTool, string> = { docx: '.docx', xlsx: '.xlsx', pptx: '.pptx' };
const TOOL_NAME: Record<OfficeTool, string> = { docx: 'Word to PDF', xlsx: 'Excel to PDF', pptx: 'PowerPoint to PDF' };
/** Which tool reads each format. */
const TOOL_OF: Record<DocumentKind, OfficeTool> = {
  docx: 'docx',
  odt: 'docx',
  rtf: 'docx',
  xlsx: 'xlsx',
  ods: 'xlsx',
  pptx: 'pptx',
  odp: 'pptx',
};
const ODF_KINDS: Record<string, { kind?: 'odt' | 'ods' | 'odp'; label: string }> = {
  'application/vnd.oasis.opendocument.text': { kind: 'odt', label: 'an OpenDocument text (.odt)' },
  'application/vnd.oasis.opendocument.text-template': { kind: 'odt', label: 'an OpenDocument text template (.ott)' },
  'application/vnd.oasis.opendocument.spreadsheet': { kind: 'ods', label: 'an OpenDocument spreadsheet (.ods)' },
  'application/vnd.oasis.opendocument.spreadsheet-template': {
    kind: 'ods',
    label: 'an OpenDocument spreadsheet template (.ots)',
  },
  'application/vnd.oasis.opendocument.presentation': { kind: 'odp', label: 'an OpenDocument presentation (.odp)' },
  'application/vnd.oasis.opendocument.presentation-template': {
    kind: 'odp',
    label: 'an OpenDocument presentation template (.otp)',
  },
  'application/vnd.oasis.opendocument.graphics': { label: 'an OpenDocument drawing (.odg)' },
  'application/vnd.oasis.opendocument.formula': { label: 'an OpenDocument formula (.odf)' },
  'application/vnd.oasis.opendocument.chart': { label: 'an OpenDocument chart (.odc)' },
  'application/vnd.oasis.opendocument.text-master': { label: 'an OpenDocument master document (.odm)' },
  'application/vnd.oasis.opendocument.database': { label: 'an OpenDocument database (.odb)' },
};
const ACCEPTED: Record<OfficeTool, string[]> = {
  docx: ['.docx', '.odt', '.rtf'],
  xlsx: ['.xlsx', '.ods'],
  pptx: ['.pptx', '.odp'],
};

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

function containsUtf16(bytes: Uint8Array, text: string): boolean {
  const needle = Array.from(text).flatMap((c) => [c.charCodeAt(0), 0]);
  outer: for (let i = 0; i + needle.length <= Math.min(bytes.length, 1 << 20); i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** Stream names (UTF-16 in the OLE directory) that mark each legacy binary format. */
const LEGACY_STREAMS: Record<OfficeTool, string[]> = {
  docx: ['WordDocument'],
  xlsx: ['Workbook', 'Book'],
  pptx: ['PowerPoint Document'],
};

/**
 * An OLE compound file (legacy binary Office, or any Office file saved with a password): 'encrypted'
 * when it holds an EncryptionInfo stream, else the legacy format its streams name (.doc → 'docx',
 * .xls → 'xlsx', .ppt → 'pptx'), 'other' when none is named in its first megabyte (where the
 * directory usually is, but not always); undefined for anything that is not an OLE file. The legacy formats are read by
 * the LibreOffice engine only.
 */
export function oleKind(bytes: Uint8Array): OfficeTool | 'encrypted' | 'other' | undefined {
  if (!startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) return undefined;
  if (containsUtf16(bytes, 'EncryptionInfo')) return 'encrypted';
  return (
    (Object.keys(LEGACY_STREAMS) as OfficeTool[]).find((tool) =>
      LEGACY_STREAMS[tool].some((name) => containsUtf16(bytes, name)),
    ) ?? 'other'
  );
}

/** ".doc", ".xls", ".ppt": the legacy extension for a tool. */
export const legacyExtension = (tool: OfficeTool) => LEGACY[tool];
export const toolName = (tool: OfficeTool) => TOOL_NAME[tool];

/** The format the user meant, from the file name when it is one this tool reads (for "is not a … file"). */
function expectedLabel(name: string, tool: OfficeTool): string {
  const extension = /\.[a-z]+$/i.exec(name)?.[0].toLowerCase();
  return extension && ACCEPTED[tool].includes(extension) ? extension : MODERN[tool];
}

/**
 * The package with its entries named with forward slashes and the standard case for the main parts:
 * some writers store "xl\\workbook.xml" or "[content_types].xml", which Office and LibreOffice read.
 */
function withForwardSlashes(zip: JSZip): JSZip {
  const names = Object.keys(zip.files);
  const canonical = new Map(['[Content_Types].xml', ...Object.values(OOXML_MAIN)].map((n) => [n.toLowerCase(), n]));
  const renamed = (name: string) => {
    const slashed = name.replace(/\\/g, '/');
    return canonical.get(slashed.toLowerCase()) ?? slashed;
  };
  if (names.every((name) => renamed(name) === name)) return zip;
  const out = new JSZip();
  for (const name of names) {
    const entry = zip.files[name];
    if (entry.dir) continue;
    // (Entries stay compressed as they are; nothing is read until a part is asked for.)
    out.file(renamed(name), entry.async('uint8array'));
  }
  return out;
}

/**
 * Opens a file for one of the Office tools: an OOXML or OpenDocument package of a kind that tool
 * reads, or an RTF document (Word to PDF). Anything else throws a FolioError saying what is wrong.
 */
export async function openOfficeInput(name: string, bytes: Uint8Array, tool: OfficeTool): Promise<OfficeInput> {
  if (bytes.byteLength === 0) throw new FolioError('InvalidInput', `"${name}" is empty (0 bytes).`);
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    if (containsUtf16(bytes, 'EncryptionInfo')) {
      throw new FolioError(
        'InvalidInput',
        `"${name}" is protected with a password. Remove the password in Office, save, and try again.`,
      );
    }
    // Legacy binary files of the right kind go to the LibreOffice engine before this (the Office
    // tools' engines); here they are only refused when they are for another tool or of another kind.
    const kind = oleKind(bytes);
    if (kind && kind !== 'other' && kind !== 'encrypted' && kind !== tool)
      throw new FolioError(
        'InvalidInput',
        `"${name}" is an old-style ${LEGACY[kind]} file: use the ${TOOL_NAME[kind]} tool.`,
      );
    throw new FolioError(
      'InvalidInput',
      `"${name}" is an old-style ${LEGACY[tool]} file, which Folio's built-in engine cannot read. Choose the ` +
        `LibreOffice engine, or save it as ${MODERN[tool]} and try again.`,
    );
  }
  if (startsWith(bytes, [0x7b, 0x5c, 0x72, 0x74, 0x66])) {
    if (tool !== 'docx')
      throw new FolioError('InvalidInput', `"${name}" is an RTF document: use the Word to PDF tool.`);
    return { kind: 'rtf' };
  }
  if (!startsWith(bytes, [0x50, 0x4b]))
    throw new FolioError('InvalidInput', `"${name}" is not a ${expectedLabel(name, tool)} file.`);
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw new FolioError('InvalidInput', `"${name}" is damaged: its package could not be opened.`);
  }
  zip = withForwardSlashes(zip);

  // OpenDocument: the mimetype file, else the manifest's entry for the package root.
  const mimetypeFile = zip.file('mimetype');
  let mediaType = mimetypeFile ? (await mimetypeFile.async('string')).trim() : undefined;
  const manifestFile = zip.file('META-INF/manifest.xml');
  const manifest = manifestFile && !zip.file(OOXML_MAIN[tool]) ? await manifestFile.async('string') : undefined;
  if (manifest && !mediaType?.includes('opendocument')) {
    try {
      mediaType =
        attr(
          findAll(parseXml(manifest), 'manifest:file-entry').find((entry) => attr(entry, 'manifest:full-path') === '/'),
          'manifest:media-type',
        ) ?? mediaType;
    } catch {
      /* a malformed manifest: judged by the parts below */
    }
  }
  if (mediaType?.includes('opendocument')) {
    const odf = ODF_KINDS[mediaType] ?? { label: 'an OpenDocument file of a kind Folio does not print' };
    if (
      manifest?.includes('encryption-data') ||
      (manifestFile && (await manifestFile.async('string')).includes('encryption-data'))
    ) {
      throw new FolioError(
        'InvalidInput',
        `"${name}" is protected with a password. Remove the password in LibreOffice (File ▸ Properties ▸ ` +
          `Security, or save without "Save with password"), and try again.`,
      );
    }
    if (!odf.kind) throw new FolioError('InvalidInput', `"${name}" is ${odf.label}, which Folio cannot convert here.`);
    if (TOOL_OF[odf.kind] !== tool)
      throw new FolioError('InvalidInput', `"${name}" is ${odf.label}: use the ${TOOL_NAME[TOOL_OF[odf.kind]]} tool.`);
    if (!zip.file('content.xml')) throw new FolioError('InvalidInput', `"${name}" is damaged: content.xml is missing.`);
    return { kind: odf.kind, zip };
  }

  if (!zip.file(OOXML_MAIN[tool])) {
    const actual = (Object.keys(OOXML_MAIN) as OfficeTool[]).find((kind) => zip.file(OOXML_MAIN[kind]));
    if (actual)
      throw new FolioError('InvalidInput', `"${name}" is a ${MODERN[actual]} file: use the ${TOOL_NAME[actual]} tool.`);
    if (zip.file('content.xml'))
      throw new FolioError('InvalidInput', `"${name}" is damaged: its OpenDocument mimetype is missing.`);
    throw new FolioError('InvalidInput', `"${name}" is damaged: ${OOXML_MAIN[tool]} is missing.`);
  }
  return { kind: tool, zip };
}

/** Opens an OOXML package of the expected kind, or throws a FolioError that says what is wrong. */
export async function openOfficePackage(name: string, bytes: Uint8Array, expected: OfficeTool): Promise<JSZip> {
  const input = await openOfficeInput(name, bytes, expected);
  if (input.kind !== expected) {
    throw new FolioError(
      'InvalidInput',
      input.kind === 'rtf'
        ? `"${name}" is an RTF document, which this step cannot read.`
        : `"${name}" is an OpenDocument file, which this step cannot read.`,
    );
  }
  return (input as { zip: JSZip }).zip;
}
