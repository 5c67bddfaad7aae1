/**
 * Word → PDF: a table row that does not fit in the room left on a page breaks across the page
 * between lines of its cells, as Word and LibreOffice break it, unless the row says w:cantSplit;
 * a row taller than a page breaks in any case. Generated A4 documents (1-inch margins): filler
 * paragraphs, then a one-row table of two cells of one-word paragraphs ("aline1"…, "bline1"…). The
 * figures in the comments are LibreOffice 7.4's for the same documents (`soffice --headless
 * --convert-to pdf`, read with `pdftotext -bbox`): its lines are 11.5 pt apart and start 0.3 pt
 * lower than Folio's.
 */
import { describe, expect, test } from 'vitest';
import { Document, Packer, Paragraph, Table, TableCell, TableRow, WidthType } from 'docx';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerWordPages } from '../support/pdf.ts';

const cell = (texts: string[]) =>
  new TableCell({ width: { size: 4500, type: WidthType.DXA }, children: texts.map((t) => new Paragraph(t)) });
const lines = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}line${i + 1}`);

interface Layout {
  pages: number;
  /** Each word's page (1-based) and top (from the page's top edge). */
  at: (word: string) => { page: number; top: number };
  /** Every place the word is printed (a repeated header row's). */
  all: (word: string) => Array<{ page: number; top: number }>;
}

/** `fillers` paragraphs, then the table (an optional repeated header row, then a row of `count` lines a cell). */
async function render(
  fillers: number,
  count: number,
  options: { cantSplit?: boolean; header?: boolean } = {},
): Promise<Layout> {
  const rows = [
    ...(options.header ? [new TableRow({ tableHeader: true, children: [cell(['Head1']), cell(['Head2'])] })] : []),
    new TableRow({ cantSplit: options.cantSplit, children: [cell(lines('a', count)), cell(lines('b', count))] }),
  ];
  return layoutOf(fillers, new Table({ rows }));
}

/** A Word document of `fillers` paragraphs, then `table`, then "After", through Folio. */
async function layoutOf(fillers: number, table: Table): Promise<Layout> {
  const children = [...Array.from({ length: fillers }, (_, i) => new Paragraph(`Filler ${i + 1}`)), table];
  const doc = new Document({ sections: [{ children: [...children, new Paragraph('After')] }] });
  const pages = popplerWordPages((await convert(wordToPdf, 'row.docx', await Packer.toBuffer(doc))).bytes);
  const words = new Map<string, Array<{ page: number; top: number }>>();
  for (const w of pages.flat()) words.set(w.text, [...(words.get(w.text) ?? []), { page: w.page, top: w.yMin }]);
  return {
    pages: pages.length,
    at: (word) => words.get(word)?.[0] ?? { page: 0, top: NaN },
    all: (word) => words.get(word) ?? [],
  };
}

/** The pages each cell's lines landed on, as "page:first-last" runs. */
function runs(layout: Layout, prefix: string, count: number): string[] {
  const out: string[] = [];
  let start = 1;
  for (let i = 2; i <= count + 1; i++) {
    const page = layout.at(`${prefix}line${start}`).page;
    if (i > count || layout.at(`${prefix}line${i}`).page !== page) {
      out.push(`${page}:${start}-${i - 1}`);
      start = i;
    }
  }
  return out;
}

describe('Word table rows across a page break', () => {
  test('a row starting low on a page breaks between lines of its cells', async () => {
    const layout = await render(56, 10);
    // LibreOffice 7.4: lines 1-4 of both cells on page 1 (aline1 at 719.2, aline4 at 753.8), 5-10 on
    // page 2 from its top margin (aline5 at 72.4), "After" at 142.2; 2 pages. Before: the whole row on page 2.
    expect(runs(layout, 'a', 10)).toEqual(['1:1-4', '2:5-10']);
    expect(runs(layout, 'b', 10)).toEqual(['1:1-4', '2:5-10']);
    expect(layout.at('aline1').top).toBeCloseTo(layout.at('bline1').top, 1);
    expect(layout.at('aline5').top).toBeCloseTo(72.1, 0);
    expect(layout.at('bline5').top).toBeCloseTo(72.1, 0);
    expect(layout.pages).toBe(2);
  });

  test('the same row with w:cantSplit moves whole to the next page', async () => {
    const layout = await render(56, 10, { cantSplit: true });
    // LibreOffice 7.4: aline1 and bline1 at 72.4 on page 2, aline10 at 176.3; 2 pages.
    expect(runs(layout, 'a', 10)).toEqual(['2:1-10']);
    expect(runs(layout, 'b', 10)).toEqual(['2:1-10']);
    expect(layout.at('aline1').top).toBeCloseTo(72.1, 0);
  });

  test('repeated header rows are drawn again above the rest of a broken row', async () => {
    const layout = await render(55, 10, { header: true });
    // LibreOffice 7.4: Head1 at 707.6 and lines 1-4 on page 1; Head1 at 72.4 and aline5 at 84.4 on page 2
    // (its header row is 12 pt tall, Folio's 11.5 pt).
    expect(runs(layout, 'a', 10)).toEqual(['1:1-4', '2:5-10']);
    expect(layout.all('Head1').map((w) => w.page)).toEqual([1, 2]);
    expect(layout.at('aline5').top - layout.all('Head1')[1].top).toBeCloseTo(11.5, 1);
  });

  test('a row taller than a page breaks, with w:cantSplit or without', async () => {
    // LibreOffice 7.4, 70 lines a cell after 2 fillers: without w:cantSplit, lines 1-58 on page 1
    // (aline1 at 95.5) and 59-70 on page 2; with it, the row moves to page 2 (lines 1-60), 61-70 on page 3.
    const splits = await render(2, 70);
    expect(runs(splits, 'a', 70)).toEqual(['1:1-58', '2:59-70']);
    expect(runs(splits, 'b', 70)).toEqual(['1:1-58', '2:59-70']);
    expect(splits.pages).toBe(2);
    const whole = await render(2, 70, { cantSplit: true });
    expect(runs(whole, 'a', 70)).toEqual(['2:1-60', '3:61-70']);
    expect(whole.pages).toBe(3);
  });

  test('a row holding a nested table breaks inside the nested row that reaches the page break', async () => {
    // As Reporting Services lays a form out: one outer cell per section, a nested table of label and text rows.
    const cellOf = (width: number, children: Array<Paragraph | Table>) =>
      new TableCell({ width: { size: width, type: WidthType.DXA }, children });
    const inner = new Table({
      rows: [
        new TableRow({ children: [cellOf(2000, [new Paragraph('Label1')]), cellOf(6000, [new Paragraph('Short')])] }),
        new TableRow({
          children: [
            cellOf(2000, [new Paragraph('Label2')]),
            cellOf(
              6000,
              lines('c', 10).map((t) => new Paragraph(t)),
            ),
          ],
        }),
      ],
    });
    const outer = new Table({ rows: [new TableRow({ children: [cellOf(9000, [inner, new Paragraph('')])] })] });
    const layout = await layoutOf(54, outer);
    // LibreOffice 7.4: Label2 and cline1-5 on page 1 (cline1 at 708.6), cline6-10 on page 2 from 72.9.
    // Before: the whole outer row on page 2.
    expect(layout.at('Label2').page).toBe(1);
    expect(runs(layout, 'c', 10)).toEqual(['1:1-5', '2:6-10']);
    expect(layout.at('cline6').top).toBeCloseTo(72.1, 0);
    expect(layout.pages).toBe(2);
  });

  test("a cell paragraph's space after counts in the room it needs at the foot of a page", async () => {
    const spaced = (prefix: string) =>
      new TableCell({
        width: { size: 4500, type: WidthType.DXA },
        children: lines(prefix, 6).map((text) => new Paragraph({ text, spacing: { after: 200 } })),
      });
    const layout = await layoutOf(57, new Table({ rows: [new TableRow({ children: [spaced('a'), spaced('b')] })] }));
    // LibreOffice 7.4: aline1 at 730.7 on page 1; aline2, whose text would end above the text area's
    // foot (763.7 < 769.9) but its 10 pt space after below it, on page 2 at 72.4.
    expect(runs(layout, 'a', 6)).toEqual(['1:1-1', '2:2-6']);
    expect(runs(layout, 'b', 6)).toEqual(['1:1-1', '2:2-6']);
  });
});
