import { beforeAll, describe, expect, test, vi } from 'vitest';
import { run } from '../../workers/engine/tools/unlock-pdf.ts';
import { readEncryption } from '../../workers/engine/lib/pdf/encryption.ts';
import { openPdf } from '../../workers/engine/lib/pdf/pdf-open.ts';
import { saslPrep } from '../../shared/encryption-passwords.ts';
import { tool as unlockTool } from '../../src/catalogue/tools/unlock-pdf.ts';
import { createApiServer } from '../../mock-api/node.ts';
import {
  HANDLERS,
  PAGE_TEXTS,
  certificateEncryptedPdf,
  encryptWithQpdf,
  textPdf,
  type HandlerName,
} from '../support/protect-unlock-fixtures.ts';
import { pageTexts } from '../support/pdf.ts';

let plain: Uint8Array;
beforeAll(async () => {
  plain = await textPdf();
});

async function unlock(bytes: Uint8Array, password: string, name = 'secret.pdf') {
  return run([{ name, bytes }], { password }, {});
}

async function expectUnencrypted(bytes: Uint8Array) {
  const probe = await readEncryption(bytes);
  expect(probe.kind).toBe('ok');
  expect(probe.report?.encrypted).toBe(false);
}

describe('unlock-pdf: every standard security handler, with the user or the owner password', () => {
  for (const handler of Object.keys(HANDLERS) as HandlerName[]) {
    test(handler, async () => {
      const encrypted = await encryptWithQpdf(plain, handler, 'user-pw', 'owner-pw');
      const probe = await readEncryption(encrypted, new TextEncoder().encode('user-pw'));
      expect(probe.report).toMatchObject({ encrypted: true, R: HANDLERS[handler].R, method: HANDLERS[handler].method });

      const progress: Array<[number, number]> = [];
      const byUser = await run(
        [{ name: 'Report 2024.pdf', bytes: encrypted }],
        { password: 'user-pw' },
        { progress: (d, t) => progress.push([d, t]) },
      );
      await expectUnencrypted(byUser.bytes);
      expect(await pageTexts(byUser.bytes)).toEqual(PAGE_TEXTS);
      expect(byUser.filename).toBe('Report 2024-unlocked.pdf');
      expect(byUser.mime).toBe('application/pdf');
      expect(progress.at(-1)).toEqual([1, 1]);
      expect(byUser.notes?.[0]).toMatch(/open password/);

      const byOwner = await unlock(encrypted, 'owner-pw');
      await expectUnencrypted(byOwner.bytes);
      expect(await pageTexts(byOwner.bytes)).toEqual(PAGE_TEXTS);
      expect(byOwner.notes?.[0]).toMatch(/owner \(permissions\) password/);

      await expect(unlock(encrypted, 'wrong-pw')).rejects.toMatchObject({
        name: 'InvalidInput',
        message: 'Invalid Password',
      });
      await expect(unlock(encrypted, '')).rejects.toMatchObject({
        name: 'InvalidInput',
        message: 'Password is required',
      });
    });
  }
});

describe('unlock-pdf: passwords', () => {
  // qpdf writes passwords as given (no SASLprep); conforming R6 writers store the SASLprep form.
  const unicode: Array<[HandlerName, string]> = [
    ['AES-256 (R6)', 'æøå'],
    ['AES-256 (R6)', 'pässwört'],
    ['AES-256 (R6)', '密码安全测试'],
    ['AES-256 (R6)', 'パスワード'],
    ['AES-256 (R5, deprecated)', 'pässwört'],
    ['AES-128 (R4)', 'æøå'],
    ['RC4 128-bit (R3)', 'pässwört'],
  ];
  for (const [handler, password] of unicode) {
    test(`non-ASCII "${password}" with ${handler}`, async () => {
      const encrypted = await encryptWithQpdf(plain, handler, password, `${password}-owner`);
      const result = await unlock(encrypted, password);
      expect(await pageTexts(result.bytes)).toEqual(PAGE_TEXTS);
      await expect(unlock(encrypted, `${password}x`)).rejects.toMatchObject({ message: 'Invalid Password' });
    });
  }

  test('R6: a password typed in another Unicode form opens the file (SASLprep: NFKC, spaces, soft hyphens)', async () => {
    // Stored as conforming writers (Acrobat, Folio's protect-pdf) store it: SASLprep-prepared.
    const encrypted = await encryptWithQpdf(
      plain,
      'AES-256 (R6)',
      saslPrep('pässwört ﬁx', { stored: true }),
      'owner-pw',
    );
    // decomposed umlauts, a no-break space, the "fi" ligature spelled out, a soft hyphen inside
    for (const typed of ['pa\u0308sswo\u0308rt ﬁx', 'pässwört\u00a0ﬁx', 'pässwört fix', 'päss\u00adwört ﬁx']) {
      const result = await unlock(encrypted, typed);
      expect(await pageTexts(result.bytes)).toEqual(PAGE_TEXTS);
    }
  });

  test('passwords of 32 and more characters', async () => {
    const long40 = 'correct horse battery staple, 40 chars!!';
    expect(long40).toHaveLength(40);
    const r6 = await encryptWithQpdf(plain, 'AES-256 (R6)', long40, 'owner-pw');
    expect(await pageTexts((await unlock(r6, long40)).bytes)).toEqual(PAGE_TEXTS);
    await expect(unlock(r6, long40.slice(0, 39))).rejects.toMatchObject({ message: 'Invalid Password' });

    // R2–R4 keep only the first 32 bytes of a password (ISO 32000-1 Algorithm 2): exactly 32 here.
    const long32 = 'asdf asdf asdf asdf asdf asdf qw';
    const r3 = await encryptWithQpdf(plain, 'RC4 128-bit (R3)', long32, long32);
    expect(await pageTexts((await unlock(r3, long32)).bytes)).toEqual(PAGE_TEXTS);
  });

  test(
    'the password reaches the engine through `inputPassword` too (the field the modal uses after ' +
      'PasswordRequired)',
    async () => {
      const encrypted = await encryptWithQpdf(plain, 'AES-256 (R6)', 'user-pw', 'owner-pw');
      const result = await run([{ name: 'a.pdf', bytes: encrypted, password: 'user-pw' }], { password: '' }, {});
      expect(await pageTexts(result.bytes)).toEqual(PAGE_TEXTS);
      // The prompt's answer comes after a failed attempt with the field's value: it wins.
      const retried = await run(
        [{ name: 'a.pdf', bytes: encrypted, password: 'user-pw' }],
        { password: 'wrong-pw' },
        {},
      );
      expect(await pageTexts(retried.bytes)).toEqual(PAGE_TEXTS);
    },
  );

  test('nothing of the password appears in the file name or the notes', async () => {
    const secret = 'hunter2-Secret';
    const encrypted = await encryptWithQpdf(plain, 'AES-256 (R6)', secret, 'owner-pw');
    const result = await unlock(encrypted, secret, 'x.pdf');
    expect(JSON.stringify([result.filename, result.notes])).not.toContain(secret);
    const failure = await unlock(encrypted, `${secret}!`).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toBe('Invalid Password');
  });
});

describe('openPdf (how every other tool opens an encrypted input) shares the password candidates', () => {
  test('non-ASCII passwords of R3 / R4 / R6 files open; a wrong one is Invalid Password', async () => {
    for (const handler of ['RC4 128-bit (R3)', 'AES-128 (R4)', 'AES-256 (R6)'] as const) {
      const encrypted = await encryptWithQpdf(plain, handler, 'æøå', 'owner-x');
      expect((await openPdf({ name: 'a.pdf', bytes: encrypted, password: 'æøå' })).doc.getPageCount()).toBe(3);
      await expect(openPdf({ name: 'a.pdf', bytes: encrypted, password: 'æøx' })).rejects.toMatchObject({
        message: 'Invalid Password',
      });
    }
  });
});

describe('unlock-pdf: files that need no password, and files it cannot unlock', () => {
  test('restrictions only (empty open password): unlocks with no password, and with any typed one', async () => {
    for (const handler of ['RC4 128-bit (R3)', 'AES-128 (R4)', 'AES-256 (R6)'] as const) {
      const restricted = await encryptWithQpdf(plain, handler, '', 'owner-pw');
      const result = await unlock(restricted, '');
      await expectUnencrypted(result.bytes);
      expect(await pageTexts(result.bytes)).toEqual(PAGE_TEXTS);
      expect(result.notes?.[0]).toMatch(/needed no password/);

      const typed = await unlock(restricted, 'something');
      await expectUnencrypted(typed.bytes);
      expect(typed.notes).toContain('The password you typed was not needed.');
    }
  });

  test('an open password with an empty owner password still needs the open password', async () => {
    // qpdf (like any reader given an empty owner password) could open it with '', but every
    // viewer asks for the open password, and so does Folio.
    const encrypted = await encryptWithQpdf(plain, 'AES-256 (R6)', 'user-pw', '');
    await expect(unlock(encrypted, '')).rejects.toMatchObject({ message: 'Password is required' });
    expect(await pageTexts((await unlock(encrypted, 'user-pw')).bytes)).toEqual(PAGE_TEXTS);
  });

  test('certificate encryption (/Adobe.PubSec) is refused with a clear message', async () => {
    const bytes = await certificateEncryptedPdf();
    await expect(unlock(bytes, 'anything', 'contract.pdf')).rejects.toMatchObject({
      name: 'UnsupportedEncryption',
      message: expect.stringContaining(
        '"contract.pdf" is encrypted with a certificate, not a password — it cannot be unlocked here',
      ),
    });
  });

  test('a file that is not encrypted is refused: there is nothing to unlock', async () => {
    await expect(unlock(plain, 'x', 'plain.pdf')).rejects.toMatchObject({
      name: 'InvalidInput',
      message: '"plain.pdf" is not password-protected — there is nothing to unlock.',
    });
  });

  test('not a PDF, empty, damaged beyond repair', async () => {
    await expect(unlock(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), 'x', 'photo.pdf')).rejects.toMatchObject({
      name: 'InvalidPdf',
    });
    await expect(unlock(new Uint8Array(), 'x', 'empty.pdf')).rejects.toMatchObject({ name: 'InvalidInput' });
    const garbage = new TextEncoder().encode('%PDF-1.7\n' + 'garbage '.repeat(200));
    await expect(unlock(garbage, 'x', 'broken.pdf')).rejects.toMatchObject({ name: 'DamagedPdf' });
  });

  test('an aborted job stops with Cancelled', async () => {
    const encrypted = await encryptWithQpdf(plain, 'AES-256 (R6)', 'user-pw', 'owner-pw');
    const controller = new AbortController();
    controller.abort();
    await expect(
      run([{ name: 'a.pdf', bytes: encrypted }], { password: 'user-pw' }, { signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'Cancelled' });
  });
});

describe('unlock-pdf through the /api contract (spec §7)', () => {
  test('POST /api/pdf/unlock with file + password answers the unlocked PDF; errors are spec §8 JSON', async () => {
    // The handlers' paths are relative ('/api/pdf/unlock'); MSW resolves them against `location`,
    // which Node lacks.
    vi.stubGlobal('location', new URL('http://localhost/'));
    const server = createApiServer();
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const encrypted = await encryptWithQpdf(plain, 'AES-128 (R4)', 'user-pw', 'owner-pw');
      const post = (password: string) => {
        const form = new FormData();
        form.append(
          'file',
          new File([encrypted as Uint8Array<ArrayBuffer>], 'Überweisung.pdf', { type: 'application/pdf' }),
        );
        form.append('password', password);
        return fetch(`http://localhost${unlockTool.endpoint}`, { method: 'POST', body: form });
      };
      const ok = await post('user-pw');
      expect(ok.status).toBe(200);
      expect(ok.headers.get('Content-Disposition')).toContain(
        `filename*=UTF-8''${encodeURIComponent('Überweisung-unlocked.pdf')}`,
      );
      expect(await pageTexts(new Uint8Array(await ok.arrayBuffer()))).toEqual(PAGE_TEXTS);

      const wrong = await post('nope');
      // Spec §8 messages; InvalidInput (400) like the other validation answers of the tool's own fields.
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toEqual({ error: 'Invalid Password', code: 'InvalidInput' });

      const empty = await post('');
      expect(empty.status).toBe(400);
      expect(await empty.json()).toEqual({ error: 'Password is required', code: 'InvalidInput' });
    } finally {
      server.close();
      vi.unstubAllGlobals();
    }
  });
});
