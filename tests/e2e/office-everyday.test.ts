/**
 * The third quality sweep's Office → PDF classes through the in-page /api in Chromium (the engine
 * workers of the built app), judged by poppler's text of the answer as LibreOffice 7.4 prints the same
 * files: Symbol-font characters, a VML text box and line numbers in Word, numbered paragraphs and a
 * table merged across columns in PowerPoint, a manual page break and a date format with a locale tag
 * in Excel; a floating table with text wrapping beside it, a double underline and an equation in Word.
 * The classes one by one are in tests/unit/office-everyday.test.ts (and docx-floating-tables,
 * office-underlines).
 */
import { expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import {
  Document,
  LineNumberRestartFormat,
  Math as Equation,
  MathFraction,
  MathRun,
  Packer,
  Paragraph,
  RelativeHorizontalPosition,
  SymbolRun,
  Table,
  TableAnchorType,
  TableCell,
  TableRow,
  Textbox,
  TextRun,
  UnderlineType,
  WidthType,
} from 'docx';
import { sharedBrowser } from './harness.ts';
import { pageWithApi, postInPage } from './page-api.ts';
import { popplerText, popplerTextWith, popplerWords } from '../support/pdf.ts';
import { pdfPageRaster } from '../support/images.ts';
import { underInk, UNDERLINE_DPI } from '../support/underline-ink.ts';

const shared = sharedBrowser();

/** pdftotext -layout: words where they stand on the page. */
const layoutText = (bytes: Uint8Array) => popplerTextWith(bytes, ['-layout']);

const pages = (bytes: Uint8Array) =>
  popplerText(bytes)
    .split('\f')
    .filter((page) => page.trim())
    .map((page) => page.replace(/\s+/g, ' ').trim());

test('Word: Symbol-font characters, small capitals and a VML text box', async () => {
  const docx = await Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({
              children: [
                new TextRun('Angle '),
                new SymbolRun({ char: 'F061', symbolfont: 'Symbol' }),
                new TextRun(' at most 5'),
                new SymbolRun({ char: 'F0B0', symbolfont: 'Symbol' }),
                new TextRun(' done '),
                new SymbolRun({ char: 'F0FC', symbolfont: 'Wingdings' }),
              ],
            }),
            new Paragraph({ children: [new TextRun({ text: 'Small caps', smallCaps: true })] }),
            new Textbox({
              style: { width: '200pt', height: '60pt', position: 'absolute', marginLeft: '200pt', marginTop: '150pt' },
              children: [new Paragraph('Boxed words inside')],
            }),
          ],
        },
      ],
    }),
  );
  const { page, context } = await pageWithApi(shared.browser, 'word-to-pdf');
  const answer = await postInPage(page, '/api/pdf/fromWord', [['file', 'everyday.docx', new Uint8Array(docx)]]);
  await context.close();
  expect(answer.status, answer.text).toBe(200);
  const [text] = pages(answer.bytes);
  expect(text).toContain('Angle α at most 5° done ✓');
  expect(text).toContain('SMALL CAPS');
  expect(text).toContain('Boxed words inside');
  expect(answer.notes.join(' ')).not.toMatch(/VML/);
});

test('Word: line numbers in the margin, every second line, restarting on each page', async () => {
  const docx = await Packer.toBuffer(
    new Document({
      sections: [
        {
          properties: { lineNumbers: { countBy: 2, restart: LineNumberRestartFormat.NEW_PAGE } },
          children: Array.from({ length: 90 }, (_, i) => new Paragraph(`Line ${i + 1} of the contract`)),
        },
      ],
    }),
  );
  const { page, context } = await pageWithApi(shared.browser, 'word-to-pdf');
  const answer = await postInPage(page, '/api/pdf/fromWord', [['file', 'numbered.docx', new Uint8Array(docx)]]);
  await context.close();
  expect(answer.status, answer.text).toBe(200);
  const [first, second] = layoutText(answer.bytes).split('\f');
  const rows = (text: string) => text.split('\n').filter((row) => row.includes('of the contract'));
  // As LibreOffice prints it: the number on its line's baseline, left of the text, even lines only.
  expect(
    rows(first)
      .slice(0, 4)
      .map((row) => row.trim().replace(/\s+/g, ' ')),
  ).toEqual([
    'Line 1 of the contract',
    '2 Line 2 of the contract',
    'Line 3 of the contract',
    '4 Line 4 of the contract',
  ]);
  expect(rows(second)[1].trim()).toMatch(/^2\s+Line \d+ of the contract$/);
  expect(answer.notes.join(' ')).not.toMatch(/line numbers/);
});

test('Word: headings and lists spaced as Word spaces them (the larger spacing; none inside a list)', async () => {
  const docx = await Packer.toBuffer(
    new Document({
      styles: {
        paragraphStyles: [
          { id: 'Head', name: 'Head', run: { bold: true }, paragraph: { spacing: { before: 240, after: 0 } } },
          { id: 'Body', name: 'Body', paragraph: { spacing: { after: 160 } } },
          {
            id: 'ListPara',
            name: 'List Paragraph',
            paragraph: { spacing: { after: 160 }, contextualSpacing: true, indent: { left: 720 } },
          },
        ],
      },
      sections: [
        {
          children: Array.from({ length: 30 }, (_, i) => [
            new Paragraph({ style: 'Head', text: `Heading ${i + 1}` }),
            new Paragraph({ style: 'Body', text: `Body of part ${i + 1}` }),
            ...[1, 2, 3].map((n) => new Paragraph({ style: 'ListPara', text: `Point ${n} of part ${i + 1}` })),
          ]).flat(),
        },
      ],
    }),
  );
  const { page, context } = await pageWithApi(shared.browser, 'word-to-pdf');
  const answer = await postInPage(page, '/api/pdf/fromWord', [['file', 'spacing.docx', new Uint8Array(docx)]]);
  await context.close();
  expect(answer.status, answer.text).toBe(200);
  // LibreOffice 7.4 prints nine parts a page, four pages; with both spacings added it was seven, five pages.
  const headings = pages(answer.bytes).map((text) => text.match(/Heading \d+/g) ?? []);
  expect(headings.map((list) => list.length)).toEqual([9, 9, 9, 3]);
});

test('PowerPoint: numbered paragraphs and a table merged across columns', async () => {
  const pptx = new PptxGenJS();
  const numbered = (text: string, indentLevel = 0, style = 'arabicPeriod') => ({
    text,
    options: { bullet: { type: 'number' as const, style }, indentLevel },
  });
  pptx
    .addSlide()
    .addText([numbered('First step'), numbered('Option one', 1, 'alphaLcParenR'), numbered('Second step')], {
      x: 0.5,
      y: 0.3,
      w: 8,
      h: 2,
      fontSize: 14,
      valign: 'top',
    });
  pptx.addSlide().addTable(
    [
      [{ text: 'Region' }, { text: 'Q1' }, { text: 'Q2' }],
      [{ text: 'Both quarters', options: { colspan: 2 } }, { text: 'Total7' }],
    ],
    { x: 0.5, y: 0.5, w: 6, colW: [2, 2, 2] },
  );
  const { page, context } = await pageWithApi(shared.browser, 'ppt-to-pdf');
  const answer = await postInPage(page, '/api/pdf/fromPowerPoint', [
    ['file', 'everyday.pptx', (await pptx.write({ outputType: 'uint8array' })) as Uint8Array],
  ]);
  await context.close();
  expect(answer.status, answer.text).toBe(200);
  // (Poppler's raw order lists a column of markers before the text, for LibreOffice's PDF too: lines, as laid out.)
  const layout = layoutText(answer.bytes).split('\f');
  const lines = (page: string) =>
    page
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .filter(Boolean);
  expect(lines(layout[0])).toEqual(['1. First step', 'a) Option one', '2. Second step']);
  // "Total7" is in the third column, under Q2 (it was a fourth column's, outside the table).
  const tableLines = layout[1].split('\n');
  const column = (word: string) => tableLines.find((line) => line.includes(word))?.indexOf(word);
  expect(column('Total7')).toBe(column('Q2'));
});

test('Excel: a manual page break and German date formats', async () => {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Report');
  const date = sheet.addRow([new Date(Date.UTC(2024, 2, 5)), new Date(Date.UTC(2024, 2, 5))]);
  date.getCell(1).numFmt = '[$-407]dd.mm.yyyy';
  // Month and weekday names in the tag's language (the engine worker's Intl data), as LibreOffice prints them.
  date.getCell(2).numFmt = '[$-407]dddd, d. mmmm yyyy';
  sheet.getColumn(1).width = 14;
  sheet.getColumn(2).width = 30;
  for (let i = 2; i <= 30; i++) sheet.addRow([`Row ${i}`]);
  sheet.getRow(10).addPageBreak();
  const { page, context } = await pageWithApi(shared.browser, 'excel-to-pdf');
  const answer = await postInPage(page, '/api/pdf/fromExcel', [
    ['file', 'everyday.xlsx', new Uint8Array(await workbook.xlsx.writeBuffer())],
  ]);
  await context.close();
  expect(answer.status, answer.text).toBe(200);
  const printed = pages(answer.bytes);
  expect(printed).toHaveLength(2);
  expect(printed[0]).toMatch(/^05\.03\.2024 Row 2 .* Row 10\b/);
  expect(printed[0]).toContain('Dienstag, 5. März 2024');
  expect(printed[1]).toMatch(/^Row 11 .* Row 30$/);
});

test('Word: a floating table with the text wrapping beside it, a double underline, an equation', async () => {
  // The classes of tests/unit/docx-floating-tables.test.ts and office-underlines.test.ts, in the engine worker.
  const words = Array.from({ length: 120 }, (_, i) => `w${i + 1}`).join(' ');
  const floating = new Table({
    width: { size: 2880, type: WidthType.DXA },
    columnWidths: [1440, 1440],
    float: {
      horizontalAnchor: TableAnchorType.MARGIN,
      verticalAnchor: TableAnchorType.TEXT,
      relativeHorizontalPosition: RelativeHorizontalPosition.RIGHT,
      leftFromText: 180,
      bottomFromText: 180,
    },
    rows: [0, 1, 2].map(
      (r) =>
        new TableRow({
          children: [0, 1].map(
            (c) =>
              new TableCell({ width: { size: 1440, type: WidthType.DXA }, children: [new Paragraph(`cell${r}${c}`)] }),
          ),
        }),
    ),
  });
  const docx = await Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            new Paragraph('Intro paragraph before.'),
            floating,
            new Paragraph(words),
            new Paragraph({
              spacing: { before: 240 },
              children: [new TextRun({ text: 'TOTAL', size: 48, underline: { type: UnderlineType.DOUBLE } })],
            }),
            new Paragraph({
              spacing: { before: 480 },
              children: [
                new Equation({
                  children: [
                    new MathRun('y='),
                    new MathFraction({ numerator: [new MathRun('top')], denominator: [new MathRun('bottom')] }),
                  ],
                }),
              ],
            }),
          ],
        },
      ],
    }),
  );
  const { page, context } = await pageWithApi(shared.browser, 'word-to-pdf');
  const answer = await postInPage(page, '/api/pdf/fromWord', [['file', 'wrapped.docx', new Uint8Array(docx)]]);
  await context.close();
  expect(answer.status, answer.text).toBe(200);
  const found = popplerWords(answer.bytes);
  const word = (text: string) => found.find((w) => w.text === text)!;
  // As LibreOffice 7.4 prints it: the table's first cell at (384.8, 83.9), lines beside it from w1,
  // w18, w33, w48, then full lines from w63 and w86.
  expect(Math.abs(word('cell00').xMin - 384.8)).toBeLessThan(1.5);
  const lineStarts = found.filter((w) => /^w\d+$/.test(w.text) && w.xMin < 73).map((w) => w.text);
  expect(lineStarts).toEqual(['w1', 'w18', 'w33', 'w48', 'w63', 'w86', 'w107']);
  const raster = await pdfPageRaster(answer.bytes, 1, UNDERLINE_DPI);
  expect(underInk(raster, word('TOTAL')).bands).toHaveLength(2);
  // An equation (OMML): its fraction's numerator over its denominator, "y =" between them.
  expect(word('bottom').yMin).toBeGreaterThan(word('top').yMax - 1);
  expect(word('y').yMin).toBeGreaterThan(word('top').yMin);
  expect(word('y').yMax).toBeLessThan(word('bottom').yMax);
});
