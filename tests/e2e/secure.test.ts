/**
 * protect-pdf and unlock-pdf through their modals in Chromium: a generated PDF is protected
 * (validation messages, permissions, generate link), the download is checked to be AES-256 (R6,
 * AESv3) with those permissions and to open in pdf.js and poppler with the password
 * only; then it is unlocked back through the unlock modal ('Password is required', 'Invalid
 * Password', success), and a batch of files is unlocked into a ZIP.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import JSZip from 'jszip';
import { downloadAfter, screenshot, pdfUpload, openToolModal, processFiles, sharedBrowser } from './harness.ts';
import { PAGE_TEXTS, encryptWithQpdf, textPdf } from '../support/protect-unlock-fixtures.ts';
import { pageTexts, popplerText } from '../support/pdf.ts';
import { readEncryption } from '../../workers/engine/lib/pdf/encryption.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';

const shared = sharedBrowser();

const pdf = pdfUpload;
const utf8 = (text: string) => new TextEncoder().encode(text);

const openTool = (toolId: string, options?: { width?: number; theme?: 'light' | 'dark' }) =>
  openToolModal(shared.browser, toolId, options);

const alertText = (page: Page) => page.getByRole('alert').first().textContent();

describe('protect-pdf → unlock-pdf in the browser', () => {
  let protectedBytes: Uint8Array;

  test('protect: spec validation messages, permissions, download is AES-256 R6 and opens only with the password', async () => {
    const { page, context, errors, requests } = await openTool('protect-pdf');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles(pdf('plan.pdf', await textPdf()));
    const dialog = page.getByRole('dialog');

    await dialog.getByLabel('Password', { exact: true }).fill('abc');
    await dialog.getByLabel('Confirm password').fill('abc');
    await page.getByRole('button', { name: 'Process Files', exact: true }).click();
    await expect.poll(() => alertText(page)).toBe('Password must be at least 4 characters');

    await dialog.getByLabel('Password', { exact: true }).fill('open-sesame');
    await dialog.getByLabel('Confirm password').fill('open-sesamE');
    await page.getByRole('button', { name: 'Process Files', exact: true }).click();
    await expect.poll(() => alertText(page)).toBe('Passwords do not match');

    await dialog.getByLabel('Confirm password').fill('open-sesame');
    await expect.poll(() => dialog.getByText('✓ Passwords match').count()).toBe(1);
    await expect.poll(() => dialog.getByText(/^Strength: /).count()).toBe(1);
    await dialog.getByLabel('Printing').selectOption('low');
    await dialog.getByLabel('Copying text and images').uncheck();
    await screenshot(page, 'protect-pdf-ready-1280');

    const { name, bytes } = await processFiles(page);
    expect(name).toBe('plan-protected.pdf');
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('plan-protected.pdf');
    await screenshot(page, 'protect-pdf-done-1280');

    const report = (await readEncryption(bytes, utf8('open-sesame'))).report!;
    expect(report).toMatchObject({
      encrypted: true,
      R: 6,
      V: 5,
      method: 'AESv3',
      bits: 256,
      userPasswordMatched: true,
    });
    expect(report.capabilities).toMatchObject({
      print: 'low',
      copy: false,
      edit: true,
      annotate: true,
      assemble: true,
    });
    expect((await readEncryption(bytes)).kind).toBe('invalid-password');
    await expect(openPdfjs(bytes)).rejects.toMatchObject({ name: 'PasswordRequired' });
    expect(await pageTexts(bytes, { password: 'open-sesame' })).toEqual(PAGE_TEXTS);
    expect(popplerText(bytes, 'open-sesame')).toContain(PAGE_TEXTS[1]);
    expect(() => popplerText(bytes)).toThrow();
    protectedBytes = bytes;

    // Nothing left the origin, and the password appears in no request URL.
    const origin = new URL(page.url()).origin;
    expect(
      requests.filter((url) => !url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:')),
    ).toEqual([]);
    expect(requests.some((url) => url.includes('open-sesame'))).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  test(
    'unlock: empty → Password is required, wrong → Invalid Password, right → an unencrypted file with the same ' +
      'text',
    async () => {
      expect(protectedBytes).toBeDefined();
      const { page, context, errors } = await openTool('unlock-pdf');
      await page.locator('input[type=file]').first().setInputFiles(pdf('plan-protected.pdf', protectedBytes));
      const field = page.getByRole('dialog').getByLabel('Password', { exact: true });

      await page.getByRole('button', { name: 'Process Files', exact: true }).click();
      await expect.poll(() => alertText(page)).toBe('Password is required');

      await field.fill('not-it');
      await page.getByRole('button', { name: 'Process Files', exact: true }).click();
      await expect.poll(() => alertText(page)).toBe('Invalid Password');
      await screenshot(page, 'unlock-pdf-invalid-1280');

      // The answers concern the tool's own field: no second "PDF password" prompt appears.
      expect(await page.getByLabel('PDF password').count()).toBe(0);
      await field.fill('open-sesame');
      const { name, bytes } = await processFiles(page);
      expect(name).toBe('plan-protected-unlocked.pdf');
      expect((await readEncryption(bytes)).report?.encrypted).toBe(false);
      expect(await pageTexts(bytes)).toEqual(PAGE_TEXTS);
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Removed the open password');
      await screenshot(page, 'unlock-pdf-done-1280');
      expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
      await context.close();
    },
  );
});

describe('protect-pdf: generate link and small dark screens', () => {
  test('Generate fills both fields with a strong password, shown so it can be copied', async () => {
    const { page, context } = await openTool('protect-pdf', { width: 390, theme: 'dark' });
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Generate' }).click();
    const password = await dialog.getByLabel('Password', { exact: true }).inputValue();
    expect(password).toHaveLength(16);
    expect(await dialog.getByLabel('Confirm password').inputValue()).toBe(password);
    expect(await dialog.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await expect.poll(() => dialog.getByText('Strength: Very strong', { exact: false }).count()).toBe(1);
    await screenshot(page, 'protect-pdf-generate-390-dark');
    await context.close();
  });
});

describe('unlock-pdf: batch', () => {
  test('several files with one password → unlocked-pdfs.zip; each failure is listed', async () => {
    const plain = await textPdf();
    const a = await encryptWithQpdf(plain, 'AES-256 (R6)', 'team-pw', 'owner-1');
    const b = await encryptWithQpdf(plain, 'RC4 128-bit (R3)', 'team-pw', 'owner-2');
    const c = await encryptWithQpdf(plain, 'AES-128 (R4)', 'other-pw', 'owner-3');
    const { page, context } = await openTool('unlock-pdf', { width: 390 });
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Password', { exact: true }).fill('team-pw');
    await dialog.getByText('Unlock several files with this password').click();
    await dialog
      .getByLabel('PDF files to unlock together')
      .setInputFiles([pdf('a.pdf', a), pdf('b.pdf', b), pdf('c.pdf', c), pdf('plain.pdf', plain)]);
    const download = await downloadAfter(
      page,
      () => dialog.getByRole('button', { name: 'Unlock all (4)' }).click(),
      60_000,
    );
    expect(download.name).toBe('unlocked-pdfs.zip');
    const zip = await JSZip.loadAsync(download.bytes);
    expect(Object.keys(zip.files).sort()).toEqual(['a-unlocked.pdf', 'b-unlocked.pdf']);
    for (const entry of Object.values(zip.files)) {
      const bytes = await entry.async('uint8array');
      expect(await pageTexts(bytes)).toEqual(PAGE_TEXTS);
    }
    const list = dialog.getByRole('list', { name: 'Batch files' });
    await expect.poll(() => list.textContent()).toContain('Invalid Password');
    await expect.poll(() => list.textContent()).toContain('is not password-protected');
    await expect.poll(() => dialog.getByText('2 of 4 unlocked').count()).toBe(1);
    await screenshot(page, 'unlock-pdf-batch-390');
    await context.close();
  });
});

test('the secure panels render at 1280 in dark mode', async () => {
  const { page, context } = await openTool('protect-pdf', { theme: 'dark' });
  await page
    .locator('input[type=file]')
    .first()
    .setInputFiles(pdf('dark.pdf', await textPdf()));
  await page.getByRole('dialog').getByLabel('Password', { exact: true }).fill('Tr0ub4dor&3');
  await screenshot(page, 'protect-pdf-1280-dark');
  await context.close();
  const unlock = await openTool('unlock-pdf', { theme: 'dark' });
  await screenshot(unlock.page, 'unlock-pdf-1280-dark');
  await unlock.context.close();
});
