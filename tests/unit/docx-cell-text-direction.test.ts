/**
 * Word → PDF: text turned in table cells (w:tcPr/w:textDirection), laid out as PowerPoint's turned cells
 * (TableCell.textDirection, flow.ts). A generated one-row table (the `docx` package writes btLr and tbRl;
 * the East Asian values are written into its XML), each cell's word read back with `pdftotext -bbox`; the
 * figures in the comments are LibreOffice 7.4's for the same document (`soffice --headless --convert-to
 * pdf`). Before: every cell printed its word across, at the top left.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { Document, HeightRule, Packer, Paragraph, Table, TableCell, TableRow, TextDirection, WidthType } from 'docx';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerWords, type PopplerWord } from '../support/pdf.ts';

/** Each cell's w:textDirection (lrTb: none written); the cell holds the word "Word<direction>" unless told. */
const DIRECTIONS = ['btLr', 'tbRl', 'lrTb', 'tbRlV', 'lrTbV', 'tbLrV'];

/** A table of 55 pt columns, one row at least 90 pt tall, after a line "Before" on a Letter page. */
async function turnedCells(texts: Record<string, string> = {}): Promise<PopplerWord[]> {
  const cells = DIRECTIONS.map(
    (direction) =>
      new TableCell({
        width: { size: 1100, type: WidthType.DXA },
        children: [new Paragraph(texts[direction] ?? `Word${direction}`)],
        ...(direction === 'btLr' && { textDirection: TextDirection.BOTTOM_TO_TOP_LEFT_TO_RIGHT }),
        ...(direction !== 'btLr' &&
          direction !== 'lrTb' && { textDirection: TextDirection.TOP_TO_BOTTOM_RIGHT_TO_LEFT }),
      }),
  );
  const table = new Table({
    columnWidths: DIRECTIONS.map(() => 1100),
    rows: [new TableRow({ height: { value: 1800, rule: HeightRule.ATLEAST }, children: cells })],
  });
  const doc = new Document({ sections: [{ children: [new Paragraph('Before'), table, new Paragraph('After')] }] });
  const zip = await JSZip.loadAsync(await Packer.toBuffer(doc));
  const xml = await zip.file('word/document.xml')!.async('string');
  const written = DIRECTIONS.filter((direction) => direction !== 'lrTb');
  let next = 0;
  const patched = xml.replace(
    /<w:textDirection w:val="\w+"\/>/g,
    () => `<w:textDirection w:val="${written[next++]}"/>`,
  );
  expect(next).toBe(written.length);
  zip.file('word/document.xml', patched);
  const result = await convert(wordToPdf, 'turned.docx', await zip.generateAsync({ type: 'uint8array' }));
  return popplerWords(result.bytes);
}

describe('Word table cells with w:textDirection', () => {
  test('btLr runs up from the bottom, tbRl and tbRlV down from the top right; lrTbV stays across', async () => {
    const words = await turnedCells();
    const word = (text: string) => {
      const found = words.find((w) => w.text === text);
      expect(found, text).toBeDefined();
      return found!;
    };
    const upright = (w: PopplerWord) => w.yMax - w.yMin > 2 * (w.xMax - w.xMin);
    // LibreOffice: x 77.5–90.5, y 133.6–173.5: against the cell's left padding and the row's bottom.
    const up = word('WordbtLr');
    expect(upright(up)).toBe(true);
    expect(up.xMin).toBeCloseTo(77.5, 0);
    expect(up.yMax).toBeCloseTo(173.5, 0);
    // LibreOffice: x 164.0–177.0, y 84.2–124.2 (tbRl) and x 274.0–287.0, y 84.2–131.4 (tbRlV): against the
    // cell's right padding and the row's top. (Poppler's box is 2 pt narrower around Folio's glyphs, as
    // across: the right edges are compared.)
    for (const [text, right] of [
      ['WordtbRl', 177],
      ['WordtbRlV', 287],
    ] as const) {
      const down = word(text);
      expect(upright(down), text).toBe(true);
      expect(Math.abs(down.xMax - right), `${text}: right edge`).toBeLessThan(1);
      expect(Math.abs(down.yMin - 84.2), `${text}: top`).toBeLessThan(1);
    }
    // lrTbV: across, as lrTb (only East Asian characters lie on their side), wrapped "WordlrTb" / "V".
    expect(upright(word('WordlrTb'))).toBe(false);
    expect(
      words
        .filter((w) => w.text === 'WordlrTb')
        .map((w) => Math.round(w.xMin))
        .sort(),
    ).toEqual([187, 297]);
    expect(word('V').yMin - word('WordlrTb').yMin).toBeGreaterThan(10);
    // tbLrV (top to bottom, lines from the left): turned down as tbRlV. (LibreOffice 7.4 prints it across.)
    expect(upright(word('WordtbLrV'))).toBe(true);
    // The row keeps its 90 pt: "After" starts below it (LibreOffice: y 173.9).
    expect(Math.abs(word('After').yMin - 173.9)).toBeLessThan(1);
  });

  test("longer text wraps at the row's height, its lines stacked across the cell", async () => {
    const words = await turnedCells({
      btLr: 'Turned text that runs longer than the height of its row and wraps',
      tbRl: 'Second cell turned down with several words in it',
    });
    const at = (text: string) => words.find((w) => w.text === text)!;
    // LibreOffice: btLr lines from the left, x 77.5, 89.1, 100.6, each from the bottom (y 173.5) up:
    // "Turned text that runs" / "longer than the height" / "of its row and wraps".
    for (const text of ['Turned', 'longer', 'of']) expect(Math.abs(at(text).yMax - 173.5), text).toBeLessThan(1);
    expect(Math.abs(at('longer').xMin - 89.1)).toBeLessThan(1);
    expect(Math.abs(at('of').xMin - 100.6)).toBeLessThan(1);
    expect(Math.abs(at('runs').yMin - 89.9)).toBeLessThan(1);
    // tbRl lines from the right, right edges 177.0, 165.5, 153.9, each from the top (y 84.2):
    // "Second cell turned" / "down with several" / "words in it".
    expect(Math.abs(at('down').xMax - 165.5)).toBeLessThan(1);
    expect(Math.abs(at('words').xMax - 153.9)).toBeLessThan(1);
    expect(Math.abs(at('turned').yMax - 158.6)).toBeLessThan(1);
    // The row is not made taller: "After" at y 173.9 as with one word.
    expect(Math.abs(at('After').yMin - 173.9)).toBeLessThan(1);
  });
});
