/**
 * Underline kinds (Word's w:u, PowerPoint's u, ODF's text-underline-*): every kind was drawn as one
 * thin line in the text's colour, so a double-underlined total, a dotted blank to fill in or a red
 * wavy mark printed as a plain underline. Judged on poppler's drawing of the PDF: the ink under each
 * word (capitals, no descenders, so all ink below the letters is the underline).
 */
import { describe, expect, test } from 'vitest';
import { Document, Packer, Paragraph, TextRun, UnderlineType } from 'docx';
import PptxGenJS from 'pptxgenjs';
import ExcelJS from 'exceljs';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerWords } from '../support/pdf.ts';
import { pdfPageRaster, popplerPresent } from '../support/images.ts';
import { bandHeight as height, underInk, UNDERLINE_DPI as DPI } from '../support/underline-ink.ts';

describe.skipIf(!popplerPresent())('underline kinds, as drawn', () => {
  test('Word: single, double, thick, dotted, dashed, wave, words only, coloured', async () => {
    const line = (
      text: string,
      underline: { type: (typeof UnderlineType)[keyof typeof UnderlineType]; color?: string },
    ) =>
      new Paragraph({ spacing: { after: 240 }, children: [new TextRun({ text, size: 48, font: 'Arial', underline })] });
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              line('SINGLE', { type: UnderlineType.SINGLE }),
              line('DOUBLE', { type: UnderlineType.DOUBLE }),
              line('THICK', { type: UnderlineType.THICK }),
              line('DOTTED', { type: UnderlineType.DOTTED }),
              line('DASHED', { type: UnderlineType.DASH }),
              line('WAVE', { type: UnderlineType.WAVE }),
              line('WORDS ONLY', { type: UnderlineType.WORDS }),
              line('RED', { type: UnderlineType.SINGLE, color: 'FF0000' }),
            ],
          },
        ],
      }),
    );
    const pdf = (await convert(wordToPdf, 'underlines.docx', bytes)).bytes;
    const words = popplerWords(pdf);
    const word = (text: string) => words.find((w) => w.text === text)!;
    const raster = await pdfPageRaster(pdf, 1, DPI);
    const ink = (text: string) => underInk(raster, word(text));

    const single = ink('SINGLE');
    expect(single.bands).toHaveLength(1);
    expect(single.covered).toBeGreaterThan(0.95);

    // Two lines with a gap, where the plain line is one band.
    expect(ink('DOUBLE').bands).toHaveLength(2);
    expect(height(ink('THICK').bands[0])).toBeGreaterThanOrEqual(height(single.bands[0]) * 1.7);

    // Broken lines: about half the columns inked for dots, about two thirds for dashes.
    const dotted = ink('DOTTED');
    expect(dotted.bands).toHaveLength(1);
    expect(dotted.covered).toBeGreaterThan(0.35);
    expect(dotted.covered).toBeLessThan(0.65);
    const dashed = ink('DASHED');
    expect(dashed.covered).toBeGreaterThan(0.55);
    expect(dashed.covered).toBeLessThan(0.8);

    // A wave spans several line thicknesses in height, yet no column is inked over all of it.
    const wave = ink('WAVE');
    expect(wave.covered).toBeGreaterThan(0.95);
    expect(height(wave.bands[0])).toBeGreaterThanOrEqual(height(single.bands[0]) * 2.5);
    expect(wave.tallestColumn).toBeLessThan(height(wave.bands[0]));

    // Words only: under both words, not under the space between them.
    const [first, second] = [word('WORDS'), word('ONLY')];
    expect(underInk(raster, first).bands).toHaveLength(1);
    expect(underInk(raster, second).bands).toHaveLength(1);
    expect(underInk(raster, first, [first.xMax + 1, second.xMin - 1]).covered).toBe(0);

    // The underline's own colour (w:u w:color), the letters staying black.
    const [r, g, b] = ink('RED').color;
    expect(r).toBeGreaterThan(200);
    expect(g + b).toBeLessThan(120);
  });

  test('PowerPoint: u="dbl", u="wavy"', async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    const box = { w: 8, h: 1, fontSize: 28, fontFace: 'Arial' };
    slide.addText([{ text: 'DOUBLE', options: { underline: { style: 'dbl' } } }], { ...box, x: 0.5, y: 0.5 });
    slide.addText([{ text: 'WAVE', options: { underline: { style: 'wavy' } } }], { ...box, x: 0.5, y: 2 });
    slide.addText([{ text: 'SINGLE', options: { underline: { style: 'sng' } } }], { ...box, x: 0.5, y: 3.5 });
    const bytes = new Uint8Array((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer);
    const pdf = (await convert(pptToPdf, 'underlines.pptx', bytes)).bytes;
    const words = popplerWords(pdf);
    const raster = await pdfPageRaster(pdf, 1, DPI);
    const ink = (text: string) =>
      underInk(
        raster,
        words.find((w) => w.text === text)!,
      );
    expect(ink('SINGLE').bands).toHaveLength(1);
    expect(ink('DOUBLE').bands).toHaveLength(2);
    expect(ink('WAVE').tallestColumn).toBeLessThan(height(ink('WAVE').bands[0]));
  });

  test('Excel: a double and an accounting underline (font u="double", "singleAccounting")', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Totals');
    sheet.getColumn(1).width = 30;
    const cells: Array<[string, ExcelJS.Font['underline']]> = [
      ['SINGLE', true],
      ['DOUBLE', 'double'],
      ['ACCOUNT', 'singleAccounting'],
    ];
    cells.forEach(([text, underline], i) => {
      const cell = sheet.getCell(i * 2 + 1, 1);
      cell.value = text;
      cell.font = { name: 'Arial', size: 24, underline };
      sheet.getRow(i * 2 + 1).height = 40;
    });
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const pdf = (await convert(excelToPdf, 'totals.xlsx', bytes)).bytes;
    const words = popplerWords(pdf);
    const raster = await pdfPageRaster(pdf, 1, DPI);
    const ink = (text: string) =>
      underInk(
        raster,
        words.find((w) => w.text === text)!,
      );
    expect(ink('SINGLE').bands).toHaveLength(1);
    expect(ink('DOUBLE').bands).toHaveLength(2);
    expect(ink('ACCOUNT').bands).toHaveLength(1);
  });
});
