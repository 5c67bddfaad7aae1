/**
 * Offline after one visit, truly (issue 22), and the share target only from the OS (issue 16.4):
 * - a fresh profile opens the home page once; the service worker caches every tool's engine in the
 *   background, and the About page says when it has finished; then, with the network off, every
 *   file tool — none used before — runs through its modal and its output is checked (pages, text
 *   via pdftotext, images decoded);
 * - with Save-Data on nothing is downloaded (the About page asks first), and offline a tool says at
 *   once what it needs — in its window before any file is picked, and when run anyway;
 * - the Install button appears when `beforeinstallprompt` fires and calls prompt();
 * - a page on another site that POSTs a file to /share-target is refused, and /open stays empty.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { popplerText } from '../support/pdf.ts';
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import JSZip from 'jszip';
import { Document, Packer, Paragraph } from 'docx';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import { loadImage } from '@napi-rs/canvas';
import { baseUrl, downloadAfter, openPage, type WatchedPage, type Upload, sharedBrowser } from './harness.ts';
import { fileTools } from '../../src/catalogue/index.ts';
import { ENGINE_CACHE } from '../../src/pwa/engine-files.ts';
import { encryptWithQpdf } from '../support/protect-unlock-fixtures.ts';
import { encodePng, makeImageData } from '../../workers/engine/lib/image/codecs.ts';

const shared = sharedBrowser();

type Output = { name: string; bytes: Uint8Array };

const PAGE_TEXTS = ['Offline page one', 'Offline page two'];

async function textPdf(texts = PAGE_TEXTS): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of texts) doc.addPage([300, 400]).drawText(text, { x: 30, y: 350, size: 14, font });
  return doc.save();
}

async function gradientPng(): Promise<Buffer> {
  const width = 64;
  const height = 48;
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([(i % width) * 4, Math.floor(i / width) * 5, 120, 255], i * 4);
  return Buffer.from(await encodePng(makeImageData(data, width, height)));
}

const asPdf = (bytes: Uint8Array, name = 'offline.pdf'): Upload => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from(bytes),
});

async function inputsFor(toolId: string): Promise<Upload[]> {
  switch (toolId) {
    case 'merge-pdf':
      return [asPdf(await textPdf(), 'a.pdf'), asPdf(await textPdf(['Offline page three']), 'b.pdf')];
    case 'jpg-to-pdf':
    case 'image-compressor':
      return [{ name: 'gradient.png', mimeType: 'image/png', buffer: await gradientPng() }];
    case 'word-to-pdf':
      return [
        {
          name: 'note.docx',
          mimeType: 'application/octet-stream',
          buffer: await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('Offline note')] }] })),
        },
      ];
    case 'excel-to-pdf': {
      const workbook = new ExcelJS.Workbook();
      workbook.addWorksheet('S').getCell('A1').value = 'Offline cell';
      return [
        {
          name: 'sheet.xlsx',
          mimeType: 'application/octet-stream',
          buffer: Buffer.from(await workbook.xlsx.writeBuffer()),
        },
      ];
    }
    case 'ppt-to-pdf': {
      const pptx = new PptxGenJS();
      pptx.addSlide().addText('Offline slide', { x: 1, y: 1, w: 5, h: 1 });
      return [
        {
          name: 'deck.pptx',
          mimeType: 'application/octet-stream',
          buffer: Buffer.from((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer),
        },
      ];
    }
    case 'unlock-pdf':
      return [
        asPdf(await encryptWithQpdf(await textPdf(), 'AES-256 (R6)', 'offline-pw', 'offline-owner'), 'locked.pdf'),
      ];
    default:
      return [asPdf(await textPdf())];
  }
}

const pdfText = popplerText;

async function pageCount(bytes: Uint8Array): Promise<number> {
  return (await PDFDocument.load(bytes, { ignoreEncryption: true })).getPageCount();
}

async function zipEntries(bytes: Uint8Array): Promise<Array<{ name: string; bytes: Uint8Array }>> {
  const zip = await JSZip.loadAsync(bytes);
  const files = Object.values(zip.files).filter((f) => !f.dir);
  return Promise.all(files.map(async (f) => ({ name: f.name, bytes: await f.async('uint8array') })));
}

/** The text inside an Office file's XML parts. */
async function officeText(bytes: Uint8Array): Promise<string> {
  const parts = await zipEntries(bytes);
  const decoder = new TextDecoder();
  return parts
    .filter((p) => p.name.endsWith('.xml'))
    .map((p) => decoder.decode(p.bytes).replace(/<[^>]+>/g, ''))
    .join(' ');
}

/** What each tool's output must contain: more than "a file came out". */
async function checkOutput(toolId: string, output: Output): Promise<void> {
  const { name, bytes } = output;
  switch (toolId) {
    case 'merge-pdf':
      expect(await pageCount(bytes)).toBe(3);
      expect(pdfText(bytes)).toMatch(/Offline page one[\s\S]*Offline page two[\s\S]*Offline page three/);
      return;
    case 'split-pdf': {
      const parts = await zipEntries(bytes);
      expect(parts.length).toBe(2);
      const texts = parts.sort((a, b) => a.name.localeCompare(b.name)).map((p) => pdfText(p.bytes));
      expect(texts[0]).toContain('Offline page one');
      expect(texts[1]).toContain('Offline page two');
      return;
    }
    case 'protect-pdf':
      expect(pdfText(bytes, 'offline-pw')).toContain('Offline page one');
      expect(() => pdfText(bytes)).toThrow();
      return;
    case 'pdf-to-word':
    case 'pdf-to-ppt':
    case 'pdf-to-excel':
      expect(name).toMatch(/\.(docx|pptx|xlsx)$/);
      expect(await officeText(bytes)).toContain('Offline page one');
      return;
    case 'word-to-pdf':
      expect(pdfText(bytes)).toContain('Offline note');
      return;
    case 'excel-to-pdf':
      expect(pdfText(bytes)).toContain('Offline cell');
      return;
    case 'ppt-to-pdf':
      expect(pdfText(bytes)).toContain('Offline slide');
      return;
    case 'pdf-to-jpg': {
      const images = name.endsWith('.zip') ? (await zipEntries(bytes)).map((e) => e.bytes) : [bytes];
      expect(images.length).toBe(2);
      for (const image of images) expect((await loadImage(Buffer.from(image))).width).toBeGreaterThan(100);
      return;
    }
    case 'jpg-to-pdf':
      expect(await pageCount(bytes)).toBe(1);
      return;
    case 'image-compressor': {
      const image = await loadImage(Buffer.from(bytes));
      expect([image.width, image.height]).toEqual([64, 48]);
      return;
    }
    case 'edit-pdf':
      expect(pdfText(bytes)).toContain('Offline stamp');
      return;
    case 'add-watermark':
      // Drawn at 45°, pdftotext reads the watermark in pieces.
      expect(pdfText(bytes).replace(/\s+/g, '')).toContain('CONFIDENTIAL');
      expect(pdfText(bytes)).toContain('Offline page one');
      return;
    case 'rotate-pdf': {
      const doc = await PDFDocument.load(bytes);
      expect(doc.getPages().map((p) => p.getRotation().angle)).toEqual([90, 90]);
      return;
    }
    default:
      // compress, organize, unlock: the same two pages of text.
      expect(await pageCount(bytes)).toBe(2);
      expect(pdfText(bytes)).toMatch(/Offline page one[\s\S]*Offline page two/);
  }
}

/** Waits until the service worker controls the page (a fresh profile's first load is not controlled). */
async function controlled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), undefined, { timeout: 20_000 });
}

async function openToolWindow(page: Page, toolId: string) {
  await page.goto(`/tools/${toolId}`);
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  return dialog;
}

describe('every file tool offline after one visit', () => {
  let watched: WatchedPage;

  beforeAll(async () => {
    watched = await openPage(shared.browser, '/', { serviceWorkers: 'allow' });
    const { page, context } = watched;
    // Nothing but the first visit: the background caching is started by the page, not by a click.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.goto('/about');
    await page.getByRole('status').filter({ hasText: 'All tools are available offline' }).waitFor({ timeout: 170_000 });
    const toolPages = watched.requests.filter((url) => /\/api\//.test(url));
    expect(toolPages).toEqual([]);
    await context.setOffline(true);
  }, 180_000);

  afterAll(async () => {
    await watched?.context.close();
  });

  for (const tool of fileTools) {
    test(`${tool.name} runs offline and its output is right`, async () => {
      const { page } = watched;
      const dialog = await openToolWindow(page, tool.id);
      await page
        .locator('input[type=file]')
        .first()
        .setInputFiles(await inputsFor(tool.id));
      if (tool.id === 'protect-pdf') {
        await dialog.getByLabel('Password', { exact: true }).fill('offline-pw');
        await dialog.getByLabel('Confirm password').fill('offline-pw');
      }
      if (tool.id === 'unlock-pdf') await dialog.getByLabel('Password', { exact: true }).fill('offline-pw');
      if (tool.id === 'edit-pdf') {
        // The same-text form is folded under the page editor's button.
        await dialog.getByText('Or add the same text to every page').click();
        await dialog.getByLabel('Text to add').fill('Offline stamp');
      }
      const output = await downloadAfter(
        page,
        () => dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
        90_000,
      ).catch(async (error: Error) => {
        throw new Error(`${error.message}; alert: "${await dialog.getByRole('alert').first().textContent()}"`);
      });
      await checkOutput(tool.id, output);
    }, 120_000);
  }

  test('nothing went to the network while offline, and no error surfaced', () => {
    const origin = new URL(baseUrl()).origin;
    expect(watched.requests.filter((url) => /^https?:/.test(url) && !url.startsWith(origin))).toEqual([]);
    expect(watched.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
  });
});

describe('a tool whose engine is not on this device, offline', () => {
  test('with Save-Data nothing is downloaded; offline the tool says what it needs at once, never a module URL', async () => {
    const watched = await openPage(shared.browser, '', { serviceWorkers: 'allow' });
    const { page, context } = watched;
    // The browser asks sites to save data: Folio must not download its engines by itself.
    await context.addInitScript(() =>
      Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true }),
    );
    await page.goto('/about');
    await controlled(page);
    await page.getByRole('status').filter({ hasText: 'Data saver is on' }).waitFor({ timeout: 20_000 });
    // And the engine cache is empty (emptied, should anything have been put there).
    const cached = await page.evaluate(async (name) => {
      const had = (await (await caches.open(name)).keys()).length;
      await caches.delete(name);
      return had;
    }, ENGINE_CACHE);
    expect(cached).toBe(0);

    await context.setOffline(true);
    const dialog = await openToolWindow(page, 'merge-pdf');
    const expected = /^Merge PDF needs a one-time download of \d+\.\d MB — connect to the internet once/;
    // Before any file is picked.
    await dialog.getByRole('status').filter({ hasText: expected }).waitFor({ timeout: 2_000 });
    // And when run anyway: the same words, within 2 s, no URL, no hang.
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles(await inputsFor('merge-pdf'));
    await dialog.getByRole('button', { name: 'Process Files', exact: true }).click();
    const alert = dialog.getByRole('alert').filter({ hasText: 'needs a one-time download' });
    await alert.waitFor({ timeout: 2_000 });
    const text = (await alert.textContent()) ?? '';
    expect(text).toMatch(expected);
    expect(text).not.toMatch(/https?:|assets\/|\.js|Failed to fetch/);
    await context.close();
  });
});

describe('an engine that cannot be fetched while the browser thinks it is online', () => {
  test('the job fails at once with words, not a module URL, and does not hang', async () => {
    // No service worker and every engine request refused: the worker's own script cannot load.
    const context = await shared.browser.newContext({ baseURL: baseUrl(), serviceWorkers: 'block' });
    const page = await context.newPage();
    // A browser that refuses the service worker (private modes, policies) must not see its registration fail.
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.route('**/assets/engine/**', (route) => route.abort('internetdisconnected'));
    const dialog = await openToolWindow(page, 'rotate-pdf');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles(await inputsFor('rotate-pdf'));
    await dialog.getByRole('button', { name: 'Process Files', exact: true }).click();
    const alert = dialog.getByRole('alert').filter({ hasText: /connect to the internet|check your connection/i });
    await alert.waitFor({ timeout: 5_000 });
    expect(await alert.textContent()).not.toMatch(/https?:|assets\/|\.js|Failed to fetch/);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

describe('an update cleans up', () => {
  test('on activation the service worker deletes older engine caches and files its version does not list', async () => {
    const { page, context } = await openPage(shared.browser, '/', { serviceWorkers: 'allow' });
    await controlled(page);
    const kept = await page.evaluate(async (current) => {
      const list = (await (await fetch('/engine-assets.json')).json()) as {
        files: Array<{ url: string; group: string }>;
      };
      const listed = list.files.find((f) => f.group === 'core' && f.url.endsWith('.wasm'))!.url;
      await (await caches.open('folio-engines-v1')).put('/assets/engine/merge-pdf-OLD1.js', new Response('old'));
      const cache = await caches.open(current);
      await cache.put('/assets/engine/merge-pdf-OLD2.js', new Response('old'));
      await cache.put('/engine-data/libreoffice/0.0.1/soffice.wasm', new Response('old'));
      await cache.add(listed);
      // What an update does, short of building a second version: a new service worker activates.
      await (await navigator.serviceWorker.getRegistration())!.unregister();
      return listed;
    }, ENGINE_CACHE);
    await page.reload();
    await controlled(page);
    const state = async () =>
      page.evaluate(async (current) => {
        const paths = (await (await caches.open(current)).keys()).map((r) => new URL(r.url).pathname);
        return { v1: await caches.has('folio-engines-v1'), stale: paths.filter((p) => /OLD2|0\.0\.1/.test(p)), paths };
      }, ENGINE_CACHE);
    await expect.poll(async () => (await state()).v1, { timeout: 20_000 }).toBe(false);
    const after = await state();
    expect(after.stale).toEqual([]);
    expect(after.paths).toContain(kept);
    await context.close();
  });
});

describe('install', () => {
  async function dispatchInstallPrompt(page: Page) {
    await page.evaluate(() => {
      const event = new Event('beforeinstallprompt', { cancelable: true });
      Object.assign(event, {
        prompt: () => {
          (window as unknown as { prompted: number }).prompted =
            ((window as unknown as { prompted?: number }).prompted ?? 0) + 1;
          return Promise.resolve();
        },
        userChoice: Promise.resolve({ outcome: 'dismissed' }),
      });
      window.dispatchEvent(event);
    });
  }

  test('no Install button until the browser offers it; then the header button calls prompt()', async () => {
    const { page, context, errors } = await openPage(shared.browser, '/', { serviceWorkers: 'allow' });
    await page.locator('h1').first().waitFor();
    expect(await page.getByRole('button', { name: 'Install app' }).count()).toBe(0);
    await dispatchInstallPrompt(page);
    const install = page.getByRole('banner').getByRole('button', { name: 'Install app' });
    await install.waitFor();
    await install.click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { prompted?: number }).prompted)).toBe(1);
    // The browser's offer can be used once: dismissed, the button goes.
    await expect.poll(() => page.getByRole('button', { name: 'Install app' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('on a phone the Install button is in the menu', async () => {
    const { page, context } = await openPage(shared.browser, '/', { width: 390, height: 800, serviceWorkers: 'allow' });
    await page.locator('h1').first().waitFor();
    await dispatchInstallPrompt(page);
    expect(await page.getByRole('banner').getByRole('button', { name: 'Install app' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const inMenu = page.getByRole('complementary', { name: 'Tool Menu' }).getByRole('button', { name: 'Install app' });
    await inMenu.click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { prompted?: number }).prompted)).toBe(1);
    await context.close();
  });
});

describe('share target', () => {
  let server: Server;
  let otherSite: string;

  /** A page on another site (localhost instead of 127.0.0.1, another port) with a form aimed at Folio. */
  beforeAll(async () => {
    server = createServer((req, res) => {
      const hideReferrer = req.url?.includes('no-referrer');
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html><head>${hideReferrer ? '<meta name="referrer" content="no-referrer">' : ''}</head><body>
        <form id="f" method="post" enctype="multipart/form-data" action="${baseUrl()}/share-target">
          <input type="file" name="files" id="files"><button>Send</button></form></body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    otherSite = `http://localhost:${address.port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  async function submitFrom(page: Page, url: string): Promise<void> {
    await page.goto(url);
    await page
      .locator('#files')
      .setInputFiles({ name: '../../evil.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await textPdf()) });
    await Promise.all([
      page.waitForURL((u) => u.origin === new URL(baseUrl()).origin),
      page.locator('#f').evaluate((form: HTMLFormElement) => form.submit()),
    ]);
  }

  for (const variant of ['', '?no-referrer']) {
    test(`a form on another site${variant ? ' that hides its referrer' : ''} cannot hand files to Folio`, async () => {
      const { page, context } = await openPage(shared.browser, '/', { serviceWorkers: 'allow' });
      await controlled(page);
      await submitFrom(page, `${otherSite}/${variant}`);
      await expect.poll(() => page.locator('body').textContent()).toContain('only from your device');
      await page.goto('/open?source=share');
      await page.getByText('No files were handed to Folio').waitFor();
      expect(await page.getByText('evil.pdf').count()).toBe(0);
      await context.close();
    });
  }
});
