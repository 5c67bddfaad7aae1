/**
 * Test-only: saves an OOXML package "with a password" the way Office 2010+ does (MS-OFFCRYPTO agile
 * encryption: AES-256-CBC, SHA-512 by default, 4096-byte segments, data integrity HMAC), in an OLE
 * container written with cfb. Written from the specification, apart from the decryptor, with WebCrypto
 * only; the knobs make hostile variants (absurd spin counts, a cut package).
 */
import CFB from 'cfb';
import { createHash } from 'node:crypto';

const BLOCK = {
  verifierHashInput: [0xfe, 0xa7, 0xd2, 0x76, 0x3b, 0x4b, 0x9e, 0x79],
  verifierHashValue: [0xd7, 0xaa, 0x0f, 0x6d, 0x30, 0x61, 0x34, 0x4e],
  encryptedKeyValue: [0x14, 0x6e, 0x0b, 0xe7, 0xab, 0xac, 0xd0, 0xd6],
  integrityKey: [0x5f, 0xb2, 0xad, 0x01, 0x0c, 0xb9, 0xe1, 0xf6],
  integrityValue: [0xa0, 0x67, 0x7f, 0x02, 0xb2, 0x2c, 0x84, 0x33],
};

export interface EncryptOptions {
  /** Hashing rounds written in the file (and used, unless `declaredSpinCount` lies). Office: 100,000. */
  spinCount?: number;
  /** A spin count to write in the XML instead of the one used (hostile files). */
  declaredSpinCount?: number;
  hash?: 'SHA-1' | 'SHA-512';
  /** Bytes cut from the end of the EncryptedPackage stream (a damaged file). */
  cutPackageBytes?: number;
}

const cat = (...parts: ArrayLike<number>[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};
const u32 = (n: number) => new Uint8Array(new Uint32Array([n]).buffer);
const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const padTo16 = (bytes: Uint8Array) => cat(bytes, new Uint8Array((16 - (bytes.length % 16)) % 16));

/** Node's own hash (not the engine's @noble/hashes, so that the two are checked against each other). */
async function hash(name: string, ...parts: ArrayLike<number>[]): Promise<Uint8Array> {
  return new Uint8Array(
    createHash(name.replace('-', '').toLowerCase())
      .update(cat(...parts))
      .digest(),
  );
}

/** AES-CBC of whole blocks; WebCrypto's PKCS#7 block at the end is dropped. */
async function aesCbc(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', new Uint8Array(key), 'AES-CBC', false, ['encrypt']);
  const out = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-CBC', iv: iv.slice(0, 16) }, k, new Uint8Array(data)),
  );
  return out.subarray(0, data.length);
}

/** The Office-style encrypted file (an OLE compound file) holding `plain` under `password`. */
export async function encryptOfficeAgile(
  plain: Uint8Array,
  password: string,
  options: EncryptOptions = {},
): Promise<Uint8Array> {
  const hashName = options.hash ?? 'SHA-512';
  const hashSize = hashName === 'SHA-1' ? 20 : 64;
  const spinCount = options.spinCount ?? 100_000;
  const keySalt = random(16);
  const passwordSalt = random(16);
  const secretKey = random(32);

  const pw = new Uint8Array(Array.from(password).flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8]));
  let h = await hash(hashName, passwordSalt, pw);
  for (let i = 0; i < spinCount; i++) h = await hash(hashName, u32(i), h);
  // A 20-byte SHA-1 hash is padded with 0x36 to the 32-byte key.
  const keyFor = async (block: number[]) =>
    cat(await hash(hashName, h, block), new Uint8Array(32).fill(0x36)).slice(0, 32);

  const verifierInput = random(16);
  const encryptedVerifierInput = await aesCbc(await keyFor(BLOCK.verifierHashInput), passwordSalt, verifierInput);
  const verifierHash = padTo16(await hash(hashName, verifierInput));
  const encryptedVerifierHash = await aesCbc(await keyFor(BLOCK.verifierHashValue), passwordSalt, verifierHash);
  const encryptedKey = await aesCbc(await keyFor(BLOCK.encryptedKeyValue), passwordSalt, secretKey);

  const segments: Uint8Array[] = [];
  for (let start = 0, i = 0; start < plain.length; start += 4096, i++) {
    const iv = await hash(hashName, keySalt, u32(i));
    segments.push(await aesCbc(secretKey, iv, padTo16(plain.subarray(start, start + 4096))));
  }
  let packageStream = cat(u32(plain.length), u32(0), ...segments);

  const hmacKey = random(hashSize);
  const hmac = await crypto.subtle.importKey('raw', hmacKey, { name: 'HMAC', hash: hashName }, false, ['sign']);
  const hmacValue = new Uint8Array(await crypto.subtle.sign('HMAC', hmac, packageStream));
  const ivFor = (block: number[]) => hash(hashName, keySalt, block);
  const encryptedHmacKey = await aesCbc(secretKey, await ivFor(BLOCK.integrityKey), padTo16(hmacKey));
  const encryptedHmacValue = await aesCbc(secretKey, await ivFor(BLOCK.integrityValue), padTo16(hmacValue));
  if (options.cutPackageBytes)
    packageStream = packageStream.subarray(0, packageStream.length - options.cutPackageBytes);

  const algorithm = hashName.replace('-', '');
  const params = (salt: Uint8Array) =>
    `saltSize="16" blockSize="16" keyBits="256" hashSize="${hashSize}" cipherAlgorithm="AES" ` +
    `cipherChaining="ChainingModeCBC" hashAlgorithm="${algorithm}" saltValue="${b64(salt)}"`;
  const xml =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n' +
    '<encryption xmlns="http://schemas.microsoft.com/office/2006/encryption" ' +
    'xmlns:p="http://schemas.microsoft.com/office/2006/keyEncryptor/password">' +
    `<keyData ${params(keySalt)}/>` +
    `<dataIntegrity encryptedHmacKey="${b64(encryptedHmacKey)}" encryptedHmacValue="${b64(encryptedHmacValue)}"/>` +
    '<keyEncryptors><keyEncryptor uri="http://schemas.microsoft.com/office/2006/keyEncryptor/password">' +
    `<p:encryptedKey spinCount="${options.declaredSpinCount ?? spinCount}" ${params(passwordSalt)} ` +
    `encryptedVerifierHashInput="${b64(encryptedVerifierInput)}" ` +
    `encryptedVerifierHashValue="${b64(encryptedVerifierHash)}" encryptedKeyValue="${b64(encryptedKey)}"/>` +
    '</keyEncryptor></keyEncryptors></encryption>';
  const info = cat([4, 0, 4, 0, 0x40, 0, 0, 0], new TextEncoder().encode(xml));

  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, '/EncryptionInfo', Buffer.from(info));
  CFB.utils.cfb_add(container, '/EncryptedPackage', Buffer.from(packageStream));
  return new Uint8Array(CFB.write(container, { type: 'buffer' }) as Buffer);
}
