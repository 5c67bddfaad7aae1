/**
 * openPdf (workers/engine/lib/pdf/pdf-open.ts) over every PDF of the corpus: files expected to open do,
 * with the manifest's page count (encrypted ones with their password, and ask for it without);
 * files expected to fail give a clear, named error — never a crash or a silently empty document.
 */
import { afterAll, expect, test } from 'vitest';
import { openPdf } from '../../workers/engine/lib/pdf/pdf-open.ts';
import { isFolioError } from '../../workers/engine/lib/errors.ts';
import { openPdfjs, pageText } from '../../workers/engine/lib/pdf/pdfjs.ts';
import {
  RECOVERED_FROM_OBJECTS,
  Tally,
  corpusPassword,
  corpusPdfs,
  describeCorpus,
  readCorpus,
} from '../support/corpus.ts';

/** Files whose error message is part of the product (issue #3). */
const EXPECTED_MESSAGES: Record<string, RegExp> = {
  'pdf/encrypted/pdfbox-aes256exposedmeta.pdf':
    /encrypted with a certificate, not a password — it cannot be unlocked here/,
  'pdf/malformed/ocrmypdf-invalid.pdf': /is not a valid PDF/,
  'pdf/malformed/qpdf-bad1.pdf': /is not a valid PDF/,
};

describeCorpus('openPdf over the corpus', () => {
  const tally = new Tally('open');

  for (const entry of corpusPdfs) {
    test(entry.file, async () => {
      const password = corpusPassword(entry);
      try {
        if (entry.expect === 'ok') {
          const opened = await openPdf({ name: entry.file, bytes: readCorpus(entry), password });
          expect(opened.doc.getPageCount()).toBe(entry.pages);
          expect(opened.doc.isEncrypted).toBe(false);
          // What comes back can be saved by pdf-lib (the reason openPdf exists).
          await opened.doc.save({ useObjectStreams: false });
          // (Files whose owner password is empty open without asking: qpdf authenticates as owner.)
          if (entry.encryption?.user_password && entry.encryption.owner_password) {
            // Without the password: asked for; with a wrong one: 'Invalid Password' (spec §8).
            await expect(openPdf({ name: entry.file, bytes: readCorpus(entry) })).rejects.toMatchObject({
              name: 'PasswordRequired',
            });
            await expect(
              openPdf({ name: entry.file, bytes: readCorpus(entry), password: 'not-the-password' }),
            ).rejects.toMatchObject({
              name: 'InvalidPassword',
              message: 'Invalid Password',
            });
          }
        } else if (RECOVERED_FROM_OBJECTS[entry.file]) {
          const wanted = RECOVERED_FROM_OBJECTS[entry.file];
          const outcome = await openPdf({ name: entry.file, bytes: readCorpus(entry) }).catch((e: unknown) => e);
          if (outcome instanceof Error) {
            expect(outcome.message).toMatch(/damaged and could not be repaired|ends early/);
          } else {
            const { doc } = outcome as Awaited<ReturnType<typeof openPdf>>;
            expect(doc.getPageCount()).toBe(wanted.pages);
            const resaved = await doc.save();
            const pdfjs = await openPdfjs(resaved);
            expect(await pageText(pdfjs, 1)).toMatch(wanted.text);
            await pdfjs.destroy();
          }
        } else {
          const error = await openPdf({ name: entry.file, bytes: readCorpus(entry), password }).then(
            () => new Error('opened a file that is expected to fail'),
            (e: unknown) => e,
          );
          expect(isFolioError(error), String(error)).toBe(true);
          const wanted = EXPECTED_MESSAGES[entry.file];
          if (wanted) expect((error as Error).message).toMatch(wanted);
        }
        tally.pass();
      } catch (error) {
        tally.fail(`${entry.file}: ${(error as Error).message.split('\n')[0]}`);
        throw error;
      }
    });
  }

  afterAll(() => tally.print());
});
