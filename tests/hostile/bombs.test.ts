/**
 * Decompression bombs (issue #21): PDF streams and Office package parts that expand to gigabytes
 * from kilobytes. They must be refused by the input check (lib/input-limits.ts) after reading at
 * most the limit — never inflated in full — with a message that names the limit; a small job must
 * work afterwards.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectRefused, expectSmallJobWorks, post, startApi } from './harness.ts';
import {
  contentBombPdf,
  encryptedPdf,
  manyParagraphsDocx,
  unusedBombsPdf,
  type Cipher,
} from '../support/hostile-recipes.ts';
import { formatLimit, inputLimits } from '../../workers/engine/lib/input-limits.ts';

let api: { close(): void };
beforeAll(() => {
  api = startApi();
});
afterAll(() => api.close());

const limits = inputLimits(0);
const BOMB_MESSAGE = new RegExp(
  `expands to more than ${formatLimit(limits.inflatedStream)} — it looks like a decompression bomb`,
);

describe('a page whose content stream inflates to 4 GB (two deflate layers, 4 KB on disk)', () => {
  const bytes = contentBombPdf(4);
  test.each([
    ['/api/pdf/toJpg', {}],
    ['/api/pdf/toWord', {}],
    ['/api/pdf/compress', {}],
    ['/api/pdf/protect', { password: 'abcd' }],
  ])('%s refuses it as a decompression bomb', async (endpoint, fields) => {
    expect(bytes.byteLength).toBeLessThan(64 * 1024);
    const answer = await post(endpoint, [['file', 'bomb.pdf', bytes]], fields);
    expectRefused(answer, ['TooLarge'], BOMB_MESSAGE);
    expect(answer.error!.error).toMatch(/object 4 0/);
  });
  test('bytes after the inner data (which stop strict decoders) do not slip it past the check', async () => {
    const answer = await post('/api/pdf/toJpg', [['file', 'junk.pdf', contentBombPdf(4, { junk: true })]]);
    expectRefused(answer, ['TooLarge'], BOMB_MESSAGE);
  });
  test('a small job still works afterwards', expectSmallJobWorks);
});

describe('the same bomb inside an encrypted stream (known password)', () => {
  // pdf.js decrypts by itself in PDF → JPG and qpdf's --decrypt inflates multi-layer streams while
  // writing: the check measures a copy deciphered with the password (lib/pdf/encrypted-streams.ts).
  test.each<[Cipher, string, string, Record<string, string>]>([
    ['RC4', '/api/pdf/toJpg', 'inputPassword', {}],
    ['AES-128', '/api/pdf/toJpg', 'inputPassword', {}],
    ['AES-256', '/api/pdf/toJpg', 'inputPassword', {}],
    ['RC4', '/api/pdf/unlock', 'password', {}],
    ['AES-256', '/api/pdf/unlock', 'password', {}],
    ['AES-128', '/api/pdf/compress', 'inputPassword', {}],
  ])('%s: %s refuses it as a decompression bomb', async (cipher, endpoint, passwordField, fields) => {
    const bytes = await encryptedPdf(contentBombPdf(4), cipher, 'secret');
    expect(bytes.byteLength).toBeLessThan(64 * 1024);
    const answer = await post(endpoint, [['file', `${cipher}.pdf`, bytes]], { ...fields, [passwordField]: 'secret' });
    expectRefused(answer, ['TooLarge'], BOMB_MESSAGE);
    expect(answer.error!.error).toMatch(/object 4 0/);
  });
  test('without its password PDF → JPG asks for it (nothing is inflated before)', async () => {
    const answer = await post('/api/pdf/toJpg', [
      ['file', 'locked.pdf', await encryptedPdf(contentBombPdf(4), 'AES-256', 'secret')],
    ]);
    expectRefused(answer, ['PasswordRequired']);
  });
  test('a small job still works afterwards', expectSmallJobWorks);
});

describe('unused streams that together inflate past the total limit', () => {
  // Each stream stays under the one-stream limit; together they pass the total (the file is far
  // smaller than 1/64 of the total, so the budget is the total's bound).
  const perStream = limits.inflatedStream / 2 ** 30 / 2;
  const count = Math.ceil(limits.inflatedTotal / (limits.inflatedStream / 2)) + 1;
  expect(unusedBombsPdf(1, perStream).byteLength * count * 64).toBeLessThan(limits.inflatedTotal);
  test('compress refuses them', async () => {
    const answer = await post('/api/pdf/compress', [['file', 'bombs.pdf', unusedBombsPdf(count, perStream)]]);
    expectRefused(
      answer,
      ['TooLarge'],
      new RegExp(`compressed data of this PDF expands to more than ${formatLimit(limits.inflatedTotal)}`),
    );
  });
  test('a small job still works afterwards', expectSmallJobWorks);
});

describe('a .docx whose document.xml inflates to 60 M paragraphs (360 MB of XML)', () => {
  test('word to PDF refuses it before parsing', async () => {
    const bytes = manyParagraphsDocx(60);
    expect(bytes.byteLength).toBeLessThan(2 * 2 ** 20);
    const answer = await post('/api/pdf/fromWord', [['file', 'paragraphs.docx', bytes]]);
    expectRefused(answer, ['TooLarge'], /word\/document\.xml/);
  });
  test('a small job still works afterwards', expectSmallJobWorks);
});
