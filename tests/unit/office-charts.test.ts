/**
 * Charts in Word, Excel and PowerPoint files are drawn (office-to-pdf/charts/), not left out: a .pptx made with
 * pptxgenjs (bar, pie and line charts), an .xlsx (exceljs writes no charts, so the drawing and chart
 * parts are added with JSZip, plus a chart sheet) and a .docx with an inline chart. The PDF's text
 * must hold the title, category names, series names and the axis ticks, and the page content must
 * paint the bars and slices in the series' colours. The automatic axis scale is tested on its own.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import { Document, Packer, Paragraph } from 'docx';
import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { niceScale } from '../../workers/engine/lib/office-to-pdf/charts/index.ts';
import { convert, expectValidPdf, texts } from '../support/office-pdf-helpers.ts';

/** The decoded content stream(s) of a page. */
async function pageContent(bytes: Uint8Array, index: number): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  const page = doc.getPage(index);
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  return streams
    .filter((s): s is PDFRawStream => s instanceof PDFRawStream)
    .map((s) => new TextDecoder('latin1').decode(decodePDFRawStream(s).decode()))
    .join('\n');
}

/** How many times a fill colour (hex) is set in a content stream, as pdf-lib writes it. */
function fills(content: string, hex: string): number {
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const pattern = new RegExp(`(^|\\s)${[r, g, b].map((v) => String(v).replace('.', '\\.')).join(' ')} rg`, 'g');
  return content.match(pattern)?.length ?? 0;
}

/** Numbers printed on a page, in reading order. */
function numbers(text: string): number[] {
  return (text.match(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g) ?? []).map(Number);
}

describe('niceScale (automatic axis scaling)', () => {
  test('LibreOffice-like scales: 1/2/5 steps, from zero for wide positive ranges, one more interval near the top', () => {
    // 0–5 by 0.5 would be 11 intervals once 5 (at the top) gets its extra one: 0–6 by 1, as LibreOffice prints it.
    expect(niceScale(1.8, 5, 10, { includeZero: true })).toEqual({ min: 0, max: 6, step: 1 });
    expect(niceScale(1.8, 5, 4, { includeZero: true })).toEqual({ min: 0, max: 6, step: 2 });
    expect(niceScale(12, 32, 8)).toEqual({ min: 0, max: 35, step: 5 });
    expect(niceScale(0.7, 2.6, 10, { expandToZero: false })).toEqual({ min: 0.5, max: 3, step: 0.5 });
    expect(niceScale(8, 184, 10, { includeZero: true })).toEqual({ min: 0, max: 200, step: 20 });
    // values at both ends: one more interval each, then 2s
    expect(niceScale(-3, 7, 10, { includeZero: true })).toEqual({ min: -4, max: 8, step: 2 });
    // 3-D charts are not given the extra interval (LibreOffice's VSeriesPlotter): a stacked 3-D area of 44 ends at 45.
    expect(niceScale(0, 44, 10, { includeZero: true })).toEqual({ min: 0, max: 50, step: 5 });
    expect(niceScale(0, 44, 10, { includeZero: true, expandNearBorder: false })).toEqual({ min: 0, max: 45, step: 5 });
    // Fixed bounds and unit win.
    expect(niceScale(3, 47, 10, { min: 0, max: 60, step: 15 })).toEqual({ min: 0, max: 60, step: 15 });
    // A narrow range far from zero does not start at zero.
    const narrow = niceScale(1000, 1010, 10);
    expect(narrow.min).toBeGreaterThan(900);
  });

  test('any range: the data fits, at most maxCount intervals, steps of 1, 2 or 5 × 10ⁿ', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 500; i++) {
      const magnitude = 10 ** Math.floor(random() * 8 - 3);
      const a = (random() * 2 - 0.5) * magnitude;
      const b = a + random() * magnitude * 3 + magnitude / 1000;
      const maxCount = 2 + Math.floor(random() * 9);
      const scale = niceScale(a, b, maxCount, { includeZero: random() < 0.5 });
      expect(scale.min).toBeLessThanOrEqual(a + 1e-9 * magnitude);
      expect(scale.max).toBeGreaterThanOrEqual(b - 1e-9 * magnitude);
      expect((scale.max - scale.min) / scale.step).toBeLessThanOrEqual(maxCount + 1e-6);
      const mantissa = scale.step / 10 ** Math.floor(Math.log10(scale.step) + 1e-9);
      expect([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6)).toBe(true);
    }
  });
});

describe('charts in PowerPoint', () => {
  test('bar, pie and line charts: title, categories, legend and ticks as text; bars and slices painted', async () => {
    const pptx = new PptxGenJS();
    pptx.layout = 'LAYOUT_16x9';
    const quarters = ['Q1', 'Q2', 'Q3', 'Q4'];
    const bar = pptx.addSlide();
    bar.addChart(
      pptx.ChartType.bar,
      [
        { name: 'North', labels: quarters, values: [12, 25, 31, 42] },
        { name: 'South', labels: quarters, values: [8, 14, 22, 19] },
      ],
      {
        x: 0.5,
        y: 0.5,
        w: 8,
        h: 4.5,
        barDir: 'col',
        showTitle: true,
        title: 'Sales by region',
        showLegend: true,
        legendPos: 'b',
        chartColors: ['C00000', '0070C0'],
        valAxisLabelFontSize: 12,
        catAxisLabelFontSize: 12,
      },
    );
    const pie = pptx.addSlide();
    pie.addChart(pptx.ChartType.pie, [{ name: 'Share', labels: ['Apples', 'Pears', 'Plums'], values: [50, 30, 20] }], {
      x: 1,
      y: 0.5,
      w: 6,
      h: 4.5,
      showLegend: true,
      legendPos: 'r',
      showPercent: true,
      chartColors: ['FF0000', '00B050', '7030A0'],
    });
    const line = pptx.addSlide();
    line.addChart(
      pptx.ChartType.line,
      [{ name: 'Visitors', labels: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], values: [120, 340, 280, 410, 380] }],
      {
        x: 0.5,
        y: 0.5,
        w: 8,
        h: 4.5,
        showTitle: true,
        title: 'Weekly visitors',
        showLegend: true,
        legendPos: 'r',
        chartColors: ['ED7D31'],
      },
    );
    const result = await convert(
      pptToPdf,
      'charts.pptx',
      (await pptx.write({ outputType: 'uint8array' })) as Uint8Array,
    );
    await expectValidPdf(result);
    expect(result.notes?.join(' ') ?? '').not.toMatch(/chart/i);
    const [barText, pieText, lineText] = await texts(result);

    // Title first, then the value axis, the categories, and the legend.
    expect(barText).toMatch(/Sales by region.*\b0\b.*Q1 Q2 Q3 Q4.*North.*South/);
    const ticks = numbers(barText);
    expect(Math.max(...ticks)).toBeGreaterThanOrEqual(42);
    expect(Math.max(...ticks)).toBeLessThanOrEqual(60);
    const steps = new Set(ticks.slice(1).map((t, i) => Math.abs(t - ticks[i])));
    expect(steps.size).toBe(1); // evenly spaced ticks
    expect([5, 10, 20]).toContain([...steps][0]);
    const barContent = await pageContent(result.bytes, 0);
    expect(fills(barContent, 'C00000')).toBeGreaterThanOrEqual(5); // four bars and the legend key
    expect(fills(barContent, '0070C0')).toBeGreaterThanOrEqual(5);

    expect(pieText).toMatch(/Apples.*Pears.*Plums/);
    expect(pieText).toMatch(/50%/);
    const pieContent = await pageContent(result.bytes, 1);
    // slice and legend key
    for (const color of ['FF0000', '00B050', '7030A0']) expect(fills(pieContent, color)).toBeGreaterThanOrEqual(2);

    expect(lineText).toMatch(/Weekly visitors.*Mon Tue Wed Thu Fri.*Visitors/);
    expect(numbers(lineText)).toContain(400);
    // the line's stroke colour
    expect(await pageContent(result.bytes, 2)).toMatch(/0\.9294\d* 0\.4901\d* 0\.1921\d* RG/);
  });
});

const CHART_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">
<c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Wildlife Population</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/>
<c:plotArea><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>
<c:ser><c:idx val="0"/><c:order val="0"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>Bears</c:v></c:pt></c:strCache></c:strRef></c:tx>
<c:spPr><a:solidFill><a:srgbClr val="4F81BD"/></a:solidFill></c:spPr>
<c:cat><c:strRef><c:f>Sheet1!$A$2:$A$4</c:f><c:strCache><c:ptCount val="3"/><c:pt idx="0"><c:v>Jan</c:v></c:pt><c:pt idx="1"><c:v>Feb</c:v></c:pt><c:pt idx="2"><c:v>Mar</c:v></c:pt></c:strCache></c:strRef></c:cat>
<c:val><c:numRef><c:f>Sheet1!$B$2:$B$4</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="3"/><c:pt idx="0"><c:v>8</c:v></c:pt><c:pt idx="1"><c:v>54</c:v></c:pt><c:pt idx="2"><c:v>93</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>
<c:ser><c:idx val="1"/><c:order val="1"/><c:tx><c:strRef><c:f>Sheet1!$C$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>Dolphins</c:v></c:pt></c:strCache></c:strRef></c:tx>
<c:cat><c:strRef><c:f>Sheet1!$A$2:$A$4</c:f><c:strCache><c:ptCount val="3"/><c:pt idx="0"><c:v>Jan</c:v></c:pt><c:pt idx="1"><c:v>Feb</c:v></c:pt><c:pt idx="2"><c:v>Mar</c:v></c:pt></c:strCache></c:strRef></c:cat>
<c:val><c:numRef><c:f>Sheet1!$C$2:$C$4</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="3"/><c:pt idx="0"><c:v>150</c:v></c:pt><c:pt idx="1"><c:v>77</c:v></c:pt><c:pt idx="2"><c:v>32</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>
<c:dLbls><c:showVal val="1"/></c:dLbls><c:gapWidth val="150"/><c:axId val="1"/><c:axId val="2"/></c:barChart>
<c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:tickLblPos val="nextTo"/><c:crossAx val="2"/></c:catAx>
<c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/><c:numFmt formatCode="General" sourceLinked="1"/><c:tickLblPos val="nextTo"/><c:crossAx val="1"/><c:crossBetween val="between"/></c:valAx>
</c:plotArea><c:legend><c:legendPos val="b"/><c:overlay val="0"/></c:legend><c:plotVisOnly val="1"/></c:chart></c:chartSpace>`;

const CHART_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart';
const CHART_TYPE = 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml';
/** Series 2 has no colour of its own: the theme's (default Office) accent2. */
const ACCENT2 = 'ED7D31';

function addContentType(types: string, part: string, type: string): string {
  return types.replace('</Types>', `<Override PartName="/${part}" ContentType="${type}"/></Types>`);
}

describe('charts in Excel', () => {
  test('a chart anchored on a sheet and a chart sheet are printed, with their text and bars', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Data');
    sheet.addRows([
      ['Month', 'Bears', 'Dolphins'],
      ['Jan', 8, 150],
      ['Feb', 54, 77],
      ['Mar', 93, 32],
    ]);
    const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
    // The sheet's drawing: the chart over E2:L16.
    zip.file('xl/charts/chart1.xml', CHART_XML);
    zip.file(
      'xl/drawings/drawing1.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><xdr:twoCellAnchor>
<xdr:from><xdr:col>4</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>11</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>16</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>
<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart 1"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>
<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>`,
    );
    zip.file(
      'xl/drawings/_rels/drawing1.xml.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships ` +
        `xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" ` +
        `Type="${CHART_REL}" Target="../charts/chart1.xml"/></Relationships>`,
    );
    const sheetPath = 'xl/worksheets/sheet1.xml';
    zip.file(
      sheetPath,
      (await zip.file(sheetPath)!.async('string'))
        .replace('</worksheet>', '<drawing r:id="rIdChart"/></worksheet>')
        .replace(
          '<worksheet ',
          '<worksheet xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ',
        )
        .replace(
          /xmlns:r="[^"]*" (.*)xmlns:r="[^"]*"/,
          'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" $1',
        ),
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
        '<Relationship Id="rIdChart" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"/></Relationships>',
      ),
    );
    // A chart sheet after the data sheet, showing the same chart full page.
    zip.file(
      'xl/chartsheets/sheet2.xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><chartsheet ' +
        'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetViews><sheetView ' +
        'workbookViewId="0"/></sheetViews><drawing r:id="rId1"/></chartsheet>',
    );
    zip.file(
      'xl/chartsheets/_rels/sheet2.xml.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships ' +
        'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" ' +
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" ' +
        'Target="../drawings/drawing2.xml"/></Relationships>',
    );
    zip.file(
      'xl/drawings/drawing2.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><xdr:wsDr ` +
        `xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ` +
        `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><xdr:absoluteAnchor><xdr:pos x="0" ` +
        `y="0"/><xdr:ext cx="9304587" cy="6077107"/><xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr ` +
        `id="2" name="Chart 2"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" ` +
        `y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData ` +
        `uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart ` +
        `xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ` +
        `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ` +
        `r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:absoluteAnchor></xdr:wsDr>`,
    );
    zip.file(
      'xl/drawings/_rels/drawing2.xml.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships ` +
        `xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" ` +
        `Type="${CHART_REL}" Target="../charts/chart1.xml"/></Relationships>`,
    );
    const workbookXml = await zip.file('xl/workbook.xml')!.async('string');
    zip.file(
      'xl/workbook.xml',
      workbookXml.replace('</sheets>', '<sheet name="Chart1" sheetId="2" r:id="rIdChartSheet"/></sheets>'),
    );
    const workbookRels = await zip.file('xl/_rels/workbook.xml.rels')!.async('string');
    zip.file(
      'xl/_rels/workbook.xml.rels',
      workbookRels.replace(
        '</Relationships>',
        '<Relationship Id="rIdChartSheet" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet" Target="chartsheets/sheet2.xml"/></Relationships>',
      ),
    );
    let types = await zip.file('[Content_Types].xml')!.async('string');
    types = addContentType(types, 'xl/charts/chart1.xml', CHART_TYPE);
    for (const part of ['xl/drawings/drawing1.xml', 'xl/drawings/drawing2.xml'])
      types = addContentType(types, part, 'application/vnd.openxmlformats-officedocument.drawing+xml');
    types = addContentType(
      types,
      'xl/chartsheets/sheet2.xml',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.chartsheet+xml',
    );
    zip.file('[Content_Types].xml', types);

    const result = await convert(excelToPdf, 'wildlife.xlsx', await zip.generateAsync({ type: 'uint8array' }));
    await expectValidPdf(result);
    const pages = await texts(result);
    // LibreOffice 7.4 prints 3 pages: the cells and the chart's left part; the chart's right part (it
    // reaches past the columns page 1 holds); the chart sheet.
    expect(pages.length).toBe(3);
    expect(pages[1]).toMatch(/\bMar\b/);
    for (const text of [pages[0], pages[2]]) {
      expect(text).toMatch(/Wildlife Population.*\b0\b.*Jan.*Feb.*Mar.*Bears.*Dolphins/);
      expect(numbers(text)).toContain(160); // a tick of the 0–160 (or 0–200) scale, not a data value
    }
    expect(pages[0]).toMatch(/^Month Bears Dolphins Jan 8 150/);
    const content = await pageContent(result.bytes, 2);
    expect(fills(content, '4F81BD')).toBeGreaterThanOrEqual(4); // three bars and the legend key
    // Series 2 takes the workbook theme's accent2.
    const accent2 =
      /<a:accent2>\s*<a:srgbClr val="([0-9A-F]{6})"/i.exec(
        (await zip.file('xl/theme/theme1.xml')?.async('string')) ?? '',
      )?.[1] ?? ACCENT2;
    expect(fills(content, accent2)).toBeGreaterThanOrEqual(4);
    expect(pages[2]).toMatch(/\b93\b.*\b150\b|\b150\b.*\b93\b/); // data labels (showVal)
  });
});

describe('charts in Word', () => {
  test('an inline chart is drawn in the text flow, between its paragraphs', async () => {
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph('Before the chart.'),
            new Paragraph('CHART_HERE'),
            new Paragraph('After the chart.'),
          ],
        },
      ],
    });
    const zip = await JSZip.loadAsync(await Packer.toBuffer(docx));
    const drawing =
      `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="5486400" ` +
      `cy="3200400"/><wp:docPr id="9" name="Chart 1"/><a:graphic ` +
      `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData ` +
      `uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart ` +
      `xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ` +
      `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ` +
      `r:id="rIdChart1"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
    const documentXml = await zip.file('word/document.xml')!.async('string');
    expect(documentXml).toContain('CHART_HERE');
    zip.file('word/document.xml', documentXml.replace(/<w:r>(?:(?!<w:r>).)*?CHART_HERE.*?<\/w:r>/s, drawing));
    zip.file('word/charts/chart1.xml', CHART_XML);
    const rels = await zip.file('word/_rels/document.xml.rels')!.async('string');
    zip.file(
      'word/_rels/document.xml.rels',
      rels.replace(
        '</Relationships>',
        `<Relationship Id="rIdChart1" Type="${CHART_REL}" Target="charts/chart1.xml"/></Relationships>`,
      ),
    );
    zip.file(
      '[Content_Types].xml',
      addContentType(await zip.file('[Content_Types].xml')!.async('string'), 'word/charts/chart1.xml', CHART_TYPE),
    );

    const result = await convert(wordToPdf, 'report.docx', await zip.generateAsync({ type: 'uint8array' }));
    await expectValidPdf(result);
    const [text] = await texts(result);
    expect(text).not.toContain('CHART_HERE');
    expect(text).toMatch(/Before the chart\. Wildlife Population.*Jan.*Feb.*Mar.*Bears.*Dolphins.*After the chart\./);
    const content = await pageContent(result.bytes, 0);
    expect(fills(content, '4F81BD')).toBeGreaterThanOrEqual(4);
    expect(fills(content, ACCENT2)).toBeGreaterThanOrEqual(4);
  });
});
