/**
 * Inputs from the quality sweep (docs/quality-sweep.md), through the built app's in-page /api in
 * Chromium (the engine workers a visitor's browser runs), judged against poppler's drawing of the
 * input: layers hidden by default stay hidden through merge and split; pages with /Rotate, media
 * boxes away from the origin and crop boxes smaller than the media box keep their look through
 * PDF → JPG and Rotate; a file cut short draws the pages it still has; a locked file with bytes
 * after its end, and one whose cross-reference table points to the wrong places, unlock (their
 * text against pdftotext).
 */
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts, degrees, rgb } from 'pdf-lib';
import { sharedBrowser } from './harness.ts';
import { pageWithApi, postInPage } from './page-api.ts';
import { blockSsim, decodeImage, pdftoppmPng, type Raster } from '../support/images.ts';
import { labelledPdf } from '../support/page-fixtures.ts';
import { layeredPdf } from '../support/layer-fixtures.ts';
import { encryptWithQpdf } from '../support/protect-unlock-fixtures.ts';
import { popplerText } from '../support/pdf.ts';
import { withLineAfterHeader } from '../support/xref-damage.ts';

const shared = sharedBrowser('folio-sweep-');

let files = 0;
/** Page `page` (1-based) of a PDF as poppler draws its crop box at `dpi`. */
async function poppler(bytes: Uint8Array, page: number, dpi: number): Promise<Raster> {
  const path = join(shared.scratch, `${++files}.pdf`);
  writeFileSync(path, bytes);
  return decodeImage(pdftoppmPng(path, page, dpi));
}

/** The raster turned a quarter clockwise. */
function quarterTurn({ width, height, data }: Raster): Raster {
  const turned = new Uint8ClampedArray(data.length);
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < height; x++) {
      const from = ((height - 1 - x) * width + y) * 4;
      turned.set(data.subarray(from, from + 4), (y * height + x) * 4);
    }
  }
  return { width: height, height: width, data: turned };
}

function expectSameDrawing(got: Raster, want: Raster, minimum: number): void {
  expect(Math.abs(got.width - want.width)).toBeLessThanOrEqual(1);
  expect(Math.abs(got.height - want.height)).toBeLessThanOrEqual(1);
  expect(blockSsim(got, want)).toBeGreaterThanOrEqual(minimum);
}

/**
 * Four pages, each with a black square at the top left of its media box and a frame: /Rotate 90
 * on a media box at (200, 300); /Rotate 270 on one at (−300, −400); /Rotate 180 landscape at
 * (1000, 50); a crop box of 300 × 300 inside a red page, whose red must not show.
 */
async function geometryPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const boxes: Array<[number, number, number, number, number]> = [
    [200, 300, 612, 792, 90],
    [-300, -400, 600, 800, 270],
    [1000, 50, 842, 595, 180],
  ];
  for (const [x, y, width, height, rotation] of boxes) {
    const page = doc.addPage([width, height]);
    page.setMediaBox(x, y, width, height);
    page.drawRectangle({
      x: x + 5,
      y: y + 5,
      width: width - 10,
      height: height - 10,
      borderColor: rgb(0, 0, 1),
      borderWidth: 2,
    });
    page.drawRectangle({ x: x + 10, y: y + height - 110, width: 100, height: 100, color: rgb(0, 0, 0) });
    page.drawText(`Rotate ${rotation}`, { x: x + 120, y: y + height - 40, size: 24, font });
    page.setRotation(degrees(rotation));
  }
  const cropped = doc.addPage([612, 792]);
  cropped.drawRectangle({ x: 0, y: 0, width: 612, height: 792, color: rgb(1, 0, 0) });
  cropped.drawRectangle({ x: 100, y: 200, width: 300, height: 300, color: rgb(1, 1, 1) });
  cropped.drawRectangle({ x: 110, y: 440, width: 50, height: 50, color: rgb(0, 0, 0) });
  cropped.drawText('Inside the crop box', { x: 120, y: 300, size: 20, font });
  cropped.setCropBox(100, 200, 300, 300);
  return doc.save();
}

describe('quality sweep inputs in the browser', () => {
  test('merge and split keep a layer hidden by default hidden', async () => {
    const { page, context, errors } = await pageWithApi(shared.browser, 'merge-pdf');
    const layers = await layeredPdf();
    const merged = await postInPage(page, '/api/pdf/merge', [
      ['files', 'b.pdf', await labelledPdf('B', 1)],
      ['files', 'layers.pdf', layers],
    ]);
    expect(merged.status).toBe(200);
    expectSameDrawing(await poppler(merged.bytes, 2, 36), await poppler(layers, 1, 36), 0.99);

    const split = await postInPage(page, '/api/pdf/split', [['file', 'layers.pdf', layers]], { mode: 'each' });
    expect(split.status).toBe(200);
    const zip = await JSZip.loadAsync(split.bytes);
    const first = await zip.files[Object.keys(zip.files).sort()[0]].async('uint8array');
    expectSameDrawing(await poppler(first, 1, 36), await poppler(layers, 1, 36), 0.99);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('PDF → JPG and Rotate: rotated, offset and cropped pages draw as poppler draws them', async () => {
    const { page, context, errors } = await pageWithApi(shared.browser, 'pdf-to-jpg');
    const source = await geometryPdf();
    const images = await postInPage(page, '/api/pdf/toJpg', [['file', 'geometry.pdf', source]], {
      mode: 'pages',
      resolution: '72',
      format: 'png',
    });
    expect(images.status).toBe(200);
    const zip = await JSZip.loadAsync(images.bytes);
    const names = Object.keys(zip.files).sort();
    expect(names).toHaveLength(4);
    for (const [i, name] of names.entries()) {
      const drawn = await decodeImage(await zip.files[name].async('uint8array'));
      expectSameDrawing(drawn, await poppler(source, i + 1, 72), 0.9);
    }

    const rotated = await postInPage(page, '/api/pdf/rotate', [['file', 'geometry.pdf', source]], { angle: '90' });
    expect(rotated.status).toBe(200);
    for (let n = 1; n <= 4; n++) {
      const [got, expected] = [await poppler(rotated.bytes, n, 36), quarterTurn(await poppler(source, n, 36))];
      expectSameDrawing(got, expected, 0.9);
      // A page of mostly white paper looks alike at any turn of the same size: the half turn must look less so.
      expect(blockSsim(got, expected)).toBeGreaterThan(blockSsim(got, quarterTurn(quarterTurn(expected))));
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a file cut short inside its last page: PDF → JPG draws the pages there are, as poppler draws the whole file', async () => {
    const { page, context, errors } = await pageWithApi(shared.browser, 'pdf-to-jpg');
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let n = 1; n <= 4; n++) {
      const sheet = doc.addPage([300, 400]);
      sheet.drawRectangle({ x: 20 + 40 * n, y: 60, width: 60, height: 120, color: rgb(0.1 * n, 0.2, 0.6) });
      sheet.drawText(`Page ${n}`, { x: 40, y: 300, size: 36, font });
    }
    const whole = await doc.save({ useObjectStreams: false });
    // 12 bytes into the last stream's data: page 4's content, written last, is cut off.
    const cut = whole.subarray(0, Buffer.from(whole).lastIndexOf('>>\nstream\n') + 20);
    const images = await postInPage(page, '/api/pdf/toJpg', [['file', 'cut.pdf', cut]], {
      mode: 'pages',
      resolution: '72',
      format: 'png',
    });
    expect(images.status, images.text).toBe(200);
    expect(images.notes[0]).toContain('"cut.pdf" ends early');
    const zip = await JSZip.loadAsync(images.bytes);
    const names = Object.keys(zip.files).sort();
    expect(names).toHaveLength(4);
    const drawn = await Promise.all(names.map(async (name) => decodeImage(await zip.files[name].async('uint8array'))));
    for (let n = 1; n <= 3; n++) expectSameDrawing(drawn[n - 1], await poppler(whole, n, 72), 0.95);
    // The page whose content was lost is blank, not a copy of another page.
    expect(drawn[3].data.every((value) => value === 255)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a locked file with 4 KB of zeros after its end unlocks (qpdf alone refused it as damaged)', async () => {
    const { page, context, errors } = await pageWithApi(shared.browser, 'unlock-pdf');
    const locked = await encryptWithQpdf(await labelledPdf('Padded', 2), 'AES-256 (R6)', 'user-pw', 'owner-pw');
    const padded = new Uint8Array(locked.byteLength + 4096);
    padded.set(locked);
    const unlocked = await postInPage(page, '/api/pdf/unlock', [['file', 'padded.pdf', padded]], {
      password: 'user-pw',
    });
    expect(unlocked.status, unlocked.text).toBe(200);
    expect(popplerText(unlocked.bytes).split(/\s+/).filter(Boolean)).toEqual(['Padded1', 'Padded2']);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a locked file whose cross-reference table points to the wrong places unlocks (qpdf refused it as damaged)', async () => {
    const { page, context, errors } = await pageWithApi(shared.browser, 'unlock-pdf');
    const locked = await encryptWithQpdf(await labelledPdf('Shifted', 2), 'AES-256 (R6)', 'user-pw', 'owner-pw');
    const unlocked = await postInPage(page, '/api/pdf/unlock', [['file', 'shifted.pdf', withLineAfterHeader(locked)]], {
      password: 'user-pw',
    });
    expect(unlocked.status, unlocked.text).toBe(200);
    expect(unlocked.notes[0]).toContain('"shifted.pdf" had a damaged cross-reference table');
    expect(popplerText(unlocked.bytes).split(/\s+/).filter(Boolean)).toEqual(['Shifted1', 'Shifted2']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
