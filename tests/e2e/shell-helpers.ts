/**
 * Helpers for the app-frame suites (routes, shell, contact, a11y): open a page in a given theme,
 * wait for a route's heading, and run axe-core (from node_modules, injected inline — never a CDN).
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { openPage, type WatchedPage } from './harness.ts';

export const ROUTES: readonly { path: string; heading: RegExp }[] = [
  { path: '/', heading: /Every PDF tool you need/ },
  { path: '/tools', heading: /^Explore All Tools$/ },
  { path: '/tools/merge-pdf', heading: /^Merge PDF$/ },
  { path: '/tools/json-formatter', heading: /^JSON Formatter$/ },
  { path: '/about', heading: /^About Folio$/ },
  { path: '/contact', heading: /^Contact Us$/ },
  { path: '/privacy', heading: /^Privacy Policy$/ },
  { path: '/terms', heading: /^Terms of Service$/ },
  { path: '/how-it-works', heading: /^How It Works$/ },
  { path: '/no-such-page', heading: /^Page not found$/ },
];

/** Opens `path` with the theme stored as a returning visitor would have it. */
export async function openThemed(
  browser: Browser,
  path: string,
  { theme = 'light', width = 1280, height = 800 }: { theme?: 'light' | 'dark'; width?: number; height?: number } = {},
): Promise<WatchedPage> {
  const watched = await openPage(browser, '', { width, height });
  if (theme === 'dark') await watched.page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await watched.page.goto(path);
  return watched;
}

export async function heading(page: Page): Promise<string> {
  const h1 = page.locator('main h1').first();
  await h1.waitFor();
  return (await h1.textContent())?.trim() ?? '';
}

/** Fails the test on any console error or failed request seen so far. */
export function expectClean(watched: WatchedPage): void {
  expect(watched.errors, 'console errors').toEqual([]);
  expect(watched.failedRequests, 'failed requests').toEqual([]);
}

const AXE_SOURCE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Runs axe-core on the page as it is now and returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol rather than page.addScriptTag: Folio's Content-Security-Policy
  // (rightly) refuses inline scripts, and the test must not weaken it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${AXE_SOURCE}\n;void 0`);
  // Colour contrast is judged on what is finally shown: let opening animations (fades) finish first.
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
      timeout: 5_000,
    })
    .catch(() => {});
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Waits until no CSS animation or transition is running (a menu's slide, a modal's fade). */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
    timeout: 5_000,
  });
}

/** Full-page screenshots are taken from the top, so the fixed header is drawn where it belongs. */
export async function scrollTop(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
}
