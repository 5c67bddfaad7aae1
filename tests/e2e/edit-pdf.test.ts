/**
 * Edit PDF in Chromium: open the page editor on a generated PDF, place text and an image with the
 * mouse, redact a word, save with Done, and parse the downloaded PDF (text position,
 * image pixels, redacted text gone). A phone-width run draws with the pen and uses undo/redo.
 */
import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { SCREENSHOT_DIR, baseUrl, openPage, screenshot, sharedBrowser } from './harness.ts';
import {
  LINE_BASELINE,
  LINE_SIZE,
  LINE_X,
  allText,
  editFixture,
  placedText,
  solidImage,
} from '../support/edit-pdf-fixtures.ts';
import { openPdfjs, renderPage } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { BASELINE_EM } from '../../shared/edit-operations.ts';

const shared = sharedBrowser();

async function openEditor(width: number, theme: 'light' | 'dark' = 'light') {
  const watched = await openPage(shared.browser, '', { width, height: width < 500 ? 844 : 900 });
  await watched.context.addInitScript((t) => localStorage.setItem('theme', t), theme);
  await watched.page.goto('/tools/edit-pdf');
  const { page } = watched;
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const fixture = await editFixture();
  await page
    .locator('input[type=file]')
    .first()
    .setInputFiles([{ name: 'letter.pdf', mimeType: 'application/pdf', buffer: Buffer.from(fixture.bytes) }]);
  await page.getByRole('button', { name: 'Open the page editor' }).click();
  await page.locator('.ed-page[data-page="1"] canvas').waitFor();
  // Wait until pdf.js has painted something on the canvas.
  await expect
    .poll(() => page.locator('.ed-page[data-page="1"] canvas').evaluate((c: HTMLCanvasElement) => c.width))
    .toBeGreaterThan(0);
  return { ...watched, fixture };
}

/** Page 1's box on screen and the zoom (screen px per PDF point). */
async function pageBox(page: Page, n = 1) {
  const box = (await page.locator(`.ed-page[data-page="${n}"]`).boundingBox())!;
  return { ...box, zoom: box.width / 612 };
}

/** The editor is a fixed full-screen layer: a viewport screenshot shows it as the user sees it. */
async function editorScreenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png` });
}

/** Done saves the edits and downloads the PDF at once (no second button in the tool window). */
async function saveAndDownload(page: Page): Promise<Uint8Array> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByRole('button', { name: /^Done/ }).click(),
  ]);
  return new Uint8Array(readFileSync(await download.path()));
}

test('place text and an image with the mouse, redact a word, save: the PDF has them where they were put', async () => {
  const { page, context, errors, fixture } = await openEditor(1280);
  let box = await pageBox(page);
  const at = (x: number, y: number) => [box.x + x * box.zoom, box.y + y * box.zoom] as const;

  // Text: click with the text tool, type.
  await page.getByRole('button', { name: 'Add text', exact: true }).click();
  await page.mouse.click(...at(100, 200));
  await page.keyboard.type('Typed in Chromium');
  await page.keyboard.press('Escape');

  // Image: pick a PNG (it lands in the middle of the page), then drag it by its centre.
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Add image' }).click(),
  ]);
  await chooser.setFiles([
    { name: 'sig.png', mimeType: 'image/png', buffer: Buffer.from(solidImage('image/png', '#00c000', 80, 40)) },
  ]);
  await page.locator('.ed-page[data-page="1"] image').waitFor();
  box = await pageBox(page);
  await page.mouse.move(...at(306, 396));
  await page.mouse.down();
  await page.mouse.move(...at(200, 450), { steps: 5 });
  await page.mouse.move(...at(150, 500), { steps: 5 });
  await page.mouse.up();

  // Redact "SECRET": drag a box over it.
  await page.getByRole('button', { name: 'Redact' }).click();
  box = await pageBox(page);
  const top = 792 - LINE_BASELINE - LINE_SIZE;
  await page.mouse.move(...at(LINE_X + fixture.prefixWidth + 1, top));
  await page.mouse.down();
  await page.mouse.move(...at(LINE_X + fixture.prefixWidth + fixture.secretWidth - 1, top + LINE_SIZE + 3), {
    steps: 4,
  });
  await page.mouse.up();
  await editorScreenshot(page, 'edit-pdf-editor-1280');

  const bytes = await saveAndDownload(page);
  await expect.poll(() => page.getByRole('status').textContent()).toContain('letter-edited.pdf');
  await screenshot(page, 'edit-pdf-done-1280');

  const items = await placedText(bytes, 1);
  const typed = items.find((t) => t.str === 'Typed in Chromium');
  expect(typed).toBeDefined();
  expect(typed!.x).toBeCloseTo(100, -0.5); // within ±1.6 pt of the click
  // The click lands inside the first line: the box starts 0.6 em above it.
  expect(typed!.y).toBeCloseTo(200 - 16 * 0.6 + 16 * BASELINE_EM.sans, -0.5);
  const text = await allText(bytes);
  expect(text).not.toMatch(/this ?SECRET/);
  expect(text).toContain('Keep this');
  const rendered = await renderPage(await openPdfjs(bytes), 1, 72);
  const pixel = (x: number, y: number) =>
    Array.from(rendered.data.subarray((y * rendered.width + x) * 4, (y * rendered.width + x) * 4 + 3));
  expect(pixel(150, 500)).toEqual([0, 192, 0]); // the image's new centre
  expect(pixel(306, 396)).toEqual([255, 255, 255]); // where it was first placed
  expect(errors).toEqual([]);
  await context.close();
});

test('phone width, dark theme: draw with the pen, undo and redo, delete with the keyboard', async () => {
  const { page, context, errors } = await openEditor(390, 'dark');
  await page.getByRole('button', { name: 'Draw' }).click();
  let box = await pageBox(page);
  const at = (x: number, y: number) => [box.x + x * box.zoom, box.y + y * box.zoom] as const;
  await page.mouse.move(...at(100, 100));
  await page.mouse.down();
  for (const [x, y] of [
    [150, 140],
    [200, 100],
    [250, 140],
  ] as const)
    await page.mouse.move(...at(x, y), { steps: 3 });
  await page.mouse.up();
  await page.getByRole('button', { name: 'Rectangle' }).click();
  box = await pageBox(page);
  await page.mouse.move(...at(100, 300));
  await page.mouse.down();
  await page.mouse.move(...at(300, 400), { steps: 4 });
  await page.mouse.up();
  expect(await page.locator('.ed-page[data-page="1"] .ed-obj').count()).toBe(2);
  await page.keyboard.press('Delete');
  expect(await page.locator('.ed-page[data-page="1"] .ed-obj').count()).toBe(1);
  await page.keyboard.press('Control+z');
  expect(await page.locator('.ed-page[data-page="1"] .ed-obj').count()).toBe(2);
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+Shift+z');
  expect(await page.locator('.ed-page[data-page="1"] .ed-obj').count()).toBe(2);
  await editorScreenshot(page, 'edit-pdf-editor-390-dark');
  const bytes = await saveAndDownload(page);
  const doc = await openPdfjs(bytes);
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const ops = await (await doc.getPage(1)).getOperatorList();
  // Vector paths for the pen stroke and the rectangle, on top of the fixture's own rectangle.
  expect(ops.fnArray.filter((fn) => fn === pdfjs.OPS.constructPath).length).toBeGreaterThanOrEqual(3);
  const rendered = await renderPage(doc, 1, 72);
  const pixel = (x: number, y: number) =>
    Array.from(rendered.data.subarray((y * rendered.width + x) * 4, (y * rendered.width + x) * 4 + 3));
  expect(pixel(100, 350)[0]).toBeLessThan(120); // the rectangle's left edge (dark stroke)
  expect(errors).toEqual([]);
  await context.close();
});

test('dark theme: edit existing text by clicking it, type the new words, save', async () => {
  const { page, context, errors } = await openEditor(1280, 'dark');
  await page.getByRole('button', { name: 'Edit text' }).click();
  const candidate = page.locator('.ed-page[data-page="1"] .ed-candidate[title="Edit “Public line”"]');
  await candidate.waitFor();
  await editorScreenshot(page, 'edit-pdf-edit-text-1280-dark');
  await candidate.click();
  await page.keyboard.type('Private line');
  await page.keyboard.press('Escape');
  await editorScreenshot(page, 'edit-pdf-edit-text-done-1280-dark');
  const bytes = await saveAndDownload(page);
  const text = await allText(bytes);
  expect(text).toContain('Private line');
  expect(text).not.toContain('Public line');
  const item = (await placedText(bytes, 1)).find((t) => t.str === 'Private line')!;
  expect(item.x).toBeCloseTo(LINE_X, 0);
  expect(item.y).toBeCloseTo(792 - 650, 0);
  expect(errors).toEqual([]);
  await context.close();
});

test('touch: a finger draws with the pen and drags an object (phone, hasTouch)', async () => {
  const context = await shared.browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    baseURL: baseUrl(),
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/tools/edit-pdf');
  await page.getByRole('button', { name: 'Upload Files' }).first().tap();
  await page
    .locator('input[type=file]')
    .first()
    .setInputFiles([
      { name: 'letter.pdf', mimeType: 'application/pdf', buffer: Buffer.from((await editFixture()).bytes) },
    ]);
  await page.getByRole('button', { name: 'Open the page editor' }).tap();
  await page.locator('.ed-page[data-page="1"] canvas').waitFor();
  const cdp = await context.newCDPSession(page);
  const swipe = async (points: Array<readonly [number, number]>) => {
    const [first, ...rest] = points;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: first[0], y: first[1] }] });
    for (const [x, y] of rest)
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  };
  // Toolbar buttons are clicked: Chrome's emulated gesture detector drops CDP taps that follow a
  // swipe closely; the gestures under test — drawing and dragging on the page — are real touches.
  const pick = async (name: string) => {
    const button = page.getByRole('button', { name, exact: true });
    await button.click();
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
  };
  await pick('Draw');
  let box = await pageBox(page);
  const at = (x: number, y: number) => [box.x + x * box.zoom, box.y + y * box.zoom] as const;
  await swipe([at(100, 200), at(140, 230), at(180, 200), at(220, 230), at(260, 200)]);
  await expect.poll(() => page.locator('.ed-page[data-page="1"] polyline.ed-obj').count()).toBe(1);
  await pick('Rectangle');
  box = await pageBox(page);
  await swipe([at(100, 400), at(150, 430), at(200, 450)]);
  await pick('Select');
  box = await pageBox(page);
  // Drag the rectangle by its inside, 100 points down.
  await swipe([at(150, 425), at(150, 470), at(150, 500), at(150, 525)]);
  const rect = page.locator('.ed-page[data-page="1"] rect.ed-obj');
  await expect.poll(async () => Number(await rect.getAttribute('y'))).toBeGreaterThan(480);
  await editorScreenshot(page, 'edit-pdf-touch-390');
  expect(errors).toEqual([]);
  await context.close();
});

test('a 300-page file opens quickly and renders only the pages near the viewport', async () => {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= 300; i++) doc.addPage([612, 792]).drawText(`Page ${i}`, { x: 72, y: 700, size: 24, font });
  const bytes = await doc.save();
  const { page, context, errors } = await openPage(shared.browser, '/tools/edit-pdf', { width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  await page
    .locator('input[type=file]')
    .first()
    .setInputFiles([{ name: 'long.pdf', mimeType: 'application/pdf', buffer: Buffer.from(bytes) }]);
  const started = Date.now();
  await page.getByRole('button', { name: 'Open the page editor' }).click();
  await page.locator('.ed-page[data-page="1"] canvas').waitFor();
  console.log(`[edit-pdf] 300-page file: first page shown after ${Date.now() - started} ms`);
  expect(await page.locator('.ed-page').count()).toBe(300);
  const rendered = () => page.locator('.ed-page canvas').count();
  expect(await rendered()).toBeLessThanOrEqual(6);
  await page.getByLabel('Page number').fill('250');
  await page.locator('.ed-page[data-page="250"] canvas').waitFor();
  expect(await rendered()).toBeLessThanOrEqual(8);
  await page.getByRole('button', { name: 'Add text', exact: true }).click();
  const box = (await page.locator('.ed-page[data-page="250"]').boundingBox())!;
  await page.mouse.click(box.x + 100 * (box.width / 612), box.y + 300 * (box.width / 612));
  await page.keyboard.type('On page 250');
  await page.keyboard.press('Escape');
  const out = await saveAndDownload(page);
  const placed = await placedText(out, 250);
  expect(placed.some((t) => t.str === 'On page 250')).toBe(true);
  expect((await placedText(out, 249)).some((t) => t.str === 'On page 250')).toBe(false);
  expect(errors).toEqual([]);
  await context.close();
});

test('a tool is used once unless kept; text boxes grow with their text; an empty box is never an edit', async () => {
  const { page, context, errors } = await openEditor(1280);
  const box = await pageBox(page);
  const at = (x: number, y: number) => [box.x + x * box.zoom, box.y + y * box.zoom] as const;
  const addText = page.getByRole('button', { name: 'Add text', exact: true });

  await addText.click();
  await page.mouse.click(...at(80, 150));
  const field = page.getByRole('textbox', { name: 'Text' });
  await page.keyboard.type('Folio');
  const narrow = (await field.boundingBox())!.width;
  await page.keyboard.type(' reviewer with a much longer line of text');
  const wide = (await field.boundingBox())!.width;
  expect(wide).toBeGreaterThan(narrow);
  // The whole line is visible: nothing scrolled out of the box.
  expect(await field.evaluate((t: HTMLTextAreaElement) => t.scrollWidth <= t.clientWidth + 1)).toBe(true);
  // The text tool ended with that one placement: a click elsewhere makes no stray empty box.
  expect(await addText.getAttribute('aria-pressed')).toBe('false');
  await page.mouse.click(...at(300, 600));
  expect(await page.locator('.ed-page[data-page="1"] .ed-text').count()).toBe(1);
  expect(await page.getByRole('button', { name: /^Done/ }).textContent()).toBe('Done: save PDF (1 edit)');

  // Kept, the tool places again; an empty box left behind is not counted.
  await page.getByRole('button', { name: 'Keep tool' }).click();
  await addText.click();
  await page.mouse.click(...at(80, 300));
  await page.keyboard.press('Escape');
  expect(await addText.getAttribute('aria-pressed')).toBe('true');
  expect(await page.getByRole('button', { name: /^Done/ }).textContent()).toBe('Done: save PDF (1 edit)');
  await editorScreenshot(page, 'edit-pdf-grow-1280');
  const bytes = await saveAndDownload(page);
  const items = await placedText(bytes, 1);
  expect(items.some((t) => t.str.startsWith('Folio reviewer'))).toBe(true);
  expect(errors).toEqual([]);
  await context.close();
});
