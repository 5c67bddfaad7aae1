/**
 * Word → PDF: a table's width, and the room after a table nested in a cell. Word and LibreOffice
 * let a table whose grid is wider than the text column run on past the right margin (they do not
 * shrink it), and size a table to its preferred width (w:tblW: twips, or a percentage of the
 * column). Generated documents of five columns (A4, 1-inch margins: a 451.3 pt column), each cell's
 * word read back with `pdftotext -bbox`; the figures in the comments are LibreOffice 7.4's for the
 * same documents (`soffice --headless --convert-to pdf`), whose cell text starts 0.4 pt right of
 * Folio's throughout.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { Document, Packer, Paragraph } from 'docx';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerWords } from '../support/pdf.ts';

/** A bordered 2-row table of five columns of `widths` twips (A1…E2), with the given w:tblW and layout. */
function tableXml(widths: number[], tblW: string, layout = ''): string {
  const grid = widths.map((w) => `<w:gridCol w:w="${w}"/>`).join('');
  const cells = (row: number) =>
    widths
      .map(
        (w, c) =>
          `<w:tc><w:tcPr><w:tcW w:w="${w}" w:type="dxa"/></w:tcPr>` +
          `<w:p><w:r><w:t>${'ABCDE'[c]}${row}</w:t></w:r></w:p></w:tc>`,
      )
      .join('');
  const border = (side: string) => `<w:${side} w:val="single" w:sz="4"/>`;
  const borders = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map(border).join('');
  return (
    `<w:tbl><w:tblPr>${tblW}<w:tblBorders>${borders}</w:tblBorders>${layout}</w:tblPr>` +
    `<w:tblGrid>${grid}</w:tblGrid><w:tr>${cells(1)}</w:tr><w:tr>${cells(2)}</w:tr></w:tbl><w:p/>`
  );
}

/** The left edge of each first-row word (A1…E1) that is printed on the page, by word. */
async function firstRow(table: string): Promise<Record<string, number>> {
  const doc = new Document({ sections: [{ children: [new Paragraph('Before')] }] });
  const zip = await JSZip.loadAsync(await Packer.toBuffer(doc));
  const xml = await zip.file('word/document.xml')!.async('string');
  zip.file('word/document.xml', xml.replace(/(<w:p>.*?Before.*?<\/w:p>)/s, `$1${table}`));
  const result = await convert(wordToPdf, 'table.docx', await zip.generateAsync({ type: 'uint8array' }));
  const words = popplerWords(result.bytes).filter((w) => /^[A-E]1$/.test(w.text));
  return Object.fromEntries(words.map((w) => [w.text, w.xMin]));
}

const FIVE_WIDE = [2400, 2400, 2400, 2400, 2400]; // 600 pt: 149 pt wider than the column

describe('Word tables wider than the text column', () => {
  test('a fixed-layout table keeps its grid and runs past the right margin', async () => {
    const x = await firstRow(
      tableXml(FIVE_WIDE, '<w:tblW w:w="12000" w:type="dxa"/>', '<w:tblLayout w:type="fixed"/>'),
    );
    // LibreOffice 7.4: 77.8, 197.8, 317.8, 437.8, 557.8 (120 pt columns). Before: shrunk to 90.3 pt, E1 at 438.4.
    expect(x.B1 - x.A1).toBeCloseTo(120, 1);
    expect(x.E1).toBeCloseTo(557.4, 1);
  });

  test('an autofit table with an automatic width keeps its grid too', async () => {
    const x = await firstRow(tableXml(FIVE_WIDE, '<w:tblW w:w="0" w:type="auto"/>'));
    // LibreOffice 7.4: the same 120 pt columns.
    expect(x.C1 - x.B1).toBeCloseTo(120, 1);
    expect(x.E1).toBeCloseTo(557.4, 1);
  });

  test('a grid 6 pt wider than the column is not shrunk either', async () => {
    const x = await firstRow(tableXml([1830, 1830, 1830, 1830, 1830], '<w:tblW w:w="0" w:type="auto"/>'));
    // LibreOffice 7.4: 91.5 pt columns (169.3 − 77.8). Before: 90.3 pt.
    expect(x.B1 - x.A1).toBeCloseTo(91.5, 1);
  });

  test('a table wider than the page prints the columns that land on it', async () => {
    const x = await firstRow(tableXml([4000, 4000, 4000, 4000, 4000], '<w:tblW w:w="0" w:type="auto"/>'));
    // LibreOffice 7.4: A1 77.8, B1 277.8, C1 477.8; D1 and E1 fall beyond the page's right edge.
    expect(x.B1 - x.A1).toBeCloseTo(200, 1);
    expect(Object.keys(x).sort()).toEqual(['A1', 'B1', 'C1']);
  });
});

describe("Word tables' preferred width (w:tblW)", () => {
  test('a percentage of the column: 50 % makes the table half as wide, 120 % only as wide', async () => {
    const half = await firstRow(tableXml(FIVE_WIDE, '<w:tblW w:w="2500" w:type="pct"/>'));
    // LibreOffice 7.4: 45.1 pt columns (122.9 − 77.8), E1 at 258.3.
    expect(half.B1 - half.A1).toBeCloseTo(45.1, 1);
    expect(half.E1).toBeCloseTo(257.9, 1);
    const over = await firstRow(tableXml(FIVE_WIDE, '<w:tblW w:w="6000" w:type="pct"/>'));
    // LibreOffice 7.4: 90.3 pt columns, the column's width.
    expect(over.B1 - over.A1).toBeCloseTo(90.3, 1);
  });

  test('a width in twips scales the grid to it, narrower or wider', async () => {
    const narrower = await firstRow(tableXml([2000, 2000, 2000, 2000, 2000], '<w:tblW w:w="6000" w:type="dxa"/>'));
    // LibreOffice 7.4: 60 pt columns (the grid's 100 pt scaled to 300 pt). Before: 90.3 pt.
    expect(narrower.B1 - narrower.A1).toBeCloseTo(60, 1);
    const wider = await firstRow(
      tableXml([1000, 1000, 1000, 1000, 1000], '<w:tblW w:w="8000" w:type="dxa"/>', '<w:tblLayout w:type="fixed"/>'),
    );
    // LibreOffice 7.4: 80 pt columns (the grid's 50 pt scaled to 400 pt). Before: 50 pt.
    expect(wider.B1 - wider.A1).toBeCloseTo(80, 1);
  });
});

describe('Word nested tables', () => {
  /** A one-column table: "Top", a nested one-cell table "Inner", then `after` in the same cell; a row "Next" below. */
  async function nested(after: string): Promise<Record<string, number>> {
    const p = (text: string) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`;
    const border = (side: string) => `<w:${side} w:val="single" w:sz="4"/>`;
    const borders = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map(border).join('');
    const table = (width: number, rows: string[]) =>
      `<w:tbl><w:tblPr><w:tblW w:w="${width}" w:type="dxa"/><w:tblBorders>${borders}</w:tblBorders></w:tblPr>` +
      `<w:tblGrid><w:gridCol w:w="${width}"/></w:tblGrid>` +
      rows
        .map((cell) => `<w:tr><w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/></w:tcPr>${cell}</w:tc></w:tr>`)
        .join('') +
      '</w:tbl>';
    const outer = table(6000, [p('Top') + table(4000, [p('Inner')]) + after, p('Next')]);
    const doc = new Document({ sections: [{ children: [new Paragraph('Before')] }] });
    const zip = await JSZip.loadAsync(await Packer.toBuffer(doc));
    const xml = await zip.file('word/document.xml')!.async('string');
    zip.file('word/document.xml', xml.replace(/(<w:p>.*?Before.*?<\/w:p>)/s, `$1${outer}<w:p/>`));
    const result = await convert(wordToPdf, 'nested.docx', await zip.generateAsync({ type: 'uint8array' }));
    const words = popplerWords(result.bytes).filter((w) => /^\w+$/.test(w.text));
    return Object.fromEntries(words.map((w) => [w.text, w.yMin]));
  }

  test('the empty paragraph Word writes after a table at the end of a cell takes no room', async () => {
    const y = await nested('<w:p/>');
    // LibreOffice 7.4: Inner 96.0, Next 108.6: one line (12 pt) and the borders below Inner. Before:
    // Folio left the empty paragraph's line too, Next at 118.0.
    expect(y.Next - y.Inner).toBeLessThan(13);
    expect(y.Next - y.Inner).toBeGreaterThan(11);
    // A paragraph with text there keeps its line: LibreOffice 7.4 After 108.0, Next 120.1.
    const withText = await nested('<w:p><w:r><w:t>After</w:t></w:r></w:p>');
    expect(withText.Next - withText.After).toBeGreaterThan(11);
    expect(withText.After - withText.Inner).toBeGreaterThan(11);
  });
});
