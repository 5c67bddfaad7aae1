import { beforeAll, describe, expect, test, vi } from 'vitest';
import { run } from '../../workers/engine/tools/protect-pdf.ts';
import { run as unlock } from '../../workers/engine/tools/unlock-pdf.ts';
import { tool as protectTool } from '../../src/catalogue/tools/protect-pdf.ts';
import { defaultValues } from '../../src/catalogue/index.ts';
import { createApiServer } from '../../mock-api/node.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import type { EngineOptions } from '../../workers/engine/lib/types.ts';
import {
  PAGE_TEXTS,
  encryptWithQpdf,
  nativeQpdf,
  permissionLines,
  showEncryption,
  textPdf,
} from '../support/protect-unlock-fixtures.ts';
import { pageTexts, popplerText } from '../support/pdf.ts';

let plain: Uint8Array;
beforeAll(async () => {
  plain = await textPdf();
});

const protect = (options: EngineOptions, bytes = plain, name = 'Quarterly report.pdf', inputPassword?: string) =>
  run([{ name, bytes, password: inputPassword }], { ...defaultValues(protectTool), ...options }, {});

describe('protect-pdf: AES-256 (R6, AESv3)', () => {
  test(
    `qpdf --show-encryption (${nativeQpdf ? 'native qpdf' : 'WASM qpdf'}) shows R = 6 and AESv3; it opens with ` +
      `the password only`,
    async () => {
      const progress: Array<[number, number]> = [];
      const result = await run(
        [{ name: 'Quarterly report.pdf', bytes: plain }],
        { ...defaultValues(protectTool), password: 'open-sesame' },
        { progress: (d, t) => progress.push([d, t]) },
      );
      expect(result.filename).toBe('Quarterly report-protected.pdf');
      expect(result.mime).toBe('application/pdf');
      expect(progress.at(-1)).toEqual([1, 1]);
      const shown = await showEncryption(result.bytes, 'open-sesame');
      expect(shown).toMatch(/^R = 6$/m);
      expect(shown).toMatch(/^Supplied password is user password$/m);
      expect(shown).toMatch(/^stream encryption method: AESv3$/m);
      expect(shown).toMatch(/^string encryption method: AESv3$/m);
      expect(shown).toMatch(/^file encryption method: AESv3$/m);
      // pdf.js: needs the password, refuses a wrong one, reads the text with the right one.
      await expect(openPdfjs(result.bytes)).rejects.toMatchObject({ name: 'PasswordRequired' });
      await expect(openPdfjs(result.bytes, { password: 'wrong' })).rejects.toMatchObject({ name: 'InvalidPassword' });
      expect(await pageTexts(result.bytes, { password: 'open-sesame' })).toEqual(PAGE_TEXTS);
      await expect(showEncryption(result.bytes, 'wrong')).rejects.toThrow();
      // poppler (an independent reader): opens with the password, refuses without.
      expect(popplerText(result.bytes, 'open-sesame')).toContain(PAGE_TEXTS[2]);
      expect(() => popplerText(result.bytes)).toThrow();
    },
  );

  test('protect → unlock gives back the same pages and text', async () => {
    const protectedPdf = await protect({ password: 'round-trip', confirmPassword: 'round-trip' });
    const unlocked = await unlock([{ name: 'x.pdf', bytes: protectedPdf.bytes }], { password: 'round-trip' }, {});
    expect(await pageTexts(unlocked.bytes)).toEqual(PAGE_TEXTS);
    expect(await pageTexts(unlocked.bytes)).toHaveLength(3);
  });

  test('non-ASCII and long passwords round-trip, stored in their SASLprep form', async () => {
    for (const password of [
      'æøå-Passwort',
      'pässwört',
      '密码安全测试',
      'a passphrase of well over thirty-two characters, 1234567890',
    ]) {
      const protectedPdf = await protect({ password });
      expect(await pageTexts(protectedPdf.bytes, { password })).toEqual(PAGE_TEXTS);
      const unlocked = await unlock([{ name: 'x.pdf', bytes: protectedPdf.bytes }], { password }, {});
      expect(await pageTexts(unlocked.bytes)).toEqual(PAGE_TEXTS);
    }
    // Typed decomposed (NFD), stored composed (NFC, what SASLprep's NFKC gives): pdf.js (which
    // skips SASLprep) opens it with the composed form, and unlock-pdf with either form.
    const protectedPdf = await protect({ password: 'pa\u0308sswo\u0308rt' });
    expect(await pageTexts(protectedPdf.bytes, { password: 'pässwört' })).toEqual(PAGE_TEXTS);
    expect(
      await pageTexts(
        (await unlock([{ name: 'x.pdf', bytes: protectedPdf.bytes }], { password: 'pa\u0308sswo\u0308rt' }, {})).bytes,
      ),
    ).toEqual(PAGE_TEXTS);
  });

  test('an owner (permissions) password opens the file as owner; without one a random owner password is set', async () => {
    const withOwner = await protect({ password: 'user-pw', ownerPassword: 'owner-pw' });
    expect(await showEncryption(withOwner.bytes, 'owner-pw')).toMatch(/^Supplied password is owner password$/m);

    const withoutOwner = await protect({ password: 'user-pw', allowCopy: false });
    const shown = await showEncryption(withoutOwner.bytes, 'user-pw');
    expect(shown).toMatch(/^Supplied password is user password$/m);
    expect(withoutOwner.notes?.join(' ')).toMatch(/random one was used/);
    // The random owner password is neither empty nor the user password.
    await expect(showEncryption(withoutOwner.bytes, '')).rejects.toThrow();
  });

  test('validation: the spec messages, in the engine and in the catalogue', async () => {
    await expect(protect({ password: 'abc' })).rejects.toMatchObject({
      name: 'InvalidInput',
      message: 'Password must be at least 4 characters',
    });
    await expect(protect({ password: 'abcd', ownerPassword: 'xyz' })).rejects.toMatchObject({
      message: 'Password must be at least 4 characters',
    });
    await expect(protect({ password: 'same-pw', ownerPassword: 'same-pw' })).rejects.toMatchObject({
      message: expect.stringMatching(/must be different/),
    });
    const validate = protectTool.validate!;
    expect(validate({ password: 'abc', confirmPassword: 'abc' })).toBe('Password must be at least 4 characters');
    expect(validate({ password: 'abcd', confirmPassword: 'abce' })).toBe('Passwords do not match');
    expect(validate({ password: 'abcd', confirmPassword: 'abcd' })).toBeNull();
    expect(validate({ password: 'abcd', confirmPassword: 'abcd', ownerPassword: 'ab' })).toBe(
      'Password must be at least 4 characters',
    );
    expect(validate({ password: 'abcd', confirmPassword: 'abcd', ownerPassword: 'abcd' })).toMatch(/must be different/);
    // 4 characters, not 4 UTF-16 units: '𝄞𝄞' is 2 characters.
    expect(validate({ password: '𝄞𝄞', confirmPassword: '𝄞𝄞' })).toBe('Password must be at least 4 characters');
  });

  test('a password SASLprep forbids is refused with a clear message', async () => {
    await expect(protect({ password: 'abc\u0007def' })).rejects.toMatchObject({
      name: 'InvalidInput',
      message: expect.stringMatching(/control, private-use or unassigned/),
    });
    await expect(protect({ password: 'שלום1234' })).rejects.toMatchObject({
      name: 'InvalidInput',
      message: expect.stringMatching(/right-to-left/),
    });
  });
});

describe('protect-pdf: permissions', () => {
  const cases: Array<[string, EngineOptions, Record<string, string>]> = [
    ['everything allowed (default)', {}, {}],
    [
      'low-resolution printing only, no copying',
      { print: 'low', allowCopy: false },
      { 'print high resolution': 'not allowed', 'extract for any purpose': 'not allowed' },
    ],
    [
      'no printing, no editing',
      { print: 'none', allowEdit: false },
      {
        'print low resolution': 'not allowed',
        'print high resolution': 'not allowed',
        'modify other': 'not allowed',
        'modify anything': 'not allowed',
      },
    ],
    [
      'no comments or forms',
      { allowAnnotate: false },
      { 'modify annotations': 'not allowed', 'modify forms': 'not allowed', 'modify anything': 'not allowed' },
    ],
    [
      'no page assembly',
      { allowAssemble: false },
      { 'modify document assembly': 'not allowed', 'modify anything': 'not allowed' },
    ],
    [
      'everything restricted',
      { print: 'none', allowCopy: false, allowEdit: false, allowAnnotate: false, allowAssemble: false },
      {
        'print low resolution': 'not allowed',
        'print high resolution': 'not allowed',
        'extract for any purpose': 'not allowed',
        'modify other': 'not allowed',
        'modify annotations': 'not allowed',
        'modify forms': 'not allowed',
        'modify document assembly': 'not allowed',
        'modify anything': 'not allowed',
      },
    ],
  ];
  const ALL_ALLOWED = {
    'extract for accessibility': 'allowed',
    'extract for any purpose': 'allowed',
    'print low resolution': 'allowed',
    'print high resolution': 'allowed',
    'modify document assembly': 'allowed',
    'modify forms': 'allowed',
    'modify annotations': 'allowed',
    'modify other': 'allowed',
    'modify anything': 'allowed',
  };
  for (const [label, options, restricted] of cases) {
    test(`${label}: qpdf --show-encryption lists exactly those permissions`, async () => {
      const result = await protect({ password: 'user-pw', ...options });
      const lines = permissionLines(await showEncryption(result.bytes, 'user-pw'));
      expect(lines).toEqual({ ...ALL_ALLOWED, ...restricted });
    });
  }
});

describe('protect-pdf: inputs', () => {
  test(
    'an encrypted input asks for its password (PasswordRequired), opens with it, and is re-encrypted with the new ' +
      'one',
    async () => {
      const encrypted = await encryptWithQpdf(plain, 'RC4 128-bit (R3)', 'old-pw', 'old-owner');
      await expect(protect({ password: 'new-pw-1' }, encrypted, 'old.pdf')).rejects.toMatchObject({
        name: 'PasswordRequired',
      });
      await expect(protect({ password: 'new-pw-1' }, encrypted, 'old.pdf', 'nope')).rejects.toMatchObject({
        message: 'Invalid Password',
      });
      const result = await protect({ password: 'new-pw-1' }, encrypted, 'old.pdf', 'old-pw');
      const shown = await showEncryption(result.bytes, 'new-pw-1');
      expect(shown).toMatch(/^R = 6$/m);
      await expect(showEncryption(result.bytes, 'old-pw')).rejects.toThrow();
      expect(await pageTexts(result.bytes, { password: 'new-pw-1' })).toEqual(PAGE_TEXTS);
    },
  );

  test('an input with an open password but an empty owner password still asks for the open password', async () => {
    const encrypted = await encryptWithQpdf(plain, 'AES-256 (R6)', 'user-pw', '');
    await expect(protect({ password: 'new-pw-1' }, encrypted, 'old.pdf')).rejects.toMatchObject({
      name: 'PasswordRequired',
    });
    const result = await protect({ password: 'new-pw-1' }, encrypted, 'old.pdf', 'user-pw');
    expect(await pageTexts(result.bytes, { password: 'new-pw-1' })).toEqual(PAGE_TEXTS);
  });

  test('a restrictions-only input needs no password', async () => {
    const restricted = await encryptWithQpdf(plain, 'AES-128 (R4)', '', 'owner');
    const result = await protect({ password: 'new-pw-1' }, restricted);
    expect(await pageTexts(result.bytes, { password: 'new-pw-1' })).toEqual(PAGE_TEXTS);
  });

  test('not a PDF, damaged beyond repair', async () => {
    await expect(
      protect({ password: 'abcd' }, new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), 'photo.pdf'),
    ).rejects.toMatchObject({ name: 'InvalidPdf' });
    await expect(
      protect({ password: 'abcd' }, new TextEncoder().encode('%PDF-1.4\nnothing here'), 'broken.pdf'),
    ).rejects.toMatchObject({ name: 'DamagedPdf' });
  });

  test('nothing of the passwords appears in the file name or the notes', async () => {
    const result = await protect(
      { password: 'hunter2-Secret', ownerPassword: 'owner-Secret', allowCopy: false },
      plain,
      'a.pdf',
    );
    expect(JSON.stringify([result.filename, result.notes])).not.toMatch(/hunter2|owner-Secret/);
  });
});

describe('protect-pdf through the /api contract (spec §7)', () => {
  test('POST /api/pdf/protect with file + password (+ permissions fields) answers the encrypted PDF', async () => {
    vi.stubGlobal('location', new URL('http://localhost/'));
    const server = createApiServer();
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const post = (fields: Record<string, string>) => {
        const form = new FormData();
        form.append('file', new File([plain as Uint8Array<ArrayBuffer>], 'plan.pdf', { type: 'application/pdf' }));
        for (const [key, value] of Object.entries(fields)) form.append(key, value);
        return fetch(`http://localhost${protectTool.endpoint}`, { method: 'POST', body: form });
      };
      const ok = await post({ password: 'api-pw-1', print: 'low', allowCopy: 'false' });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('Content-Disposition')).toContain('plan-protected.pdf');
      const lines = permissionLines(await showEncryption(new Uint8Array(await ok.arrayBuffer()), 'api-pw-1'));
      expect(lines['print high resolution']).toBe('not allowed');
      expect(lines['extract for any purpose']).toBe('not allowed');
      expect(lines['modify other']).toBe('allowed');

      const short = await post({ password: 'abc' });
      expect(await short.json()).toEqual({ error: 'Password must be at least 4 characters', code: 'InvalidInput' });
      const mismatch = await post({ password: 'abcd', confirmPassword: 'abce' });
      expect(await mismatch.json()).toEqual({ error: 'Passwords do not match', code: 'InvalidInput' });
    } finally {
      server.close();
      vi.unstubAllGlobals();
    }
  });
});
