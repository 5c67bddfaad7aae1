/**
 * PDFs with known structure for the office-export tests, drawn with pdf-lib: a heading, body
 * paragraphs, two columns, a ruled table, an unruled numeric table, a picture, bold/italic/colour
 * and a repeated footer. Each fixture also returns the text in reading order.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import JSZip from 'jszip';
import SSF from 'ssf';

const LOREM = [
  'Folio converts documents inside the browser so that nothing ever leaves the device of the person using it.',
  'Each page is read with its text positions and fonts, grouped into lines and paragraphs in reading order.',
  'Columns are read one after the other, tables become real tables and pictures keep their size on the page.',
  'The result is a document that people can keep editing, not a picture of every page of the original file.',
];

/** Wraps text into lines that fit `width` at `size` points. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

function drawParagraph(
  page: PDFPage,
  text: string,
  font: PDFFont,
  size: number,
  x: number,
  y: number,
  width: number,
): number {
  for (const line of wrap(text, font, size, width)) {
    page.drawText(line, { x, y, size, font });
    y -= size * 1.3;
  }
  return y;
}

export interface ReportFixture {
  bytes: Uint8Array;
  /** All the document's words in reading order (footer excluded). */
  text: string;
  /** Per page, reading order, footer excluded. */
  pageTexts: string[];
  heading: string;
  table: string[][];
  numbers: Array<Array<string | number>>;
  footer: string;
  pages: number;
}

/** Two pages: heading, paragraph, two-column section, ruled table, picture; page 2 a numeric table. */
export async function buildReport(): Promise<ReportFixture> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const italic = await doc.embedFont(StandardFonts.HelveticaOblique);
  const texts: string[] = [];
  const footer = 'Folio quarterly report';

  // ---- page 1
  const page = doc.addPage([612, 792]);
  const heading = 'Quarterly Report';
  page.drawText(heading, { x: 72, y: 720, size: 24, font: bold, color: rgb(0.1, 0.2, 0.6) });
  texts.push(heading);
  let y = drawParagraph(page, LOREM[0], regular, 11, 72, 690, 468);
  texts.push(LOREM[0]);
  page.drawText('Important:', { x: 72, y: y - 6, size: 11, font: bold });
  page.drawText('this sentence is in italics.', {
    x: 72 + bold.widthOfTextAtSize('Important: ', 11),
    y: y - 6,
    size: 11,
    font: italic,
  });
  texts.push('Important: this sentence is in italics.');
  y -= 36;
  page.drawText('Two Columns', { x: 72, y, size: 16, font: bold });
  texts.push('Two Columns');
  y -= 24;
  // Left column then right column (reading order), 216 pt wide each with a 36 pt gutter.
  const colTop = y;
  let left = drawParagraph(page, LOREM[1], regular, 11, 72, colTop, 216);
  left = drawParagraph(page, LOREM[2], regular, 11, 72, left - 8, 216);
  const right = drawParagraph(page, LOREM[3], regular, 11, 324, colTop, 216);
  texts.push(LOREM[1], LOREM[2], LOREM[3]);
  y = Math.min(left, right) - 20;

  // Ruled table 3 × 3.
  const table = [
    ['Region', 'Units', 'Revenue'],
    ['North', '120', '4,500'],
    ['South', '95', '3,210'],
  ];
  const colX = [72, 212, 352, 492];
  const rowH = 22;
  const tableTop = y;
  for (let r = 0; r <= table.length; r++)
    page.drawLine({
      start: { x: colX[0], y: tableTop - r * rowH },
      end: { x: colX[3], y: tableTop - r * rowH },
      thickness: 0.8,
    });
  for (const x of colX)
    page.drawLine({ start: { x, y: tableTop }, end: { x, y: tableTop - table.length * rowH }, thickness: 0.8 });
  table.forEach((row, r) =>
    row.forEach((cell, c) =>
      page.drawText(cell, { x: colX[c] + 6, y: tableTop - r * rowH - 15, size: 11, font: r === 0 ? bold : regular }),
    ),
  );
  texts.push(...table.flat());
  y = tableTop - table.length * rowH - 30;

  // A picture: a small PNG drawn at 120 × 60 pt.
  const png = await doc.embedPng(await tinyPng());
  page.drawImage(png, { x: 72, y: y - 60, width: 120, height: 60 });
  y -= 80;
  const after = 'This paragraph comes after the picture.';
  page.drawText(after, { x: 72, y, size: 11, font: regular, color: rgb(0.8, 0, 0) });
  texts.push(after);

  const page1Count = texts.length;
  // ---- page 2: unruled numeric table
  const page2 = doc.addPage([612, 792]);
  page2.drawText('Figures', { x: 72, y: 720, size: 16, font: bold });
  texts.push('Figures');
  const numbers: Array<Array<string | number>> = [
    ['Item', 'Qty', 'Price', 'Total'],
    ['Paper', 10, 2.5, 25],
    ['Ink', 3, 19.99, 59.97],
    ['Stapler', 1, 7.25, 7.25],
    ['Folders', 12, 0.8, 9.6],
  ];
  numbers.forEach((row, r) =>
    row.forEach((cell, c) => {
      const text = typeof cell === 'number' ? cell.toFixed(2).replace(/\.00$/, '') : cell;
      const x = [72, 200, 300, 400][c];
      page2.drawText(text, { x, y: 680 - r * 18, size: 11, font: r === 0 ? bold : regular });
    }),
  );
  texts.push(...numbers.flat().map((c) => (typeof c === 'number' ? c.toFixed(2).replace(/\.00$/, '') : c)));
  const closing = 'End of the figures section.';
  page2.drawText(closing, { x: 72, y: 560, size: 11, font: regular });
  texts.push(closing);

  for (const [index, p] of doc.getPages().entries()) {
    p.drawText(footer, { x: 72, y: 30, size: 9, font: regular });
    p.drawText(String(index + 1), { x: 530, y: 30, size: 9, font: regular });
  }
  const pageTexts = [texts.slice(0, page1Count).join(' '), texts.slice(page1Count).join(' ')];
  return { bytes: await doc.save(), text: texts.join(' '), pageTexts, heading, table, numbers, footer, pages: 2 };
}

/** A small two-colour PNG drawn with @napi-rs/canvas. */
async function tinyPng(): Promise<Uint8Array> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(80, 40);
  const context = canvas.getContext('2d');
  context.fillStyle = '#c0392b';
  context.fillRect(0, 0, 40, 40);
  context.fillStyle = '#2980b9';
  context.fillRect(40, 0, 40, 40);
  return new Uint8Array(await canvas.encode('png'));
}

/** Word-level similarity: matched words (LCS) over the longer sequence. */
export function wordSimilarity(expected: string, actual: string): number {
  const a = normWords(expected);
  const b = normWords(actual);
  if (a.length === 0 && b.length === 0) return 1;
  const dp = new Uint16Array((a.length + 1) * (b.length + 1));
  const w = b.length + 1;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      dp[i * w + j] =
        a[i - 1] === b[j - 1] ? dp[(i - 1) * w + j - 1] + 1 : Math.max(dp[(i - 1) * w + j], dp[i * w + j - 1]);
    }
  }
  return dp[a.length * w + b.length] / Math.max(a.length, b.length);
}

export function normWords(text: string): string[] {
  // Chinese and Japanese are written without spaces: each character is a word, so "嘿嘿" and the
  // same two characters drawn as separate strings compare equal.
  return text.toLowerCase().normalize('NFKC').match(WORD) ?? [];
}

const WORD =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]|(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])[\p{L}\p{N}])+/gu;

/** Text of the paragraphs of a DOCX body in document order, and its tables as grids. */
export async function readDocx(bytes: Uint8Array): Promise<{
  xml: string;
  text: string;
  tables: string[][][];
  headers: string;
  footers: string;
  paragraphs: Array<{ text: string; style?: string; bold: boolean; size?: number }>;
}> {
  const zip = await JSZip.loadAsync(bytes);
  const xml = await zip.file('word/document.xml')!.async('string');
  const texts = (fragment: string) =>
    [...fragment.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => decode(m[1])).join('');
  const paragraphs = [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((m) => ({
    text: texts(m[0]),
    style: /<w:pStyle w:val="([^"]+)"/.exec(m[0])?.[1],
    bold: /<w:b\/>|<w:b w:val="(true|1)"\/>/.test(m[0]),
    size: Number(/<w:sz w:val="(\d+)"/.exec(m[0])?.[1]) / 2 || undefined,
  }));
  const tables = [...xml.matchAll(/<w:tbl>[\s\S]*?<\/w:tbl>/g)].map((t) =>
    [...t[0].matchAll(/<w:tr[ >][\s\S]*?<\/w:tr>/g)].map((row) =>
      [...row[0].matchAll(/<w:tc>[\s\S]*?<\/w:tc>/g)].map((cell) => texts(cell[0])),
    ),
  );
  const partText = async (prefix: string) => {
    let out = '';
    for (const name of Object.keys(zip.files).filter((n) => n.startsWith(`word/${prefix}`)))
      out += texts(await zip.file(name)!.async('string'));
    return out;
  };
  return {
    xml,
    text: paragraphs.map((p) => p.text).join(' '),
    tables,
    paragraphs,
    headers: await partText('header'),
    footers: await partText('footer'),
  };
}

function decode(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The text of each slide of a PPTX, in the order its shapes are written. */
export async function readPptx(
  bytes: Uint8Array,
): Promise<{ slides: string[]; xml: string[]; slideSize: { cx: number; cy: number } }> {
  const zip = await JSZip.loadAsync(bytes);
  const names = Object.keys(zip.files)
    .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
    .sort((a, b) => Number(/(\d+)\.xml/.exec(a)![1]) - Number(/(\d+)\.xml/.exec(b)![1]));
  const xml = await Promise.all(names.map((n) => zip.file(n)!.async('string')));
  const slides = xml.map((x) => [...x.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => decode(m[1])).join(' '));
  const presentation = await zip.file('ppt/presentation.xml')!.async('string');
  const size = /<p:sldSz cx="(\d+)" cy="(\d+)"/.exec(presentation)!;
  return { slides, xml, slideSize: { cx: Number(size[1]), cy: Number(size[2]) } };
}

/** Values of a worksheet as a grid (1-based rows/cols → 0-based arrays). */
export function sheetGrid(sheet: import('exceljs').Worksheet): unknown[][] {
  const grid: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, r) => {
    row.eachCell({ includeEmpty: true }, (cell, c) => {
      (grid[r - 1] ??= [])[c - 1] = cell.isMerged && cell.master !== cell ? null : cell.value;
    });
  });
  return grid;
}

/**
 * A sheet's grid without its hidden rows and columns, as a printout shows it. Empty rows (holes in
 * the grid: `sheetGrid` makes no row where a row has no cells) and empty cells stay, so that every
 * cell keeps its position on paper (`filter` on the sparse grid dropped them, and every cell below
 * an empty row moved up one).
 */
export function withoutHidden(
  grid: unknown[][],
  hiddenRow: (r: number) => boolean,
  hiddenColumn: (c: number) => boolean,
): unknown[][] {
  return Array.from(grid, (row) => Array.from(row ?? [], (v) => v))
    .filter((_, r) => !hiddenRow(r))
    .map((row) => row.filter((_, c) => !hiddenColumn(c)));
}

/**
 * Share of the expected non-empty cells found with the right value at the right position relative
 * to the expected top-left cell (located in the sheet by its value).
 */
export function cellMatchRate(expected: Array<Array<string | number>>, grid: unknown[][]): number {
  const same = (a: unknown, b: string | number) =>
    typeof b === 'number' ? typeof a === 'number' && Math.abs(a - b) < 1e-9 : String(a ?? '').trim() === b;
  let anchor: [number, number] | undefined;
  grid.forEach((row, r) =>
    row?.forEach((v, c) => {
      if (!anchor && same(v, expected[0][0])) anchor = [r, c];
    }),
  );
  if (!anchor) return 0;
  let total = 0;
  let right = 0;
  expected.forEach((row, r) =>
    row.forEach((value, c) => {
      if (value === '') return;
      total++;
      if (same(grid[anchor![0] + r]?.[anchor![1] + c], value)) right++;
    }),
  );
  return right / total;
}

/** Character error rate: edit distance between whitespace-normalised texts over the reference length. */
export function characterErrorRate(reference: string, hypothesis: string): number {
  const a = [...reference.replace(/\s+/g, ' ').trim()];
  const b = [...hypothesis.replace(/\s+/g, ' ').trim()];
  if (a.length === 0) return b.length ? 1 : 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] / a.length;
}

/**
 * The first (letter-size) page of `source` rendered to a picture at `dpi`, as the only content of a new PDF: a "scan".
 */
export async function scanOf(source: PDFDocument, dpi: number): Promise<Uint8Array> {
  const { openPdfjs } = await import('../../workers/engine/lib/pdf/pdfjs.ts');
  const { renderPageCanvas, encodeCanvas } = await import('../../workers/engine/lib/pdf/page-raster.ts');
  const pdf = await openPdfjs(await source.save());
  const canvas = await renderPageCanvas(pdf, 1, dpi);
  const png = await encodeCanvas(canvas.canvas, 'png');
  await pdf.destroy();
  const scan = await PDFDocument.create();
  const image = await scan.embedPng(png);
  scan.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
  return scan.save();
}

/** A "scan": a page of known text rendered to a picture at `dpi` and placed as the only content of a PDF. */
export async function buildScannedPage(dpi = 200): Promise<{ bytes: Uint8Array; text: string }> {
  const source = await PDFDocument.create();
  const font = await source.embedFont(StandardFonts.TimesRoman);
  const page = source.addPage([612, 792]);
  const paragraphs = [
    'The quick brown fox jumps over the lazy dog while the farmer watches from the old wooden gate.',
    'Scanned pages carry no text layer, so Folio reads them with optical character recognition in the browser.',
    'Numbers such as 1865, 42 and 3.14 must survive the trip as well as punctuation, commas and full stops.',
  ];
  let y = 720;
  const lines: string[] = [];
  for (const paragraph of paragraphs) {
    for (const line of wrap(paragraph, font, 13, 468)) {
      page.drawText(line, { x: 72, y, size: 13, font });
      lines.push(line);
      y -= 18;
    }
    y -= 12;
  }
  return { bytes: await scanOf(source, dpi), text: lines.join(' ') };
}

/**
 * A text that reads as a number the way a printout shows one ("1,234,567", "7384.000", "-12.3"):
 * that number. Leading zeros ("007", "00.5") and other marks keep it a text.
 */
function printedNumber(text: string): number | undefined {
  const t = text.trim();
  return /^-?(0|[1-9]\d{0,2}(,\d{3})+|[1-9]\d*)(\.\d+)?$/.test(t) ? Number(t.replace(/,/g, '')) : undefined;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A text that reads as a date with its month's name ("09 Mar 2016", "March 9, 2016"): that day, yyyy-mm-dd. */
function namedMonthDate(text: string): string | undefined {
  const t = text.trim();
  const dayFirst = /^(\d{1,2})[ -]([A-Za-z]{3,9})\.?,?[ -](\d{4})$/.exec(t);
  const monthFirst = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/.exec(t);
  const [day, name, year] = dayFirst
    ? [dayFirst[1], dayFirst[2], dayFirst[3]]
    : monthFirst
      ? [monthFirst[2], monthFirst[1], monthFirst[3]]
      : [];
  const month = MONTH_NAMES.indexOf(name?.slice(0, 3).toLowerCase() ?? '') + 1;
  return month > 0 ? `${year}-${String(month).padStart(2, '0')}-${day!.padStart(2, '0')}` : undefined;
}

/**
 * The key a cell votes for its sheet's offset with: a number typed as text keys as that number, as a
 * printout shows the same characters whether the workbook stored the text or the number.
 */
function cellKey(v: unknown): string {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  const number = typeof v === 'string' ? printedNumber(v) : undefined;
  return number === undefined ? String(v).trim() : String(number);
}

const squash = (t: string) => t.replace(/\s+/g, '').toLowerCase();

/** Forms a date is commonly printed in, besides its own number format (which LibreOffice may show otherwise). */
const DATE_FORMS = [
  'm/d/yyyy',
  'd/m/yyyy',
  'mm/dd/yyyy',
  'dd/mm/yyyy',
  'yyyy-mm-dd',
  'd\\.m\\.yyyy',
  'dd\\.mm\\.yyyy',
  'm/d/yy',
];
const TIME_FORMS = ['h:mm:ss', 'h:mm', 'hh:mm:ss', 'hh:mm'];

/**
 * Whether a date can be on the printed page. Its printed form depends on its format, so a date
 * counts as printed, except where the page prints "###" (a spreadsheet's mark for a value too wide
 * for its column, which shows none of it): there a date counts only where the page shows it in its
 * own format or a common one.
 */
function printedDate(date: Date, numFmt: string | undefined, shownText: string): boolean {
  if (!shownText.includes('###')) return true;
  const serial = (date.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000;
  const forms = [numFmt, ...DATE_FORMS, ...(serial % 1 ? TIME_FORMS : [])].flatMap((format) => {
    if (!format || /general/i.test(format)) return [];
    try {
      return [squash(SSF.format(format, serial))];
    } catch {
      return [];
    }
  });
  return forms.some((form) => form && shownText.includes(form));
}

/**
 * Whether a source cell's value can be on the printed page, given the page's text squashed (no
 * spaces, lower case): a text or number as it prints (not a number its format prints as nothing), a
 * logical value as TRUE or FALSE (a number format prints it as 1 or 0), a date as `printedDate` says
 * (`numFmt`: the cell's number format).
 */
export function printedOnPage(v: unknown, shownText: string, numFmt?: string): boolean {
  if (typeof v === 'string') return shownText.includes(squash(v));
  if (typeof v === 'number')
    return (
      !printsBlank(v, numFmt) && (shownText.includes(String(v)) || shownText.includes(String(v).replace('.', ',')))
    );
  if (typeof v === 'boolean') return shownText.includes(String(v));
  if (v instanceof Date) return printedDate(v, numFmt, shownText);
  return v === null || v === undefined;
}

/** Whether a number's format prints nothing for it ("#" or "0;-0;;@" for a zero): the page shows an empty cell. */
function printsBlank(v: number, numFmt: string | undefined): boolean {
  if (!numFmt || /general/i.test(numFmt)) return false;
  try {
    return squash(SSF.format(numFmt, v)) === '';
  } catch {
    return false;
  }
}

/** Same value: numbers within the printed precision, dates by day, text trimmed. */
export function sameCell(actual: unknown, expected: unknown): boolean {
  if (expected instanceof Date)
    return actual instanceof Date && actual.toISOString().slice(0, 10) === expected.toISOString().slice(0, 10);
  // A number typed as text ("1,234,567", "7384.000") that came back as that number: the printout
  // shows the same characters either way (the mirror of a number that came back as its text, below).
  const textNumber = typeof expected === 'string' && typeof actual === 'number' ? printedNumber(expected) : undefined;
  if (textNumber !== undefined) return Math.abs((actual as number) - textNumber) <= Math.abs(textNumber) * 1e-12;
  // A date typed as text with its month's name that came back as a real date of that day.
  const named = typeof expected === 'string' && actual instanceof Date ? namedMonthDate(expected) : undefined;
  if (named) return (actual as Date).toISOString().slice(0, 10) === named;
  // A date typed as text in the source ("31/10/2017") that came back as a real date of that day
  // (either day/month order: the source's own order is not knowable from one cell).
  const dateText = typeof expected === 'string' ? /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(expected.trim()) : null;
  if (dateText && actual instanceof Date) {
    const [, a, b, year] = dateText.map(Number);
    const iso = actual.toISOString().slice(0, 10);
    const day = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    return iso === day(year, b, a) || iso === day(year, a, b);
  }
  if (typeof expected === 'number') {
    if (typeof actual !== 'number')
      return (
        String(actual ?? '')
          .replace(/,/g, '')
          .trim() === String(expected)
      );
    return (
      Math.abs(actual - expected) <= Math.max(1e-9, Math.abs(expected) * 0.005) || Math.abs(actual - expected) < 0.006
    );
  }
  return (
    String(actual ?? '')
      .replace(/\s+/g, ' ')
      .trim() ===
    String(expected ?? '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/**
 * Share of the expected non-empty cells that appear with the same value at the same position
 * relative to each other: the best single offset per produced sheet, matches pooled over sheets.
 */
export function bestOffsetMatchRate(expected: unknown[][], sheets: unknown[][][]): number {
  const cells = bestOffsetMatches(expected, sheets);
  return cells.length === 0 ? 1 : cells.filter((cell) => cell.matched).length / cells.length;
}

/** `bestOffsetMatchRate`'s expected cells, each with whether some sheet has it at its best offset. */
export function bestOffsetMatches(
  expected: unknown[][],
  sheets: unknown[][][],
): Array<{ r: number; c: number; matched: boolean }> {
  const cells: Array<[number, number, unknown]> = [];
  expected.forEach((row, r) =>
    row?.forEach((v, c) => {
      if (v !== null && v !== undefined && String(v).trim() !== '') cells.push([r, c, v]);
    }),
  );
  const matched = new Set<number>();
  for (const grid of sheets) {
    const offsets = new Map<string, number>();
    const index = new Map<string, Array<[number, number]>>();
    grid.forEach((row, r) =>
      row?.forEach((v, c) => {
        if (v === null || v === undefined) return;
        const key = cellKey(v);
        index.set(key, [...(index.get(key) ?? []), [r, c]]);
      }),
    );
    // Every expected cell votes (a sheet may hold the 10th page of a long table), but a value found
    // at many places in the sheet (0, "Yes") votes only among the first 400 cells, to bound the work.
    cells.forEach(([r, c, v], i) => {
      const key = cellKey(v);
      const places = index.get(key) ?? [];
      if (i >= 400 && places.length > 8) return;
      for (const [gr, gc] of places) {
        const offset = `${gr - r},${gc - c}`;
        offsets.set(offset, (offsets.get(offset) ?? 0) + 1);
      }
    });
    const best = [...offsets].sort((a, b) => b[1] - a[1])[0];
    if (!best) continue;
    const [dr, dc] = best[0].split(',').map(Number);
    cells.forEach(([r, c, v], i) => {
      if (sameCell(grid[r + dr]?.[c + dc], v)) matched.add(i);
    });
  }
  return cells.map(([r, c], i) => ({ r, c, matched: matched.has(i) }));
}

/**
 * The source's printed grids without the text cells the page cannot show: a text printed in full
 * k times is on the page in at most k cells (the others clipped by the next cell: "Should be
 * overwrit"), so of the cells holding it only k count, those Folio got right first. `shownText` is
 * the pages' text squashed (no spaces, lower case), as for `printedOnPage`.
 */
export function atMostAsPrinted(grids: unknown[][][], folio: unknown[][][], shownText: string): unknown[][][] {
  const squash = (t: string) => t.replace(/\s+/g, '').toLowerCase();
  const printedTimes = (text: string) => {
    let count = 0;
    for (let at = shownText.indexOf(text); at >= 0; at = shownText.indexOf(text, at + text.length)) count++;
    return count;
  };
  const byText = new Map<string, Array<{ g: number; r: number; c: number; matched: boolean }>>();
  grids.forEach((grid, g) => {
    const wanted = grid.some((row) => row?.some((v) => typeof v === 'string' && squash(v) !== ''));
    if (!wanted) return;
    for (const { r, c, matched } of bestOffsetMatches(grid, folio)) {
      const v = grid[r][c];
      if (typeof v !== 'string' || squash(v) === '') continue;
      byText.set(squash(v), [...(byText.get(squash(v)) ?? []), { g, r, c, matched }]);
    }
  });
  const out = grids.map((grid) => Array.from(grid, (row) => Array.from(row ?? [], (v) => v)));
  for (const [text, cells] of byText) {
    const excess = cells.length - printedTimes(text);
    if (excess <= 0) continue;
    const dropped = [...cells.filter((cell) => !cell.matched), ...cells.filter((cell) => cell.matched)].slice(
      0,
      excess,
    );
    for (const { g, r, c } of dropped) out[g][r][c] = null;
  }
  return out;
}

/**
 * Character error rate with reading order taken out: both texts' words sorted before comparing.
 * For references whose own order differs (e.g. an OCR layer that reads a caption mid-paragraph).
 */
export function orderFreeCharacterErrorRate(reference: string, hypothesis: string): number {
  const sorted = (t: string) => t.split(/\s+/).filter(Boolean).sort().join(' ');
  return characterErrorRate(sorted(reference), sorted(hypothesis));
}
