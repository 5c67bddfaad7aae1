import { beforeAll, describe, expect, test } from 'vitest';
import { buildScannedPage, characterErrorRate, readDocx, readPptx } from '../support/office-fixtures.ts';
import { run as toWord } from '../../workers/engine/tools/pdf-to-word.ts';
import { run as toPpt } from '../../workers/engine/tools/pdf-to-ppt.ts';

let scan: { bytes: Uint8Array; text: string };
beforeAll(async () => {
  scan = await buildScannedPage();
}, 60_000);

describe('OCR of scanned pages', () => {
  test('without OCR the scan is kept as a picture and the note says how to recognise it', async () => {
    const result = await toWord([{ name: 'scan.pdf', bytes: scan.bytes }], { ocr: false }, {});
    const docx = await readDocx(result.bytes);
    expect(docx.text.trim()).toBe('');
    expect(docx.xml).toContain('<w:drawing>');
    expect(result.notes?.join(' ')).toMatch(/Recognise text in scanned pages/);
  });

  test('with OCR the Word text has a character error rate ≤ 2 %, with progress per page', async () => {
    const progress: Array<[number, number]> = [];
    const result = await toWord(
      [{ name: 'scan.pdf', bytes: scan.bytes }],
      { ocr: true },
      { progress: (d, t) => progress.push([d, t]) },
    );
    const docx = await readDocx(result.bytes);
    const cer = characterErrorRate(scan.text, docx.text);
    console.log(`[ocr] synthetic 200 dpi scan, Word: CER ${(cer * 100).toFixed(2)} %`);
    expect(cer).toBeLessThanOrEqual(0.02);
    expect(progress.at(-1)).toEqual([2, 2]);
    expect(result.notes?.join(' ')).toMatch(/OCR/);
  }, 120_000);

  test('PowerPoint gets the recognised text as text boxes', async () => {
    const result = await toPpt([{ name: 'scan.pdf', bytes: scan.bytes }], { ocr: true }, {});
    const pptx = await readPptx(result.bytes);
    expect(characterErrorRate(scan.text, pptx.slides[0])).toBeLessThanOrEqual(0.03);
  }, 120_000);

  test('Cancel during recognition stops with Cancelled', async () => {
    const controller = new AbortController();
    const job = toWord([{ name: 'scan.pdf', bytes: scan.bytes }], { ocr: true }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(job).rejects.toMatchObject({ name: 'Cancelled' });
  }, 60_000);
});
