/**
 * The optional LibreOffice engine in Chromium (workers/engine/lib/libreoffice/libreoffice.ts): a .docx through
 * the Word to PDF modal with Engine = LibreOffice (first download reported on the progress line),
 * then legacy .doc, .xls and .ppt files — made by LibreOffice itself in the same page (the engine's
 * test-only `saveAs` option through /api; no native soffice here) — converted automatically by
 * LibreOffice with a note saying so. And every route is cross-origin isolated (COOP/COEP), which
 * LibreOffice's threads need. One page, so LibreOffice starts once (≈ 237 MB from our origin, 2 GB).
 */
import { describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { Document, ExternalHyperlink, Packer, Paragraph, TextRun } from 'docx';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import { PDFDocument } from 'pdf-lib';
import { baseUrl, openPage, sharedBrowser } from './harness.ts';
import { pageTexts } from '../support/pdf.ts';
import { tools } from '../../src/catalogue/index.ts';
import { ROUTES } from './shell-helpers.ts';
import { expectOnlyAllowedActions } from '../support/pdf-actions.ts';

const shared = sharedBrowser();

const allText = async (bytes: Uint8Array): Promise<string> => (await pageTexts(bytes, { collapse: true })).join(' ');

/** POSTs a file to a tool's endpoint from the page (answered in the page, run in its engine worker). */
async function postFromPage(
  page: Page,
  endpoint: string,
  file: { name: string; bytes: Uint8Array },
  fields: Record<string, string>,
) {
  const answer = await page.evaluate(
    async ({ endpoint, name, data, fields }) => {
      const form = new FormData();
      form.append('file', new File([new Uint8Array(data)], name));
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      const response = await fetch(endpoint, { method: 'POST', body: form });
      const notes = response.headers.get('X-Folio-Notes');
      return {
        status: response.status,
        notes: notes ? (JSON.parse(decodeURIComponent(notes)) as string[]) : [],
        data: Array.from(new Uint8Array(await response.arrayBuffer())),
      };
    },
    { endpoint, name: file.name, data: Array.from(file.bytes), fields },
  );
  return { status: answer.status, notes: answer.notes, bytes: Uint8Array.from(answer.data) };
}

const OLE = [0xd0, 0xcf, 0x11, 0xe0];

/** The PDF with every stream uncompressed and no object streams (qpdf), so that its bytes can be searched. */
function uncompressed(pdf: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-lo-'));
  try {
    const input = join(dir, 'in.pdf');
    const output = join(dir, 'out.pdf');
    writeFileSync(input, pdf);
    execFileSync('qpdf', ['--object-streams=disable', '--stream-data=uncompress', input, output]);
    return readFileSync(output).toString('latin1');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * LibreOffice needs ≈ 2.5 GB here; FOLIO_E2E_LIBREOFFICE=0 skips the conversions (e.g. on a machine
 * under 4 GB). Its reliability and speed over many starts are measured by `npm run bench -- libreoffice`,
 * not here (no timed tests): the limits in the test are only there so a stall fails instead of hanging.
 */
const LIBREOFFICE_E2E = process.env.FOLIO_E2E_LIBREOFFICE !== '0';

describe('LibreOffice engine in the browser', () => {
  test.runIf(LIBREOFFICE_E2E)(
    'a .docx with Engine = LibreOffice, then legacy .doc, .xls and .ppt converted by LibreOffice automatically',
    { timeout: 300_000 },
    async () => {
      // The service worker runs, as on a first visit: its background download of the core engines
      // shares the connection, as it did for every run of this test before contexts blocked it.
      // Blocked, the 243 MB download finished too early to be seen more than once (docs/testing.md).
      const { page, context, errors, requests } = await openPage(shared.browser, '/tools/word-to-pdf', {
        width: 1280,
        height: 900,
        serviceWorkers: 'allow',
      });
      expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
      await page.getByRole('button', { name: 'Upload Files' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const docx = Buffer.from(
        await Packer.toBuffer(
          new Document({
            sections: [
              {
                children: [
                  new Paragraph('Quarterly report of the lighthouse keepers'),
                  new Paragraph('Second page of notes'),
                ],
              },
            ],
          }),
        ),
      );
      await dialog.getByLabel('Engine').selectOption('libreoffice');
      // Choosing the engine starts LibreOffice's download at once, before any file is picked.
      await expect
        .poll(() => requests.some((url) => /\/engine-data\/libreoffice\/.*soffice\.wasm/.test(url)), {
          timeout: 30_000,
        })
        .toBe(true);
      await page.locator('input[type=file]').first().setInputFiles({
        name: 'keepers.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: docx,
      });
      // Every text the progress line shows, as it changes.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { progressSeen: string[] }).progressSeen = seen;
        new MutationObserver(() => {
          for (const el of document.querySelectorAll('.progress-text'))
            if (el.textContent && seen.at(-1) !== el.textContent) seen.push(el.textContent);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 200_000 }),
        dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('keepers.pdf');
      const pdf = new Uint8Array(readFileSync(await download.path()));
      expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
      // LibreOffice's PDF, not the built-in engine's (which says "Folio (pdf-lib)").
      expect((await PDFDocument.load(pdf, { updateMetadata: false })).getProducer() ?? '').not.toMatch(/Folio/);
      expect(await allText(pdf)).toContain('Quarterly report of the lighthouse keepers Second page of notes');
      const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
      expect(seen.join('\n')).toMatch(/Preparing the document engine — [\d.]+ MB of 23\d\.\d MB \(once\)…/);
      await expect
        .poll(() => dialog.locator('.result-notes').textContent())
        .toContain('Converted with the LibreOffice engine.');

      // Legacy files, saved by LibreOffice in this page (the engine is warm: no second start).
      const doc = await postFromPage(
        page,
        '/api/pdf/fromWord',
        { name: 'keepers.docx', bytes: docx },
        { engine: 'libreoffice', saveAs: 'doc' },
      );
      expect(doc.status).toBe(200);
      expect([...doc.bytes.subarray(0, 4)]).toEqual(OLE);
      const wb = new ExcelJS.Workbook();
      wb.addWorksheet('Tides').addRows([
        ['Harbour', 'High water'],
        ['Dover', '06:42'],
      ]);
      const xls = await postFromPage(
        page,
        '/api/pdf/fromExcel',
        { name: 'tides.xlsx', bytes: new Uint8Array(await wb.xlsx.writeBuffer()) },
        { engine: 'libreoffice', saveAs: 'xls' },
      );
      expect(xls.status).toBe(200);
      expect([...xls.bytes.subarray(0, 4)]).toEqual(OLE);
      const deck = new PptxGenJS();
      deck.addSlide().addText('Beacon maintenance schedule', { x: 1, y: 1, w: 8, h: 1 });
      const pptx = new Uint8Array((await deck.write({ outputType: 'arraybuffer' })) as ArrayBuffer);
      const ppt = await postFromPage(
        page,
        '/api/pdf/fromPowerPoint',
        { name: 'beacons.pptx', bytes: pptx },
        { engine: 'libreoffice', saveAs: 'ppt' },
      );
      expect(ppt.status).toBe(200);
      expect([...ppt.bytes.subarray(0, 4)]).toEqual(OLE);

      // The .doc through the modal with the default engine: LibreOffice is used, and the note says so.
      await dialog.getByRole('button', { name: 'Start over' }).click();
      await page
        .locator('input[type=file]')
        .first()
        .setInputFiles({ name: 'keepers.doc', mimeType: 'application/msword', buffer: Buffer.from(doc.bytes) });
      await dialog.getByLabel('Engine').selectOption('folio');
      const [docDownload] = await Promise.all([
        page.waitForEvent('download', { timeout: 60_000 }),
        dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
      ]);
      expect(docDownload.suggestedFilename()).toBe('keepers.pdf');
      expect(await allText(new Uint8Array(readFileSync(await docDownload.path())))).toContain(
        'Quarterly report of the lighthouse keepers',
      );
      await expect
        .poll(() => dialog.locator('.result-notes').textContent())
        .toContain('Old .doc format: converted with the LibreOffice engine.');

      // The .xls through Excel to PDF's endpoint, engine not named.
      const xlsPdf = await postFromPage(page, '/api/pdf/fromExcel', { name: 'tides.xls', bytes: xls.bytes }, {});
      expect(xlsPdf.status).toBe(200);
      expect(await allText(xlsPdf.bytes)).toMatch(/Harbour High water Dover 06:42/);
      expect(xlsPdf.notes).toEqual(['Old .xls format: converted with the LibreOffice engine.']);

      // The .ppt through PowerPoint to PDF's endpoint, engine not named.
      const pptPdf = await postFromPage(page, '/api/pdf/fromPowerPoint', { name: 'beacons.ppt', bytes: ppt.bytes }, {});
      expect(pptPdf.status).toBe(200);
      expect(await allText(pptPdf.bytes)).toContain('Beacon maintenance schedule');
      expect(pptPdf.notes).toEqual(['Old .ppt format: converted with the LibreOffice engine.']);

      const origin = new URL(baseUrl()).origin;
      expect(requests.filter((url) => /^https?:/.test(url) && !url.startsWith(origin))).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  // Issue #16: LibreOffice writes whatever links a document holds, and turns relative targets into
  // paths of its own file system; tests/security/libreoffice-clean.test.ts imitates that in Node, this
  // is LibreOffice itself.
  const cleanedTitle = 'links LibreOffice must not carry are removed from its PDF, and no engine path is left';
  test.runIf(LIBREOFFICE_E2E)(cleanedTitle, { timeout: 300_000 }, async () => {
    const targets = [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,x',
      'in/x.pdf',
      'https://example.org/kept',
    ];
    const docx = Buffer.from(
      await Packer.toBuffer(
        new Document({
          sections: [
            {
              children: targets.map(
                (link, i) =>
                  new Paragraph({
                    children: [new ExternalHyperlink({ link, children: [new TextRun(`Link number ${i + 1}`)] })],
                  }),
              ),
            },
          ],
        }),
      ),
    );
    const { page, context, errors } = await openPage(shared.browser, '/tools/word-to-pdf', {
      width: 1280,
      height: 900,
    });
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByLabel('Engine').selectOption('libreoffice');
    const mimeType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    await page.locator('input[type=file]').first().setInputFiles({ name: 'links.docx', mimeType, buffer: docx });
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 200_000 }),
      dialog.getByRole('button', { name: 'Process Files', exact: true }).click(),
    ]);
    const pdf = new Uint8Array(readFileSync(await download.path()));
    expect((await PDFDocument.load(pdf, { updateMetadata: false })).getProducer() ?? '').not.toMatch(/Folio/);
    expect(await allText(pdf)).toContain('Link number 1 Link number 2 Link number 3 Link number 4 Link number 5');

    // qpdf's reading: the https link is the only action left.
    expect(expectOnlyAllowedActions(pdf).actions).toEqual([{ type: 'URI', uri: 'https://example.org/kept' }]);
    for (const text of [Buffer.from(pdf).toString('latin1'), uncompressed(pdf)]) {
      expect(text).not.toContain('/tmp/');
      expect(text).not.toMatch(/javascript:|data:text|file:|etc\/passwd|in\/x\.pdf/);
    }
    await expect
      .poll(() => dialog.locator('.result-notes').textContent())
      .toMatch(/Removed links and actions the PDF must not carry: /);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('every route is cross-origin isolated, in the page and in its workers', async () => {
    const { page, context, errors } = await openPage(shared.browser, '/');
    expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
    // A worker started by the page inherits the isolation (the engine worker runs LibreOffice's host).
    expect(
      await page.evaluate(
        () =>
          new Promise((resolve) => {
            const worker = new Worker(
              URL.createObjectURL(new Blob(['postMessage(self.crossOriginIsolated)'], { type: 'text/javascript' })),
            );
            worker.onmessage = (event) => {
              resolve(event.data);
              worker.terminate();
            };
          }),
      ),
    ).toBe(true);
    for (const path of [...ROUTES.map((r) => r.path), ...tools.map((t) => `/tools/${t.id}`)]) {
      await page.goto(path, { waitUntil: 'domcontentloaded' });
      expect(await page.evaluate(() => self.crossOriginIsolated), path).toBe(true);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
