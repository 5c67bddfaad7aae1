/**
 * Issue #16 item 3 (and #21's huge password): password limits that cannot lose a file.
 * - AES-256 (R6) holds at most 127 bytes of UTF-8 after SASLprep. Protect refuses 128 bytes and more
 *   (ASCII: 128 characters; Cyrillic: Ж × 64) with a message naming the limit, in the form's
 *   validation, in the engine and through /api — before qpdf is ever called. 127 bytes (127 ASCII
 *   characters; Ж × 63 + one ASCII letter) round-trips: Folio's unlock, native qpdf and pdf.js all
 *   open the file with it.
 * - A one-million-character password, in protect or unlock or as an encrypted input's password,
 *   gets a clear 400 within the request instead of a WebAssembly crash.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import * as qpdf from '../../workers/engine/lib/pdf/qpdf.ts';
import { run as protect } from '../../workers/engine/tools/protect-pdf.ts';
import { run as unlock } from '../../workers/engine/tools/unlock-pdf.ts';
import { tool as protectTool } from '../../src/catalogue/tools/protect-pdf.ts';
import { MAX_PASSWORD_BYTES, passwordStrength, utf8Length } from '../../shared/encryption-passwords.ts';
import { createApiServer } from '../../mock-api/node.ts';
import { PAGE_TEXTS, textPdf } from '../support/protect-unlock-fixtures.ts';
import { pageLabels } from '../support/page-fixtures.ts';
import { encrypt } from '../support/page-fixtures.ts';
import { expectOnlyAllowedActions } from '../support/pdf-actions.ts';

const ascii = (bytes: number) => 'p'.repeat(bytes);
const ZHE = 'Ж'; // two bytes in UTF-8

const ACCEPTED: Array<[string, string]> = [
  ['4 ASCII bytes', ascii(4)],
  ['127 ASCII bytes', ascii(127)],
  ['126 bytes of Cyrillic (Ж × 63)', ZHE.repeat(63)],
  ['127 bytes: Ж × 63 and one ASCII letter', `${ZHE.repeat(63)}p`],
];
const TOO_LONG: Array<[string, string]> = [
  ['128 ASCII bytes', ascii(128)],
  ['128 bytes of Cyrillic (Ж × 64)', ZHE.repeat(64)],
];

/** Native qpdf decrypts with the password (an independent build from the WASM one Folio uses). */
function nativeQpdfOpens(bytes: Uint8Array, password: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'folio-pw-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    execFileSync('qpdf', [`--password=${password}`, '--decrypt', join(dir, 'in.pdf'), join(dir, 'out.pdf')], {
      stdio: 'pipe',
    });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const file = (bytes: Uint8Array) => [{ name: 'letter.pdf', bytes }];

describe('protect: passwords AES-256 can hold', () => {
  for (const [label, password] of ACCEPTED) {
    test(`${label}: protected, then opened by Folio's unlock, native qpdf and pdf.js`, async () => {
      expect(utf8Length(password)).toBeLessThanOrEqual(MAX_PASSWORD_BYTES);
      expect(protectTool.validate!({ password, confirmPassword: password })).toBeNull();
      const protectedPdf = await protect(file(await textPdf()), { password }, {});
      const unlocked = await unlock(file(protectedPdf.bytes), { password }, {});
      expect(await pageLabels(unlocked.bytes)).toEqual(PAGE_TEXTS);
      expectOnlyAllowedActions(protectedPdf.bytes, password);
      expectOnlyAllowedActions(unlocked.bytes);
      expect(nativeQpdfOpens(protectedPdf.bytes, password)).toBe(true);
      expect(await pageLabels(protectedPdf.bytes, password)).toEqual(PAGE_TEXTS);
      // Cut one character short, the password does not open it: the whole password counts.
      expect(nativeQpdfOpens(protectedPdf.bytes, [...password].slice(0, -1).join(''))).toBe(false);
    });
  }

  test('1 byte is refused by the 4-character minimum (spec §5)', async () => {
    expect(protectTool.validate!({ password: 'p', confirmPassword: 'p' })).toBe(
      'Password must be at least 4 characters',
    );
    await expect(protect(file(await textPdf()), { password: 'p' }, {})).rejects.toThrow(
      'Password must be at least 4 characters',
    );
  });

  for (const [label, password] of TOO_LONG) {
    test(`${label}: refused with the limit named, before qpdf runs`, async () => {
      expect(utf8Length(password)).toBe(128);
      const limit = /128 bytes long; PDF encryption \(AES-256\) allows at most 127 bytes/;
      expect(protectTool.validate!({ password, confirmPassword: password })).toMatch(limit);
      expect(passwordStrength(password).label).toBe('Too long');
      const runs = vi.spyOn(qpdf, 'runQpdf');
      try {
        await expect(protect(file(await textPdf()), { password }, {})).rejects.toMatchObject({
          name: 'InvalidInput',
          message: expect.stringMatching(limit),
        });
        expect(runs).not.toHaveBeenCalled();
        // The spy does see qpdf runs: a password that fits goes to qpdf.
        await protect(file(await textPdf()), { password: ascii(127) }, {});
        expect(runs).toHaveBeenCalled();
      } finally {
        runs.mockRestore();
      }
      // The permissions password has the same limit.
      await expect(
        protect(file(await textPdf()), { password: 'open sesame', ownerPassword: password }, {}),
      ).rejects.toThrow(/permissions password is 128 bytes long/);
    });
  }
});

describe('a one-million-character password gets a clear 400', () => {
  const server = createApiServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  const huge = 'x'.repeat(1_000_000);

  async function post(path: string, fields: Array<[string, string | Blob]>) {
    const form = new FormData();
    for (const [name, value] of fields)
      form.append(name, value instanceof Blob ? new File([value], 'letter.pdf', { type: 'application/pdf' }) : value);
    const response = await fetch(`http://folio.test${path}`, { method: 'POST', body: form });
    return { status: response.status, body: (await response.json()) as { error: string } };
  }

  test('protect, unlock, and the password of an encrypted input', async () => {
    const plain = new Blob([(await textPdf()) as Uint8Array<ArrayBuffer>]);
    const locked = new Blob([(await encrypt(await textPdf(), 'secret')) as Uint8Array<ArrayBuffer>]);
    const protectAnswer = await post('/api/pdf/protect', [
      ['file', plain],
      ['password', huge],
      ['confirmPassword', huge],
    ]);
    expect(protectAnswer).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'Password is too long: Folio accepts at most 1,024 characters.' }),
    });
    const unlockAnswer = await post('/api/pdf/unlock', [
      ['file', locked],
      ['password', huge],
    ]);
    expect(unlockAnswer).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'Password is too long: Folio accepts at most 1,024 characters.' }),
    });
    const rotateAnswer = await post('/api/pdf/rotate', [
      ['file', locked],
      ['inputPassword', huge],
    ]);
    expect(rotateAnswer).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'Password is too long: Folio accepts at most 1,024 characters.' }),
    });
  });
});
