/**
 * Chart axes (shared by PowerPoint, Word and Excel charts), in decks generated with pptxgenjs: each
 * axis's tick labels in its own text style (c:txPr size and bold) and angle (a:bodyPr rot), the
 * category names' interval (c:tickLblSkip), and the automatic scale's extra interval at a border the
 * values touch. Expected figures are LibreOffice 7.4's for the same decks (`soffice --headless
 * --convert-to pdf`, read with `pdftotext -bbox` / `-layout`), given in each test.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import PptxGenJS from 'pptxgenjs';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { convert } from '../support/office-pdf-helpers.ts';
import { popplerTextWith, popplerWords, type PopplerWord } from '../support/pdf.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';

const pageWords = (pdf: Uint8Array, page: number): PopplerWord[] =>
  popplerWords(pdf, ['-f', String(page), '-l', String(page)]);

const NAMES = ['Australia', 'Iceland', 'Zealand', 'Finland', 'Denmark', 'Poland', 'Netherlands', 'Italy'];
const VALUES = [59, 56, 51, 47, 45, 45, 42, 41];
const BOX = { x: 0.5, y: 0.5, w: 9, h: 4.5, fontFace: 'Arial' };

describe('chart axes', () => {
  test("category names and value ticks in their axis's size, names turned by the axis's angle", async () => {
    const pptx = new PptxGenJS();
    const data = [{ name: '2005', labels: NAMES, values: VALUES }];
    pptx.addSlide().addChart(pptx.ChartType.bar, data, {
      ...BOX,
      catAxisLabelRotate: -90,
      catAxisLabelFontSize: 9,
      catAxisLabelFontBold: true,
      valAxisLabelFontSize: 8,
    });
    const result = await convert(
      pptToPdf,
      'axis-text.pptx',
      new Uint8Array((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer),
    );
    const words = pageWords(result.bytes, 1);
    // LibreOffice: every name upright along the bottom (turned 90°), "Australia" 38.7 pt long in 9 pt
    // bold Arial; the value ticks 0…70 in 8 pt ("70" 8.9 pt wide). Folio used the chart's 18 pt text
    // turned 45° before.
    const names = words.filter((w) => NAMES.includes(w.text));
    expect(names.map((w) => w.text).sort()).toEqual([...NAMES].sort());
    for (const name of names) expect(name.yMax - name.yMin).toBeGreaterThan(1.5 * (name.xMax - name.xMin));
    const australia = names.find((w) => w.text === 'Australia')!;
    expect(australia.yMax - australia.yMin).toBeCloseTo(38.7, 0);
    const seventy = words.find((w) => w.text === '70')!;
    expect(seventy.xMax - seventy.xMin).toBeCloseTo(8.9, 0);
  });

  test('c:tickLblSkip shows every n-th category name', async () => {
    const pptx = new PptxGenJS();
    const data = [{ name: '2005', labels: NAMES, values: VALUES }];
    pptx.addSlide().addChart(pptx.ChartType.bar, data, {
      ...BOX,
      catAxisLabelRotate: -45,
      catAxisLabelFontSize: 12,
      catAxisLabelFrequency: '2',
    });
    const result = await convert(
      pptToPdf,
      'axis-skip.pptx',
      new Uint8Array((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer),
    );
    // The names as drawn, with their angle (pdftotext splits text turned 45° into fragments).
    const doc = await openPdfjs(result.bytes);
    const items = (await (await doc.getPage(1)).getTextContent()).items as Array<{ str: string; transform: number[] }>;
    await doc.destroy();
    const names = items.filter((item) => NAMES.includes(item.str.trim()));
    // PowerPoint shows every second name, turned 45° up to the right. (LibreOffice 7.4 does not read
    // c:tickLblSkip: it prints all eight.)
    expect(names.map((item) => item.str.trim())).toEqual(['Australia', 'Zealand', 'Denmark', 'Netherlands']);
    for (const { transform } of names)
      expect((Math.atan2(transform[1], transform[0]) * 180) / Math.PI).toBeCloseTo(45, -1);
  });

  test('a label rotation of −60000000 (Office\'s "automatic") leaves short names level', async () => {
    const pptx = new PptxGenJS();
    const data = [{ name: 'Sales', labels: ['Q1', 'Q2', 'Q3', 'Q4'], values: [3, 5, 4, 6] }];
    pptx.addSlide().addChart(pptx.ChartType.bar, data, { ...BOX, catAxisLabelFontSize: 12 });
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer);
    const chartPath = Object.keys(zip.files).find((name) => /charts\/chart\d+\.xml$/.test(name))!;
    const chart = await zip.file(chartPath)!.async('string');
    const automatic = chart.replace(/(<c:catAx>[\s\S]*?<c:txPr>\s*)<a:bodyPr\/>/, '$1<a:bodyPr rot="-60000000"/>');
    expect(automatic).toContain('rot="-60000000"');
    zip.file(chartPath, automatic);
    const result = await convert(pptToPdf, 'automatic.pptx', await zip.generateAsync({ type: 'uint8array' }));
    // LibreOffice and PowerPoint: Q1 … Q4 level under their columns.
    const doc = await openPdfjs(result.bytes);
    const items = (await (await doc.getPage(1)).getTextContent()).items as Array<{ str: string; transform: number[] }>;
    await doc.destroy();
    const names = items.filter((item) => /^Q\d$/.test(item.str.trim()));
    expect(names.map((item) => item.str.trim())).toEqual(['Q1', 'Q2', 'Q3', 'Q4']);
    for (const { transform } of names) expect(transform[1]).toBe(0);
  });

  test("a scatter chart's x axis gets one more interval at each border its values touch", async () => {
    const pptx = new PptxGenJS();
    const data = [
      { name: 'X', values: [1, 2, 3, 4] },
      { name: 'Sales', values: [8.2, 3.2, 1.4, 1.2] },
    ];
    pptx.addSlide().addChart(pptx.ChartType.scatter, data, { ...BOX, showLegend: true });
    const result = await convert(
      pptToPdf,
      'scatter.pptx',
      new Uint8Array((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer),
    );
    const lines = popplerTextWith(result.bytes, ['-layout']).split('\n');
    // LibreOffice: x from 0.5 to 4.5 by 0.5 (the values 1…4 touch both borders), y from 0 to 9. Folio
    // started the x axis at 1 before.
    expect(lines.map((l) => l.trim().split(/\s+/).join(' '))).toContain('0.5 1 1.5 2 2.5 3 3.5 4 4.5');
    expect(lines.map((l) => l.trim())).toContain('9');
  });
});
