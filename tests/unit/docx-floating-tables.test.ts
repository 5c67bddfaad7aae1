/**
 * Floating tables (Word's w:tblpPr: Table Properties › Text wrapping › Around): a sidebar, an address
 * block at the right of a letter, a cover page's title box. Folio printed them inline at the left
 * margin, pushing the text below them. Expected: where LibreOffice 7.4 prints the same generated
 * documents (soffice --convert-to pdf), read back with poppler's word boxes.
 */
import { describe, expect, test } from 'vitest';
import {
  Document,
  Packer,
  Paragraph,
  RelativeHorizontalPosition,
  Table,
  TableAnchorType,
  TableCell,
  TableRow,
  WidthType,
  type ITableFloatOptions,
} from 'docx';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerWords } from '../support/pdf.ts';

const words = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).join(' ');

/** A 2 inch wide table of 3 × 2 cells "cell00" … "cell21". */
const smallTable = (float: ITableFloatOptions) =>
  new Table({
    width: { size: 2880, type: WidthType.DXA },
    columnWidths: [1440, 1440],
    float,
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

async function printed(children: Array<Paragraph | Table>) {
  const bytes = await Packer.toBuffer(new Document({ sections: [{ children }] }));
  const found = popplerWords((await convert(wordToPdf, 'floating.docx', bytes)).bytes);
  const word = (text: string) => found.find((w) => w.text === text)!;
  /** The words that start a line at the left margin, in order. */
  const lineStarts = (prefix: string) =>
    found.filter((w) => w.text.startsWith(prefix) && w.xMin < 73).map((w) => w.text);
  return { word, lineStarts };
}

/** At the right of the margins, 1475 twips from the page's top (a cover page's box, as in poi-bug54771b). */
const RIGHT_OF_THE_PAGE_TOP: ITableFloatOptions = {
  horizontalAnchor: TableAnchorType.MARGIN,
  verticalAnchor: TableAnchorType.PAGE,
  relativeHorizontalPosition: RelativeHorizontalPosition.RIGHT,
  absoluteVerticalPosition: 1475,
  leftFromText: 187,
};

describe('Word floating tables', () => {
  test('right of the margins, anchored in the text: the paragraph after it wraps beside it, then runs full width', async () => {
    const { word, lineStarts } = await printed([
      new Paragraph('Intro paragraph before.'),
      smallTable({
        horizontalAnchor: TableAnchorType.MARGIN,
        verticalAnchor: TableAnchorType.TEXT,
        relativeHorizontalPosition: RelativeHorizontalPosition.RIGHT,
        leftFromText: 180,
        bottomFromText: 180,
      }),
      new Paragraph(words(120, 'w')),
      new Paragraph(words(40, 'z')),
    ]);
    // LibreOffice: the first cell's text at (384.8, 83.9), beside the paragraph's first line.
    expect(Math.abs(word('cell00').xMin - 384.8)).toBeLessThan(1.5);
    expect(Math.abs(word('cell00').yMin - 83.9)).toBeLessThan(1.5);
    // Lines beside the table stop before it (15 words), lines below it hold 23 (the same breaks as LibreOffice's).
    expect(lineStarts('w')).toEqual(['w1', 'w18', 'w33', 'w48', 'w63', 'w86', 'w107']);
    expect(word('w17').xMax).toBeLessThan(word('cell00').xMin - 9);
    expect(word('w85').xMax).toBeGreaterThan(word('cell00').xMin);
    expect(Math.abs(word('z1').yMin - 164.3)).toBeLessThan(1.5);
  });

  test('on a cover page, anchored to the page at the right: where it says, the text beside it', async () => {
    const { word, lineStarts } = await printed([smallTable(RIGHT_OF_THE_PAGE_TOP), new Paragraph(words(80, 'q'))]);
    // LibreOffice: cells at x 384.8 and 456.8, the first row's text at y 74.1; the body starts at the top margin.
    expect(Math.abs(word('cell01').xMin - 456.8)).toBeLessThan(1.5);
    expect(Math.abs(word('cell00').yMin - 74.1)).toBeLessThan(1.5);
    expect(Math.abs(word('q1').yMin - 71.9)).toBeLessThan(1.5);
    expect(lineStarts('q')).toEqual(['q1', 'q20', 'q37', 'q54', 'q71']);
  });

  test('as wide as the column: the text goes on below it, and so does a table after it', async () => {
    const wide = new Table({
      width: { size: 9000, type: WidthType.DXA },
      columnWidths: [4500, 4500],
      float: { horizontalAnchor: TableAnchorType.TEXT, verticalAnchor: TableAnchorType.TEXT, leftFromText: 180 },
      rows: [0, 1].map(
        (r) =>
          new TableRow({
            children: [0, 1].map(
              (c) =>
                new TableCell({
                  width: { size: 4500, type: WidthType.DXA },
                  children: [new Paragraph(`cell${r}${c}`)],
                }),
            ),
          }),
      ),
    });
    const after = new Table({
      width: { size: 9000, type: WidthType.DXA },
      columnWidths: [9000],
      rows: [new TableRow({ children: [new TableCell({ children: [new Paragraph('after')] })] })],
    });
    const { word } = await printed([
      new Paragraph('Intro paragraph before.'),
      wide,
      new Paragraph(words(30, 'w')),
      after,
      new Paragraph('end'),
    ]);
    // LibreOffice: cell00 83.9, cell11 96.0, w1 108.0, after 131.6, end 143.7 — each below the one before
    // by as much (row heights differ by a fraction of a point, so the steps are compared).
    const expected: Array<[string, number]> = [
      ['cell00', 83.9],
      ['cell11', 96.0],
      ['w1', 108.0],
      ['after', 131.6],
      ['end', 143.7],
    ];
    expect(Math.abs(word('cell00').yMin - 83.9)).toBeLessThan(1.5);
    for (let i = 1; i < expected.length; i++) {
      const [[above, aboveY], [text, y]] = [expected[i - 1], expected[i]];
      expect(Math.abs(word(text).yMin - word(above).yMin - (y - aboveY)), text).toBeLessThan(1.5);
    }
  });

  test('placed on the page above text already printed there: it stands where it comes instead of covering it', async () => {
    const { word } = await printed([
      ...Array.from({ length: 3 }, () => new Paragraph(words(30, 'p'))),
      smallTable(RIGHT_OF_THE_PAGE_TOP),
      new Paragraph(words(80, 'q')),
    ]);
    const lastP = word('p30');
    expect(word('cell00').yMin).toBeGreaterThan(lastP.yMax);
    expect(Math.abs(word('cell00').yMin - word('q1').yMin)).toBeLessThan(2);
  });
});
