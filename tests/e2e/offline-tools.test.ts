/**
 * Every file tool works with the network off, and none sends anything anywhere (issue 10): after
 * one visit and "Make all tools available offline", the browser goes offline and each tool of the
 * catalogue runs through its modal on a generated file; the download is checked, and the request
 * log of that tool's run must show nothing outside our origin and no request carrying the file.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { Document, Packer, Paragraph } from 'docx';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import { baseUrl, downloadAfter, openPage, type WatchedPage, type Upload, sharedBrowser } from './harness.ts';
import { fileTools } from '../../src/catalogue/index.ts';
import { encryptWithQpdf } from '../support/protect-unlock-fixtures.ts';
import { encodePng, makeImageData } from '../../workers/engine/lib/image/codecs.ts';

const shared = sharedBrowser();
let watched: WatchedPage;
const posted: string[] = [];

async function textPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of ['Offline page one', 'Offline page two'])
    doc.addPage([300, 400]).drawText(text, { x: 30, y: 350, size: 14, font });
  return doc.save();
}

/** A 64×48 gradient PNG, made with Folio's own codec. */
async function gradientPng(): Promise<Buffer> {
  const width = 64;
  const height = 48;
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([(i % width) * 4, Math.floor(i / width) * 5, 120, 255], i * 4);
  return Buffer.from(await encodePng(makeImageData(data, width, height)));
}

async function inputFor(toolId: string, pdf: Uint8Array): Promise<Upload> {
  const asPdf = (bytes: Uint8Array, name = 'offline.pdf'): Upload => ({
    name,
    mimeType: 'application/pdf',
    buffer: Buffer.from(bytes),
  });
  switch (toolId) {
    case 'jpg-to-pdf':
    case 'image-compressor':
      return { name: 'gradient.png', mimeType: 'image/png', buffer: await gradientPng() };
    case 'word-to-pdf':
      return {
        name: 'note.docx',
        mimeType: 'application/octet-stream',
        buffer: await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('Offline note')] }] })),
      };
    case 'excel-to-pdf': {
      const wb = new ExcelJS.Workbook();
      wb.addWorksheet('S').getCell('A1').value = 'Offline cell';
      return {
        name: 'sheet.xlsx',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(await wb.xlsx.writeBuffer()),
      };
    }
    case 'ppt-to-pdf': {
      const pptx = new PptxGenJS();
      pptx.addSlide().addText('Offline slide', { x: 1, y: 1, w: 5, h: 1 });
      return {
        name: 'deck.pptx',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer),
      };
    }
    case 'unlock-pdf':
      return asPdf(await encryptWithQpdf(pdf, 'AES-256 (R6)', 'offline-pw', 'offline-owner'), 'locked.pdf');
    default:
      return asPdf(pdf);
  }
}

beforeAll(async () => {
  watched = await openPage(shared.browser, '/about', { serviceWorkers: 'allow' });
  const { page, context } = watched;
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), undefined, { timeout: 20_000 });
  await page.getByRole('button', { name: 'Make all tools available offline' }).click();
  await page.getByRole('status').filter({ hasText: 'available offline' }).waitFor({ timeout: 150_000 });
  page.on('request', (request) => {
    if (request.method() !== 'GET') posted.push(`${request.method()} ${request.url()}`);
  });
  await context.setOffline(true);
}, 180_000);

afterAll(async () => {
  await watched?.context.close();
});

describe('every tool offline', () => {
  for (const tool of fileTools) {
    test(`${tool.name} runs with the network off and sends nothing`, async () => {
      const { page } = watched;
      const seen = { posted: posted.length, requests: watched.requests.length, errors: watched.errors.length };
      await page.goto(`/tools/${tool.id}`);
      await page.getByRole('button', { name: 'Upload Files' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await page
        .locator('input[type=file]')
        .first()
        .setInputFiles(await inputFor(tool.id, await textPdf()));
      if (tool.id === 'protect-pdf') {
        await dialog.getByLabel('Password', { exact: true }).fill('offline-pw');
        await dialog.getByLabel('Confirm password').fill('offline-pw');
      }
      if (tool.id === 'unlock-pdf') await dialog.getByLabel('Password', { exact: true }).fill('offline-pw');
      if (tool.id === 'edit-pdf') {
        // The same-text form is folded under the page editor's button.
        await dialog.getByText('Or add the same text to every page').click();
        await dialog.getByLabel('Text to add').fill('Offline stamp');
      }
      const result = await downloadAfter(
        page,
        () => dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
        60_000,
      ).catch(async (error: Error) => {
        throw new Error(`${error.message}; alert: "${await dialog.getByRole('alert').first().textContent()}"`);
      });
      expect(result.bytes.byteLength).toBeGreaterThan(0);
      expect(result.name).toMatch(/\.(pdf|zip|docx|xlsx|pptx|jpe?g|png|webp|avif|csv)$/);
      if (result.name.endsWith('.pdf') && tool.id !== 'protect-pdf') {
        expect((await PDFDocument.load(result.bytes, { ignoreEncryption: true })).getPageCount()).toBeGreaterThan(0);
      }
      // Nothing left the page during this tool's run: its POST to /api is answered inside the page,
      // so the browser's network never sees it, and nothing was fetched from another origin.
      expect(posted.slice(seen.posted)).toEqual([]);
      const origin = new URL(baseUrl()).origin;
      expect(
        watched.requests.slice(seen.requests).filter((url) => /^https?:/.test(url) && !url.startsWith(origin)),
      ).toEqual([]);
      expect(watched.errors.slice(seen.errors).filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
    }, 120_000);
  }
});
