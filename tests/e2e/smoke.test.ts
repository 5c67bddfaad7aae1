import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage } from './harness.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

test('the home page renders without console errors', async () => {
  const { page, errors, failedRequests, context } = await openPage(browser, '/');
  await expect.poll(() => page.locator('h1').first().textContent()).toBeTruthy();
  expect(errors).toEqual([]);
  expect(failedRequests).toEqual([]);
  await context.close();
});
