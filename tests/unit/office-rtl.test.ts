/**
 * Arabic and Hebrew in Office → PDF: drawn with Noto Sans Arabic / Hebrew, Arabic letters in their
 * joining forms, each line in visual order (right to left, numbers and Latin words left to right
 * inside), right-to-left paragraphs aligned at the right. Documents are generated (docx, pptxgenjs,
 * exceljs) and the PDF is judged by poppler:
 *
 * - `pdftotext` reads the logical text back: poppler detects right-to-left lines and reverses them,
 *   wrapping them in embedding marks (U+202A–U+202C), which are dropped here before comparing words;
 * - `pdftotext -bbox-layout` gives each word's box in drawing order: the glyphs of an Arabic or
 *   Hebrew word come in visual (reversed) order there, so such words are reversed before comparing,
 *   and a line's words sorted by x from the right must read the logical sentence;
 * - the Arabic font's ToUnicode map: a joined word's letters are other glyphs than the isolated
 *   letter (isolated, initial, medial, final forms of meem: four glyphs for one character).
 *
 * The positions below agree with LibreOffice 7.4's PDF of the same .docx (checked by hand with
 * soffice: same word order, line ends at the right margin, 523.3 pt).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import {
  AlignmentType,
  BorderStyle,
  Document,
  LevelFormat,
  Packer,
  Paragraph,
  Tab,
  Table,
  TableCell,
  TableRow,
  TabStopType,
  TextRun,
  WidthType,
} from 'docx';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, decodePDFRawStream } from 'pdf-lib';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { visualOrder, visualText } from '../../workers/engine/lib/office-to-pdf/bidi.ts';
import type { EngineResult } from '../../workers/engine/lib/types.ts';
import { convert, expectValidPdf } from '../support/office-pdf-helpers.ts';
import { popplerText, popplerTextWith } from '../support/pdf.ts';

interface Word {
  text: string;
  xMin: number;
  xMax: number;
}

const RTL = /[\u0590-\u08ff]/u;
/** A word as its characters read: poppler's boxes give Arabic and Hebrew glyphs in drawing order. */
const logical = (word: string) => (RTL.test(word) ? [...word].reverse().join('') : word);

const bboxHtml = (bytes: Uint8Array) => popplerTextWith(bytes, ['-bbox-layout']);

/** The words of a piece of `pdftotext -bbox-layout` output with their x extents. */
const wordsOf = (html: string): Word[] =>
  [...html.matchAll(/<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</g)].map((m) => ({
    text: logical(m[3]),
    xMin: Number(m[1]),
    xMax: Number(m[2]),
  }));

/** Each line of the PDF (all pages) as its words with their x extents, from `pdftotext -bbox-layout`. */
function bboxLines(bytes: Uint8Array): Word[][] {
  return [...bboxHtml(bytes).matchAll(/<line [^>]*>([\s\S]*?)<\/line>/g)].map((line) => wordsOf(line[1]));
}

/** Each page's words. */
const bboxPages = (bytes: Uint8Array): Word[][] =>
  bboxHtml(bytes)
    .split(/<page /)
    .slice(1)
    .map(wordsOf);

/** The one word of a list with this text. */
function wordAt(words: Word[], text: string): Word {
  const found = words.filter((w) => w.text === text);
  expect(
    found.map((w) => w.text),
    `"${text}" among ${words.map((w) => w.text).join(' ')}`,
  ).toEqual([text]);
  return found[0];
}

/** Where page 1 is red (r > 200, g and b < 80) along the row y points from the top, in points (4 px each). */
function redAlongRow(bytes: Uint8Array, y: number): number[] {
  const dir = mkdtempSync(join(tmpdir(), 'folio-rtl-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    const at = String(Math.round(y * 4));
    const args = ['-r', '288', '-f', '1', '-l', '1', '-y', at, '-H', '1', '-W', '4000', join(dir, 'in.pdf')];
    const ppm = execFileSync('pdftoppm', args);
    const [, width] = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.toString('latin1', 0, 40))!.map(Number);
    const header = /^P6\s+\d+\s+\d+\s+255\s/.exec(ppm.toString('latin1', 0, 40))![0].length;
    const row = header;
    const xs: number[] = [];
    for (let x = 0; x < width; x++) {
      const [r, g, b] = ppm.subarray(row + x * 3, row + x * 3 + 3);
      if (r > 200 && g < 80 && b < 80) xs.push(x / 4);
    }
    return xs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The line holding a word, its words sorted by x from the right (how a right-to-left line reads). */
function lineWith(lines: Word[][], word: string): Word[] {
  const line = lines.find((l) => l.some((w) => w.text === word));
  expect(
    line,
    `a line with "${word}" among ${lines.map((l) => l.map((w) => w.text).join(' ')).join(' | ')}`,
  ).toBeDefined();
  return line!;
}
const rightToLeft = (line: Word[]) => [...line].sort((a, b) => b.xMax - a.xMax).map((w) => w.text);
const leftToRight = (line: Word[]) => [...line].sort((a, b) => a.xMin - b.xMin).map((w) => w.text);

/** pdftotext's words, its bidi embedding marks dropped. */
function textWords(result: EngineResult): string[] {
  return popplerText(result.bytes)
    .replace(/[\u202a-\u202e]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** The ToUnicode map of every embedded font whose name contains `name`: glyph code → characters. */
async function toUnicode(bytes: Uint8Array, name: string): Promise<Array<[string, string]>> {
  const doc = await PDFDocument.load(bytes);
  const pairs: Array<[string, string]> = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of('Type')) !== PDFName.of('Font')) continue;
    if (!String(object.get(PDFName.of('BaseFont'))).includes(name)) continue;
    const ref = object.get(PDFName.of('ToUnicode'));
    const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : undefined;
    if (!(stream instanceof PDFRawStream)) continue;
    const cmap = new TextDecoder().decode(decodePDFRawStream(stream).decode());
    for (const m of cmap.matchAll(/<([0-9a-f]{4})> <([0-9a-f]+)>/gi)) {
      const units = m[2].match(/.{4}/g)!.map((h) => parseInt(h, 16));
      pairs.push([m[1], String.fromCharCode(...units)]);
    }
  }
  return pairs;
}

const noMissingNotes = (result: EngineResult) => result.notes?.filter((n) => /printed as/.test(n)) ?? [];

// An Arabic sentence with a number and a Latin word inside, a Hebrew one with a year, and joined letters.
const ARABIC = ['كتب', 'الطالب', '250', 'صفحة', 'عن', 'Folio', 'اليوم'];
const HEBREW = ['שלום', 'עולם', '2026'];
const A4_RIGHT_MARGIN = 595.3 - 72; // docx's default page: A4, 1 inch margins

describe('Word → PDF: right-to-left paragraphs', () => {
  test('Arabic and Hebrew in w:bidi paragraphs: fonts, logical text, visual order, right alignment, shaping', async () => {
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph({ bidirectional: true, children: [new TextRun({ text: ARABIC.join(' '), size: 28 })] }),
            new Paragraph({ bidirectional: true, children: [new TextRun({ text: HEBREW.join(' '), size: 28 })] }),
            new Paragraph({ children: [new TextRun({ text: 'Hello שלום עולם world', size: 28 })] }),
            new Paragraph({ bidirectional: true, children: [new TextRun({ text: 'مثال (بين قوسين).', size: 28 })] }),
            new Paragraph({
              bidirectional: true,
              children: [
                new TextRun({ text: 'م ممم', size: 28 }),
                new TextRun({ text: ' عريض', bold: true, size: 28 }),
              ],
            }),
          ],
        },
      ],
    });
    const result = await convert(wordToPdf, 'rtl.docx', await Packer.toBuffer(docx));
    await expectValidPdf(result);
    expect(noMissingNotes(result)).toEqual([]);

    // pdftotext: the logical words in logical order.
    const words = textWords(result);
    const at = words.indexOf(ARABIC[0]);
    expect(words.slice(at, at + ARABIC.length)).toEqual(ARABIC);
    const he = words.indexOf(HEBREW[0]);
    expect(words.slice(he, he + HEBREW.length)).toEqual(HEBREW);

    // Brackets in right-to-left text are drawn mirrored and read back as the document has them.
    // (poppler puts a space before the closing bracket: the bracket and the word are separate strings.)
    expect(popplerText(result.bytes).replace(/[\u202a-\u202e]/g, '')).toMatch(/مثال \(بين قوسين ?\)\./);

    // On the page: the Arabic sentence reads from the right; "250" and "Folio" are not reversed.
    const lines = bboxLines(result.bytes);
    const arabicLine = lineWith(lines, 'الطالب');
    expect(rightToLeft(arabicLine)).toEqual(ARABIC);
    expect(rightToLeft(lineWith(lines, 'עולם'))).toEqual(HEBREW);
    // Right-aligned: each right-to-left line ends at the right margin (widths measured = widths drawn).
    for (const word of ['الطالب', 'עולם', 'عريض']) {
      const end = Math.max(...lineWith(lines, word).map((w) => w.xMax));
      expect(end).toBeCloseTo(A4_RIGHT_MARGIN, 0);
    }
    // A left-to-right paragraph stays at the left margin; its Hebrew phrase reads right to left inside it.
    const ltr = lineWith(lines, 'Hello');
    expect(leftToRight(ltr)).toEqual(['Hello', 'עולם', 'שלום', 'world']);
    expect(Math.min(...ltr.map((w) => w.xMin))).toBeCloseTo(72, 0);

    // Shaping: meem alone and in "ممم" (initial, medial, final) are four different glyphs.
    const meem = (await toUnicode(result.bytes, 'NotoSansArabic-Regular')).filter(([, text]) => text === 'م');
    expect(new Set(meem.map(([code]) => code)).size).toBe(4);
    expect((await toUnicode(result.bytes, 'NotoSansArabic-Bold')).length).toBeGreaterThan(0);
    expect((await toUnicode(result.bytes, 'NotoSansHebrew-Regular')).length).toBeGreaterThan(0);
  });

  test('a right-to-left paragraph that wraps is broken on the logical text: read line by line from the right', async () => {
    const vocabulary = ['مرحبا', 'كلمة', 'الكتاب', 'שלום', 'جديد'];
    const words = Array.from({ length: 60 }, (_, i) => vocabulary[i % vocabulary.length]);
    const sentence = words.join(' ');
    const docx = new Document({
      sections: [{ children: [new Paragraph({ bidirectional: true, children: [new TextRun({ text: sentence })] })] }],
    });
    const result = await convert(wordToPdf, 'wrap.docx', await Packer.toBuffer(docx));
    const lines = bboxLines(result.bytes).filter((l) => l.length > 1);
    expect(lines.length).toBeGreaterThan(1);
    // Reading each line from the right, then the lines from the top, gives the sentence.
    const read = lines.flatMap((line) => rightToLeft(line));
    expect(read).toEqual(words);
    // The first line, like every right-to-left line, ends at the right margin.
    expect(Math.max(...lines[0].map((w) => w.xMax))).toBeCloseTo(A4_RIGHT_MARGIN, 0);
  });

  test("Arabic letters take the run's complex-script size (w:szCs), not its w:sz", async () => {
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph({ children: [new TextRun({ text: 'Latin مرحبا', size: 24 })] }),
            new Paragraph({ children: [new TextRun({ text: 'Latin كتاب', size: 24, sizeComplexScript: 48 })] }),
          ],
        },
      ],
    });
    const result = await convert(wordToPdf, 'sizes.docx', await Packer.toBuffer(docx));
    const html = bboxHtml(result.bytes);
    const heights = (word: string) =>
      [...html.matchAll(new RegExp(`yMin="([\\d.]+)" xMax="[\\d.]+" yMax="([\\d.]+)">${word}<`, 'g'))].map(
        (m) => Number(m[2]) - Number(m[1]),
      );
    // poppler's word box spans the font's ascent to descent at its size: 24 pt against 12 pt, same font.
    const [plain] = heights(logical('مرحبا'));
    const [complex] = heights(logical('كتاب'));
    expect(complex / plain).toBeCloseTo(2, 1);
    // The Latin word of both runs keeps w:sz.
    const latin = heights('Latin');
    expect(latin.length).toBe(2);
    expect(latin[1]).toBeCloseTo(latin[0], 1);
  });

  test('in a w:bidi paragraph w:jc and w:ind "left" mean its start, on the right (as LibreOffice reads them)', async () => {
    // docx writes AlignmentType.LEFT in a bidi paragraph as w:jc="right", and RIGHT as "left".
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph({
              bidirectional: true,
              alignment: AlignmentType.LEFT,
              children: [new TextRun('שלום עולם one')],
            }),
            new Paragraph({
              bidirectional: true,
              alignment: AlignmentType.RIGHT,
              children: [new TextRun('שלום עולם two')],
            }),
            new Paragraph({ bidirectional: true, indent: { left: 1440 }, children: [new TextRun('שלום עולם three')] }),
          ],
        },
      ],
    });
    const bytes = await Packer.toBuffer(docx);
    const xml = await (await JSZip.loadAsync(bytes)).file('word/document.xml')!.async('string');
    expect(xml).toContain('<w:bidi/><w:jc w:val="right"/>');
    const lines = bboxLines((await convert(wordToPdf, 'jc.docx', bytes)).bytes);
    const extent = (word: string) => {
      const line = lineWith(lines, word);
      return [Math.min(...line.map((w) => w.xMin)), Math.max(...line.map((w) => w.xMax))];
    };
    // LibreOffice 7.4's PDF of this document: 71.9, 523.3 and 451.3 pt.
    expect(extent('one')[0]).toBeCloseTo(72, 0);
    expect(extent('two')[1]).toBeCloseTo(A4_RIGHT_MARGIN, 0);
    expect(extent('three')[1]).toBeCloseTo(A4_RIGHT_MARGIN - 72, 0);
  });

  test('a right-to-left paragraph in a table cell reads from the right and ends at the cell', async () => {
    const cell = (text: string, bidirectional: boolean) =>
      new TableCell({
        width: { size: 4500, type: WidthType.DXA },
        children: [new Paragraph({ bidirectional, children: [new TextRun(text)] })],
      });
    const table = new Table({
      columnWidths: [4500, 4500],
      rows: [new TableRow({ children: [cell('Left cell', false), cell(HEBREW.join(' '), true)] })],
    });
    const result = await convert(
      wordToPdf,
      'table.docx',
      await Packer.toBuffer(new Document({ sections: [{ children: [table] }] })),
    );
    const lines = bboxLines(result.bytes);
    const hebrew = lineWith(lines, 'עולם').filter((w) => HEBREW.includes(w.text));
    expect(rightToLeft(hebrew)).toEqual(HEBREW);
    // The second cell's right edge: 1 in margin + 2 × 4500 twips, less the cell's right padding (0.08 in).
    const cellEnd = 72 + (2 * 4500) / 20 - 5.4;
    expect(Math.max(...hebrew.map((w) => w.xMax))).toBeCloseTo(cellEnd, 0);
  });
});

describe('PowerPoint and Excel → PDF', () => {
  test('PowerPoint: an rtl="1" text box reads from the right and ends at the box', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText(ARABIC.join(' '), { x: 1, y: 1, w: 8, h: 1, fontSize: 24, rtlMode: true, align: 'right' });
    const buffer = (await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer;
    const result = await convert(pptToPdf, 'rtl.pptx', buffer);
    await expectValidPdf(result);
    expect(noMissingNotes(result)).toEqual([]);
    const line = lineWith(bboxLines(result.bytes), 'الطالب');
    expect(rightToLeft(line)).toEqual(ARABIC);
    // The box's right edge (9 in) less its right inset (0.1 in).
    expect(Math.max(...line.map((w) => w.xMax))).toBeCloseTo(9 * 72 - 7.2, 0);
  });

  test("Excel: an Arabic cell reads from the right and starts at the cell's right edge", async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('ورقة');
    sheet.columns = [{ width: 60 }];
    sheet.addRow(['Latin text']);
    sheet.addRow([ARABIC.join(' ')]);
    const result = await convert(excelToPdf, 'rtl.xlsx', await wb.xlsx.writeBuffer());
    await expectValidPdf(result);
    expect(noMissingNotes(result)).toEqual([]);
    const lines = bboxLines(result.bytes);
    const arabic = lineWith(lines, 'الطالب');
    expect(rightToLeft(arabic)).toEqual(ARABIC);
    const latin = lineWith(lines, 'Latin');
    // General alignment: Latin text at the cell's left, Arabic text (its direction from its first letter) at its right.
    expect(Math.min(...arabic.map((w) => w.xMin))).toBeGreaterThan(Math.max(...latin.map((w) => w.xMax)) + 100);
  });
});

describe('right-to-left tables, sheets and tab stops', () => {
  /** A 3-column table (100, 150, 200 pt), a thick red left border, cell margins 20 pt left and 2.5 pt right. */
  async function tableDocx(bidiVisual: boolean): Promise<Buffer> {
    const cell = (text: string, columnSpan = 1) =>
      new TableCell({ columnSpan, children: [new Paragraph({ bidirectional: true, children: [new TextRun(text)] })] });
    const thin = { style: BorderStyle.SINGLE, size: 4, color: '000000' };
    const table = new Table({
      columnWidths: [2000, 3000, 4000],
      borders: {
        left: { style: BorderStyle.SINGLE, size: 36, color: 'FF0000' },
        right: thin,
        top: thin,
        bottom: thin,
        insideVertical: thin,
        insideHorizontal: thin,
      },
      margins: { left: 400, right: 50 },
      rows: [
        new TableRow({ children: [cell('אחד first'), cell('שניים second'), cell('שלושה third')] }),
        new TableRow({ children: [cell('واحد'), cell('مدمج merged', 2)] }),
      ],
    });
    const bytes = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('before'), table] }] }));
    if (!bidiVisual) return bytes;
    const zip = await JSZip.loadAsync(bytes);
    const xml = await zip.file('word/document.xml')!.async('string');
    zip.file('word/document.xml', xml.replace('<w:tblPr>', '<w:tblPr><w:bidiVisual/>'));
    return zip.generateAsync({ type: 'nodebuffer' });
  }

  test('Word w:bidiVisual table: first column at the right, borders and cell margins mirrored', async () => {
    const ltr = await convert(wordToPdf, 'ltr-table.docx', await tableDocx(false));
    const ltrWords = bboxPages(ltr.bytes)[0];
    expect(wordAt(ltrWords, 'first').xMax).toBeLessThan(wordAt(ltrWords, 'second').xMin);
    expect(Math.max(...redAlongRow(ltr.bytes, 89))).toBeLessThan(80);

    const result = await convert(wordToPdf, 'rtl-table.docx', await tableDocx(true));
    await expectValidPdf(result);
    const words = bboxPages(result.bytes)[0];
    // As LibreOffice 7.4 prints it: "first" in the rightmost column, then "second", "third" to its left.
    const [first, second, third] = ['first', 'second', 'third'].map((t) => wordAt(words, t));
    expect(first.xMin).toBeGreaterThan(second.xMax + 50);
    expect(second.xMin).toBeGreaterThan(third.xMax + 50);
    // The table's left border (w:left, 4.5 pt, red) is drawn at its right edge…
    const red = redAlongRow(result.bytes, 89);
    expect(red.length).toBeGreaterThan(0);
    expect(Math.min(...red)).toBeGreaterThan(500);
    const tableRight = (Math.min(...red) + Math.max(...red)) / 2;
    // …and the cell's w:left margin (20 pt) is at the cell's right: the Hebrew word ends 20 pt short of the edge.
    expect(wordAt(words, 'אחד').xMax).toBeCloseTo(tableRight - 20, 0);
    // Columns 100, 150 and 200 pt wide from the right: the merged cell (columns 2–3) ends where column 1 starts.
    expect(wordAt(words, 'مدمج').xMax).toBeCloseTo(tableRight - 100 - 20, 0);
    expect(wordAt(words, 'واحد').xMax).toBeCloseTo(tableRight - 20, 0);
    expect(wordAt(words, 'third').xMin).toBeGreaterThan(tableRight - 450);
  });

  test('Excel sheet with rightToLeft: column A at the right margin, columns going left, page by page', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('ورقة', { views: [{ rightToLeft: true }] });
    ws.columns = [{ width: 10 }, { width: 20 }, { width: 30 }];
    ws.addRow(['A1text', 'B1text', 'C1text']);
    ws.addRow([1, 22, 333]);
    ws.addRow(['مرحبا', 'שלום', 'Latin']);
    ws.getCell('A5').value = 'leftA5';
    ws.getCell('A5').alignment = { horizontal: 'left' };
    ws.getCell('B5').value = 'rightB5';
    ws.getCell('B5').alignment = { horizontal: 'right' };
    // Text runs on to the right, over the empty A6; a filled C6 at its left does not cut it.
    ws.getCell('B6').value = 'RunsOnOverTheEmptyCellOnItsRight';
    ws.getCell('C6').value = 'C6';
    const wide = wb.addWorksheet('wide', { views: [{ rightToLeft: true }] });
    wide.columns = Array.from({ length: 20 }, () => ({ width: 15 }));
    wide.addRow(Array.from({ length: 20 }, (_, i) => `COL${i + 1}`));
    const result = await convert(excelToPdf, 'rtl-sheet.xlsx', await wb.xlsx.writeBuffer());
    await expectValidPdf(result);
    const pages = bboxPages(result.bytes);
    const words = pages[0];
    // Letter paper, Excel's 0.7 in margins: column A ends at 612 − 50.4 pt (LibreOffice 7.4: the same
    // columns, "1" ending at 560.6, "A1text" starting at 507.1; cells' 2.5 pt padding here).
    const right = 612 - 50.4;
    const [a, b, c] = ['A1text', 'B1text', 'C1text'].map((t) => wordAt(words, t));
    expect(a.xMin).toBeGreaterThan(b.xMax);
    expect(b.xMin).toBeGreaterThan(c.xMax);
    expect(wordAt(words, '1').xMax).toBeCloseTo(right - 2.5, 0);
    // Column A is 10 characters (56.7 pt) wide: its left-aligned text starts there, B's right-aligned ends there.
    const aLeft = a.xMin;
    expect(aLeft).toBeCloseTo(508.4, 0);
    expect(wordAt(words, 'leftA5').xMin).toBeCloseTo(aLeft, 0);
    expect(wordAt(words, 'rightB5').xMax).toBeCloseTo(aLeft - 5, 0);
    // Arabic in a General cell starts at the cell's right; Latin text at its left, as on a left-to-right sheet.
    expect(wordAt(words, 'مرحبا').xMax).toBeCloseTo(right - 2.5, 0);
    expect(wordAt(words, 'Latin').xMin).toBeCloseTo(c.xMin, 0);
    expect(wordAt(words, 'RunsOnOverTheEmptyCellOnItsRight').xMax).toBeGreaterThan(aLeft + 20);
    // The wide sheet: six columns a page, each page's first column at the right.
    const wideOrder = pages.slice(1).map((page) => [...page].sort((p, q) => q.xMax - p.xMax).map((w) => w.text));
    expect(wideOrder).toEqual([
      ['COL1', 'COL2', 'COL3', 'COL4', 'COL5', 'COL6'],
      ['COL7', 'COL8', 'COL9', 'COL10', 'COL11', 'COL12'],
      ['COL13', 'COL14', 'COL15', 'COL16', 'COL17', 'COL18'],
      ['COL19', 'COL20'],
    ]);
    expect(wordAt(pages[4], 'COL19').xMin).toBeCloseTo(wordAt(pages[1], 'COL1').xMin, 0);
  });

  test('Word: tab stops in a w:bidi paragraph are measured from the right; w:ind w:start / w:end', async () => {
    const para = (text: string, indent: { start?: number; end?: number }) =>
      new Paragraph({ bidirectional: true, indent, children: [new TextRun(text)] });
    type Stop = { type: (typeof TabStopType)[keyof typeof TabStopType]; position: number };
    const tabbed = (first: string, after: string, stops: Stop[], indent = {}, bidirectional = true) =>
      new Paragraph({
        bidirectional,
        indent,
        tabStops: stops.length ? stops : undefined,
        children: [new TextRun(first), new TextRun({ children: [new Tab(), after] })],
      });
    const left2in = [{ type: TabStopType.LEFT, position: 2880 }];
    const docx = new Document({
      sections: [
        {
          children: [
            para('STARTIND שלום עולם', { start: 1440 }),
            para('ENDIND שלום עולם', { end: 1440 }),
            tabbed('שלום', 'TABL', left2in),
            tabbed('עולם', 'TABR', [{ type: TabStopType.RIGHT, position: 5760 }]),
            tabbed('שלום', 'TABD', []),
            tabbed('שלום', 'TABS', left2in, { start: 720 }),
            tabbed('שלום', 'TABE', left2in, { end: 1440 }),
            tabbed('שלום', 'TABH', left2in, { start: 1440, hanging: 720 }),
            tabbed('Hello', 'LTRH', left2in, { left: 1440, hanging: 720 }, false),
          ],
        },
      ],
    });
    const bytes = await Packer.toBuffer(docx);
    const xml = await (await JSZip.loadAsync(bytes)).file('word/document.xml')!.async('string');
    expect(xml).toContain('<w:ind w:start="1440"/>');
    expect(xml).toContain('<w:tab/>');
    const words = bboxPages((await convert(wordToPdf, 'tabs.docx', bytes)).bytes)[0];
    // Each figure below is LibreOffice 7.4's PDF of this document (within 0.1 pt).
    expect(wordAt(words, 'STARTIND').xMax).toBeCloseTo(A4_RIGHT_MARGIN - 72, 0);
    expect(wordAt(words, 'ENDIND').xMax).toBeCloseTo(A4_RIGHT_MARGIN, 0);
    // A "left" stop 2 in from the right: the text after the tab starts (its right end) there…
    expect(wordAt(words, 'TABL').xMax).toBeCloseTo(A4_RIGHT_MARGIN - 144, 0);
    // …a "right" stop at 4 in is where it ends (its left end); a default stop every 0.5 in from the right.
    expect(wordAt(words, 'TABR').xMin).toBeCloseTo(A4_RIGHT_MARGIN - 288, 0);
    expect(wordAt(words, 'TABD').xMax).toBeCloseTo(A4_RIGHT_MARGIN - 36, 0);
    // Stops count from the right margin, not from the indent, whichever side the indent is on.
    expect(wordAt(words, 'TABS').xMax).toBeCloseTo(A4_RIGHT_MARGIN - 144, 0);
    expect(wordAt(words, 'TABE').xMax).toBeCloseTo(A4_RIGHT_MARGIN - 144, 0);
    // A hanging indent is a stop on its first line (before the 2 in stop), right to left and left to right.
    expect(wordAt(words, 'TABH').xMax).toBeCloseTo(A4_RIGHT_MARGIN - 72, 0);
    expect(wordAt(words, 'LTRH').xMin).toBeCloseTo(72 + 72, 0);
  });
  test('Word: an Arabic word whose letters come from several runs joins as one word', async () => {
    const word = (...parts: Array<[string, { bold?: boolean; color?: string }?]>) =>
      new Paragraph({
        bidirectional: true,
        children: parts.map(([text, look]) => new TextRun({ text, size: 40, ...look })),
      });
    const docx = new Document({
      sections: [
        {
          children: [
            word(['سلم']),
            word(['س'], ['ل', { color: 'FF0000' }], ['م']),
            word(['كتاب']),
            word(['كت'], ['ا', { bold: true }], ['ب']),
            // (Alef joins only to the letter before it: the beh after it stays unjoined.)
            word(['كتا'], ['ب', { color: 'FF0000' }]),
          ],
        },
      ],
    });
    const result = await convert(wordToPdf, 'join.docx', await Packer.toBuffer(docx));
    // One line per paragraph (poppler may cut a word where its font or colour changes: words by their y).
    const lines: Word[][] = [];
    const page = bboxHtml(result.bytes);
    for (const m of page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</g)) {
      const y = Number(m[2]);
      const word = { text: logical(m[4]), xMin: Number(m[1]), xMax: Number(m[3]), y };
      const line = lines.find((l) => Math.abs((l[0] as Word & { y: number }).y - y) < 5);
      if (line) line.push(word);
      else lines.push([word]);
    }
    expect(lines.map((line) => rightToLeft(line).join(''))).toEqual(['سلم', 'سلم', 'كتاب', 'كتاب', 'كتاب']);
    const width = (line: Word[]) => Math.max(...line.map((w) => w.xMax)) - Math.min(...line.map((w) => w.xMin));
    // Joined forms are narrower than the letters alone (each part shaped alone: 4.6 pt wider at 20 pt);
    // a word in three colours has the one-colour word's glyphs, so its width; with a bold alef, the bold
    // alef's width (3 pt more; 1.5 pt in LibreOffice 7.4's PDF, drawn with its own fonts).
    expect(width(lines[1])).toBeCloseTo(width(lines[0]), 1);
    expect(Math.abs(width(lines[3]) - width(lines[2]))).toBeLessThan(4);
    // The beh after an alef is unjoined either way (2.5 pt apart: the alef–beh kerning is lost between runs).
    expect(Math.abs(width(lines[4]) - width(lines[2]))).toBeLessThan(3);
  });
  test("Word: a justified right-to-left paragraph's last line starts at the right", async () => {
    const vocabulary = ['مرحبا', 'كلمة', 'الكتاب', 'جديد'];
    const long = Array.from({ length: 40 }, (_, i) => vocabulary[i % 4]).join(' ') + ' آخر';
    const justified = (text: string) =>
      new Paragraph({ bidirectional: true, alignment: AlignmentType.JUSTIFIED, children: [new TextRun(text)] });
    const docx = new Document({ sections: [{ children: [justified(long), justified('قصير جدا')] }] });
    const lines = bboxLines((await convert(wordToPdf, 'justified.docx', await Packer.toBuffer(docx))).bytes);
    const extent = (line: Word[]) => [Math.min(...line.map((w) => w.xMin)), Math.max(...line.map((w) => w.xMax))];
    // LibreOffice 7.4: full lines from the left margin to the right one, the last line and the
    // one-line paragraph ending at the right margin (523.2, 523.3 pt) and not reaching the left.
    const [first] = lines;
    expect(extent(first)[1]).toBeCloseTo(A4_RIGHT_MARGIN, 0);
    expect(extent(first)[0]).toBeLessThan(80);
    for (const word of ['آخر', 'جدا']) {
      const [left, right] = extent(lineWith(lines, word));
      expect(right).toBeCloseTo(A4_RIGHT_MARGIN, 0);
      expect(left).toBeGreaterThan(300);
    }
  });
  test('Word: a list number in a right-to-left paragraph is right-to-left text: "1." has its dot on the left', async () => {
    const level = { level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START };
    const item = (text: string) =>
      new Paragraph({ bidirectional: true, numbering: { reference: 'list', level: 0 }, children: [new TextRun(text)] });
    const docx = new Document({
      numbering: {
        config: [
          { reference: 'list', levels: [{ ...level, style: { paragraph: { indent: { left: 720, hanging: 360 } } } }] },
        ],
      },
      sections: [{ children: [item('البند الأول'), item('البند الثاني')] }],
    });
    const result = await convert(wordToPdf, 'list.docx', await Packer.toBuffer(docx));
    // LibreOffice 7.4 prints the marker as "." then "1" from the left (pdftotext reads ".1"), right
    // of the item's text, which starts 0.5 in from the right margin as here.
    expect(popplerText(result.bytes).replace(/[\u202a-\u202e]/g, '')).toContain('.1');
    const words = bboxPages(result.bytes)[0];
    for (const [marker, last] of [
      ['.1', 'الأول'],
      ['.2', 'الثاني'],
    ])
      expect(wordAt(words, marker).xMin).toBeGreaterThan(wordAt(words, last).xMax);
    const starts = words.filter((w) => w.text === 'البند');
    expect(starts.length).toBe(2);
    for (const start of starts) {
      expect(start.xMax).toBeCloseTo(A4_RIGHT_MARGIN - 36, 0);
      expect(wordAt(words, '.1').xMin).toBeGreaterThan(start.xMax);
    }
  });
});

describe('bidi helpers', () => {
  test('visual order reverses right-to-left runs, numbers inside them keep their order', () => {
    // Levels of: [RTL word, space, number, space, RTL word, LTR word] in a right-to-left paragraph.
    expect(visualOrder([1, 1, 2, 1, 1, 2])).toEqual([5, 4, 3, 2, 1, 0]);
    // An LTR paragraph with a Hebrew phrase in the middle.
    expect(visualOrder([0, 0, 1, 1, 1, 0])).toEqual([0, 1, 4, 3, 2, 5]);
  });

  test('strings handed to fontkit: brackets mirrored, Arabic-Indic digits not reversed twice', () => {
    expect(visualText('(abc)', 1)).toBe('(cba)');
    expect(visualText('abc', 0)).toBe('abc');
    // fontkit reverses Arabic-script strings itself, so they are handed over as they are…
    expect(visualText('مرحبا', 1)).toBe('مرحبا');
    // …and a left-to-right number in Arabic-Indic digits is reversed first, to come out in order.
    expect(visualText('١٢٣', 2)).toBe('٣٢١');
  });
});
