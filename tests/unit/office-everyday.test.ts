/**
 * Office → PDF on constructs everyday documents have (the third quality sweep, docs/quality-sweep.md):
 * each input is generated here and the PDF judged by its content, as LibreOffice 7.4 prints the same file.
 */
import { describe, expect, test } from 'vitest';
import PptxGenJS from 'pptxgenjs';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import {
  BorderStyle,
  Document,
  ExternalHyperlink,
  Footer,
  Header,
  ImageRun,
  LineNumberRestartFormat,
  NumberFormat,
  Packer,
  PageBorderDisplay,
  PageBorderOffsetFrom,
  PageBreak,
  PageNumber,
  Paragraph,
  SectionType,
  SimpleField,
  SymbolRun,
  Table,
  TableCell,
  TableRow,
  Textbox,
  TextRun,
  VerticalAlignSection,
  type IParagraphOptions,
} from 'docx';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { displayText } from '../../workers/engine/lib/office-to-pdf/xlsx.ts';
import { listNumber } from '../../workers/engine/lib/office-to-pdf/list-numbers.ts';
import { readDocx } from '../../workers/engine/lib/office-to-pdf/docx/index.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { convert, texts } from '../support/office-pdf-helpers.ts';
import { popplerWordPages, popplerWords } from '../support/pdf.ts';
import { pdfPageRaster } from '../support/images.ts';
import { createCanvas } from '@napi-rs/canvas';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function textItems(bytes: Uint8Array, pageNumber = 1) {
  const doc = await openPdfjs(bytes);
  const page = await doc.getPage(pageNumber);
  return (await page.getTextContent()).items.flatMap((i) =>
    'str' in i && i.str.trim()
      ? [{ text: i.str.trim(), x: i.transform[4] as number, y: i.transform[5] as number }]
      : [],
  );
}

describe('Excel number formats with a locale tag', () => {
  // The date was printed as 2024-03-05 because the tag's digits were taken for digit placeholders;
  // then its month and weekday names were English whatever the tag ("5 de March de 2024"). Expected:
  // what LibreOffice 7.4 prints for the same cells (soffice --convert-to pdf of a workbook of them).
  const march5 = new Date(Date.UTC(2024, 2, 5));
  test.each([
    ['[$-407]d. mmmm yyyy', '5. März 2024'],
    ['[$-407]dd. mmm yy', '05. Mär 24'],
    ['[$-407]dddd, d. mmmm yyyy', 'Dienstag, 5. März 2024'],
    ['[$-40C]ddd d mmm', 'mar. 5 mars'],
    ['[$-C0A]d "de" mmmm "de" yyyy', '5 de marzo de 2024'],
    // Polish and Russian months take the genitive beside a day, not without one.
    ['[$-415]d mmmm yyyy', '5 marca 2024'],
    ['[$-415]mmmm yyyy', 'marzec 2024'],
    ['[$-419]d mmmm yyyy', '5 марта 2024'],
    ['[$-411]yyyy"年"m"月"d"日" dddd', '2024年3月5日 火曜日'],
    ['[$-410]dddd d mmmm yyyy', 'martedì 5 marzo 2024'],
    ['[$-407]mmmmm', 'M'],
    ['[$-407]d. mmmm yyyy;@', '5. März 2024'], // Excel's own: a text section after the date's
    ['[$-409]mmmm d, yyyy', 'March 5, 2024'],
    ['[$-407]dd.mm.yyyy', '05.03.2024'],
    ['[$-1010407]dd.mm.yy', '05.03.24'],
    ['dd.mm.yyyy', '05.03.2024'],
    ['[$-F800]dddd, mmmm dd, yyyy', 'Tuesday, March 05, 2024'],
  ])('%s', (format, shown) => {
    expect(displayText(march5, format).text).toBe(shown);
  });
  test('a currency tag with a point in the number stays a number format', () => {
    expect(displayText(1234.5, '#,##0.00 [$€-407]').text).toBe('1,234.50 €');
  });
});

describe('PowerPoint table cells merged across columns', () => {
  // PowerPoint lists a covered cell (hMerge) in the column its neighbour's gridSpan counts: it was
  // counted again, so every cell right of a merge moved one column on, the last one outside the table.
  const cell = (text: string, options: PptxGenJS.TableCellProps = {}) => ({ text, options });
  test('the cells after a merged cell stay in their columns, inside the table', async () => {
    const pptx = new PptxGenJS();
    pptx.layout = 'LAYOUT_16x9';
    pptx
      .addSlide()
      .addTable(
        [
          [cell('Region'), cell('Q1'), cell('Q2')],
          [cell('Both quarters', { colspan: 2 }), cell('Total7')],
          [cell('Block', { colspan: 2, rowspan: 2 }), cell('Right8')],
          [cell('Right9')],
        ],
        { x: 0.5, y: 0.5, w: 6, colW: [2, 2, 2], border: { type: 'solid', pt: 1, color: '333333' } },
      );
    const pptxBytes = (await pptx.write({ outputType: 'uint8array' })) as Uint8Array;
    const result = await convert(pptToPdf, 'merged.pptx', pptxBytes);
    const items = await textItems(result.bytes);
    const x = (text: string) => items.find((item) => item.text === text)?.x;
    // The third column starts 0.5 + 4 in from the slide's left edge; the table ends at 6.5 in.
    for (const text of ['Q2', 'Total7', 'Right8', 'Right9']) {
      expect(x(text), text).toBeGreaterThan(4.5 * 72);
      expect(x(text), text).toBeLessThan(5 * 72);
    }
  });
});

describe('Word symbol fonts and small capitals', () => {
  const docx = (children: Paragraph[]) => Packer.toBuffer(new Document({ sections: [{ children }] }));

  // Insert › Symbol writes w:sym with the font's code: Symbol's F061 is α, F0B3 ≥, Wingdings' F0FC a check
  // mark. Every one was printed as a bullet "•"; text typed in the Symbol font printed its Latin letters.
  test('w:sym and text in the Symbol font print the characters the font draws', async () => {
    const bytes = await docx([
      new Paragraph({
        children: [
          new TextRun('Angle '),
          new SymbolRun({ char: 'F061', symbolfont: 'Symbol' }),
          new TextRun(' at most 5'),
          new SymbolRun({ char: 'F0B0', symbolfont: 'Symbol' }),
          new TextRun(', x '),
          new SymbolRun({ char: 'F0B3', symbolfont: 'Symbol' }),
          new TextRun(' 2, done '),
          new SymbolRun({ char: 'F0FC', symbolfont: 'Wingdings' }),
        ],
      }),
      new Paragraph({ children: [new TextRun('Sum: '), new TextRun({ text: 'Sp', font: 'Symbol' })] }),
    ]);
    const [page] = await texts(await convert(wordToPdf, 'symbols.docx', bytes));
    expect(page).toContain('Angle α at most 5°, x ≥ 2, done ✓');
    expect(page).toContain('Sum: Σπ');
    expect(page).not.toContain('•');
  });

  test('small capitals are capitals, the lower-case letters smaller (the text was printed in lower case)', async () => {
    const bytes = await docx([
      new Paragraph({ children: [new TextRun({ text: 'Small Caps', smallCaps: true, size: 40 })] }),
    ]);
    const result = await convert(wordToPdf, 'smallcaps.docx', bytes);
    expect((await texts(result))[0]).toBe('SMALL CAPS');
    const doc = await openPdfjs(result.bytes);
    const items = (await (await doc.getPage(1)).getTextContent()).items.flatMap((i) =>
      'str' in i && i.str.trim() ? [{ text: i.str, size: Math.hypot(i.transform[0], i.transform[1]) }] : [],
    );
    const sizeOf = (letters: string) => items.find((item) => item.text.includes(letters))?.size;
    expect(sizeOf('S')).toBeCloseTo(20, 1);
    expect(sizeOf('MALL')).toBeCloseTo(16, 1);
  });
});

describe('a chart whose series have no categories', () => {
  // Excel numbers the categories 1, 2, 3… (a chart sheet made from a row of numbers has no c:cat);
  // the axis was left without labels.
  test('the category axis is labelled 1, 2, 3', async () => {
    const pptx = new PptxGenJS();
    pptx
      .addSlide()
      .addChart(pptx.ChartType.bar, [{ name: 'Sales', labels: ['a', 'b', 'c'], values: [100, 200, 300] }], {
        x: 0.5,
        y: 0.5,
        w: 8,
        h: 4,
      });
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'uint8array' })) as Uint8Array);
    const chartPath = Object.keys(zip.files).find((name) => /^ppt\/charts\/chart\d+\.xml$/.test(name))!;
    const chart = await zip.file(chartPath)!.async('string');
    expect(chart).toContain('<c:cat>');
    zip.file(chartPath, chart.replace(/<c:cat>[\s\S]*?<\/c:cat>/g, ''));
    const result = await convert(pptToPdf, 'chart.pptx', await zip.generateAsync({ type: 'uint8array' }));
    const labels = (await textItems(result.bytes)).map((item) => item.text);
    expect(labels).toEqual(expect.arrayContaining(['1', '2', '3']));
    expect(labels).not.toContain('a');
  });
});

describe('Excel printed gridlines (printOptions gridLines)', () => {
  // Page Layout › Sheet Options › Gridlines › Print: Excel and LibreOffice print thin lines around every
  // cell of the printed range (not inside a merged cell); Folio printed none. Judged on pdftoppm's
  // drawing at 72 dpi: the rows found down the grid's left edge, the lines across each row's middle.
  test('lines around every cell, none inside merged cells', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('List', { pageSetup: { showGridLines: true } });
    sheet.getCell('A1').value = 'Title';
    for (let r = 2; r <= 4; r++) sheet.getRow(r).values = [`Item ${r}`, r, r * 2];
    sheet.mergeCells('A5:C5'); // across: no lines between its columns
    sheet.mergeCells('B7:B8'); // down: no line between its rows
    sheet.getCell('C9').value = 'end';
    const { bytes: pdf } = await convert(excelToPdf, 'grid.xlsx', await workbook.xlsx.writeBuffer());
    const { width, height, data } = await pdfPageRaster(pdf, 1, 72);
    const dark = (x: number, y: number) => data[(y * width + x) * 4] < 128;
    const ys = [...Array(height).keys()];
    const xs = [...Array(width).keys()];
    // The grid's outer edges: the columns of pixels with a long dark run; its rows: lines across most of it.
    const verticals = xs.filter((x) => ys.filter((y) => dark(x, y)).length > 100);
    const [left, right] = [verticals[0], verticals[verticals.length - 1]];
    const across = (y: number) => xs.filter((x) => x >= left && x <= right && dark(x, y)).length;
    const edges = ys.filter((y) => across(y) > 0.6 * (right - left) && across(y - 1) <= 0.6 * (right - left));
    expect(edges).toHaveLength(10); // 9 rows
    // The vertical lines through row i: columns of pixels dark from its top edge to its bottom one (text never is).
    const through = (i: number, x: number) => ys.slice(edges[i] + 2, edges[i + 1] - 1).every((y) => dark(x, y));
    const lines = (i: number) => xs.filter((x) => x >= left && through(i, x) && !through(i, x - 1));
    expect(edges.slice(0, -1).map((_, i) => lines(i).length)).toEqual([4, 4, 4, 4, 2, 4, 4, 4, 4]);
    // Between rows 7 and 8, under column B: no line (the merge); under A and C: the line.
    const [a, b, c, d] = lines(5);
    const lineAt = (x: number) => [-1, 0, 1].some((dy) => dark(x, edges[7] + dy));
    const middle = (x1: number, x2: number) => Math.round((x1 + x2) / 2);
    expect([lineAt(middle(a, b)), lineAt(middle(b, c)), lineAt(middle(c, d))]).toEqual([true, false, true]);
  });
});

describe('Excel first page number (Page Setup › First page number)', () => {
  // A sheet set to start at page 7: LibreOffice 7.4 prints "Page 7 of 4" … "Page 9 of 4", the next
  // sheet "Page 10 of 4" (&N is the file's page count); Folio printed 1, 2, 3, 4.
  test('the sheet is numbered from it, the next sheet counts on', async () => {
    const workbook = new ExcelJS.Workbook();
    const footer = { oddFooter: '&CPage &P of &N' };
    const first = workbook.addWorksheet('Report', {
      pageSetup: { firstPageNumber: 7 } as Partial<ExcelJS.PageSetup>,
      headerFooter: footer,
    });
    for (let i = 1; i <= 120; i++) first.addRow([`Row ${i}`]);
    workbook.addWorksheet('Next', { headerFooter: footer }).addRow(['Second sheet']);
    const pages = await texts(await convert(excelToPdf, 'first.xlsx', await workbook.xlsx.writeBuffer()));
    expect(pages.map((page) => /Page \d+ of \d+/.exec(page)?.[0])).toEqual([
      'Page 7 of 4',
      'Page 8 of 4',
      'Page 9 of 4',
      'Page 10 of 4',
    ]);
  });
});

describe('Excel manual page breaks', () => {
  // Page Layout › Breaks › Insert Page Break: LibreOffice starts a page at each; Folio ignored them
  // (a report of 100 rows broken after row 50 printed rows 46–90 on its second page).
  test('a page starts at each manual break, print titles repeated; fitting to one page tall ignores them', async () => {
    const build = async (fit: boolean) => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Report');
      sheet.addRow(['Title row']);
      for (let i = 2; i <= 100; i++) sheet.addRow([`Row ${i}`]);
      sheet.getRow(20).addPageBreak();
      sheet.getRow(30).hidden = true;
      sheet.getRow(29).addPageBreak(); // the next page starts at the next row printed, 31
      sheet.pageSetup.printTitlesRow = '1:1';
      if (fit) Object.assign(sheet.pageSetup, { fitToPage: true, fitToWidth: 1, fitToHeight: 1 });
      return new Uint8Array(await workbook.xlsx.writeBuffer());
    };
    const pages = await texts(await convert(excelToPdf, 'breaks.xlsx', await build(false)));
    const rowNumbers = (page: string) => [...page.matchAll(/Row (\d+)/g)].map((match) => Number(match[1]));
    // LibreOffice: rows 2–20, 21–29, 31–74, 75–100.
    expect(pages.map((page) => rowNumbers(page)[0])).toEqual([2, 21, 31, 75]);
    expect(rowNumbers(pages[0]).at(-1)).toBe(20);
    expect(rowNumbers(pages[1]).at(-1)).toBe(29);
    expect(pages.every((page) => page.startsWith('Title row'))).toBe(true);
    // (Fitted to one page tall LibreOffice prints one page; Folio's scale leaves row 100 over: not this test's matter.)
    const [fitted] = await texts(await convert(excelToPdf, 'fit.xlsx', await build(true)));
    expect(rowNumbers(fitted).slice(0, 30)).toEqual([...range(2, 29), 31, 32]);
  });
});

describe('PowerPoint numbered paragraphs', () => {
  // a:buAutoNum was printed as a bullet "•": the numbers of a numbered list were lost.
  test('numbers count per level, an outer paragraph restarts the inner ones, startAt is honoured', async () => {
    const pptx = new PptxGenJS();
    const numbered = (text: string, indentLevel = 0, style = 'arabicPeriod', numberStartAt?: number) => ({
      text,
      options: { bullet: { type: 'number', style, numberStartAt }, indentLevel },
    });
    pptx
      .addSlide()
      .addText(
        [
          numbered('First step'),
          numbered('Second step'),
          { text: 'A bullet under it', options: { bullet: true, indentLevel: 1 } },
          numbered('Third step'),
          numbered('Option one', 1, 'alphaLcParenR'),
          numbered('Option two', 1, 'alphaLcParenR'),
          numbered('Fourth step'),
          numbered('Option again', 1, 'alphaLcParenR'),
          numbered('Chapter five', 0, 'romanUcPeriod', 5),
        ] as PptxGenJS.TextProps[],
        { x: 0.5, y: 0.3, w: 8, h: 5, fontSize: 14, valign: 'top' },
      );
    const [page] = await texts(
      await convert(pptToPdf, 'numbered.pptx', (await pptx.write({ outputType: 'uint8array' })) as Uint8Array),
    );
    expect(page).toMatch(
      /^1\. ?First step 2\. ?Second step • ?A bullet under it 3\. ?Third step a\) ?Option one b\) ?Option two 4\. ?Fourth step a\) ?Option again V\. ?Chapter five$/,
    );
  });
});

describe('Word VML text boxes', () => {
  // The docx library, older Word files and converters write text boxes as VML (w:pict › v:shape ›
  // v:textbox): their text was left out with a note ("legacy VML drawings were left out").
  test("a text box's text is printed inside it, where its style places it", async () => {
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph('Before the box'),
              new Textbox({
                style: {
                  width: '200pt',
                  height: '60pt',
                  position: 'absolute',
                  marginLeft: '200pt',
                  marginTop: '150pt',
                },
                children: [new Paragraph('Boxed words inside')],
              }),
              new Paragraph('After the box'),
            ],
          },
        ],
      }),
    );
    const result = await convert(wordToPdf, 'textbox.docx', bytes);
    expect(result.notes ?? []).not.toContain(expect.stringMatching(/VML/));
    const items = await textItems(result.bytes);
    const boxed = items.find((item) => item.text.startsWith('Boxed words inside'));
    const before = items.find((item) => item.text === 'Before the box');
    // The page's left margin is 72 pt; the box starts 200 pt right of it, its text 7.2 pt inset.
    expect(boxed?.x).toBeCloseTo(72 + 200 + 7.2, 0);
    expect(before!.y - boxed!.y).toBeGreaterThan(140);
    expect(items.map((item) => item.text)).toContain('After the box');
  });
});

describe('Word page numbers by section (w:pgNumType) and field switches', () => {
  // A report's front matter numbered i, ii, iii, the body restarting at 1, an appendix counting on, an
  // annex in capital letters: every PAGE field printed the page's place in the file (4 for "Chapter 1").
  // LibreOffice prints the same page numbers (it also writes NUMPAGES in each section's style, "of x";
  // Word writes the count in Arabic numerals unless the field says otherwise, as Folio does).
  const footer = (...children: Array<string | (typeof PageNumber)[keyof typeof PageNumber]>) =>
    new Footer({ children: [new Paragraph({ children: [new TextRun({ children })] })] });
  const pages = (tag: string, n: number) =>
    Array.from({ length: n }, (_, i) => new Paragraph({ text: `${tag} ${i + 1}`, pageBreakBefore: i > 0 }));

  test('restarts, counts on and changes style where each section says', async () => {
    const numbered = { default: footer('Page ', PageNumber.CURRENT, ' of ', PageNumber.TOTAL_PAGES) };
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          {
            properties: { page: { pageNumbers: { start: 1, formatType: NumberFormat.LOWER_ROMAN } } },
            footers: numbered,
            children: pages('Front', 3),
          },
          {
            properties: { page: { pageNumbers: { start: 1, formatType: NumberFormat.DECIMAL } } },
            footers: numbered,
            children: pages('Chapter', 2),
          },
          { footers: numbered, children: pages('Appendix', 2) },
          {
            properties: { page: { pageNumbers: { formatType: NumberFormat.UPPER_LETTER } } },
            footers: numbered,
            children: pages('Annex', 2),
          },
        ],
      }),
    );
    expect(await texts(await convert(wordToPdf, 'report.docx', bytes))).toEqual([
      'Front 1 Page i of 9',
      'Front 2 Page ii of 9',
      'Front 3 Page iii of 9',
      'Chapter 1 Page 1 of 9',
      'Chapter 2 Page 2 of 9',
      'Appendix 1 Page 3 of 9',
      'Appendix 2 Page 4 of 9',
      'Annex 1 Page E of 9',
      'Annex 2 Page F of 9',
    ]);
  });

  test('"- 1 -" page numbers (numberInDash) print with their dashes, not as a bare number', async () => {
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          {
            properties: { page: { pageNumbers: { start: 1, formatType: NumberFormat.NUMBER_IN_DASH } } },
            footers: { default: footer(PageNumber.CURRENT) },
            children: pages('Body', 2),
          },
        ],
      }),
    );
    expect(await texts(await convert(wordToPdf, 'dashes.docx', bytes))).toEqual(['Body 1 - 1 -', 'Body 2 - 2 -']);
  });

  test('English ordinals (w:numFmt ordinal) as Word writes them', () => {
    const ordinals = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111, 112].map((n) => listNumber(n, 'ordinal'));
    expect(ordinals).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
      '111th',
      '112th',
    ]);
  });

  test('a PAGE field with a format switch (\\* ROMAN) overrides the section', async () => {
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          {
            footers: {
              default: new Footer({
                children: [
                  new Paragraph({
                    children: [new TextRun('Sheet '), new SimpleField('PAGE \\* ROMAN \\* MERGEFORMAT', '1')],
                  }),
                ],
              }),
            },
            children: pages('Body', 4),
          },
        ],
      }),
    );
    expect(await texts(await convert(wordToPdf, 'roman.docx', bytes))).toEqual([
      'Body 1 Sheet I',
      'Body 2 Sheet II',
      'Body 3 Sheet III',
      'Body 4 Sheet IV',
    ]);
  });
});

describe('Word mirrored margins (w:mirrorMargins: facing pages)', () => {
  // A thesis or a book set for binding: the wide inside margin (and the gutter) on the left of odd
  // pages and the right of even ones. Folio printed every page like the odd ones, so on even pages the
  // text sat in the binding. LibreOffice 7.4 prints this document's header, body and footer at x 162.1
  // on pages 1 and 3 and 36.1 on page 2.
  test('an even page swaps the left and right margins: header, body and footer move with them', async () => {
    const generated = await Packer.toBuffer(
      new Document({
        sections: [
          {
            properties: { page: { margin: { left: 2880, right: 720, gutter: 360 } } },
            headers: { default: new Header({ children: [new Paragraph('Header text')] }) },
            footers: {
              default: new Footer({
                children: [new Paragraph({ children: [new TextRun({ children: ['Page ', PageNumber.CURRENT] })] })],
              }),
            },
            children: [1, 2, 3].map((n) => new Paragraph({ text: `Body${n} starts here`, pageBreakBefore: n > 1 })),
          },
        ],
      }),
    );
    const zip = await JSZip.loadAsync(generated);
    const settings = await zip.file('word/settings.xml')!.async('string');
    zip.file('word/settings.xml', settings.replace(/(<w:settings[^>]*>)/, '$1<w:mirrorMargins/>'));
    const pdf = (await convert(wordToPdf, 'thesis.docx', await zip.generateAsync({ type: 'uint8array' }))).bytes;
    const starts = popplerWordPages(pdf).map((words) =>
      words.filter((w) => /^(Header|Body\d|Page)$/.test(w.text)).map((w) => Math.round(w.xMin)),
    );
    expect(starts).toEqual([
      [162, 162, 162],
      [36, 36, 36],
      [162, 162, 162],
    ]);
  });
});

describe('Word vertical alignment of a section (w:vAlign)', () => {
  // Layout › Page Setup › Vertical alignment: a title page centred between the margins, a colophon at
  // the foot. Folio laid every page out from the top. (LibreOffice 7.4 ignores w:vAlign in .docx;
  // the expected places are Word's: the text block centred in, or ending at, the 72 pt margins.)
  test('a centred title page, a page from the top, a page aligned to the bottom', async () => {
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          {
            properties: { verticalAlign: VerticalAlignSection.CENTER },
            children: [
              new Paragraph('Annual Report 2026'),
              new Paragraph({
                children: [
                  new ExternalHyperlink({
                    link: 'https://example.org/',
                    children: [new TextRun('Prepared for the board')],
                  }),
                ],
              }),
            ],
          },
          { children: [new Paragraph('Body text starts at the top.')] },
          {
            properties: { verticalAlign: VerticalAlignSection.BOTTOM },
            children: [new Paragraph('Colophon at the bottom.')],
          },
        ],
      }),
    );
    const { bytes: pdf } = await convert(wordToPdf, 'title.docx', bytes);
    const [title, board] = await textItems(pdf, 1);
    const middle = 841.9 / 2; // A4: the margins are equal, so the text block's middle is the page's
    expect((title.y + board.y) / 2).toBeGreaterThan(middle - 12);
    expect((title.y + board.y) / 2).toBeLessThan(middle + 12);
    // The link moved down with its text (a transformation moves the text, not the link's area).
    const doc = await openPdfjs(pdf);
    const [link] = await (await doc.getPage(1)).getAnnotations();
    await doc.destroy();
    expect(link.rect[1]).toBeLessThan(board.y);
    expect(link.rect[3]).toBeGreaterThan(board.y);
    expect((await textItems(pdf, 2))[0].y).toBeGreaterThan(841.9 - 72 - 12);
    const [colophon] = await textItems(pdf, 3);
    expect(colophon.y).toBeGreaterThan(72);
    expect(colophon.y).toBeLessThan(72 + 12);
  });
});

describe('Word page borders (w:pgBorders)', () => {
  // Design › Page Borders (certificates, flyers): Folio drew none. Expected: a page's coloured ink,
  // drawn by pdftoppm at 36 dpi (2 pt a pixel), is the border's box — LibreOffice 7.4 draws the first
  // section's borders at exactly these places (24 … 570 × 24 … 816 pt); it leaves out the second's
  // (measured from the text, first page only), which Word draws 4 pt outside the 72 pt margins.
  const side = (color: string, size: number, space: number) => ({ style: BorderStyle.SINGLE, size, color, space });
  const sides = (color: string, size: number, space: number) => ({
    pageBorderTop: side(color, size, space),
    pageBorderRight: side(color, size, space),
    pageBorderBottom: side(color, size, space),
    pageBorderLeft: side(color, size, space),
  });
  /** The box of a page's pixels that are neither white nor grey, in points from the top left. */
  async function colouredBox(pdf: Uint8Array, page: number) {
    const { width, height, data } = await pdfPageRaster(pdf, page, 36);
    let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const [r, g, b] = data.subarray((y * width + x) * 4, (y * width + x) * 4 + 3);
        if (Math.max(r, g, b) - Math.min(r, g, b) < 30) continue; // white, black or grey
        [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
      }
    return Number.isFinite(left) ? [left * 2, top * 2, right * 2, bottom * 2] : undefined;
  }

  test('from the page edge on every page; from the text on the first page only', async () => {
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          {
            properties: {
              page: { borders: { pageBorders: { offsetFrom: PageBorderOffsetFrom.PAGE }, ...sides('FF0000', 24, 24) } },
            },
            children: [new Paragraph('Certificate'), new Paragraph({ text: 'Second page', pageBreakBefore: true })],
          },
          {
            properties: {
              page: {
                borders: {
                  pageBorders: { offsetFrom: PageBorderOffsetFrom.TEXT, display: PageBorderDisplay.FIRST_PAGE },
                  ...sides('00AA00', 16, 4),
                },
              },
            },
            children: [new Paragraph('From the text'), new Paragraph({ text: 'No border', pageBreakBefore: true })],
          },
        ],
      }),
    );
    const { bytes: pdf } = await convert(wordToPdf, 'borders.docx', bytes);
    expect(await colouredBox(pdf, 1)).toEqual([24, 24, 570, 816]);
    expect(await colouredBox(pdf, 2)).toEqual([24, 24, 570, 816]);
    expect(await colouredBox(pdf, 3)).toEqual([66, 66, 528, 774]);
    expect(await colouredBox(pdf, 4)).toBeUndefined();
  });
});

describe('Word columns with a line between them (w:cols w:sep)', () => {
  // A newsletter's two columns under a title: Word and LibreOffice draw a rule in the gap, from the
  // columns' top to the foot of the longer one; Folio drew none. LibreOffice 7.4, pdftoppm at 72 dpi:
  // x 298, rows 84 … 756 (Folio's columns end lower, their lines are taller).
  test('the rule stands in the middle of the gap, as tall as the columns', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i + 1}`).join(' ');
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          { children: [new Paragraph('Newsletter title across the page')] },
          {
            properties: { type: SectionType.CONTINUOUS, column: { count: 2, space: 720, separate: true } },
            children: Array.from({ length: 14 }, () => new Paragraph(words)),
          },
        ],
      }),
    );
    const { bytes: pdf } = await convert(wordToPdf, 'newsletter.docx', bytes);
    const { width, height, data } = await pdfPageRaster(pdf, 1, 72);
    // The gap's column of pixels with the most ink.
    let best = { x: 0, rows: [] as number[] };
    for (let x = 260; x < 340; x++) {
      const rows = [];
      for (let y = 0; y < height; y++) if (data[(y * width + x) * 4] < 160) rows.push(y);
      if (rows.length > best.rows.length) best = { x, rows };
    }
    expect(Math.abs(best.x - 298)).toBeLessThanOrEqual(2);
    expect(Math.abs(best.rows[0] - 84)).toBeLessThanOrEqual(4);
    expect(best.rows.at(-1)).toBeGreaterThan(700);
    expect(best.rows.length).toBeGreaterThan(600); // one unbroken line
  });
});

describe('Pictures cropped (Picture Format › Crop: a:srcRect)', () => {
  // A picture of four stripes — red, green, blue, yellow — cropped by a quarter on each side shows
  // green and blue only, each filling half the frame (LibreOffice 7.4 prints it so). Folio squeezed
  // all four stripes into Word's frame; PowerPoint's were cropped (the same drawing now serves both).
  function stripes(): Uint8Array {
    const canvas = createCanvas(400, 100);
    const context = canvas.getContext('2d');
    ['#ff0000', '#00ff00', '#0000ff', '#ffff00'].forEach((colour, i) => {
      context.fillStyle = colour;
      context.fillRect(i * 100, 0, 100, 100);
    });
    return new Uint8Array(canvas.toBuffer('image/png'));
  }
  /** The package with its part's (first) picture cropped by a quarter left and right. */
  async function cropped(bytes: Uint8Array | ArrayBuffer | Buffer, partPath: string): Promise<Uint8Array> {
    const zip = await JSZip.loadAsync(bytes);
    const xml = await zip.file(partPath)!.async('string');
    const crop = '<a:srcRect l="25000" r="25000"/>';
    // (The docx package writes an empty a:srcRect; pptxgenjs none.)
    const withCrop = xml.includes('<a:srcRect/>')
      ? xml.replace('<a:srcRect/>', crop)
      : xml.replace(/(<a:blip [^>]*\/>|<a:blip [^>]*>.*?<\/a:blip>)/, `$1${crop}`);
    expect(withCrop).toContain(crop);
    zip.file(partPath, withCrop);
    return zip.generateAsync({ type: 'uint8array' });
  }
  /** Pixels of each stripe's colour on page 1 at 72 dpi (an edge pixel may mix two). */
  async function stripeCounts(pdf: Uint8Array): Promise<Map<string, number>> {
    const { width, height, data } = await pdfPageRaster(pdf, 1, 72);
    const count = new Map<string, number>();
    for (let p = 0; p < width * height * 4; p += 4) {
      const [r, g, b] = data.subarray(p, p + 3);
      const name =
        r > 200 && g < 60 && b < 60
          ? 'red'
          : g > 200 && r < 60 && b < 60
            ? 'green'
            : b > 200 && r < 60 && g < 60
              ? 'blue'
              : r > 200 && g > 200 && b < 60
                ? 'yellow'
                : 'other';
      count.set(name, (count.get(name) ?? 0) + 1);
    }
    return count;
  }
  /** Green and blue each fill half of a frame `width` × `height` pt; red and yellow at most an edge. */
  function expectMiddleStripes(count: Map<string, number>, width: number, height: number) {
    const half = (width / 2) * height;
    expect(Math.abs((count.get('green') ?? 0) - half)).toBeLessThan(2 * height);
    expect(Math.abs((count.get('blue') ?? 0) - half)).toBeLessThan(2 * height);
    expect((count.get('red') ?? 0) + (count.get('yellow') ?? 0)).toBeLessThanOrEqual(2 * height);
  }

  test('Word: only the part left by the crop is drawn, filling the frame', async () => {
    const built = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph({
                children: [new ImageRun({ type: 'png', data: stripes(), transformation: { width: 200, height: 100 } })],
              }),
            ],
          },
        ],
      }),
    );
    const docx = await cropped(built, 'word/document.xml');
    // The docx package's sizes are pixels: a 150 × 75 pt frame.
    expectMiddleStripes(await stripeCounts((await convert(wordToPdf, 'cropped.docx', docx)).bytes), 150, 75);
  });

  test('PowerPoint: the same', async () => {
    const deck = new PptxGenJS();
    deck
      .addSlide()
      .addImage({ data: `image/png;base64,${Buffer.from(stripes()).toString('base64')}`, x: 1, y: 1, w: 2, h: 1 });
    const pptx = await cropped((await deck.write({ outputType: 'nodebuffer' })) as Buffer, 'ppt/slides/slide1.xml');
    expectMiddleStripes(await stripeCounts((await convert(pptToPdf, 'cropped.pptx', pptx)).bytes), 144, 72);
  });

  test('Excel: the same (exceljs reads the picture, the drawing part its crop)', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Logo');
    const imageId = workbook.addImage({ buffer: Buffer.from(stripes()) as never, extension: 'png' });
    sheet.addImage(imageId, { tl: { col: 1, row: 1 }, ext: { width: 200, height: 100 } });
    sheet.getCell('A1').value = 'Logo below';
    const xlsx = await cropped(await workbook.xlsx.writeBuffer(), 'xl/drawings/drawing1.xml');
    // exceljs's sizes are pixels: a 150 × 75 pt frame.
    expectMiddleStripes(await stripeCounts((await convert(excelToPdf, 'cropped.xlsx', xlsx)).bytes), 150, 75);
  });
});

describe('Word double strikethrough (w:dstrike)', () => {
  test('is struck through (one line), not printed plain', async () => {
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [{ children: [new Paragraph({ children: [new TextRun({ text: 'void', doubleStrike: true })] })] }],
      }),
    );
    const { sections } = await readDocx(await JSZip.loadAsync(bytes));
    const [first] = sections[0].blocks;
    expect(first.kind === 'paragraph' && first.inlines[0].kind === 'text' && first.inlines[0].style.strike).toBe(true);
  });
});

describe('Word raised and lowered text (w:position)', () => {
  // Font › Advanced › Position: "Raised by 6 pt" moves the text up on its line (a formula's index, a
  // trademark); Folio printed it on the baseline.
  test('a raised run stands 6 pt above the line, a lowered one 3 pt below', async () => {
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph({
                children: [
                  new TextRun('base '),
                  new TextRun({ text: 'up', position: '6pt' }),
                  new TextRun(' '),
                  new TextRun({ text: 'down', position: '-3pt' }),
                ],
              }),
            ],
          },
        ],
      }),
    );
    // The docx package writes "6pt"; Word writes half-points ("12"): both are read.
    const zip = await JSZip.loadAsync(bytes);
    const xml = await zip.file('word/document.xml')!.async('string');
    expect(xml).toContain('<w:position w:val="6pt"/>');
    zip.file('word/document.xml', xml.replace('w:val="-3pt"', 'w:val="-6"'));
    const items = await textItems(
      (await convert(wordToPdf, 'raised.docx', await zip.generateAsync({ type: 'uint8array' }))).bytes,
    );
    const y = (text: string) => items.find((item) => item.text === text)!.y;
    expect(y('up') - y('base')).toBeCloseTo(6, 1);
    expect(y('down') - y('base')).toBeCloseTo(-3, 1);
  });
});

describe('Word line numbering', () => {
  // Layout › Line Numbers (w:lnNumType): Word and LibreOffice print each body line's number in the
  // margin, right-aligned `distance` left of the text column, on the line's baseline. Folio left
  // them out (with a note). Positions below are poppler's, A4 with the docx package's 1-inch margins.
  const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i + 1}`).join(' ');
  const body = (extra: Array<Paragraph | Table> = []) => [
    new Paragraph(words(60, 'alpha')), // four lines and a bit
    new Paragraph(''), // an empty paragraph is a line too
    new Paragraph('Short line'),
    ...extra,
    ...Array.from({ length: 70 }, (_, i) => new Paragraph(`Paragraph ${i + 1} ${words(10, 'w')}`)),
  ];
  /** Each page's numbers in the margin (x < 72) and the body lines' first words, by baseline. */
  async function marginNumbers(bytes: Uint8Array) {
    const doc = await openPdfjs(bytes);
    const pages: Array<Array<{ number: string; right: number; line: string }>> = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const items = (await (await doc.getPage(p)).getTextContent()).items.flatMap((item) =>
        'str' in item && item.str.trim()
          ? [{ text: item.str.trim(), x: item.transform[4], y: item.transform[5], width: item.width }]
          : [],
      );
      const lines = items.filter((item) => item.x >= 71);
      pages.push(
        items
          .filter((item) => item.x < 71)
          .map((item) => ({
            number: item.text,
            right: item.x + item.width,
            line: lines.find((line) => Math.abs(line.y - item.y) < 0.5)?.text.split(' ')[0] ?? '',
          })),
      );
    }
    await doc.destroy();
    return pages;
  }

  test('every line, restarting on each page: body paragraphs only, on their baselines', async () => {
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          {
            properties: { lineNumbers: { countBy: 1, restart: LineNumberRestartFormat.NEW_PAGE } },
            headers: { default: new Header({ children: [new Paragraph('Header text')] }) },
            children: body([
              new Paragraph({ text: 'Suppressed paragraph', suppressLineNumbers: true } as IParagraphOptions),
              new Table({
                rows: [new TableRow({ children: [new TableCell({ children: [new Paragraph('In a cell')] })] })],
              }),
            ]),
          },
        ],
      }),
    );
    const result = await convert(wordToPdf, 'lines.docx', bytes);
    expect((result.notes ?? []).join(' ')).not.toMatch(/line numbers/);
    const [first, second] = await marginNumbers(result.bytes);
    expect(first.slice(0, 8).map((n) => [n.number, n.line])).toEqual([
      ['1', 'alpha1'],
      ['2', expect.stringMatching(/^alpha\d+$/)],
      ['3', expect.stringMatching(/^alpha\d+$/)],
      ['4', expect.stringMatching(/^alpha\d+$/)],
      ['5', expect.stringMatching(/^alpha\d+$/)],
      ['6', ''], // the empty paragraph
      ['7', 'Short'],
      ['8', 'Paragraph'], // the suppressed paragraph, the table and the header are not counted
    ]);
    expect(first.map((n) => Number(n.number))).toEqual(first.map((_, i) => i + 1));
    // Word's automatic distance, 0.25 inch: the numbers end 18 pt left of the 72 pt margin.
    for (const n of first) expect(n.right).toBeCloseTo(54, 0);
    expect(second[0]).toMatchObject({ number: '1', line: 'Paragraph' });
  });

  test('every fifth line from a given start, counting on across pages and sections, at a set distance', async () => {
    // w:start is 0-based: 10 prints 11 on the first line (LibreOffice: 15 on the fifth line).
    const lineNumbers = { countBy: 5, start: 10, restart: LineNumberRestartFormat.CONTINUOUS, distance: 720 };
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          { properties: { lineNumbers }, children: body() },
          {
            properties: { lineNumbers: { ...lineNumbers, restart: LineNumberRestartFormat.NEW_SECTION } },
            children: body(),
          },
        ],
      }),
    );
    const pages = await marginNumbers((await convert(wordToPdf, 'by-five.docx', bytes)).bytes);
    expect(pages[0][0]).toMatchObject({ number: '15', line: expect.stringMatching(/^alpha\d+$/) });
    expect(pages[0][1]).toMatchObject({ number: '20', line: 'Paragraph' });
    for (const n of pages[0]) expect(n.right).toBeCloseTo(36, 0);
    const printed = pages.map((page) => page.map((n) => Number(n.number)));
    // On across the first section's pages; the second section starts again at 15.
    const all = printed.flat();
    const restart = all.findIndex((n, i) => i > 0 && n < all[i - 1]);
    expect(all.slice(0, restart)).toEqual(all.slice(0, restart).map((_, i) => 15 + 5 * i));
    expect(all.slice(restart, restart + 2)).toEqual([15, 20]);
    // … on the second section's first page.
    const secondStart = printed.findIndex((page, i) => i > 0 && page[0] === 15);
    expect(printed.slice(0, secondStart).flat()).toEqual(all.slice(0, restart));
  });
});

describe('Word spacing between paragraphs', () => {
  // ISO/IEC 29500-1 §17.3.1.33: the space between two paragraphs is the larger of the first's space
  // after and the second's space before (LibreOffice 7.4 prints these documents so); Folio added
  // them, so every heading after a paragraph stood 8 pt lower than in Word. §17.3.1.9: "Don't add
  // space between paragraphs of the same style" (w:contextualSpacing, Word's List Paragraph) was
  // not read. Only with w:doNotUseHTMLParagraphAutoSpacing (Word before 2000), or without a
  // settings part (as LibreOffice reads that), are both added.
  const spaced = (text: string, before: number, after: number, style?: string, contextualSpacing?: boolean) =>
    new Paragraph({ style, children: [new TextRun(text)], spacing: { before, after }, contextualSpacing });
  const listPara = { before: 120, after: 200 };
  async function gaps(settings?: (xml: string | undefined) => string | undefined) {
    const doc = new Document({
      styles: {
        paragraphStyles: [
          { id: 'ListPara', name: 'List Paragraph', paragraph: { spacing: listPara, contextualSpacing: true } },
          { id: 'Step', name: 'Step', paragraph: { spacing: { before: 240, after: 200 } } },
        ],
      },
      sections: [
        {
          children: [
            spaced('A0', 0, 0),
            spaced('B0', 0, 0),
            spaced('C20after', 0, 400),
            spaced('D20before', 400, 0),
            spaced('E10after', 0, 200),
            spaced('F20before', 400, 0),
            ...['Item1', 'Item2', 'Item3'].map((text) => new Paragraph({ style: 'ListPara', text })),
            spaced('G6before', 120, 0),
            // Contextual spacing on the first of two Step paragraphs only: 12 pt before less its 10 pt after.
            new Paragraph({ style: 'Step', text: 'Step1', contextualSpacing: true }),
            new Paragraph({ style: 'Step', text: 'Step2', contextualSpacing: false }),
            spaced('H0', 0, 0),
          ],
        },
      ],
    });
    const zip = await JSZip.loadAsync(await Packer.toBuffer(doc));
    if (settings) {
      const changed = settings(await zip.file('word/settings.xml')?.async('string'));
      if (changed === undefined) zip.remove('word/settings.xml');
      else zip.file('word/settings.xml', changed);
    }
    const pdf = await convert(wordToPdf, 'spacing.docx', await zip.generateAsync({ type: 'uint8array' }));
    const items = await textItems(pdf.bytes);
    const y = (text: string) => items.find((item) => item.text === text)!.y;
    const pitch = y('A0') - y('B0');
    const gap = (above: string, below: string) => Math.round((y(above) - y(below) - pitch) * 10) / 10;
    return {
      afterThenBefore: gap('C20after', 'D20before'),
      smallerAfter: gap('E10after', 'F20before'),
      list: [gap('Item1', 'Item2'), gap('Item2', 'Item3')],
      leavingList: gap('Item3', 'G6before'),
      oneSided: gap('Step1', 'Step2'),
    };
  }

  test('the larger of space after and space before; none between list paragraphs of one style', async () => {
    expect(await gaps()).toEqual({ afterThenBefore: 20, smallerAfter: 20, list: [0, 0], leavingList: 10, oneSided: 2 });
  });

  test('added, as Word before 2000 did, when the settings ask for it or are missing', async () => {
    const legacy = (xml: string | undefined) =>
      xml!.replace('<w:compat>', '<w:compat><w:doNotUseHTMLParagraphAutoSpacing/>');
    const expected = { afterThenBefore: 40, smallerAfter: 30, list: [0, 0], leavingList: 16, oneSided: 12 };
    expect(await gaps(legacy)).toEqual(expected);
    expect(await gaps(() => undefined)).toEqual(expected);
  });
});

describe('Word space before at the top of a page, and page breaks at the end of a paragraph', () => {
  // As LibreOffice 7.4 prints .docx: a heading put at the top of a page by a break (the document's
  // start, a page break, "page break before", a new section) keeps its space before; one the text
  // flowed on to loses it. Folio dropped it at every page top. And a paragraph ending with its page
  // break left an empty line at the top of the next page.
  test('kept after a break, dropped when the text flows on; no empty line after a break', async () => {
    const heading = (text: string, options: IParagraphOptions = {}) =>
      new Paragraph({ text, spacing: { before: 480, after: 0 }, ...options });
    const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => new Paragraph(`${tag}${i + 1}`));
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              heading('Start'),
              ...lines(55, 'a'),
              heading('Flowed'), // lands at the top of page 2 by flowing on
              ...lines(5, 'b'),
              new Paragraph({ children: [new PageBreak()] }),
              heading('Broken'),
              new Paragraph({ children: [new TextRun('Text then break'), new PageBreak()] }),
              new Paragraph('Next page'),
              heading('Asked', { pageBreakBefore: true }),
            ],
          },
          { children: [heading('Section')] },
        ],
      }),
    );
    const pdf = (await convert(wordToPdf, 'tops.docx', bytes)).bytes;
    const firstOnPage: string[] = [];
    const baseline = new Map<string, number>();
    for (let page = 1; page <= 6; page++) {
      const [first] = await textItems(pdf, page);
      firstOnPage.push(first.text);
      baseline.set(first.text, first.y);
    }
    expect(firstOnPage).toEqual(['Start', 'Flowed', 'Broken', 'Next page', 'Asked', 'Section']);
    const top = baseline.get('Flowed')!;
    expect(baseline.get('Next page')).toBeCloseTo(top, 1);
    for (const text of ['Start', 'Broken', 'Asked', 'Section']) expect(top - baseline.get(text)!).toBeCloseTo(24, 1);
  });
});

describe('Word character spacing (Font › Advanced › Spacing: w:spacing in a run)', () => {
  // Expanded titles and condensed lines printed at the font's own spacing: the text after them stood
  // in the wrong place, and expanded paragraphs broke their lines elsewhere than Word and LibreOffice.
  test('each character is followed by the spacing: positions and line breaks as LibreOffice prints them', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i + 1}`).join(' ');
    const bytes = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph({
                children: [new TextRun({ text: 'EXPANDED TITLE', characterSpacing: 60 }), new TextRun(' one')],
              }),
              new Paragraph({
                children: [new TextRun({ text: 'Condensed words here', characterSpacing: -20 }), new TextRun(' two')],
              }),
              new Paragraph({ children: [new TextRun({ text: words, characterSpacing: 20 })] }),
            ],
          },
        ],
      }),
    );
    const printed = popplerWords((await convert(wordToPdf, 'spacing.docx', bytes)).bytes);
    const x = (text: string) => printed.find((word) => word.text === text)!.xMin;
    // LibreOffice 7.4 puts "one" at 200.8 and "two" at 146.7 (the margin at 72.1): within 1.5 pt, where
    // without the spacing they stood 42 pt and 20 pt off.
    expect(Math.abs(x('one') - 72 - (200.8 - 72.1))).toBeLessThan(1.5);
    expect(Math.abs(x('two') - 72 - (146.7 - 72.1))).toBeLessThan(1.5);
    // Lines of the paragraph expanded by 1 pt begin with word13, word24 and word35, as in LibreOffice's.
    const lineStarts = printed.filter((word) => /^word\d+$/.test(word.text) && word.xMin < 73).map((word) => word.text);
    expect(lineStarts).toEqual(['word1', 'word13', 'word24', 'word35']);
  });

  test('PowerPoint (spc): the text after a run spaced by 6 pt stands 36 pt further on, as in LibreOffice', async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    const box = { w: 8, h: 1, fontSize: 24, fontFace: 'Arial' };
    slide.addText([{ text: 'SPACED', options: { charSpacing: 6 } }, { text: ' END' }], { ...box, x: 0.5, y: 0.5 });
    slide.addText([{ text: 'PLAIN' }, { text: ' TAIL' }], { ...box, x: 0.5, y: 2 });
    slide.addText([{ text: 'SPACED' }, { text: ' TAIL2' }], { ...box, x: 0.5, y: 3.5 });
    const bytes = new Uint8Array((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer);
    const printed = popplerWords((await convert(pptToPdf, 'spaced.pptx', bytes)).bytes);
    const x = (text: string) => printed.find((word) => word.text === text)!.xMin;
    // LibreOffice 7.4: 182.5 and 146.5.
    expect(x('END') - x('TAIL2')).toBeCloseTo(36, 0);
  });
});

describe("Word tables: the table style's paragraph spacing (Table Grid: single, none after)", () => {
  // Word 2010 and later put the body's spacing (8–10 pt after, 1.08–1.15 lines) in the document
  // defaults, and Table Grid carries "single, 0 after" for its cells: LibreOffice 7.4 prints such
  // tables compact. Folio ignored the table style's paragraph properties, so every table of those
  // documents was spread out (row pitch 21.6 pt against LibreOffice's 13.2). A Normal style with its
  // own spacing still wins over the table style's (rows 22.2 pt apart in LibreOffice, 21.6 in Folio).
  async function rowPitch(spacingIn: 'defaults' | 'normal'): Promise<number> {
    const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
    const rows = ['R1', 'R2', 'R3', 'R4'].map((r) => new TableRow({ children: [cell(`${r}a`), cell(`${r}b`)] }));
    const zip = await JSZip.loadAsync(
      await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('Before'), new Table({ rows })] }] })),
    );
    const spacing = '<w:spacing w:after="160" w:line="259" w:lineRule="auto"/>';
    let styles = await zip.file('word/styles.xml')!.async('string');
    styles = styles
      .replace(
        /<w:docDefaults>[\s\S]*?<\/w:docDefaults>/,
        '<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault>' +
          `<w:pPrDefault><w:pPr>${spacingIn === 'defaults' ? spacing : ''}</w:pPr></w:pPrDefault></w:docDefaults>`,
      )
      .replace(
        /<w:style w:type="paragraph" w:styleId="Normal" w:default="1">[\s\S]*?<\/w:style>/,
        '<w:style w:type="paragraph" w:styleId="Normal" w:default="1"><w:name w:val="Normal"/>' +
          `${spacingIn === 'normal' ? `<w:pPr>${spacing}</w:pPr>` : ''}</w:style>`,
      )
      .replace(
        '</w:styles>',
        '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/>' +
          '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr></w:style></w:styles>',
      );
    expect(styles).toContain(spacing);
    zip.file('word/styles.xml', styles);
    const xml = await zip.file('word/document.xml')!.async('string');
    zip.file('word/document.xml', xml.replace('<w:tblPr>', '<w:tblPr><w:tblStyle w:val="TableGrid"/>'));
    const pdf = await convert(wordToPdf, 'grid.docx', await zip.generateAsync({ type: 'uint8array' }));
    const printed = popplerWords(pdf.bytes);
    const y = (text: string) => printed.find((word) => word.text === text)!.yMin;
    return (y('R4a') - y('R1a')) / 3;
  }

  test('compact where the spacing comes from the defaults, spread where Normal has its own', async () => {
    expect(Math.abs((await rowPitch('defaults')) - 13.2)).toBeLessThan(1);
    expect(Math.abs((await rowPitch('normal')) - 22.2)).toBeLessThan(1);
  });
});

describe('Word gutter (Layout › Margins › Gutter)', () => {
  // The room kept for binding widens the left margin (the top one with "gutter position: top");
  // Folio ignored it and printed the text 36 pt too far left. LibreOffice 7.4: x 108.1 / y 107.9.
  test.each([
    [false, 108, 72],
    [true, 72, 108],
  ])('gutter at top %s: text at x %i, y %i', async (atTop, x, y) => {
    const section = { properties: { page: { margin: { top: 1440, left: 1440, gutter: 720 } } } };
    const zip = await JSZip.loadAsync(
      await Packer.toBuffer(new Document({ sections: [{ ...section, children: [new Paragraph('Bound text')] }] })),
    );
    const settings = await zip.file('word/settings.xml')!.async('string');
    if (atTop) zip.file('word/settings.xml', settings.replace('<w:compat>', '<w:gutterAtTop/><w:compat>'));
    const pdf = await convert(wordToPdf, 'bound.docx', await zip.generateAsync({ type: 'uint8array' }));
    const [first] = popplerWords(pdf.bytes);
    expect(first.xMin).toBeCloseTo(x, 0);
    expect(first.yMin).toBeCloseTo(y, 0);
  });
});
