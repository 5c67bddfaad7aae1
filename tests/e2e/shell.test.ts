/**
 * The app frame in Chromium: Tools dropdown (click, outside click, Escape, keyboard, choosing), the
 * slide-in Tool Menu (both sections open, collapse, side tab, close, picking), the phone layout,
 * the theme (toggle without reload, persisted, applied before first paint) and the tool modal
 * (open, focus trap, Escape, focus return, opening from a card, reset on tool change).
 */
import { describe, expect, test } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { baseUrl, screenshot, sharedBrowser } from './harness.ts';
import { animationsDone, expectClean, heading, openThemed, scrollTop } from './shell-helpers.ts';
import { fileTools, tools, utilityTools } from '../../src/catalogue/index.ts';

const shared = sharedBrowser();

const activeInside = (page: Page, selector: string) =>
  page.evaluate((sel) => Boolean(document.querySelector(sel)?.contains(document.activeElement)), selector);
const activeLabel = (page: Page) =>
  page.evaluate(
    () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim() ?? '',
  );

describe('Tools dropdown', () => {
  test('opens on click; closes on outside click, on Escape (focus back on the button) and on choosing', async () => {
    const watched = await openThemed(shared.browser, '/');
    const { page } = watched;
    await heading(page);
    const button = page.getByRole('button', { name: 'Tools' });
    const panel = page.locator('.dropdown-panel');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await panel.isVisible()).toBe(false);

    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await panel.isVisible()).toBe(true);
    await screenshot(page, 'shell-dropdown-1280-light');
    await page.mouse.click(20, 700); // outside
    await expect.poll(() => panel.isVisible()).toBe(false);

    await button.click();
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(await activeLabel(page)).toBe('Tools');

    // Keyboard: ArrowDown opens and focuses the first entry; arrows move; Enter chooses.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => panel.isVisible()).toBe(true);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('href')))
      .toBe('/tools/pdf-to-word');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('/tools/word-to-pdf');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/tools/word-to-pdf');
    await expect.poll(() => heading(page)).toBe('Word to PDF');
    await expect.poll(() => panel.isVisible()).toBe(false);
    // Like every link to a tool, the menu opens its window; closing it shows the detail page.
    expect(await page.getByRole('dialog', { name: 'Word to PDF' }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // Choosing with the mouse.
    await button.click();
    await panel.getByRole('link', { name: /JSON Formatter/ }).click();
    await page.waitForURL('**/tools/json-formatter');
    await expect.poll(() => panel.isVisible()).toBe(false);
    expectClean(watched);
    await watched.context.close();
  });
});

describe('Tool Menu', () => {
  test('side tab opens it with both sections expanded; sections collapse; close button and Escape close it', async () => {
    const watched = await openThemed(shared.browser, '/about');
    const { page } = watched;
    await heading(page);
    const menu = page.getByRole('complementary', { name: 'Tool Menu' });
    const tab = page.getByRole('button', { name: 'Tool Menu', exact: true });
    expect(await menu.isVisible()).toBe(false);
    await tab.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await tab.isVisible()).toBe(false);
    const toggles = menu.locator('.side-section-toggle');
    expect(await toggles.count()).toBe(2);
    expect(await toggles.allTextContents()).toEqual(['PDF Tools17', 'Utility Tools8']);
    for (const toggle of await toggles.all()) expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.locator('.side-list').nth(0).locator('a').count()).toBe(17);
    expect(await menu.locator('.side-list').nth(1).locator('a').count()).toBe(8);
    await animationsDone(page); // the 300 ms slide finishes before the picture
    await screenshot(page, 'shell-side-menu-1280-light');

    await toggles.nth(0).click();
    expect(await toggles.nth(0).getAttribute('aria-expanded')).toBe('false');
    const firstList = menu.locator('.side-list').nth(0);
    await expect.poll(() => firstList.evaluate((el) => el.getBoundingClientRect().height)).toBe(0);
    expect(await firstList.getAttribute('inert')).not.toBeNull();
    await toggles.nth(0).click();
    await expect.poll(() => firstList.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThan(200);

    await menu.getByRole('button', { name: 'Close Tool Menu' }).click();
    await expect.poll(() => menu.isVisible()).toBe(false);
    await expect.poll(() => tab.isVisible()).toBe(true);

    await tab.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.isVisible()).toBe(false);
    expectClean(watched);
    await watched.context.close();
  });

  test('picking a tool navigates to it, marks it active and closes the menu', async () => {
    const watched = await openThemed(shared.browser, '/');
    const { page } = watched;
    await heading(page);
    await page.getByRole('button', { name: 'Tool Menu', exact: true }).click();
    const menu = page.getByRole('complementary', { name: 'Tool Menu' });
    await menu.getByRole('link', { name: 'BMI Calculator' }).click();
    await page.waitForURL('**/tools/bmi-calculator');
    await expect.poll(() => heading(page)).toBe('BMI Calculator');
    await expect.poll(() => menu.isVisible()).toBe(false);
    await expect.poll(() => page.getByRole('dialog', { name: 'BMI Calculator' }).count()).toBe(1);
    // Closed, the menu is inert (out of the accessibility tree), so look it up by CSS.
    expect(await page.locator('.side-menu a[href="/tools/bmi-calculator"]').getAttribute('aria-current')).toBe('page');
    expectClean(watched);
    await watched.context.close();
  });

  test('phone layout: no desktop nav; the menu button opens the menu with the page links', async () => {
    const watched = await openThemed(shared.browser, '/', { width: 390, height: 844 });
    const { page } = watched;
    await heading(page);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    expect(await menuButton.isVisible()).toBe(true);
    await menuButton.click();
    const menu = page.getByRole('complementary', { name: 'Tool Menu' });
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
    await animationsDone(page);
    await screenshot(page, 'shell-side-menu-390-light');
    await menu.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Contact' }).click();
    await page.waitForURL('**/contact');
    await expect.poll(() => heading(page)).toBe('Contact Us');
    await expect.poll(() => menu.isVisible()).toBe(false);
    // The page does not scroll sideways at 390 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expectClean(watched);
    await watched.context.close();
  });
});

describe('theme', () => {
  test('light by default; toggles at once without reload; persists; dark is applied before the app runs', async () => {
    const watched = await openThemed(shared.browser, '/tools');
    const { page } = watched;
    await heading(page);
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    expect(await isDark()).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    // Same document: the marker survives, so there was no reload.
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(246, 247, 251)');

    await page.reload();
    await heading(page);
    expect(await isDark()).toBe(true);
    expect(await page.getByRole('button', { name: 'Switch to light theme' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await isDark()).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    expectClean(watched);
    await watched.context.close();

    // No flash: with the app's JavaScript blocked, index.html's inline script alone applies the stored theme.
    const context = await shared.browser.newContext({ baseURL: baseUrl() });
    const raw = await context.newPage();
    await raw.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await raw.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await raw.goto('/', { waitUntil: 'domcontentloaded' });
    expect(await raw.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await raw.evaluate(() => document.getElementById('root')?.childElementCount)).toBe(0);
    await context.close();
  });
});

describe('tool modal', () => {
  test('opens from the button; focus is trapped; Escape closes it and focus returns to the button', async () => {
    const watched = await openThemed(shared.browser, '/tools/merge-pdf');
    const { page } = watched;
    await heading(page);
    const opener = page.getByRole('button', { name: 'Upload Files', exact: true });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Merge PDF' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await activeInside(page, '[role=dialog]')).toBe(true);
    await screenshot(page, 'shell-modal-1280-light');
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await activeInside(page, '[role=dialog]'), `Tab ${i + 1} left the dialog`).toBe(true);
    }
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await activeInside(page, '[role=dialog]'), `Shift+Tab ${i + 1} left the dialog`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => activeLabel(page)).toBe('Upload Files');

    // The close button closes it too.
    await opener.click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => activeLabel(page)).toBe('Upload Files');
    expectClean(watched);
    await watched.context.close();
  });

  test('a card on /tools opens the tool page with its modal; a new tool starts fresh; reload shows the page', async () => {
    const watched = await openThemed(shared.browser, '/tools');
    const { page } = watched;
    await heading(page);
    // Opening a tool loads the in-page API and its engine in the background; the reload below must
    // wait for them, or it aborts them and the check at the end counts a failed request.
    const inFlight = new Set<Request>();
    page.on('request', (request) => inFlight.add(request));
    page.on('requestfinished', (request) => inFlight.delete(request));
    page.on('requestfailed', (request) => inFlight.delete(request));
    await page.locator('.tool-card[data-tool-id="protect-pdf"]').click();
    await page.waitForURL('**/tools/protect-pdf');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-labelledby')).toBeTruthy();
    expect(await page.locator('#tool-modal-title').textContent()).toBe('Protect PDF');
    await expect.poll(() => heading(page)).toBe('Protect PDF');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    // The opener (the card) is gone; focus lands on the page's own button.
    await expect.poll(() => activeLabel(page)).toBe('Upload Files');
    await expect.poll(() => inFlight.size).toBe(0);
    await page.reload();
    await heading(page);
    expect(await dialog.count()).toBe(0);

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/tools');
    await page.locator('.tool-card[data-tool-id="password-generator"]').click();
    await page.waitForURL('**/tools/password-generator');
    await dialog.waitFor();
    expect(await page.locator('#tool-modal-title').textContent()).toBe('Password Generator');
    await screenshot(page, 'shell-modal-utility-1280-light');
    expectClean(watched);
    await watched.context.close();
  });

  test('a file tool opens on its file picker, a utility on its own form', async () => {
    for (const tool of [fileTools[0], utilityTools[0]]) {
      const watched = await openThemed(shared.browser, `/tools/${tool.id}`);
      const { page } = watched;
      await heading(page);
      await page
        .getByRole('button', { name: tool.kind === 'file' ? 'Upload Files' : 'Get Started', exact: true })
        .click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      if (tool.kind === 'file') await dialog.getByText('Click to select files').waitFor();
      else await dialog.locator('input, textarea, select').first().waitFor();
      expectClean(watched);
      await watched.context.close();
    }
  });

  test('the phone layout shows the modal as a bottom sheet that fits the screen', async () => {
    const tool = tools.find((t) => t.id === 'merge-pdf')!;
    const watched = await openThemed(shared.browser, `/tools/${tool.id}`, { width: 390, height: 844, theme: 'dark' });
    const { page } = watched;
    await heading(page);
    await page.getByRole('button', { name: 'Upload Files', exact: true }).click();
    // The sheet slides up when it opens: measure once it has settled.
    await expect
      .poll(async () => {
        const box = await page.locator('.modal').boundingBox();
        return box ? box.y + box.height : Infinity;
      })
      .toBeLessThanOrEqual(844 + 1);
    const box = await page.locator('.modal').boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'shell-modal-390-dark');
    await page.keyboard.press('Escape');
    expectClean(watched);
    await watched.context.close();
  });
});

describe('screenshots in both themes', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      test(`home and tools at ${width} px, ${theme}`, async () => {
        for (const path of ['/', '/tools', '/tools/compress-pdf']) {
          const watched = await openThemed(shared.browser, path, { theme, width, height: width === 390 ? 844 : 800 });
          const { page } = watched;
          await heading(page);
          await scrollTop(page);
          const name = path === '/' ? 'home' : path.slice(1).replace(/\//g, '-');
          await screenshot(page, `${name}-${width}-${theme}`);
          expectClean(watched);
          await watched.context.close();
        }
      });
    }
  }
});
