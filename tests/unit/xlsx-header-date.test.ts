/**
 * The date and time fields of Excel page headers and footers (&D, &T). Generated workbooks printed by
 * LibreOffice 7.4 (`soffice --headless --convert-to pdf` in en-US, then `pdftotext -bbox`).
 */
import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { parseExcelHeaderFooter } from '../../workers/engine/lib/office-to-pdf/sheet-furniture.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerText } from '../support/pdf.ts';

const regionText = (blocks: ReturnType<typeof parseExcelHeaderFooter>[number]) =>
  blocks
    .flatMap((block) => (block.kind === 'paragraph' ? block.inlines : []))
    .map((inline) => (inline.kind === 'text' ? inline.text : ''))
    .join('');

describe('Excel → PDF: &D and &T in headers and footers', () => {
  test('are written in the locale, with seconds on a 24-hour clock, as LibreOffice writes them', () => {
    const now = new Date(2026, 10, 27, 7, 21, 24);
    const base = { font: 'Calibri', size: 11 };
    const [left, , right] = parseExcelHeaderFooter('&LDate &D&RTime &T', {
      sheetName: 'S',
      fileName: 'f.xlsx',
      base,
      now,
      locale: 'en-US',
    });
    // LibreOffice in en-US: "Date 11/27/2026" and "Time 07:21:24". (Folio wrote "27/11/2026" and "07:21" whatever
    // the locale.)
    expect(regionText(left)).toBe('Date 11/27/2026');
    expect(regionText(right)).toBe('Time 07:21:24');
    const german = parseExcelHeaderFooter('&D &T', { sheetName: 'S', fileName: 'f.xlsx', base, now, locale: 'de-DE' });
    expect(regionText(german[1])).toBe('27.11.2026 07:21:24');
    // A locale the runtime does not know falls back to its own rather than failing.
    expect(() =>
      parseExcelHeaderFooter('&D', { sheetName: 'S', fileName: '', base, now, locale: 'xx-!!' }),
    ).not.toThrow();
  });

  test("the workbook's language does not change them (the printing machine's locale does)", async () => {
    const printed = async (language?: string) => {
      const wb = new ExcelJS.Workbook();
      if (language) (wb as { language?: string }).language = language; // (exceljs writes dc:language, undeclared)
      wb.addWorksheet('Dated').getCell('A1').value = 'Body';
      wb.getWorksheet('Dated')!.headerFooter.oddHeader = '&LDate &D';
      const text = popplerText((await convert(excelToPdf, 'dated.xlsx', await wb.xlsx.writeBuffer())).bytes);
      return /Date (\S+)/.exec(text)?.[1];
    };
    // LibreOffice in en-US: "11/27/2026" for a workbook with dc:language de-DE and for one without.
    const own = await printed();
    expect(own).toMatch(/\d/);
    expect(await printed('de-DE')).toBe(own);
  });
});
