/**
 * DrawingML fidelity: gradient fills as real PDF shadings (axial and radial, clipped to the shape),
 * the theme's style matrix (a:fillRef / a:lnRef through a:fmtScheme), line ends, and pictures
 * pdf-lib cannot embed by itself (GIF, BMP, TIFF: converted to PNG; a damaged metafile: a light frame).
 * Fixtures are built with pptxgenjs, exceljs and JSZip; the PDFs are read back with pdf-lib and
 * rendered with pdf.js.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import { Document, Packer, Paragraph } from 'docx';
import { GifWriter } from 'omggif';
import UTIF from 'utif2';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef, decodePDFRawStream } from 'pdf-lib';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { openPdfjs, renderPage } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { embeddable, sniffImage } from '../../workers/engine/lib/office-to-pdf/images.ts';
import { encodeWebp, makeImageData } from '../../workers/engine/lib/image/codecs.ts';
import { convert, expectValidPdf, texts } from '../support/office-pdf-helpers.ts';

const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A 6 × 4 GIF: left half red, right half transparent. */
function gifFixture(): Uint8Array {
  const buffer = new Uint8Array(1024);
  const writer = new GifWriter(buffer, 6, 4, { palette: [0xff0000, 0x00ff00, 0x0000ff, 0xffffff] });
  writer.addFrame(
    0,
    0,
    6,
    4,
    Array.from({ length: 24 }, (_, i) => (i % 6 < 3 ? 0 : 3)),
    { transparent: 3 },
  );
  return buffer.slice(0, writer.end());
}

/** A 3 × 2 uncompressed 24-bit BMP (bottom-up): top row red, bottom row blue. */
function bmpFixture(): Uint8Array {
  const stride = 12; // 3 pixels × 3 bytes, padded to 4
  const bytes = new Uint8Array(54 + stride * 2);
  const view = new DataView(bytes.buffer);
  bytes.set([0x42, 0x4d]);
  view.setUint32(2, bytes.length, true);
  view.setUint32(10, 54, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, 3, true);
  view.setInt32(22, 2, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, 24, true);
  for (let x = 0; x < 3; x++) {
    bytes.set([255, 0, 0], 54 + x * 3); // first stored row is the bottom one: blue (BGR)
    bytes.set([0, 0, 255], 54 + stride + x * 3); // then the top one: red
  }
  return bytes;
}

/** A p:sp rectangle with this fill (spPr XML) and optional p:style, at (x, y, cx, cy) EMU. */
function spXml(id: number, x: number, y: number, cx: number, cy: number, fill: string, style = ''): string {
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ` +
    `${id}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${cx}" ` +
    `cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom>${fill}</p:spPr>${style}</p:sp>`
  );
}

const RED_TO_BLUE =
  '<a:gradFill rotWithShape="1"><a:gsLst><a:gs pos="0"><a:srgbClr val="FF0000"/></a:gs><a:gs ' +
  'pos="100000"><a:srgbClr val="0000FF"/></a:gs></a:gsLst><a:lin ang="0" scaled="0"/></a:gradFill>';

/**
 * Slide 1: a red→blue gradient rectangle, a green line ending in a triangle, a GIF, a theme-styled
 * shape, a radial and a rectangular path gradient, a half-transparent fill, a shape filled with the
 * GIF, an EMF picture and an embedded object with a preview picture;
 * slide 2: a gradient background.
 */
async function slideFixture(): Promise<Uint8Array> {
  const pptx = new PptxGenJS(); // 10 × 5.625 in: 720 × 405 pt
  const slide = pptx.addSlide();
  slide.addShape(pptx.ShapeType.rect, { x: 1, y: 1, w: 4, h: 2, fill: { color: 'FF0000' } });
  slide.addShape(pptx.ShapeType.line, {
    x: 1,
    y: 4,
    w: 3,
    h: 0,
    line: { color: '00AA00', width: 2, endArrowType: 'triangle' },
  });
  slide.addImage({
    data: `image/gif;base64,${Buffer.from(gifFixture()).toString('base64')}`,
    x: 6,
    y: 1,
    w: 1.5,
    h: 1,
  });
  pptx.addSlide().addText('Second', { x: 1, y: 1, w: 3, h: 1 });
  const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'uint8array' })) as Uint8Array);
  // Slide 2's background: a vertical gradient, green at the top to black at the bottom.
  const second = 'ppt/slides/slide2.xml';
  zip.file(
    second,
    (await zip.file(second)!.async('string')).replace(
      '<p:spTree>',
      '<p:bg><p:bgPr><a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="00FF00"/></a:gs><a:gs ' +
        'pos="100000"><a:srgbClr val="000000"/></a:gs></a:gsLst><a:lin ang="5400000" ' +
        'scaled="1"/></a:gradFill><a:effectLst/></p:bgPr></p:bg><p:spTree>',
    ),
  );
  const path = 'ppt/slides/slide1.xml';
  let xml = await zip.file(path)!.async('string');
  xml = xml.replace('<a:solidFill><a:srgbClr val="FF0000"/></a:solidFill>', RED_TO_BLUE);
  // No fill of its own: the theme's third fill style (a gradient) in accent1; line style 3 (1.5 pt).
  const style =
    '<p:style><a:lnRef idx="3"><a:schemeClr val="accent2"/></a:lnRef><a:fillRef idx="3"><a:schemeClr ' +
    'val="accent1"/></a:fillRef><a:effectRef idx="0"><a:schemeClr val="accent1"/></a:effectRef><a:fontRef ' +
    'idx="minor"><a:schemeClr val="lt1"/></a:fontRef></p:style>';
  const radial =
    '<a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="FFFFFF"/></a:gs><a:gs pos="50000"><a:srgbClr ' +
    'val="FFFF00"/></a:gs><a:gs pos="100000"><a:srgbClr val="000000"/></a:gs></a:gsLst><a:path ' +
    'path="circle"><a:fillToRect l="50000" t="50000" r="50000" b="50000"/></a:path></a:gradFill>';
  const emfPic =
    `<p:pic><p:nvPicPr><p:cNvPr id="30" name="Metafile"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip ` +
    `r:embed="rIdEmf"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr><a:xfrm><a:off x="7315200" ` +
    `y="3200400"/><a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom ` +
    `prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`;
  // A shape filled with the GIF (the picture's own relationship), stretched.
  const gifId = /<a:blip r:embed="([^"]+)"/.exec(xml)![1];
  const pictureFill = `<a:blipFill><a:blip r:embed="${gifId}"/><a:stretch><a:fillRect/></a:stretch></a:blipFill>`;
  // An embedded object whose preview (in mc:Fallback) is the GIF, at 612–684 × 18–66 pt.
  const ole =
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="40" name="Object ` +
    `1"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="7772400" y="228600"/><a:ext ` +
    `cx="914400" cy="609600"/></p:xfrm><a:graphic><a:graphicData ` +
    `uri="http://schemas.openxmlformats.org/presentationml/2006/ole"><mc:AlternateContent ` +
    `xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice ` +
    `xmlns:v="urn:schemas-microsoft-com:vml" Requires="v"><p:oleObj spid="_x0000_s1" name="Worksheet" ` +
    `r:id="rIdOle" imgW="914400" imgH="609600" progId="Excel.Sheet.12"><p:embed/></p:oleObj></mc:Choice><mc:Fallback><p:oleObj name="Worksheet" r:id="rIdOle" imgW="914400" imgH="609600" progId="Excel.Sheet.12"><p:embed/><p:pic><p:nvPicPr><p:cNvPr id="0" name=""/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="${gifId}"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr><a:xfrm><a:off x="7772400" y="228600"/><a:ext cx="914400" cy="609600"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic></p:oleObj></mc:Fallback></mc:AlternateContent></a:graphicData></a:graphic></p:graphicFrame>`;
  const rectangular =
    '<a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="FFFFFF"/></a:gs><a:gs pos="100000"><a:srgbClr ' +
    'val="000000"/></a:gs></a:gsLst><a:path path="rect"><a:fillToRect l="50000" t="50000" r="50000" ' +
    'b="50000"/></a:path></a:gradFill>';
  xml = xml.replace(
    '</p:spTree>',
    spXml(20, 5486400, 3200400, 914400, 914400, '', style) +
      spXml(21, 914400, 4114800, 914400, 914400, radial) +
      spXml(22, 2743200, 4114800, 1828800, 914400, pictureFill) +
      spXml(23, 7315200, 4191000, 914400, 914400, rectangular) +
      spXml(
        24,
        7315200,
        2032000,
        914400,
        889000,
        '<a:solidFill><a:srgbClr val="0000FF"><a:alpha val="50000"/></a:srgbClr></a:solidFill>',
      ) +
      emfPic +
      ole +
      '</p:spTree>',
  );
  zip.file(path, xml);
  const emf = new Uint8Array(108);
  emf.set([1, 0, 0, 0]);
  emf.set([0x20, 0x45, 0x4d, 0x46], 40);
  zip.file('ppt/media/picture.emf', emf);
  const relsPath = 'ppt/slides/_rels/slide1.xml.rels';
  zip.file(
    relsPath,
    (await zip.file(relsPath)!.async('string')).replace(
      '</Relationships>',
      `<Relationship Id="rIdEmf" Type="${REL}/image" Target="../media/picture.emf"/></Relationships>`,
    ),
  );
  return zip.generateAsync({ type: 'uint8array' });
}

/** The page's shadings: type, coordinates and the colours of their functions (stops in order). */
function shadings(doc: PDFDocument, pageIndex = 0): Array<{ type: number; coords: number[]; colors: number[][] }> {
  const resources = doc.getPage(pageIndex).node.Resources();
  const dict = resources?.lookupMaybe(PDFName.of('Shading'), PDFDict);
  if (!dict) return [];
  const numbers = (array: PDFArray | undefined) => (array?.asArray() ?? []).map((n) => (n as PDFNumber).asNumber());
  return dict.keys().map((key) => {
    const shading = dict.lookup(key, PDFDict);
    const fn = shading.lookup(PDFName.of('Function'), PDFDict);
    const parts = fn.has(PDFName.of('Functions'))
      ? fn
          .lookup(PDFName.of('Functions'), PDFArray)
          .asArray()
          .map((f) => doc.context.lookup(f, PDFDict))
      : [fn];
    const colors = [
      numbers(parts[0].lookup(PDFName.of('C0'), PDFArray)),
      ...parts.map((p) => numbers(p.lookup(PDFName.of('C1'), PDFArray))),
    ];
    return {
      type: shading.lookup(PDFName.of('ShadingType'), PDFNumber).asNumber(),
      coords: numbers(shading.lookup(PDFName.of('Coords'), PDFArray)),
      colors,
    };
  });
}

async function pageContent(doc: PDFDocument, index: number): Promise<string> {
  const contents = doc.getPage(index).node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  return streams
    .filter((s): s is PDFRawStream => s instanceof PDFRawStream)
    .map((s) => new TextDecoder('latin1').decode(decodePDFRawStream(s).decode()))
    .join('\n');
}

/** A page rendered by pdf.js at 72 dpi: the RGB at (x, y) points from the top-left. */
async function sampler(bytes: Uint8Array, pageNumber = 1): Promise<(x: number, y: number) => number[]> {
  const rendered = await renderPage(await openPdfjs(bytes), pageNumber, 72);
  return (x, y) => Array.from(rendered.data.subarray((y * rendered.width + x) * 4, (y * rendered.width + x) * 4 + 3));
}

describe('DrawingML fills, lines and pictures in PowerPoint', () => {
  test(
    'gradients are shadings clipped to the shape, theme styles are resolved, lines get their ends, GIFs are drawn ' +
      '(also as a picture fill), a damaged metafile framed, backgrounds take gradients',
    async () => {
      const result = await convert(pptToPdf, 'drawing.pptx', await slideFixture());
      await expectValidPdf(result);
      const doc = await PDFDocument.load(result.bytes);
      const found = shadings(doc);
      const content = await pageContent(doc, 0);
      expect(content).toMatch(/\/Sh\d+ sh/);

      // The explicit red → blue gradient: an axial shading across the 288 pt wide box, left to right.
      const linear = found.find((s) => s.type === 2 && s.colors[0][0] === 1 && s.colors[0][2] === 0)!;
      expect(linear).toBeDefined();
      expect(linear.colors).toEqual([
        [1, 0, 0],
        [0, 0, 1],
      ]);
      expect(linear.coords[2] - linear.coords[0]).toBeCloseTo(288, 0);
      // The theme's fill style 3 in accent1 (pptxgenjs's theme: 4472C4): an axial gradient of three blue stops.
      const themed = found.find((s) => s !== linear && s.type === 2)!;
      expect(themed).toBeDefined();
      expect(themed.colors).toHaveLength(3);
      for (const [r, , b] of themed.colors) expect(b).toBeGreaterThan(r);
      // The radial gradient: white at the centre, through yellow, to black; a circle around the box's middle.
      const radial = found.find((s) => s.type === 3)!;
      expect(radial.colors).toEqual([
        [1, 1, 1],
        [1, 1, 0],
        [0, 0, 0],
      ]);
      expect(radial.coords.slice(0, 2)).toEqual([36, 36]);

      // pdf.js paints the gradient: red at the left end, blue at the right, a mix between; white outside.
      const at = await sampler(result.bytes);
      const left = at(76, 144),
        right = at(356, 144),
        middle = at(216, 144);
      expect(left[0]).toBeGreaterThan(230);
      expect(left[2]).toBeLessThan(30);
      expect(right[2]).toBeGreaterThan(230);
      expect(right[0]).toBeLessThan(30);
      expect(Math.abs(middle[0] - middle[2])).toBeLessThan(40);
      expect(middle[0]).toBeGreaterThan(90);
      expect(at(40, 144)).toEqual([255, 255, 255]);
      // The radial one: light in the middle, dark in the corner.
      expect(Math.min(...at(108, 360))).toBeGreaterThan(200);
      expect(Math.max(...at(74, 326))).toBeLessThan(90);

      // The rectangular path gradient (576–648 × 330–402 pt): white at the centre, black at the edges,
      // the same grey a quarter of the way in from the top as from the left (square contours).
      expect(Math.min(...at(612, 366))).toBeGreaterThan(235);
      expect(Math.max(...at(612, 331))).toBeLessThan(20);
      const fromLeft = at(594, 366)[0],
        fromTop = at(612, 348)[0],
        diagonal = at(594, 348)[0];
      expect(fromLeft).toBeGreaterThan(100);
      expect(fromLeft).toBeLessThan(155);
      expect(Math.abs(fromLeft - fromTop)).toBeLessThan(8);
      expect(Math.abs(diagonal - fromLeft)).toBeLessThan(8);

      // A fill at 50 % opacity (576–648 × 160–230 pt) over white.
      const translucent = at(612, 195);
      expect(translucent[2]).toBe(255);
      expect(Math.abs(translucent[0] - 128)).toBeLessThan(3);
      expect(content).toMatch(/\/GS-?\d+ gs/);

      // The line (green, 2 pt) ends in a filled triangle at its right end (x = 288 pt) — three points.
      const green = `${[0, 170 / 255, 0].map(String).join(' ')} rg`;
      const triangle = content.slice(content.indexOf(green)).split(/\n(?:f|B)\n/)[0];
      expect((triangle.match(/ [ml]\n/g) ?? []).length).toBe(3);
      const tip = at(286, 288);
      expect(tip[1]).toBeGreaterThan(tip[0] + 60);
      // The styled shape's outline is the theme's third line style (19050 EMU = 1.5 pt) in accent2.
      expect(content).toMatch(/\n1\.5 w\n/);

      // The GIF: a 6 × 4 image with a soft mask (its transparent colour); red on the left, white (transparent) on the
      // right.
      const images = doc.context
        .enumerateIndirectObjects()
        .filter(
          ([, o]) =>
            o instanceof PDFRawStream &&
            o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image') &&
            o.dict.has(PDFName.of('SMask')),
        );
      const gif = images.find(
        ([, o]) => (o as PDFRawStream).dict.lookup(PDFName.of('Width'), PDFNumber).asNumber() === 6,
      );
      expect(gif).toBeDefined();
      expect((gif![1] as PDFRawStream).dict.lookup(PDFName.of('Height'), PDFNumber).asNumber()).toBe(4);
      expect((gif![1] as PDFRawStream).dict.get(PDFName.of('SMask'))).toBeInstanceOf(PDFRef);
      expect(at(450, 108)).toEqual([255, 0, 0]);
      expect(at(522, 108)).toEqual([255, 255, 255]);

      // The shape filled with the GIF (216–360 pt × 324–396 pt): red on its left half, nothing on its right.
      expect(at(250, 360)).toEqual([255, 0, 0]);
      expect(at(330, 360)).toEqual([255, 255, 255]);

      // Slide 2's gradient background: green at the top, black at the bottom, dark green between.
      const background = await sampler(result.bytes, 2);
      expect(background(360, 2)[1]).toBeGreaterThan(240);
      expect(Math.max(...background(360, 402))).toBeLessThan(15);
      expect(background(360, 202)[1]).toBeGreaterThan(100);
      expect(background(360, 202)[1]).toBeLessThan(160);

      // The embedded object's preview picture (the GIF) in its frame; no note about SmartArt.
      expect(at(630, 40)).toEqual([255, 0, 0]);
      expect(at(675, 40)).toEqual([255, 255, 255]);
      expect(result.notes?.join(' ') ?? '').not.toMatch(/SmartArt|embedded objects/);

      // The EMF (a header without records, which metafile/ cannot draw): a light frame where it stands, and a note.
      expect(result.notes?.join(' ')).toMatch(/EMF\/WMF format that could not be drawn are shown as empty frames/);
      expect(content).toContain('0.8 0.8 0.8 RG');
    },
  );
});

describe('DrawingML gradients on Excel sheets', () => {
  test('a shape anchored on a sheet is filled with its gradient', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Sheet').addRow(['cell']);
    const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
    zip.file(
      'xl/drawings/drawing1.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><xdr:wsDr ` +
        `xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ` +
        `xmlns:a="` +
        `${A}"><xdr:twoCellAnchor><xdr:from><xdr:col>1</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>2</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>4</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>8</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to><xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="2" name="Box"/><xdr:cNvSpPr/></xdr:nvSpPr><xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1828800" cy="914400"/></a:xfrm><a:prstGeom prst="ellipse"><a:avLst/></a:prstGeom>${RED_TO_BLUE}</xdr:spPr><xdr:txBody><a:bodyPr/><a:p><a:r><a:t>Gradient</a:t></a:r></a:p></xdr:txBody></xdr:sp><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>`,
    );
    const sheetPath = 'xl/worksheets/sheet1.xml';
    zip.file(
      sheetPath,
      (await zip.file(sheetPath)!.async('string'))
        .replace('</worksheet>', '<drawing r:id="rIdDrawing"/></worksheet>')
        .replace('<worksheet ', `<worksheet xmlns:r="${REL}" `)
        .replace(/xmlns:r="[^"]*" (.*)xmlns:r="[^"]*"/, `xmlns:r="${REL}" $1`),
    );
    const sheetRels = 'xl/worksheets/_rels/sheet1.xml.rels';
    const existing =
      (await zip.file(sheetRels)?.async('string')) ??
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships ' +
        'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
    zip.file(
      sheetRels,
      existing.replace(
        '</Relationships>',
        `<Relationship Id="rIdDrawing" Type="${REL}/drawing" Target="../drawings/drawing1.xml"/></Relationships>`,
      ),
    );
    const types = await zip.file('[Content_Types].xml')!.async('string');
    zip.file(
      '[Content_Types].xml',
      types.replace(
        '</Types>',
        '<Override PartName="/xl/drawings/drawing1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/></Types>',
      ),
    );

    const result = await convert(excelToPdf, 'gradient.xlsx', await zip.generateAsync({ type: 'uint8array' }));
    await expectValidPdf(result);
    const doc = await PDFDocument.load(result.bytes);
    const [shading] = shadings(doc);
    expect(shading.type).toBe(2);
    expect(shading.colors).toEqual([
      [1, 0, 0],
      [0, 0, 1],
    ]);
    // Clipped to the ellipse: the clip path has the ellipse's four curves right before the shading.
    const content = await pageContent(doc, 0);
    const clip = content.slice(0, content.indexOf(' sh')).split('\nq\n').pop()!;
    expect((clip.match(/ c\n/g) ?? []).length).toBe(4);
    expect(clip).toMatch(/\nW\nn\n/);
  });
});

describe('DrawingML gradients in Word', () => {
  test('a SmartArt box with a radial gradient is a radial shading; its connector gets its arrowhead', async () => {
    const docx = new Document({ sections: [{ children: [new Paragraph('Before.'), new Paragraph('DIAGRAM_HERE')] }] });
    const zip = await JSZip.loadAsync(await Packer.toBuffer(docx));
    const frame =
      `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="3657600" ` +
      `cy="914400"/><wp:docPr id="7" name="Diagram 1"/><a:graphic xmlns:a="${A}"><a:graphicData ` +
      `uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds ` +
      `xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:r="${REL}" r:dm="rIdDm" ` +
      `r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
    const documentXml = await zip.file('word/document.xml')!.async('string');
    zip.file('word/document.xml', documentXml.replace(/<w:r>(?:(?!<w:r>).)*?DIAGRAM_HERE.*?<\/w:r>/s, frame));
    zip.file(
      'word/diagrams/data1.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><dgm:dataModel ` +
        `xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" ` +
        `xmlns:a="${A}"><dgm:ptLst/><dgm:cxnLst/><dgm:extLst><a:ext ` +
        `uri="http://schemas.microsoft.com/office/drawing/2008/diagram"><dsp:dataModelExt ` +
        `xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" relId="rIdDrawing" ` +
        `minVer="http://schemas.openxmlformats.org/drawingml/2006/diagram"/></a:ext></dgm:extLst></dgm:dataModel>`,
    );
    const radial =
      '<a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="FFFF00"/></a:gs><a:gs pos="100000"><a:srgbClr ' +
      'val="FF0000"/></a:gs></a:gsLst><a:path path="circle"><a:fillToRect l="50000" t="50000" r="50000" ' +
      'b="50000"/></a:path></a:gradFill>';
    const box = `<dsp:sp modelId="{1}"><dsp:nvSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvSpPr/></dsp:nvSpPr><dsp:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom prst="ellipse"><a:avLst/></a:prstGeom>${radial}<a:ln><a:noFill/></a:ln></dsp:spPr></dsp:sp>`;
    const connector = `<dsp:sp modelId="{2}"><dsp:nvSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvSpPr/></dsp:nvSpPr><dsp:spPr><a:xfrm><a:off x="1371600" y="457200"/><a:ext cx="1828800" cy="0"/></a:xfrm><a:prstGeom prst="straightConnector1"><a:avLst/></a:prstGeom><a:ln w="25400"><a:solidFill><a:srgbClr val="0000FF"/></a:solidFill><a:prstDash val="dash"/><a:headEnd type="oval"/><a:tailEnd type="stealth" w="lg" len="lg"/></a:ln></dsp:spPr></dsp:sp>`;
    zip.file(
      'word/diagrams/drawing1.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><dsp:drawing ` +
        `xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" ` +
        `xmlns:a="${A}"><dsp:spTree><dsp:nvGrpSpPr><dsp:cNvPr id="0" ` +
        `name=""/><dsp:cNvGrpSpPr/></dsp:nvGrpSpPr><dsp:grpSpPr/>${box}${connector}</dsp:spTree></dsp:drawing>`,
    );
    const rels = await zip.file('word/_rels/document.xml.rels')!.async('string');
    zip.file(
      'word/_rels/document.xml.rels',
      rels.replace(
        '</Relationships>',
        `<Relationship Id="rIdDm" Type="${REL}/diagramData" Target="diagrams/data1.xml"/><Relationship ` +
          `Id="rIdDrawing" Type="http://schemas.microsoft.com/office/2007/relationships/diagramDrawing" ` +
          `Target="diagrams/drawing1.xml"/></Relationships>`,
      ),
    );

    const result = await convert(wordToPdf, 'diagram.docx', await zip.generateAsync({ type: 'uint8array' }));
    await expectValidPdf(result);
    const doc = await PDFDocument.load(result.bytes);
    const [shading] = shadings(doc);
    expect(shading.type).toBe(3);
    expect(shading.colors).toEqual([
      [1, 1, 0],
      [1, 0, 0],
    ]);
    expect(shading.coords[2]).toBe(0);
    expect(shading.coords[5]).toBeCloseTo(36 * Math.SQRT2, 1); // to the box's corner
    // The connector: dashed (4 and 3 line widths), a filled oval at its start and a notched stealth head at its end.
    const content = await pageContent(doc, 0);
    expect(content).toContain('[8 6] 0 d');
    const blue = content
      .split('0 0 1 rg')
      .slice(1)
      .map((rest) => rest.split(/\n(?:f|B)\n/)[0]);
    expect(blue.map((path) => [(path.match(/ [ml]\n/g) ?? []).length, (path.match(/ c\n/g) ?? []).length])).toEqual([
      [1, 4],
      [4, 0],
    ]);
  });
});

describe('Word shapes and text boxes', () => {
  test('a text box (wps:wsp in mc:AlternateContent) is drawn with its gradient and its paragraphs inside', async () => {
    const docx = new Document({
      sections: [
        { children: [new Paragraph('Before the box.'), new Paragraph('SHAPE_HERE'), new Paragraph('After the box.')] },
      ],
    });
    const zip = await JSZip.loadAsync(await Packer.toBuffer(docx));
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const green =
      '<a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="00B050"/></a:gs><a:gs pos="100000"><a:srgbClr ' +
      'val="FFFFFF"/></a:gs></a:gsLst><a:lin ang="5400000" scaled="1"/></a:gradFill>';
    // 3 in × 1 in (216 × 72 pt), centred text.
    const shape = `<wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:cNvSpPr/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2743200" cy="914400"/></a:xfrm><a:prstGeom prst="roundRect"><a:avLst/></a:prstGeom>${green}<a:ln w="12700"><a:solidFill><a:srgbClr val="385D8A"/></a:solidFill></a:ln></wps:spPr><wps:txbx><w:txbxContent xmlns:w="${W}"><w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t>Inside the box</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr anchor="ctr"/></wps:wsp>`;
    const run = `<w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" distT="0" distB="0" distL="0" distR="0"><wp:extent cx="2743200" cy="914400"/><wp:docPr id="3" name="Text Box 3"/><a:graphic xmlns:a="${A}"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">${shape}</a:graphicData></a:graphic></wp:inline></w:drawing></mc:Choice><mc:Fallback><w:pict/></mc:Fallback></mc:AlternateContent></w:r>`;
    const documentXml = await zip.file('word/document.xml')!.async('string');
    zip.file('word/document.xml', documentXml.replace(/<w:r>(?:(?!<w:r>).)*?SHAPE_HERE.*?<\/w:r>/s, run));

    const result = await convert(wordToPdf, 'textbox.docx', await zip.generateAsync({ type: 'uint8array' }));
    await expectValidPdf(result);
    expect(result.notes?.join(' ') ?? '').not.toMatch(/VML/);
    const [text] = await texts(result);
    expect(text).toMatch(/Before the box\. Inside the box After the box\./);
    const doc = await PDFDocument.load(result.bytes);
    const [shading] = shadings(doc);
    expect(shading.colors).toEqual([
      [0, 176 / 255, 80 / 255],
      [1, 1, 1],
    ]);
    // The words sit in the box, centred: the box is 216 pt wide from the left margin.
    const pdf = await openPdfjs(result.bytes);
    const items = (await (await pdf.getPage(1)).getTextContent()).items as Array<{ str: string; transform: number[] }>;
    const before = items.find((i) => i.str.includes('Before'))!,
      inside = items.find((i) => i.str.includes('Inside'))!,
      after = items.find((i) => i.str.includes('After'))!;
    await pdf.destroy();
    expect(inside.transform[4]).toBeGreaterThan(before.transform[4] + 40);
    expect(inside.transform[4]).toBeLessThan(before.transform[4] + 108);
    expect(before.transform[5] - after.transform[5]).toBeGreaterThan(72);
    expect(inside.transform[5]).toBeLessThan(before.transform[5] - 20);
    expect(inside.transform[5]).toBeGreaterThan(after.transform[5] + 20);
  });
});

describe('Word floating shapes', () => {
  test('a shape in front of the text (wrapNone) takes no room in the flow but is drawn', async () => {
    const docx = new Document({ sections: [{ children: [new Paragraph('One SHAPE_HERE'), new Paragraph('Two')] }] });
    const zip = await JSZip.loadAsync(await Packer.toBuffer(docx));
    const shape = `<wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:cNvSpPr/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1828800" cy="1828800"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></wps:spPr><wps:bodyPr/></wps:wsp>`;
    const run = `<w:r><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="1828800" cy="1828800"/><wp:wrapNone/><wp:docPr id="4" name="Rectangle 4"/><a:graphic xmlns:a="${A}"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">${shape}</a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`;
    const documentXml = await zip.file('word/document.xml')!.async('string');
    zip.file('word/document.xml', documentXml.replace('One SHAPE_HERE</w:t></w:r>', `One</w:t></w:r>${run}`));

    const result = await convert(wordToPdf, 'floating.docx', await zip.generateAsync({ type: 'uint8array' }));
    await expectValidPdf(result);
    const pdf = await openPdfjs(result.bytes);
    const items = (await (await pdf.getPage(1)).getTextContent()).items as Array<{ str: string; transform: number[] }>;
    const one = items.find((i) => i.str.includes('One'))!,
      two = items.find((i) => i.str.includes('Two'))!;
    await pdf.destroy();
    expect(one.transform[5] - two.transform[5]).toBeLessThan(30); // not pushed down by the 144 pt shape
    expect(await pageContent(await PDFDocument.load(result.bytes), 0)).toContain('1 0 0 rg');
  });
});

describe('pictures pdf-lib cannot embed by itself', () => {
  test('GIF, BMP, TIFF and WebP are converted to PNG at their pixel size; PNG is kept; metafiles are refused', async () => {
    const doc = await PDFDocument.create();
    const gif = await embeddable(gifFixture());
    expect(gif.format).toBe('png');
    expect(sniffImage(gif.bytes)).toBe('image/png');
    const gifImage = await doc.embedPng(gif.bytes);
    expect([gifImage.width, gifImage.height]).toEqual([6, 4]);

    const bmp = await embeddable(bmpFixture());
    const bmpImage = await doc.embedPng(bmp.bytes);
    expect([bmpImage.width, bmpImage.height]).toEqual([3, 2]);

    const rgba = new Uint8Array(5 * 7 * 4).fill(200);
    const tiff = new Uint8Array(UTIF.encodeImage(rgba, 5, 7));
    expect(sniffImage(tiff)).toBe('image/tiff');
    const tiffImage = await doc.embedPng((await embeddable(tiff)).bytes);
    expect([tiffImage.width, tiffImage.height]).toEqual([5, 7]);

    const webp = await encodeWebp(makeImageData(new Uint8ClampedArray(4 * 3 * 4).fill(255), 4, 3), {
      quality: 90,
      lossless: true,
    });
    expect(sniffImage(webp)).toBe('image/webp');
    const webpImage = await doc.embedPng((await embeddable(webp)).bytes);
    expect([webpImage.width, webpImage.height]).toEqual([4, 3]);

    // Pixels: the BMP's top row red and bottom row blue once drawn.
    const page = doc.addPage([30, 20]);
    page.drawImage(bmpImage, { x: 0, y: 0, width: 30, height: 20 });
    const at = await sampler(await doc.save());
    expect(at(15, 4)).toEqual([255, 0, 0]);
    expect(at(15, 16)).toEqual([0, 0, 255]);

    // A bitmap claiming 100000 × 100000 pixels is refused before its pixels are allocated.
    const huge = bmpFixture();
    new DataView(huge.buffer).setInt32(18, 100000, true);
    new DataView(huge.buffer).setInt32(22, 100000, true);
    await expect(embeddable(huge)).rejects.toThrow(/too large/);

    const png = await embeddable(gif.bytes);
    expect(png.bytes).toBe(gif.bytes);
    const emf = new Uint8Array(64);
    emf.set([1, 0, 0, 0]);
    emf.set([0x20, 0x45, 0x4d, 0x46], 40);
    await expect(embeddable(emf)).rejects.toThrow(/x-emf/);
  });
});
