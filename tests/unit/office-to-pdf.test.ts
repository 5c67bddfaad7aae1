/**
 * Word, Excel and PowerPoint to PDF with Folio's own renderers: fixtures are generated here with
 * docx, exceljs and pptxgenjs, converted, and the PDF is read back with pdf.js (text, order, page
 * size and count) and checked with qpdf.
 */
import { describe, expect, test } from 'vitest';
import {
  AlignmentType,
  Bookmark,
  BorderStyle,
  Document,
  InternalHyperlink,
  EndnoteReferenceRun,
  ExternalHyperlink,
  LineRuleType,
  SectionType,
  Tab,
  TabStopType,
  Footer,
  FootnoteReferenceRun,
  Header,
  HeadingLevel,
  HorizontalPositionAlign,
  HorizontalPositionRelativeFrom,
  ImageRun,
  Packer,
  PageNumber,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  TextWrappingSide,
  TextWrappingType,
  VerticalPositionRelativeFrom,
  WidthType,
} from 'docx';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import JSZip from 'jszip';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFString } from 'pdf-lib';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import {
  columnWidthPt,
  digitWidthPt,
  displayText,
  maxDigitWidth,
  parseCsv,
} from '../../workers/engine/lib/office-to-pdf/xlsx.ts';
import { parseExcelHeaderFooter } from '../../workers/engine/lib/office-to-pdf/sheet-furniture.ts';
import { convert, expectValidPdf, pageContent, texts } from '../support/office-pdf-helpers.ts';
import { popplerWords } from '../support/pdf.ts';

// A 2×2 red PNG.
const RED_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAwMDAAAEKAQHYcVJ8AAAAAElFTkSuQmCC'),
  (c) => c.charCodeAt(0),
);

describe('word-to-pdf', () => {
  test('headings, paragraphs, a table, an image and a page-number footer come out in order, on A4', async () => {
    const docx = new Document({
      sections: [
        {
          properties: { page: { size: { width: 11906, height: 16838 } } },
          footers: {
            default: new Footer({
              children: [
                new Paragraph({
                  alignment: AlignmentType.CENTER,
                  children: [new TextRun('Page '), new TextRun({ children: [PageNumber.CURRENT] })],
                }),
              ],
            }),
          },
          children: [
            new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Quarterly report')] }),
            new Paragraph({
              children: [
                new TextRun('Revenue grew in every region. '),
                new TextRun({ text: 'Bold words', bold: true }),
                new TextRun(' and '),
                new TextRun({ text: 'italic words', italics: true }),
                new TextRun(' stay in the text.'),
              ],
            }),
            new Table({
              width: { size: 100, type: WidthType.PERCENTAGE },
              rows: [
                new TableRow({
                  children: [
                    new TableCell({ children: [new Paragraph('Region')] }),
                    new TableCell({ children: [new Paragraph('Sales')] }),
                  ],
                }),
                new TableRow({
                  children: [
                    new TableCell({ children: [new Paragraph('North')] }),
                    new TableCell({ children: [new Paragraph('1,250')] }),
                  ],
                }),
              ],
            }),
            new Paragraph({
              children: [new ImageRun({ type: 'png', data: RED_PNG, transformation: { width: 40, height: 40 } })],
            }),
            new Paragraph({ text: 'Closing paragraph.', pageBreakBefore: true }),
          ],
        },
      ],
    });
    const result = await convert(wordToPdf, 'report.docx', await Packer.toBuffer(docx));
    await expectValidPdf(result);
    expect(result.filename).toBe('report.pdf');
    const pdf = await PDFDocument.load(result.bytes);
    expect(pdf.getPageCount()).toBe(2);
    const { width, height } = pdf.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
    const [first, second] = await texts(result);
    expect(first).toMatch(
      /Quarterly report.*Revenue grew in every region\. Bold words and italic words stay in the text\..*Region.*Sales.*North.*1,250.*Page 1/,
    );
    expect(second).toMatch(/Closing paragraph\..*Page 2/);
  });

  test('headings become bookmarks pointing at their pages (unless turned off)', async () => {
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph({ heading: HeadingLevel.HEADING_1, text: 'Introduction' }),
            new Paragraph({ heading: HeadingLevel.HEADING_2, text: 'Scope' }),
            new Paragraph({ heading: HeadingLevel.HEADING_1, text: 'Results', pageBreakBefore: true }),
          ],
        },
      ],
    });
    const bytes = await Packer.toBuffer(docx);
    const doc = await openPdfjs((await convert(wordToPdf, 'outline.docx', bytes)).bytes);
    const outline = await doc.getOutline();
    expect(outline.map((item) => item.title)).toEqual(['Introduction', 'Results']);
    expect(outline[0].items.map((item) => item.title)).toEqual(['Scope']);
    const target = await doc.getPageIndex((outline[1].dest as unknown[])[0] as { num: number; gen: number });
    expect(target).toBe(1);
    await doc.destroy();
    const plain = await openPdfjs((await convert(wordToPdf, 'outline.docx', bytes, { outline: false })).bytes);
    expect(await plain.getOutline()).toBeNull();
    await plain.destroy();
  });

  test('"different first page" and "different odd and even pages" headers and footers', async () => {
    const header = (text: string) => new Header({ children: [new Paragraph(text)] });
    const docx = new Document({
      evenAndOddHeaderAndFooters: true,
      sections: [
        {
          properties: { titlePage: true },
          headers: {
            first: header('Cover header'),
            default: header('Odd page header'),
            even: header('Even page header'),
          },
          footers: { default: new Footer({ children: [new Paragraph('Odd footer')] }) },
          children: [1, 2, 3, 4].map((n) => new Paragraph({ text: `Body of page ${n}`, pageBreakBefore: n > 1 })),
        },
      ],
    });
    const pages = await texts(await convert(wordToPdf, 'headers.docx', await Packer.toBuffer(docx)));
    expect(pages).toEqual([
      'Cover header Body of page 1',
      'Even page header Body of page 2',
      'Odd page header Body of page 3 Odd footer',
      'Even page header Body of page 4',
    ]);
  });

  test(
    'floating pictures (behind or in front of the text) take no room and are placed from the page, margin or ' +
      'paragraph',
    async () => {
      const picture = (floating: object) =>
        new ImageRun({
          type: 'png',
          data: RED_PNG,
          transformation: { width: 80, height: 40 },
          floating: floating as never,
        });
      const docx = new Document({
        sections: [
          {
            properties: {
              page: {
                size: { width: 11906, height: 16838 },
                margin: { top: 1440, bottom: 1440, left: 1440, right: 1440 },
              },
            },
            children: [
              new Paragraph({
                children: [
                  new TextRun('First line of the body'),
                  // Behind the text, 100 pt from the page's left edge and 200 pt from its top.
                  picture({
                    horizontalPosition: { relative: HorizontalPositionRelativeFrom.PAGE, offset: 100 * 12700 },
                    verticalPosition: { relative: VerticalPositionRelativeFrom.PAGE, offset: 200 * 12700 },
                    behindDocument: true,
                    wrap: { type: TextWrappingType.NONE },
                  }),
                  // In front, at the right of the margins, 10 pt below the paragraph's top.
                  picture({
                    horizontalPosition: {
                      relative: HorizontalPositionRelativeFrom.MARGIN,
                      align: HorizontalPositionAlign.RIGHT,
                    },
                    verticalPosition: { relative: VerticalPositionRelativeFrom.PARAGRAPH, offset: 10 * 12700 },
                    wrap: { type: TextWrappingType.NONE },
                  }),
                ],
              }),
              new Paragraph('Second line'),
            ],
          },
        ],
      });
      const result = await convert(wordToPdf, 'floats.docx', await Packer.toBuffer(docx));
      await expectValidPdf(result);
      const doc = await openPdfjs(result.bytes);
      const page = await doc.getPage(1);
      const items = ((await page.getTextContent()).items as Array<{ str: string; transform: number[] }>).filter((i) =>
        i.str.trim(),
      );
      await doc.destroy();
      const first = items.find((i) => i.str.includes('First line'))!,
        second = items.find((i) => i.str.includes('Second line'))!;
      expect(841.89 - first.transform[5]).toBeLessThan(72 + 16); // the body starts at the top margin
      expect(first.transform[5] - second.transform[5]).toBeLessThan(20); // the pictures took no room

      const content = await pageContent(result.bytes, 0);
      const images = [
        ...content.matchAll(
          /1 0 0 1 ([\d.]+) ([\d.]+) cm\n1 0 0 1 0 0 cm\n([\d.]+) 0 0 ([\d.]+) 0 0 cm\n1 0 0 1 0 0 cm\n\/\S+ Do/g,
        ),
      ].map((m) => ({ at: m.index!, x: Number(m[1]), top: 841.89 - Number(m[2]) - Number(m[4]), width: Number(m[3]) }));
      expect(images).toHaveLength(2);
      const [behind, front] = images;
      expect(behind.at).toBeLessThan(content.indexOf(' Tj')); // painted before any text
      expect(front.at).toBeGreaterThan(content.lastIndexOf(' Tj'));
      expect(behind.x).toBeCloseTo(100, 0);
      expect(behind.top).toBeCloseTo(200, 0);
      expect(front.x + front.width).toBeCloseTo(595.28 - 72, 0); // right-aligned in the margins
      expect(front.top).toBeCloseTo(72 + 10, 0);
    },
  );

  test('text makes room for floating pictures: beside a "square" one, below a "top and bottom" one', async () => {
    const photo = (wrap: (typeof TextWrappingType)[keyof typeof TextWrappingType]) =>
      new ImageRun({
        type: 'png',
        data: RED_PNG,
        transformation: { width: 133, height: 133 },
        floating: {
          horizontalPosition: { relative: HorizontalPositionRelativeFrom.MARGIN, align: HorizontalPositionAlign.RIGHT },
          verticalPosition: { relative: VerticalPositionRelativeFrom.PARAGRAPH, offset: 0 },
          wrap: { type: wrap },
        } as never,
      });
    const words = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
    const page = {
      size: { width: 11906, height: 16838 },
      margin: { top: 1440, bottom: 1440, left: 1440, right: 1440 },
    };
    const read = async (docx: Document) => {
      const doc = await openPdfjs((await convert(wordToPdf, 'cv.docx', await Packer.toBuffer(docx))).bytes);
      const items = (
        (await (await doc.getPage(1)).getTextContent()).items as Array<{
          str: string;
          transform: number[];
          width: number;
        }>
      ).filter((i) => i.str.trim());
      await doc.destroy();
      return items.map((i) => ({
        str: i.str,
        x: i.transform[4],
        right: i.transform[4] + i.width,
        top: 841.89 - i.transform[5],
      }));
    };
    // A 100 pt photo at the right of the margins: the lines beside it stop short of it (with the gap), later ones run
    // to the margin.
    const square = await read(
      new Document({
        sections: [
          {
            properties: { page },
            children: [
              new Paragraph({ children: [photo(TextWrappingType.SQUARE), new TextRun(words(60, 'beside'))] }),
              ...Array.from({ length: 8 }, () => new Paragraph(words(16, 'below'))),
            ],
          },
        ],
      }),
    );
    const photoLeft = 595.28 - 72 - 100;
    const besideLines = square.filter((i) => i.str.startsWith('beside'));
    expect(besideLines.length).toBeGreaterThan(2);
    for (const line of besideLines) expect(line.right).toBeLessThan(photoLeft);
    const later = square.filter((i) => i.str.startsWith('below') && i.top > 72 + 110);
    expect(Math.max(...later.map((i) => i.right))).toBeGreaterThan(photoLeft + 20);
    // Top and bottom: the text goes on below the photo.
    const below = await read(
      new Document({
        sections: [
          {
            properties: { page },
            children: [
              new Paragraph({ children: [photo(TextWrappingType.TOP_AND_BOTTOM)] }),
              new Paragraph('After the photo'),
            ],
          },
        ],
      }),
    );
    expect(below.find((i) => i.str === 'After the photo')!.top).toBeGreaterThan(72 + 100);
  });

  test('a picture in the middle of the column, square wrapping on both sides: the lines go on right of it', async () => {
    // Text ran only on the wider side (the left), the right of the picture left empty; LibreOffice 7.4
    // fills both sides of it. Its lines start with these words, and these stand right of the picture.
    const words = Array.from({ length: 200 }, (_, i) => `w${i + 1}`).join(' ');
    const photo = new ImageRun({
      type: 'png',
      data: RED_PNG,
      transformation: { width: 133, height: 133 },
      floating: {
        horizontalPosition: { relative: HorizontalPositionRelativeFrom.MARGIN, align: HorizontalPositionAlign.CENTER },
        verticalPosition: { relative: VerticalPositionRelativeFrom.PARAGRAPH, offset: 0 },
        wrap: { type: TextWrappingType.SQUARE, side: TextWrappingSide.BOTH_SIDES },
      } as never,
    });
    const bytes = await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph({ children: [photo, new TextRun(words)] })] }] }),
    );
    const printed = popplerWords((await convert(wordToPdf, 'centred.docx', bytes)).bytes);
    const lineStarts = printed.filter((w) => w.xMin < 73).map((w) => w.text);
    expect(lineStarts).toEqual([
      'w1',
      'w21',
      'w39',
      'w57',
      'w75',
      'w93',
      'w108',
      'w122',
      'w136',
      'w150',
      'w168',
      'w186',
    ]);
    const pictureRight = (595.3 + 100) / 2; // A4, centred in 1 inch margins
    const rightOfPicture = printed
      .filter((w) => w.xMin > pictureRight - 2 && w.xMin < pictureRight + 4)
      .map((w) => w.text);
    expect(rightOfPicture.slice(0, 6)).toEqual(['w12', 'w30', 'w48', 'w66', 'w84', 'w101']);
    // A right-to-left paragraph beside such a picture (here 100 pt from the margin, off the middle)
    // keeps to one side of it: no word over it.
    const offCentre = new ImageRun({
      type: 'png',
      data: RED_PNG,
      transformation: { width: 133, height: 133 },
      floating: {
        horizontalPosition: { relative: HorizontalPositionRelativeFrom.MARGIN, offset: 1270000 },
        verticalPosition: { relative: VerticalPositionRelativeFrom.PARAGRAPH, offset: 0 },
        wrap: { type: TextWrappingType.SQUARE, side: TextWrappingSide.BOTH_SIDES },
      } as never,
    });
    const hebrew = Array.from({ length: 150 }, (_, i) => `שלום${i}`).join(' ');
    const rtl = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph({
                bidirectional: true,
                children: [offCentre, new TextRun({ text: hebrew, rightToLeft: true })],
              }),
            ],
          },
        ],
      }),
    );
    const rtlWords = popplerWords((await convert(wordToPdf, 'beside-rtl.docx', rtl)).bytes);
    const over = rtlWords.filter((w) => w.yMax < 72 + 100 && w.xMax > 172 + 1 && w.xMin < 272 - 1);
    expect(rtlWords.length).toBeGreaterThan(100);
    expect(over).toEqual([]);
  });

  test('footnotes print at the foot of the page that refers to them, numbered; endnotes after the text', async () => {
    const filler = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => new Paragraph(`Filler paragraph ${i + 1} with enough words to take a line of its own on the page.`),
      );
    const docx = new Document({
      footnotes: {
        1: { children: [new Paragraph('First note: the source of the figures.')] },
        2: { children: [new Paragraph('Second note on a later page.')] },
      },
      endnotes: { 1: { children: [new Paragraph('An endnote after everything.')] } },
      sections: [
        {
          children: [
            new Paragraph({
              children: [
                new TextRun('Revenue grew'),
                new FootnoteReferenceRun(1),
                new TextRun(' last year.'),
                new EndnoteReferenceRun(1),
              ],
            }),
            ...filler(80),
            new Paragraph({ children: [new TextRun('Costs fell'), new FootnoteReferenceRun(2)] }),
            ...filler(5),
          ],
        },
      ],
    });
    const result = await convert(wordToPdf, 'notes.docx', await Packer.toBuffer(docx));
    await expectValidPdf(result);
    const pages = await texts(result);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const refPage = pages.findIndex((t) => t.includes('Costs fell'));
    expect(pages[0]).toMatch(/Revenue grew ?1 last year\. ?i/);
    expect(pages[0]).toMatch(/1 ?First note: the source of the figures\.$/); // at the foot, after the page's text
    expect(refPage).toBeGreaterThan(0);
    expect(pages[refPage]).toMatch(/Costs fell ?2/);
    expect(pages[refPage]).toMatch(/2 ?Second note on a later page\.( |$)/);
    expect(pages.filter((t) => t.includes('First note')).length).toBe(1);
    // The endnote follows the last paragraph of the text; the page's footnote stays at its foot.
    expect(pages[pages.length - 1]).toMatch(
      /Filler paragraph 5 with [^.]*\. i ?An endnote after everything\. 2 ?Second note on a later page\.$/,
    );
    // The note sits below the page's last line of text, above the bottom margin.
    const doc = await openPdfjs(result.bytes);
    const page = await doc.getPage(1);
    const items = ((await page.getTextContent()).items as Array<{ str: string; transform: number[] }>).filter((i) =>
      i.str.trim(),
    );
    await doc.destroy();
    const note = items.find((i) => i.str.includes('First note'))!;
    const lowestBody = Math.min(...items.filter((i) => i.str.includes('Filler')).map((i) => i.transform[5]));
    expect(note.transform[5]).toBeLessThan(lowestBody);
    expect(note.transform[5]).toBeGreaterThan(72 - 1);
  });

  test('tab stops: right-aligned page numbers with dot leaders (a table of contents), centred and left stops', async () => {
    const docx = new Document({
      sections: [
        {
          properties: { page: { size: { width: 11906, height: 16838 }, margin: { left: 1440, right: 1440 } } },
          children: [
            ...[
              ['Introduction', '1'],
              ['Results and discussion', '12'],
              ['Appendix', '104'],
            ].map(
              ([title, page]) =>
                new Paragraph({
                  tabStops: [{ type: TabStopType.RIGHT, position: 9000, leader: 'dot' }],
                  children: [new TextRun(title), new TextRun({ children: [new Tab(), page] })],
                }),
            ),
            new Paragraph({
              tabStops: [
                { type: TabStopType.LEFT, position: 2880 },
                { type: TabStopType.CENTER, position: 6000 },
              ],
              children: [new TextRun({ children: ['Name', new Tab(), 'Role', new Tab(), 'Mid'] })],
            }),
          ],
        },
      ],
    });
    const result = await convert(wordToPdf, 'toc.docx', await Packer.toBuffer(docx));
    const doc = await openPdfjs(result.bytes);
    const page = await doc.getPage(1);
    const items = (
      (await page.getTextContent()).items as Array<{ str: string; transform: number[]; width: number }>
    ).filter((i) => i.str.trim());
    await doc.destroy();
    const left = 72;
    // pdf.js reads each entry as one line: title, a row of leader dots, the number ending at the right stop.
    for (const [title, number] of [
      ['Introduction', '1'],
      ['Results and discussion', '12'],
      ['Appendix', '104'],
    ]) {
      const item = items.find((i) => i.str.startsWith(title))!;
      expect(item.str).toMatch(new RegExp(`^${title}(?: ?\\.){20,} ?${number}$`));
      expect(item.transform[4] + item.width).toBeCloseTo(left + 450, 0);
    }
    expect(items.find((i) => i.str.trim() === 'Role')!.transform[4]).toBeCloseTo(left + 144, 0);
    const mid = items.find((i) => i.str.trim() === 'Mid')!;
    expect(mid.transform[4] + mid.width / 2).toBeCloseTo(left + 300, 0);
  });

  test('a continuous section break keeps the page; two newspaper columns fill left, then right, then the next page', async () => {
    const page = {
      size: { width: 11906, height: 16838 },
      margin: { top: 1440, bottom: 1440, left: 1440, right: 1440 },
    };
    const docx = new Document({
      sections: [
        {
          properties: { page },
          children: [new Paragraph({ children: [new TextRun({ text: 'A two-column paper', size: 32 })] })],
        },
        {
          properties: { page, type: SectionType.CONTINUOUS, column: { count: 2, space: 720 } },
          children: Array.from({ length: 150 }, (_, i) => new Paragraph(`Column line ${i + 1}`)),
        },
      ],
    });
    const result = await convert(wordToPdf, 'paper.docx', await Packer.toBuffer(docx));
    await expectValidPdf(result);
    const doc = await openPdfjs(result.bytes);
    const read = async (n: number) =>
      ((await (await doc.getPage(n)).getTextContent()).items as Array<{ str: string; transform: number[] }>)
        .filter((i) => i.str.trim())
        .map((i) => ({ str: i.str, x: i.transform[4], top: 841.89 - i.transform[5] }));
    const first = await read(1);
    const second = doc.numPages > 1 ? await read(2) : [];
    await doc.destroy();
    const title = first.find((i) => i.str.includes('two-column paper'))!;
    const line1 = first.find((i) => i.str === 'Column line 1')!;
    expect(title.top).toBeLessThan(line1.top); // the columns start below the title, on the same page
    const columnWidth = (451.28 - 36) / 2;
    const rightColumn = first.filter(
      (i) => i.str.startsWith('Column line') && Math.abs(i.x - (72 + columnWidth + 36)) < 1,
    );
    expect(rightColumn.length).toBeGreaterThan(10);
    // the right column starts level with the left
    expect(Math.min(...rightColumn.map((i) => i.top))).toBeCloseTo(line1.top, 0);
    const leftCount = first.filter((i) => i.str.startsWith('Column line') && Math.abs(i.x - 72) < 1).length;
    // in order: down the left, then the right
    expect(rightColumn.map((i) => i.str)[0]).toBe(`Column line ${leftCount + 1}`);
    expect(second.some((i) => i.str.startsWith('Column line') && Math.abs(i.x - 72) < 1)).toBe(true);
  });

  test('page breaks as Word makes them: a heading kept with its text, no lone first or last line of a paragraph', async () => {
    // Exact 12 pt lines on an A4 page with 1 in margins: 58 lines fit.
    const exact = { line: 240, lineRule: LineRuleType.EXACT };
    const fillers = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => new Paragraph({ spacing: exact, children: [new TextRun(`filler ${i + 1}`)] }),
      );
    const lines = (words: string[], options: object) =>
      new Paragraph({
        spacing: exact,
        ...options,
        children: words.map((word, i) => new TextRun({ text: word, break: i ? 1 : 0 })),
      });
    const pagesOf = async (children: Paragraph[]) =>
      texts(
        await convert(
          wordToPdf,
          'breaks.docx',
          await Packer.toBuffer(
            new Document({
              sections: [
                {
                  properties: {
                    page: {
                      size: { width: 11906, height: 16838 },
                      margin: { top: 1440, bottom: 1440, left: 1440, right: 1440 },
                    },
                  },
                  children,
                },
              ],
            }),
          ),
        ),
      );

    // One line left: a heading "kept with next" goes over with its paragraph; without it, it stays.
    const kept = await pagesOf([
      ...fillers(57),
      lines(['Heading'], { keepNext: true }),
      lines(['Body one', 'Body two'], {}),
    ]);
    expect(kept[0]).not.toContain('Heading');
    expect(kept[1]).toMatch(/^Heading Body one/);
    const loose = await pagesOf([...fillers(57), lines(['Heading'], {}), lines(['Body one', 'Body two'], {})]);
    expect(loose[0]).toMatch(/Heading$/);

    // Four lines left for five: the last would be alone (a widow), so two go over.
    const widow = await pagesOf([...fillers(54), lines(['w1', 'w2', 'w3', 'w4', 'w5'], { widowControl: true })]);
    expect(widow[0]).toMatch(/w1 w2 w3$/);
    expect(widow[1]).toBe('w4 w5');
    // One line left for three: the first would be alone (an orphan), so the paragraph goes over.
    const orphan = await pagesOf([...fillers(57), lines(['o1', 'o2', 'o3'], { widowControl: true })]);
    expect(orphan[0]).toMatch(/filler 57$/);
    expect(orphan[1]).toBe('o1 o2 o3');
    // Without widow control the lines simply fill the page.
    const plain = await pagesOf([...fillers(54), lines(['w1', 'w2', 'w3', 'w4', 'w5'], {})]);
    expect(plain[1]).toBe('w5');
  });

  test('paragraph borders: a rule under a heading; consecutive boxed paragraphs share one box', async () => {
    const red = { style: BorderStyle.SINGLE, size: 8, color: 'FF0000', space: 4 };
    const blue = { style: BorderStyle.SINGLE, size: 8, color: '0000FF', space: 2 };
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph({ border: { bottom: red }, children: [new TextRun('Curriculum vitae')] }),
            new Paragraph('Under the rule'),
            new Paragraph({
              border: { top: blue, bottom: blue, left: blue, right: blue },
              children: [new TextRun('Boxed one')],
            }),
            new Paragraph({
              border: { top: blue, bottom: blue, left: blue, right: blue },
              children: [new TextRun('Boxed two')],
            }),
          ],
        },
      ],
    });
    const result = await convert(wordToPdf, 'cv.docx', await Packer.toBuffer(docx));
    await expectValidPdf(result);
    const content = await pageContent(result.bytes, 0);
    // pdf-lib's drawLine: "… RG … x1 y1 m x2 y2 l S" — collect each stroked line with its colour.
    const lines = [
      ...content.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) RG\n[^]*?([\d.]+) ([\d.]+) m\n([\d.]+) ([\d.]+) l\nS/g),
    ].map((m) => ({
      color: m.slice(1, 4).join(' '),
      x1: Number(m[4]),
      y1: Number(m[5]),
      x2: Number(m[6]),
      y2: Number(m[7]),
    }));
    const reds = lines.filter((l) => l.color === '1 0 0');
    const blues = lines.filter((l) => l.color === '0 0 1');
    expect(reds).toHaveLength(1);
    expect(blues.filter((l) => l.y1 === l.y2)).toHaveLength(2); // one top, one bottom: not one between the two
    expect(blues.filter((l) => l.x1 === l.x2).length).toBeGreaterThanOrEqual(2); // left and right sides
    const doc = await openPdfjs(result.bytes);
    const items = (
      (await (await doc.getPage(1)).getTextContent()).items as Array<{ str: string; transform: number[] }>
    ).filter((i) => i.str.trim());
    await doc.destroy();
    const heading = items.find((i) => i.str === 'Curriculum vitae')!,
      under = items.find((i) => i.str === 'Under the rule')!;
    expect(reds[0].y1).toBeLessThan(heading.transform[5]); // below the heading's baseline
    expect(reds[0].y1).toBeGreaterThan(under.transform[5] + 5); // above the next paragraph's text
    const boxTop = Math.max(...blues.map((l) => l.y1)),
      boxBottom = Math.min(...blues.map((l) => l.y1));
    for (const text of ['Boxed one', 'Boxed two']) {
      const item = items.find((i) => i.str === text)!;
      expect(item.transform[5]).toBeLessThan(boxTop);
      expect(item.transform[5]).toBeGreaterThan(boxBottom);
    }
  });

  test('legacy VML pictures and horizontal rules (older Word files) are drawn', async () => {
    const base = new Document({
      sections: [
        {
          children: [
            new Paragraph({
              children: [
                new TextRun('Logo:'),
                new ImageRun({ type: 'png', data: RED_PNG, transformation: { width: 10, height: 10 } }),
              ],
            }),
            new Paragraph('Below the rule'),
          ],
        },
      ],
    });
    const zip = await JSZip.loadAsync(await Packer.toBuffer(base));
    const xml = await zip.file('word/document.xml')!.async('string');
    const rId = /r:embed="([^"]+)"/.exec(xml)![1];
    // The picture as Word 2003 wrote it, and a horizontal rule before the second paragraph.
    const vml =
      `<w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:60pt;height:30pt"><v:imagedata ` +
      `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ` +
      `r:id="${rId}"/></v:shape></w:pict>`;
    const rule =
      '<w:p><w:r><w:pict><v:rect xmlns:v="urn:schemas-microsoft-com:vml" ' +
      'xmlns:o="urn:schemas-microsoft-com:office:office" style="width:0;height:1.5pt" o:hr="t" ' +
      'fillcolor="#0000FF"/></w:pict></w:r></w:p>';
    const edited = xml
      .replace(/<w:drawing>[^]*?<\/w:drawing>/, vml)
      .replace(/(<w:p>(?:(?!<w:p>)[^])*?Below the rule)/, `${rule}$1`);
    zip.file('word/document.xml', edited);
    const result = await convert(wordToPdf, 'legacy.docx', await zip.generateAsync({ type: 'uint8array' }));
    await expectValidPdf(result);
    expect(result.notes?.join(' ') ?? '').not.toMatch(/VML/);
    const content = await pageContent(result.bytes, 0);
    expect(content).toMatch(/\n60 0 0 30 0 0 cm\n1 0 0 1 0 0 cm\n\/\S+ Do/); // the picture at the shape's 60 × 30 pt
    // The blue rule across the text column (pdf-lib: translate to its corner, then the outline).
    const ruleOps = content.slice(content.indexOf('0 0 1 rg'));
    expect(ruleOps).toMatch(/^0 0 1 rg\n(?:[^\n]*\n){2}1 0 0 1 72 [\d.]+ cm\n/);
    expect(ruleOps.slice(0, 200)).toMatch(/\n0 1\.5 l\n451\.\d+ 1\.5 l\n451\.\d+ 0 l\n/);
  });

  test('long text flows onto as many pages as it needs, and a page range keeps only those pages', async () => {
    const words = Array.from({ length: 2500 }, (_, i) => `word${i}`).join(' ');
    const docx = new Document({ sections: [{ children: [new Paragraph(words)] }] });
    const bytes = await Packer.toBuffer(docx);
    const all = await convert(wordToPdf, 'long.docx', bytes);
    const count = (await PDFDocument.load(all.bytes)).getPageCount();
    expect(count).toBeGreaterThan(2);
    const pages = await texts(all);
    expect(pages.join(' ')).toContain('word0 word1 word2');
    expect(pages[pages.length - 1]).toContain('word2499');
    const firstOnly = await convert(wordToPdf, 'long.docx', bytes, { pages: '1' });
    expect((await PDFDocument.load(firstOnly.bytes)).getPageCount()).toBe(1);
  });

  test('numbered and bulleted lists get their markers', async () => {
    const docx = new Document({
      numbering: {
        config: [
          {
            reference: 'steps',
            levels: [{ level: 0, format: 'decimal', text: '%1.', alignment: AlignmentType.START }],
          },
        ],
      },
      sections: [
        {
          children: [
            new Paragraph({ text: 'First step', numbering: { reference: 'steps', level: 0 } }),
            new Paragraph({ text: 'Second step', numbering: { reference: 'steps', level: 0 } }),
            new Paragraph({ text: 'A point', bullet: { level: 0 } }),
          ],
        },
      ],
    });
    const [page] = await texts(await convert(wordToPdf, 'lists.docx', await Packer.toBuffer(docx)));
    expect(page).toMatch(/1\. ?First step 2\. ?Second step ● ?A point/);
  });

  test('non-Latin text is drawn with a font that has it (Greek, Cyrillic, CJK)', async () => {
    const docx = new Document({ sections: [{ children: [new Paragraph('Ελληνικά Русский 中文文本')] }] });
    const [page] = await texts(await convert(wordToPdf, 'scripts.docx', await Packer.toBuffer(docx)));
    expect(page).toContain('Ελληνικά Русский 中文文本');
  });

  test('bad input gets a clear message', async () => {
    await expect(convert(wordToPdf, 'empty.docx', new Uint8Array())).rejects.toThrow(/empty/);
    await expect(convert(wordToPdf, 'notes.docx', new TextEncoder().encode('plain text'))).rejects.toThrow(
      /not a \.docx file/,
    );
    await expect(convert(wordToPdf, 'old.doc', Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0]))).rejects.toThrow(
      /old-style \.doc/,
    );
    // Word to PDF reads RTF now (tests/unit/office-odf.test.ts); the other tools point to it.
    await expect(convert(excelToPdf, 'letter.rtf', new TextEncoder().encode('{\\rtf1 hello}'))).rejects.toThrow(
      /RTF document: use the Word to PDF tool/,
    );
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('S').getCell('A1').value = 1;
    await expect(convert(wordToPdf, 'sheet.docx', await workbook.xlsx.writeBuffer())).rejects.toThrow(/Excel to PDF/);
  });
});

describe('excel-to-pdf', () => {
  async function workbook(): Promise<ArrayBuffer> {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Budget');
    sheet.columns = [{ width: 20 }, { width: 12 }, { width: 14 }];
    sheet.addRow(['Item', 'Amount', 'Date']).font = { bold: true };
    sheet.addRow(['Rent', 1250.5, new Date(Date.UTC(2025, 2, 1))]);
    sheet.addRow(['Share', 0.25, null]);
    sheet.getCell('B2').numFmt = '#,##0.00';
    sheet.getCell('C2').numFmt = 'yyyy-mm-dd';
    sheet.getCell('B3').numFmt = '0%';
    sheet.mergeCells('A5:C5');
    sheet.getCell('A5').value = 'Merged note across three columns';
    const second = wb.addWorksheet('Notes');
    second.getCell('A1').value = 'Second sheet';
    return wb.xlsx.writeBuffer() as Promise<ArrayBuffer>;
  }

  test('every sheet is printed with Excel number formats applied', async () => {
    const result = await convert(excelToPdf, 'budget.xlsx', await workbook());
    await expectValidPdf(result);
    const pages = await texts(result);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toMatch(/Item Amount Date Rent 1,250\.50 2025-03-01 Share 25%/);
    expect(pages[0]).toContain('Merged note across three columns');
    expect(pages[1]).toContain('Second sheet');
  });

  test('"active sheet only" prints one sheet; landscape turns the page', async () => {
    const result = await convert(excelToPdf, 'budget.xlsx', await workbook(), {
      sheets: 'active',
      orientation: 'landscape',
    });
    const pdf = await PDFDocument.load(result.bytes);
    expect(pdf.getPageCount()).toBe(1);
    const { width, height } = pdf.getPage(0).getSize();
    expect(width).toBeGreaterThan(height);
  });

  test('a sheet wider than the page is split into column bands, or scaled to fit on request', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Wide');
    for (let c = 1; c <= 30; c++) sheet.getCell(1, c).value = `Col${c}`;
    const bytes = await wb.xlsx.writeBuffer();
    const banded = await convert(excelToPdf, 'wide.xlsx', bytes);
    const bands = await texts(banded);
    expect(bands.length).toBeGreaterThan(1);
    expect(bands.join(' ')).toContain('Col30');
    const fitted = await convert(excelToPdf, 'wide.xlsx', bytes, { fitToWidth: true });
    const [only, ...rest] = await texts(fitted);
    expect(rest).toHaveLength(0);
    expect(only).toMatch(/Col1 .*Col30/);
  });

  test('CSV is printed as a table', async () => {
    const csv = 'name,qty\n"Smith, J.",3\nLee,12\n';
    const [page] = await texts(await convert(excelToPdf, 'orders.csv', new TextEncoder().encode(csv)));
    expect(page).toMatch(/name qty Smith, J\. 3 Lee 12/);
    expect(parseCsv('a;b\n1;"x;y"\n')).toEqual([
      ['a', 'b'],
      ['1', 'x;y'],
    ]);
  });

  test(
    'a date or formatted number too wide for its column prints as ### (as Excel and LibreOffice print it), never ' +
      'cut',
    async () => {
      const wb = new ExcelJS.Workbook();
      const sheet = wb.addWorksheet('Narrow');
      sheet.columns = [{ width: 4 }, { width: 14 }, { width: 4 }];
      sheet.addRow([new Date(Date.UTC(2024, 0, 3)), new Date(Date.UTC(2024, 0, 3)), 'Note that runs on']);
      sheet.getCell('A1').numFmt = 'dd/mm/yyyy';
      sheet.getCell('B1').numFmt = 'dd/mm/yyyy';
      const [page] = await texts(await convert(excelToPdf, 'narrow.xlsx', await wb.xlsx.writeBuffer()));
      expect(page).toMatch(/^#{2,} 03\/01\/2024 Note that runs on$/);
    },
  );

  test('page headers and footers: Excel codes for regions, page numbers, sheet and file name; a different first page', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Ledger');
    for (let r = 1; r <= 120; r++) sheet.addRow([`Entry ${r}`, r * 10]);
    sheet.headerFooter.oddHeader = '&L&"Arial,Bold"Acme && Co&C&A&R&F';
    sheet.headerFooter.oddFooter = '&CPage &P of &N';
    sheet.headerFooter.differentFirst = true;
    sheet.headerFooter.firstHeader = '&CFirst page header';
    const pages = await texts(await convert(excelToPdf, 'ledger.xlsx', await wb.xlsx.writeBuffer()));
    expect(pages.length).toBe(3);
    // The first page has its own header and, as its first footer is empty, no footer.
    expect(pages[0]).toMatch(/^First page header Entry 1 10 /);
    expect(pages[0]).not.toContain('Page 1');
    expect(pages[1]).toMatch(/^Acme & Co Ledger ledger\.xlsx Entry \d+ .* Page 2 of 3$/);
    expect(pages[2]).toMatch(/Page 3 of 3$/);
  });

  test('header/footer codes: sections, fields, fonts, sizes and literal ampersands', () => {
    const ctx = { sheetName: 'Q1', fileName: 'book.xlsx', base: { font: 'Calibri', size: 11 } };
    const [left, center, right] = parseExcelHeaderFooter(
      'Draft&L&"Times New Roman,Bold Italic"&14Left && more&RSheet &A of &F',
      ctx,
    );
    const runs = (blocks: typeof left) => blocks.flatMap((b) => (b.kind === 'paragraph' ? b.inlines : []));
    expect(runs(center).map((i) => (i.kind === 'text' ? i.text : ''))).toEqual(['Draft']);
    const [leftRun] = runs(left);
    expect(leftRun).toMatchObject({
      kind: 'text',
      text: 'Left & more',
      style: { font: 'Times New Roman', size: 14, bold: true, italic: true },
    });
    expect(runs(right).map((i) => (i.kind === 'text' ? i.text : ''))).toEqual(['Sheet ', 'Q1', ' of ', 'book.xlsx']);
    const [, pageCenter] = parseExcelHeaderFooter('&CPage &P / &N', ctx);
    expect(runs(pageCenter).map((i) => i.kind)).toEqual(['text', 'field', 'text', 'field']);
  });

  test("column widths as LibreOffice lays them out: the default font's digit width, default columns on 8 px steps", () => {
    expect(maxDigitWidth({ name: 'Calibri', size: 11 })).toBe(7);
    expect(maxDigitWidth({ name: 'Calibri', size: 12 })).toBe(8);
    expect(maxDigitWidth({ name: 'Arial', size: 10 })).toBe(7);
    const calibri = digitWidthPt({ name: 'Calibri', size: 11 });
    // Calibri 11, no width: 64 px ("8.43"); an explicit width is that many digits, unrounded.
    expect(columnWidthPt(undefined, calibri)).toBe(48);
    expect(columnWidthPt(20, calibri)).toBeCloseTo(111.5, 1);
    // A font LibreOffice does not have is measured with its fallback, DejaVu Sans (0.636 em digits).
    expect(digitWidthPt({ name: 'HelveticaNeue LightExt', size: 10 })).toBeCloseTo(6.36, 2);
    // A Mac workbook (Calibri 12, baseColWidth 10): 88 px, so 7 columns fit an A4 page, as in LibreOffice.
    expect(columnWidthPt(undefined, digitWidthPt({ name: 'Calibri', size: 12 }), 10)).toBe(66);
  });

  /** The decoded content of a page and pdf.js's text items with their baselines (from the top) and sizes. */
  async function pageOf(bytes: Uint8Array, index: number) {
    const content = await pageContent(bytes, index);
    const js = await openPdfjs(bytes);
    const page = await js.getPage(index + 1);
    const height = page.getViewport({ scale: 1 }).height;
    const items = ((await page.getTextContent()).items as Array<{ str: string; transform: number[] }>)
      .filter((i) => i.str.trim())
      .map((i) => ({ str: i.str, x: i.transform[4], top: height - i.transform[5], size: Math.abs(i.transform[3]) }));
    await js.destroy();
    return { content, items };
  }

  test('theme colours with tints and indexed colours, as Excel shows them', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Colours');
    sheet.getCell('A1').value = 'light';
    sheet.getCell('A1').fill = { type: 'pattern', pattern: 'solid', fgColor: { theme: 4, tint: 0.8 } as never };
    sheet.getCell('B1').value = 'dark';
    sheet.getCell('B1').fill = { type: 'pattern', pattern: 'solid', fgColor: { theme: 4, tint: -0.25 } as never };
    sheet.getCell('C1').value = 'red text';
    sheet.getCell('C1').font = { color: { indexed: 10 } as never };
    const { content } = await pageOf((await convert(excelToPdf, 'colours.xlsx', await wb.xlsx.writeBuffer())).bytes, 0);
    const colours = [...content.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) rg/g)].map((m) => m.slice(1).map(Number));
    const has = (hex: string) =>
      colours.some((c) => c.every((v, i) => Math.abs(v * 255 - parseInt(hex.slice(2 * i, 2 * i + 2), 16)) < 1));
    expect(has('DCE6F2')).toBe(true); // "Blue, Accent 1, Lighter 80%" of the Office 2007 theme
    expect(has('376092')).toBe(true); // "Darker 25%"
    expect(has('FF0000')).toBe(true);
  });

  test('page setup: print area, print titles on every page, centred, scaled; pictures at their anchor', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Lineup');
    sheet.addRow(['Vessel list', '', '', 'outside']);
    sheet.addRow(['Name', 'Cargo', 'Tons', 'outside']);
    for (let r = 1; r <= 150; r++) sheet.addRow([`Vessel ${r}`, 'Coal', r * 100, 'outside']);
    sheet.pageSetup.printArea = 'A1:C120';
    wb.addWorksheet('Whole').addRow(['whole-sheet print area']);
    wb.getWorksheet('Whole')!.pageSetup.printArea = 'A1:XFD1048576'; // prints its one cell, not a million rows
    sheet.pageSetup.printTitlesRow = '1:2';
    sheet.pageSetup.paperSize = 9; // A4
    sheet.pageSetup.horizontalCentered = true;
    sheet.pageSetup.scale = 50;
    const picture = wb.addImage({ buffer: RED_PNG as never, extension: 'png' });
    sheet.addImage(picture, { tl: { col: 1, row: 4 }, ext: { width: 40, height: 20 } } as never);
    const result = await convert(excelToPdf, 'lineup.xlsx', await wb.xlsx.writeBuffer());
    await expectValidPdf(result);
    const pages = await texts(result);
    expect(pages.join(' ')).not.toContain('outside');
    expect(pages.join(' ')).toContain('Vessel 118');
    expect(pages.join(' ')).not.toContain('Vessel 119'); // row 120 is the last of the print area
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.at(-1)).toBe('whole-sheet print area');
    for (const text of pages.slice(0, -1)) expect(text).toMatch(/^Vessel list Name Cargo Tons/);
    const first = await pageOf(result.bytes, 0);
    const cell = first.items.find((i) => i.str === 'Vessel 1')!;
    expect(cell.size).toBeCloseTo(11 * 0.5, 1);
    expect(cell.x).toBeGreaterThan(150); // centred on the A4 page, not at the 0.7 in margin
    // The picture lies over row 5 (0-based row 4) at column B, 30 × 15 pt at 50 %.
    // pdf-lib draws an image as: translate, rotate, scale (its size), skew, Do.
    const [x, y, width, height] =
      /1 0 0 1 ([\d.]+) ([\d.]+) cm\n1 0 0 1 0 0 cm\n([\d.]+) 0 0 ([\d.]+) 0 0 cm\n1 0 0 1 0 0 cm\n\/\S+ Do/
        .exec(first.content)!
        .slice(1)
        .map(Number);
    expect([width, height]).toEqual([15, 7.5]);
    const row5 = first.items.find((i) => i.str === 'Vessel 3')!,
      row6 = first.items.find((i) => i.str === 'Vessel 4')!;
    const imageTop = 841.89 - (y + height);
    expect(imageTop).toBeGreaterThan(row5.top - 11 * 0.5 - 2);
    expect(imageTop).toBeLessThan(row6.top - 11 * 0.5);
    expect(x).toBeGreaterThan(cell.x + 10);
  });

  test('conditional formats: highlight rules, colour scales, data bars and text rules as Excel shows them', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Scores');
    for (let i = 1; i <= 6; i++) sheet.addRow([i * 10, i * 10, `item ${i}`, (i - 1) * 20]);
    sheet.addConditionalFormatting({
      ref: 'A1:A6',
      rules: [
        {
          type: 'cellIs',
          operator: 'greaterThan',
          formulae: ['30'],
          priority: 1,
          style: {
            fill: { type: 'pattern', pattern: 'solid', bgColor: { argb: 'FFFFC7CE' } },
            font: { color: { argb: 'FF9C0006' } },
          },
        },
      ],
    });
    sheet.addConditionalFormatting({
      ref: 'B1:B6',
      rules: [
        {
          type: 'colorScale',
          priority: 2,
          cfvo: [{ type: 'min' }, { type: 'max' }],
          color: [{ argb: 'FFF8696B' }, { argb: 'FF63BE7B' }],
        } as never,
      ],
    });
    sheet.addConditionalFormatting({
      ref: 'C1:C6',
      rules: [
        {
          type: 'containsText',
          operator: 'containsText',
          text: 'item 3',
          priority: 3,
          style: { fill: { type: 'pattern', pattern: 'solid', bgColor: { argb: 'FFC6EFCE' } } },
        } as never,
      ],
    });
    sheet.addConditionalFormatting({
      ref: 'D1:D6',
      rules: [
        {
          type: 'dataBar',
          priority: 4,
          cfvo: [{ type: 'min' }, { type: 'max' }],
          color: { argb: 'FF638EC6' },
        } as never,
      ],
    });
    sheet.addConditionalFormatting({
      ref: 'A1:A6',
      rules: [
        {
          type: 'expression',
          formulae: ['MOD(ROW(),2)=0'],
          priority: 5,
          style: { fill: { type: 'pattern', pattern: 'solid', bgColor: { argb: 'FF000000' } } },
        } as never,
      ],
    });
    // A rule over the whole sheet is only evaluated where there are cells (not over 17 billion).
    sheet.addConditionalFormatting({
      ref: 'A1:XFD1048576',
      rules: [
        { type: 'cellIs', operator: 'equal', formulae: ['"item 6"'], priority: 6, style: { font: { bold: true } } },
      ],
    });
    const result = await convert(excelToPdf, 'scores.xlsx', await wb.xlsx.writeBuffer());
    await expectValidPdf(result);
    expect(result.notes?.join(' ')).toMatch(/conditional formats of type "expression" were not applied/);
    const { content } = await pageOf(result.bytes, 0);
    // pdf-lib's drawRectangle: colour, then a translation to the corner and the outline "0 0 m 0 h l w h l w 0 l h f".
    const fills = [
      ...content.matchAll(
        /([\d.]+) ([\d.]+) ([\d.]+) rg\n0 w\n\[\] 0 d\n1 0 0 1 [\d.-]+ [\d.-]+ cm\n(?:1 0 0 1 0 0 cm\n)*0 0 m\n0 [\d.]+ l\n([\d.]+) [\d.]+ l\n/g,
      ),
    ].map((m) => ({
      rgb: m
        .slice(1, 4)
        .map((v) => Math.round(Number(v) * 255))
        .join(','),
      width: Number(m[4]),
    }));
    const count = (rgb: string) => fills.filter((f) => f.rgb === rgb).length;
    expect(count('255,199,206')).toBe(3); // 40, 50 and 60 are greater than 30
    expect(count('248,105,107')).toBe(1); // the scale's low end at the minimum…
    expect(count('99,190,123')).toBe(1); // …and its high end at the maximum
    expect(count('198,239,206')).toBe(1); // "item 3"
    expect(count('0,0,0')).toBe(0); // the expression rule is not guessed at
    const bars = fills.filter(
      (f) => f.rgb === [0x63, 0x8e, 0xc6].map((v) => Math.round(v + (255 - v) * 0.35)).join(','),
    );
    expect(bars).toHaveLength(6);
    const widths = bars.map((b) => b.width).sort((a, b) => a - b);
    expect(widths[5] / widths[0]).toBeCloseTo(10, 0); // from a tenth of the cell (the minimum) to all of it
  });

  test('fit to one page tall scales every row onto one page', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Long');
    for (let r = 1; r <= 200; r++) sheet.addRow([`row ${r}`]);
    sheet.pageSetup.fitToPage = true;
    sheet.pageSetup.fitToWidth = 1;
    sheet.pageSetup.fitToHeight = 1;
    const pages = await texts(await convert(excelToPdf, 'long.xlsx', await wb.xlsx.writeBuffer()));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatch(/row 1 .*row 200$/);
  });

  test('display text follows number formats', () => {
    expect(displayText(1234.5, '#,##0.00').text).toBe('1,234.50');
    expect(displayText(0.125, '0.0%').text).toBe('12.5%');
    expect(displayText(new Date(Date.UTC(2024, 1, 29)), 'd-mmm-yy').text).toBe('29-Feb-24');
    expect(displayText({ formula: 'A1*2', result: 4 } as ExcelJS.CellFormulaValue, 'General').text).toBe('4');
    expect(displayText(true, undefined).text).toBe('TRUE');
  });
});

describe('ppt-to-pdf', () => {
  async function deck(): Promise<ArrayBuffer> {
    const pptx = new PptxGenJS();
    pptx.layout = 'LAYOUT_16x9';
    const one = pptx.addSlide();
    one.background = { color: '1F4FD1' };
    one.addText('Launch plan', { x: 0.5, y: 0.5, w: 9, h: 1, fontSize: 36, bold: true, color: 'FFFFFF' });
    one.addText('Ship the beta in March', { x: 0.5, y: 2, w: 9, h: 1, fontSize: 20, color: 'FFFFFF' });
    const two = pptx.addSlide();
    two.addShape(pptx.ShapeType.rect, { x: 1, y: 1, w: 3, h: 1.5, fill: { color: 'FF0000' } });
    two.addText('Second slide text', { x: 1, y: 3, w: 6, h: 1, fontSize: 18 });
    two.addImage({ data: `data:image/png;base64,${btoa(String.fromCharCode(...RED_PNG))}`, x: 6, y: 1, w: 1, h: 1 });
    two.addTable(
      [
        [{ text: 'Q1' }, { text: 'Q2' }],
        [{ text: '10' }, { text: '20' }],
      ],
      { x: 1, y: 4, w: 4 },
    );
    return (await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer;
  }

  test('one page per slide at the 16:9 size, with the slides’ text', async () => {
    const result = await convert(pptToPdf, 'plan.pptx', await deck());
    await expectValidPdf(result);
    const pdf = await PDFDocument.load(result.bytes);
    expect(pdf.getPageCount()).toBe(2);
    const { width, height } = pdf.getPage(0).getSize();
    expect(width / height).toBeCloseTo(16 / 9, 2);
    const pages = await texts(result);
    expect(pages[0]).toMatch(/Launch plan.*Ship the beta in March/);
    expect(pages[1]).toMatch(/Second slide text/);
    expect(pages[1]).toMatch(/Q1.*Q2.*10.*20/);
  });

  test('each slide gets a bookmark', async () => {
    const doc = await openPdfjs((await convert(pptToPdf, 'plan.pptx', await deck())).bytes);
    expect((await doc.getOutline()).map((item) => item.title)).toEqual(['Slide 1', 'Slide 2']);
    await doc.destroy();
  });

  test(
    'slide text lines are 1.2 × the text size apart whatever the font, baseline one size below the top; space ' +
      'before in percent of the size',
    async () => {
      const pptx = new PptxGenJS();
      const slide = pptx.addSlide();
      const lines = (word: string) => [1, 2, 3].map((n) => ({ text: `${word}${n}`, options: { breakLine: true } }));
      slide.addText(lines('Cal'), {
        x: 0.5,
        y: 0.5,
        w: 3,
        h: 3,
        fontFace: 'Calibri',
        fontSize: 20,
        valign: 'top',
        margin: 0,
      });
      slide.addText(lines('Cou'), {
        x: 4,
        y: 0.5,
        w: 3,
        h: 3,
        fontFace: 'Courier New',
        fontSize: 20,
        valign: 'top',
        margin: 0,
      });
      slide.addText(lines('Spc'), {
        x: 7,
        y: 0.5,
        w: 3,
        h: 3,
        fontFace: 'Arial',
        fontSize: 10,
        valign: 'top',
        margin: 0,
      });
      const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer);
      // The third box's paragraphs get space before of 50 % of their text size (5 pt).
      const slidePath = 'ppt/slides/slide1.xml';
      const xml = await zip.file(slidePath)!.async('string');
      const third = xml.lastIndexOf('<p:sp>');
      zip.file(
        slidePath,
        xml.slice(0, third) +
          xml
            .slice(third)
            .replace(/<a:pPr([^>]*?)\/>/g, '<a:pPr$1><a:spcBef><a:spcPct val="50000"/></a:spcBef></a:pPr>')
            .replace(/<a:pPr([^>]*?)>(?!<a:spcBef)/g, '<a:pPr$1><a:spcBef><a:spcPct val="50000"/></a:spcBef>'),
      );
      const result = await convert(pptToPdf, 'lines.pptx', await zip.generateAsync({ type: 'uint8array' }));
      const doc = await openPdfjs(result.bytes);
      const page = await doc.getPage(1);
      const height = page.getViewport({ scale: 1 }).height;
      const baselines = new Map(
        ((await page.getTextContent()).items as Array<{ str: string; transform: number[] }>).map((item) => [
          item.str,
          height - item.transform[5],
        ]),
      );
      await doc.destroy();
      for (const word of ['Cal', 'Cou']) {
        expect(baselines.get(`${word}1`)).toBeCloseTo(36 + 20, 1); // 0.5 in from the top, no inset
        expect(baselines.get(`${word}2`)! - baselines.get(`${word}1`)!).toBeCloseTo(24, 1);
        expect(baselines.get(`${word}3`)! - baselines.get(`${word}2`)!).toBeCloseTo(24, 1);
      }
      expect(baselines.get('Spc2')! - baselines.get('Spc1')!).toBeCloseTo(12 + 5, 1);
    },
  );

  test('hidden slides are left out (with a note) unless chosen by number', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('Shown one', { x: 1, y: 1, w: 6, h: 1 });
    const hidden = pptx.addSlide();
    hidden.hidden = true;
    hidden.addText('Backup slide', { x: 1, y: 1, w: 6, h: 1 });
    pptx.addSlide().addText('Shown two', { x: 1, y: 1, w: 6, h: 1 });
    const bytes = (await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer;
    const all = await convert(pptToPdf, 'deck.pptx', bytes);
    expect(await texts(all)).toEqual(['Shown one', 'Shown two']);
    expect(all.notes?.join(' ')).toMatch(/1 hidden slide was left out/);
    expect(await texts(await convert(pptToPdf, 'deck.pptx', bytes, { pages: '2' }))).toEqual(['Backup slide']);
  });

  test('a slide range keeps only those slides', async () => {
    const result = await convert(pptToPdf, 'plan.pptx', await deck(), { pages: '2' });
    const pages = await texts(result);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('Second slide text');
  });
});

describe('hyperlinks', () => {
  /** The page's link annotations: address and rectangle. */
  async function linksOf(bytes: Uint8Array, index = 0) {
    const pdf = await PDFDocument.load(bytes);
    const annots = pdf.getPage(index).node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    return (annots?.asArray() ?? []).map((ref) => {
      const annot = pdf.context.lookup(ref, PDFDict);
      const action = annot.lookup(PDFName.of('A'), PDFDict);
      return {
        uri: (action.lookup(PDFName.of('URI')) as PDFString).decodeText(),
        rect: annot
          .lookup(PDFName.of('Rect'), PDFArray)
          .asArray()
          .map((n) => (n as PDFNumber).asNumber()),
      };
    });
  }

  test('Word, Excel and PowerPoint links stay clickable in the PDF (web and mail addresses only)', async () => {
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph({
              children: [
                new TextRun('Portfolio: '),
                new ExternalHyperlink({
                  link: 'https://example.org/work',
                  children: [new TextRun({ text: 'example.org/work', style: 'Hyperlink' })],
                }),
                new TextRun(' and '),
                new ExternalHyperlink({ link: 'javascript:alert(1)', children: [new TextRun('a script')] }),
              ],
            }),
          ],
        },
      ],
    });
    const word = await convert(wordToPdf, 'cv.docx', await Packer.toBuffer(docx));
    await expectValidPdf(word);
    const wordLinks = await linksOf(word.bytes);
    expect(wordLinks.map((l) => l.uri)).toEqual(['https://example.org/work']);
    const [x1, y1, x2, y2] = wordLinks[0].rect;
    const doc = await openPdfjs(word.bytes);
    const item = (
      (await (await doc.getPage(1)).getTextContent()).items as Array<{ str: string; transform: number[] }>
    ).find((i) => i.str.includes('Portfolio'))!;
    await doc.destroy();
    expect(x1).toBeGreaterThan(item.transform[4] + 20); // over the link's words, not the label before them
    expect(x2 - x1).toBeGreaterThan(40);
    expect(y1).toBeLessThan(item.transform[5]);
    expect(y2).toBeGreaterThan(item.transform[5]);

    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Links').getCell('A1').value = { text: 'Mail us', hyperlink: 'mailto:team@example.org' };
    expect(
      (await linksOf((await convert(excelToPdf, 'links.xlsx', await wb.xlsx.writeBuffer())).bytes)).map((l) => l.uri),
    ).toEqual(['mailto:team@example.org']);

    // A table of contents entry links to its heading's bookmark, on a later page.
    const toc = new Document({
      sections: [
        {
          children: [
            new Paragraph({
              children: [new InternalHyperlink({ anchor: 'results', children: [new TextRun('Go to the results')] })],
            }),
            new Paragraph({
              pageBreakBefore: true,
              children: [new Bookmark({ id: 'results', children: [new TextRun('Results')] })],
            }),
          ],
        },
      ],
    });
    const tocPdf = await convert(wordToPdf, 'toc.docx', await Packer.toBuffer(toc));
    await expectValidPdf(tocPdf);
    const loaded = await PDFDocument.load(tocPdf.bytes);
    const annots = loaded.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray);
    const destination = loaded.context.lookup(annots.get(0), PDFDict).lookup(PDFName.of('Dest'), PDFArray);
    expect(destination.get(0)).toBe(loaded.getPage(1).ref);

    const pptx = new PptxGenJS();
    pptx.addSlide().addText([{ text: 'Docs', options: { hyperlink: { url: 'https://example.org/docs' } } }], {
      x: 1,
      y: 1,
      w: 4,
      h: 1,
    });
    const slides = await convert(
      pptToPdf,
      'links.pptx',
      (await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer,
    );
    expect((await linksOf(slides.bytes)).map((l) => l.uri)).toEqual(['https://example.org/docs']);
  });
});
