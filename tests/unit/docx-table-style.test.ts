/**
 * Word → PDF applies a table's style (w:tblStyle) as Word does: its conditional formats for the
 * header row, first column and banded rows (w:tblStylePr), switched on and off by w:tblLook, with
 * the style's shading, borders and bold text. The document is generated (docx) and given a table
 * style by hand, as Word's built-in "Grid Table 4" styles are written.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { Document, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { conditionalTypes, tableLook } from '../../workers/engine/lib/office-to-pdf/docx/index.ts';
import { convert, pageContent, texts } from '../support/office-pdf-helpers.ts';

const HEADER = '4472C4';
const BAND = 'D9E2F3';
const STYLE = `<w:style w:type="table" w:styleId="BandedBlue"><w:name w:val="Banded Blue"/>
  <w:tblPr><w:tblStyleRowBandSize w:val="1"/><w:tblBorders><w:top w:val="single" w:sz="4" w:color="8EAADB"/><w:bottom w:val="single" w:sz="4" w:color="8EAADB"/><w:insideH w:val="single" w:sz="4" w:color="8EAADB"/></w:tblBorders></w:tblPr>
  <w:tblStylePr w:type="firstRow"><w:rPr><w:b/><w:color w:val="FFFFFF"/></w:rPr><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="${HEADER}"/></w:tcPr></w:tblStylePr>
  <w:tblStylePr w:type="firstCol"><w:rPr><w:b/></w:rPr></w:tblStylePr>
  <w:tblStylePr w:type="band1Horz"><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="${BAND}"/></w:tcPr></w:tblStylePr>
</w:style>`;

async function styledTable(look: string): Promise<Uint8Array> {
  const rows = [
    ['Name', 'Qty'],
    ['apples', '3'],
    ['pears', '5'],
    ['plums', '7'],
  ].map((cells) => new TableRow({ children: cells.map((text) => new TableCell({ children: [new Paragraph(text)] })) }));
  const zip = await JSZip.loadAsync(
    await Packer.toBuffer(new Document({ sections: [{ children: [new Table({ rows })] }] })),
  );
  const documentXml = await zip.file('word/document.xml')!.async('string');
  zip.file('word/document.xml', documentXml.replace(/<w:tblPr>/, `<w:tblPr><w:tblStyle w:val="BandedBlue"/>${look}`));
  const styles = await zip.file('word/styles.xml')!.async('string');
  zip.file('word/styles.xml', styles.replace('</w:styles>', `${STYLE}</w:styles>`));
  return zip.generateAsync({ type: 'uint8array' });
}

/** The BaseFont names of the fonts a page uses. */
async function fontNames(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  const fonts = doc.getPage(0).node.Resources()?.lookup(PDFName.of('Font'), PDFDict);
  return (fonts?.values() ?? []).map((ref) => String(doc.context.lookup(ref, PDFDict).get(PDFName.of('BaseFont'))));
}

const fill = (hex: string) =>
  [0, 2, 4].map((i) => Number((parseInt(hex.slice(i, i + 2), 16) / 255).toFixed(4))).join(' ');
/** The fill colours the page's content sets ("r g b rg"), rounded to four places. */
function fills(content: string): string[] {
  return [...content.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) rg/g)].map((m) =>
    m
      .slice(1, 4)
      .map((v) => Number(Number(v).toFixed(4)))
      .join(' '),
  );
}

describe('Word table styles', () => {
  test('header row shaded and bold, rows banded, as the table look asks', async () => {
    const result = await convert(
      wordToPdf,
      'styled.docx',
      await styledTable(
        '<w:tblLook w:firstRow="1" w:lastRow="0" w:firstColumn="0" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/>',
      ),
    );
    expect((await texts(result))[0]).toContain('Name Qty apples 3 pears 5 plums 7');
    const used = fills(await pageContent(result.bytes, 0));
    expect(used).toContain(fill(HEADER));
    // Band 1 is the first row under the header and the third: two shaded rows of two cells.
    expect(used.filter((c) => c === fill(BAND))).toHaveLength(4);
    expect((await fontNames(result.bytes)).some((name) => /Bold/.test(name))).toBe(true);
  });

  test('a table look without the header row and bands draws neither', async () => {
    const result = await convert(wordToPdf, 'plain.docx', await styledTable('<w:tblLook w:val="0600"/>'));
    const used = fills(await pageContent(result.bytes, 0));
    expect(used).not.toContain(fill(HEADER));
    expect(used).not.toContain(fill(BAND));
    expect((await fontNames(result.bytes)).some((name) => /Bold/.test(name))).toBe(false);
  });

  test('conditional types by position, Word order (lowest priority first)', () => {
    const look = tableLook(undefined); // Word's default 04A0: header row, first column, row bands
    expect(look).toEqual({
      firstRow: true,
      lastRow: false,
      firstColumn: true,
      lastColumn: false,
      noHBand: false,
      noVBand: true,
    });
    expect(conditionalTypes(0, 0, 4, 3, look)).toEqual(['wholeTable', 'firstCol', 'firstRow', 'nwCell']);
    expect(conditionalTypes(1, 1, 4, 3, look)).toEqual(['wholeTable', 'band1Horz']);
    expect(conditionalTypes(2, 2, 4, 3, look)).toEqual(['wholeTable', 'band2Horz']);
    expect(conditionalTypes(3, 1, 4, 3, { ...look, lastRow: true, noVBand: false })).toEqual([
      'wholeTable',
      'band1Vert',
      'lastRow',
    ]);
  });
});
