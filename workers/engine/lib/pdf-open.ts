/**
 * Opening a user's PDF the same way in every tool: empty files, images named .pdf and other
 * non-PDFs are refused with a clear message; encrypted files are decrypted with qpdf (asking for the
 * password when one is needed); damaged files are repaired with qpdf when it can, and refused
 * clearly when it cannot. What comes back is always an unencrypted PDF that pdf-lib can save.
 */
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import type { EngineInput } from './types.ts';
import { FolioError, damagedPdf, emptyFile, invalidPassword, notAPdf, passwordRequired } from './errors.ts';
import { runQpdf } from './qpdf.ts';

export interface OpenedPdf {
  doc: PDFDocument;
  /** The bytes `doc` was loaded from: the input itself, or its decrypted / repaired copy. */
  bytes: Uint8Array;
  wasEncrypted: boolean;
  wasRepaired: boolean;
}

const MAGIC: Array<[number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP or Office document'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0xd0, 0xcf, 0x11, 0xe0], 'an old-style Office document'],
];

/** Throws unless the bytes look like a PDF: '%PDF-' within the first 1 KB (as readers allow). */
export function assertLooksLikePdf(input: EngineInput): void {
  const { bytes, name } = input;
  if (bytes.byteLength === 0) throw emptyFile(name);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  if (head.includes('%PDF-')) return;
  const kind = MAGIC.find(([magic]) => magic.every((b, i) => bytes[i] === b));
  if (kind) throw new FolioError('InvalidPdf', `"${name}" is not a valid PDF: it is ${kind[1]}.`);
  throw notAPdf(name);
}

/** The /Filter of the trailer's /Encrypt dictionary, e.g. 'Standard' or 'Adobe.PubSec'. */
function encryptionFilter(doc: PDFDocument): string | undefined {
  const encrypt = doc.context.lookup(doc.context.trailerInfo.Encrypt);
  if (!(encrypt instanceof PDFDict)) return undefined;
  const filter = encrypt.lookup(PDFName.of('Filter'));
  return filter instanceof PDFName ? filter.decodeText() : undefined;
}

async function loadStrict(bytes: Uint8Array): Promise<PDFDocument> {
  const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, throwOnInvalidObject: true, updateMetadata: false });
  if (doc.getPageCount() === 0) throw new Error('no pages');
  return doc;
}

/** Decrypts with qpdf. An empty password is tried first: owner-only files open without asking. */
async function decrypt(input: EngineInput): Promise<Uint8Array> {
  const attempts = input.password ? [input.password] : [''];
  for (const password of attempts) {
    const result = await runQpdf([`--password=${password}`, '--decrypt', '/in.pdf', '/out.pdf'], {
      inputs: { '/in.pdf': input.bytes },
      outputs: ['/out.pdf'],
    });
    const out = result.files['/out.pdf'];
    if (out && result.exitCode !== 2) return out;
    if (/invalid password/i.test(result.stderr)) {
      throw input.password ? invalidPassword() : passwordRequired(input.name);
    }
    if (/unsupported|security handler/i.test(result.stderr)) break;
    throw damagedPdf(input.name);
  }
  throw new FolioError('UnsupportedEncryption', `"${input.name}" uses an encryption Folio cannot open.`);
}

/** Rewrites the file with qpdf, which reconstructs broken cross-reference tables and streams. */
async function repair(input: EngineInput, bytes: Uint8Array): Promise<Uint8Array> {
  const result = await runQpdf(['/in.pdf', '/out.pdf'], { inputs: { '/in.pdf': bytes }, outputs: ['/out.pdf'] });
  const out = result.files['/out.pdf'];
  if (!out) throw damagedPdf(input.name);
  return out;
}

export async function openPdf(input: EngineInput): Promise<OpenedPdf> {
  assertLooksLikePdf(input);
  let bytes = input.bytes;
  let wasEncrypted = false;
  let wasRepaired = false;

  let doc: PDFDocument | undefined;
  try {
    doc = await loadStrict(bytes);
  } catch {
    doc = undefined;
  }

  if (doc?.isEncrypted) {
    if (encryptionFilter(doc) === 'Adobe.PubSec') {
      throw new FolioError(
        'UnsupportedEncryption',
        `"${input.name}" is encrypted with a certificate, not a password — it cannot be unlocked here.`,
      );
    }
    bytes = await decrypt(input);
    wasEncrypted = true;
    doc = undefined;
  }

  if (!doc) {
    try {
      doc = await loadStrict(bytes);
    } catch {
      bytes = await repair(input, bytes);
      wasRepaired = !wasEncrypted;
      try {
        doc = await loadStrict(bytes);
      } catch {
        throw damagedPdf(input.name);
      }
    }
  }
  return { doc, bytes, wasEncrypted, wasRepaired };
}
