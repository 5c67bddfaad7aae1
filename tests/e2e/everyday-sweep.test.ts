/**
 * Findings of the second quality sweep (docs/quality-sweep.md), in the built app in Chromium: the
 * image compressor on unusual but valid images, judged by the decoded pixels of what it downloads,
 * and the file list used with the keyboard only.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { downloadAfter, openToolModal, pdfUpload, sharedBrowser } from './harness.ts';
import {
  decodeImage,
  encodeJpeg,
  encodePng,
  imageHeader,
  makeImageData,
} from '../../workers/engine/lib/image/codecs.ts';
import { animatedWebp, withExifOrientation } from '../support/image-fixtures.ts';
import { PDFDocument } from 'pdf-lib';

const shared = sharedBrowser();

type Rgb = [number, number, number];

/** Four flat quadrants: red, green / blue, yellow (top left, top right / bottom left, bottom right). */
function quadrants(width: number, height: number, alpha = 255): ImageData {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const top = y < height / 2;
      const left = x < width / 2;
      const rgb = top ? (left ? [255, 0, 0] : [0, 255, 0]) : left ? [0, 0, 255] : [255, 255, 0];
      data.set([...rgb, alpha], (y * width + x) * 4);
    }
  }
  return makeImageData(data, width, height);
}

/** The colour at a fraction of the width and height of a decoded image. */
function colourAt(image: ImageData, fx: number, fy: number): Rgb {
  const i = (Math.floor(fy * image.height) * image.width + Math.floor(fx * image.width)) * 4;
  return [image.data[i], image.data[i + 1], image.data[i + 2]];
}

const close = (actual: Rgb, expected: Rgb, tolerance = 8) =>
  actual.every((value, i) => Math.abs(value - expected[i]) <= tolerance) ? expected : actual;

const process = (page: Page) =>
  downloadAfter(page, () =>
    page.getByRole('dialog').getByRole('button', { name: 'Process Files', exact: true }).click(),
  );

async function pick(page: Page, name: string, mimeType: string, bytes: Uint8Array, format: string) {
  const dialog = page.getByRole('dialog');
  await dialog
    .locator('input[type=file]')
    .first()
    .setInputFiles({ name, mimeType, buffer: Buffer.from(bytes) });
  await dialog.getByLabel('Output format').selectOption(format);
}

describe('image compressor, unusual images', () => {
  test('a transparent PNG as JPEG: white where it was transparent, and the note says so', async () => {
    const { page, context, errors } = await openToolModal(shared.browser, 'image-compressor');
    // Palette-like content: transparent pixels hold black, as editors leave them.
    const logo = quadrants(80, 40);
    for (let y = 0; y < 40; y++) for (let x = 0; x < 40; x++) logo.data.set([0, 0, 0, 0], (y * 80 + x) * 4);
    await pick(page, 'logo 标志.png', 'image/png', await encodePng(logo), 'jpeg');
    const file = await process(page);
    expect(file.name).toBe('logo 标志-compressed.jpg');
    const out = await decodeImage(file.bytes, 'jpeg');
    expect(close(colourAt(out, 0.25, 0.25), [255, 255, 255])).toEqual([255, 255, 255]);
    expect(close(colourAt(out, 0.75, 0.25), [0, 255, 0])).toEqual([0, 255, 0]);
    expect(close(colourAt(out, 0.75, 0.75), [255, 255, 0])).toEqual([255, 255, 0]);
    await expect.poll(() => page.getByRole('dialog').innerText()).toMatch(/transparent areas are white/);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('EXIF orientation 8 as WebP and AVIF: the picture stands as displayed; AVIF threads start cleanly', async () => {
    const { page, context, errors } = await openToolModal(shared.browser, 'image-compressor');
    // Stored 200 × 100; orientation 8 displays it turned 90° anticlockwise: 100 × 200, green at top left.
    const photo = withExifOrientation(await encodeJpeg(quadrants(200, 100), { quality: 95 }), 8);
    for (const [format, extension] of [
      ['webp', 'webp'],
      ['avif', 'avif'],
    ] as const) {
      await pick(page, 'phone.jpg', 'image/jpeg', photo, format);
      const file = await process(page);
      expect(file.name).toBe(`phone-compressed.${extension}`);
      const out = await decodeImage(file.bytes, format);
      expect([out.width, out.height]).toEqual([100, 200]);
      expect(close(colourAt(out, 0.25, 0.25), [0, 255, 0], 12)).toEqual([0, 255, 0]);
      expect(close(colourAt(out, 0.75, 0.25), [255, 255, 0], 12)).toEqual([255, 255, 0]);
      expect(close(colourAt(out, 0.25, 0.75), [255, 0, 0], 12)).toEqual([255, 0, 0]);
      expect(close(colourAt(out, 0.75, 0.75), [0, 0, 255], 12)).toEqual([0, 0, 255]);
      await page.getByRole('dialog').getByRole('button', { name: 'Start over' }).click();
    }
    // The AVIF encoder's thread workers used to fail to instantiate ("Argument 0 must be a WebAssembly.Module").
    expect(errors).toEqual([]);
    await context.close();
  });

  test('an animated WebP is refused by name, not flattened to its first frame', async () => {
    const { page, context } = await openToolModal(shared.browser, 'image-compressor');
    const sticker = await animatedWebp([quadrants(60, 40), quadrants(60, 40, 128)]);
    expect(imageHeader(sticker)).toMatchObject({ format: 'webp', width: 60, height: 40 });
    await pick(page, 'sticker.webp', 'image/webp', sticker, 'auto');
    const dialog = page.getByRole('dialog');
    let downloads = 0;
    page.on('download', () => downloads++);
    await dialog.getByRole('button', { name: 'Process Files', exact: true }).click();
    await expect
      .poll(() => dialog.innerText())
      .toMatch(
        '"sticker.webp" is an animated WebP: Folio compresses still images only, and would keep just its first frame.',
      );
    expect(downloads).toBe(0);
    await context.close();
  });
});

describe('the file list with the keyboard only', () => {
  test('moving a file to the end of the list or removing it keeps the focus in the window', async () => {
    const { page, context } = await openToolModal(shared.browser, 'merge-pdf');
    const dialog = page.getByRole('dialog');
    const onePage = async () => {
      const doc = await PDFDocument.create();
      doc.addPage([200, 200]);
      return doc.save();
    };
    await dialog
      .locator('input[type=file]')
      .first()
      .setInputFiles([
        pdfUpload('a.pdf', await onePage()),
        pdfUpload('b.pdf', await onePage()),
        pdfUpload('c.pdf', await onePage()),
      ]);
    const focused = () =>
      page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName);
    const order = async () => (await dialog.locator('ol.file-list .file-name').allInnerTexts()).join(' ');

    await dialog.getByRole('button', { name: 'Move up: b.pdf' }).focus();
    await page.keyboard.press('Enter'); // b goes to the top: its Move up is disabled now
    expect(await order()).toBe('b.pdf a.pdf c.pdf');
    expect(await focused()).toBe('Move down: b.pdf');
    await page.keyboard.press('Space');
    expect(await order()).toBe('a.pdf b.pdf c.pdf');
    expect(await focused()).toBe('Move down: b.pdf');
    await page.keyboard.press('Enter'); // to the bottom
    expect(await order()).toBe('a.pdf c.pdf b.pdf');
    expect(await focused()).toBe('Move up: b.pdf');

    await dialog.getByRole('button', { name: 'Remove: a.pdf' }).focus();
    await page.keyboard.press('Enter');
    expect(await order()).toBe('c.pdf b.pdf');
    expect(await focused()).toBe('Remove: c.pdf');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('Remove: b.pdf');
    await page.keyboard.press('Enter');
    // The list is gone with its last file: the file picker has the focus, and Tab stays in the window.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('file');
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
    }
    await context.close();
  });

  test('Process Files, Cancel and a second job by keyboard: the focus follows the buttons and stays in the window', async () => {
    const { page, context } = await openToolModal(shared.browser, 'pdf-to-jpg');
    const dialog = page.getByRole('dialog');
    const doc = await PDFDocument.create();
    for (let i = 0; i < 30; i++) doc.addPage([612, 792]).drawRectangle({ x: 50, y: 50, width: 400, height: 600 });
    await dialog
      .locator('input[type=file]')
      .first()
      .setInputFiles(pdfUpload('long.pdf', await doc.save()));
    await dialog.getByLabel('Resolution').selectOption('300');
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    const inDialog = () => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));

    const processButton = dialog.getByRole('button', { name: 'Process Files', exact: true });
    // Once the PDF has been read: as long as the UI waits for its check (CHECK_TIMEOUT_MS, 30 s).
    await expect.poll(() => processButton.isEnabled(), { timeout: 30_000 }).toBe(true);
    await processButton.focus();
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Cancel' }).waitFor();
    expect(await focusedText()).toBe('Cancel');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.innerText()).toMatch(/Cancelled/);
    await expect.poll(focusedText).toBe('Process Files');
    await page.keyboard.press('Tab');
    expect(await inDialog()).toBe(true);

    await dialog.getByLabel('Resolution').selectOption('72');
    await dialog.getByLabel('Pages').fill('2');
    await expect.poll(() => processButton.isEnabled(), { timeout: 30_000 }).toBe(true);
    await processButton.focus();
    const file = await downloadAfter(page, () => page.keyboard.press('Enter'));
    expect(file.name).toBe('long-p002.jpg');
    expect(imageHeader(file.bytes)).toMatchObject({ format: 'jpeg', width: 612, height: 792 });
    await expect.poll(focusedText).toBe('Process Files');
    await context.close();
  });
});

describe('long names and words on a phone', () => {
  const longName = 'Jahresabschlussbericht_Überarbeitung_endgültig_Version_2026_final_FINAL_wirklich.pdf';

  /** Elements in the dialog that reach past the right edge of the screen. */
  const pastTheEdge = (page: Page) =>
    page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return [...document.querySelectorAll('[role="dialog"], [role="dialog"] *')]
        .filter((el) => el.getBoundingClientRect().right > width + 1)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    });

  test('merge at 390 px with a long file name: the window fits the screen and Process Files works', async () => {
    const { page, context } = await openToolModal(shared.browser, 'merge-pdf', {
      width: 390,
      height: 844,
      theme: 'dark',
    });
    const onePage = async () => {
      const doc = await PDFDocument.create();
      doc.addPage([200, 200]);
      return doc.save();
    };
    await page
      .getByRole('dialog')
      .locator('input[type=file]')
      .first()
      .setInputFiles([pdfUpload(longName, await onePage()), pdfUpload('b.pdf', await onePage())]);
    await page.getByRole('dialog').getByText('2 files selected').waitFor();
    expect(await pastTheEdge(page)).toEqual([]);
    const file = await process(page);
    expect(file.name).toBe('merged.pdf');
    expect((await PDFDocument.load(file.bytes)).getPageCount()).toBe(2);
    await context.close();
  });

  test('word counter at 390 px: a long token among the keywords wraps inside the window', async () => {
    const { page, context } = await openToolModal(shared.browser, 'word-counter', { width: 390, height: 844 });
    // One word for the segmenter (underscores join), so one keyword chip.
    const token = 'configuration_value_for_the_production_environment_of_the_new_billing_service';
    await page.getByRole('dialog').locator('textarea').first().fill(`${token} ${token} short words`);
    await page.getByTestId('keywords').getByText(token).waitFor();
    expect(await pastTheEdge(page)).toEqual([]);
    await context.close();
  });

  test('image compressor at 390 px: a long file name in the Preview button and the result stays on screen', async () => {
    const { page, context } = await openToolModal(shared.browser, 'image-compressor', {
      width: 390,
      height: 844,
      theme: 'dark',
    });
    const dialog = page.getByRole('dialog');
    const name = 'Urlaubsfoto_Strand_Sonnenuntergang_2026_sehr_langer_Name.jpg';
    await pick(page, name, 'image/jpeg', await encodeJpeg(quadrants(300, 200), { quality: 95 }), 'auto');
    await dialog.getByRole('button', { name: /^Preview/ }).click();
    await dialog
      .getByText(/^Compressed ·/)
      .first()
      .waitFor();
    const file = await process(page);
    expect(file.name).toBe('Urlaubsfoto_Strand_Sonnenuntergang_2026_sehr_langer_Name-compressed.jpg');
    await dialog.getByRole('status').waitFor();
    expect(await pastTheEdge(page)).toEqual([]);
    await context.close();
  });
});
