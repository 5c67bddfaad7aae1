/**
 * Row heights and "fit to pages" as LibreOffice 7.4 prints an .xlsx. Every expected figure is what
 * `soffice --headless --convert-to pdf` printed for the same generated workbook (exceljs, the XML
 * edited where exceljs cannot write it): the first row on each page from `pdftotext -layout`, the row
 * pitch from `pdftotext -bbox` (the distance between the bottoms of consecutive "Row n" labels).
 */
import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { libreOfficeRowHeight } from '../../workers/engine/lib/office-to-pdf/xlsx.ts';
import { convert, texts } from '../support/office-pdf-helpers.ts';

interface RowsWorkbook {
  /** Replaces exceljs's sheetFormatPr ('' removes it). */
  sheetFormatPr?: string;
  /** The workbook's default font (the first font of styles.xml). */
  defaultFont?: { name: string; size: number };
  /** Every row's own height. */
  rowHeight?: number;
  shape?: (ws: ExcelJS.Worksheet) => void;
}

/** 300 rows "Row n" in column A on A4 between half-inch margins; the first row printed on each page. */
async function firstRowOfEachPage({ sheetFormatPr, defaultFont, rowHeight, shape }: RowsWorkbook): Promise<number[]> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Rows');
  ws.pageSetup.paperSize = 9;
  ws.pageSetup.margins = { left: 0.5, right: 0.5, top: 0.5, bottom: 0.5, header: 0.3, footer: 0.3 };
  for (let r = 1; r <= 300; r++) {
    ws.getCell(r, 1).value = `Row ${r}`;
    if (rowHeight) ws.getRow(r).height = rowHeight;
  }
  shape?.(ws);
  const zip = await JSZip.loadAsync(await wb.xlsx.writeBuffer());
  if (defaultFont) {
    const styles = await zip.file('xl/styles.xml')!.async('string');
    zip.file(
      'xl/styles.xml',
      styles.replace(
        /<fonts([^>]*)><font>.*?<\/font>/,
        `<fonts$1><font><sz val="${defaultFont.size}"/><name val="${defaultFont.name}"/></font>`,
      ),
    );
  }
  if (sheetFormatPr !== undefined) {
    const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    zip.file('xl/worksheets/sheet1.xml', sheet.replace(/<sheetFormatPr[^>]*\/>/, sheetFormatPr));
  }
  const result = await convert(excelToPdf, 'rows.xlsx', await zip.generateAsync({ type: 'uint8array' }));
  return (await texts(result)).map((page) => Number(/Row (\d+)/.exec(page)?.[1]));
}

describe('row heights as LibreOffice prints them', () => {
  test('a height is rounded down to whole 96 dpi pixels (stored heights and the sheet default alike)', () => {
    // [height in the file, LibreOffice's row pitch in its PDF]: the pitch is the pixel height rounded
    // down once more to 1/100 mm when drawn (14.25 pt → 14.230); its page breaks follow the pixel
    // height itself (see the page tests below), so that is what Folio uses.
    const measured: Array<[number, number]> = [
      [8, 7.483],
      [10, 9.723],
      [11, 10.487],
      [12.6, 11.991],
      [13.2, 12.728],
      [14, 13.493],
      [14.4, 14.23],
      [15, 14.996],
      [16, 15.734],
      [17, 16.497],
      [18.75, 18.738],
      [20, 19.474],
      [25, 24.747],
      [40, 39.745],
    ];
    for (const [stored, pitch] of measured) {
      const height = libreOfficeRowHeight(stored);
      expect(height).toBeGreaterThanOrEqual(pitch);
      expect(height - pitch).toBeLessThan(0.03);
      expect((height * 96) / 72).toBe(Math.round((height * 96) / 72)); // whole pixels
    }
    expect(libreOfficeRowHeight(0)).toBe(0);
  });

  test("the sheet's defaultRowHeight, with or without customHeight, decides the rows without a height", async () => {
    // 14.4 pt (Excel's Calibri 11 default on a 120 dpi screen; poi-58896's sheet): 14.25 pt rows,
    // 54 a page (769.9 pt); at 14.4 pt only 53 would fit.
    expect(await firstRowOfEachPage({ sheetFormatPr: '<sheetFormatPr defaultRowHeight="14.4"/>' })).toEqual([
      1, 55, 109, 163, 217, 271,
    ]);
    // 10 pt: 9.75 pt rows, 78 a page (79 × 9.75 = 770.25 > 769.9; at 1/100 mm, 9.723, 79 would fit).
    const ten = [1, 79, 157, 235];
    expect(await firstRowOfEachPage({ sheetFormatPr: '<sheetFormatPr defaultRowHeight="10"/>' })).toEqual(ten);
    expect(
      await firstRowOfEachPage({ sheetFormatPr: '<sheetFormatPr defaultRowHeight="10" customHeight="1"/>' }),
    ).toEqual(ten);
    // 13 pt: 12.75 pt rows, 60 a page; 17 pt: 16.5 pt rows, 46 a page.
    expect(await firstRowOfEachPage({ sheetFormatPr: '<sheetFormatPr defaultRowHeight="13"/>' })).toEqual([
      1, 61, 121, 181, 241,
    ]);
    expect(await firstRowOfEachPage({ sheetFormatPr: '<sheetFormatPr defaultRowHeight="17"/>' })).toEqual([
      1, 47, 93, 139, 185, 231, 277,
    ]);
    // No sheetFormatPr at all: LibreOffice's own default row (0.451 cm, 12.785 pt), 60 a page (exceljs reads 15).
    expect(await firstRowOfEachPage({ sheetFormatPr: '' })).toEqual([1, 61, 121, 181, 241]);
  });

  test('a row without a height is not grown for a larger font, a wrapped cell or the default font', async () => {
    // Each of these prints exactly like plain Calibri 11 text in 15 pt rows: 51 rows a page.
    const plain = [1, 52, 103, 154, 205, 256];
    expect(await firstRowOfEachPage({})).toEqual(plain);
    const big = (ws: ExcelJS.Worksheet) => ws.eachRow((row) => (row.getCell(1).font = { name: 'Calibri', size: 14 }));
    expect(await firstRowOfEachPage({ shape: big })).toEqual(plain);
    const wrapped = (ws: ExcelJS.Worksheet) => {
      for (let r = 10; r <= 300; r += 10) {
        ws.getCell(r, 2).value = 'several words that wrap onto more lines in a narrow column';
        ws.getCell(r, 2).alignment = { wrapText: true };
      }
    };
    expect(await firstRowOfEachPage({ shape: wrapped })).toEqual(plain);
    // Arial 10 as the workbook's font with Excel's 12.75 pt default: 60 rows a page, as any 12.75 pt sheet.
    expect(
      await firstRowOfEachPage({
        defaultFont: { name: 'Arial', size: 10 },
        sheetFormatPr: '<sheetFormatPr defaultRowHeight="12.75"/>',
      }),
    ).toEqual([1, 61, 121, 181, 241]);
  });

  test("a row's own height is rounded the same way (20 pt: 19.5 pt, 39 rows a page)", async () => {
    expect(await firstRowOfEachPage({ rowHeight: 20 })).toEqual([1, 40, 79, 118, 157, 196, 235, 274]);
  });
});

describe('fit to pages and scale as LibreOffice prints them', () => {
  /** A 30 × 200 grid "RrCc" on A4 (exceljs's 0.7 / 0.75 in margins) with the given sheetPr and pageSetup. */
  async function printed(fitToPage: boolean, pageSetup: string): Promise<{ pages: number; firstPage: string }> {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Grid');
    for (let r = 1; r <= 200; r++) for (let c = 1; c <= 30; c++) ws.getCell(r, c).value = `R${r}C${c}`;
    const zip = await JSZip.loadAsync(await wb.xlsx.writeBuffer());
    let sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    sheet = sheet.replace(/<sheetPr[\s\S]*?(<\/sheetPr>|\/>)/, '');
    if (fitToPage) sheet = sheet.replace('<dimension', '<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr><dimension');
    sheet = sheet.replace(/<pageSetup[^>]*\/>/, `<pageSetup paperSize="9" orientation="portrait" ${pageSetup}/>`);
    zip.file('xl/worksheets/sheet1.xml', sheet);
    const pages = await texts(await convert(excelToPdf, 'fit.xlsx', await zip.generateAsync({ type: 'uint8array' })));
    return { pages: pages.length, firstPage: pages[0] };
  }
  /** The first page's columns × rows. */
  const extent = (page: string) => `${new Set(page.match(/C\d+/g)).size}x${new Set(page.match(/R\d+C/g)).size}`;

  // [pageSetup attributes, LibreOffice's pages, its first page's columns × rows]
  test.each([
    ['fitToWidth="2" fitToHeight="0"', 6, '15x71'], // was 15 pages: only fitToWidth="1" was read
    ['fitToWidth="0" fitToHeight="2"', 4, '21x101'], // 48 %: 101 rows a page (the exact 48.9 % gives 100)
    ['fitToWidth="1" fitToHeight="3"', 2, '30x143'],
    ['fitToWidth="3" fitToHeight="1"', 1, '30x200'],
    ['fitToWidth="1" fitToHeight="0"', 2, '30x143'],
    ['fitToWidth="0" fitToHeight="0"', 15, '10x48'],
    ['scale="50" fitToWidth="1" fitToHeight="0"', 2, '30x143'], // fitting wins over the scale
  ] as const)(
    'fitToPage with %s: %i pages (the largest whole percent whole columns and rows fit at)',
    async (setup, pages, firstPage) => {
      const out = await printed(true, setup);
      expect([out.pages, extent(out.firstPage)]).toEqual([pages, firstPage]);
    },
  );

  // Fitted to one page wide alone, LibreOffice tries 2 % smaller and keeps it when that prints fewer pages
  // down: 92 rows of 15 pt on Letter (684 pt) are 45 a page at 100 % (3 pages), 46 at 98 % (2 pages); 94 rows
  // are 3 pages either way and stay at 100 %; 140 rows are 4 pages either way.
  test.each([
    [92, 2, 46],
    [91, 2, 46],
    [94, 3, 45],
    [140, 4, 45],
  ] as const)(
    'fit to 1 page wide, %i rows: %i pages, %i rows on the first (a 2 percent smaller scale when it saves a page)',
    async (rows, pages, firstPageRows) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('Rows', {
        pageSetup: { paperSize: 1 as ExcelJS.PaperSize, fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
      });
      for (let c = 1; c <= 7; c++) ws.getColumn(c).width = 12;
      for (let r = 1; r <= rows; r++) {
        ws.getCell(r, 1).value = `Row ${r}`;
        ws.getCell(r, 7).value = `Z${r}`;
      }
      const out = await texts(await convert(excelToPdf, 'nudge.xlsx', await wb.xlsx.writeBuffer()));
      expect([out.length, out[0].match(/Row \d+/g)?.length]).toEqual([pages, firstPageRows]);
    },
  );

  // LibreOffice printed each of these on one page (60 to 317 rows "Row n", six columns on A4, title rows
  // repeated); a sheet with a print title row once spilled its last row onto a second page.
  test.each([
    [100, '1:1'],
    [200, '1:1'],
    [317, '1:1'],
    [150, '1:2'],
  ] as const)(
    'fit to 1 × 1 page with %i rows and print titles %s: one page, the last row on it',
    async (rows, titles) => {
      const wb = new ExcelJS.Workbook();
      const pageSetup = { paperSize: 9, fitToPage: true, fitToWidth: 1, fitToHeight: 1, printTitlesRow: titles };
      const ws = wb.addWorksheet('Titles', { pageSetup });
      for (let c = 1; c <= 6; c++) ws.getColumn(c).width = 14;
      for (let r = 1; r <= rows; r++) {
        ws.getCell(r, 1).value = r === 1 ? 'Title' : `Row ${r}`;
        ws.getCell(r, 6).value = `Z${r}`;
      }
      const pages = await texts(await convert(excelToPdf, 'titles.xlsx', await wb.xlsx.writeBuffer()));
      expect(pages).toHaveLength(1);
      expect(pages[0]).toContain(`Row ${rows} Z${rows}`);
    },
  );

  test.each([
    ['scale="50" fitToWidth="1" fitToHeight="0"', 6, '20x97'],
    ['fitToWidth="1" fitToHeight="1"', 15, '10x48'],
    ['scale="150"', 35, '6x32'],
  ] as const)(
    'without fitToPage, %s: %i pages (the fit counts are ignored, the scale applies)',
    async (setup, pages, firstPage) => {
      const out = await printed(false, setup);
      expect([out.pages, extent(out.firstPage)]).toEqual([pages, firstPage]);
    },
  );
});
