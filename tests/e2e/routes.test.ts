/**
 * Every route in Chromium: headings, landmarks, the lists generated from the catalogue (shown
 * exactly as the catalogue orders them), the /privacy-policy redirect, unknown tool ids and unknown
 * paths — with no console error and no failed request anywhere. Screenshots at 1280 and 390 px.
 */
import { describe, expect, test } from 'vitest';
import { screenshot, sharedBrowser } from './harness.ts';
import { ROUTES, expectClean, heading, openThemed, scrollTop } from './shell-helpers.ts';
import { popularTools, sections, tools } from '../../src/catalogue/index.ts';

const shared = sharedBrowser();

const slug = (path: string) => (path === '/' ? 'home' : path.slice(1).replace(/\//g, '-'));

describe('every route', () => {
  for (const route of ROUTES) {
    test(`${route.path} renders its page inside the frame`, async () => {
      const watched = await openThemed(shared.browser, route.path);
      const { page } = watched;
      expect(await heading(page)).toMatch(route.heading);
      // Landmarks: one banner, the main navigation, main, contentinfo.
      expect(await page.locator('header.site-header').count()).toBe(1);
      expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(1);
      expect(await page.locator('main#main').count()).toBe(1);
      expect(await page.locator('footer.site-footer').count()).toBe(1);
      expect(await page.locator('body').textContent()).not.toContain('Unexpected Application Error');
      expect(await page.title()).toContain('Folio');
      await scrollTop(page);
      await screenshot(page, `route-${slug(route.path)}-1280-light`);
      await page.setViewportSize({ width: 390, height: 844 });
      await scrollTop(page);
      await screenshot(page, `route-${slug(route.path)}-390-light`);
      expectClean(watched);
      await watched.context.close();
    });
  }

  test('/privacy-policy redirects to /privacy (the Terms page links there)', async () => {
    const watched = await openThemed(shared.browser, '/terms');
    const { page } = watched;
    await heading(page);
    const link = page.locator('main a[href="/privacy-policy"]');
    expect(await link.count()).toBe(1);
    await link.click();
    await page.waitForURL('**/privacy');
    await expect.poll(() => heading(page)).toBe('Privacy Policy');
    await page.goto('/privacy-policy');
    await page.waitForURL('**/privacy');
    await expect.poll(() => heading(page)).toBe('Privacy Policy');
    expect(await page.locator('main').textContent()).toContain('06/23/2025');
    expect(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    expectClean(watched);
    await watched.context.close();
  });

  test('an unknown tool id redirects to /tools; an unknown path shows the 404 page', async () => {
    const watched = await openThemed(shared.browser, '/tools/not-a-tool');
    const { page } = watched;
    await page.waitForURL((url) => url.pathname === '/tools');
    await expect.poll(() => heading(page)).toBe('Explore All Tools');
    await page.goto('/some/deep/unknown/path');
    await expect.poll(() => heading(page)).toBe('Page not found');
    await page.getByRole('link', { name: 'Explore all tools' }).click();
    await page.waitForURL((url) => url.pathname === '/tools');
    expectClean(watched);
    await watched.context.close();
  });
});

describe('lists generated from the catalogue', () => {
  test('home: hero buttons, four popular tools, six benefits, honest figures, closing call to action', async () => {
    const watched = await openThemed(shared.browser, '/');
    const { page } = watched;
    await heading(page);
    const main = page.locator('main');
    expect(await main.getByRole('link', { name: 'Explore All Tools' }).getAttribute('href')).toBe('/tools');
    expect(await main.getByRole('link', { name: 'How It Works' }).getAttribute('href')).toBe('/how-it-works');
    const popular = page.locator('section[aria-labelledby="popular-title"] .tool-card');
    const popularIds = popularTools.map((t) => t.id);
    expect(await popular.evaluateAll((cards) => cards.map((c) => c.getAttribute('data-tool-id')))).toEqual(popularIds);
    for (const id of popularIds) {
      const card = page.locator(`section[aria-labelledby="popular-title"] a[href="/tools/${id}"]`);
      expect(await card.textContent()).toContain('Try now');
    }
    expect(await page.locator('.benefit').count()).toBe(6);
    const figures = await page.locator('.figure dd').allTextContents();
    expect(figures).toEqual([String(tools.length), '0 bytes', 'Offline', 'Free']);
    expect(await main.textContent()).not.toMatch(/10M\+|99\.9%|24\/7|50\+/);
    expect(await main.getByRole('link', { name: 'Get Started Now' }).getAttribute('href')).toBe('/tools');
    expect(await main.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toBe('/contact');
    expectClean(watched);
    await watched.context.close();
  });

  test('tools page: the groups, in order, with every tool once', async () => {
    const watched = await openThemed(shared.browser, '/tools');
    const { page } = watched;
    await heading(page);
    const groups = page.locator('.tool-group');
    expect(await groups.count()).toBe(sections.toolsPage.length);
    for (const [index, group] of sections.toolsPage.entries()) {
      const section = groups.nth(index);
      expect(await section.locator('h2').textContent()).toContain(group.title);
      const ids = await section
        .locator('.tool-card')
        .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-tool-id')));
      expect(ids).toEqual(group.tools.map((t) => t.id));
    }
    expectClean(watched);
    await watched.context.close();
  });

  test('header dropdown: its columns with icon, name and description', async () => {
    const watched = await openThemed(shared.browser, '/');
    const { page } = watched;
    await heading(page);
    await page.getByRole('button', { name: 'Tools' }).click();
    const columns = page.locator('.dropdown-column');
    expect(await columns.count()).toBe(sections.dropdown.length);
    for (const [index, column] of sections.dropdown.entries()) {
      expect(await columns.nth(index).locator('h2').textContent()).toBe(column.title);
      const hrefs = await columns
        .nth(index)
        .locator('a')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(column.tools.map((t) => `/tools/${t.id}`));
      expect(await columns.nth(index).locator('a svg').count()).toBe(column.tools.length);
    }
    expectClean(watched);
    await watched.context.close();
  });

  test('footer: three columns, social links in a new tab with rel=noopener, copyright with the year and Folio', async () => {
    const watched = await openThemed(shared.browser, '/about');
    const { page } = watched;
    await heading(page);
    const footer = page.locator('footer.site-footer');
    expect(await footer.textContent()).toContain(
      'Your all-in-one solution for PDF conversion, editing, and utility tools.',
    );
    expect(await footer.locator('.footer-grid > *').count()).toBe(3);
    for (const [name, href] of [
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
      ['Contact Us', '/contact'],
    ]) {
      expect(await footer.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(href);
    }
    for (const name of ['Twitter', 'Instagram', 'Facebook']) {
      const link = footer.getByRole('link', { name: new RegExp(`^${name}`) });
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toContain('noopener');
    }
    const copyright = await footer.locator('.footer-bottom').textContent();
    expect(copyright).toContain(`© ${new Date().getFullYear()} Folio`);
    expectClean(watched);
    await watched.context.close();
  });

  test('every tool has a detail page with its button and all five content sections', async () => {
    const watched = await openThemed(shared.browser, '/tools');
    const { page } = watched;
    await heading(page);
    for (const tool of tools) {
      await page.goto(`/tools/${tool.id}`);
      await expect.poll(() => heading(page)).toBe(tool.name);
      const button = tool.kind === 'file' ? 'Upload Files' : 'Get Started';
      expect(await page.getByRole('button', { name: button, exact: true }).count(), `${tool.id} button`).toBe(1);
      const sections = await page.locator('.tool-section h2').allTextContents();
      expect(
        sections.map((s) => s.trim()),
        tool.id,
      ).toEqual(['Overview', 'Key Features', 'How to Use', 'Perfect For', 'Privacy & Security', 'Why Use Folio']);
      expect(await page.locator('.steps-list li').count()).toBe(tool.content.usage.length);
      expect(await page.title()).toBe(`${tool.name} — Folio`);
    }
    expectClean(watched);
    await watched.context.close();
  });

  test('How It Works: four steps and the tagline', async () => {
    const watched = await openThemed(shared.browser, '/how-it-works');
    const { page } = watched;
    await heading(page);
    const steps = (await page.locator('.how-step h2').allTextContents()).map((s) => s.replace(/^Step \d: /, '').trim());
    expect(steps).toEqual(['Upload Your File', 'Apply Tool Instantly', 'Download Your Result', 'Done']);
    expect(await page.locator('main').textContent()).toContain('No Installs. No Signup. 100% Free.');
    expectClean(watched);
    await watched.context.close();
  });
});
