import { describe, expect, test } from 'vitest';
import { PDFDict, PDFDocument, PDFName, StandardFonts, degrees } from 'pdf-lib';
import { run, placements, parseColour } from '../../workers/engine/tools/add-watermark.ts';
import { fitFactor } from '../../shared/watermark-layout.ts';
import { openPdfjs, renderPage } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { pageTexts as texts, qpdfCheck } from '../support/pdf.ts';
import { encodeJpeg, encodePng, makeImageData } from '../../workers/engine/lib/image/codecs.ts';
import { withExifOrientation } from '../support/image-fixtures.ts';
import { readToolRequest } from '../../mock-api/handlers.ts';
import { tool } from '../../src/catalogue/tools/add-watermark.ts';

async function makePdf(pages = 4): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Body of page ${i}`, { x: 50, y: 780, size: 14, font });
    if (i === 3) page.setRotation(degrees(90));
  }
  return doc.save();
}

const file = (bytes: Uint8Array) => [{ name: 'contract.pdf', bytes }];

describe('add-watermark: text', () => {
  test('Latin, Cyrillic and Greek text is on every chosen page and on no other, as real text', async () => {
    const text = 'CONFIDENTIAL Секретно Απόρρητο';
    const result = await run(
      file(await makePdf()),
      { text, pages: '1, 3', position: 'center', rotation: 45, opacity: 30, fontSize: 40, color: '#c00000' },
      {},
    );
    expect(result.filename).toBe('contract-watermarked.pdf');
    const pages = await texts(result.bytes);
    expect(pages.map((t) => t.includes(text))).toEqual([true, false, true, false]);
    expect(pages[1]).toContain('Body of page 2'); // content kept
    expect((await qpdfCheck(result.bytes)).exitCode).toBe(0);
    // Subset: the 629 KB font adds only the glyphs used.
    expect(result.bytes.byteLength).toBeLessThan(40_000);
  });

  test('a CJK watermark uses the CJK font, subset, and is extracted by pdf.js', async () => {
    const text = '机密文件 テスト';
    const result = await run(file(await makePdf()), { text, pages: 'even', position: 'tiled', layer: 'under' }, {});
    const pages = await texts(result.bytes);
    expect(pages.map((t) => t.includes(text))).toEqual([false, true, false, true]);
    expect((await qpdfCheck(result.bytes)).exitCode).toBe(0);
    expect(result.bytes.byteLength).toBeLessThan(80_000); // the 10.5 MB font shrinks to a few glyphs
  });

  test('a Korean watermark uses the Korean font (SC has no Hangul) and is extracted by pdf.js', async () => {
    const text = '대외비 문서 2026';
    const result = await run(file(await makePdf(1)), { text }, {});
    expect((await texts(result.bytes))[0]).toContain(text);
    const doc = await PDFDocument.load(result.bytes);
    const baseFonts = doc.context
      .enumerateIndirectObjects()
      .map(([, object]) => (object instanceof PDFDict ? object.get(PDFName.of('BaseFont'))?.toString() : undefined))
      .filter((name) => name !== undefined);
    expect(baseFonts.some((name) => name.includes('NotoSansKR'))).toBe(true);
    expect(result.bytes.byteLength).toBeLessThan(80_000);
  });

  test('over vs under: the watermark is drawn before or after the page content', async () => {
    for (const layer of ['over', 'under'] as const) {
      const result = await run(file(await makePdf(1)), { text: 'DRAFT', layer }, {});
      const doc = await PDFDocument.load(result.bytes);
      const contents = doc.getPage(0).node.Contents()!;
      const streams = 'asArray' in contents ? (contents as unknown as { asArray(): unknown[] }).asArray() : [contents];
      expect(streams.length).toBe(layer === 'over' ? 4 : 2); // over: q, page, Q, mark — under: mark, page
      const [pageText1] = await texts(result.bytes);
      expect(pageText1).toContain('DRAFT');
    }
  });

  test('the mark is really painted with the chosen colour and opacity', async () => {
    const result = await run(
      file(await makePdf(1)),
      { text: 'XXXXXXXX', fontSize: 120, rotation: 0, color: '#0000ff', opacity: 50, position: 'center' },
      {},
    );
    const doc = await openPdfjs(result.bytes);
    const page = await renderPage(doc, 1, 36);
    let blueish = 0;
    for (let i = 0; i < page.data.length; i += 4) {
      const [r, g, b] = [page.data[i], page.data[i + 1], page.data[i + 2]];
      if (b > 200 && r > 90 && r < 170 && g > 90 && g < 170) blueish++; // 50 % blue over white
    }
    expect(blueish).toBeGreaterThan(100);
    await doc.destroy();
  });

  test('placement: grid positions keep the rotated box inside the page; tiled covers it', () => {
    const [[x, y]] = placements('top-right', 600, 800, 200, 50, 0);
    expect(x + 100).toBeLessThanOrEqual(600);
    expect(y + 25).toBeLessThanOrEqual(800);
    expect(placements('center', 600, 800, 10, 10, 30)).toEqual([[300, 400]]);
    expect(placements('tiled', 600, 800, 100, 20, 45).length).toBeGreaterThan(6);
    // A watermark wider than a small page shrinks to fit inside its margins; a small one does not.
    const fit = fitFactor(120, 86, 300, 60, 45);
    expect(fit).toBeLessThan(0.35);
    const [[cx, cy]] = placements('center', 120, 86, 300 * fit, 60 * fit, 45);
    expect([cx, cy]).toEqual([60, 43]);
    expect(fitFactor(600, 800, 100, 20, 45)).toBe(1);
    expect(placements('tiled', 120, 86, 300 * fit, 60 * fit, 45).length).toBeGreaterThanOrEqual(1);
    expect(parseColour('#f80')).toEqual([1, 136 / 255, 0]);
    expect(() => parseColour('red')).toThrow('#RRGGBB');
  });

  test('bad input says what is wrong', async () => {
    const pdf = await makePdf(2);
    await expect(run(file(pdf), { text: '   ' }, {})).rejects.toThrow('Enter the watermark text.');
    await expect(run(file(pdf), { text: 'x', pages: '3' }, {})).rejects.toThrow('Page 3 does not exist');
    await expect(run(file(pdf), { text: 'ⴰⵣⵓⵍ' }, {})).rejects.toThrow('cannot draw "ⴰ"');
    await expect(run(file(pdf), { type: 'image' }, {})).rejects.toThrow('Choose a JPEG or PNG image');
  });
});

describe('add-watermark: image', () => {
  const png = async () => {
    const data = new Uint8ClampedArray(40 * 20 * 4);
    for (let i = 0; i < 40 * 20; i++) data.set([255, 0, 0, 255], i * 4);
    return encodePng(makeImageData(data, 40, 20));
  };

  test('an image sent in the `image` field is placed on the chosen pages, scaled to the page width', async () => {
    const form = new FormData();
    form.append('file', new File([(await makePdf(2)) as Uint8Array<ArrayBuffer>], 'contract.pdf'));
    form.append('image', new File([(await png()) as Uint8Array<ArrayBuffer>], 'logo.png'));
    form.append('type', 'image');
    form.append('imageScale', '50');
    form.append('opacity', '100');
    form.append('rotation', '0');
    form.append('pages', '2');
    const { inputs, options } = await readToolRequest(tool, form);
    expect(inputs.map((i) => [i.name, i.field])).toEqual([
      ['contract.pdf', undefined],
      ['logo.png', 'image'],
    ]);
    const result = await run(inputs, options, {});
    expect((await qpdfCheck(result.bytes)).exitCode).toBe(0);
    const doc = await openPdfjs(result.bytes);
    const redShare = async (n: number) => {
      const page = await renderPage(doc, n, 36);
      let red = 0;
      for (let i = 0; i < page.data.length; i += 4) if (page.data[i] > 200 && page.data[i + 1] < 60) red++;
      return red / (page.width * page.height);
    };
    expect(await redShare(1)).toBe(0);
    // 50 % of the width, aspect 2:1 → 0.5 × (0.25 × 595 / 842) ≈ 8.8 % of the page.
    expect(await redShare(2)).toBeGreaterThan(0.07);
    expect(await redShare(2)).toBeLessThan(0.11);
    await doc.destroy();
  });

  test('a JPEG with an EXIF orientation stands as it is displayed, not as stored', async () => {
    // Stored 200 × 100 (red, green / blue, yellow); orientation 6 displays it turned 90° clockwise:
    // 100 × 200, blue and red on top, yellow and green below.
    const data = new Uint8ClampedArray(200 * 100 * 4);
    for (let y = 0; y < 100; y++) {
      for (let x = 0; x < 200; x++) {
        const rgb = y < 50 ? (x < 100 ? [255, 0, 0] : [0, 255, 0]) : x < 100 ? [0, 0, 255] : [255, 255, 0];
        data.set([...rgb, 255], (y * 200 + x) * 4);
      }
    }
    const jpeg = withExifOrientation(await encodeJpeg(makeImageData(data, 200, 100), { quality: 95 }), 6);
    const dataUrl = `data:image/jpeg;base64,${Buffer.from(jpeg).toString('base64')}`;
    const result = await run(
      file(await makePdf(1)),
      { type: 'image', imageData: dataUrl, imageName: 'phone.jpg', rotation: 0, opacity: 100, imageScale: 30 },
      {},
    );
    const doc = await openPdfjs(result.bytes);
    const page = await renderPage(doc, 1, 72);
    await doc.destroy();
    // The box of coloured (not white, not grey text) pixels, and the colour at the middle of each quarter of it.
    const coloured = (i: number) =>
      Math.max(...page.data.subarray(i, i + 3)) - Math.min(...page.data.subarray(i, i + 3)) > 120;
    let [left, top, right, bottom] = [page.width, page.height, 0, 0];
    for (let y = 0; y < page.height; y++) {
      for (let x = 0; x < page.width; x++) {
        if (!coloured((y * page.width + x) * 4)) continue;
        [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
      }
    }
    const [w, h] = [right - left + 1, bottom - top + 1];
    expect(h / w).toBeCloseTo(2, 1);
    const at = (fx: number, fy: number) => {
      const i = (Math.round(top + fy * h) * page.width + Math.round(left + fx * w)) * 4;
      return [...page.data.subarray(i, i + 3)].map((v) => (v > 128 ? 1 : 0)).join('');
    };
    expect([at(0.25, 0.25), at(0.75, 0.25), at(0.25, 0.75), at(0.75, 0.75)]).toEqual(['001', '100', '110', '010']);
  });

  test('the form sends the image as a data: URL in `imageData`', async () => {
    const dataUrl = `data:image/png;base64,${Buffer.from(await png()).toString('base64')}`;
    const result = await run(
      file(await makePdf(1)),
      { type: 'image', imageData: dataUrl, imageName: 'logo.png', position: 'bottom-right' },
      {},
    );
    expect((await qpdfCheck(result.bytes)).exitCode).toBe(0);
    await expect(
      run(
        file(await makePdf(1)),
        { type: 'image', imageData: 'data:image/png;base64,aGVsbG8=', imageName: 'notes.png' },
        {},
      ),
    ).rejects.toThrow('"notes.png" is not a JPEG or PNG image.');
  });
});
