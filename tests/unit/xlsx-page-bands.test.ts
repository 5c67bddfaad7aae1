/**
 * A sheet wider than the paper prints in bands of columns, one band a page. Generated workbooks,
 * printed by LibreOffice 7.4 (`soffice --headless --convert-to pdf`, then `pdftotext -bbox`); the
 * figures in the comments are LibreOffice's.
 */
import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { PDFDocument } from 'pdf-lib';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { convert, pageContent } from '../support/office-pdf-helpers.ts';
import { popplerWordPages, type PopplerWord } from '../support/pdf.ts';

describe('Excel → PDF: columns printed on several pages', () => {
  test('a merged cell split between two pages is laid out across the whole merge, its text on both pages', async () => {
    // Twelve columns of width 12 on Letter between 0.7" margins: A–G on page 1, H–L on page 2.
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Split');
    for (let c = 1; c <= 12; c++) ws.getColumn(c).width = 12;
    for (let c = 1; c <= 12; c++) ws.getCell(1, c).value = `C${c}`;
    // G3:H3 with I3 filled: the text is cut at the merge's right edge (on page 2), not at G's (page 1's last).
    ws.getCell(3, 7).value = 'Alpha beta gamma delta epsilon zeta eta theta';
    ws.mergeCells(3, 7, 3, 8);
    ws.getCell(3, 9).value = 'next';
    // G4:J4, nothing after it: the text runs on; page 2 prints its rest, not the text again from its start.
    ws.getCell(4, 7).value = 'Iota kappa lambda mu nu xi omicron pi rho sigma';
    ws.mergeCells(4, 7, 4, 10);
    // G5:I5 right-aligned: aligned to I's right edge, on page 2.
    ws.getCell(5, 7).value = 'Right aligned merge';
    ws.mergeCells(5, 7, 5, 9);
    ws.getCell(5, 7).alignment = { horizontal: 'right' };
    const pages = popplerWordPages((await convert(excelToPdf, 'split.xlsx', await wb.xlsx.writeBuffer())).bytes);
    expect(pages).toHaveLength(2);
    const [one, two] = pages;
    const at = (page: PopplerWord[], text: string) => page.find((w) => w.text === text);

    // LibreOffice, page 1: "Alpha beta gamma delta epsilo" (delta 537.7–560.4, past G's right edge at 517.6),
    // "Iota … omicron" (xi from 567.6), "Right" from 559.0 ("Right aligned" up to the paper's edge).
    expect(at(one, 'delta')?.xMin).toBeCloseTo(537.7, -1);
    expect(at(one, 'xi')?.xMin).toBeCloseTo(567.6, -1);
    expect(at(one, 'Right')?.xMin).toBeCloseTo(559, -1);
    // Page 2: the rest of each text, its start off the page to the left: "kappa" from 4.9, "sigma" to
    // 205.6, "merge" to 182.3; no "Iota" or "Alpha" printed again.
    expect(at(two, 'Iota')).toBeUndefined();
    expect(at(two, 'Alpha')).toBeUndefined();
    expect(at(two, 'kappa')?.xMin).toBeCloseTo(4.9, -1);
    expect(at(two, 'sigma')?.xMax).toBeCloseTo(205.6, -1);
    expect(at(two, 'merge')?.xMax).toBeCloseTo(182.3, -1);
  });

  test('a picture wider than the page is printed on each page of columns it reaches', async () => {
    // exceljs writes a two-cell anchor (B2 to J20) without a size: the picture is as wide as B–I.
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Wide');
    for (let c = 1; c <= 12; c++) ws.getColumn(c).width = 12;
    ws.getCell('A1').value = 'Picture below';
    ws.addImage(wb.addImage({ buffer: RED_PNG as never, extension: 'png' }), 'B2:J20');
    const result = await convert(excelToPdf, 'picture.xlsx', await wb.xlsx.writeBuffer());
    // LibreOffice: 2 pages, "Picture below" and the picture's left part (B–G) on page 1, its rest (H–I) on page 2.
    // (Folio printed 1: the printed range reached the anchor cell only, the picture 48 pt a column.)
    const doc = await PDFDocument.load(result.bytes);
    expect(doc.getPageCount()).toBe(2);
    expect(await pageContent(result.bytes, 1)).toMatch(/\/[\w-]+ Do\b/);
  });

  test('a text running on over empty cells into the next page of columns prints its rest there', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Run on');
    for (let c = 1; c <= 12; c++) ws.getColumn(c).width = 12;
    for (let c = 1; c <= 12; c++) ws.getCell(1, c).value = `C${c}`;
    ws.getCell(4, 7).value = 'Iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon';
    // Stopped by H5 (page 2's first column): nothing of it on page 2.
    ws.getCell(5, 6).value = 'Alpha beta gamma delta epsilon zeta eta theta';
    ws.getCell(5, 8).value = 'stop';
    ws.getCell(7, 5).value = 'Phi chi psi omega and a long tail of words running on far to the right';
    const pages = popplerWordPages((await convert(excelToPdf, 'run-on.xlsx', await wb.xlsx.writeBuffer())).bytes);
    expect(pages).toHaveLength(2);
    const at = (page: PopplerWord[], text: string) => page.find((w) => w.text === text);
    // LibreOffice, page 2: "…a kappa lambda … upsilon" from off the left edge ("a" at -2.9, "kappa" at 4.9,
    // "upsilon" at 225.3), "of words running on far to the right" ("of" at -3.1, "right" at 134.2); none of
    // "Alpha … theta" and no "Iota" or "Phi". (Folio printed neither rest.)
    expect(at(pages[1], 'kappa')?.xMin).toBeCloseTo(4.9, -0.5);
    expect(at(pages[1], 'upsilon')?.xMin).toBeCloseTo(225.3, -0.5);
    expect(at(pages[1], 'right')?.xMin).toBeCloseTo(134.2, -0.5);
    for (const word of ['Iota', 'Phi', 'theta', 'Alpha']) expect(at(pages[1], word)).toBeUndefined();
  });
});

/** A 2 × 2 red PNG. */
const RED_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAwMDAAAEKAQHYcVJ8AAAAAElFTkSuQmCC'),
  (c) => c.charCodeAt(0),
);
