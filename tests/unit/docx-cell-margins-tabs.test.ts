/**
 * Word → PDF: a cell's own margins (w:tcMar) and a tab character typed into the text (w:t), placed
 * where LibreOffice 7.4 prints them. Figures from `soffice --headless --convert-to pdf` of the same
 * generated documents, read with `pdftotext -bbox` (A4, 1-inch margins, 11 pt text).
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from 'docx';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerWords } from '../support/pdf.ts';

/** Each word of a PDF by its text, with its box. */
const wordsByText = (pdf: Uint8Array) => new Map(popplerWords(pdf).map((word) => [word.text, word]));

const cell = (text: string, margins?: { top?: number; bottom?: number; left?: number; right?: number }) =>
  new TableCell({ children: [new Paragraph(text)], width: { size: 3000, type: WidthType.DXA }, margins });

/** A 4 × 3 table; the middle row's first cell has margins of its own (1 inch left) and its second a taller top. */
async function marginsTable(): Promise<Uint8Array> {
  const rows = [
    new TableRow({ children: [cell('Plain'), cell('Neighbour'), cell('More')] }),
    new TableRow({
      children: [
        cell('Indented', { left: 1440, right: 720, top: 360, bottom: 360 }),
        cell('Next', { top: 720 }),
        cell('Third'),
      ],
    }),
    new TableRow({ children: [cell('Below'), cell('Last'), cell('End')] }),
    new TableRow({ children: [cell('After'), cell('Final'), cell('Closing')] }),
  ];
  const doc = new Document({ sections: [{ children: [new Table({ rows, columnWidths: [3000, 3000, 3000] })] }] });
  return new Uint8Array(await Packer.toBuffer(doc));
}

describe('Word cell margins (w:tcMar)', () => {
  test("a cell's own left margin moves its text; the row's tallest top and bottom margins set the row", async () => {
    const words = wordsByText((await convert(wordToPdf, 'margins.docx', await marginsTable())).bytes);
    const at = (word: string) => words.get(word)!;
    // LibreOffice 7.4: Plain at x 77.8, Indented at 144.4 (1 inch less the table's 0.075 inch).
    expect(at('Indented').xMin - at('Plain').xMin).toBeCloseTo(66.6, 0);
    // The neighbours keep the table's margins.
    expect(at('Next').xMin - at('Neighbour').xMin).toBeCloseTo(0, 1);
    // LibreOffice 7.4: the second row's text 48 pt below the first row's (the larger top margin,
    // 36 pt, for every cell of the row, and one 12 pt line), the third row's 30.1 pt below that (the
    // larger bottom margin, 18 pt, and a line), the fourth's 12 pt below the third's (a line). The
    // line pitch is the fonts' (the same in both within half a point); the margins are compared.
    const line = at('After').yMin - at('Below').yMin;
    expect(at('Indented').yMin - at('Plain').yMin - line).toBeCloseTo(36, 0);
    expect(at('Below').yMin - at('Indented').yMin - line).toBeCloseTo(18, 0);
    expect(at('Next').yMin).toBeCloseTo(at('Indented').yMin, 1);
    expect(at('Third').yMin).toBeCloseTo(at('Indented').yMin, 1);
  });
});

describe('Word tab characters in the text', () => {
  test('a tab typed into w:t goes to the next tab stop, as w:tab does', async () => {
    const doc = new Document({
      sections: [{ children: [new Paragraph('Name TAB Value'), new Paragraph({ children: [new TextRun('Key')] })] }],
    });
    const zip = await JSZip.loadAsync(await Packer.toBuffer(doc));
    const xml = await zip.file('word/document.xml')!.async('string');
    zip.file(
      'word/document.xml',
      xml
        .replace('Name TAB Value', 'Name\tValue')
        .replace(/(>Key<\/w:t><\/w:r>)/, '$1<w:r><w:tab/><w:t>Other</w:t></w:r>'),
    );
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    const words = wordsByText((await convert(wordToPdf, 'tab.docx', bytes)).bytes);
    // LibreOffice 7.4: Value and Other both at x 108.1, the first default stop (0.5 inch) past the margin.
    expect(words.get('Value')?.xMin).toBeCloseTo(words.get('Name')!.xMin + 36, 0);
    expect(words.get('Other')?.xMin).toBeCloseTo(words.get('Key')!.xMin + 36, 0);
  });
});
