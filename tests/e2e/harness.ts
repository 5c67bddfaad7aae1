/**
 * Shared e2e plumbing: Debian's Chromium through playwright-core (never a downloaded browser),
 * a page that records console errors, failed requests and every request's origin, and
 * screenshots at desktop (1280) and phone (390) widths into test-results/screenshots.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = 'test-results/screenshots';

export function baseUrl(): string {
  return inject('baseUrl');
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export interface SharedBrowser {
  /** Chromium, launched before the file's tests. */
  readonly browser: Browser;
  /** The file's temporary directory (files handed to pdftoppm, qpdf…), when one was asked for. */
  readonly scratch: string;
}

/**
 * The Chromium a test file's tests share, launched before them and closed after; with
 * `scratchPrefix`, also a temporary directory of that prefix, deleted after them. Called at the
 * top of a test file, before its own hooks (which then run after the launch, and before the close).
 */
export function sharedBrowser(scratchPrefix?: string): SharedBrowser {
  let browser: Browser | undefined;
  let scratch: string | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
    if (scratchPrefix) scratch = mkdtempSync(join(tmpdir(), scratchPrefix));
  });
  afterAll(async () => {
    await browser?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
  return {
    get browser() {
      if (!browser) throw new Error('The shared browser is launched in beforeAll: use it inside a test or hook');
      return browser;
    },
    get scratch() {
      if (!scratch) throw new Error(`No scratch directory: call sharedBrowser('folio-…-') to have one`);
      return scratch;
    },
  };
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
  /** Requests that failed (network error or HTTP ≥ 400), except those a test expects. */
  failedRequests: string[];
  /** Every request URL the page made. */
  requests: string[];
}

export async function openPage(
  browser: Browser,
  path = '/',
  {
    width = 1280,
    height = 800,
    acceptDownloads = true,
    serviceWorkers = 'block',
  }: { width?: number; height?: number; acceptDownloads?: boolean; serviceWorkers?: 'allow' | 'block' } = {},
): Promise<WatchedPage> {
  // Service workers are blocked unless a test is about them (pwa, offline-*, ocr-languages): a first
  // visit's worker precaches the app and then downloads the 42 MB core engine set in the background,
  // which in a fresh context per test cost every e2e run minutes on a 2-core machine (docs/testing.md). A
  // first visit's page is not controlled by its worker anyway, so the page under test runs the same.
  const context = await browser.newContext({
    viewport: { width, height },
    acceptDownloads,
    baseURL: baseUrl(),
    serviceWorkers,
  });
  const page = await context.newPage();
  const watched: WatchedPage = { page, context, errors: [], failedRequests: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') watched.errors.push(message.text());
  });
  page.on('pageerror', (error) => watched.errors.push(`pageerror: ${error.message}`));
  page.on('request', (request) => watched.requests.push(request.url()));
  page.on('requestfailed', (request) =>
    watched.failedRequests.push(`${request.url()} ${request.failure()?.errorText ?? ''}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) watched.failedRequests.push(`${response.url()} ${response.status()}`);
  });
  if (path) await page.goto(path);
  return watched;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}

/** Opens /tools/<id> in the given theme and size, and its modal through the page's main button. */
export async function openToolModal(
  browser: Browser,
  toolId: string,
  { width = 1280, height = 900, theme = 'light' }: { width?: number; height?: number; theme?: 'light' | 'dark' } = {},
): Promise<WatchedPage> {
  const watched = await openPage(browser, '', { width, height });
  await watched.context.addInitScript((value) => localStorage.setItem('theme', value), theme);
  await watched.page.goto(`/tools/${toolId}`);
  await watched.page
    .getByRole('button', { name: /Upload Files|Get Started/ })
    .first()
    .click();
  await watched.page.getByRole('dialog').waitFor();
  return watched;
}

/** Runs `click` and returns the file it makes the page download. */
export async function downloadAfter(
  page: Page,
  click: () => Promise<void>,
  timeout = 90_000,
): Promise<{ name: string; bytes: Uint8Array }> {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout }), click()]);
  return { name: file.suggestedFilename(), bytes: new Uint8Array(readFileSync(await file.path())) };
}

/** Clicks the frame's Process Files and returns the file it downloads. */
export const processFiles = (page: Page, timeout?: number) =>
  downloadAfter(page, () => page.getByRole('button', { name: 'Process Files', exact: true }).click(), timeout);

/** A file as playwright's setInputFiles takes it. */
export type Upload = { name: string; mimeType: string; buffer: Buffer };
export const pdfUpload = (name: string, bytes: Uint8Array): Upload => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from(bytes),
});
