/**
 * Office readers never give up on a valid document. Each class of package that made a reader throw
 * (exceljs's strict reader, xmldom's XML declaration rule, a glyph fontkit cannot read) is built here
 * from a generated document, then altered the way real writers alter it, and must convert with its
 * text intact.
 */
import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import PptxGenJS from 'pptxgenjs';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { convert, expectValidPdf, texts } from '../support/office-pdf-helpers.ts';

async function workbook(): Promise<JSZip> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Figures');
  ws.addRow(['Region', 'Sales']);
  ws.addRow(['North', 120]);
  ws.addRow(['South', 95]);
  ws.autoFilter = 'A1:B3';
  return JSZip.loadAsync(await wb.xlsx.writeBuffer());
}

async function edit(zip: JSZip, path: string, change: (xml: string) => string): Promise<void> {
  zip.file(path, change(await zip.file(path)!.async('string')));
}

const bytes = (zip: JSZip) => zip.generateAsync({ type: 'uint8array' });

async function expectFigures(zip: JSZip): Promise<void> {
  const result = await convert(excelToPdf, 'figures.xlsx', await bytes(zip));
  await expectValidPdf(result);
  expect((await texts(result)).join(' ')).toMatch(/Region Sales North 120 South 95/);
}

describe('Excel to PDF reads workbooks exceljs refuses', () => {
  test('an icon-set filter and extension lists in the sheet', async () => {
    const zip = await workbook();
    await edit(zip, 'xl/worksheets/sheet1.xml', (xml) =>
      xml.replace(
        /<autoFilter ref="A1:B3"\/>/,
        '<autoFilter ref="A1:B3"><filterColumn colId="1"><iconFilter iconSet="3Arrows" ' +
          'iconId="0"/></filterColumn></autoFilter><extLst><ext uri="{X}"><unknownThing a="1"/></ext></extLst>',
      ),
    );
    expect(await zip.file('xl/worksheets/sheet1.xml')!.async('string')).toContain('iconFilter');
    await expectFigures(zip);
  });

  test('a byte-order mark before every XML declaration', async () => {
    const zip = await workbook();
    for (const name of Object.keys(zip.files).filter((n) => /\.(xml|rels)$/.test(n)))
      await edit(zip, name, (xml) => `\uFEFF${xml}`);
    await expectFigures(zip);
  });

  test('prefixed SpreadsheetML, rows and cells without references, another prefix for r:id', async () => {
    const zip = await workbook();
    await edit(zip, 'xl/workbook.xml', (xml) =>
      xml
        .replace(
          /xmlns="http:\/\/schemas.openxmlformats.org\/spreadsheetml\/2006\/main"/,
          'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
            'xmlns:d3p1="http://schemas.openxmlformats.org/officeDocument/2006/relationships"',
        )
        .replace(/<(\/?)(?!x:|\?)([a-zA-Z]+)/g, '<$1x:$2')
        .replace(/r:id=/g, 'd3p1:id='),
    );
    await edit(zip, 'xl/worksheets/sheet1.xml', (xml) =>
      xml.replace(/(<row|<c) r="[A-Z]*\d+"/g, '$1').replace(/ spans="[^"]*"/g, ''),
    );
    expect(await zip.file('xl/workbook.xml')!.async('string')).toContain('<x:sheets>');
    await expectFigures(zip);
  });

  test('a worksheet stored under another name, and entries named with backslashes', async () => {
    const zip = await workbook();
    zip.file('xl\\worksheets\\Data.xml', await zip.file('xl/worksheets/sheet1.xml')!.async('string'));
    zip.remove('xl/worksheets/sheet1.xml');
    await edit(zip, 'xl/_rels/workbook.xml.rels', (xml) => xml.replace('worksheets/sheet1.xml', 'worksheets/Data.xml'));
    await edit(zip, '[Content_Types].xml', (xml) =>
      xml.replace('/xl/worksheets/sheet1.xml', '/xl/worksheets/Data.xml'),
    );
    await expectFigures(zip);
  });

  test('unknown elements in every part are skipped', async () => {
    const zip = await workbook();
    for (const name of Object.keys(zip.files).filter((n) => /\.xml$/.test(n) && !n.includes('Content_Types'))) {
      await edit(zip, name, (xml) =>
        xml.replace(/(<[a-zA-Z:]+[^>?]*[^/?]>)/, '$1<futureElement xmlns="urn:folio:future"><child/></futureElement>'),
      );
    }
    await expectFigures(zip);
  });

  test('a document type declaration with an entity-expansion bomb is dropped, not expanded', async () => {
    const zip = await workbook();
    const bomb =
      '<!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c ' +
      '"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>';
    await edit(zip, 'xl/sharedStrings.xml', (xml) =>
      xml.replace(/(<\?xml[^>]*>)/, `$1${bomb}`).replace('<t>North</t>', '<t>North&c;</t>'),
    );
    expect(await zip.file('xl/sharedStrings.xml')!.async('string')).toContain('North&c;');
    await expectFigures(zip);
  });

  test('a package that is not a zip is still called damaged', async () => {
    const zip = await bytes(await workbook());
    await expect(convert(excelToPdf, 'cut.xlsx', zip.slice(0, 200))).rejects.toThrow(/damaged/);
  });
});

describe('Word and PowerPoint tolerate the same classes', () => {
  test('a .docx whose parts start with a byte-order mark, with a no-break space in its text', async () => {
    const doc = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph({ children: [new TextRun({ text: 'Total\u00a0: 120 units', font: 'Calibri' })] }),
              new Paragraph({ children: [new TextRun({ text: 'V\u00a0p', font: 'Arial' })] }),
            ],
          },
        ],
      }),
    );
    const zip = await JSZip.loadAsync(doc);
    for (const name of Object.keys(zip.files).filter((n) => /\.(xml|rels)$/.test(n)))
      await edit(zip, name, (xml) => `\uFEFF${xml.replace(/^\uFEFF/, '')}`);
    const result = await convert(wordToPdf, 'bom.docx', await bytes(zip));
    await expectValidPdf(result);
    expect((await texts(result))[0]).toMatch(/Total\s?: 120 units V\s?p/);
  });

  test('a .pptx with unknown elements in its slide', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('Quarterly review', { x: 1, y: 1, w: 6, h: 1 });
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'uint8array' })) as Uint8Array);
    await edit(
      zip,
      'ppt/slides/slide1.xml',
      (xml) => `\uFEFF${xml.replace('<p:cSld', '<futureElement xmlns="urn:folio:future"/><p:cSld')}`,
    );
    const result = await convert(pptToPdf, 'future.pptx', await bytes(zip));
    expect((await texts(result))[0]).toContain('Quarterly review');
  });
});

describe('what a conversion changes is said in its notes', () => {
  test('a font without a metric-compatible stand-in is named', async () => {
    const doc = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph({ children: [new TextRun({ text: 'Playful heading', font: 'Comic Sans MS' })] }),
              new Paragraph({ children: [new TextRun({ text: 'Body text', font: 'Arial' })] }),
            ],
          },
        ],
      }),
    );
    const result = await convert(wordToPdf, 'fonts.docx', doc);
    const notes = result.notes?.join(' ') ?? '';
    expect(notes).toMatch(/replaced by look-alikes.*Comic Sans MS \(drawn with Carlito\)/);
    expect(notes).not.toMatch(/Arial/); // Arimo has Arial's metrics: nothing to say
  });
});
