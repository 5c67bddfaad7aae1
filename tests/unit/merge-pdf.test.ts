import { describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zlibSync } from 'fflate';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { run, parseRangesField } from '../../workers/engine/tools/merge-pdf.ts';
import { qpdfCheck } from '../support/pdf.ts';
import { encrypt, labelledPdf, pageLabels } from '../support/page-fixtures.ts';
import { decodeImage, pdftoppmPng } from '../support/images.ts';

describe('merge-pdf engine', () => {
  test('merges files in the order given, with progress up to the total', async () => {
    const a = await labelledPdf('A', 2);
    const b = await labelledPdf('B', 3);
    const progress: Array<[number, number]> = [];
    const result = await run(
      [
        { name: 'a.pdf', bytes: a },
        { name: 'b.pdf', bytes: b },
      ],
      {},
      { progress: (done, total) => progress.push([done, total]) },
    );
    expect(await pageLabels(result.bytes)).toEqual(['A1', 'A2', 'B1', 'B2', 'B3']);
    expect(progress.at(-1)).toEqual([5, 5]);
    expect(result.filename).toBe('merged.pdf');
    expect((await qpdfCheck(result.bytes)).ok).toBe(true);
  });

  test('takes page ranges per file, repeats included', async () => {
    const a = await labelledPdf('A', 4);
    const b = await labelledPdf('B', 3);
    const result = await run(
      [
        { name: 'a.pdf', bytes: a },
        { name: 'b.pdf', bytes: b },
      ],
      { ranges: JSON.stringify(['4-3, 1', 'last,1,1']) },
      {},
    );
    expect(await pageLabels(result.bytes)).toEqual(['A4', 'A3', 'A1', 'B3', 'B1', 'B1']);
    expect((await qpdfCheck(result.bytes)).ok).toBe(true);
  });

  test('a bad range names the file and what is wrong', async () => {
    const a = await labelledPdf('A', 2);
    await expect(run([{ name: 'a.pdf', bytes: a }], { ranges: '["5"]' }, {})).rejects.toThrow(
      /a\.pdf: Page 5 does not exist/,
    );
    expect(() => parseRangesField('{oops', 1)).toThrow(/JSON array/);
  });

  test('adds one bookmark per file when asked', async () => {
    const a = await labelledPdf('A', 2);
    const b = await labelledPdf('B', 1);
    const result = await run(
      [
        { name: 'first.pdf', bytes: a },
        { name: 'second.pdf', bytes: b },
      ],
      { bookmarkEachFile: true },
      {},
    );
    const { openPdfjs } = await import('../../workers/engine/lib/pdf/pdfjs.ts');
    const doc = await openPdfjs(result.bytes);
    const outline = await doc.getOutline();
    expect(outline.map((item) => item.title)).toEqual(['first', 'second']);
    const secondDest = outline[1].dest as unknown[];
    expect(await doc.getPageIndex(secondDest[0] as { num: number; gen: number })).toBe(2);
    await doc.destroy();
  });

  test('opens an encrypted input with its password and asks for it otherwise', async () => {
    const secret = await encrypt(await labelledPdf('S', 2), 'pw1234');
    const plain = await labelledPdf('P', 1);
    await expect(
      run(
        [
          { name: 'p.pdf', bytes: plain },
          { name: 'secret.pdf', bytes: secret },
        ],
        {},
        {},
      ),
    ).rejects.toMatchObject({ name: 'PasswordRequired' });
    const result = await run(
      [
        { name: 'p.pdf', bytes: plain },
        { name: 'secret.pdf', bytes: secret, password: 'pw1234' },
      ],
      {},
      {},
    );
    expect(await pageLabels(result.bytes)).toEqual(['P1', 'S1', 'S2']);
    expect((await PDFDocument.load(result.bytes)).isEncrypted).toBe(false);
  });

  test('a cancelled job stops with Cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      run([{ name: 'a.pdf', bytes: await labelledPdf('A', 1) }], {}, { signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'Cancelled' });
  });

  test('an image filtered by [/FlateDecode] comes out under /FlateDecode, its data and pixels unchanged', async () => {
    // A grey gradient image whose /Filter is a one-element array, as OCRmyPDF writes page images.
    const width = 64;
    const height = 48;
    const raw = new Uint8Array(width * height).map((_, i) => ((i % width) * 4 + Math.floor(i / width)) & 0xff);
    const compressed = zlibSync(raw);
    const source = await PDFDocument.create();
    const image = source.context.register(
      source.context.stream(compressed, {
        Type: 'XObject',
        Subtype: 'Image',
        Width: width,
        Height: height,
        ColorSpace: 'DeviceGray',
        BitsPerComponent: 8,
        Filter: [PDFName.of('FlateDecode')],
      }),
    );
    const page = source.addPage([200, 150]);
    page.node.setXObject(PDFName.of('Im1'), image);
    const content = source.context.stream('q 160 0 0 120 20 15 cm /Im1 Do Q');
    page.node.set(PDFName.of('Contents'), source.context.register(content));
    const sourceBytes = await source.save({ useObjectStreams: false });
    expect(new TextDecoder('latin1').decode(sourceBytes)).toMatch(/\/Filter \[ ?\/FlateDecode ?\]/);

    const result = await run(
      [
        { name: 'scan.pdf', bytes: sourceBytes },
        { name: 'b.pdf', bytes: await labelledPdf('B', 1) },
      ],
      {},
      {},
    );
    expect((await qpdfCheck(result.bytes)).ok).toBe(true);
    const merged = await PDFDocument.load(result.bytes);
    const xobjects = merged.getPage(0).node.Resources()!.lookup(PDFName.of('XObject'), PDFDict);
    const mergedImage = merged.context.lookup(xobjects.get(PDFName.of('Im1')) as PDFRef);
    expect(mergedImage).toBeInstanceOf(PDFRawStream);
    const { dict, contents } = mergedImage as PDFRawStream;
    expect(dict.get(PDFName.of('Filter'))).toBe(PDFName.of('FlateDecode'));
    expect(dict.get(PDFName.of('Filter'))).not.toBeInstanceOf(PDFArray);
    expect(Buffer.from(contents).equals(Buffer.from(compressed))).toBe(true);

    const dir = mkdtempSync(join(tmpdir(), 'folio-merge-flate-'));
    try {
      writeFileSync(join(dir, 'source.pdf'), sourceBytes);
      writeFileSync(join(dir, 'merged.pdf'), result.bytes);
      const before = await decodeImage(pdftoppmPng(join(dir, 'source.pdf'), 1, 72));
      const after = await decodeImage(pdftoppmPng(join(dir, 'merged.pdf'), 1, 72));
      expect(new Set(before.data).size).toBeGreaterThan(32); // the gradient is drawn, not a blank page
      expect([after.width, after.height]).toEqual([before.width, before.height]);
      expect(Buffer.from(after.data).equals(Buffer.from(before.data))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
