import { beforeAll, describe, expect, test } from 'vitest';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { run } from '../../workers/engine/tools/edit-pdf.ts';
import { BASELINE_EM, type EditOperation } from '../../shared/edit-operations.ts';
import { viewToUser } from '../../workers/engine/lib/pdf/edit-operations.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import {
  LINE,
  LINE_BASELINE,
  LINE_SIZE,
  LINE_X,
  allText,
  decompressed,
  editFixture,
  placedText,
  rawContains,
  solidImage,
  type Fixture,
} from '../support/edit-pdf-fixtures.ts';
import { qpdfCheck } from '../support/pdf.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await editFixture();
});

async function edit(
  operations: EditOperation[] | null,
  options: Record<string, string | number | boolean> = {},
  bytes = fixture.bytes,
) {
  const progress: Array<[number, number]> = [];
  const result = await run(
    [{ name: 'letter.pdf', bytes }],
    {
      text: '',
      position: 'center',
      ...(operations ? { operations: JSON.stringify({ version: 1, operations }) } : {}),
      ...options,
    },
    { progress: (done, total) => progress.push([done, total]) },
  );
  return { ...result, progress };
}

async function expectValid(bytes: Uint8Array, pages = 2) {
  const check = await qpdfCheck(bytes);
  expect(check.output).toMatch(/No syntax or stream encoding errors/);
  expect(check.exitCode).toBe(0);
  expect((await PDFDocument.load(bytes)).getPageCount()).toBe(pages);
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('edit-pdf: the spec form (text + position)', () => {
  test.each([
    ['center', (h: number, size: number) => (h - size * 1.2) / 2 + size * BASELINE_EM.sans],
    ['top', (_h: number, size: number) => 36 + size * BASELINE_EM.sans],
    ['bottom', (h: number, size: number) => h - 36 - size * 1.2 + size * BASELINE_EM.sans],
  ])('position %s puts the text on every page, centred horizontally', async (position, expectedBaseline) => {
    const { bytes, filename, mime } = await edit(null, { text: 'Approved 2026', position, fontSize: 20 });
    expect(filename).toBe('letter-edited.pdf');
    expect(mime).toBe('application/pdf');
    await expectValid(bytes);
    for (const [pageNumber, viewWidth, viewHeight] of [
      [1, 612, 792],
      [2, 792, 612],
    ] as const) {
      const item = (await placedText(bytes, pageNumber)).find((t) => t.str === 'Approved 2026');
      expect(item, `page ${pageNumber}`).toBeDefined();
      expect(item!.fontSize).toBeCloseTo(20, 1);
      expect(item!.x + item!.width / 2).toBeCloseTo(viewWidth / 2, 0);
      expect(item!.y).toBeCloseTo(expectedBaseline(viewHeight, 20), 0);
    }
  });

  test('pages and colour are honoured; the original text is kept', async () => {
    const { bytes } = await edit(null, { text: 'Only here', position: 'top', pages: '2', color: '#ff0000' });
    expect((await placedText(bytes, 1)).some((t) => t.str === 'Only here')).toBe(false);
    expect((await placedText(bytes, 2)).some((t) => t.str === 'Only here')).toBe(true);
    const text = await allText(bytes);
    expect(text).toContain(LINE);
    expect(text).toContain('Rotated page');
    expect(await decompressed(bytes)).toMatch(/1 0 0 rg/);
  });

  test('Unicode text (Cyrillic, CJK) is embedded and extractable', async () => {
    const { bytes } = await edit(null, { text: 'Привет 你好世界', position: 'bottom', pages: '1' });
    await expectValid(bytes);
    expect(await allText(bytes)).toContain('Привет 你好世界');
    expect(bytes.length).toBeLessThan(200_000); // subsets, not the 10 MB CJK font
    // The glyphs are really drawn (a broken subset extracts fine but paints nothing).
    const rendered = await (
      await import('../../workers/engine/lib/pdf/pdfjs.ts')
    ).renderPage(await openPdfjs(bytes), 1, 72);
    let dark = 0;
    for (let y = 792 - 36 - 30; y < 792 - 36; y++) {
      for (let x = 200; x < 420; x++) if (rendered.data[(y * rendered.width + x) * 4] < 128) dark++;
    }
    expect(dark).toBeGreaterThan(300);
  });

  test('Korean text is written with the Korean font and drawn (Noto Sans SC has no Hangul)', async () => {
    const { bytes } = await edit(null, { text: '계약서 사본', position: 'bottom', pages: '1' });
    await expectValid(bytes);
    expect(await allText(bytes)).toContain('계약서 사본');
    const rendered = await (
      await import('../../workers/engine/lib/pdf/pdfjs.ts')
    ).renderPage(await openPdfjs(bytes), 1, 72);
    let dark = 0;
    for (let y = 792 - 36 - 30; y < 792 - 36; y++) {
      for (let x = 200; x < 420; x++) if (rendered.data[(y * rendered.width + x) * 4] < 128) dark++;
    }
    expect(dark).toBeGreaterThan(300);
  });

  test('nothing to do and bad values are refused with clear messages', async () => {
    await expect(edit(null, { text: '   ' })).rejects.toThrow(/Nothing to change/);
    await expect(edit(null, { text: 'x', pages: '9' })).rejects.toThrow(/Page 9 does not exist/);
    await expect(edit(null, { text: 'x', position: 'left' })).rejects.toThrow(/not one of center, top, bottom/);
    await expect(edit(null, { operations: '{oops' })).rejects.toThrow(/not valid JSON/);
    await expect(
      edit([{ type: 'text', page: 3, x: 0, y: 0, text: 'a', size: 12, color: '#000000', font: 'sans' }]),
    ).rejects.toThrow(/page 3, but the document has 2 pages/);
    await expect(
      edit([
        {
          type: 'image',
          page: 1,
          x: 0,
          y: 0,
          width: 10,
          height: 10,
          data: base64(new TextEncoder().encode('not an image at all')),
        },
      ]),
    ).rejects.toThrow(/Only JPEG and PNG/);
    await expect(run([{ name: 'x.pdf', bytes: new Uint8Array() }], { text: 'a' }, {})).rejects.toThrow(/empty/);
  });
});

describe('edit-pdf: editor operations', () => {
  test('add text: font, size, colour, bold/italic land at the given place, as real text', async () => {
    const ops: EditOperation[] = [
      {
        type: 'text',
        page: 1,
        x: 100,
        y: 200,
        text: 'Hello editor',
        size: 18,
        color: '#0000ff',
        font: 'serif',
        bold: true,
      },
      {
        type: 'text',
        page: 1,
        x: 100,
        y: 300,
        text: 'Two\nlines',
        size: 12,
        color: '#000000',
        font: 'mono',
        italic: true,
      },
      { type: 'text', page: 2, x: 50, y: 60, text: 'On a rotated page', size: 16, color: '#000000', font: 'sans' },
      { type: 'text', page: 1, x: 100, y: 400, text: '日本語のテキスト', size: 14, color: '#000000', font: 'sans' },
    ];
    const { bytes, progress } = await edit(ops);
    await expectValid(bytes);
    expect(progress.at(-1)).toEqual([2, 2]);
    const page1 = await placedText(bytes, 1);
    const hello = page1.find((t) => t.str === 'Hello editor')!;
    expect(hello.x).toBeCloseTo(100, 1);
    expect(hello.y).toBeCloseTo(200 + 18 * BASELINE_EM.serif, 1);
    expect(page1.find((t) => t.str === 'lines')!.y).toBeCloseTo(300 + 12 * BASELINE_EM.mono + 12 * 1.2, 1);
    expect(page1.some((t) => t.str === '日本語のテキスト')).toBe(true);
    const rotated = (await placedText(bytes, 2)).find((t) => t.str === 'On a rotated page')!;
    // Upright in the rotated view: same view coordinates as on an unrotated page.
    expect(rotated.x).toBeCloseTo(50, 1);
    expect(rotated.y).toBeCloseTo(60 + 16 * BASELINE_EM.sans, 1);
    const raw = await decompressed(bytes);
    expect(raw).toMatch(/\/BaseFont \/Times-Bold/);
    expect(raw).toMatch(/\/BaseFont \/Courier-Oblique/);
  });

  test('add image (PNG and JPEG): an image XObject is drawn at the given box', async () => {
    const ops: EditOperation[] = [
      {
        type: 'image',
        page: 1,
        x: 50,
        y: 50,
        width: 120,
        height: 60,
        data: `data:image/png;base64,${base64(solidImage('image/png', '#00ff00', 40, 20))}`,
      },
      {
        type: 'image',
        page: 2,
        x: 10,
        y: 10,
        width: 30,
        height: 30,
        data: base64(solidImage('image/jpeg', '#0000ff')),
      },
    ];
    const { bytes } = await edit(ops);
    await expectValid(bytes);
    const doc = await PDFDocument.load(bytes);
    const images = doc.context
      .enumerateIndirectObjects()
      .filter(([, o]) => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
    // The fixture's own PNG + the two added (JPEG keeps DCTDecode).
    expect(images.length).toBe(3);
    expect(images.some(([, o]) => (o as PDFRawStream).dict.get(PDFName.of('Filter')) === PDFName.of('DCTDecode'))).toBe(
      true,
    );
    // The green image is painted where asked: render and sample the pixel at its centre.
    const pdfjsDoc = await openPdfjs(bytes);
    const page = await pdfjsDoc.getPage(1);
    const ops1 = await page.getOperatorList();
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const paints = ops1.fnArray.filter((fn) => fn === pdfjs.OPS.paintImageXObject).length;
    expect(paints).toBe(2);
    await pdfjsDoc.destroy();
    const { renderPage } = await import('../../workers/engine/lib/pdf/pdfjs.ts');
    const rendered = await renderPage(await openPdfjs(bytes), 1, 72);
    const at = (x: number, y: number) =>
      Array.from(rendered.data.subarray((y * rendered.width + x) * 4, (y * rendered.width + x) * 4 + 3));
    expect(at(110, 80)).toEqual([0, 255, 0]);
  });

  test('pen, shapes, lines, arrows, highlight and whiteout are drawn as vector content', async () => {
    const ops: EditOperation[] = [
      {
        type: 'pen',
        page: 1,
        points: [
          [10, 10],
          [40, 30],
          [80, 15],
        ],
        color: '#ff0000',
        width: 3,
      },
      { type: 'rect', page: 1, x: 200, y: 200, width: 80, height: 40, stroke: '#000000', fill: null, strokeWidth: 2 },
      { type: 'ellipse', page: 1, x: 300, y: 200, width: 80, height: 40, stroke: null, fill: '#00ff00' },
      { type: 'line', page: 1, x1: 10, y1: 500, x2: 200, y2: 500, color: '#000000', width: 2 },
      { type: 'arrow', page: 1, x1: 10, y1: 550, x2: 200, y2: 550, color: '#0000ff', width: 2 },
      { type: 'highlight', page: 1, x: LINE_X, y: 792 - LINE_BASELINE - 12, width: 100, height: 16 },
      { type: 'whiteout', page: 1, x: LINE_X - 2, y: 792 - 650 - 12, width: 100, height: 16 },
    ];
    const { bytes } = await edit(ops);
    await expectValid(bytes);
    const rendered = await (
      await import('../../workers/engine/lib/pdf/pdfjs.ts')
    ).renderPage(await openPdfjs(bytes), 1, 72);
    const at = (x: number, y: number) =>
      Array.from(rendered.data.subarray((y * rendered.width + x) * 4, (y * rendered.width + x) * 4 + 3));
    expect(at(340, 220)).toEqual([0, 255, 0]); // ellipse fill
    expect(at(240, 220)).toEqual([255, 255, 255]); // inside the stroked-only rectangle
    expect(at(200, 200)[0]).toBeLessThan(80); // its border
    // The whiteout covers "Public line" visually (the text itself is still there: whiteout only covers).
    for (let x = LINE_X; x < LINE_X + 60; x += 3) expect(at(x, 792 - 650 - 4)).toEqual([255, 255, 255]);
    // The highlight tints the line yellow and keeps the text readable (multiply blend).
    const tint = at(LINE_X + 98, 792 - LINE_BASELINE + 2);
    expect(tint[0]).toBeGreaterThan(200);
    expect(tint[2]).toBeLessThan(200);
    expect(await allText(bytes)).toContain('Public line');
  });

  test('redact removes the text under the area from the content — not only covers it', async () => {
    const top = 792 - LINE_BASELINE - LINE_SIZE;
    const area = {
      x: LINE_X + fixture.prefixWidth + 0.5,
      y: top,
      width: fixture.secretWidth - 1,
      height: LINE_SIZE + 4,
    };
    const { bytes, notes } = await edit([{ type: 'redact', page: 1, ...area }]);
    await expectValid(bytes);
    const text = await allText(bytes);
    expect(text).not.toMatch(/this ?SECRET/);
    expect(text.match(/SECRET/g)).toHaveLength(1); // TOPSECRET, on another line
    expect(text).toContain('Keep this');
    expect(text).toContain('and this');
    expect(text).toContain('Public line');
    expect(text).toContain('TOPSECRET'); // other lines are untouched
    expect(notes).toContain('Redaction: 6 characters removed.');
    const raw = await decompressed(bytes);
    expect(rawContains(raw, 'SECRET ')).toBe(false);
    expect(rawContains(raw, 'SECRET')).toBe(false);
    expect(rawContains(raw, 'Keep this ')).toBe(true);
    // What follows the removed word stays exactly where it was.
    const items = await placedText(bytes, 1);
    const tail = items.find((t) => t.str.includes('and this'))!;
    expect(tail.x + tail.width).toBeCloseTo(LINE_X + fixture.lineWidth, 0);
    // A black box is drawn over the area.
    const rendered = await (
      await import('../../workers/engine/lib/pdf/pdfjs.ts')
    ).renderPage(await openPdfjs(bytes), 1, 72);
    const cx = Math.round(area.x + area.width / 2);
    const cy = Math.round(area.y + area.height / 2);
    expect(
      Array.from(rendered.data.subarray((cy * rendered.width + cx) * 4, (cy * rendered.width + cx) * 4 + 3)),
    ).toEqual([0, 0, 0]);
  });

  test('redact works on 2-byte (Type0) text and on images, which are blanked under the area', async () => {
    const items = await placedText(fixture.bytes, 1);
    const cyr = items.find((t) => t.str.includes('TOPSECRET'))!;
    // The whole line in Noto Sans, and the left half of the image (300..350 × 292..392 in view space).
    const { bytes, notes } = await edit([
      { type: 'redact', page: 1, x: cyr.x - 2, y: cyr.y - 14, width: cyr.width + 4, height: 18 },
      { type: 'redact', page: 1, x: 290, y: 280, width: 60, height: 120 },
    ]);
    await expectValid(bytes);
    const text = await allText(bytes);
    expect(text).not.toMatch(/TOPSECRET|Привет|мир/);
    expect(text).toContain(LINE);
    expect(notes?.[0]).toMatch(/characters removed, 1 image redacted/);
    // The image is still drawn, from a copy whose left half is black; the original pixels are gone from the file.
    const doc = await PDFDocument.load(bytes);
    const images = doc.context
      .enumerateIndirectObjects()
      .filter(
        ([, o]) =>
          o instanceof PDFRawStream &&
          o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image') &&
          !(o.dict.get(PDFName.of('Width')) === undefined),
      );
    const rgbImages = images.filter(
      ([, o]) => (o as PDFRawStream).dict.get(PDFName.of('ColorSpace')) === PDFName.of('DeviceRGB'),
    );
    expect(rgbImages).toHaveLength(1);
    const rendered = await (
      await import('../../workers/engine/lib/pdf/pdfjs.ts')
    ).renderPage(await openPdfjs(bytes), 1, 72);
    const at = (x: number, y: number) =>
      Array.from(rendered.data.subarray((y * rendered.width + x) * 4, (y * rendered.width + x) * 4 + 3));
    expect(at(380, 340)).toEqual([255, 0, 0]);
    expect(at(320, 340)).toEqual([0, 0, 0]);
  });

  test('redact on a rotated page maps the area through the rotation', async () => {
    const item = (await placedText(fixture.bytes, 2)).find((t) => t.str === 'Rotated page')!;
    const { bytes } = await edit([
      { type: 'redact', page: 2, x: item.x - 2, y: item.y - 16, width: item.width + 4, height: 20 },
    ]);
    expect(await allText(bytes)).not.toContain('Rotated page');
    expect(await allText(bytes)).toContain(LINE);
  });

  test('edit existing text: the old words leave the content, the new ones take their place', async () => {
    const top = 792 - LINE_BASELINE - LINE_SIZE;
    const { bytes, notes } = await edit([
      {
        type: 'edit-text',
        page: 1,
        x: LINE_X,
        y: top,
        width: fixture.lineWidth + 2,
        height: LINE_SIZE + 4,
        text: 'Keep this PUBLIC and this',
        size: LINE_SIZE,
        color: '#000000',
        font: 'sans',
        baseline: 792 - LINE_BASELINE,
      },
    ]);
    await expectValid(bytes);
    const text = await allText(bytes);
    expect(text).not.toContain('SECRET and');
    expect(text).toContain('Keep this PUBLIC and this');
    const item = (await placedText(bytes, 1)).find((t) => t.str === 'Keep this PUBLIC and this')!;
    expect(item.x).toBeCloseTo(LINE_X, 1);
    expect(item.y).toBeCloseTo(792 - LINE_BASELINE, 1);
    const raw = await decompressed(bytes);
    expect(rawContains(raw, 'SECRET ')).toBe(false);
    // Helvetica (not embedded, WinAnsi) can write the new words: the page's own font is reused.
    expect(notes).toContain("1 text edit written in the document's own font.");
    expect(raw.match(/\/BaseFont \/Helvetica\b/g)).toHaveLength(1);
  });

  test('edit existing text in a subset font: falls back to a standard font, still removing the old glyphs', async () => {
    const cyr = (await placedText(fixture.bytes, 1)).find((t) => t.str.includes('TOPSECRET'))!;
    const { bytes, notes } = await edit([
      {
        type: 'edit-text',
        page: 1,
        x: cyr.x,
        y: cyr.y - 13,
        width: cyr.width + 1,
        height: 17,
        text: 'Replaced line',
        size: 14,
        color: '#000000',
        font: 'sans',
        baseline: cyr.y,
      },
    ]);
    await expectValid(bytes);
    const text = await allText(bytes);
    expect(text).toContain('Replaced line');
    expect(text).not.toMatch(/TOPSECRET|Привет/);
    expect(notes?.join(' ')).toMatch(/1 text edit written in a standard font/);
  });

  test('"keep as editable annotations" writes annotations with appearances instead of page content', async () => {
    const ops: EditOperation[] = [
      { type: 'text', page: 1, x: 100, y: 100, text: 'Note text', size: 12, color: '#000000', font: 'sans' },
      { type: 'rect', page: 1, x: 100, y: 150, width: 50, height: 20, stroke: '#ff0000', strokeWidth: 2 },
      {
        type: 'pen',
        page: 1,
        points: [
          [10, 10],
          [20, 20],
        ],
        color: '#000000',
        width: 2,
      },
      { type: 'arrow', page: 1, x1: 10, y1: 300, x2: 100, y2: 300, color: '#000000', width: 2 },
      { type: 'highlight', page: 1, x: 50, y: 80, width: 100, height: 16 },
      { type: 'whiteout', page: 1, x: 400, y: 400, width: 20, height: 20 },
    ];
    const { bytes } = await edit(ops, { annotations: true });
    await expectValid(bytes);
    const doc = await PDFDocument.load(bytes);
    const annots = doc.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray);
    const subtypes = annots
      .asArray()
      .map((ref) => (doc.context.lookup(ref) as PDFDict).get(PDFName.of('Subtype'))!.toString());
    expect(subtypes).toEqual(['/FreeText', '/Square', '/Ink', '/Line', '/Highlight']);
    for (const ref of annots.asArray()) {
      const ap = (doc.context.lookup(ref) as PDFDict).lookup(PDFName.of('AP'), PDFDict);
      expect(ap.get(PDFName.of('N'))).toBeDefined();
    }
    // pdf.js sees the annotations and the text is in the FreeText's /Contents, not in the page's text.
    const pdfjsDoc = await openPdfjs(bytes);
    const annotations = await (await pdfjsDoc.getPage(1)).getAnnotations();
    expect(annotations.find((a) => a.subtype === 'FreeText')?.contentsObj?.str).toBe('Note text');
    await pdfjsDoc.destroy();
    expect(await allText(bytes)).not.toContain('Note text');
  });

  test('view coordinates map to user space for every rotation', () => {
    const box = { x: 10, y: 20, width: 600, height: 800 };
    expect(viewToUser({ box, rotation: 0 }, 0, 0)).toEqual([10, 820]);
    expect(viewToUser({ box, rotation: 90 }, 0, 0)).toEqual([10, 20]);
    expect(viewToUser({ box, rotation: 180 }, 0, 0)).toEqual([610, 20]);
    expect(viewToUser({ box, rotation: 270 }, 0, 0)).toEqual([610, 820]);
  });
});
