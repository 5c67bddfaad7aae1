/**
 * Office files saved with a password (workers/engine/lib/office-to-pdf/office-decrypt.ts): a .docx
 * made with `docx` and encrypted by the test-only agile encryptor (tests/support/office-encrypt.ts)
 * converts with its password and its text reads back with pdftotext; Excel's built-in password opens
 * silently; the corpus's agile (SHA-1) .docx, standard-encryption .xlsx and VelvetSweatshop workbook
 * convert; hostile containers fail with named errors.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import CFB from 'cfb';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import type { Engine } from '../../workers/engine/lib/types.ts';
import { MAX_SPIN_COUNT, decryptOfficeFile } from '../../workers/engine/lib/office-to-pdf/office-decrypt.ts';
import { encryptOfficeAgile } from '../support/office-encrypt.ts';
import { popplerText } from '../support/pdf.ts';
import { CORPUS_DIR, corpusPresent } from '../support/corpus.ts';
import { createApiServer } from '../../mock-api/node.ts';

const SENTENCE = 'Quarterly figures for the harbour office, kept under lock and key.';
const PASSWORD = 'Correct horse · 電池';

async function plainDocx(): Promise<Uint8Array> {
  const doc = new Document({ sections: [{ children: [new Paragraph({ children: [new TextRun(SENTENCE)] })] }] });
  return new Uint8Array(await Packer.toBuffer(doc));
}

const convert = (engine: Engine, name: string, bytes: Uint8Array, password?: string, options = {}) =>
  engine([{ name, bytes, password }], options, {});

/** The error a promise rejects with (name and message), for matching both. */
async function failure(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  throw new Error('expected a failure');
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('a .docx saved with a password (agile AES-256, SHA-512, 100,000 rounds)', () => {
  test('converts with its password; the PDF says what the document says', async () => {
    const encrypted = await encryptOfficeAgile(await plainDocx(), PASSWORD);
    expect(Array.from(encrypted.subarray(0, 4))).toEqual([0xd0, 0xcf, 0x11, 0xe0]);
    const result = await convert(wordToPdf, 'Locked report.docx', encrypted, PASSWORD);
    expect(result.filename).toBe('Locked report.pdf');
    expect(collapse(popplerText(result.bytes))).toContain(SENTENCE);
  });

  test('without a password: PasswordRequired; with a wrong one: exactly "Invalid Password"', async () => {
    const encrypted = await encryptOfficeAgile(await plainDocx(), PASSWORD, { spinCount: 1000 });
    expect(await failure(convert(wordToPdf, 'Locked.docx', encrypted))).toEqual({
      name: 'PasswordRequired',
      message: '"Locked.docx" is protected by a password. Enter it to continue.',
    });
    expect(await failure(convert(wordToPdf, 'Locked.docx', encrypted, 'correct horse'))).toEqual({
      name: 'InvalidPassword',
      message: 'Invalid Password',
    });
  });

  test('the LibreOffice engine is handed the decrypted package, so the password is asked first', async () => {
    const encrypted = await encryptOfficeAgile(await plainDocx(), PASSWORD, { spinCount: 1000 });
    const error = await failure(convert(wordToPdf, 'Locked.docx', encrypted, undefined, { engine: 'libreoffice' }));
    expect(error.name).toBe('PasswordRequired');
  });
});

describe('the hashing rounds report progress and can be cancelled', () => {
  test('progress says what is happening; aborting at the first report stops with Cancelled', async () => {
    const encrypted = await encryptOfficeAgile(await plainDocx(), PASSWORD, { spinCount: 50_000 });
    const reports: Array<[number, number, string | undefined]> = [];
    await decryptOfficeFile('a.docx', encrypted, PASSWORD, {
      progress: (done, total, status) => reports.push([done, total, status]),
    });
    // Every 16,384 rounds, for each of the two passwords (VelvetSweatshop and the one given).
    expect(reports).toHaveLength(8);
    expect(
      reports.every(([, total, status]) => total === 50_000 && status === 'Opening the password-protected file…'),
    ).toBe(true);
    const controller = new AbortController();
    const stopped = failure(
      decryptOfficeFile('a.docx', encrypted, PASSWORD, {
        signal: controller.signal,
        progress: () => controller.abort(),
      }),
    );
    expect((await stopped).name).toBe('Cancelled');
  });
});

describe('/api/pdf/fromWord with the inputPassword field (the same field PDF tools use)', () => {
  const server = createApiServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  const post = async (file: File, password?: string) => {
    const form = new FormData();
    form.append('file', file);
    if (password !== undefined) form.append('inputPassword', password);
    return fetch('http://folio.test/api/pdf/fromWord', { method: 'POST', body: form });
  };

  test("401 PasswordRequired, 403 Invalid Password, then 200 with the document's text", async () => {
    const encrypted = await encryptOfficeAgile(await plainDocx(), PASSWORD, { spinCount: 1000 });
    const file = new File([encrypted as Uint8Array<ArrayBuffer>], 'minutes.docx');
    const missing = await post(file);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: '"minutes.docx" is protected by a password. Enter it to continue.',
      code: 'PasswordRequired',
    });
    const wrong = await post(file, 'nope');
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({ error: 'Invalid Password', code: 'InvalidPassword' });
    const right = await post(file, PASSWORD);
    expect(right.status).toBe(200);
    expect(collapse(popplerText(new Uint8Array(await right.arrayBuffer())))).toContain(SENTENCE);
  });
});

describe("Excel's built-in password (VelvetSweatshop)", () => {
  test('a file encrypted with it opens without asking', async () => {
    const encrypted = await encryptOfficeAgile(await plainDocx(), 'VelvetSweatshop', { hash: 'SHA-1' });
    const result = await convert(wordToPdf, 'Read-only recommended.docx', encrypted);
    expect(collapse(popplerText(result.bytes))).toContain(SENTENCE);
  });

  test('and still opens when the user typed some other password: the package comes back byte for byte', async () => {
    const plain = await plainDocx();
    const encrypted = await encryptOfficeAgile(plain, 'VelvetSweatshop', { spinCount: 1000 });
    const { bytes } = await decryptOfficeFile('x.docx', encrypted, 'anything');
    expect(bytes).toEqual(plain);
  });
});

describe('hostile password-protected containers fail with a clear message', () => {
  test('an EncryptedPackage cut short is "damaged"', async () => {
    const encrypted = await encryptOfficeAgile(await plainDocx(), PASSWORD, { spinCount: 10, cutPackageBytes: 100 });
    const error = await failure(convert(wordToPdf, 'Cut.docx', encrypted, PASSWORD));
    expect(error).toEqual({
      name: 'InvalidInput',
      message: '"Cut.docx" is damaged: its encrypted content is cut short.',
    });
  });

  test(`a spin count above ${MAX_SPIN_COUNT.toLocaleString('en-US')} is refused before any hashing`, async () => {
    const encrypted = await encryptOfficeAgile(await plainDocx(), PASSWORD, {
      spinCount: 10,
      declaredSpinCount: 2_000_000_000,
    });
    const error = await failure(convert(wordToPdf, 'Spin.docx', encrypted, PASSWORD));
    expect(error.name).toBe('InvalidInput');
    expect(error.message).toBe(
      '"Spin.docx" asks for 2,000,000,000 rounds of password hashing (Office uses 100,000; Folio allows up to ' +
        '10,000,000), so it was not opened.',
    );
  });

  test('a spin count that disagrees with the one used reads as a wrong password', async () => {
    const encrypted = await encryptOfficeAgile(await plainDocx(), PASSWORD, { spinCount: 10, declaredSpinCount: 11 });
    expect((await failure(convert(wordToPdf, 'Odd.docx', encrypted, PASSWORD))).name).toBe('InvalidPassword');
  });

  test('a container whose directory names EncryptionInfo but cannot be read is "damaged"', async () => {
    const name = Array.from('EncryptionInfo').flatMap((c) => [c.charCodeAt(0), 0]);
    const bytes = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Uint8Array(500), ...name]);
    const error = await failure(convert(wordToPdf, 'Junk.docx', bytes, PASSWORD));
    expect(error.name).toBe('InvalidInput');
    expect(error.message).toMatch(/^"Junk\.docx" is damaged: /);
  });

  test('an EncryptionInfo of an unknown version is named, not guessed at', async () => {
    const container = CFB.utils.cfb_new();
    CFB.utils.cfb_add(container, '/EncryptionInfo', Buffer.from([9, 0, 9, 0, 0, 0, 0, 0, 1, 2, 3]));
    CFB.utils.cfb_add(container, '/EncryptedPackage', Buffer.alloc(40));
    const bytes = new Uint8Array(CFB.write(container, { type: 'buffer' }) as Buffer);
    const error = await failure(convert(wordToPdf, 'Future.docx', bytes));
    expect(error.name).toBe('UnsupportedEncryption');
    expect(error.message).toContain('version 9.9');
  });
});

const corpusFile = (path: string) => new Uint8Array(readFileSync(resolve(CORPUS_DIR, path)));

describe.skipIf(!corpusPresent)('corpus: password-protected Office files (skipped without ../shared/corpus)', () => {
  test('poi-bug53475-password-is-pass.docx: agile AES-256 with SHA-1, password "pass"', async () => {
    const bytes = corpusFile('office/bad/poi-bug53475-password-is-pass.docx');
    expect((await failure(convert(wordToPdf, 'pass.docx', bytes))).name).toBe('PasswordRequired');
    const result = await convert(wordToPdf, 'pass.docx', bytes, 'pass');
    expect(collapse(popplerText(result.bytes))).toContain('The is a password protected document.');
  });

  test('poi-protected-passtika.xlsx: standard encryption (AES-128, SHA-1), password "tika"', async () => {
    const bytes = corpusFile('office/bad/poi-protected-passtika.xlsx');
    expect((await failure(convert(excelToPdf, 'tika.xlsx', bytes, 'Tika'))).name).toBe('InvalidPassword');
    const result = await convert(excelToPdf, 'tika.xlsx', bytes, 'tika');
    expect(collapse(popplerText(result.bytes))).toContain('This is an Encrypted Excel spreadsheet.');
  });

  test('poi-58616.xlsx: encrypted with VelvetSweatshop, opens with no password asked', async () => {
    const result = await convert(excelToPdf, 'poi-58616.xlsx', corpusFile('office-wide/xlsx/poi-58616.xlsx'));
    const text = collapse(popplerText(result.bytes));
    for (const word of ['Streaks', 'Substrate', 'Plate Bounce']) expect(text).toContain(word);
  });
});
