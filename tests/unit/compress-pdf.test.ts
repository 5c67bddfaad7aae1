import { beforeAll, describe, expect, test, vi } from 'vitest';
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, StandardFonts, rgb } from 'pdf-lib';
import { run } from '../../workers/engine/tools/compress-pdf.ts';
import { encodeJpeg, encodePng, makeImageData } from '../../workers/engine/lib/image/codecs.ts';
import { runQpdf } from '../../workers/engine/lib/pdf/qpdf.ts';
import { pageTexts as texts, qpdfCheck } from '../support/pdf.ts';
import { createApiServer } from '../../mock-api/node.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blockSsim, decodeImage, grey, pdftoppmPng } from '../support/images.ts';
import { tool as compressTool } from '../../src/catalogue/tools/compress-pdf.ts';
import { labToSrgb, type LabParams } from '../../workers/engine/lib/image/lab.ts';
import { addLabPage, D65 } from '../support/lab-fixtures.ts';

/** A photo-like image: smooth colour gradients with noise, which JPEG at high quality keeps large. */
function photo(width: number, height: number, { alpha = false, gray = false } = {}): ImageData {
  const data = new Uint8ClampedArray(width * height * 4);
  let seed = 7;
  const noise = () => ((seed = (seed * 16807) % 2147483647) % 40) - 20;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const r = 128 + 100 * Math.sin(x / 37) + noise();
      data[i] = r;
      data[i + 1] = gray ? r : 128 + 100 * Math.cos(y / 23) + noise();
      data[i + 2] = gray ? r : (x + y) % 256;
      data[i + 3] = alpha ? (x < width / 2 ? 255 : 80) : 255;
    }
  }
  return makeImageData(data, width, height);
}

const TEXT = 'Quarterly report: compress me please';

/**
 * Page 1: a 1600×1000 photo drawn 4 in wide (400 dpi) + text; page 2: the same photo embedded a second time + a
 * transparent PNG.
 */
async function makeImagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const jpeg = await encodeJpeg(photo(1600, 1000), { quality: 95 });
  const png = await encodePng(photo(300, 200, { alpha: true }));
  const first = await doc.embedJpg(jpeg);
  const second = await doc.embedJpg(jpeg); // a duplicate object with identical bytes
  const transparent = await doc.embedPng(png);
  const page1 = doc.addPage([612, 792]);
  page1.drawText(TEXT, { x: 50, y: 740, size: 14, font, color: rgb(0, 0, 0) });
  page1.drawImage(first, { x: 50, y: 300, width: 288, height: 180 });
  const page2 = doc.addPage([612, 792]);
  page2.drawText('Page two', { x: 50, y: 740, size: 14, font });
  page2.drawImage(second, { x: 50, y: 300, width: 288, height: 180 });
  page2.drawImage(transparent, { x: 50, y: 50, width: 150, height: 100 });
  return doc.save();
}

async function makeTextPdf(pages = 3): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([612, 792]);
    for (let line = 0; line < 40; line++)
      page.drawText(`Line ${line} of page ${p + 1}: the quick brown fox`, {
        x: 40,
        y: 760 - line * 18,
        size: 11,
        font,
      });
  }
  return doc.save({ useObjectStreams: false });
}

interface ImageFacts {
  width: number;
  height: number;
  filter: string;
  colorSpace: string;
  hasSMask: boolean;
}

/** Image XObjects drawn by each page, as the file stores them. */
async function imagesByPage(bytes: Uint8Array): Promise<ImageFacts[][]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => {
    const xobjects = page.node.Resources()?.lookup(PDFName.of('XObject'));
    if (!(xobjects instanceof PDFDict)) return [];
    return xobjects.values().flatMap((ref) => {
      const stream = doc.context.lookup(ref);
      if (!(stream instanceof PDFRawStream) || stream.dict.lookup(PDFName.of('Subtype')) !== PDFName.of('Image'))
        return [];
      const num = (k: string) => (stream.dict.lookup(PDFName.of(k)) as PDFNumber).asNumber();
      return [
        {
          width: num('Width'),
          height: num('Height'),
          filter: String(stream.dict.lookup(PDFName.of('Filter'))),
          colorSpace: String(stream.dict.lookup(PDFName.of('ColorSpace'))),
          hasSMask: stream.dict.has(PDFName.of('SMask')),
        },
      ];
    });
  });
}

let imagePdf: Uint8Array;
beforeAll(async () => {
  imagePdf = await makeImagePdf();
}, 120_000);

describe('compress-pdf: images', () => {
  test(
    'Recommended downsamples a 400 dpi photo to ~150 dpi, keeps text, transparency and pages, and merges ' +
      'duplicates',
    async () => {
      const progress: Array<[number, number]> = [];
      const result = await run(
        [{ name: 'report.pdf', bytes: imagePdf }],
        { level: 'recommended' },
        { progress: (d, t) => progress.push([d, t]) },
      );
      expect(result.filename).toBe('report-compressed.pdf');
      expect(result.bytes.length).toBeLessThan(imagePdf.length * 0.5);
      expect((await qpdfCheck(result.bytes)).exitCode).toBe(0);
      expect(await texts(result.bytes)).toEqual([expect.stringContaining(TEXT), expect.stringContaining('Page two')]);

      const [page1, page2] = await imagesByPage(result.bytes);
      // 1600 px over 4 in = 400 dpi → 150 dpi = 600 px wide, still a JPEG.
      expect(page1).toEqual([expect.objectContaining({ width: 600, height: 375, filter: '/DCTDecode' })]);
      expect(page2).toHaveLength(2);
      // The transparent PNG keeps its soft mask.
      expect(page2.some((img) => img.hasSMask)).toBe(true);

      // The two identical photos became one object.
      const doc = await PDFDocument.load(result.bytes);
      const refOf = (page: number) =>
        (doc.getPage(page).node.Resources()!.lookup(PDFName.of('XObject')) as PDFDict).values().map(String);
      expect(refOf(0).some((ref) => refOf(1).includes(ref))).toBe(true);

      expect(progress.at(-1)?.[0]).toBe(progress.at(-1)?.[1]);
      expect(result.notes?.[0]).toMatch(/→ .*\(−\d+%\)/);
    },
  );

  test('Strong is smaller than Recommended, which is smaller than Light', async () => {
    const sizes = [];
    for (const level of ['light', 'recommended', 'strong']) {
      sizes.push((await run([{ name: 'a.pdf', bytes: imagePdf }], { level }, {})).bytes.length);
    }
    expect(sizes[0]).toBeGreaterThan(sizes[1]);
    expect(sizes[1]).toBeGreaterThan(sizes[2]);
  });

  test('custom: grayscale turns colour photos gray, the dpi limit is honoured, metadata is removed', async () => {
    const withMeta = await PDFDocument.load(imagePdf);
    withMeta.setTitle('Secret title');
    withMeta.setAuthor('Someone');
    const source = await withMeta.save();
    const result = await run(
      [{ name: 'a.pdf', bytes: source }],
      { level: 'custom', imageQuality: 60, maxDpi: 100, grayscale: true, removeMetadata: true },
      {},
    );
    const [page1] = await imagesByPage(result.bytes);
    expect(page1[0]).toMatchObject({ width: 400, height: 250, colorSpace: '/DeviceGray' });
    const doc = await PDFDocument.load(result.bytes, { updateMetadata: false });
    expect(doc.getTitle()).toBeUndefined();
    expect(doc.getAuthor()).toBeUndefined();
    expect(await texts(result.bytes)).toEqual([expect.stringContaining(TEXT), expect.stringContaining('Page two')]);
  });

  test('target size: fits when it can; says so and still never grows when it cannot', async () => {
    const fits = await run([{ name: 'a.pdf', bytes: imagePdf }], { level: 'target', targetSizeMb: 0.15 }, {});
    expect(fits.bytes.length).toBeLessThanOrEqual(0.15 * 1024 * 1024);
    expect(fits.notes?.join(' ')).not.toMatch(/Could not/);

    const impossible = await run([{ name: 'a.pdf', bytes: imagePdf }], { level: 'target', targetSizeMb: 0.001 }, {});
    expect(impossible.bytes.length).toBeLessThan(imagePdf.length);
    expect(impossible.notes?.join(' ')).toMatch(/Could not get this PDF under 1\.0 KB/);
    expect(impossible.notes?.join(' ')).not.toMatch(/images left unchanged/);
  });

  test('target size it cannot reach because of images it keeps: the note names them with the last reason', async () => {
    // A 4-bit RGB image (recompression reads 8 and 16 bits): 400 × 300 pixels of noise. The first
    // attempt keeps it because it keeps every Flate image lossless; every later one for its 4 bits.
    const doc = await PDFDocument.create();
    let seed = 3;
    const samples = new Uint8Array(400 * 300 * 1.5).map(() => (seed = (seed * 16807) % 2147483647) & 0xff);
    const dict = { Type: 'XObject', Subtype: 'Image', Width: 400, Height: 300, ColorSpace: 'DeviceRGB' };
    const image = doc.context.register(doc.context.flateStream(samples, { ...dict, BitsPerComponent: 4 }));
    const page = doc.addPage([400, 300]);
    page.node.set(PDFName.of('Resources'), doc.context.obj({ XObject: { Im: image } }));
    page.node.addContentStream(doc.context.register(doc.context.stream('q 400 0 0 300 0 0 cm /Im Do Q')));
    const bytes = await doc.save();
    const result = await run([{ name: 'lab.pdf', bytes }], { level: 'target', targetSizeMb: 0.05 }, {});
    const notes = result.notes?.join(' ') ?? '';
    expect(notes).toMatch(/Could not get this PDF under 51\.2 KB: .*\(the images left unchanged, listed below, and/);
    expect(notes).toMatch(/Left unchanged: 1 × not 8 or 16 bits per sample\./);
    expect(notes).not.toMatch(/lossless/);
  });
});

test('16-bit images are recompressed (as 8 bits), and made gray when asked, with or without a PNG predictor', async () => {
  // A photo drawn 300 × 200 pt from 1200 × 800 samples of 16 bits (288 dpi), once as stored rows and
  // once with the PNG Sub predictor over 6-byte pixels.
  const { data } = photo(1200, 800);
  const samples = new Uint8Array(1200 * 800 * 6);
  for (let i = 0, o = 0; i < data.length; i += 4) {
    for (let c = 0; c < 3; c++, o += 2) [samples[o], samples[o + 1]] = [data[i + c], (i + c) & 0xff];
  }
  const rowBytes = 1200 * 6;
  const sub = new Uint8Array(800 * (rowBytes + 1));
  for (let y = 0; y < 800; y++) {
    sub[y * (rowBytes + 1)] = 1;
    for (let x = 0; x < rowBytes; x++) {
      const left = x >= 6 ? samples[y * rowBytes + x - 6] : 0;
      sub[y * (rowBytes + 1) + 1 + x] = (samples[y * rowBytes + x] - left) & 0xff;
    }
  }
  const doc = await PDFDocument.create();
  const dict = { Type: 'XObject', Subtype: 'Image', Width: 1200, Height: 800, ColorSpace: 'DeviceRGB' };
  const plain = doc.context.flateStream(samples, { ...dict, BitsPerComponent: 16 });
  const parms = { Predictor: 11, Colors: 3, BitsPerComponent: 16, Columns: 1200 };
  const predicted = doc.context.flateStream(sub, { ...dict, BitsPerComponent: 16, DecodeParms: parms });
  for (const stream of [plain, predicted]) {
    const page = doc.addPage([300, 200]);
    page.node.set(PDFName.of('Resources'), doc.context.obj({ XObject: { Im: doc.context.register(stream) } }));
    page.node.addContentStream(doc.context.register(doc.context.stream('q 300 0 0 200 0 0 cm /Im Do Q')));
  }
  const bytes = await doc.save();
  const result = await run([{ name: 'deep.pdf', bytes }], { level: 'recommended', grayscale: true }, {});
  expect(result.notes?.join(' ')).toContain('2 of 2 images recompressed.');
  for (const [image] of await imagesByPage(result.bytes)) {
    expect(image).toMatchObject({ filter: '/DCTDecode', colorSpace: '/DeviceGray', width: 625 });
  }
  // Each page draws as the source page in gray (poppler).
  const dir = mkdtempSync(join(tmpdir(), 'folio-deep-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    writeFileSync(join(dir, 'out.pdf'), result.bytes);
    for (const n of [1, 2]) {
      const source = await decodeImage(pdftoppmPng(join(dir, 'in.pdf'), n, 72));
      const output = await decodeImage(pdftoppmPng(join(dir, 'out.pdf'), n, 72));
      const grayed = new Uint8ClampedArray(source.data);
      const luma = grey(source);
      for (let i = 0; i < luma.length; i++) grayed.fill(luma[i], i * 4, i * 4 + 3);
      expect(blockSsim(output, { ...source, data: grayed })).toBeGreaterThan(0.9);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Lab samples to sRGB: the white point is white, L* 50 is sRGB 119 gray, whatever the white point', () => {
  for (const whitePoint of [D65, [0.9642, 1, 0.8249]] as Array<LabParams['whitePoint']>) {
    // L* 100, 50.2 and 0 (samples 255, 128, 0) with a* = b* = 0 (sample 128 over −128…127).
    const data = new Uint8ClampedArray([255, 128, 128, 255, 128, 128, 128, 255, 0, 128, 128, 255]);
    labToSrgb(data, { whitePoint, range: [-128, 127, -128, 127] });
    expect([...data]).toEqual([255, 255, 255, 255, 119, 119, 119, 255, 0, 0, 0, 255]);
  }
});

test('Lab images are recompressed as sRGB, or gray when asked, and draw as poppler draws the original', async () => {
  const doc = await PDFDocument.create();
  await addLabPage(doc, 'flate');
  await addLabPage(doc, 'jpeg');
  const bytes = await doc.save();
  const dir = mkdtempSync(join(tmpdir(), 'folio-lab-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    const sources = [1, 2].map((n) => decodeImage(pdftoppmPng(join(dir, 'in.pdf'), n, 72)));
    for (const grayscale of [false, true]) {
      const result = await run([{ name: 'lab.pdf', bytes }], { level: 'recommended', grayscale }, {});
      expect(result.notes?.join(' ')).toContain('2 of 2 images recompressed.');
      expect(result.bytes.length).toBeLessThan(bytes.length / 2);
      const colorSpace = grayscale ? '/DeviceGray' : '/DeviceRGB';
      for (const [image] of await imagesByPage(result.bytes)) {
        expect(image).toMatchObject({ filter: '/DCTDecode', colorSpace, width: 625 });
      }
      writeFileSync(join(dir, 'out.pdf'), result.bytes);
      for (const n of [1, 2]) {
        const source = await sources[n - 1];
        const output = await decodeImage(pdftoppmPng(join(dir, 'out.pdf'), n, 72));
        const expected = new Uint8ClampedArray(source.data);
        if (grayscale) {
          const luma = grey(source);
          for (let i = 0; i < luma.length; i++) expected.fill(luma[i], i * 4, i * 4 + 3);
        }
        expect(blockSsim(output, { ...source, data: expected })).toBeGreaterThan(0.9);
        // The colours too (SSIM compares gray): mean difference per channel, out of 255.
        const difference = [0, 0, 0];
        for (let i = 0; i < expected.length; i += 4)
          for (let c = 0; c < 3; c++) difference[c] += Math.abs(output.data[i + c] - expected[i + c]);
        for (const d of difference) expect(d / (expected.length / 4)).toBeLessThan(6);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('private application data (/PieceInfo) is dropped from Recommended on, kept at Light', async () => {
  const doc = await PDFDocument.load(await makeTextPdf(1));
  let seed = 1;
  const blob = doc.context.stream(new Uint8Array(100_000).map(() => (seed = (seed * 16807) % 2147483647) & 0xff));
  doc.getPage(0).node.set(PDFName.of('PieceInfo'), doc.context.obj({ App: { Private: doc.context.register(blob) } }));
  const bytes = await doc.save();
  const recommended = await run([{ name: 'p.pdf', bytes }], { level: 'recommended' }, {});
  expect((await PDFDocument.load(recommended.bytes)).getPage(0).node.has(PDFName.of('PieceInfo'))).toBe(false);
  expect(recommended.bytes.length).toBeLessThan(bytes.length / 4);
  expect(recommended.notes?.join(' ')).toMatch(/PieceInfo/);
  const light = await run([{ name: 'p.pdf', bytes }], { level: 'light' }, {});
  expect((await PDFDocument.load(light.bytes)).getPage(0).node.has(PDFName.of('PieceInfo'))).toBe(true);
});

describe('compress-pdf: never larger, bad input', () => {
  test('a text-only PDF shrinks structurally (object streams) and keeps its text', async () => {
    const text = await makeTextPdf();
    const result = await run([{ name: 't.pdf', bytes: text }], { level: 'recommended' }, {});
    expect(result.bytes.length).toBeLessThan(text.length);
    expect((await qpdfCheck(result.bytes)).exitCode).toBe(0);
    expect((await texts(result.bytes))[2]).toContain('Line 39 of page 3');
  });

  test('an already compact PDF comes back unchanged, with a note saying so', async () => {
    const tiny = (await run([{ name: 't.pdf', bytes: await makeTextPdf(1) }], { level: 'strong' }, {})).bytes;
    const again = await run([{ name: 'tiny.pdf', bytes: tiny }], { level: 'strong' }, {});
    expect(again.bytes).toEqual(tiny);
    expect(again.notes?.[0]).toMatch(/already well compressed/);
  });

  test('encrypted input asks for its password, then compresses', async () => {
    const encrypted = (
      await runQpdf(['--encrypt', 'pw', 'owner', '256', '--', '/in.pdf', '/out.pdf'], {
        inputs: { '/in.pdf': imagePdf },
        outputs: ['/out.pdf'],
      })
    ).files['/out.pdf'];
    await expect(run([{ name: 'locked.pdf', bytes: encrypted }], { level: 'recommended' }, {})).rejects.toMatchObject({
      name: 'PasswordRequired',
    });
    const result = await run([{ name: 'locked.pdf', bytes: encrypted, password: 'pw' }], { level: 'recommended' }, {});
    expect(result.bytes.length).toBeLessThan(encrypted.length);
    expect(result.notes?.join(' ')).toMatch(/not password-protected/);
  });

  test('not a PDF / empty file fail with named errors', async () => {
    await expect(run([{ name: 'x.pdf', bytes: new Uint8Array() }], {}, {})).rejects.toMatchObject({
      name: 'InvalidInput',
      message: '"x.pdf" is empty (0 bytes).',
    });
    await expect(
      run([{ name: 'x.pdf', bytes: new TextEncoder().encode('hello world') }], {}, {}),
    ).rejects.toMatchObject({ name: 'InvalidPdf' });
  });

  test('cancelling stops between images', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(run([{ name: 'a.pdf', bytes: imagePdf }], {}, { signal: controller.signal })).rejects.toMatchObject({
      name: 'Cancelled',
    });
  });
});

test('POST /api/pdf/compress answers the smaller PDF with its filename and notes', async () => {
  vi.stubGlobal('location', new URL('http://localhost/'));
  const server = createApiServer();
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const form = new FormData();
    form.append('file', new File([imagePdf as Uint8Array<ArrayBuffer>], 'photos.pdf', { type: 'application/pdf' }));
    form.append('level', 'strong');
    const response = await fetch(`http://localhost${compressTool.endpoint}`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Disposition')).toContain('photos-compressed.pdf');
    expect(JSON.parse(decodeURIComponent(response.headers.get('X-Folio-Notes') ?? '[]'))[0]).toMatch(/→/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.length).toBeLessThan(imagePdf.length);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(2);
  } finally {
    server.close();
    vi.unstubAllGlobals();
  }
});
