import { beforeAll, describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { createCanvas, loadImage } from '@napi-rs/canvas';
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
    for (const [chart, left] of [
      ['North', 60],
      ['South', 420],
    ] as const) {
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

  test('text drawn over itself (a master title repeated by its layout) stays one box per copy, never "TitleTitle"', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([720, 405]);
    const font = await doc.embedFont(StandardFonts.HelveticaBold);
    const regular = await doc.embedFont(StandardFonts.Helvetica);
    // The master draws title and menu; the layout draws the title twice more (once as a grey
    // shadow a point away) and the menu again; then the slide's own text.
    const title = (dx: number, grey: number) =>
      page.drawText('GROWTH OF PLANTS', { x: 100 + dx, y: 340 - dx, size: 32, font, color: rgb(grey, grey, grey) });
    const menu = () =>
      ['Home', 'Profile', 'Quiz'].forEach((label, i) =>
        page.drawText(label, { x: 30, y: 250 - i * 40, size: 14, font: regular }),
      );
    title(0, 0);
    menu();
    title(1.5, 0.6);
    title(0, 0);
    menu();
    page.drawText('Welcome to biology', { x: 200, y: 150, size: 20, font: regular });
    const out = await readPptx((await run([{ name: 'master.pdf', bytes: await doc.save() }], {}, {})).bytes);
    const drawnOrder =
      'GROWTH OF PLANTS Home Profile Quiz GROWTH OF PLANTS GROWTH OF PLANTS Home Profile Quiz Welcome to biology';
    expect(wordSimilarity(drawnOrder, out.slides[0])).toBe(1);
    expect(out.slides[0]).not.toMatch(/PLANTSGROWTH|HomeHome|GROWTHGROWTH/);
  });

  test('a page with runs of repeated images and glyphs keeps its text out of the background picture', async () => {
    // pdf.js merges such runs in the list it draws (paintImageXObjectRepeat…), so the operations
    // left out of the background must be found in that list, not by indexes of getOperatorList().
    const tile = createCanvas(8, 8);
    const context = tile.getContext('2d');
    context.fillStyle = '#c0392b';
    context.fillRect(0, 0, 8, 8);
    const doc = await PDFDocument.create();
    const image = await doc.embedPng(new Uint8Array(await tile.encode('png')));
    const page = doc.addPage([400, 300]);
    for (let i = 0; i < 12; i++) page.drawImage(image, { x: 20 + i * 30, y: 250, width: 20, height: 20 });
    page.drawCircle({ x: 200, y: 120, size: 40, color: rgb(0.2, 0.6, 0.3) });
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let i = 0; i < 6; i++) page.drawText(`Line ${i}`, { x: 20, y: 200 - i * 16, size: 12, font });
    const result = await run([{ name: 'tiles.pdf', bytes: await doc.save() }], {}, {});
    const out = await readPptx(result.bytes);
    expect(out.slides[0]).toBe('Line 0 Line 1 Line 2 Line 3 Line 4 Line 5');
    expect(result.notes).toContain('12 pictures placed.');
    expect(result.notes).toContain('1 slide keeps its drawings as a background picture.');
    // The background (the first picture, under everything) has the circle but neither text nor tiles.
    const zip = await JSZip.loadAsync(result.bytes);
    const media = Object.keys(zip.files).filter((name) => /^ppt\/media\/.*\.jpe?g$/.test(name));
    expect(media).toHaveLength(1);
    const background = await loadImage(Buffer.from(await zip.file(media[0])!.async('uint8array')));
    const picture = createCanvas(background.width, background.height).getContext('2d');
    picture.drawImage(background, 0, 0);
    const scale = background.width / 400;
    const darkest = (x: number, top: number, width: number, height: number) => {
      const { data } = picture.getImageData(x * scale, top * scale, width * scale, height * scale);
      let min = 255;
      for (let i = 0; i < data.length; i += 4) min = Math.min(min, data[i], data[i + 1], data[i + 2]);
      return min;
    };
    expect(darkest(20, 90, 40, 95), 'text area').toBeGreaterThan(200);
    expect(darkest(20, 30, 360, 20), 'tile row').toBeGreaterThan(200);
    expect(darkest(180, 160, 40, 40), 'circle').toBeLessThan(160);
  });
});
