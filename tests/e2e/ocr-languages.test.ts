/**
 * OCR in a language other than English, in Chromium against the built app: the language select
 * appears only when OCR is ticked; German data is fetched once from our own origin
 * (/engine-data/tesseract/lang/deu.traineddata.gz) while the progress line says so; the umlauts come
 * back; then, with the network off, German OCR runs again and the About page lists German as
 * downloaded. "Make all tools available offline" does not include the optional languages.
 */
import { describe, expect, test } from 'vitest';
import { baseUrl, downloadAfter, openPage, screenshot, sharedBrowser } from './harness.ts';
import { ENGINE_CACHE } from '../../src/pwa/engine-files.ts';
import { readDocx } from '../support/office-fixtures.ts';
import { GERMAN_WORDS, buildGermanScan } from '../support/ocr-fixtures.ts';

const shared = sharedBrowser();

describe('OCR languages', () => {
  test('engine-assets.json ("Make all tools available offline") has English but no optional language', async () => {
    const list = (await (await fetch(`${baseUrl()}/engine-assets.json`)).json()) as {
      files: Array<{ url: string; group: string }>;
    };
    // The core group is what is cached in the background; the others are optional downloads.
    const urls = list.files.filter((f) => f.group === 'core').map((f) => f.url);
    expect(list.files.find((f) => f.url.endsWith('/deu.traineddata.gz'))?.group).toBe('ocr-deu');
    expect(urls).toContain('/engine-data/tesseract/lang/eng.traineddata.gz');
    expect(
      urls.filter((url) => url.startsWith('/engine-data/tesseract/lang/') && !url.endsWith('/eng.traineddata.gz')),
    ).toEqual([]);
    expect((await fetch(`${baseUrl()}/engine-data/tesseract/lang/deu.traineddata.gz`, { method: 'HEAD' })).status).toBe(
      200,
    );
  });

  test('German: select shown with OCR, data fetched once from our origin, umlauts come back, then works offline', async () => {
    const scan = await buildGermanScan();
    const { page, context, errors, requests } = await openPage(shared.browser, '/tools/pdf-to-word', {
      serviceWorkers: 'allow',
    });
    // The service worker must control the page, so that what the first use fetches is kept.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
    await expect
      .poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 20_000 })
      .toBe(true);

    await page
      .getByRole('button', { name: /Upload Files|Get Started/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from(scan.bytes) });
    const language = dialog.getByLabel('Language of the scanned text');
    expect(await language.count()).toBe(0);
    await dialog.getByLabel('Recognise text in scanned pages').check();
    await expect.poll(() => language.isVisible()).toBe(true);
    expect(await language.inputValue()).toBe('eng');
    await language.selectOption('deu');
    expect(await language.locator('option:checked').textContent()).toBe('German — 1.3 MB download, once');
    await screenshot(page, 'pdf-to-word-ocr-language-1280-light');

    // Every text the progress line shows, however briefly.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressTexts: string[] }).progressTexts = seen;
      new MutationObserver(() => {
        const text = document.querySelector('.progress-text')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const process = () => dialog.getByRole('button', { name: 'Process Files', exact: true }).click();
    const first = await downloadAfter(page, process, 100_000);
    const docx = await readDocx(first.bytes);
    for (const word of GERMAN_WORDS) expect(docx.text).toContain(word);
    const origin = new URL(baseUrl()).origin;
    expect(requests.filter((url) => /^https?:/.test(url) && !url.startsWith(origin))).toEqual([]);
    expect(requests.filter((url) => url.includes('/engine-data/tesseract/lang/'))).toEqual([
      `${origin}/engine-data/tesseract/lang/deu.traineddata.gz`,
    ]);
    const texts = await page.evaluate(() => (window as unknown as { progressTexts: string[] }).progressTexts);
    expect(texts).toContain('Downloading German text recognition data (1.3 MB, once)…');

    // Offline: German again, from what the first use and the background download kept.
    // The first visit's background download of every tool's engine waits while a job runs (src/sw.ts),
    // so it finishes after the first job: the offline run starts once every core file is stored.
    const coreStored = () =>
      page.evaluate(async (cacheName) => {
        const list = (await (await fetch('/engine-assets.json')).json()) as {
          files: Array<{ url: string; group: string }>;
        };
        const stored = new Set((await (await caches.open(cacheName)).keys()).map((r) => new URL(r.url).pathname));
        return list.files.filter((file) => file.group === 'core').every((file) => stored.has(file.url));
      }, ENGINE_CACHE);
    await expect.poll(coreStored, { timeout: 120_000, interval: 500 }).toBe(true);
    await context.setOffline(true);
    const second = await downloadAfter(page, process, 100_000);
    expect((await readDocx(second.bytes)).text).toContain('Größe');
    await page.goto('/about');
    const german = page.locator('.offline-optional li').filter({ hasText: 'Text recognition (OCR) in German' });
    await expect.poll(() => german.textContent(), { timeout: 10_000 }).toContain('on this device');
    expect(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
    await context.close();
  }, 240_000);
});
