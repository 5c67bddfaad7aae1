/**
 * Word, Excel and PowerPoint to PDF through their modals in Chromium: a generated .docx, .xlsx and
 * .pptx go in, and the downloaded PDF is read back with pdf.js for its text. Fonts and engines come
 * from our own origin (the request log shows nothing else).
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import { PDFDict, PDFDocument, PDFName, PDFStream } from 'pdf-lib';
import { baseUrl, openPage, screenshot, sharedBrowser } from './harness.ts';
import { pageTexts } from '../support/pdf.ts';

const shared = sharedBrowser();

async function convertInModal(toolId: string, file: { name: string; mimeType: string; buffer: Buffer }, width = 1280) {
  const watched = await openPage(shared.browser, `/tools/${toolId}`, { width, height: 900 });
  const { page } = watched;
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await page.locator('input[type=file]').first().setInputFiles(file);
  await screenshot(page, `${toolId}-${width}`);
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 90_000 }),
    dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
  ]);
  const bytes = new Uint8Array(readFileSync(await download.path()));
  return { ...watched, name: download.suggestedFilename(), bytes };
}

async function allText(bytes: Uint8Array): Promise<{ pages: number; text: string }> {
  const pages = await pageTexts(bytes, { collapse: true });
  return { pages: pages.length, text: pages.join(' ') };
}

function onlyOurOrigin(page: Page, requests: string[]) {
  void page;
  const origin = new URL(baseUrl()).origin;
  expect(requests.filter((url) => /^https?:/.test(url) && !url.startsWith(origin))).toEqual([]);
}

describe('Office to PDF in the browser', () => {
  test('word-to-pdf: a .docx becomes a PDF with its text', async () => {
    const docx = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph({ children: [new TextRun({ text: 'Minutes of the meeting', bold: true })] }),
              new Paragraph('Everyone agreed to ship on Friday.'),
            ],
          },
        ],
      }),
    );
    const { name, bytes, page, requests, errors, context } = await convertInModal('word-to-pdf', {
      name: 'minutes.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: Buffer.from(docx),
    });
    expect(name).toBe('minutes.pdf');
    const { pages, text } = await allText(bytes);
    expect(pages).toBe(1);
    expect(text).toContain('Minutes of the meeting Everyone agreed to ship on Friday.');
    onlyOurOrigin(page, requests);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('excel-to-pdf: an .xlsx becomes a PDF with its formatted cells', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Costs');
    sheet.addRow(['Item', 'Cost']);
    sheet.addRow(['Paper', 1234.5]);
    sheet.getCell('B2').numFmt = '#,##0.00';
    const { name, bytes, errors, context } = await convertInModal(
      'excel-to-pdf',
      {
        name: 'costs.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: Buffer.from(await wb.xlsx.writeBuffer()),
      },
      390,
    );
    expect(name).toBe('costs.pdf');
    expect((await allText(bytes)).text).toMatch(/Item Cost Paper 1,234\.50/);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('ppt-to-pdf: a .pptx becomes one page per slide (a GIF picture decoded in the worker)', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('First slide', { x: 1, y: 1, w: 6, h: 1 });
    const second = pptx.addSlide();
    second.addText('Second slide', { x: 1, y: 1, w: 6, h: 1 });
    // A 1×1 red GIF: pdf-lib cannot embed GIFs, the engine converts it to PNG (omggif + jsquash in the worker).
    second.addImage({
      data: 'image/gif;base64,R0lGODlhAQABAIAAAP8AAP///yH5BAAAAAAALAAAAAABAAEAAAICRAEAOw==',
      x: 1,
      y: 2.5,
      w: 1,
      h: 1,
    });
    const buffer = Buffer.from((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer);
    const { name, bytes, errors, context } = await convertInModal('ppt-to-pdf', {
      name: 'deck.pptx',
      mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      buffer,
    });
    expect(name).toBe('deck.pdf');
    const { pages, text } = await allText(bytes);
    expect(pages).toBe(2);
    expect(text).toMatch(/First slide.*Second slide/);
    const pdf = await PDFDocument.load(bytes);
    const xobjects = pdf.getPage(1).node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
    const images = xobjects
      ? xobjects
          .keys()
          .map((key) => xobjects.lookup(key, PDFStream))
          .filter((x) => x.dict.get(PDFName.of('Subtype'))?.toString() === '/Image')
      : [];
    expect(
      images.map((image) => [
        image.dict.get(PDFName.of('Width'))?.toString(),
        image.dict.get(PDFName.of('Height'))?.toString(),
      ]),
    ).toEqual([['1', '1']]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('opening the tool warms its engine up: the common fonts load before any file is chosen', async () => {
    const { page, requests, context } = await openPage(shared.browser, '/tools/excel-to-pdf');
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    await page.getByRole('dialog').waitFor();
    await expect
      .poll(
        () =>
          requests.filter((url) => /carlito-latin-400-normal.*\.woff$|NotoSans_400Regular.*\.ttf$/.test(url)).length,
        { timeout: 30_000 },
      )
      .toBe(2);
    await context.close();
  });

  test('the first run says it is preparing the document engine while a large font downloads', async () => {
    // Chinese text needs Noto Sans SC (10.6 MB): a fresh browser profile downloads it once.
    const docx = await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph('会议纪要：周五发布。')] }] }),
    );
    const watched = await openPage(shared.browser, '/tools/word-to-pdf');
    const { page, context } = watched;
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    const dialog = page.getByRole('dialog');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({
        name: 'minutes-zh.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: Buffer.from(docx),
      });
    // Every text the progress line shows, however briefly.
    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { progressTexts: string[] }).progressTexts = []);
      new MutationObserver(() => {
        const text = document.querySelector('.progress-text')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 90_000 }),
      dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
    ]);
    const seen = await page.evaluate(() => (window as unknown as { progressTexts: string[] }).progressTexts);
    expect(seen.some((text) => /^Preparing the document engine — \d+\.\d MB of 1\d\.\d MB \(once\)…$/.test(text))).toBe(
      true,
    );
    expect((await allText(new Uint8Array(readFileSync(await download.path())))).text).toContain('会议纪要');
    await context.close();
  });

  test('a password-protected Word file whose container is broken gets a clear message', async () => {
    // An OLE container holding "EncryptionInfo" is how Office stores an encrypted .docx; this one has no
    // readable directory (tests/e2e/office-password.test.ts opens a real one).
    const ole = new Uint8Array(4096);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    ole.set(
      Array.from('EncryptionInfo').flatMap((c) => [c.charCodeAt(0), 0]),
      1024,
    );
    const watched = await openPage(shared.browser, '/tools/word-to-pdf');
    const { page, context } = watched;
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    const dialog = page.getByRole('dialog');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'secret.docx', mimeType: 'application/octet-stream', buffer: Buffer.from(ole) });
    await dialog.getByRole('button', { name: 'Process Files', exact: true }).click();
    await expect
      .poll(() => dialog.getByRole('alert').textContent(), { timeout: 30_000 })
      .toBe('"secret.docx" is damaged: its password-protected container could not be read.');
    await context.close();
  });
});
