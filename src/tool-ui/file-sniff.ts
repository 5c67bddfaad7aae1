/**
 * What a picked file really is, read from its first bytes (never from its name), so a tool can
 * refuse a renamed file the moment it is chosen: "report.pdf is a PNG image — use JPG to PDF".
 * Pure and synchronous; the caller reads the head of the file (HEAD_BYTES).
 */
import type { FileToolEntry, ToolId } from '../catalogue/types.ts';
import { findTool } from '../catalogue/index.ts';

/** Enough for the magic numbers and for the first entry names of an Office ZIP. */
export const HEAD_BYTES = 64 * 1024;

export interface SniffedType {
  /** How the type is said in a sentence: "a PNG image". */
  label: string;
  /** Extensions this content is rightly saved under; empty when the type is not known. */
  extensions: readonly string[];
  /** The tool that takes this kind of file, when Folio has one. */
  suggest?: ToolId;
}

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

function zipType(head: Uint8Array): SniffedType {
  // Entry names sit uncompressed in the local headers; OpenDocument stores its type as the first entry.
  const text = ascii(head, 0, Math.min(head.length, HEAD_BYTES));
  const odf = /mimetypeapplication\/vnd\.oasis\.opendocument\.(text|spreadsheet|presentation)/.exec(text)?.[1];
  if (odf === 'text' || text.includes('word/')) {
    return { label: 'a Word document', extensions: ['.docx', '.odt'], suggest: 'word-to-pdf' };
  }
  if (odf === 'spreadsheet' || text.includes('xl/')) {
    return { label: 'a spreadsheet', extensions: ['.xlsx', '.ods'], suggest: 'excel-to-pdf' };
  }
  if (odf === 'presentation' || text.includes('ppt/')) {
    return { label: 'a presentation', extensions: ['.pptx', '.odp'], suggest: 'ppt-to-pdf' };
  }
  return { label: 'a ZIP archive', extensions: ['.zip', '.docx', '.xlsx', '.pptx', '.odt', '.ods', '.odp'] };
}

function isText(head: Uint8Array): boolean {
  const sample = head.subarray(0, 1024);
  if (sample.length === 0) return false;
  let printable = 0;
  for (const b of sample) if (b === 9 || b === 10 || b === 13 || b >= 32) printable += 1;
  return !sample.includes(0) && printable / sample.length > 0.95;
}

/** The type of a file from its first bytes; `size` tells an empty file from an unknown one. */
export function sniffType(head: Uint8Array, size: number): SniffedType {
  if (size === 0) return { label: 'an empty file (0 bytes)', extensions: [] };
  // A PDF may carry a few bytes of junk before its header; readers accept it within the first KB.
  if (ascii(head, 0, Math.min(head.length, 1024)).includes('%PDF-')) {
    return { label: 'a PDF document', extensions: ['.pdf'] };
  }
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47])) {
    return { label: 'a PNG image', extensions: ['.png'], suggest: 'jpg-to-pdf' };
  }
  if (startsWith(head, [0xff, 0xd8, 0xff])) {
    return { label: 'a JPEG image', extensions: ['.jpg', '.jpeg'], suggest: 'jpg-to-pdf' };
  }
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') {
    return { label: 'a WebP image', extensions: ['.webp'], suggest: 'jpg-to-pdf' };
  }
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'avif' || brand === 'avis') {
      return { label: 'an AVIF image', extensions: ['.avif'], suggest: 'image-compressor' };
    }
    if (/^hei|^mif1/.test(brand)) return { label: 'a HEIC photo', extensions: ['.heic', '.heif'] };
    return { label: 'a video or audio file', extensions: ['.mp4', '.mov', '.m4a'] };
  }
  if (ascii(head, 0, 4) === 'GIF8') return { label: 'a GIF image', extensions: ['.gif'] };
  if (startsWith(head, [0x49, 0x49, 0x2a, 0]) || startsWith(head, [0x4d, 0x4d, 0, 0x2a])) {
    return { label: 'a TIFF image', extensions: ['.tif', '.tiff'] };
  }
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return zipType(head);
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0])) {
    return { label: 'an older Office file (.doc, .xls or .ppt)', extensions: ['.doc', '.xls', '.ppt'] };
  }
  if (ascii(head, 0, 5) === '{\\rtf') return { label: 'an RTF document', extensions: ['.rtf'], suggest: 'word-to-pdf' };
  if (isText(head)) return { label: 'a plain text file', extensions: ['.txt', '.csv', '.json', '.md'] };
  return { label: 'a file of an unknown type', extensions: [] };
}

/**
 * Why `tool` cannot take a file of this content, in words for the user, or null when it can.
 * A file of unknown type is left to the engine unless the tool takes only PDFs, whose header
 * every reader needs.
 */
export function refusalOf(tool: FileToolEntry, fileName: string, type: SniffedType): string | null {
  const accepted = tool.accepts.extensions;
  const name = fileName.toLowerCase();
  if (type.extensions.some((ext) => accepted.includes(ext))) {
    // Text is accepted only where a text format is (e.g. CSV by Excel to PDF) and under that name.
    if (type.label !== 'a plain text file' || accepted.some((ext) => name.endsWith(ext))) return null;
  }
  const onlyPdf = accepted.length === 1 && accepted[0] === '.pdf';
  if (type.extensions.length === 0 && type.label !== 'an empty file (0 bytes)' && !onlyPdf) return null;
  if (type.label === 'a file of an unknown type' && onlyPdf) {
    return (
      `"${fileName}" is not a PDF: it does not start like one ` +
      '(it may be damaged, or another kind of file renamed).'
    );
  }
  const suggested = type.suggest && type.suggest !== tool.id ? findTool(type.suggest) : undefined;
  return (
    `"${fileName}" is ${type.label}, not one of the files ${tool.name} takes (${tool.accepts.label})` +
    (suggested ? ` — use ${suggested.name}.` : '.')
  );
}
