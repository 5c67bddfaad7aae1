/**
 * PowerPoint → PDF: vertical text (a table cell's a:tcPr vert, a text box's a:bodyPr vert) and text
 * in a preset shape's own text rectangle (presetShapeDefinitions.xml's a:rect: an ellipse's inscribed
 * rectangle, a triangle's lower middle part…), in generated decks (pptxgenjs, the cells' vert added
 * to the XML). The expected lines and positions are LibreOffice 7.4's (`soffice --headless
 * --convert-to pdf` of the same decks, read with `pdftotext -bbox`); they are given in each test.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import PptxGenJS from 'pptxgenjs';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerWords, type PopplerWord } from '../support/pdf.ts';

const pageWords = (pdf: Uint8Array, page: number): PopplerWord[] =>
  popplerWords(pdf, ['-f', String(page), '-l', String(page)]);

const deckBytes = async (pptx: PptxGenJS) =>
  new Uint8Array((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer);

/** The words inside a box (points, y down) by their centres, in the order pdftotext reads them. */
const wordsIn = (words: PopplerWord[], x0: number, y0: number, x1: number, y1: number) =>
  words.filter((w) => {
    const [cx, cy] = [(w.xMin + w.xMax) / 2, (w.yMin + w.yMax) / 2];
    return cx > x0 && cx < x1 && cy > y0 && cy < y1;
  });

/** Level words grouped into lines by their tops, each line's words joined by spaces. */
function lines(words: PopplerWord[]): string[] {
  const rows: PopplerWord[][] = [];
  for (const word of [...words].sort((a, b) => a.yMin - b.yMin || a.xMin - b.xMin)) {
    const row = rows.find((r) => Math.abs(r[0].yMin - word.yMin) < 2);
    if (row) row.push(word);
    else rows.push([word]);
  }
  return rows.map((row) => row.map((w) => w.text).join(' '));
}

/** Whether a word runs up or down the page: its box taller than wide (words of 4 letters or more). */
const turned = (w: PopplerWord) => w.text.length < 4 || w.yMax - w.yMin > w.xMax - w.xMin;
const TEXT = 'Words that wrap inside the shape text box';

describe("PowerPoint vertical text and shapes' text rectangles", () => {
  test('a table cell with vert="vert" / "vert270" runs down / up its cell, wrapped to its height', async () => {
    const pptx = new PptxGenJS();
    const rows = [
      [{ text: 'Name' }, { text: 'Turned down' }, { text: 'Turned up' }, { text: 'Plain' }],
      [{ text: 'a' }, { text: 'Quarterly results of the year' }, { text: 'Second turned cell' }, { text: 'level' }],
    ];
    // Columns at 36, 144, 187.2, 230.4 and 468 pt; 14 pt text.
    pptx.addSlide().addTable(rows, {
      x: 0.5,
      y: 0.5,
      w: 6,
      colW: [1.5, 0.6, 0.6, 3.3],
      fontSize: 14,
      fontFace: 'Arial',
      border: { type: 'solid', pt: 1, color: '000000' },
    });
    const zip = await JSZip.loadAsync(await deckBytes(pptx));
    const xml = await zip.file('ppt/slides/slide1.xml')!.async('string');
    let cell = 0;
    const vertical = xml.replace(/<a:tcPr([^>]*)>/g, (tag, attrs: string) => {
      const vert = ['', '', '', '', '', 'vert', 'vert270', ''][cell++];
      return vert ? `<a:tcPr${attrs} vert="${vert}">` : tag;
    });
    expect(cell).toBe(8);
    zip.file('ppt/slides/slide1.xml', vertical);
    const result = await convert(pptToPdf, 'vertical-cells.pptx', await zip.generateAsync({ type: 'uint8array' }));
    const words = pageWords(result.bytes, 1);

    // LibreOffice: "Quarterly results of the" down one line at x 161.4–179.6 from y 113.4 (Quarterly) to
    // 255.9 (the), "year" on a second line to its left (x 145.7).
    const down = wordsIn(words, 144, 100, 187.2, 400);
    expect(down.map((w) => w.text)).toEqual(['Quarterly', 'results', 'of', 'the', 'year']);
    expect(down.every(turned)).toBe(true);
    expect(new Set(down.map((w) => Math.round(w.xMin))).size).toBeLessThanOrEqual(2);
    const firstLine = down.filter((w) => Math.abs(w.xMin - down[0].xMin) < 1);
    firstLine.slice(1).forEach((w, i) => expect(w.yMin).toBeGreaterThan(firstLine[i].yMax - 1));
    expect(down[0].yMin).toBeCloseTo(113.4, -1);
    expect(down[0].xMax).toBeCloseTo(179.6, -0.5);

    // LibreOffice: "Second turned cell" up one line at x 190.2–208.4, "Second" lowest (y 232.5–280.1).
    const up = wordsIn(words, 187.2, 100, 230.4, 400);
    expect(up.map((w) => w.text).sort()).toEqual(['Second', 'cell', 'turned']);
    expect(up.every(turned)).toBe(true);
    const byText = new Map(up.map((w) => [w.text, w]));
    expect(byText.get('Second')!.yMin).toBeGreaterThan(byText.get('turned')!.yMax - 1);
    expect(byText.get('turned')!.yMin).toBeGreaterThan(byText.get('cell')!.yMax - 1);
    expect(byText.get('Second')!.xMin).toBeCloseTo(190.2, -1);

    // The level cells stay level: "level" at LibreOffice's y 109.2.
    const level = words.find((w) => w.text === 'level')!;
    expect(turned(level)).toBe(false);
  });

  test("text in an ellipse, a triangle, a diamond and a rounded rectangle wraps in the preset's text rectangle", async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    const look = { fill: { color: 'EEEEEE' }, line: { color: '000000' }, fontFace: 'Arial' };
    slide.addText(TEXT, { ...look, shape: pptx.ShapeType.ellipse, x: 0.5, y: 0.5, w: 3, h: 2, fontSize: 18 });
    slide.addText(TEXT, { ...look, shape: pptx.ShapeType.triangle, x: 4, y: 0.5, w: 3, h: 2.5, fontSize: 14 });
    slide.addText(TEXT, { ...look, shape: pptx.ShapeType.diamond, x: 0.5, y: 3, w: 3, h: 2.3, fontSize: 14 });
    slide.addText(TEXT, {
      ...look,
      shape: pptx.ShapeType.roundRect,
      x: 4,
      y: 3.3,
      w: 3,
      h: 2,
      rectRadius: 0.5,
      fontSize: 14,
    });
    const result = await convert(pptToPdf, 'shape-text.pptx', await deckBytes(pptx));
    const words = pageWords(result.bytes, 1);
    const ellipse = wordsIn(words, 36, 36, 252, 180);
    const triangle = wordsIn(words, 288, 36, 504, 216);
    const diamond = wordsIn(words, 36, 216, 252, 381.6);
    const roundRect = wordsIn(words, 288, 237.6, 504, 381.6);

    // LibreOffice's lines, and the left edge of each shape's first word.
    expect(lines(ellipse)).toEqual(['Words that wrap', 'inside the shape', 'text box']);
    expect(lines(triangle)).toEqual(['Words that', 'wrap inside', 'the shape text', 'box']);
    expect(lines(diamond)).toEqual(['Words that', 'wrap inside', 'the shape text', 'box']);
    expect(lines(roundRect)).toEqual(['Words that wrap inside the', 'shape text box']);
    expect(ellipse[0].xMin).toBeCloseTo(74.7, 0); // the inscribed rectangle's left (67.6) + 7.2 pt inset
    expect(triangle[0].xMin).toBeCloseTo(349.1, 0);
    expect(diamond[0].xMin).toBeCloseTo(97.1, 0);
    expect(roundRect[0].xMin).toBeCloseTo(305.6, 0);

    // Every word inside its text rectangle: the ellipse's is 0.146 × its size in from each side.
    for (const w of ellipse) {
      expect(w.xMin).toBeGreaterThan(36 + 0.146 * 216);
      expect(w.xMax).toBeLessThan(252 - 0.146 * 216);
    }
  });

  test('a text box with vert="vert" reads top to bottom, with vert="vert270" bottom to top', async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    const look = { fontSize: 18, fontFace: 'Arial', line: { color: '000000' } } as const;
    slide.addText('Vertical text box', { ...look, x: 7.5, y: 0.5, w: 1, h: 3, vert: 'vert' });
    slide.addText('Upward text', { ...look, x: 8.7, y: 0.5, w: 1, h: 3, vert: 'vert270' });
    const result = await convert(pptToPdf, 'vertical-boxes.pptx', await deckBytes(pptx));
    const words = pageWords(result.bytes, 1);

    // LibreOffice: "Vertical" y 43.1–102.1, "text" 107.0–136.1, "box" 141.1–170.0, all at x 562.5–585.9.
    const down = wordsIn(words, 540, 36, 612, 252);
    expect(down.map((w) => w.text)).toEqual(['Vertical', 'text', 'box']);
    expect(down.every(turned)).toBe(true);
    down.slice(1).forEach((w, i) => expect(w.yMin).toBeGreaterThan(down[i].yMax - 1));
    expect(down[0].yMin).toBeCloseTo(43.1, 0);
    expect(down[0].xMax).toBeCloseTo(585.9, -0.5);

    // LibreOffice: "Upward" y 183.1–244.9 below "text" 149.1–178.1, at x 652.5–675.9.
    const up = wordsIn(words, 626.4, 36, 698.4, 252);
    expect(up.map((w) => w.text).sort()).toEqual(['Upward', 'text']);
    expect(up.every(turned)).toBe(true);
    const [upward, text] = ['Upward', 'text'].map((t) => up.find((w) => w.text === t)!);
    expect(upward.yMin).toBeGreaterThan(text.yMax - 1);
    expect(upward.yMax).toBeCloseTo(244.9, 0);
  });
});
