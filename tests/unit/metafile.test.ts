/**
 * EMF and WMF pictures (office-to-pdf/metafile/): generated files drawn into a PDF page and judged
 * by what poppler sees — fill colours inside and outside a polygon (pdftoppm), text and where it
 * stands (pdftotext -bbox) — and hostile files ending in the empty-frame fallback with a note.
 */
import { describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { FontBook } from '../../workers/engine/lib/office-to-pdf/fonts.ts';
import { ImageCache } from '../../workers/engine/lib/office-to-pdf/text.ts';
import { MetafileError } from '../../workers/engine/lib/office-to-pdf/metafile/pdf.ts';
import { sniffImage } from '../../workers/engine/lib/office-to-pdf/images.ts';
import { decodeImage, pdftoppmPng, type Raster } from '../support/images.ts';
import { popplerWords } from '../support/pdf.ts';
import {
  colorRef,
  dib24,
  docxWithMetafiles,
  EMF,
  EmfWriter,
  equationWmf,
  NULL_PEN,
  shapesAndTextEmf,
  WmfWriter,
} from '../support/metafile-builder.ts';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';

const PAGE = { width: 400, height: 300 };
/** Where the picture is drawn: its top-left at (50, 100) points from the page's top-left, 200 × 100 pt. */
const BOX = { x: 50, top: 100, width: 200, height: 100 };

/** The picture drawn on a page (as every Office renderer draws a picture: page.drawImage). */
async function drawn(bytes: Uint8Array, box = BOX) {
  const doc = await PDFDocument.create();
  const images = new ImageCache(doc, new FontBook(doc));
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const image = await images.get(bytes);
  page.drawImage(image, { x: box.x, y: PAGE.height - box.top - box.height, width: box.width, height: box.height });
  return { pdf: await doc.save(), notes: [...images.notes] };
}

/** pdftoppm at 72 dpi (1 pixel = 1 point): the RGB at (x, y) points from the top-left. */
async function pixels(pdf: Uint8Array): Promise<(x: number, y: number) => number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-metafile-'));
  let raster: Raster;
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    raster = await decodeImage(pdftoppmPng(join(dir, 'in.pdf'), 1, 72));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return (x, y) => Array.from(raster.data.subarray((y * raster.width + x) * 4, (y * raster.width + x) * 4 + 3));
}

const near = (actual: number[], expected: number[], tolerance = 40) =>
  actual.every((v, i) => Math.abs(v - expected[i]) <= tolerance);

describe('EMF', () => {
  test('a filled polygon, a stroked polyline and a text in a mapped window land where the records put them', async () => {
    const emf = shapesAndTextEmf();
    expect(sniffImage(emf)).toBe('image/x-emf');
    const { pdf, notes } = await drawn(emf);
    expect(notes).toEqual([]);
    const at = await pixels(pdf);
    // The polygon: logical 10–90 → 60–140 pt across, 110–190 pt down.
    expect(near(at(100, 150), [220, 0, 0])).toBe(true);
    expect(near(at(65, 115), [220, 0, 0])).toBe(true);
    expect(at(55, 105)).toEqual([255, 255, 255]);
    expect(at(145, 150)).toEqual([255, 255, 255]);
    expect(at(100, 195)).toEqual([255, 255, 255]);
    // The polyline: 2 logical units wide (2 pt) at y = 120 pt, from x = 160 to 240 pt.
    expect(near(at(200, 120), [0, 160, 0])).toBe(true);
    expect(at(200, 125)).toEqual([255, 255, 255]);
    // The text: real text, its origin at (170, 180) pt on the baseline, 10 pt high.
    const word = popplerWords(pdf).find((w) => w.text === 'Metafile');
    expect(word).toBeDefined();
    expect(word!.xMin).toBeCloseTo(170, 0);
    expect(word!.yMin).toBeLessThan(180);
    expect(word!.yMax).toBeGreaterThan(180);
    expect(word!.yMax - word!.yMin).toBeGreaterThan(8);
    expect(word!.yMax - word!.yMin).toBeLessThan(14);
  });

  test('text with advances (dx) is placed character by character; centred and right alignment', async () => {
    const emf = new EmfWriter([100, 50])
      .rec(EMF.SETMAPMODE, 8)
      .rec(EMF.SETWINDOWEXTEX, 200, 100)
      .rec(EMF.SETVIEWPORTEXTEX, 1000, 500)
      .font(1, -10, 'Times New Roman')
      .rec(EMF.SELECTOBJECT, 1)
      .rec(EMF.SETTEXTALIGN, 24)
      .text(10, 30, 'ABC', [20, 20, 20])
      .rec(EMF.SETTEXTALIGN, 24 | 6)
      .text(100, 60, 'Middle')
      .rec(EMF.SETTEXTALIGN, 24 | 2)
      .text(190, 90, 'Right')
      .bytes();
    const { pdf } = await drawn(emf);
    const found = popplerWords(pdf);
    // pdftotext splits characters 20 pt apart into words: A at 60, B at 80, C at 100.
    const letters = found.filter((w) => ['A', 'B', 'C'].includes(w.text));
    expect(letters.map((w) => Math.round(w.xMin))).toEqual([60, 80, 100]);
    const middle = found.find((w) => w.text === 'Middle')!;
    expect((middle.xMin + middle.xMax) / 2).toBeCloseTo(150, 0);
    const right = found.find((w) => w.text === 'Right')!;
    expect(right.xMax).toBeCloseTo(240, 0);
  });

  test('a character outside the BMP split between two text records is printed whole', async () => {
    const emf = new EmfWriter([100, 50])
      .font(1, -100, 'Arial')
      .rec(EMF.SELECTOBJECT, 1)
      .rec(EMF.SETTEXTALIGN, 24)
      .text(100, 200, 'Live \uD83D')
      .text(100, 400, '\uDD96 long')
      .bytes();
    const { pdf } = await drawn(emf);
    const text = popplerWords(pdf).map((w) => w.text);
    expect(text).toEqual(['Live', '\u{1F596}', 'long']);
  });

  test('a wrapped 24-bit DIB (STRETCHDIBITS) fills the picture with its pixels', async () => {
    // 4 × 2 pixels: blue on the left half, yellow on the right.
    const dib = dib24(4, 2, (x) => (x < 2 ? [0, 0, 255] : [255, 255, 0]));
    const emf = new EmfWriter([100, 50]).stretchDib([0, 0, 1000, 500], dib, 4, 2).bytes();
    const { pdf, notes } = await drawn(emf);
    expect(notes).toEqual([]);
    const at = await pixels(pdf);
    expect(near(at(80, 150), [0, 0, 255], 10)).toBe(true);
    expect(near(at(220, 150), [255, 255, 0], 10)).toBe(true);
    // Nothing drawn outside the picture's box.
    expect(at(40, 150)).toEqual([255, 255, 255]);
  });

  test('SAVEDC / RESTOREDC bring back the brush', async () => {
    const emf = new EmfWriter([100, 50])
      .rec(EMF.SELECTOBJECT, NULL_PEN)
      .rec(EMF.CREATEBRUSHINDIRECT, 1, 0, colorRef(0, 0, 200), 0)
      .rec(EMF.SELECTOBJECT, 1)
      .rec(EMF.SAVEDC)
      .rec(EMF.CREATEBRUSHINDIRECT, 2, 0, colorRef(0, 200, 0), 0)
      .rec(EMF.SELECTOBJECT, 2)
      .rec(EMF.RECTANGLE, 0, 0, 500, 500)
      .rec(EMF.RESTOREDC, -1 >>> 0)
      .rec(EMF.RECTANGLE, 500, 0, 1000, 500)
      .bytes();
    const at = await pixels((await drawn(emf)).pdf);
    expect(near(at(100, 150), [0, 200, 0])).toBe(true);
    expect(near(at(200, 150), [0, 0, 200])).toBe(true);
  });
  test('a hatched brush: lines 8 device pixels apart in its colour, inside the shape only', async () => {
    // A 1 px/mm device: the 100 × 50 px picture drawn 200 pt wide, so the hatch cell is 16 pt.
    const emf = new EmfWriter([100, 50], [100, 100], [100, 100])
      .rec(EMF.SETBKMODE, 1)
      .rec(EMF.SELECTOBJECT, NULL_PEN)
      .rec(EMF.CREATEBRUSHINDIRECT, 1, 2, colorRef(0, 0, 255), 0)
      .rec(EMF.SELECTOBJECT, 1)
      .rec(EMF.RECTANGLE, 10, 10, 90, 40)
      .bytes();
    const { pdf, notes } = await drawn(emf);
    expect(notes).toEqual([]);
    const at = await pixels(pdf);
    // Device rows 16, 24, 32 → 132, 148, 164 pt down the page; white between them and outside the rectangle.
    for (const y of [132, 148, 164]) expect(near(at(150, y), [0, 0, 255], 100)).toBe(true);
    expect(at(150, 140)).toEqual([255, 255, 255]);
    expect(at(245, 132)).toEqual([255, 255, 255]);
  });
});

describe('WMF', () => {
  test('a placeable WMF equation: its text is real text at its place, Symbol codes as Greek letters', async () => {
    // 2 × 1 inch at 1440 units per inch; the baseline 1/2 inch down.
    const wmf = equationWmf();
    expect(sniffImage(wmf)).toBe('image/x-wmf');
    const { pdf, notes } = await drawn(wmf);
    expect(notes).toEqual([]);
    const found = popplerWords(pdf);
    const e = found.find((w) => w.text === 'E')!;
    // 288 of 2880 units across 200 pt → 20 pt; the baseline 720 of 1440 → 50 pt down the 100 pt box.
    expect(e.xMin).toBeCloseTo(BOX.x + 20, 0);
    expect(e.yMin).toBeLessThan(BOX.top + 50);
    expect(e.yMax).toBeGreaterThan(BOX.top + 50);
    expect(found.map((w) => w.text).join(' ')).toContain('E = mc');
    const pi = found.find((w) => w.text === 'π')!;
    expect(pi.xMin).toBeCloseTo(BOX.x + 100, 0);
  });
});

describe('hostile and unsupported metafiles end in the empty frame with a note', () => {
  const cases: Array<[string, () => Uint8Array]> = [
    ['truncated', () => shapesAndTextEmf().subarray(0, 200)],
    [
      'a record size of 0',
      () => {
        const bytes = shapesAndTextEmf().slice();
        new DataView(bytes.buffer).setUint32(88 + 4, 0, true);
        return bytes;
      },
    ],
    [
      'a point count past the end (a billion points)',
      () => new EmfWriter([10, 10]).poly(3, [0, 0, 10, 10, 0, 10], 1e9).bytes(),
    ],
    ['an object index past the cap', () => new EmfWriter([10, 10]).rec(EMF.CREATEPEN, 0x7fffffff, 0, 1, 0, 0).bytes()],
    ['no end-of-file record', () => new EmfWriter([10, 10]).rec(EMF.RECTANGLE, 0, 0, 5, 5).bytes({ eof: false })],
    ['a picture that draws nothing', () => new EmfWriter([10, 10]).rec(EMF.SETMAPMODE, 1).bytes()],
    [
      'an EMF+-only picture (its records in comments, no EMF drawing records)',
      // EMR_COMMENT: size of the data, "EMF+", then an EMF+ header record (type 0x4001).
      () => new EmfWriter([10, 10]).rec(70, 16, 0x2b464d45, 0x4001, 12, 12, 0).bytes(),
    ],
    [
      'a WMF whose record runs past the file',
      () => {
        const bytes = new WmfWriter([0, 0, 100, 100]).rec(0x041b, 10, 10, 0, 0).bytes().slice();
        new DataView(bytes.buffer).setUint32(40, 0xffff, true);
        return bytes;
      },
    ],
  ];
  test.each(cases)('%s', async (_name, make) => {
    const doc = await PDFDocument.create();
    const images = new ImageCache(doc, new FontBook(doc));
    await expect(images.get(make())).rejects.toBeInstanceOf(MetafileError);
    expect([...images.notes]).toEqual(['pictures in EMF/WMF format that could not be drawn are shown as empty frames']);
  });
});

describe('wired into the Office renderers', () => {
  test('Word: an EMF picture (a:blip) and a WMF object preview (v:imagedata) are drawn with their text', async () => {
    const docx = await docxWithMetafiles(shapesAndTextEmf(), equationWmf());
    const result = await wordToPdf([{ name: 'pictures.docx', bytes: docx }], {}, {});
    expect(result.notes?.join(' ') ?? '').not.toMatch(/EMF|WMF|metafile|empty frame/);
    const found = popplerWords(result.bytes);
    const text = found.map((w) => w.text).join(' ');
    expect(text).toContain('Metafile');
    expect(text).toContain('E = mc');
    expect(text).toContain('π');
    // The inline EMF is 200 × 100 pt; its text sits 120 pt from the picture's left edge.
    const metafile = found.find((w) => w.text === 'Metafile')!;
    const before = found.find((w) => w.text === 'Before')!;
    expect(metafile.xMin - before.xMin).toBeCloseTo(120, 0);
    // The polygon's red is on the page (60–140 pt of the picture's 200 pt width, from the text column's left).
    const at = await pixels(result.bytes);
    expect(near(at(Math.round(before.xMin + 50), Math.round(metafile.yMax - 40)), [220, 0, 0])).toBe(true);
  });

  test('RTF: a \\emfblip picture is drawn', async () => {
    const hex = Buffer.from(shapesAndTextEmf()).toString('hex');
    const rtf = `{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}\\pard {\\pict\\emfblip\\picwgoal4000\\pichgoal2000 ${hex}}\\par}`;
    const result = await wordToPdf([{ name: 'picture.rtf', bytes: new TextEncoder().encode(rtf) }], {}, {});
    expect(result.notes?.join(' ') ?? '').not.toMatch(/EMF|WMF/);
    expect(popplerWords(result.bytes).map((w) => w.text)).toContain('Metafile');
  });

  test('PowerPoint: a picture whose bytes are an EMF is drawn (the format is sniffed, not taken from the name)', async () => {
    const pptx = new PptxGenJS();
    const data = `image/png;base64,${Buffer.from(shapesAndTextEmf()).toString('base64')}`;
    pptx.addSlide().addImage({ data, x: 1, y: 1, w: 4, h: 2 });
    const bytes = new Uint8Array((await pptx.write({ outputType: 'uint8array' })) as Uint8Array);
    const result = await pptToPdf([{ name: 'deck.pptx', bytes }], {}, {});
    expect(result.notes?.join(' ') ?? '').not.toMatch(/EMF|WMF|empty frame/);
    const metafile = popplerWords(result.bytes).find((w) => w.text === 'Metafile')!;
    // 1 inch from the slide's left, the 4-inch picture's text 120 of 200 units in: 72 + 0.6 × 288 pt.
    expect(metafile.xMin).toBeCloseTo(72 + 0.6 * 288, 0);
  });

  test('Excel: a picture anchored on a sheet', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Sheet');
    sheet.getCell('A1').value = 'cell';
    const imageId = workbook.addImage({ buffer: Buffer.from(equationWmf()) as never, extension: 'png' });
    sheet.addImage(imageId, { tl: { col: 1, row: 2 }, ext: { width: 192, height: 96 } });
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const result = await excelToPdf([{ name: 'book.xlsx', bytes }], {}, {});
    expect(result.notes?.join(' ') ?? '').not.toMatch(/EMF|WMF|empty frame/);
    expect(
      popplerWords(result.bytes)
        .map((w) => w.text)
        .join(' '),
    ).toContain('E = mc');
  });

  test('OpenDocument: a frame whose only image is a WMF', async () => {
    const NS =
      'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" ' +
      'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';
    const zip = new JSZip();
    zip.file('mimetype', 'application/vnd.oasis.opendocument.text', { compression: 'STORE' });
    zip.file(
      'META-INF/manifest.xml',
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest ' +
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>' +
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    );
    zip.file(
      'content.xml',
      `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS} office:version="1.3"><office:body>` +
        '<office:text><text:p><draw:frame svg:width="2in" svg:height="1in"><draw:image xlink:href="Pictures/eq.wmf"/>' +
        '</draw:frame></text:p></office:text></office:body></office:document-content>',
    );
    zip.file('Pictures/eq.wmf', equationWmf());
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    const result = await wordToPdf([{ name: 'equation.odt', bytes }], {}, {});
    expect(result.notes?.join(' ') ?? '').not.toMatch(/WMF|left out/);
    expect(
      popplerWords(result.bytes)
        .map((w) => w.text)
        .join(' '),
    ).toContain('E = mc');
  });

  test('Excel: an embedded object printed as its preview (oleObject, its VML shape and anchor)', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Sheet').getCell('A1').value = 'cell';
    const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
    const sheetPath = 'xl/worksheets/sheet1.xml';
    const relsPath = 'xl/worksheets/_rels/sheet1.xml.rels';
    const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const xml = await zip.file(sheetPath)!.async('string');
    zip.file(
      sheetPath,
      xml.replace(
        '</worksheet>',
        '<legacyDrawing r:id="rIdVml"/><oleObjects><oleObject progId="Equation.3" shapeId="1025" r:id="rIdOle"/>' +
          '</oleObjects></worksheet>',
      ),
    );
    const rels =
      (await zip.file(relsPath)?.async('string')) ??
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
    zip.file(
      relsPath,
      rels.replace(
        '</Relationships>',
        `<Relationship Id="rIdVml" Type="${R}/vmlDrawing" Target="../drawings/vmlDrawing1.vml"/>` +
          `<Relationship Id="rIdOle" Type="${R}/oleObject" Target="../embeddings/oleObject1.bin"/></Relationships>`,
      ),
    );
    zip.file(
      'xl/drawings/vmlDrawing1.vml',
      '<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" ' +
        'xmlns:x="urn:schemas-microsoft-com:office:excel"><v:shape id="_x0000_s1025" type="#_x0000_t75" ' +
        'style=\'position:absolute;width:144pt;height:72pt\'><v:imagedata o:relid="rId1" o:title=""/>' +
        '<x:ClientData ObjectType="Pict"><x:Anchor>1, 0, 2, 0, 4, 0, 7, 0</x:Anchor></x:ClientData></v:shape></xml>',
    );
    zip.file(
      'xl/drawings/_rels/vmlDrawing1.vml.rels',
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rId1" Type="${R}/image" Target="../media/image1.wmf"/></Relationships>`,
    );
    zip.file('xl/media/image1.wmf', equationWmf());
    zip.file('xl/embeddings/oleObject1.bin', new Uint8Array(8));
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    const result = await excelToPdf([{ name: 'object.xlsx', bytes }], {}, {});
    expect(result.notes?.join(' ') ?? '').not.toMatch(/embedded objects|WMF/);
    const found = popplerWords(result.bytes);
    expect(found.map((w) => w.text).join(' ')).toContain('E = mc');
    // Anchored at column B, row 3: right of and below the cell A1's text.
    const cell = found.find((w) => w.text === 'cell')!;
    const e = found.find((w) => w.text === 'E')!;
    expect(e.xMin).toBeGreaterThan(cell.xMax);
    expect(e.yMin).toBeGreaterThan(cell.yMax + 20);
  });
});
