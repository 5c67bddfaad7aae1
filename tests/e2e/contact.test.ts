/**
 * Contact form (spec §2, §5, §8, Part A.7) in Chromium: the four required fields, email
 * validation, and what happens on Send. The email service's endpoint is always mocked with
 * page.route, so nothing leaves the machine: without build-time keys the form must say that sending
 * is not configured and offer a mailto: link; with keys it must post to the endpoint and show the
 * exact success / failure messages, never losing the typed text on failure.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, sharedBrowser } from './harness.ts';
import { expectClean, heading, openThemed, scrollTop } from './shell-helpers.ts';

const shared = sharedBrowser();

const FIELDS = {
  user_username: 'Ada Lovelace',
  user_email: 'ada@example.org',
  user_subject: 'Merge order',
  user_message: 'How do I keep bookmarks?',
};

async function fill(page: Page, values: Partial<typeof FIELDS>) {
  for (const [name, value] of Object.entries(values)) await page.locator(`[name="${name}"]`).fill(value);
}

test('all four fields are required, the email must be valid, and the errors are tied to their fields', async () => {
  const watched = await openThemed(shared.browser, '/contact');
  const { page } = watched;
  await heading(page);
  for (const label of ['Your name', 'Email address', 'Subject', 'Message']) {
    expect(await page.getByLabel(label, { exact: true }).count(), label).toBe(1);
  }
  await page.getByRole('button', { name: 'Send Message' }).click();
  const errors = await page.locator('.field-error').allTextContents();
  expect(errors).toEqual([
    'Please enter your name.',
    'Please enter your email address.',
    'Please enter a subject.',
    'Please enter a message.',
  ]);
  expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('user_username');
  expect(await page.locator('[name=user_email]').getAttribute('aria-invalid')).toBe('true');
  expect(await page.locator('[name=user_email]').getAttribute('aria-describedby')).toBe('contact-user_email-error');
  await scrollTop(page);
  await screenshot(page, 'contact-errors-1280-light');

  await fill(page, { ...FIELDS, user_email: 'ada@example' });
  await page.getByRole('button', { name: 'Send Message' }).click();
  expect(await page.locator('.field-error').allTextContents()).toEqual(['Please enter a valid email address.']);
  expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('user_email');
  expectClean(watched);
  await watched.context.close();
});

test('sending: mailto fallback when not configured, else the exact messages with the endpoint mocked', async () => {
  const watched = await openThemed(shared.browser, '', { theme: 'dark' });
  const { page } = watched;
  const posted: string[] = [];
  let answer = 500;
  await page.route('https://api.emailjs.com/**', async (route) => {
    posted.push(route.request().postData() ?? '');
    await route.fulfill({ status: answer, contentType: 'text/plain', body: answer === 200 ? 'OK' : 'Server error' });
  });
  await page.goto('/contact');
  await heading(page);
  await fill(page, FIELDS);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect.poll(() => page.locator('.notice').count()).toBeGreaterThan(0);
  const notice = (await page.locator('.notice').first().textContent()) ?? '';

  if (notice.includes('not configured')) {
    console.log('contact: this build has no email service keys — checking the mailto: fallback');
    const href = await page.locator('.notice a').getAttribute('href');
    expect(href).toMatch(/^mailto:[^?]+@[^?]+\?subject=Merge%20order&body=How%20do%20I%20keep%20bookmarks%3F/);
    expect(posted).toEqual([]);
    for (const [name, value] of Object.entries(FIELDS))
      expect(await page.locator(`[name="${name}"]`).inputValue()).toBe(value);
  } else {
    // The first answer was a 500: the exact failure message, and nothing typed is lost.
    expect(notice).toBe('Something went wrong. Please try again.');
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain('name="user_email"');
    for (const [name, value] of Object.entries(FIELDS))
      expect(await page.locator(`[name="${name}"]`).inputValue()).toBe(value);
    answer = 200;
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Your message has been sent!');
    expect(await page.locator('[name=user_message]').inputValue()).toBe('');
  }
  await scrollTop(page);
  await screenshot(page, 'contact-sent-390-dark');
  // The mocked 500 is an answer this test asked for, not a failure of the app; and with request
  // interception on, Chromium aborts the favicon fetch (a known Playwright quirk), not the app.
  watched.failedRequests = watched.failedRequests.filter(
    (r) => !r.startsWith('https://api.emailjs.com/') && !/\/favicon[^ ]* net::ERR_ABORTED$/.test(r),
  );
  watched.errors = watched.errors.filter((e) => !e.includes('500'));
  expectClean(watched);
  await watched.context.close();
});
