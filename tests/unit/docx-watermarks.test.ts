/**
 * Word → PDF: watermarks. Word writes a text watermark (Design › Watermark) as a VML WordArt shape in
 * the header (v:shape type #_x0000_t136 with v:textpath string="DRAFT"), rotated, in a faint fill;
 * a picture watermark as a washed-out v:imagedata. Generated documents (the docx package's header,
 * its paragraph followed by the VML Word writes), drawn by poppler's pdftoppm and compared with
 * LibreOffice 7.4's PDF of the same documents (`soffice --headless --convert-to pdf`), A4 with
 * 1-inch margins: the margin box's centre is (297.6, 420.9) pt from the page's top left.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { createCanvas } from '@napi-rs/canvas';
import { Document, Header, ImageRun, Packer, Paragraph } from 'docx';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { pageTexts } from '../support/pdf.ts';

const DPI = 72;

/** Within a pixel and a half (antialiased edges). */
const near = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1.5);

/** Page 1 drawn by pdftoppm at 72 dpi: RGB bytes, a pixel a point. */
function render(pdf: Uint8Array): { width: number; height: number; rgb: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'folio-watermark-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const ppm = execFileSync('pdftoppm', ['-r', String(DPI), '-f', '1', '-l', '1', join(dir, 'in.pdf')], {
      maxBuffer: 1 << 26,
    });
    const [, w, h] = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 30).toString('latin1'))!;
    const header = /^P6\s+\d+\s+\d+\s+255\s/.exec(ppm.subarray(0, 30).toString('latin1'))![0].length;
    return { width: Number(w), height: Number(h), rgb: ppm.subarray(header) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Ink {
  /** Box of the pixels that are not white, in points from the page's top left. */
  left: number;
  top: number;
  right: number;
  bottom: number;
  /** The commonest such colour. */
  color: [number, number, number];
}

/** The ink below `fromTop` points that is not white (the body text above it is left out). */
function inkBelow(pdf: Uint8Array, fromTop: number): Ink {
  const { width, height, rgb } = render(pdf);
  const scale = 72 / DPI;
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  const counts = new Map<string, number>();
  for (let y = Math.ceil(fromTop / scale); y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (rgb[i] === 255 && rgb[i + 1] === 255 && rgb[i + 2] === 255) continue;
      [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
      const key = `${rgb[i]},${rgb[i + 1]},${rgb[i + 2]}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  const common = [...counts]
    .sort((a, b) => b[1] - a[1])[0][0]
    .split(',')
    .map(Number) as Ink['color'];
  return {
    left: left * scale,
    top: top * scale,
    right: (right + 1) * scale,
    bottom: (bottom + 1) * scale,
    color: common,
  };
}

/** Word's VML for a text watermark (its shapetype trimmed to what matters here). */
function textWatermark(style: string, fill: string, text: string): string {
  return (
    '<w:p><w:r><w:pict>' +
    '<v:shapetype id="_x0000_t136" coordsize="21600,21600" o:spt="136" adj="10800" ' +
    'path="m@7,l@8,m@5,21600l@6,21600e"><v:textpath on="t" fitshape="t"/></v:shapetype>' +
    `<v:shape id="PowerPlusWaterMarkObject1" o:spid="_x0000_s2049" type="#_x0000_t136" style="${style}" ` +
    `o:allowincell="f" fillcolor="${fill}" stroked="f"><v:fill opacity=".5"/>` +
    `<v:textpath style="font-family:&quot;Calibri&quot;;font-size:1pt" string="${text}"/></v:shape>` +
    '</w:pict></w:r></w:p>'
  );
}

const CENTRED_ON_MARGINS =
  'position:absolute;margin-left:0;margin-top:0;z-index:-251654144;mso-position-horizontal:center;' +
  'mso-position-horizontal-relative:margin;mso-position-vertical:center;mso-position-vertical-relative:margin';

/** A document of three body lines whose header holds "HeaderLine" and then `vml`, Word's way. */
async function withHeaderVml(vml: string, picture?: Uint8Array): Promise<Uint8Array> {
  const headerChildren = picture
    ? [
        new Paragraph({
          children: [new ImageRun({ type: 'png', data: picture, transformation: { width: 8, height: 4 } })],
        }),
      ]
    : [new Paragraph('HeaderLine')];
  const doc = new Document({
    sections: [
      {
        headers: { default: new Header({ children: headerChildren }) },
        children: [1, 2, 3].map((n) => new Paragraph(`Body paragraph ${n} over the watermark.`)),
      },
    ],
  });
  const zip = await JSZip.loadAsync(await Packer.toBuffer(doc));
  const headerName = Object.keys(zip.files).find((name) => /^word\/header\d*\.xml$/.test(name))!;
  let xml = await zip.file(headerName)!.async('string');
  if (picture) {
    // The picture's relationship stays; its DrawingML run becomes the text and Word's VML shape.
    const id = /r:embed="([^"]+)"/.exec(xml)![1];
    xml = xml.replace(
      /<w:r>\s*<w:drawing>.*?<\/w:drawing>\s*<\/w:r>/s,
      `<w:r><w:t>HeaderLine</w:t></w:r>${vml.replace('RID', id)}`,
    );
  } else xml = xml.replace(/(<w:p>.*?HeaderLine.*?<\/w:p>)/s, `$1${vml}`);
  zip.file(headerName, xml);
  return zip.generateAsync({ type: 'uint8array' });
}

describe('Word text watermarks (VML WordArt in the header)', () => {
  test('"DRAFT" turned 315°, silver at 50 %, centred on the margins, behind the body', async () => {
    const style = `${CENTRED_ON_MARGINS};width:412.4pt;height:247.45pt;rotation:315`;
    const result = await convert(wordToPdf, 'draft.docx', await withHeaderVml(textWatermark(style, 'silver', 'DRAFT')));
    // Before: "legacy VML drawings were left out" and nothing drawn below the body's three lines.
    expect(result.notes ?? []).toEqual([]);
    const ink = inkBelow(result.bytes, 120);
    // LibreOffice 7.4: silver (192) half transparent over white = 223.5; Folio the same.
    expect(ink.color).toEqual([223, 223, 223]);
    // LibreOffice's ink centre: (286, 420); its box 96…476 × 220…620. Folio's letters fill the
    // shape's box (Word's fitshape) where LibreOffice keeps the letters' proportions at the box's
    // width: Folio's turned box is wider and taller (64…508 × 188…654), on the same centre.
    expect((ink.left + ink.right) / 2).toBeCloseTo(286, -1);
    expect((ink.top + ink.bottom) / 2).toBeCloseTo(420.9, -1);
    // Turned 45° upwards to the right: the ink spans about as far across as down (a flat word would not).
    expect(ink.right - ink.left).toBeGreaterThan(380);
    expect(ink.bottom - ink.top).toBeGreaterThan(380);
    // Drawn as outlines, as LibreOffice draws it: the page's text is the header's and the body's only.
    const [text] = await pageTexts(result.bytes, { collapse: true });
    expect(text).not.toContain('DRAFT');
    expect(text).toContain('Body paragraph 3 over the watermark.');
  });

  test('an unturned watermark placed from the page fills its box, in its colour', async () => {
    const style =
      'position:absolute;margin-left:100pt;margin-top:300pt;width:300pt;height:100pt;z-index:-251654144;' +
      'mso-position-horizontal-relative:page;mso-position-vertical-relative:page';
    const result = await convert(wordToPdf, 'flat.docx', await withHeaderVml(textWatermark(style, '#ff0000', 'DRAFT')));
    const ink = inkBelow(result.bytes, 120);
    // Red at 50 %: (255, 127, 127) in both.
    expect(ink.color).toEqual([255, 127, 127]);
    // LibreOffice 7.4: x 100…400 (the box's width), y 300…412 (the letters' proportions from the box's top).
    near(ink.left, 100);
    near(ink.right, 400);
    near(ink.top, 300);
    near(ink.bottom, 400);
  });
});

describe('Word picture watermarks (VML v:imagedata in the header)', () => {
  /** A 100 × 50 picture: its left half black, its right half red. */
  function halves(): Uint8Array {
    const canvas = createCanvas(100, 50);
    const context = canvas.getContext('2d');
    context.fillStyle = '#000000';
    context.fillRect(0, 0, 50, 50);
    context.fillStyle = '#ff0000';
    context.fillRect(50, 0, 50, 50);
    return new Uint8Array(canvas.toBuffer('image/png'));
  }

  test('a washed-out picture centred on the margins, as LibreOffice prints it, without moving the body', async () => {
    const style = `${CENTRED_ON_MARGINS};width:400pt;height:200pt`;
    const vml =
      '<w:r><w:pict>' +
      `<v:shape id="WordPictureWatermark1" o:spid="_x0000_s2050" type="#_x0000_t75" style="${style}" ` +
      'o:allowincell="f"><v:imagedata r:id="RID" o:title="logo" gain="19661f" blacklevel="22938f"/></v:shape>' +
      '</w:pict></w:r>';
    const result = await convert(wordToPdf, 'logo.docx', await withHeaderVml(vml, halves()));
    const ink = inkBelow(result.bytes, 120);
    // LibreOffice 7.4: pixels 97…497 × 320…520; black washed out to 216, red to (255, 217, 216).
    [ink.left, ink.right, ink.top, ink.bottom].forEach((edge, i) => near(edge, [97, 498, 320, 521][i]));
    const { width, rgb } = render(result.bytes);
    const at = (x: number, y: number) => [...rgb.subarray((y * width + x) * 3, (y * width + x) * 3 + 3)];
    const [blackHalf, redHalf] = [at(196, 420), at(396, 420)];
    blackHalf.forEach((value) => expect(Math.abs(value - 216)).toBeLessThanOrEqual(2));
    // Washed out to its edges: no pixel of the picture darker than the washed-out black.
    let darkest = 255;
    for (let y = 320; y <= 520; y++) for (let x = 97; x <= 497; x++) darkest = Math.min(darkest, ...at(x, y));
    expect(darkest).toBeGreaterThanOrEqual(210);
    expect(redHalf[0]).toBe(255);
    expect(Math.abs(redHalf[1] - 217)).toBeLessThanOrEqual(2);
    // Before, the picture sat in the header's line and pushed the body 200 pt down; LibreOffice's
    // first body line is at y 71.9 (the top margin), Folio's at 72.
    const [text] = await pageTexts(result.bytes, { collapse: true });
    expect(text).toContain('HeaderLine');
    const words = execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', '-', '-'], { input: result.bytes });
    const body = /yMin="([\d.]+)"[^>]*>Body</.exec(words.toString())!;
    expect(Number(body[1])).toBeCloseTo(72, 0);
  });
});
