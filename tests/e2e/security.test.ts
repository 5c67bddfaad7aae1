/**
 * Issue #16 in Chromium, through the protect modal: a password of Ж × 64 (128 bytes) shows "Too
 * long" with the 127-byte limit and is refused when Process Files is pressed, with no download; the
 * "Remove scripts and actions" option is there and ticked. (The engines' side of the security suite
 * runs in Node: tests/security/.)
 */
import { describe, expect, test } from 'vitest';
import { sharedBrowser } from './harness.ts';
import { openThemed } from './shell-helpers.ts';
import { textPdf } from '../support/protect-unlock-fixtures.ts';

const shared = sharedBrowser();

describe('protect-pdf password limit in the browser', () => {
  test('128 bytes: "Too long" under the field, refused on Process Files, nothing downloaded', async () => {
    const { page, errors } = await openThemed(shared.browser, '/tools/protect-pdf', { width: 1280, theme: 'light' });
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'plan.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await textPdf()) });
    expect(await dialog.getByRole('checkbox', { name: 'Remove scripts and actions' }).isChecked()).toBe(true);

    const password = 'Ж'.repeat(64);
    await dialog.getByLabel('Password', { exact: true }).fill(password);
    await dialog.getByLabel('Confirm password').fill(password);
    await expect.poll(() => dialog.getByText('Strength: Too long').count()).toBe(1);
    await expect.poll(() => dialog.getByText(/allows at most 127 bytes/).count()).toBeGreaterThan(0);

    let downloaded = false;
    page.on('download', () => {
      downloaded = true;
    });
    await page.getByRole('button', { name: 'Process Files', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toMatch(/128 bytes long; PDF encryption \(AES-256\) allows at most 127 bytes/);
    expect(downloaded).toBe(false);
    expect(errors).toEqual([]);
  });
});
