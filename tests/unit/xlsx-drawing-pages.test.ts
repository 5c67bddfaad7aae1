/**
 * Drawings on sheets printed over several pages of rows, and hidden drawings. Generated workbooks
 * printed by LibreOffice 7.4 (`soffice --headless --convert-to pdf`, then `pdftoppm` / `pdftotext`);
 * the figures in the comments are LibreOffice's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import { createCanvas } from '@napi-rs/canvas';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { decodeImage, pdftoppmPng } from '../support/images.ts';
import { popplerTextWith } from '../support/pdf.ts';

/** The rows (in points from the page's top, at 72 dpi) where each page of `pdf` shows red. */
async function redRows(pdf: Uint8Array): Promise<Array<[number, number] | undefined>> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-xlsx-red-'));
  try {
    const path = join(dir, 'out.pdf');
    writeFileSync(path, pdf);
    const out: Array<[number, number] | undefined> = [];
    for (let page = 1; page <= (await PDFDocument.load(pdf)).getPageCount(); page++) {
      const raster = await decodeImage(pdftoppmPng(path, page, 72));
      let top = -1,
        bottom = -1;
      for (let y = 0; y < raster.height; y++)
        for (let x = 0; x < raster.width; x++) {
          const i = (y * raster.width + x) * 4;
          if (raster.data[i] > 200 && raster.data[i + 1] < 60 && raster.data[i + 2] < 60) {
            if (top < 0) top = y;
            bottom = y;
          }
        }
      out.push(top < 0 ? undefined : [top, bottom]);
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function redPng(): Uint8Array {
  const canvas = createCanvas(4, 4);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ff0000';
  context.fillRect(0, 0, 4, 4);
  return new Uint8Array(canvas.toBuffer('image/png'));
}

/** A sheet with "Foo" in A1 and a rectangle over A1 to 0.4 in into K51, hidden when `hidden`. */
async function rectangleWorkbook(hidden: boolean, name: string): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Boxed').getCell('A1').value = 'Foo';
  const zip = await JSZip.loadAsync(await wb.xlsx.writeBuffer());
  const corner = (tag: string, col: number, colOff: number, row: number) =>
    `<xdr:${tag}><xdr:col>${col}</xdr:col><xdr:colOff>${colOff}</xdr:colOff><xdr:row>${row}</xdr:row>` +
    `<xdr:rowOff>0</xdr:rowOff></xdr:${tag}>`;
  zip.file(
    'xl/drawings/drawing1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><xdr:wsDr ` +
      `xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ` +
      `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><xdr:twoCellAnchor>` +
      `${corner('from', 0, 0, 0)}${corner('to', 10, 381000, 50)}<xdr:sp macro="" textlink=""><xdr:nvSpPr>` +
      `<xdr:cNvPr id="1025" name="${name}"${hidden ? ' hidden="1"' : ''}/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr>` +
      `<xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="9525000" cy="9525000"/></a:xfrm><a:prstGeom prst="rect">` +
      `<a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></xdr:spPr></xdr:sp>` +
      `<xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>`,
  );
  zip.file(
    'xl/worksheets/_rels/sheet1.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships ` +
      `xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdD" ` +
      `Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" ` +
      `Target="../drawings/drawing1.xml"/></Relationships>`,
  );
  const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
  zip.file('xl/worksheets/sheet1.xml', sheet.replace('</worksheet>', '<drawing r:id="rIdD"/></worksheet>'));
  const types = await zip.file('[Content_Types].xml')!.async('string');
  zip.file(
    '[Content_Types].xml',
    types.replace(
      '</Types>',
      '<Override PartName="/xl/drawings/drawing1.xml" ' +
        'ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/></Types>',
    ),
  );
  return zip.generateAsync({ type: 'uint8array' });
}

describe('Excel → PDF: drawings across pages of rows', () => {
  test('a picture taller than the rest of its page prints its share on each page', async () => {
    // A red picture anchored B2:C70 (1,020 pt of 15 pt rows), "After" in A100, Letter between 0.75 in margins.
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Tall');
    ws.getCell('A1').value = 'Picture below';
    ws.getCell('A100').value = 'After';
    ws.addImage(wb.addImage({ buffer: redPng() as never, extension: 'png' }), 'B2:C70');
    const result = await convert(excelToPdf, 'tall.xlsx', await wb.xlsx.writeBuffer());
    const red = await redRows(result.bytes);
    // LibreOffice: 3 pages; red from y 68 to 729 on page 1 (row 2 to the last row of the page, 45 rows of 15 pt
    // from the 54 pt margin), from 54 to 428 on page 2, none on page 3. (Folio drew it whole on page 1, its
    // lower part off the paper, and nothing on page 2.)
    expect(red).toHaveLength(3);
    expect(red[0]![0]).toBeCloseTo(68, -0.5);
    expect(red[0]![1]).toBeCloseTo(729, -0.5);
    expect(red[1]![0]).toBeCloseTo(54, -0.5);
    expect(red[1]![1]).toBeCloseTo(428, -0.5);
    expect(red[2]).toBeUndefined();
  });

  test('a shape two pages wide and two tall prints on all four pages', async () => {
    const result = await convert(excelToPdf, 'boxed.xlsx', await rectangleWorkbook(false, 'Rectangle 1'));
    // LibreOffice: 4 pages (A–J and K by rows 1–48 and 49–51), the box on each. (Folio printed 2: the pages
    // below the anchor's looked empty.)
    const red = await redRows(result.bytes);
    expect(red).toHaveLength(4);
    expect(red.every(Boolean)).toBe(true);
  });

  test('a hidden shape paints nothing but the printed pages reach it, as in LibreOffice', async () => {
    // Apache POI's hidden comment boxes (name "_xssf_cell_comment", hidden="1") over A1:K51, as in poi-51850.xlsx.
    for (const name of ['_xssf_cell_comment', 'Rectangle 1']) {
      const result = await convert(excelToPdf, 'hidden.xlsx', await rectangleWorkbook(true, name));
      // LibreOffice: 4 pages, "Foo" on the first, the other three empty. (Folio printed 1.)
      const red = await redRows(result.bytes);
      expect(red).toEqual([undefined, undefined, undefined, undefined]);
      expect(popplerTextWith(result.bytes, []).replace(/\s+/g, ' ').trim()).toBe('Foo');
    }
  });
});
