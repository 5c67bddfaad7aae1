/**
 * Every tool window as users see it, with files chosen (file tools) or open (utilities), at 1280 and
 * 390 px, light and dark: a viewport screenshot each into test-results/screenshots/window-<id>-<w>-<theme>.png
 * (to be looked at; docs/tool-window.md says which were), and axe-core over each window with files
 * chosen. The primary action is on screen in every one of them.
 */
import { describe, expect, test } from 'vitest';
import { mkdirSync } from 'node:fs';
import JSZip from 'jszip';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR, openPage, type Upload, sharedBrowser } from './harness.ts';
import { seriousViolations } from './shell-helpers.ts';
import { labelledPdf } from '../support/page-fixtures.ts';
import { solidImage } from '../support/edit-pdf-fixtures.ts';
import { fileTools, utilityTools } from '../../src/catalogue/index.ts';

const shared = sharedBrowser();

/** A ZIP with the part Office readers and Folio's type check look for; it is only picked, never converted. */
async function officeShell(name: string, part: string, mimeType: string): Promise<Upload> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types/>');
  zip.file(part, '<?xml version="1.0"?><root/>');
  return { name, mimeType, buffer: await zip.generateAsync({ type: 'nodebuffer' }) };
}

async function filesFor(toolId: string): Promise<Upload[]> {
  const pdf = async (name: string, label: string, pages: number): Promise<Upload> => ({
    name,
    mimeType: 'application/pdf',
    buffer: Buffer.from(await labelledPdf(label, pages)),
  });
  switch (toolId) {
    case 'merge-pdf':
      return Promise.all(
        ['Annual report', 'Appendix A', 'Appendix B', 'Cover letter', 'Invoice 2026-11'].map((n, i) =>
          pdf(`${n}.pdf`, 'P', i + 1),
        ),
      );
    case 'jpg-to-pdf':
    case 'image-compressor':
      return [
        {
          name: 'holiday-photos-1.png',
          mimeType: 'image/png',
          buffer: Buffer.from(solidImage('image/png', '#3a7bd5', 320, 240)),
        },
        {
          name: 'holiday-photos-2.jpg',
          mimeType: 'image/jpeg',
          buffer: Buffer.from(solidImage('image/jpeg', '#e07a2f', 240, 320)),
        },
      ].slice(0, toolId === 'image-compressor' ? 1 : 2);
    case 'word-to-pdf':
      return [
        await officeShell(
          'report.docx',
          'word/document.xml',
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        ),
      ];
    case 'excel-to-pdf':
      return [
        await officeShell(
          'figures.xlsx',
          'xl/workbook.xml',
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        ),
      ];
    case 'ppt-to-pdf':
      return [
        await officeShell(
          'slides.pptx',
          'ppt/presentation.xml',
          'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        ),
      ];
    default:
      return [await pdf('report.pdf', 'R', 6)];
  }
}

async function openWindow(page: Page, toolId: string, kind: 'file' | 'utility'): Promise<void> {
  await page.goto(`/tools/${toolId}`);
  await page
    .getByRole('button', { name: kind === 'file' ? 'Upload Files' : 'Get Started' })
    .first()
    .click();
  await page.getByRole('dialog').waitFor();
}

async function chooseFiles(page: Page, toolId: string): Promise<void> {
  const files = await filesFor(toolId);
  await page.locator('.file-tool input[type=file]').first().setInputFiles(files);
  await expect
    .poll(() => page.getByRole('list', { name: 'Selected files' }).locator('li').count(), { timeout: 20_000 })
    .toBe(files.length);
  // PDFs: wait until each is read (page count shown); other files have no check.
  if (files[0].mimeType === 'application/pdf') {
    await expect.poll(() => page.locator('.file-pages[aria-busy="true"]').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => page.locator('.file-thumb img').count(), { timeout: 30_000 }).toBeGreaterThan(0);
  }
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
      timeout: 5_000,
    })
    .catch(() => {});
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png` });
}

describe('every tool window, both widths, both themes', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const [width, height] of [
      [1280, 720],
      [390, 844],
    ] as const) {
      test(`${width}×${height} ${theme}`, async () => {
        const watched = await openPage(shared.browser, '', { width, height });
        const { page, context } = watched;
        await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
        for (const tool of fileTools) {
          await openWindow(page, tool.id, 'file');
          await chooseFiles(page, tool.id);
          // The primary action is on screen with the files chosen.
          const box = await page.locator('.file-tool > .actions .primary-action').boundingBox();
          expect(box, tool.id).not.toBeNull();
          expect(box!.y + box!.height, tool.id).toBeLessThanOrEqual(height);
          await shoot(page, `window-${tool.id}-${width}-${theme}`);
          if (width === 1280) expect(await seriousViolations(page), `${tool.id} (${theme})`).toEqual([]);
        }
        for (const tool of utilityTools) {
          await openWindow(page, tool.id, 'utility');
          await page.getByRole('dialog').locator('button.u-calculate').waitFor();
          await shoot(page, `window-${tool.id}-${width}-${theme}`);
        }
        expect(watched.errors).toEqual([]);
        await context.close();
      }, 600_000);
    }
  }
});
