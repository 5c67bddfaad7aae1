import { expect, test } from 'vitest';
import { openPage, sharedBrowser } from './harness.ts';

const shared = sharedBrowser();

test('the home page renders without console errors', async () => {
  const { page, errors, failedRequests, context } = await openPage(shared.browser, '/');
  await expect.poll(() => page.locator('h1').first().textContent()).toBeTruthy();
  expect(errors).toEqual([]);
  expect(failedRequests).toEqual([]);
  await context.close();
});

test('engine files come precompressed: the browser gets brotli or gzip and decodes the original bytes', async () => {
  const { page, context } = await openPage(shared.browser, '/');
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
