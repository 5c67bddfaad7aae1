import { describe, expect, test } from 'vitest';
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { firstSheet } from '../support/pdf-to-excel-sheets.ts';

/**
 * A cell's lines as LibreOffice wraps them in `width` points: at spaces, and a word too long for
 * one line broken where the width runs out.
 */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const fits = (t: string) => font.widthOfTextAtSize(t, size) <= width;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const joined = line ? `${line} ${word}` : word;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    for (const char of word) {
      if (!fits(line + char)) {
        lines.push(line);
        line = '';
      }
      line += char;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * Rows of a printed sheet with wrapped cells, as LibreOffice prints them: 10 pt Helvetica, columns
 * starting at `lefts` (the last one `lastWidth` wide), texts 1.4 pt inside their column and wrapped
 * 1 pt before its right edge (as measured on LibreOffice's PDFs), a wrapped
 * cell's lines 11.5 pt apart, every cell at the bottom of its row (the row as tall as its tallest cell).
 */
async function printedRows(rows: string[][], lefts: number[], lastWidth: number) {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const widthOf = (c: number) => (lefts[c + 1] ?? lefts[c] + lastWidth) - lefts[c] - 2.4;
  let bottom = 740;
  for (const row of rows) {
    const cells = row.map((text, c) => wrap(text, font, 10, widthOf(c)));
    bottom -= 11.5 * Math.max(...cells.map((lines) => lines.length)) + 4;
    cells.forEach((lines, c) =>
      lines.forEach((line, k) =>
        page.drawText(line, { x: lefts[c] + 1.4, y: bottom + (lines.length - 1 - k) * 11.5, size: 10, font }),
      ),
    );
  }
  return doc.save();
}

describe('pdf-to-excel: wrapped cells', () => {
  test('a word broken where its narrow column ran out joins without a space; words keep theirs', async () => {
    const rows = [
      ['Name', 'Department', 'E-Mail'],
      ['Stefan', 'PhilHi, Sprachatlas von Bayerisch-Schwaben', 'stfabl@aol.com'],
      ['Benjamin', 'WZU', 'benjamin.achzet@wzu.uni-augsburg.de'],
      ['Sabine', 'Teilbibl. Sozialwiss.', 'sabine.ackermann@bibliothek.uni-augsburg.de'],
      ['Frederic', 'IMB - Professur für Medienpädagogik', 'frederic.adler@phil.uni-augsburg.de'],
      ['Bettina', 'Personalreferat II/4', 'bettina.adolf@zv.uni-augsburg.de'],
      ['Christiane', 'Lehrstuhl für Religionspädagogik', 'christiane.albert@t-online.de'],
    ];
    // Department 62 pt wide: its lines of one word ("Sprachatlas", "Professur") end more than a
    // character short of its width (one ending within a character of it cannot be told from a
    // word broken there).
    const pdf = await printedRows(rows, [50, 110, 172], 60);
    for (const sheets of ['table', 'page'] as const) expect(await firstSheet(pdf, sheets)).toEqual(rows);
  });
});

describe('pdf-to-excel: wrapped cells taller than their rows', () => {
  test("a wrapped cell centred in a row shorter than its lines keeps its lines, not the next row's", async () => {
    // Rows 20 pt apart; the third column's cells have three lines 11.5 pt apart, centred on their
    // row's baseline: the first line of the second row's cell is printed above the last line of the
    // first row's cell.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const rows = [
      ['Alpha', 'one', ['north wind', 'east coast', 'south']],
      ['Beta', 'two', ['west field', 'high road', 'low']],
      ['Gamma', 'three', ['red house', 'blue door', 'green']],
    ] as const;
    rows.forEach(([a, b, lines], r) => {
      const y = 700 - r * 20;
      page.drawText(a, { x: 51.4, y, size: 10, font });
      page.drawText(b, { x: 111.4, y, size: 10, font });
      lines.forEach((line, k) => page.drawText(line, { x: 171.4, y: y + (1 - k) * 11.5, size: 10, font }));
    });
    const expected = rows.map(([a, b, lines]) => [a, b, lines.join(' ')]);
    const pdf = await doc.save();
    for (const sheets of ['table', 'page'] as const) expect(await firstSheet(pdf, sheets)).toEqual(expected);
  });
});
