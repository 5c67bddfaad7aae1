/**
 * A conversion that leaves out something visible says so in the result's notes (which the result
 * panel lists): a chart of a type Folio does not draw, in Word, PowerPoint and Excel, and Office
 * 2016's chart types (cx:chart). The documents are generated (pptxgenjs, docx, exceljs), their chart
 * parts changed by hand the way other writers write them.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import PptxGenJS from 'pptxgenjs';
import ExcelJS from 'exceljs';
import { Document, Packer, Paragraph } from 'docx';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { convert, texts } from '../support/office-pdf-helpers.ts';

const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A deck with one bar chart whose plot is renamed to `plot` (c:surfaceChart…) when given. */
async function chartDeck(plot?: string): Promise<JSZip> {
  const pptx = new PptxGenJS();
  pptx.addSlide().addChart(pptx.ChartType.bar, [{ name: 'Sales', labels: ['North', 'South'], values: [3, 5] }], {
    x: 1,
    y: 1,
    w: 6,
    h: 3.5,
  });
  const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer);
  if (plot) {
    const path = Object.keys(zip.files).find((name) => /^ppt\/charts\/chart\d*\.xml$/.test(name))!;
    const xml = await zip.file(path)!.async('string');
    zip.file(path, xml.replaceAll('c:barChart', plot));
  }
  return zip;
}

const asBytes = (zip: JSZip) => zip.generateAsync({ type: 'uint8array' });

describe('notes on what a conversion leaves out', () => {
  test('PowerPoint: a chart type that is not drawn is named; a drawn chart adds no note', async () => {
    const drawn = await convert(pptToPdf, 'bar.pptx', await asBytes(await chartDeck()));
    expect(drawn.notes?.join(' ') ?? '').not.toMatch(/chart/);
    expect((await texts(drawn))[0]).toContain('North');
    const surface = await convert(pptToPdf, 'surface.pptx', await asBytes(await chartDeck('c:surfaceChart')));
    expect(surface.notes?.join(' ')).toContain('surface charts were not drawn');
  });

  test('Word: a chart type that is not drawn is named; an Office 2016 chart is noted as left out', async () => {
    const chartXml = await (await chartDeck('c:surfaceChart')).file(/^ppt\/charts\/chart\d*\.xml$/)[0].async('string');
    const zip = await JSZip.loadAsync(
      await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('Before the chart.')] }] })),
    );
    const frame = (graphic: string) =>
      `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="4000000" cy="2500000"/><wp:docPr id="5" name="Chart"/>` +
      `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">${graphic}</a:graphic>` +
      `</wp:inline></w:drawing></w:r></w:p>`;
    const surface = frame(
      `<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">` +
        `<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="${REL_NS}" r:id="rIdChart"/>` +
        `</a:graphicData>`,
    );
    const chartex = frame(
      `<a:graphicData uri="http://schemas.microsoft.com/office/drawing/2014/chartex">` +
        `<cx:chart xmlns:cx="http://schemas.microsoft.com/office/drawing/2014/chartex" xmlns:r="${REL_NS}" ` +
        `r:id="rIdChartEx"/></a:graphicData>`,
    );
    const documentXml = await zip.file('word/document.xml')!.async('string');
    zip.file('word/document.xml', documentXml.replace(/(<w:sectPr)/, `${surface}${chartex}$1`));
    const relsPath = 'word/_rels/document.xml.rels';
    const rels = await zip.file(relsPath)!.async('string');
    zip.file(
      relsPath,
      rels.replace(
        '</Relationships>',
        `<Relationship Id="rIdChart" Type="${REL_NS}/chart" Target="charts/chart1.xml"/></Relationships>`,
      ),
    );
    zip.file('word/charts/chart1.xml', chartXml);
    const result = await convert(wordToPdf, 'charts.docx', await asBytes(zip));
    expect((await texts(result))[0]).toContain('Before the chart.');
    const notes = result.notes?.join(' ') ?? '';
    expect(notes).toContain('surface charts were not drawn');
    expect(notes).toContain('charts of the types added in Office 2016 (waterfall, treemap, funnel…) were left out');
  });

  test('Excel: an Office 2016 chart on a sheet is noted as left out', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Data');
    sheet.addRow(['Region', 'Sales']);
    sheet.addRow(['North', 3]);
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
      'base64',
    );
    sheet.addImage(workbook.addImage({ buffer: png as never, extension: 'png' }), 'D2:H12');
    const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
    const drawingPath = 'xl/drawings/drawing1.xml';
    const drawing = await zip.file(drawingPath)!.async('string');
    // Excel writes a cx:chart frame in mc:AlternateContent, with a fallback for older readers.
    const chartex =
      `<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">` +
      `<mc:Choice xmlns:cx1="http://schemas.microsoft.com/office/drawing/2015/9/8/chartex" Requires="cx1">` +
      `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="3" name="Chart 1"/><xdr:cNvGraphicFramePr/>` +
      `</xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic>` +
      `<a:graphicData uri="http://schemas.microsoft.com/office/drawing/2014/chartex">` +
      `<cx:chart xmlns:cx="http://schemas.microsoft.com/office/drawing/2014/chartex" xmlns:r="${REL_NS}" ` +
      `r:id="rIdChartEx"/></a:graphicData></a:graphic></xdr:graphicFrame></mc:Choice><mc:Fallback/>` +
      `</mc:AlternateContent>`;
    zip.file(drawingPath, drawing.replace(/<xdr:pic>.*<\/xdr:pic>/s, chartex));
    const result = await convert(excelToPdf, 'chartex.xlsx', await asBytes(zip));
    expect((await texts(result))[0]).toContain('North');
    expect(result.notes?.join(' ')).toContain('charts of the types added in Office 2016');
  });
});
