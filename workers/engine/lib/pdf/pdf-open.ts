/**
 * Opening a user's PDF the same way in every tool: empty files, images named .pdf and other
 * non-PDFs are refused with a clear message; encrypted files are decrypted with qpdf (asking for the
 * password when one is needed); damaged files are repaired with qpdf when it can, and refused
 * clearly when it cannot. What comes back is always an unencrypted PDF that pdf-lib can save.
 */
import { PDFArray, PDFCatalog, PDFDict, PDFDocument, PDFName, PDFRef, type PDFObject } from 'pdf-lib';
import { N } from './pdf-names.ts';
import type { EngineInput } from '../types.ts';
import {
  FolioError,
  cutShortPdf,
  damagedPdf,
  emptyFile,
  invalidPassword,
  notAPdf,
  passwordRequired,
} from '../errors.ts';
import { runQpdf } from './qpdf.ts';
import { passwordCandidates, toHex, typedPasswordProblem } from '../../../../shared/encryption-passwords.ts';
import { checkPageTree } from './page-tree.ts';
import { assertNoPdfBomb } from '../input-limits.ts';
import { reserveReferencedNumbers, savePdf } from './pdf-util.ts';
import { endsEarly, throughLastWholeObject } from './pdf-bytes.ts';
import { withRebuiltXref } from './xref-rebuild.ts';

export interface OpenedPdf {
  doc: PDFDocument;
  /**
   * The bytes `doc` was loaded from: the input itself, or its decrypted / repaired copy (for a file
   * that ended early, pdf-lib's rewrite of what was left).
   */
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

const certificateEncrypted = (name: string) =>
  new FolioError(
    'UnsupportedEncryption',
    `"${name}" is encrypted with a certificate, not a password — it cannot be unlocked here.`,
  );

/**
 * pdf-lib reads the trailer's /Root as a plain dictionary when it lacks `/Type /Catalog` (seen in
 * the wild), and then fails on every page call. Readers accept such files, so we mend the catalog.
 */
function mendCatalog(doc: PDFDocument): void {
  const root = doc.context.trailerInfo.Root;
  const catalog = doc.context.lookup(root);
  if (catalog instanceof PDFCatalog || !(catalog instanceof PDFDict) || !(root instanceof PDFRef)) return;
  const mended = PDFCatalog.fromMapWithContext(new Map(catalog.entries()), doc.context);
  mended.set(PDFName.of('Type'), PDFName.of('Catalog'));
  doc.context.assign(root, mended);
  (doc as { catalog: PDFCatalog }).catalog = mended;
}

/** Documents whose page tree had to be rebuilt (lib/page-tree.ts), with what was wrong. */
const rebuiltTrees = new WeakMap<PDFDocument, string[]>();

/** Loads with pdf-lib; `strict` refuses invalid objects (the signal that a qpdf repair is worth it). */
async function load(bytes: Uint8Array, strict: boolean, name: string): Promise<PDFDocument> {
  // parseSpeed Infinity: no pause for the event loop every 100 objects (pdf-lib's default), which
  // costs seconds on big files and buys nothing in a worker.
  const doc = await PDFDocument.load(bytes, {
    ignoreEncryption: true,
    throwOnInvalidObject: strict,
    updateMetadata: false,
    parseSpeed: Number.POSITIVE_INFINITY,
  });
  mendCatalog(doc);
  reserveReferencedNumbers(doc);
  // Before anything reads the pages: loops and wrong counts would overflow the stack later. (An
  // encrypted file's tree may sit in ciphertext object streams: it is checked once decrypted.)
  if (!doc.isEncrypted) {
    const { problems } = checkPageTree(doc, name);
    if (problems.length > 0) rebuiltTrees.set(doc, problems);
  }
  if (doc.getPageCount() === 0) throw new Error('no pages');
  return doc;
}

/** Collects the most telling damage a failed load found, to report when nothing else works. */
interface DamageSeen {
  error?: FolioError;
}

async function tryLoad(
  bytes: Uint8Array,
  strict: boolean,
  name: string,
  seen?: DamageSeen,
): Promise<PDFDocument | undefined> {
  try {
    return await load(bytes, strict, name);
  } catch (error) {
    if (seen && error instanceof FolioError) seen.error = error;
    return undefined;
  }
}

/** The bytes of a document whose page tree was rebuilt (so pdf.js and qpdf see the repair too). */
async function withRebuiltTree(opened: OpenedPdf): Promise<OpenedPdf> {
  if (!rebuiltTrees.has(opened.doc)) return opened;
  return { ...opened, bytes: await savePdf(opened.doc), wasRepaired: true };
}

/** What was wrong with the page tree of a document openPdf returned, when it had to be rebuilt. */
export function pageTreeRepairs(doc: PDFDocument): string[] {
  return rebuiltTrees.get(doc) ?? [];
}

/** Whether the bytes carry an /Encrypt entry, for files pdf-lib cannot parse at all. */
function mentionsEncrypt(bytes: Uint8Array): boolean {
  const window = 256 * 1024;
  const decoder = new TextDecoder('latin1');
  const head = decoder.decode(bytes.subarray(0, window));
  const tail = bytes.byteLength > window ? decoder.decode(bytes.subarray(bytes.byteLength - window)) : '';
  return /\/Encrypt\b/.test(head) || /\/Encrypt\b/.test(tail);
}

/** Decrypts with qpdf. An empty password is tried first: owner-only files open without asking. */
async function decrypt(input: EngineInput): Promise<Uint8Array> {
  const tooLong = typedPasswordProblem(input.password ?? '');
  if (tooLong) throw new FolioError('InvalidInput', tooLong);
  // Every byte form the password may be stored in (SASLprep'd UTF-8 for R6, PDFDocEncoding or
  // Latin-1 for R2–R4; see encryption-passwords.ts), handed over as hex: the WASM qpdf's own
  // fallback for non-ASCII R2–R4 passwords does not work ('æøå' on an R4 file was refused).
  const candidates = input.password ? passwordCandidates(input.password) : [new Uint8Array()];
  const invalid = (stderr: string) => /invalid password/i.test(stderr);
  const attempt = (source: Uint8Array, candidate: Uint8Array) =>
    runQpdf(['--password-mode=hex-bytes', `--password=${toHex(candidate)}`, '--decrypt', '/in.pdf', '/out.pdf'], {
      inputs: { '/in.pdf': source },
      outputs: ['/out.pdf'],
    });
  let source = input.bytes;
  let result = undefined as unknown as Awaited<ReturnType<typeof runQpdf>>;
  for (const candidate of candidates) {
    result = await attempt(source, candidate);
    // Damage qpdf's WebAssembly build cannot repair: once more with the table rebuilt from the objects.
    const rebuilt =
      result.exitCode === 2 && !invalid(result.stderr) && source === input.bytes && withRebuiltXref(source);
    if (rebuilt) {
      source = rebuilt;
      result = await attempt(source, candidate);
    }
    const out = result.files['/out.pdf'];
    if (out && result.exitCode !== 2) return out;
    if (!invalid(result.stderr)) break;
  }
  if (invalid(result.stderr)) {
    throw input.password ? invalidPassword() : passwordRequired(input.name);
  }
  // qpdf knows only the Standard (password) handler; the other filters in use are the public-key
  // (certificate) handlers, Adobe.PubSec and kin, whose dictionary is often hidden in an object stream.
  if (/PubSec|public.?key|certificate|unsupported encryption filter/i.test(result.stderr))
    throw certificateEncrypted(input.name);
  if (/unsupported|security handler|encryption/i.test(result.stderr)) {
    throw new FolioError('UnsupportedEncryption', `"${input.name}" uses an encryption Folio cannot open.`);
  }
  throw damagedPdf(input.name);
}

/** Rewrites the file with qpdf, which mends what it can read with warnings (undefined when it cannot). */
async function repairWithQpdf(bytes: Uint8Array): Promise<Uint8Array | undefined> {
  const rewrite = async (source: Uint8Array) => {
    const result = await runQpdf(['/in.pdf', '/out.pdf'], { inputs: { '/in.pdf': source }, outputs: ['/out.pdf'] });
    return result.exitCode === 2 ? undefined : result.files['/out.pdf'];
  };
  const written = await rewrite(bytes);
  if (written) return written;
  // qpdf's WebAssembly build gives up where native qpdf rebuilds the cross-reference table: rebuilt here.
  const rebuilt = withRebuiltXref(bytes);
  return rebuilt ? rewrite(rebuilt) : undefined;
}

/**
 * A page whose content streams were cut off is left blank (without those streams), instead of
 * pointing at objects that are not there (which qpdf reports as an error in the result).
 */
function withoutLostContent(page: PDFDict): void {
  const { context } = page;
  const isLost = (value: PDFObject | undefined) => value instanceof PDFRef && context.lookup(value) === undefined;
  const contents = page.get(N.Contents);
  const list = context.lookup(contents);
  if (isLost(contents)) page.delete(N.Contents);
  else if (list instanceof PDFArray && list.asArray().some(isLost)) {
    page.set(N.Contents, context.obj(list.asArray().filter((value) => !isLost(value))));
  }
}

/** The pages pdf-lib finds; 0 when the document has no page tree (getPageCount throws then). */
function pageCountOf(doc: PDFDocument): number {
  try {
    return doc.getPageCount();
  } catch {
    return 0;
  }
}

/** A PDF header followed by no object at all ("%PDF-1.3 This is not a valid PDF file"). */
function hasNoObjects(bytes: Uint8Array): boolean {
  if (bytes.byteLength > 1 << 20) return false;
  return !/\d+\s+\d+\s+obj\b/.test(new TextDecoder('latin1').decode(bytes));
}

/**
 * Loads bytes that are known not to be encrypted (any more): pdf-lib strict, else qpdf's repair,
 * else pdf-lib's own lenient recovery (which rebuilds files without an xref table that qpdf gives
 * up on — the pages it finds are the file's real pages, checked by the corpus suite).
 * A file that ends early (a download cut short: no cross-reference table or trailer) is read by
 * pdf-lib object by object, up to its last whole object, and `bytes` are then pdf-lib's rewrite:
 * neither pdf.js nor qpdf's WebAssembly build (which never rebuilds a cross-reference table) reads
 * the file as it is.
 */
async function loadOrRepair(
  name: string,
  bytes: Uint8Array,
): Promise<{ doc: PDFDocument; bytes: Uint8Array; repaired: boolean }> {
  const seen: DamageSeen = {};
  if (endsEarly(bytes)) {
    if (hasNoObjects(bytes)) throw notAPdf(name);
    const recovered =
      (await tryLoad(throughLastWholeObject(bytes), false, name, seen)) ?? (await tryLoad(bytes, false, name, seen));
    if (!recovered || pageCountOf(recovered) === 0) throw cutShortPdf(name);
    for (const page of recovered.getPages()) withoutLostContent(page.node);
    // The document is read again from its rewrite, so that it and its bytes match object for object.
    const rewritten = await savePdf(recovered);
    const doc = await tryLoad(rewritten, false, name, seen);
    if (!doc) throw cutShortPdf(name);
    return { doc, bytes: rewritten, repaired: true };
  }
  const strict = await tryLoad(bytes, true, name, seen);
  if (strict) return { doc: strict, bytes, repaired: false };
  const out = await repairWithQpdf(bytes);
  if (out) {
    const repaired = (await tryLoad(out, true, name, seen)) ?? (await tryLoad(out, false, name, seen));
    // qpdf may "repair" a file whose root it cannot find into one without pages (exit 3, warnings);
    // pdf-lib's lenient recovery below then finds the pages that are there.
    if (repaired && pageCountOf(repaired) > 0) return { doc: repaired, bytes: out, repaired: true };
  }
  if (hasNoObjects(bytes)) throw notAPdf(name);
  const lenient = await tryLoad(bytes, false, name, seen);
  if (lenient) return { doc: lenient, bytes, repaired: true };
  throw seen.error?.name === 'DamagedPdf' ? seen.error : damagedPdf(name);
}

export async function openPdf(input: EngineInput): Promise<OpenedPdf> {
  return withRebuiltTree(await openPdfAsIs(input));
}

async function openPdfAsIs(input: EngineInput): Promise<OpenedPdf> {
  assertLooksLikePdf(input);
  const strict = await tryLoad(input.bytes, true, input.name);
  // (A file that ends early may load, but pdf.js and qpdf cannot read it: loadOrRepair rewrites it.)
  if (strict && !strict.isEncrypted && !endsEarly(input.bytes))
    return { doc: strict, bytes: input.bytes, wasEncrypted: false, wasRepaired: false };

  // Encrypted? pdf-lib's strict load fails on many encrypted files (their strings and object
  // streams are ciphertext), so ask a lenient load, and as a last resort look for /Encrypt.
  const probe = strict ?? (await tryLoad(input.bytes, false, input.name));
  const encrypted = probe ? probe.isEncrypted : mentionsEncrypt(input.bytes);
  if (encrypted) {
    const filter = probe ? encryptionFilter(probe) : undefined;
    if (filter && filter !== 'Standard') {
      if (/PubSec/i.test(filter)) throw certificateEncrypted(input.name);
      throw new FolioError(
        'UnsupportedEncryption',
        `"${input.name}" uses an encryption Folio cannot open (${filter}).`,
      );
    }
    const decrypted = await decrypt(input);
    // Its streams were ciphertext when the inputs were checked (lib/input-limits.ts): check them now.
    await assertNoPdfBomb(input.name, decrypted);
    const { doc, bytes } = await loadOrRepair(input.name, decrypted);
    return { doc, bytes, wasEncrypted: true, wasRepaired: false };
  }
  const { doc, bytes, repaired } = await loadOrRepair(input.name, input.bytes);
  return { doc, bytes, wasEncrypted: false, wasRepaired: repaired };
}
