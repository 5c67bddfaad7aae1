/**
 * Opens Office files saved with a password (MS-OFFCRYPTO): the OOXML package sits encrypted in an
 * OLE compound file, as the `EncryptedPackage` stream, described by the `EncryptionInfo` stream.
 * Two schemes are read: Agile encryption (Office 2010 and later: XML description, usually
 * AES-256 with SHA-512) and Standard encryption (Office 2007: binary header, AES-128 with SHA-1).
 *
 * Excel encrypts a workbook whose structure is protected, or that recommends read-only, with its
 * built-in password "VelvetSweatshop", and opens it without asking: so is every such file here,
 * before any password the user gave.
 *
 * All cryptography is WebCrypto (crypto.subtle, in browsers and Node). WebCrypto's AES-CBC always
 * expects PKCS#7 padding, which these streams do not carry: see cbcDecryptRaw for the way round.
 */
import CFB from 'cfb';
import { sha1 } from '@noble/hashes/legacy.js';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js';
import { FolioError, invalidPassword, passwordRequired, throwIfAborted } from '../errors.ts';
import type { PDFDocument } from 'pdf-lib';
import type { EngineContext, EngineInput, EngineResult } from '../types.ts';
import { baseName } from '../../../../shared/format.ts';

/** Cancellation and progress: the hashing rounds report as they go (a job's watchdog needs to hear from it). */
type Ctx = Pick<EngineContext, 'signal' | 'progress'>;
import { guardInputs } from '../input-limits.ts';
import { oleKind } from './sniff.ts';
import { attr, find, parseXml, type XmlElement } from './xml.ts';

/** Excel's built-in password for workbooks encrypted without one the user chose. */
export const EXCEL_DEFAULT_PASSWORD = 'VelvetSweatshop';

/**
 * The most hashing rounds a file may ask for. Office writes 100,000; a much larger count only makes
 * the job hang (every round is one hash), so such a file is refused with a message instead.
 */
export const MAX_SPIN_COUNT = 10_000_000;

/** Agile: the size of the pieces the package is encrypted in, each with its own IV. */
const SEGMENT_BYTES = 4096;

/** The block keys of MS-OFFCRYPTO 2.3.4.13 (agile key derivation) and 2.3.4.14 (data integrity). */
const BLOCK_KEY = {
  verifierHashInput: [0xfe, 0xa7, 0xd2, 0x76, 0x3b, 0x4b, 0x9e, 0x79],
  verifierHashValue: [0xd7, 0xaa, 0x0f, 0x6d, 0x30, 0x61, 0x34, 0x4e],
  encryptedKeyValue: [0x14, 0x6e, 0x0b, 0xe7, 0xab, 0xac, 0xd0, 0xd6],
  integrityKey: [0x5f, 0xb2, 0xad, 0x01, 0x0c, 0xb9, 0xe1, 0xf6],
  integrityValue: [0xa0, 0x67, 0x7f, 0x02, 0xb2, 0x2c, 0x84, 0x33],
};

/**
 * A hash algorithm: WebCrypto's name (for HMAC) and a synchronous implementation. The password is
 * hashed 100,000 times over (spunHash): one awaited crypto.subtle.digest per round cost 10 s in
 * Node and more in a browser, where each call is a task of its own; @noble/hashes does it in a
 * fraction of a second.
 */
type Hash = { name: string; bytes: number; hash: (bytes: Uint8Array) => Uint8Array };

const SHA1: Hash = { name: 'SHA-1', bytes: 20, hash: sha1 };
const SHA256: Hash = { name: 'SHA-256', bytes: 32, hash: sha256 };
const SHA384: Hash = { name: 'SHA-384', bytes: 48, hash: sha384 };
const SHA512: Hash = { name: 'SHA-512', bytes: 64, hash: sha512 };

/** The hash algorithms the agile XML may name (MD5 and RIPEMD are not offered). */
const HASHES: Record<string, Hash> = {
  SHA1,
  'SHA-1': SHA1,
  SHA256,
  'SHA-256': SHA256,
  SHA384,
  'SHA-384': SHA384,
  SHA512,
  'SHA-512': SHA512,
};

/** What the password, once checked, opens: the package's AES key and how its stream is laid out. */
type Scheme =
  | { kind: 'agile'; keyData: AgileKeyData; password: AgilePassword; integrity?: { key: Uint8Array; hmac: Uint8Array } }
  | { kind: 'standard'; header: StandardHeader };

interface AgileKeyData {
  salt: Uint8Array;
  blockSize: number;
  keyBytes: number;
  hash: Hash;
}
interface AgilePassword extends AgileKeyData {
  spinCount: number;
  verifierHashInput: Uint8Array;
  verifierHashValue: Uint8Array;
  encryptedKeyValue: Uint8Array;
}
interface StandardHeader {
  keyBytes: number;
  salt: Uint8Array;
  spinCount: number;
  encryptedVerifier: Uint8Array;
  verifierHashSize: number;
  encryptedVerifierHash: Uint8Array;
}

const damaged = (name: string, what: string) => new FolioError('InvalidInput', `"${name}" is damaged: ${what}.`);

function concat(...parts: ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function uint32le(value: number): Uint8Array {
  return new Uint8Array([value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff]);
}

function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    out[2 * i] = text.charCodeAt(i) & 0xff;
    out[2 * i + 1] = text.charCodeAt(i) >>> 8;
  }
  return out;
}

/** Truncated to `length`, or padded with `fill` up to it (MS-OFFCRYPTO's rule for keys and IVs). */
function fitted(bytes: Uint8Array, length: number, fill: number): Uint8Array {
  if (bytes.length >= length) return bytes.slice(0, length);
  const out = new Uint8Array(length).fill(fill);
  out.set(bytes);
  return out;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function base64(text: string | undefined): Uint8Array {
  if (!text) return new Uint8Array();
  const binary = atob(text.replace(/\s+/g, ''));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** WebCrypto wants an ArrayBuffer-backed view; a Node Buffer's pooled slice is copied. */
const own = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

function digest(hash: Hash, ...parts: ArrayLike<number>[]): Uint8Array {
  return hash.hash(concat(...parts));
}

/**
 * H0 = H(salt + password), then Hn = H(n + Hn-1) `spinCount` times (MS-OFFCRYPTO 2.3.4.7, 2.3.4.11):
 * the slow part of opening, on purpose. Checks for cancellation between slices of rounds.
 */
function spunHash(
  hash: Hash,
  salt: Uint8Array,
  password: string,
  spinCount: number,
  { signal, progress }: Ctx,
): Uint8Array {
  let h = digest(hash, salt, utf16le(password));
  const round = new Uint8Array(4 + hash.bytes);
  for (let i = 0; i < spinCount; i++) {
    round.set(uint32le(i), 0);
    round.set(h, 4);
    h = hash.hash(round);
    if ((i & 0x3fff) === 0) {
      throwIfAborted(signal);
      progress?.(i, spinCount, 'Opening the password-protected file…');
    }
  }
  return h;
}

async function aesKey(key: Uint8Array, usages: KeyUsage[]): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', own(key), 'AES-CBC', false, usages);
}

/**
 * AES-CBC decryption of whole blocks without padding. WebCrypto insists on PKCS#7 padding, so a
 * block is appended that decrypts to a full block of padding (16 × 0x10): it is that block
 * encrypted with the last cipher block as IV, which WebCrypto's own encryption makes.
 */
async function cbcDecryptRaw(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  if (data.length === 0) return new Uint8Array();
  const [encryptKey, decryptKey] = await Promise.all([aesKey(key, ['encrypt']), aesKey(key, ['decrypt'])]);
  const last = data.subarray(data.length - 16);
  const padding = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-CBC', iv: own(last) }, encryptKey, own(new Uint8Array(16).fill(16))),
  ).subarray(0, 16);
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-CBC', iv: own(fitted(iv, 16, 0)) },
    decryptKey,
    own(concat(data, padding)),
  );
  return new Uint8Array(plain);
}

/** AES-ECB decryption: one CBC pass with a zero IV, then each block's XOR with the previous cipher block undone. */
async function ecbDecrypt(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const out = await cbcDecryptRaw(key, new Uint8Array(16), data);
  for (let i = 16; i < out.length; i++) out[i] ^= data[i - 16];
  return out;
}

/** The two streams, or a FolioError: a container that cannot be read is damaged. */
function readContainer(name: string, bytes: Uint8Array): { info: Uint8Array; packageStream: Uint8Array } {
  let container;
  try {
    container = CFB.parse(bytes, { type: 'array' });
  } catch {
    throw damaged(name, 'its password-protected container could not be read');
  }
  const stream = (path: string) => {
    const entry = CFB.find(container, path);
    return entry?.content ? new Uint8Array(entry.content as ArrayLike<number>) : undefined;
  };
  const info = stream('/EncryptionInfo');
  const packageStream = stream('/EncryptedPackage');
  if (!info || info.length < 8) throw damaged(name, 'its encryption description is missing');
  if (!packageStream) {
    // Files protected by rights management (IRM) carry a package under another transform.
    throw new FolioError(
      'UnsupportedEncryption',
      `"${name}" is protected by rights management or an encryption Folio does not read. Open it in Office, ` +
        'remove the protection, save, and try again.',
    );
  }
  return { info, packageStream };
}

function checkedSpinCount(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw damaged(name, 'its encryption settings are invalid');
  if (value > MAX_SPIN_COUNT) {
    throw new FolioError(
      'InvalidInput',
      `"${name}" asks for ${value.toLocaleString('en-US')} rounds of password hashing (Office uses 100,000; ` +
        `Folio allows up to ${MAX_SPIN_COUNT.toLocaleString('en-US')}), so it was not opened.`,
    );
  }
  return value;
}

function agileParameters(name: string, element: XmlElement | undefined): AgileKeyData {
  const hash = HASHES[attr(element, 'hashAlgorithm') ?? ''];
  const cipher = attr(element, 'cipherAlgorithm');
  const chaining = attr(element, 'cipherChaining');
  if (!element) throw damaged(name, 'its encryption description is incomplete');
  if (!hash || cipher !== 'AES' || (chaining && chaining !== 'ChainingModeCBC')) {
    throw new FolioError(
      'UnsupportedEncryption',
      `"${name}" is encrypted with ${cipher ?? 'a cipher'}/${attr(element, 'hashAlgorithm') ?? 'a hash'}, which ` +
        'Folio does not read (it reads AES with SHA-1 or SHA-2). Save it again in a recent Office and try again.',
    );
  }
  const keyBits = Number(attr(element, 'keyBits'));
  const blockSize = Number(attr(element, 'blockSize'));
  if (![128, 192, 256].includes(keyBits) || blockSize !== 16)
    throw damaged(name, 'its encryption settings are invalid');
  return { salt: base64(attr(element, 'saltValue')), blockSize, keyBytes: keyBits / 8, hash };
}

/** The agile description (an XML document after the 8-byte version header). */
function readAgileInfo(
  name: string,
  info: Uint8Array,
): Omit<Extract<Scheme, { kind: 'agile' }>, 'integrity'> & {
  encryptedHmacKey: Uint8Array;
  encryptedHmacValue: Uint8Array;
} {
  let root: XmlElement;
  try {
    root = parseXml(new TextDecoder().decode(info.subarray(8)));
  } catch {
    throw damaged(name, 'its encryption description is not readable');
  }
  const keyData = agileParameters(name, find(root, 'keyData'));
  const encryptedKey = find(root, 'p:encryptedKey') ?? find(root, 'encryptedKey');
  if (!encryptedKey) {
    throw new FolioError(
      'UnsupportedEncryption',
      `"${name}" is encrypted for a certificate, not a password, which Folio cannot open.`,
    );
  }
  const password: AgilePassword = {
    ...agileParameters(name, encryptedKey),
    spinCount: checkedSpinCount(name, Number(attr(encryptedKey, 'spinCount'))),
    verifierHashInput: base64(attr(encryptedKey, 'encryptedVerifierHashInput')),
    verifierHashValue: base64(attr(encryptedKey, 'encryptedVerifierHashValue')),
    encryptedKeyValue: base64(attr(encryptedKey, 'encryptedKeyValue')),
  };
  const integrity = find(root, 'dataIntegrity');
  return {
    kind: 'agile',
    keyData,
    password,
    encryptedHmacKey: base64(attr(integrity, 'encryptedHmacKey')),
    encryptedHmacValue: base64(attr(integrity, 'encryptedHmacValue')),
  };
}

/** The standard description: flags, header size, EncryptionHeader, EncryptionVerifier (MS-OFFCRYPTO 2.3.4.5–6). */
function readStandardInfo(name: string, info: Uint8Array): StandardHeader {
  const view = new DataView(info.buffer, info.byteOffset, info.byteLength);
  if (info.length < 12) throw damaged(name, 'its encryption description is incomplete');
  const headerSize = view.getUint32(8, true);
  const header = 12;
  const verifier = header + headerSize;
  if (headerSize < 32 || verifier + 4 + 16 + 16 + 4 + 32 > info.length) {
    throw damaged(name, 'its encryption description is incomplete');
  }
  const algorithm = view.getUint32(header + 8, true);
  const keyBits = view.getUint32(header + 16, true);
  // 0x660E, 0x660F, 0x6610: AES-128, -192, -256 (0x6801 would be RC4, used by the old binary formats only).
  if (![0x660e, 0x660f, 0x6610].includes(algorithm) || ![128, 192, 256].includes(keyBits)) {
    throw new FolioError(
      'UnsupportedEncryption',
      `"${name}" is encrypted with a cipher Folio does not read (it reads AES). Save it again in a recent Office ` +
        'and try again.',
    );
  }
  const saltSize = view.getUint32(verifier, true);
  if (saltSize !== 16) throw damaged(name, 'its encryption settings are invalid');
  const salt = info.slice(verifier + 4, verifier + 20);
  return {
    keyBytes: keyBits / 8,
    salt,
    spinCount: 50_000,
    encryptedVerifier: info.slice(verifier + 20, verifier + 36),
    verifierHashSize: view.getUint32(verifier + 36, true),
    encryptedVerifierHash: info.slice(verifier + 40, verifier + 72),
  };
}

/** The standard key (2.3.4.7): the spun hash with block 0, stretched as CryptoAPI does; undefined when wrong. */
async function standardKey(header: StandardHeader, password: string, ctx: Ctx) {
  const spun = spunHash(SHA1, header.salt, password, header.spinCount, ctx);
  const final = digest(SHA1, spun, uint32le(0));
  const xored = (fill: number) => new Uint8Array(64).fill(fill).map((b, i) => (i < final.length ? b ^ final[i] : b));
  const derived = concat(digest(SHA1, xored(0x36)), digest(SHA1, xored(0x5c)));
  const key = derived.slice(0, header.keyBytes);
  const verifier = await ecbDecrypt(key, header.encryptedVerifier);
  const verifierHash = await ecbDecrypt(key, header.encryptedVerifierHash);
  const expected = digest(SHA1, verifier);
  return equalBytes(verifierHash.subarray(0, Math.min(header.verifierHashSize, 20)), expected) ? key : undefined;
}

/** The agile key (2.3.4.11–13): the key encrypted with the password, once the verifier agrees; undefined when wrong. */
async function agileKey(p: AgilePassword, password: string, ctx: Ctx) {
  const spun = spunHash(p.hash, p.salt, password, p.spinCount, ctx);
  const keyFor = (blockKey: number[]) => fitted(digest(p.hash, spun, blockKey), p.keyBytes, 0x36);
  const whole = (bytes: Uint8Array) => bytes.subarray(0, bytes.length - (bytes.length % 16));
  const [input, value] = await Promise.all([
    cbcDecryptRaw(keyFor(BLOCK_KEY.verifierHashInput), p.salt, whole(p.verifierHashInput)),
    cbcDecryptRaw(keyFor(BLOCK_KEY.verifierHashValue), p.salt, whole(p.verifierHashValue)),
  ]);
  const expected = digest(p.hash, input.subarray(0, p.salt.length));
  if (!equalBytes(value.subarray(0, p.hash.bytes), expected)) return undefined;
  const key = await cbcDecryptRaw(keyFor(BLOCK_KEY.encryptedKeyValue), p.salt, whole(p.encryptedKeyValue));
  return key.slice(0, p.keyBytes);
}

/** The declared plain size (8 bytes, little-endian) and the cipher text after it, checked against each other. */
function packageParts(name: string, stream: Uint8Array): { size: number; cipher: Uint8Array } {
  if (stream.length < 8) throw damaged(name, 'its encrypted content is missing');
  const view = new DataView(stream.buffer, stream.byteOffset, 8);
  const size = view.getUint32(0, true) + view.getUint32(4, true) * 2 ** 32;
  // Whole blocks only: bytes after the last one cannot be decrypted, and are not needed when the size fits.
  const cipher = stream.subarray(8, 8 + Math.floor((stream.length - 8) / 16) * 16);
  if (size === 0 || size > cipher.length) {
    throw damaged(name, 'its encrypted content is cut short');
  }
  return { size, cipher };
}

/** Agile: one CBC pass over the whole stream, then each segment's first block XORed with its own IV instead. */
async function decryptAgilePackage(key: Uint8Array, keyData: AgileKeyData, cipher: Uint8Array): Promise<Uint8Array> {
  const ivOf = (segment: number) =>
    fitted(digest(keyData.hash, keyData.salt, uint32le(segment)), keyData.blockSize, 0x36);
  const plain = await cbcDecryptRaw(key, ivOf(0), cipher);
  for (let start = SEGMENT_BYTES, segment = 1; start < cipher.length; start += SEGMENT_BYTES, segment++) {
    const iv = ivOf(segment);
    for (let i = 0; i < 16; i++) plain[start + i] ^= cipher[start - 16 + i] ^ iv[i];
  }
  return plain;
}

/** The data integrity check (2.3.4.14): HMAC of the whole EncryptedPackage stream. False when it disagrees. */
async function integrityHolds(
  key: Uint8Array,
  keyData: AgileKeyData,
  encrypted: { hmacKey: Uint8Array; hmacValue: Uint8Array },
  stream: Uint8Array,
): Promise<boolean> {
  if (encrypted.hmacKey.length === 0 || encrypted.hmacValue.length === 0) return true;
  const ivFor = (blockKey: number[]) => fitted(digest(keyData.hash, keyData.salt, blockKey), keyData.blockSize, 0x36);
  const whole = (bytes: Uint8Array) => bytes.subarray(0, bytes.length - (bytes.length % 16));
  const hmacKey = (await cbcDecryptRaw(key, ivFor(BLOCK_KEY.integrityKey), whole(encrypted.hmacKey))).subarray(
    0,
    keyData.hash.bytes,
  );
  const expected = (await cbcDecryptRaw(key, ivFor(BLOCK_KEY.integrityValue), whole(encrypted.hmacValue))).subarray(
    0,
    keyData.hash.bytes,
  );
  const hmac = await crypto.subtle.importKey('raw', own(hmacKey), { name: 'HMAC', hash: keyData.hash.name }, false, [
    'sign',
  ]);
  return equalBytes(new Uint8Array(await crypto.subtle.sign('HMAC', hmac, own(stream))), expected);
}

/**
 * The key of the first candidate password that opens the file. One at a time: the spin rounds are
 * synchronous, so trying Excel's built-in password first spares the typed one's rounds when it opens.
 */
async function firstKey(
  candidates: string[],
  keyOf: (candidate: string) => Promise<Uint8Array | undefined>,
  ctx: Ctx,
): Promise<Uint8Array | undefined> {
  for (const candidate of candidates) {
    const key = await keyOf(candidate);
    throwIfAborted(ctx.signal);
    if (key) return key;
  }
  return undefined;
}

/** The decrypted OOXML package, and a note when its integrity check disagreed. */
export interface DecryptedOffice {
  bytes: Uint8Array;
  note?: string;
}

/**
 * Decrypts a password-protected Office file: Excel's built-in password first, then `password`.
 * Throws PasswordRequired when neither was given nor opens it, 'Invalid Password' when the one
 * given is wrong, and InvalidInput ("damaged") for a container or stream that cannot be read.
 */
export async function decryptOfficeFile(
  name: string,
  bytes: Uint8Array,
  password: string | undefined,
  ctx: Ctx = {},
): Promise<DecryptedOffice> {
  const { info, packageStream } = readContainer(name, bytes);
  const major = info[0] | (info[1] << 8);
  const minor = info[2] | (info[3] << 8);
  const candidates = [EXCEL_DEFAULT_PASSWORD, ...(password !== undefined ? [password] : [])];
  const agileVersion = major === 4 && minor === 4;
  if (!agileVersion && !((major === 3 || major === 4) && minor === 2)) {
    throw new FolioError(
      'UnsupportedEncryption',
      `"${name}" uses an encryption Folio does not read (version ${major}.${minor}). Open it in Office, save it ` +
        'again, and try again.',
    );
  }
  const { size, cipher } = packageParts(name, packageStream);
  if (agileVersion) {
    const agile = readAgileInfo(name, info);
    const key = await firstKey(candidates, (candidate) => agileKey(agile.password, candidate, ctx), ctx);
    if (key) {
      const plain = (await decryptAgilePackage(key, agile.keyData, cipher)).slice(0, size);
      const hmac = { hmacKey: agile.encryptedHmacKey, hmacValue: agile.encryptedHmacValue };
      const intact = await integrityHolds(key, agile.keyData, hmac, packageStream);
      return {
        bytes: plain,
        note: intact ? undefined : 'The file\u2019s integrity check failed: its content may have been altered.',
      };
    }
  } else {
    const header = readStandardInfo(name, info);
    const key = await firstKey(candidates, (candidate) => standardKey(header, candidate, ctx), ctx);
    if (key) return { bytes: (await ecbDecrypt(key, cipher)).slice(0, size) };
  }
  throw password === undefined ? passwordRequired(name) : invalidPassword();
}

/**
 * The input as the Office tools read it: a password-protected file decrypted (with Excel's
 * built-in password, else `input.password`), anything else as it is. The decrypted bytes live
 * only in the returned object, for this job.
 */
export async function openProtectedOffice(
  input: EngineInput,
  ctx: Ctx,
): Promise<{ input: EngineInput; notes: string[] }> {
  if (oleKind(input.bytes) !== 'encrypted') return { input, notes: [] };
  const decrypted = await decryptOfficeFile(input.name, input.bytes, input.password, ctx);
  // The package was out of sight of the inputs' guard (it checks ZIPs before the engine runs).
  await guardInputs([{ name: input.name, bytes: decrypted.bytes }]);
  return { input: { ...input, bytes: decrypted.bytes }, notes: decrypted.note ? [decrypted.note] : [] };
}

/** A result with the notes from opening the file (the integrity warning) before its own. */
export function withOpeningNotes(result: EngineResult, notes: string[]): EngineResult {
  return notes.length ? { ...result, notes: [...notes, ...(result.notes ?? [])] } : result;
}

/** The PDF an Office renderer drew, its notes in one line, after the notes from opening the file. */
export async function renderedPdfResult(
  doc: PDFDocument,
  inputName: string,
  notes: string[],
  openingNotes: string[],
): Promise<EngineResult> {
  return withOpeningNotes(
    {
      bytes: await doc.save(),
      filename: `${baseName(inputName)}.pdf`,
      mime: 'application/pdf',
      notes: notes.length ? [`Note: ${notes.join('; ')}.`] : undefined,
    },
    openingNotes,
  );
}
