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

test('engine files come precompressed: the browser gets brotli or gzip and decodes the original bytes', async () => {
  const { page, context } = await openPage(browser, '/');
  const { files } = (await (await page.request.get('/engine-assets.json')).json()) as {
    files: Array<{ url: string; bytes: number }>;
  };
  const font = files.find((f) => f.url.endsWith('.ttf') && f.bytes > 500_000)!;
  const [response, decodedLength] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith(font.url)),
    page.evaluate(async (url) => (await (await fetch(url)).arrayBuffer()).byteLength, font.url),
  ]);
  const headers = await response.allHeaders();
  expect(['br', 'gzip']).toContain(headers['content-encoding']);
  expect(Number(headers['content-length'])).toBeLessThan(font.bytes * 0.9);
  expect(decodedLength).toBe(font.bytes);
  await context.close();
});
