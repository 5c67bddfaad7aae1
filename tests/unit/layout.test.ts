import { describe, expect, test } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import {
  buildFragments,
  buildParagraphs,
  readPageLayout,
  readingOrder,
} from '../../workers/engine/lib/pdf/pdf-layout.ts';
import { findTables, tableGrid } from '../../workers/engine/lib/pdf-to-office/tables.ts';

async function layoutOf(draw: (page: import('pdf-lib').PDFPage, font: import('pdf-lib').PDFFont) => void) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  draw(doc.addPage([612, 792]), font);
  const pdf = await openPdfjs(await doc.save());
  return readPageLayout(pdf, 1);
}

describe('layout', () => {
  test('three columns are read column by column, under a full-width title', async () => {
    const layout = await layoutOf((page, font) => {
      page.drawText('A title that runs across all three columns of the page', { x: 72, y: 720, size: 14, font });
      ['a', 'b', 'c'].forEach((col, c) => {
        for (let line = 0; line < 5; line++)
          page.drawText(`${col}${line} words in column ${col} line ${line}`, {
            x: 72 + c * 160,
            y: 690 - line * 14,
            size: 10,
            font,
          });
      });
    });
    const order = readingOrder(buildFragments(layout.items)).map((f) => f.text.split(' ')[0]);
    expect(order).toEqual([
      'A',
      'a0',
      'a1',
      'a2',
      'a3',
      'a4',
      'b0',
      'b1',
      'b2',
      'b3',
      'b4',
      'c0',
      'c1',
      'c2',
      'c3',
      'c4',
    ]);
  });

  test('paragraphs split at gaps and bullets; hyphenated line ends are joined', async () => {
    const layout = await layoutOf((page, font) => {
      page.drawText('The first paragraph has a hyphen-', { x: 72, y: 700, size: 11, font });
      page.drawText('ated word across its lines.', { x: 72, y: 686, size: 11, font });
      page.drawText('The second paragraph follows a gap.', { x: 72, y: 650, size: 11, font });
      page.drawText('• First bullet', { x: 72, y: 630, size: 11, font });
      page.drawText('• Second bullet', { x: 72, y: 616, size: 11, font });
    });
    const paragraphs = buildParagraphs(readingOrder(buildFragments(layout.items)));
    expect(paragraphs.map((p) => p.text)).toEqual([
      'The first paragraph has a hyphenated word across its lines.',
      'The second paragraph follows a gap.',
      '• First bullet',
      '• Second bullet',
    ]);
    expect(paragraphs.map((p) => p.list)).toEqual([undefined, undefined, 'bullet', 'bullet']);
  });

  test('a ruled table with a merged header cell', async () => {
    const layout = await layoutOf((page, font) => {
      const xs = [72, 172, 272];
      const ys = [700, 680, 660];
      for (const y of ys) page.drawLine({ start: { x: 72, y }, end: { x: 272, y }, thickness: 0.5 });
      page.drawLine({ start: { x: 72, y: 700 }, end: { x: 72, y: 660 }, thickness: 0.5 });
      page.drawLine({ start: { x: 272, y: 700 }, end: { x: 272, y: 660 }, thickness: 0.5 });
      page.drawLine({ start: { x: xs[1], y: 680 }, end: { x: xs[1], y: 660 }, thickness: 0.5 }); // only in row 2
      page.drawText('Merged header', { x: 76, y: 686, size: 10, font });
      page.drawText('left', { x: 76, y: 666, size: 10, font });
      page.drawText('right', { x: 176, y: 666, size: 10, font });
    });
    const [table] = findTables(layout);
    expect(table.ruled).toBe(true);
    expect(table.cells[0]).toMatchObject({ row: 0, col: 0, colSpan: 2, text: 'Merged header' });
    expect(tableGrid(table)).toEqual([
      ['Merged header', ''],
      ['left', 'right'],
    ]);
  });
});
