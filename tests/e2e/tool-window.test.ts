/**
 * The tool window (issue #23) in Chromium: files checked the moment they are picked (password,
 * real type, damage), each PDF's first page and page count in the list, the action always in view,
 * one way into a tool from every link, and outputs named after their inputs.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import JSZip from 'jszip';
import { baseUrl, downloadAfter, openPage, openToolModal, screenshot, pdfUpload, sharedBrowser } from './harness.ts';
import { encrypt, labelledPdf, pageLabels } from '../support/page-fixtures.ts';

const shared = sharedBrowser();

const pdf = pdfUpload;
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

const openTool = (toolId: string, { width = 1280, height = 800 } = {}) =>
  openToolModal(shared.browser, toolId, { width, height });

const fileRow = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Selected files' }).locator('li', { hasText: name });

describe('check on pick', () => {
  test('an empty window says why the action waits', async () => {
    const { page, context } = await openTool('split-pdf');
    const action = page.getByRole('button', { name: 'Process Files', exact: true });
    expect(await action.isDisabled()).toBe(true);
    expect(await page.locator('.process-reason').textContent()).toBe('Add a PDF to start');
    await context.close();
  });

  test('an encrypted PDF asks for its password as soon as it is picked; a wrong one is explained', async () => {
    const { page, context, errors } = await openTool('compress-pdf');
    const secret = await encrypt(await labelledPdf('S', 3), 'open-sesame');
    await page.locator('input[type=file]').setInputFiles([pdf('secret.pdf', secret)]);
    // No Process press: the prompt comes from the pick alone.
    await page.getByLabel('PDF password').waitFor();
    await expect
      .poll(() => fileRow(page, 'secret.pdf').textContent(), { timeout: 20_000 })
      .toContain('Needs its password');
    expect(await page.getByText('the password that opens the file').count()).toBeGreaterThan(0);
    expect(await page.locator('.process-reason').textContent()).toBe('Type the PDF password first');
    await page.getByLabel('PDF password').fill('wrong');
    await expect
      .poll(() => page.locator('.password-prompt').textContent(), { timeout: 20_000 })
      .toContain('Invalid Password');
    expect(await page.locator('.password-prompt').textContent()).toContain('permissions (owner) password');
    await page.getByLabel('PDF password').fill('open-sesame');
    await expect.poll(() => fileRow(page, 'secret.pdf').textContent(), { timeout: 20_000 }).toContain('3 pages');
    expect(await page.getByRole('button', { name: 'Process Files', exact: true }).isDisabled()).toBe(false);
    // Opened by the check, the file still needs the password for the job: the prompt stays and it is sent.
    expect(await page.getByLabel('PDF password').inputValue()).toBe('open-sesame');
    const compressed = await downloadAfter(page, () =>
      page.getByRole('button', { name: 'Process Files', exact: true }).click(),
    );
    expect(await page.locator('.error-line').textContent()).toBe('');
    expect(await pageLabels(compressed.bytes, 'open-sesame')).toEqual(['S1', 'S2', 'S3']);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a PNG renamed .pdf is refused with its real type and the tool to use; a damaged PDF says so', async () => {
    const { page, context } = await openTool('merge-pdf');
    const input = page.locator('input[type=file]');
    await input.setInputFiles([{ name: 'scan.pdf', mimeType: 'application/pdf', buffer: PNG_HEAD }]);
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 10_000 })
      .toContain('"scan.pdf" is a PNG image');
    expect(await page.getByRole('alert').textContent()).toContain('use JPG to PDF');
    expect(await page.getByText('Click to select files').count()).toBe(1);

    await input.setInputFiles([
      { name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('just some notes\n') },
    ]);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('"notes.pdf" is a plain text file');

    const damaged = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\nstartxref\n9\n%%EOF\n');
    await input.setInputFiles([pdf('broken.pdf', damaged)]);
    await expect.poll(() => fileRow(page, 'broken.pdf').textContent(), { timeout: 20_000 }).toContain('Damaged');
    // A file that ends early (no cross-reference table or trailer: a download cut short) is named as such.
    const cut = (await labelledPdf('Cut', 3)).subarray(0, 900);
    await input.setInputFiles([pdf('cut.pdf', cut)]);
    await expect
      .poll(() => fileRow(page, 'cut.pdf').textContent(), { timeout: 20_000 })
      .toContain('Cut short: Folio will use what is there');
    await context.close();
  });
});

describe('pages visible', () => {
  test('each PDF in the list shows its first page and its page count', async () => {
    const { page, context, errors } = await openTool('merge-pdf');
    await page
      .locator('input[type=file]')
      .setInputFiles([
        pdf('one.pdf', await labelledPdf('A', 1)),
        pdf('five.pdf', await labelledPdf('B', 5)),
        pdf('twelve.pdf', await labelledPdf('C', 12)),
      ]);
    for (const [name, count] of [
      ['one.pdf', '1 page'],
      ['five.pdf', '5 pages'],
      ['twelve.pdf', '12 pages'],
    ] as const) {
      await expect.poll(() => fileRow(page, name).textContent(), { timeout: 20_000 }).toContain(count);
      const thumb = fileRow(page, name).getByTestId('first-page');
      await thumb.waitFor({ timeout: 20_000 });
      // A drawn page, not an empty image: the thumbnail has pixels and a page's proportions.
      const size = await thumb.evaluate((img: HTMLImageElement) => ({ w: img.naturalWidth, h: img.naturalHeight }));
      expect(size.w).toBeGreaterThan(10);
      expect(size.h).toBeGreaterThan(size.w);
    }
    // Each file's range is checked against that file's own page count as it is typed.
    const five = page.getByLabel('Pages of five.pdf');
    await five.fill('2-7');
    await expect
      .poll(() => five.locator('xpath=..').locator('.option-problem').textContent())
      .toBe('Page 7 does not exist: the document has 5 pages.');
    await five.fill('2-4');
    await expect.poll(() => five.locator('xpath=..').locator('.option-taken').textContent()).toBe('3 of 5 pages: 2–4');
    await screenshot(page, 'tool-window-merge-thumbnails-1280');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('split: the page strip, and ranges checked against the real page count as they are typed', async () => {
    const { page, context, errors } = await openTool('split-pdf', { width: 390, height: 844 });
    await page.locator('input[type=file]').setInputFiles([pdf('report.pdf', await labelledPdf('R', 19))]);
    await expect.poll(() => fileRow(page, 'report.pdf').textContent(), { timeout: 20_000 }).toContain('19 pages');
    await expect
      .poll(() => page.getByRole('group', { name: 'Pages of the file' }).getByRole('button').count(), {
        timeout: 20_000,
      })
      .toBe(19);
    await page.getByLabel('Split', { exact: true }).selectOption('ranges');
    const ranges = page.getByLabel('Ranges', { exact: true });
    await ranges.fill('1-3, 25');
    await expect
      .poll(() => page.locator('.option-problem').textContent())
      .toBe('Page 25 does not exist: the document has 19 pages.');
    expect(await ranges.getAttribute('aria-invalid')).toBe('true');
    await ranges.fill('1-3, 4-8, 9-');
    await expect.poll(() => page.locator('.option-taken').textContent()).toBe('3 files: 1–3 · 4–8 · 9–19');
    const strip = page.getByRole('group', { name: /Pages of the file/ });
    expect(await strip.locator('[aria-pressed=true]').count()).toBe(19);
    await ranges.fill('2, 5');
    await expect.poll(() => strip.locator('[aria-pressed=true]').count()).toBe(2);
    expect(await strip.getByRole('button', { name: 'Page 5' }).getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'tool-window-split-ranges-390');
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Whether the element is in the viewport and on top at its centre (not under a footer or off-screen). */
async function visibleOnTop(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const inView = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
    const top = document.elementFromPoint(x, y);
    return inView && Boolean(top && (top === element || element.contains(top)));
  });
}

describe('a workspace that fits', () => {
  for (const [width, height] of [
    [1280, 720],
    [390, 844],
  ] as const) {
    test(`with five files chosen the action is in view without scrolling at ${width}×${height}`, async () => {
      const { page, context } = await openTool('merge-pdf', { width, height });
      const files = await Promise.all(
        [1, 2, 3, 4, 5].map(async (n) => pdf(`part-${n}.pdf`, await labelledPdf(`P${n}`, n))),
      );
      await page.locator('input[type=file]').setInputFiles(files);
      await expect.poll(() => page.getByText('5 files selected').count()).toBe(1);
      await expect.poll(() => fileRow(page, 'part-5.pdf').textContent(), { timeout: 20_000 }).toContain('5 pages');
      const action = '.file-tool > .actions button.primary-action';
      expect(await visibleOnTop(page, action)).toBe(true);
      // Still there at the far end of the options, and with the page scrolled nowhere.
      await page.locator('.modal-body').evaluate((body) => body.scrollTo(0, body.scrollHeight));
      expect(await visibleOnTop(page, action)).toBe(true);
      expect(await page.evaluate(() => scrollY)).toBe(0);
      await screenshot(page, `tool-window-merge-five-${width}`);
      await context.close();
    });
  }
});

describe('one way in', () => {
  test('home Try now, /tools cards, the header menu and the phone menu all open the tool', async () => {
    const desktop = await openPage(shared.browser, '/');
    const { page } = desktop;
    await page.locator('section[aria-labelledby="popular-title"] a[href="/tools/merge-pdf"]').click();
    await page.getByRole('dialog', { name: 'Merge PDF' }).waitFor();
    await page.keyboard.press('Escape');
    // The detail page keeps its content for people who read first.
    await expect.poll(() => page.getByRole('heading', { name: 'How to Use' }).count()).toBe(1);

    await page.goto('/tools');
    await page.locator('a.tool-card[href="/tools/split-pdf"]').click();
    await page.getByRole('dialog', { name: 'Split PDF' }).waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Tools', exact: true }).click();
    await page.locator('.dropdown-panel a[href="/tools/rotate-pdf"]').click();
    await page.getByRole('dialog', { name: 'Rotate PDF' }).waitFor();
    await desktop.context.close();

    const phone = await openPage(shared.browser, '/about', { width: 390, height: 844 });
    await phone.page.getByRole('button', { name: 'Open menu' }).click();
    await phone.page.locator('.side-menu a[href="/tools/compress-pdf"]').click();
    await phone.page.getByRole('dialog', { name: 'Compress PDF' }).waitFor();
    await phone.context.close();
  });

  test('a file dropped on the tool page (outside the window) opens the tool with it', async () => {
    const { page, context } = await openPage(shared.browser, '/tools/split-pdf');
    const bytes = [...(await labelledPdf('D', 4))];
    const transfer = await page.evaluateHandle((data) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], 'dropped.pdf', { type: 'application/pdf' }));
      return dt;
    }, bytes);
    const target = page.locator('.tool-body');
    await target.dispatchEvent('dragover', { dataTransfer: transfer });
    await target.dispatchEvent('drop', { dataTransfer: transfer });
    await page.getByRole('dialog', { name: 'Split PDF' }).waitFor();
    await expect.poll(() => fileRow(page, 'dropped.pdf').textContent(), { timeout: 20_000 }).toContain('4 pages');
    await context.close();
  });
});

describe('words and names', () => {
  test('split: the ZIP and its parts are named after the input; the panel says files and pages, not sizes', async () => {
    const { page, context } = await openTool('split-pdf');
    await page.locator('input[type=file]').setInputFiles([pdf('report.pdf', await labelledPdf('R', 19))]);
    await expect.poll(() => fileRow(page, 'report.pdf').textContent(), { timeout: 20_000 }).toContain('19 pages');
    await page.getByLabel('Split', { exact: true }).selectOption('ranges');
    await page.getByLabel('Ranges', { exact: true }).fill('1-3, 4-8, 9-');
    const zip = await downloadAfter(page, () =>
      page.getByRole('button', { name: 'Process Files', exact: true }).click(),
    );
    expect(zip.name).toBe('report-split.zip');
    const entries = Object.keys((await JSZip.loadAsync(zip.bytes)).files).sort();
    expect(entries).toEqual(['report-pages-1-3.pdf', 'report-pages-4-8.pdf', 'report-pages-9-19.pdf']);
    const panel = page.getByRole('status');
    await expect.poll(() => panel.textContent()).toContain('3 files from 19 pages');
    expect(await panel.textContent()).not.toContain('→');
    await context.close();
  });

  test('pdf-to-jpg: one page is report-p001.jpg, several are report-pages.zip', async () => {
    const { page, context } = await openTool('pdf-to-jpg');
    await page.locator('input[type=file]').setInputFiles([pdf('report.pdf', await labelledPdf('R', 1))]);
    await expect.poll(() => fileRow(page, 'report.pdf').textContent(), { timeout: 20_000 }).toContain('1 page');
    const single = await downloadAfter(page, () =>
      page.getByRole('button', { name: 'Process Files', exact: true }).click(),
    );
    expect(single.name).toBe('report-p001.jpg');
    await page.getByRole('button', { name: 'Start over' }).click();
    await page.locator('input[type=file]').setInputFiles([pdf('report.pdf', await labelledPdf('R', 2))]);
    await expect.poll(() => fileRow(page, 'report.pdf').textContent(), { timeout: 20_000 }).toContain('2 pages');
    const zip = await downloadAfter(page, () =>
      page.getByRole('button', { name: 'Process Files', exact: true }).click(),
    );
    expect(zip.name).toBe('report-pages.zip');
    await context.close();
  });

  test('a file picked in place of another is checked, not listed as damaged', async () => {
    // Closing a file's document in the thumbnail worker destroyed pdf.js's worker that every
    // document shares: a file opened meanwhile failed ("the worker is being destroyed") and was
    // listed as damaged (pdfjs.ts, sharedWorker). Each pick replaces the file before: the old
    // document closes as the new one opens.
    const { page, context } = await openTool('pdf-to-jpg');
    const input = page.locator('input[type=file]');
    const big = await labelledPdf('B', 400);
    for (let round = 1; round <= 4; round++) {
      await input.setInputFiles([pdf(`big${round}.pdf`, big)]);
      await expect
        .poll(() => fileRow(page, `big${round}.pdf`).textContent(), { timeout: 20_000 })
        .toContain('400 pages');
      await input.setInputFiles([pdf(`small${round}.pdf`, await labelledPdf('S', 2))]);
      await expect
        .poll(() => fileRow(page, `small${round}.pdf`).textContent(), { timeout: 20_000 })
        .toContain('2 pages');
    }
    await context.close();
  });

  test('while a job runs the backdrop is not blurred (redrawn at every progress step), and is again after', async () => {
    const { page, context } = await openTool('pdf-to-jpg');
    await page.locator('input[type=file]').setInputFiles([pdf('report.pdf', await labelledPdf('R', 2))]);
    await expect.poll(() => fileRow(page, 'report.pdf').textContent(), { timeout: 20_000 }).toContain('2 pages');
    const blur = () => page.evaluate(() => getComputedStyle(document.querySelector('.modal-backdrop')!).backdropFilter);
    expect(await blur()).toBe('blur(3px)');
    // The style is read the moment the progress bar is inserted, however short the job.
    await page.evaluate(() => {
      const seen = ((window as { blurWhileWorking?: string[] }).blurWhileWorking = [] as string[]);
      const backdrop = document.querySelector('.modal-backdrop')!;
      new MutationObserver(() => {
        if (backdrop.querySelector('.progress-block')) seen.push(getComputedStyle(backdrop).backdropFilter);
      }).observe(backdrop, { childList: true, subtree: true });
    });
    await downloadAfter(page, () => page.getByRole('button', { name: 'Process Files', exact: true }).click());
    const whileWorking = await page.evaluate(() => (window as { blurWhileWorking?: string[] }).blurWhileWorking);
    expect(whileWorking?.length).toBeGreaterThan(0);
    expect(new Set(whileWorking)).toEqual(new Set(['none']));
    expect(await blur()).toBe('blur(3px)');
    await context.close();
  });

  test('on a phone the progress bar is in view from its first frame, above the action bar, with the page itself unscrolled', async () => {
    const { page, context } = await openTool('pdf-to-jpg', { width: 390, height: 844 });
    await page.locator('input[type=file]').setInputFiles([pdf('report.pdf', await labelledPdf('R', 12))]);
    await expect.poll(() => fileRow(page, 'report.pdf').textContent(), { timeout: 20_000 }).toContain('12 pages');
    // The options fill the window: Process Files sits in the footer, the bar goes below the options.
    await page.locator('.modal-body').evaluate((body) => body.scrollTo(0, 0));
    await page.evaluate(() => {
      const seen = ((window as { progressInView?: boolean[] }).progressInView = [] as boolean[]);
      const backdrop = document.querySelector('.modal-backdrop')!;
      let watched: Element | null = null;
      new MutationObserver(() => {
        const block = backdrop.querySelector('.progress-block');
        if (!block || block === watched) return;
        watched = block;
        requestAnimationFrame(() => {
          const bar = block.getBoundingClientRect();
          const body = block.closest('.modal-body')!.getBoundingClientRect();
          // The body's lower edge is hidden by the sticky action bar (Process Files, Cancel).
          const actions = document.querySelector('.file-tool > .button-line.actions')!.getBoundingClientRect();
          seen.push(bar.top >= body.top && bar.bottom <= actions.top);
        });
      }).observe(backdrop, { childList: true, subtree: true });
    });
    await downloadAfter(page, () => page.getByRole('button', { name: 'Process Files', exact: true }).click());
    expect(await page.evaluate(() => (window as { progressInView?: boolean[] }).progressInView)).toEqual([true]);
    expect(await page.evaluate(() => scrollY)).toBe(0);
    await context.close();
  });

  test("each utility's button says what it does", async () => {
    const expected: Record<string, string> = {
      'password-generator': 'Generate',
      'json-formatter': 'Format',
      'word-counter': 'Count',
      'unit-converter': 'Convert',
      'color-picker': 'Pick',
      'age-calculator': 'Calculate',
      'bmi-calculator': 'Calculate',
    };
    const { page, context } = await openPage(shared.browser, '/');
    for (const [id, label] of Object.entries(expected)) {
      await page.goto(`/tools/${id}`);
      await page.getByRole('button', { name: 'Get Started' }).first().click();
      await page.getByRole('dialog').waitFor();
      const action = page.getByRole('dialog').locator('button.u-calculate');
      await action.waitFor();
      expect(await action.textContent(), id).toBe(label);
    }
    await context.close();
  });
});

describe('theme', () => {
  test('follows the system dark preference until the user chooses', async () => {
    const context = await shared.browser.newContext({ colorScheme: 'dark', baseURL: baseUrl() });
    const page = await context.newPage();
    await page.goto('/');
    const dark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    expect(await dark()).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(dark).toBe(false);
    // A choice made with the toggle wins over the system from then on.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(dark).toBe(true);
    await page.getByRole('button', { name: 'Switch to light theme' }).first().click();
    await expect.poll(dark).toBe(false);
    await page.reload();
    expect(await dark()).toBe(false);
    await context.close();
  });
});
