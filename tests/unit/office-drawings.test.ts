/**
 * DrawingML shapes through the one shape routine (shapes.ts): SmartArt in a .docx (drawing, data and
 * layout parts added with JSZip to a `docx` document) is printed inside its frame, in the text flow; a
 * text box anchored on an Excel sheet (drawing part added with JSZip to an exceljs workbook) is printed
 * over the cells at its anchor; a PowerPoint arrow is a seven-point path, not a rectangle.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import { Document, Packer, Paragraph } from 'docx';
import { PDFDict, PDFDocument, PDFName, PDFNumber } from 'pdf-lib';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { convert, expectValidPdf, pageContent, texts } from '../support/office-pdf-helpers.ts';

/** The fill colour (hex) as pdf-lib writes it: "r g b rg". */
function fillOperator(hex: string): string {
  return `${[0, 2, 4].map((i) => String(parseInt(hex.slice(i, i + 2), 16) / 255)).join(' ')} rg`;
}

/** The points (m, l) and curves (c) of each path painted right after a fill colour is set. */
function pathsFilledWith(content: string, hex: string): Array<{ points: number; curves: number }> {
  const out: Array<{ points: number; curves: number }> = [];
  const operator = fillOperator(hex);
  let at = content.indexOf(operator);
  while (at >= 0) {
    const rest = content.slice(at + operator.length);
    const paint = /\n(?:f|B|f\*|B\*|S)\n/.exec(rest);
    const path = paint ? rest.slice(0, paint.index) : '';
    out.push({ points: (path.match(/ [ml]\n/g) ?? []).length, curves: (path.match(/ c\n/g) ?? []).length });
    at = content.indexOf(operator, at + operator.length);
  }
  return out;
}

/** Text items of a page with their baseline position (PDF points). */
async function positions(bytes: Uint8Array, pageNumber: number): Promise<Array<{ str: string; x: number; y: number }>> {
  const doc = await openPdfjs(bytes);
  const page = await doc.getPage(pageNumber);
  const content = await page.getTextContent();
  const items = content.items
    .filter((item) => 'str' in item && item.str.trim())
    .map((item) => {
      const { str, transform } = item as { str: string; transform: number[] };
      return { str, x: transform[4], y: transform[5] };
    });
  await doc.destroy();
  return items;
}

function itemWith(items: Array<{ str: string; x: number; y: number }>, text: string) {
  const item = items.find((i) => i.str.includes(text));
  expect(item, `"${text}" on the page`).toBeDefined();
  return item!;
}

const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function addContentType(types: string, part: string, type: string): string {
  return types.replace('</Types>', `<Override PartName="/${part}" ContentType="${type}"/></Types>`);
}

/** A dsp:sp of a SmartArt drawing part at (x, y) with size (cx, cy) in EMU. */
function dspShape(prst: string, x: number, y: number, cx: number, cy: number, fill: string, text?: string): string {
  const body = text
    ? `<dsp:txBody><a:bodyPr lIns="45720" tIns="45720" rIns="45720" bIns="45720" ` +
      `anchor="ctr"/><a:lstStyle/><a:p><a:pPr algn="ctr"/><a:r><a:rPr lang="en-US" ` +
      `sz="1800"/><a:t>${text}</a:t></a:r></a:p></dsp:txBody><dsp:txXfrm><a:off x="${x}" y="${y}"/><a:ext ` +
      `cx="${cx}" cy="${cy}"/></dsp:txXfrm>`
    : '';
  return (
    `<dsp:sp modelId="{${prst}-${x}}"><dsp:nvSpPr><dsp:cNvPr id="0" ` +
    `name=""/><dsp:cNvSpPr/></dsp:nvSpPr><dsp:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${cx}" ` +
    `cy="${cy}"/></a:xfrm><a:prstGeom prst="${prst}"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr ` +
    `val="${fill}"/></a:solidFill><a:ln><a:noFill/></a:ln></dsp:spPr><dsp:style><a:lnRef idx="0"><a:scrgbClr ` +
    `r="0" g="0" b="0"/></a:lnRef><a:fillRef idx="1"><a:scrgbClr r="0" g="0" b="0"/></a:fillRef><a:effectRef ` +
    `idx="0"><a:scrgbClr r="0" g="0" b="0"/></a:effectRef><a:fontRef idx="minor"><a:srgbClr ` +
    `val="FFFFFF"/></a:fontRef></dsp:style>${body}</dsp:sp>`
  );
}

describe('SmartArt in Word', () => {
  test('a diagram is drawn from its pre-rendered drawing part, its text inside the frame, between its paragraphs', async () => {
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph('Before the diagram.'),
            new Paragraph('DIAGRAM_HERE'),
            new Paragraph('After the diagram.'),
          ],
        },
      ],
    });
    const zip = await JSZip.loadAsync(await Packer.toBuffer(docx));
    // The frame: 6 in × 1.5 in (432 × 108 pt), inline.
    const frame =
      `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="5486400" ` +
      `cy="1371600"/><wp:docPr id="7" name="Diagram 1"/><a:graphic xmlns:a="${A}"><a:graphicData ` +
      `uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds ` +
      `xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:r="${REL}" r:dm="rIdDm" ` +
      `r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
    const documentXml = await zip.file('word/document.xml')!.async('string');
    zip.file('word/document.xml', documentXml.replace(/<w:r>(?:(?!<w:r>).)*?DIAGRAM_HERE.*?<\/w:r>/s, frame));
    zip.file(
      'word/diagrams/data1.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><dgm:dataModel ` +
        `xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="${A}"><dgm:ptLst><dgm:pt ` +
        `modelId="{0}" type="doc"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:endParaRPr ` +
        `lang="en-US"/></a:p></dgm:t></dgm:pt></dgm:ptLst><dgm:cxnLst/><dgm:bg/><dgm:whole/><dgm:extLst><a:ext ` +
        `uri="http://schemas.microsoft.com/office/drawing/2008/diagram"><dsp:dataModelExt ` +
        `xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" relId="rIdDrawing" ` +
        `minVer="http://schemas.openxmlformats.org/drawingml/2006/diagram"/></a:ext></dgm:extLst></dgm:dataModel>`,
    );
    zip.file(
      'word/diagrams/layout1.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><dgm:layoutDef ` +
        `xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" ` +
        `uniqueId="urn:microsoft.com/office/officeart/2005/8/layout/process1"><dgm:layoutNode ` +
        `name="Name0"/></dgm:layoutDef>`,
    );
    // Two boxes (2 in wide, at 0 and 4 in) and an arrow between them.
    zip.file(
      'word/diagrams/drawing1.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><dsp:drawing ` +
        `xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" ` +
        `xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" ` +
        `xmlns:a="${A}"><dsp:spTree><dsp:nvGrpSpPr><dsp:cNvPr id="0" ` +
        `name=""/><dsp:cNvGrpSpPr/></dsp:nvGrpSpPr><dsp:grpSpPr/>` +
        dspShape('roundRect', 0, 228600, 1828800, 914400, '4472C4', 'Alpha') +
        dspShape('rightArrow', 2286000, 457200, 914400, 457200, 'A5A5A5') +
        dspShape('roundRect', 3657600, 228600, 1828800, 914400, '4472C4', 'Omega') +
        '</dsp:spTree></dsp:drawing>',
    );
    const rels = await zip.file('word/_rels/document.xml.rels')!.async('string');
    zip.file(
      'word/_rels/document.xml.rels',
      rels.replace(
        '</Relationships>',
        [
          `<Relationship Id="rIdDm" Type="${REL}/diagramData" Target="diagrams/data1.xml"/>`,
          `<Relationship Id="rIdLo" Type="${REL}/diagramLayout" Target="diagrams/layout1.xml"/>`,
          '<Relationship Id="rIdDrawing" Type="http://schemas.microsoft.com/office/2007/relationships/diagramDrawing" Target="diagrams/drawing1.xml"/>',
        ].join('') + '</Relationships>',
      ),
    );
    let types = await zip.file('[Content_Types].xml')!.async('string');
    types = addContentType(
      types,
      'word/diagrams/data1.xml',
      'application/vnd.openxmlformats-officedocument.drawingml.diagramData+xml',
    );
    types = addContentType(
      types,
      'word/diagrams/layout1.xml',
      'application/vnd.openxmlformats-officedocument.drawingml.diagramLayout+xml',
    );
    types = addContentType(
      types,
      'word/diagrams/drawing1.xml',
      'application/vnd.ms-office.drawingml.diagramDrawing+xml',
    );
    zip.file('[Content_Types].xml', types);

    const result = await convert(wordToPdf, 'process.docx', await zip.generateAsync({ type: 'uint8array' }));
    await expectValidPdf(result);
    expect(result.notes?.join(' ') ?? '').not.toMatch(/SmartArt/i);
    const [text] = await texts(result);
    expect(text).toMatch(/Before the diagram\. Alpha Omega After the diagram\./);

    // The text lies inside the 432 × 108 pt frame, below "Before" and above "After", each word in its box.
    const items = await positions(result.bytes, 1);
    const before = itemWith(items, 'Before'),
      after = itemWith(items, 'After');
    const alpha = itemWith(items, 'Alpha'),
      omega = itemWith(items, 'Omega');
    const left = before.x;
    for (const word of [alpha, omega]) {
      expect(word.y).toBeLessThan(before.y - 18);
      expect(word.y).toBeGreaterThan(after.y + 18);
    }
    expect(before.y - after.y).toBeGreaterThan(108);
    expect(alpha.x).toBeGreaterThan(left);
    expect(alpha.x).toBeLessThan(left + 144); // first box: 0–144 pt
    expect(omega.x).toBeGreaterThan(left + 288); // last box: 288–432 pt
    expect(omega.x).toBeLessThan(left + 432);

    // Both boxes painted in their colour with rounded corners, and the arrow as a seven-point path.
    const content = await pageContent(result.bytes, 0);
    const boxes = pathsFilledWith(content, '4472C4');
    expect(boxes.length).toBe(2);
    for (const box of boxes) expect(box.curves).toBe(4);
    expect(pathsFilledWith(content, 'A5A5A5')).toEqual([{ points: 7, curves: 0 }]);
  });
});

describe('shapes on Excel sheets', () => {
  test('a text box anchored on a sheet is printed over the cells at its anchor', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Log');
    for (let r = 1; r <= 30; r++) sheet.addRow([`r${r}`, r * 10, r * 100, `end${r}`]);
    const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
    // From B6 (col 1, row 5, 6 pt in) to E9: filled, outlined, with two paragraphs of text.
    zip.file(
      'xl/drawings/drawing1.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="${A}"><xdr:twoCellAnchor>
<xdr:from><xdr:col>1</xdr:col><xdr:colOff>76200</xdr:colOff><xdr:row>5</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>4</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>9</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>
<xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="2" name="TextBox 1"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr><xdr:spPr><a:xfrm><a:off x="685800" y="952500"/><a:ext cx="1828800" cy="762000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="FFF2CC"/></a:solidFill><a:ln w="9525"><a:solidFill><a:srgbClr val="000000"/></a:solidFill></a:ln></xdr:spPr>
<xdr:txBody><a:bodyPr vertOverflow="clip" wrap="square" rtlCol="0" anchor="t"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="1100" b="1"/><a:t>Shipping notice</a:t></a:r></a:p><a:p><a:r><a:rPr lang="en-US" sz="1100"/><a:t>Berth closed</a:t></a:r></a:p></xdr:txBody></xdr:sp><xdr:clientData/></xdr:twoCellAnchor>
<xdr:oneCellAnchor><xdr:from><xdr:col>0</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>0</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:ext cx="304800" cy="304800"/><xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="3" name="Hidden" hidden="1"/><xdr:cNvSpPr/></xdr:nvSpPr><xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="304800" cy="304800"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></xdr:spPr><xdr:txBody><a:bodyPr/><a:p><a:r><a:t>HIDDEN</a:t></a:r></a:p></xdr:txBody></xdr:sp><xdr:clientData/></xdr:oneCellAnchor></xdr:wsDr>`,
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
    zip.file(
      '[Content_Types].xml',
      addContentType(
        await zip.file('[Content_Types].xml')!.async('string'),
        'xl/drawings/drawing1.xml',
        'application/vnd.openxmlformats-officedocument.drawing+xml',
      ),
    );

    const result = await convert(excelToPdf, 'log.xlsx', await zip.generateAsync({ type: 'uint8array' }));
    await expectValidPdf(result);
    const [text] = await texts(result);
    expect(text).toMatch(/Shipping notice Berth closed/);
    expect(text).not.toContain('HIDDEN');
    expect(text).toMatch(/^r1 10 100 end1/); // the cells come first, the box is drawn over them

    // At its anchor: below row 6's top (r5 is above it), above row 9's, right of column A.
    const items = await positions(result.bytes, 1);
    const notice = itemWith(items, 'Shipping notice'),
      closed = itemWith(items, 'Berth closed');
    const r5 = items.find((i) => i.str === 'r5')!,
      r6 = items.find((i) => i.str === 'r6')!,
      r9 = items.find((i) => i.str === 'r9')!;
    expect(notice.y).toBeLessThan(r5.y);
    expect(notice.y).toBeGreaterThan(r6.y - 15);
    expect(closed.y).toBeLessThan(notice.y);
    expect(closed.y).toBeGreaterThan(r9.y);
    expect(notice.x).toBeGreaterThan(r6.x + 48 + 6); // column A is 48 pt wide, the box starts 6 pt into B
    expect(notice.x).toBeLessThan(r6.x + 48 + 6 + 20);

    // Filled and outlined, the hidden shape not painted.
    const content = await pageContent(result.bytes, 0);
    expect(pathsFilledWith(content, 'FFF2CC').length).toBe(1);
    expect(pathsFilledWith(content, 'FF0000').length).toBe(0);
  });
});

describe('notes (comments) on Excel sheets', () => {
  /** A workbook with a note on B2 (and one on A5), the first note shown on the sheet when `shown`. */
  async function notedWorkbook(shown: boolean, cellComments?: 'atEnd', singleQuotes = false): Promise<Uint8Array> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Budget');
    for (let r = 1; r <= 6; r++) sheet.addRow([`item${r}`, r * 10]);
    sheet.getCell('B2').note = { texts: [{ font: { bold: true }, text: 'Ana:' }, { text: '\nCheck the invoice' }] };
    sheet.getCell('A5').note = 'Second thought';
    if (cellComments) (sheet.pageSetup as { cellComments?: string }).cellComments = cellComments;
    const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
    const vmlPath = Object.keys(zip.files).find((name) => name.endsWith('.vml'))!;
    const vml = await zip.file(vmlPath)!.async('string');
    expect(vml.match(/visibility:hidden/g)?.length).toBe(2); // exceljs writes its notes hidden
    let edited = shown ? vml.replace('visibility:hidden', 'visibility:visible') : vml;
    if (singleQuotes) edited = edited.replace(/(style|ObjectType)="([^"]*)"/g, "$1='$2'"); // as Excel 2003-era files write them
    zip.file(vmlPath, edited);
    return zip.generateAsync({ type: 'uint8array' });
  }

  test('a note shown on the sheet is printed where it is shown; hidden notes are not', async () => {
    const result = await convert(excelToPdf, 'budget.xlsx', await notedWorkbook(true));
    await expectValidPdf(result);
    const pages = await texts(result);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatch(/Ana: Check the invoice/);
    expect(pages[0]).not.toContain('Second thought');
    // Right of its cell's column and below the top of the sheet, as a yellow box.
    const items = await positions(result.bytes, 1);
    const author = itemWith(items, 'Ana:'),
      item1 = items.find((i) => i.str === 'item1')!,
      value = items.find((i) => i.str === '20')!;
    expect(author.x).toBeGreaterThan(value.x);
    expect(author.y).toBeLessThan(item1.y + 12);
    expect(pathsFilledWith(await pageContent(result.bytes, 0), 'FFFFE1').length).toBe(1);
  });

  test('no note is printed when all are hidden, however the VML quotes its attributes', async () => {
    for (const singleQuotes of [false, true]) {
      const [text] = await texts(
        await convert(excelToPdf, 'budget.xlsx', await notedWorkbook(false, undefined, singleQuotes)),
      );
      expect(text).not.toMatch(/Ana|Check the invoice|Second thought/);
    }
    const [shown] = await texts(await convert(excelToPdf, 'budget.xlsx', await notedWorkbook(true, undefined, true)));
    expect(shown).toMatch(/Ana: Check the invoice/);
  });

  test('"at end of sheet" prints every note after the sheet, as Excel does', async () => {
    const result = await convert(excelToPdf, 'budget.xlsx', await notedWorkbook(true, 'atEnd'));
    const pages = await texts(result);
    expect(pages).toHaveLength(2);
    expect(pages[0]).not.toContain('Check the invoice');
    expect(pages[1]).toBe('Cell: B2 Comment: Ana: Check the invoice Cell: A5 Comment: Second thought');
  });
});

describe('preset geometries in PowerPoint', () => {
  test('arrows, stars and chevrons are drawn as their outlines, not as rectangles', async () => {
    const pptx = new PptxGenJS();
    pptx.layout = 'LAYOUT_16x9';
    const slide = pptx.addSlide();
    slide.addShape(pptx.ShapeType.rightArrow, {
      x: 0.5,
      y: 0.5,
      w: 3,
      h: 1.5,
      fill: { color: 'C00000' },
      line: { color: 'C00000' },
    });
    slide.addShape(pptx.ShapeType.star5, { x: 4, y: 0.5, w: 2, h: 2, fill: { color: '00B050' } });
    slide.addShape(pptx.ShapeType.chevron, { x: 0.5, y: 3, w: 2, h: 1, fill: { color: '7030A0' } });
    slide.addShape(pptx.ShapeType.ellipse, { x: 4, y: 3, w: 2, h: 1, fill: { color: '0070C0' } });
    slide.addText('Next step', {
      x: 6.5,
      y: 3,
      w: 3,
      h: 1,
      shape: pptx.ShapeType.homePlate,
      fill: { color: 'FFC000' },
    });
    const result = await convert(
      pptToPdf,
      'shapes.pptx',
      (await pptx.write({ outputType: 'uint8array' })) as Uint8Array,
    );
    await expectValidPdf(result);
    expect(result.notes?.join(' ') ?? '').not.toMatch(/rectangles/);
    const [text] = await texts(result);
    expect(text).toContain('Next step');
    const content = await pageContent(result.bytes, 0);
    expect(pathsFilledWith(content, 'C00000')).toEqual([{ points: 7, curves: 0 }]); // tail (4) and head (3)
    expect(pathsFilledWith(content, '00B050')).toEqual([{ points: 10, curves: 0 }]);
    expect(pathsFilledWith(content, '7030A0')).toEqual([{ points: 6, curves: 0 }]);
    expect(pathsFilledWith(content, 'FFC000')).toEqual([{ points: 5, curves: 0 }]);
    expect(pathsFilledWith(content, '0070C0')[0].curves).toBeGreaterThanOrEqual(4);
  });

  test('an outer shadow is drawn under the shape, offset and fading towards its blurred edge', async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    slide.addShape(pptx.ShapeType.rect, {
      x: 1,
      y: 1,
      w: 2,
      h: 1,
      fill: { color: 'C00000' },
      shadow: { type: 'outer', color: '00B050', opacity: 0.6, blur: 4, offset: 6, angle: 90 },
    });
    slide.addShape(pptx.ShapeType.rect, { x: 4, y: 1, w: 2, h: 1, fill: { color: '0070C0' } });
    const result = await convert(
      pptToPdf,
      'shadow.pptx',
      (await pptx.write({ outputType: 'uint8array' })) as Uint8Array,
    );
    await expectValidPdf(result);
    const content = await pageContent(result.bytes, 0);
    // Four layers of the green shadow, all painted before the red shape; none under the blue one.
    const shadowAt = content.indexOf(fillOperator('00B050'));
    expect(pathsFilledWith(content, '00B050')).toHaveLength(4);
    expect(shadowAt).toBeGreaterThan(-1);
    expect(shadowAt).toBeLessThan(content.indexOf(fillOperator('C00000')));
    expect(content.lastIndexOf(fillOperator('00B050'))).toBeLessThan(content.indexOf(fillOperator('C00000')));
    // Each layer at a quarter of the shadow's opacity (pdf-lib writes it as an ExtGState's ca).
    const doc = await PDFDocument.load(result.bytes);
    const states = doc.getPage(0).node.Resources()?.lookup(PDFName.of('ExtGState'), PDFDict);
    const opacities = states
      ? states
          .keys()
          .map((key) => (states.lookup(key, PDFDict).lookup(PDFName.of('ca')) as PDFNumber | undefined)?.asNumber())
      : [];
    expect(opacities.some((ca) => ca !== undefined && Math.abs(ca - 0.6 / 4) < 0.01)).toBe(true);
  });
});
