/**
 * An Office file saved with a password, through the Word to PDF window in Chromium: the frame asks
 * for the password after the engine says so, answers a wrong one with 'Invalid Password', and with
 * the right one downloads a PDF whose text (pdftotext) is the document's. The file is a .docx made
 * with `docx` and encrypted by the test-only agile encryptor (AES-256, SHA-512, 100,000 rounds).
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { openToolModal, processFiles, screenshot, sharedBrowser } from './harness.ts';
import { encryptOfficeAgile } from '../support/office-encrypt.ts';
import { popplerText } from '../support/pdf.ts';

const shared = sharedBrowser();

const SENTENCE = 'The lighthouse keeper logs every passing ship before dawn.';
const PASSWORD = 'harbour-2026';
const alertText = (page: Page) => page.getByRole('alert').first().textContent();

describe('word-to-pdf: a .docx saved with a password', () => {
  test('asks for the password, refuses a wrong one, converts with the right one', async () => {
    const docx = await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph({ children: [new TextRun(SENTENCE)] })] }] }),
    );
    const encrypted = await encryptOfficeAgile(new Uint8Array(docx), PASSWORD);
    const { page, context, errors } = await openToolModal(shared.browser, 'word-to-pdf');
    const dialog = page.getByRole('dialog');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({
        name: 'logbook.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: Buffer.from(encrypted),
      });

    await dialog.getByRole('button', { name: 'Process Files', exact: true }).click();
    await expect
      .poll(() => alertText(page), { timeout: 90_000 })
      .toBe('"logbook.docx" is protected by a password. Enter it to continue.');
    const field = dialog.getByLabel('File password');
    expect(await field.getAttribute('type')).toBe('password');

    await field.fill('not-the-one');
    await dialog.getByRole('button', { name: 'Process Files', exact: true }).click();
    await expect.poll(() => alertText(page), { timeout: 90_000 }).toBe('Invalid Password');
    await screenshot(page, 'word-to-pdf-password-invalid-1280');

    await field.fill(PASSWORD);
    const { name, bytes } = await processFiles(page);
    expect(name).toBe('logbook.pdf');
    expect(popplerText(bytes).replace(/\s+/g, ' ')).toContain(SENTENCE);
    // The API answers 401 and 403 before the password is right; nothing else may go wrong.
    expect(errors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
    await context.close();
  });
});
