/**
 * Automated accessibility check: axe-core (from node_modules, injected inline) on every route, in
 * both themes, plus the open Tools dropdown, the open Tool Menu and the open tool modal. Fails on
 * any serious or critical violation.
 */
import { describe, expect, test } from 'vitest';
import { sharedBrowser } from './harness.ts';
import { ROUTES, animationsDone, expectClean, heading, openThemed, seriousViolations } from './shell-helpers.ts';

const shared = sharedBrowser();

describe('axe-core: no serious or critical violations', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`every route, ${theme} theme`, async () => {
      for (const route of ROUTES) {
        const watched = await openThemed(shared.browser, route.path, { theme });
        await heading(watched.page);
        expect(await seriousViolations(watched.page), `${route.path} (${theme})`).toEqual([]);
        expectClean(watched);
        await watched.context.close();
      }
    });
  }

  test('open dropdown, open Tool Menu, open modal, and the phone layout', async () => {
    const watched = await openThemed(shared.browser, '/tools/split-pdf');
    const { page } = watched;
    await heading(page);
    await page.getByRole('button', { name: 'Tools' }).click();
    expect(await seriousViolations(page), 'dropdown').toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Tool Menu', exact: true }).click();
    await animationsDone(page);
    expect(await seriousViolations(page), 'side menu').toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Upload Files', exact: true }).click();
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page), 'modal').toEqual([]);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await animationsDone(page);
    expect(await seriousViolations(page), 'phone menu').toEqual([]);
    expectClean(watched);
    await watched.context.close();
  });
});
