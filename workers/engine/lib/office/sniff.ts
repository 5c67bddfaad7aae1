/**
 * What kind of Office file the bytes are, from their content rather than their name, so a
 * password-protected, legacy or damaged file gets a clear message instead of a parser crash.
 */
import JSZip from 'jszip';
import { FolioError } from '../errors.ts';

export type OfficeKind = 'docx' | 'xlsx' | 'pptx' | 'csv';

const OOXML_MAIN: Record<Exclude<OfficeKind, 'csv'>, string> = { docx: 'word/document.xml', xlsx: 'xl/workbook.xml', pptx: 'ppt/presentation.xml' };
const LEGACY: Record<Exclude<OfficeKind, 'csv'>, string> = { docx: '.doc', xlsx: '.xls', pptx: '.ppt' };
const MODERN: Record<Exclude<OfficeKind, 'csv'>, string> = { docx: '.docx', xlsx: '.xlsx', pptx: '.pptx' };

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

/** Opens an OOXML package of the expected kind, or throws a FolioError that says what is wrong. */
export async function openOfficePackage(name: string, bytes: Uint8Array, expected: Exclude<OfficeKind, 'csv'>): Promise<JSZip> {
  if (bytes.byteLength === 0) throw new FolioError('InvalidInput', `"${name}" is empty (0 bytes).`);
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    if (containsUtf16(bytes, 'EncryptionInfo')) {
      throw new FolioError('InvalidInput', `"${name}" is protected with a password. Remove the password in Office, save, and try again.`);
    }
    throw new FolioError('InvalidInput', `"${name}" is an old-style ${LEGACY[expected]} file, which Folio cannot read yet. Save it as ${MODERN[expected]} and try again.`);
  }
  if (startsWith(bytes, [0x7b, 0x5c, 0x72, 0x74, 0x66])) {
    throw new FolioError('InvalidInput', `"${name}" is an RTF document, which Folio cannot read yet. Save it as .docx and try again.`);
  }
  if (!startsWith(bytes, [0x50, 0x4b])) throw new FolioError('InvalidInput', `"${name}" is not a ${MODERN[expected]} file.`);
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw new FolioError('InvalidInput', `"${name}" is damaged: its package could not be opened.`);
  }
  const mimetype = zip.file('mimetype');
  if (mimetype && (await mimetype.async('string')).includes('opendocument')) {
    throw new FolioError('InvalidInput', `"${name}" is an OpenDocument file, which Folio cannot read yet. Save it as ${MODERN[expected]} and try again.`);
  }
  if (!zip.file(OOXML_MAIN[expected])) {
    const actual = (Object.keys(OOXML_MAIN) as Array<Exclude<OfficeKind, 'csv'>>).find((kind) => zip.file(OOXML_MAIN[kind]));
    throw new FolioError('InvalidInput', actual ? `"${name}" is a ${MODERN[actual]} file: use the ${actual === 'docx' ? 'Word' : actual === 'xlsx' ? 'Excel' : 'PowerPoint'} to PDF tool.` : `"${name}" is damaged: ${OOXML_MAIN[expected]} is missing.`);
  }
  return zip;
}
