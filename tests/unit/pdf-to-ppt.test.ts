import { beforeAll, describe, expect, test } from 'vitest';
import { PDFDocument, StandardFonts, degrees, rgb } from 'pdf-lib';
import { buildReport, readPptx, wordSimilarity, type ReportFixture } from '../support/office-fixtures.ts';
import { run } from '../../workers/engine/tools/pdf-to-ppt.ts';

let fixture: ReportFixture;
let pptx: Awaited<ReturnType<typeof readPptx>>;

beforeAll(async () => {
  fixture = await buildReport();
  const result = await run([{ name: 'report.pdf', bytes: fixture.bytes }], {}, {});
  expect(result.filename).toBe('report.pptx');
  pptx = await readPptx(result.bytes);
  if (process.env.OFFICE_DEBUG) console.log(pptx.slides, result.notes);
});

describe('pdf-to-ppt', () => {
  test('one slide per page, with the page proportions', () => {
    expect(pptx.slides.length).toBe(fixture.pages);
    expect(pptx.slideSize.cx / pptx.slideSize.cy).toBeCloseTo(612 / 792, 3);
  });

  test('each slide holds its page text in reading order (similarity ≥ 0.98)', () => {
    fixture.pageTexts.forEach((expected, i) => {
      const withoutFooter = pptx.slides[i].replace(fixture.footer, '').replace(/\b\d\s*$/, '');
      expect(wordSimilarity(expected, withoutFooter)).toBeGreaterThanOrEqual(0.98);
    });
  });

  test('text stays editable with its font size, weight and colour', () => {
    const slide = pptx.xml[0];
    expect(slide).toMatch(/<a:rPr[^>]*sz="2400"[^>]*b="1"[\s\S]{0,300}Quarterly Report/);
    expect(slide).toMatch(/CC0000[\s\S]{0,200}This paragraph comes after the picture/);
  });

  test('the table is a PowerPoint table and the picture a picture', () => {
    expect(pptx.xml[0]).toContain('<a:tbl>');
    expect(pptx.xml[0]).toContain('<p:pic>');
  });

  test('vector drawings become a background picture under the text', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([792, 612]);
    page.drawCircle({ x: 400, y: 300, size: 120, color: rgb(0.2, 0.6, 0.3) });
    page.drawText('Circle chart', { x: 340, y: 300, size: 20, font: await doc.embedFont(StandardFonts.Helvetica) });
    const result = await run([{ name: 'chart.pdf', bytes: await doc.save() }], {}, {});
    const out = await readPptx(result.bytes);
    expect(out.slideSize.cx / out.slideSize.cy).toBeCloseTo(792 / 612, 3);
    expect(out.xml[0]).toContain('<p:pic>');
    expect(out.slides[0]).toContain('Circle chart');
    // The picture comes first: it lies under the text box.
    expect(out.xml[0].indexOf('<p:pic>')).toBeLessThan(out.xml[0].indexOf('Circle chart'));
  });

  test('shapes keep the order the page draws them: charts side by side, axes drawn bottom-up, slanted labels', async () => {
    // Two "charts" side by side, each with a value axis drawn bottom-up (0, 10, 20, 30) and then
    // its title, as LibreOffice prints a deck's charts; then slanted category labels that overlap.
    const doc = await PDFDocument.create();
    const page = doc.addPage([720, 405]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const drawn: string[] = [];
    for (const [chart, left] of [['North', 60], ['South', 420]] as const) {
      for (const [i, value] of ['0', '10', '20', '30'].entries()) {
        page.drawText(value, { x: left, y: 100 + i * 40, size: 12, font });
        drawn.push(value);
      }
      page.drawText(`${chart} sales`, { x: left + 60, y: 300, size: 18, font });
      drawn.push(chart, 'sales');
    }
    for (const [i, label] of ['1/1/69', '1/9/69', '1/17/69'].entries()) {
      page.drawText(label, { x: 100 + i * 24, y: 60, size: 12, font, rotate: degrees(45) });
      drawn.push(...label.split('/'));
    }
    const out = await readPptx((await run([{ name: 'charts.pdf', bytes: await doc.save() }], {}, {})).bytes);
    const words = out.slides[0].split(/[\s/]+/).filter(Boolean);
    expect(words).toEqual(drawn);
    // Axis labels are not mistaken for a table across the two charts.
    expect(out.xml[0]).not.toContain('<a:tbl>');
  });
});
