import { beforeAll, describe, expect, test } from 'vitest';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { buildReport, readDocx, wordSimilarity, type ReportFixture } from '../support/office-fixtures.ts';
import { run } from '../../workers/engine/tools/pdf-to-word.ts';

let fixture: ReportFixture;
let docx: Awaited<ReturnType<typeof readDocx>>;
let notes: string[] = [];

beforeAll(async () => {
  fixture = await buildReport();
  const result = await run([{ name: 'report.pdf', bytes: fixture.bytes }], {}, {});
  expect(result.filename).toBe('report.docx');
  notes = result.notes ?? [];
  docx = await readDocx(result.bytes);
  if (process.env.OFFICE_DEBUG) {
    console.log(docx.paragraphs.map((p) => `${p.style ?? ''}|${p.bold}|${p.size}|${p.text}`).join('\n'));
    console.log(JSON.stringify(docx.tables), docx.headers, docx.footers, notes);
  }
});

describe('pdf-to-word', () => {
  test('keeps every word in reading order (columns read one after the other)', () => {
    // Table cells are paragraphs too, so the body text holds them in place.
    const similarity = wordSimilarity(fixture.text, docx.text);
    expect(similarity).toBeGreaterThanOrEqual(0.98);
    // The left column's second paragraph comes before the right column's paragraph.
    const body = docx.text;
    expect(body.indexOf('Columns are read one after')).toBeGreaterThan(-1);
    expect(body.indexOf('Columns are read one after')).toBeLessThan(body.indexOf('The result is a document'));
  });

  test('the heading is a Word heading, larger and bold', () => {
    const heading = docx.paragraphs.find((p) => p.text === fixture.heading);
    expect(heading?.style).toMatch(/Heading1/);
    expect(heading?.bold).toBe(true);
    expect(heading?.size).toBe(24);
    const body = docx.paragraphs.find((p) => p.text.startsWith('Folio converts'));
    expect(body?.size).toBe(11);
  });

  test('the ruled table is a Word table with the right cells', () => {
    const table = docx.tables.find((t) => t[0]?.[0] === 'Region');
    expect(table).toEqual(fixture.table);
  });

  test('the unruled numeric table is a Word table too', () => {
    const table = docx.tables.find((t) => t[0]?.[0] === 'Item');
    expect(table?.length).toBe(fixture.numbers.length);
    expect(table?.[2]).toEqual(['Ink', '3', '19.99', '59.97']);
  });

  test('bold, italic and colour are kept', () => {
    expect(docx.xml).toMatch(/<w:i\/>[\s\S]{0,200}this sentence is in italics/);
    expect(docx.xml).toMatch(/<w:color w:val="CC0000"\/>[\s\S]{0,200}This paragraph comes after the picture/);
  });

  test('the picture is placed inline at its size, before the paragraph that follows it', () => {
    expect(docx.xml).toContain('<w:drawing>');
    // 120 × 60 pt = 1524000 × 762000 EMU
    expect(docx.xml).toMatch(/cx="1524000" cy="762000"/);
    expect(docx.xml.indexOf('<w:drawing>')).toBeLessThan(docx.xml.indexOf('This paragraph comes after the picture'));
  });

  test('one section per page and the repeated footer written once as a footer', () => {
    expect(docx.xml.match(/<w:sectPr/g)?.length).toBe(fixture.pages);
    expect(docx.footers).toContain(fixture.footer);
    expect(docx.text).not.toContain(fixture.footer);
  });
});

describe('pdf-to-word lists', () => {
  test('numbered and bulleted lists become Word lists', async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    ['1. Open the file', '2. Choose the pages', '3. Press convert'].forEach((line, i) =>
      page.drawText(line, { x: 72, y: 700 - i * 16, size: 11, font }),
    );
    page.drawText('Some text between the lists.', { x: 72, y: 640, size: 11, font });
    ['• Apples', '• Pears'].forEach((line, i) => page.drawText(line, { x: 72, y: 610 - i * 16, size: 11, font }));
    const result = await run([{ name: 'lists.pdf', bytes: await doc.save() }], {}, {});
    const out = await readDocx(result.bytes);
    const steps = out.paragraphs.filter((p) => /Open the file|Choose the pages|Press convert/.test(p.text));
    expect(steps.map((p) => p.text)).toEqual(['Open the file', 'Choose the pages', 'Press convert']);
    expect(out.xml.match(/<w:numPr>/g)?.length).toBe(5);
    expect(out.paragraphs.find((p) => p.text === 'Apples')).toBeTruthy();
  });
});

describe('pdf-to-word margins', () => {
  test('a single page keeps its margin lines as header and footer, not in the body', async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    page.drawText('Left-side', { x: 72, y: 756, size: 11, font });
    page.drawText('Right-side', { x: 480, y: 756, size: 11, font });
    page.drawText('Body text starts at one inch.', { x: 72, y: 706, size: 11, font });
    page.drawText('A second line of the body.', { x: 72, y: 692, size: 11, font });
    page.drawText('Copyright', { x: 72, y: 30, size: 11, font });
    const out = await readDocx((await run([{ name: 'one.pdf', bytes: await doc.save() }], {}, {})).bytes);
    expect(out.text).not.toContain('Left-side');
    expect(out.text).toContain('Body text starts at one inch.');
    expect(out.headers).toContain('Left-side');
    expect(out.headers).toContain('Right-side');
    expect(out.footers).toContain('Copyright');
  });

  test('text drawn over itself (a shadow, fake bold, a repeated title) is read once', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.HelveticaBold);
    const regular = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText('Annual Figures', { x: 73.5, y: 698.5, size: 28, font, color: rgb(0.6, 0.6, 0.6) });
    page.drawText('Annual Figures', { x: 72, y: 700, size: 28, font });
    for (let i = 0; i < 2; i++)
      page.drawText('Sales rose in every region.', { x: 72 + i * 0.3, y: 650, size: 12, font: regular });
    const { paragraphs } = await readDocx((await run([{ name: 'shadow.pdf', bytes: await doc.save() }], {}, {})).bytes);
    expect(paragraphs.map((p) => p.text).filter(Boolean)).toEqual(['Annual Figures', 'Sales rose in every region.']);
  });
});

test('a landscape page is a landscape Word section; portrait pages stay portrait', async () => {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const [width, height] of [
    [842, 595],
    [595, 842],
  ]) {
    pdf.addPage([width, height]).drawText(`A page ${width} wide`, { x: 72, y: height - 100, size: 14, font });
  }
  const result = await run([{ name: 'mixed.pdf', bytes: await pdf.save() }], {}, {});
  const { xml } = await readDocx(result.bytes);
  const sizes = [...xml.matchAll(/<w:pgSz ([^>]*)\/>/g)].map((m) => m[1]);
  expect(sizes).toHaveLength(2);
  const attr = (size: string, name: string) => new RegExp(`w:${name}="([^"]*)"`).exec(size)?.[1];
  expect(attr(sizes[0], 'orient')).toBe('landscape');
  expect(Number(attr(sizes[0], 'w'))).toBe(842 * 20);
  expect(Number(attr(sizes[0], 'h'))).toBe(595 * 20);
  expect(attr(sizes[1], 'orient')).not.toBe('landscape');
  expect(Number(attr(sizes[1], 'w'))).toBe(595 * 20);
});
