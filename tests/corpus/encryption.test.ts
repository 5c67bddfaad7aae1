/**
 * unlock-pdf and protect-pdf over every encrypted file of the shared corpus (passwords from
 * manifest.json): each unlocks with its user password and with its owner password, refuses a wrong
 * one with 'Invalid Password', and the unlocked file's text equals what pdf.js reads from the
 * encrypted original with the password. Certificate-encrypted files are refused with a clear
 * message. Then every clean corpus PDF goes through protect → unlock.
 */
import { afterAll, expect, test } from 'vitest';
import { Tally, corpusPdfs, describeCorpus, readCorpus, type CorpusEntry } from '../support/corpus.ts';
import { run as unlock } from '../../workers/engine/tools/unlock-pdf.ts';
import { run as protect } from '../../workers/engine/tools/protect-pdf.ts';
import { readEncryption } from '../../workers/engine/lib/pdf/encryption.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { pageTexts } from '../support/pdf.ts';

const texts = (bytes: Uint8Array, password?: string) => pageTexts(bytes, { password });

const encrypted = corpusPdfs.filter((e) => e.encryption !== null);
const passwordEncrypted = encrypted.filter((e) => e.expect === 'ok');
const certificateEncrypted = encrypted.filter((e) => /PubSec|certificate/i.test(e.encryption?.method ?? ''));
const clean = corpusPdfs.filter((e) => e.encryption === null && e.expect === 'ok' && e.kind === 'pdf/clean');

describeCorpus('encryption: unlock-pdf over the encrypted corpus', () => {
  const tally = new Tally('unlock-pdf');
  afterAll(() => tally.print());

  test('the corpus holds password-encrypted files of R2, R3, R4, R5 and R6 and a certificate-encrypted one', () => {
    expect(new Set(passwordEncrypted.map((e) => e.encryption?.R))).toEqual(new Set([2, 3, 4, 5, 6]));
    expect(certificateEncrypted.length).toBeGreaterThan(0);
  });

  for (const entry of passwordEncrypted) {
    const enc = entry.encryption!;
    test(`${entry.file} (${enc.method}, R${enc.R})`, async () => {
      const bytes = readCorpus(entry);
      const name = entry.file.split('/').pop()!;
      const openWith = enc.user_password ?? '';
      const expected = await texts(bytes, openWith || undefined);
      expect(expected).toHaveLength(entry.pages ?? expected.length);

      const ways: Array<[string, string]> = [['user', openWith]];
      if (enc.owner_password && enc.owner_password !== enc.user_password) ways.push(['owner', enc.owner_password]);
      for (const [which, password] of ways) {
        const result = await unlock([{ name, bytes }], { password }, {});
        const probe = await readEncryption(result.bytes);
        expect(probe.report?.encrypted, `${which} password: output still encrypted`).toBe(false);
        expect(await texts(result.bytes), `${which} password: text differs`).toEqual(expected);
      }

      if (openWith !== '') {
        // Wrong at the start: R2–R4 read only the first 32 bytes, so a suffix would not make it wrong.
        await expect(unlock([{ name, bytes }], { password: `wrong-${openWith}` }, {})).rejects.toMatchObject({
          message: 'Invalid Password',
        });
        await expect(unlock([{ name, bytes }], { password: '' }, {})).rejects.toMatchObject({
          message: 'Password is required',
        });
      } else {
        // Restrictions only: any password (even a wrong one) unlocks, since none is needed.
        const result = await unlock([{ name, bytes }], { password: 'not-needed' }, {});
        expect(result.notes?.join(' ')).toMatch(/needed no password/);
      }
      tally.pass();
    });
  }

  test(
    'the SafeDocs U+2F874 file opens with the password typed with the compatibility ideograph (SASLprep, Unicode ' +
      '3.2)',
    async () => {
      const entry = passwordEncrypted.find((e) => e.file.includes('u2f874'));
      if (!entry) return;
      const bytes = readCorpus(entry);
      const result = await unlock([{ name: 'u.pdf', bytes }], { password: 'Password\u{2f874}!' }, {});
      expect(await texts(result.bytes)).toEqual(await texts(bytes, entry.encryption!.user_password!));
    },
  );

  for (const entry of certificateEncrypted) {
    test(`${entry.file}: refused as certificate-encrypted`, async () => {
      const name = entry.file.split('/').pop()!;
      await expect(unlock([{ name, bytes: readCorpus(entry) }], { password: 'anything' }, {})).rejects.toMatchObject({
        name: 'UnsupportedEncryption',
        message: expect.stringContaining(
          'is encrypted with a certificate, not a password — it cannot be unlocked here',
        ),
      });
      tally.pass();
    });
  }
});

describeCorpus('encryption: protect-pdf → unlock-pdf over the clean corpus', () => {
  const tally = new Tally('protect-pdf round trip');
  afterAll(() => tally.print());

  const roundTrip = async (entry: CorpusEntry, bytes: Uint8Array, inputPassword?: string) => {
    const name = entry.file.split('/').pop()!;
    const expected = await texts(bytes, inputPassword);
    const protectedPdf = await protect(
      [{ name, bytes, password: inputPassword }],
      { password: 'corpus-pw', print: 'low', allowCopy: false },
      {},
    );
    const report = (await readEncryption(protectedPdf.bytes, new TextEncoder().encode('corpus-pw'))).report!;
    expect(report).toMatchObject({ encrypted: true, R: 6, method: 'AESv3', userPasswordMatched: true });
    expect(report.capabilities).toMatchObject({ print: 'low', copy: false, edit: true });
    await expect(openPdfjs(protectedPdf.bytes)).rejects.toMatchObject({ name: 'PasswordRequired' });
    const unlocked = await unlock([{ name, bytes: protectedPdf.bytes }], { password: 'corpus-pw' }, {});
    expect(await texts(unlocked.bytes)).toEqual(expected);
  };

  for (const entry of clean) {
    test(entry.file, async () => {
      await roundTrip(entry, readCorpus(entry));
      tally.pass();
    });
  }

  for (const entry of passwordEncrypted) {
    test(`${entry.file}: re-protected with its password as input password`, async () => {
      await roundTrip(
        entry,
        readCorpus(entry),
        entry.encryption!.user_password || entry.encryption!.owner_password || undefined,
      );
      tally.pass();
    });
  }
});
