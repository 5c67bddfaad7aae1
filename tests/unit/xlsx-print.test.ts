/**
 * Classes of page-count differences from LibreOffice on the wide corpus, each reproduced with a
 * generated workbook: the paper a sheet without a paper size prints on, rows that keep their
 * stored height however much text their cells hold, and columns that text runs on into.
 */
import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { convert, texts } from '../support/office-pdf-helpers.ts';

async function pageSizes(bytes: Uint8Array): Promise<number[][]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => [Math.round(page.getWidth()), Math.round(page.getHeight())]);
}

describe('Excel print layout as LibreOffice prints it', () => {
  test('a sheet without a paper size prints on Letter (the schema default); paperSize 9 on A4, 5 on Legal', async () => {
    const wb = new ExcelJS.Workbook();
    for (const [name, paper] of [
      ['Default', undefined],
      ['A4', 9],
      ['Legal', 5],
    ] as const) {
      const ws = wb.addWorksheet(name);
      if (paper) ws.pageSetup.paperSize = paper;
      for (let i = 0; i < 100; i++) ws.addRow([`${name} ${i + 1}`]);
    }
    const result = await convert(excelToPdf, 'paper.xlsx', await wb.xlsx.writeBuffer());
    const pages = await texts(result);
    const sizes = await pageSizes(result.bytes);
    // 100 rows of 15 pt between 0.75 in margins: 45 a Letter page, 48 on A4, 57 on Legal.
    expect(sizes).toEqual([
      [612, 792],
      [612, 792],
      [612, 792],
      [595, 842],
      [595, 842],
      [595, 842],
      [612, 1008],
      [612, 1008],
    ]);
    expect(pages[1].split(' ')[1]).toBe('46');
    expect(pages[3].split(' ')[1]).toBe('1');
    expect(pages[4].split(' ')[1]).toBe('49');
  });

  test('rows keep their stored height: wrapped text and large fonts are cut off, not grown', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Rows');
    for (let r = 1; r <= 60; r++) {
      const cell = ws.getCell(r, 1);
      cell.value = `Row ${r} ${'word '.repeat(40)}`;
      cell.alignment = { wrapText: true };
      ws.getCell(r, 2).value = `Big ${r}`;
      ws.getCell(r, 2).font = { size: 28 };
    }
    ws.getRow(60).height = 100; // a stored height is kept too
    const result = await convert(excelToPdf, 'rows.xlsx', await wb.xlsx.writeBuffer());
    const pages = await texts(result);
    // 59 rows of 15 pt and one of 100 pt on Letter (684 pt between the margins): two pages.
    expect(pages.length).toBe(2);
    expect(pages[0]).toContain('Big 45');
    expect(pages[1]).toContain('Big 46');
    // The 100 pt row holds on the second page with the rest.
    expect(pages[1]).toContain('Big 60');
  });

  test("columns that a row's last text runs on into are printed (one more band of columns)", async () => {
    const build = async (title: string) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('Wide');
      for (let c = 1; c <= 9; c++) ws.getCell(2, c).value = c; // nine 48 pt columns fit a Letter page
      ws.getCell(1, 9).value = title;
      return (await texts(await convert(excelToPdf, 'run-on.xlsx', await wb.xlsx.writeBuffer()))).length;
    };
    expect(await build('short')).toBe(1);
    expect(await build('a long title that runs on to the right of the last column END')).toBe(2);
  });

  test(
    "a sheet without pageSetup prints on LibreOffice's default page (A4; 0.984 in top and bottom without " +
      'pageMargins)',
    async () => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('Bare');
      for (let i = 0; i < 100; i++) ws.addRow([`Row ${i + 1}`]);
      const zip = await JSZip.loadAsync(await wb.xlsx.writeBuffer());
      const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
      zip.file('xl/worksheets/sheet1.xml', xml.replace(/<pageMargins[^>]*\/>/, '').replace(/<pageSetup[^>]*\/>/, ''));
      const result = await convert(excelToPdf, 'bare.xlsx', await zip.generateAsync({ type: 'uint8array' }));
      expect(await pageSizes(result.bytes)).toEqual([
        [595, 842],
        [595, 842],
        [595, 842],
      ]);
      // (841.89 − 2 × 70.85) / 15: 46 rows a page.
      expect((await texts(result))[1].split(' ')[1]).toBe('47');
      // With its margins but no pageSetup: A4 still, with the sheet's margins (0.75 in: 48 rows a page).
      zip.file('xl/worksheets/sheet1.xml', xml.replace(/<pageSetup[^>]*\/>/, ''));
      const margins = await convert(excelToPdf, 'margins.xlsx', await zip.generateAsync({ type: 'uint8array' }));
      expect(await pageSizes(margins.bytes)).toEqual([
        [595, 842],
        [595, 842],
        [595, 842],
      ]);
      expect((await texts(margins))[1].split(' ')[1]).toBe('49');
    },
  );

  test("columns are the default font's digits wide, unrounded, and a font LibreOffice lacks has its fallback's digits", async () => {
    // One row of 60 labelled columns on A4 between half-inch margins (523 pt); the first page's band
    // holds as many columns as LibreOffice 7.4 prints there for the same generated workbook.
    const firstBand = async (font: string, size: number, width: number | undefined, defaultColWidth?: number) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('Band', defaultColWidth ? { properties: { defaultColWidth } } : undefined);
      for (let c = 1; c <= 60; c++) {
        if (width) ws.getColumn(c).width = width;
        ws.getCell(1, c).value = `c${c}`;
      }
      ws.pageSetup.paperSize = 9;
      ws.pageSetup.margins = { left: 0.5, right: 0.5, top: 0.75, bottom: 0.75, header: 0.3, footer: 0.3 };
      const zip = await JSZip.loadAsync(await wb.xlsx.writeBuffer());
      const styles = await zip.file('xl/styles.xml')!.async('string');
      zip.file(
        'xl/styles.xml',
        styles.replace(
          /<fonts([^>]*)><font>.*?<\/font>/,
          `<fonts$1><font><sz val="${size}"/><name val="${font}"/></font>`,
        ),
      );
      const result = await convert(excelToPdf, 'band.xlsx', await zip.generateAsync({ type: 'uint8array' }));
      return (await texts(result))[0].split(' ').length;
    };
    // Calibri 11, width 5: 27.9 pt each in LibreOffice (26.25 pt, whole pixels, in Excel, which fits 19).
    expect(await firstBand('Calibri', 11, 5)).toBe(18);
    // A font neither has (LibreOffice measures DejaVu Sans, 0.636 em digits): 14 columns of width 5.
    expect(await firstBand('Foo Sans', 11, 5)).toBe(14);
    // A sheet's defaultColWidth of 12 is 12 digits too (Excel: 84 px, 8 columns; LibreOffice 7).
    expect(await firstBand('Calibri', 11, undefined, 12)).toBe(7);
    // Columns without any width: 64 px as in Excel (10 of them between half-inch margins).
    expect(await firstBand('Calibri', 11, undefined)).toBe(10);
  });

  test('empty cells with borders extend the printed range as in LibreOffice; fills and long ruled runs do not', async () => {
    const thin = { style: 'thin' } as const;
    const yellow = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFFF00' } } as const;
    const pageCount = async (shape: (ws: ExcelJS.Worksheet) => void) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('Ruled');
      ws.pageSetup.paperSize = 9;
      shape(ws);
      return (await texts(await convert(excelToPdf, 'ruled.xlsx', await wb.xlsx.writeBuffer()))).length;
    };
    // Each count is LibreOffice 7.4's for the same generated workbook (A4, 0.7 in sides: ten 48 pt
    // columns and 48 rows a page).
    // Values in column A, borders on B:N of the same rows: a second band of columns (LibreOffice: 2).
    expect(
      await pageCount((ws) => {
        for (let r = 1; r <= 20; r++) {
          ws.getCell(r, 1).value = r;
          for (let c = 2; c <= 14; c++) ws.getCell(r, c).border = { top: thin, bottom: thin };
        }
      }),
    ).toBe(2);
    // The same with fills instead of borders: LibreOffice 1.
    expect(
      await pageCount((ws) => {
        for (let r = 1; r <= 10; r++) {
          ws.getCell(r, 1).value = r;
          for (let c = 2; c <= 14; c++) ws.getCell(r, c).fill = yellow;
        }
      }),
    ).toBe(1);
    // One ruled cell at A80, 78 plain rows below the value: a second page (LibreOffice 2).
    expect(
      await pageCount((ws) => {
        ws.getCell('A1').value = 'x';
        ws.getCell('A80').border = { bottom: thin };
      }),
    ).toBe(2);
    // 140 rows ruled alike below the values (a run of 84 or more ends LibreOffice's search): 1 page.
    expect(
      await pageCount((ws) => {
        for (let r = 1; r <= 10; r++) ws.getCell(r, 1).value = r;
        for (let r = 11; r <= 150; r++) ws.getCell(r, 1).border = { top: thin };
      }),
    ).toBe(1);
    // A column without values whose only ruled cell is in row 1 (LibreOffice starts below row 1): 1 page.
    expect(
      await pageCount((ws) => {
        ws.getCell('A1').value = 'x';
        ws.getCell('N1').border = { bottom: thin };
      }),
    ).toBe(1);
  });

  test('pages that print nothing (no text, no border; a fill alone) are left out, as LibreOffice does', async () => {
    const pageCount = async (shape: (ws: ExcelJS.Worksheet) => void) => {
      const wb = new ExcelJS.Workbook();
      shape(wb.addWorksheet('Gaps'));
      return (await texts(await convert(excelToPdf, 'gaps.xlsx', await wb.xlsx.writeBuffer()))).length;
    };
    // Each count is LibreOffice 7.4's for the same generated workbook (Letter: 45 rows a page, ten columns).
    // Values in A1 and A100: rows 46–90 print nothing (LibreOffice: 2 pages, not 3).
    const gap = (ws: ExcelJS.Worksheet) => {
      ws.getCell('A1').value = 'x';
      ws.getCell('A100').value = 'y';
    };
    expect(await pageCount(gap)).toBe(2);
    // A ruled cell on the middle page keeps it (3); a filled one does not (2).
    expect(
      await pageCount((ws) => {
        gap(ws);
        const thin = { style: 'thin' } as const;
        ws.getCell('A60').border = { top: thin, bottom: thin, left: thin, right: thin };
      }),
    ).toBe(3);
    expect(
      await pageCount((ws) => {
        gap(ws);
        ws.getCell('A60').fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFFF00' } };
      }),
    ).toBe(2);
    // A formula keeps its page, whatever it shows: LibreOffice 3 for IF(A1="x","","z") (its result "") in A60, saved
    // without a cached result as exceljs writes it. (Folio printed 2.)
    expect(
      await pageCount((ws) => {
        gap(ws);
        ws.getCell('A60').value = { formula: 'IF(A1="x","","z")' } as ExcelJS.CellFormulaValue;
      }),
    ).toBe(3);
    // Values in A1 and Z1: the middle band of columns (K:T) prints nothing (LibreOffice: 2 pages).
    expect(
      await pageCount((ws) => {
        ws.getCell('A1').value = 'x';
        ws.getCell('Z1').value = 'y';
      }),
    ).toBe(2);
  });

  test('an embedded object, which is not printed, is named in the notes', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Objects').getCell('A1').value = 'see the object';
    const zip = await JSZip.loadAsync(await wb.xlsx.writeBuffer());
    const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    const ole = '<oleObjects><oleObject progId="Word.Document.12" shapeId="1025" r:id="rId9"/></oleObjects>';
    zip.file('xl/worksheets/sheet1.xml', xml.replace('</worksheet>', `${ole}</worksheet>`));
    const result = await convert(excelToPdf, 'ole.xlsx', await zip.generateAsync({ type: 'uint8array' }));
    expect(await texts(result)).toEqual(['see the object']);
    expect(result.notes?.join(' ')).toMatch(/embedded objects \(OLE\) were left out/);
  });
});
