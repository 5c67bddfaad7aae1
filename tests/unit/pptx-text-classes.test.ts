/**
 * PowerPoint text that real decks use and PowerPoint → PDF used to print wrong, each in a generated
 * deck (pptxgenjs, a master edited by hand as PowerPoint writes it): a word made of several runs
 * (a highlighted part) is moved to the next line whole instead of being broken between its runs;
 * a slide-number field on the master (text "‹#›") prints each slide's number; a bullet in a symbol
 * font (Wingdings "l") prints as the glyph it is there, not as the letter; text in capitals (a:rPr cap)
 * prints in capitals, as PowerPoint and LibreOffice show it; a turned shape's text turns with it.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import PptxGenJS from 'pptxgenjs';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { convert, texts } from '../support/office-pdf-helpers.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';

const deckBytes = async (pptx: PptxGenJS) =>
  new Uint8Array((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer);

describe('PowerPoint text classes', () => {
  test('a word split over runs wraps as one word', async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    const words = [
      { text: 'This is a h', options: {} },
      { text: 'ighl', options: { highlight: '00FF00' } },
      { text: 'ight test c', options: {} },
      { text: 'as', options: { highlight: 'FFFF00' } },
      { text: 'e and more w', options: {} },
      { text: 'or', options: { bold: true } },
      { text: 'ds.', options: {} },
    ];
    // About 14 characters of 18 pt Arial per line: the line ends fall inside the split words.
    slide.addText(words, { x: 1, y: 1, w: 1.9, h: 2, fontFace: 'Arial', fontSize: 18, margin: 0, valign: 'top' });
    const result = await convert(pptToPdf, 'runs.pptx', await deckBytes(pptx));
    expect((await texts(result))[0]).toBe('This is a highlight test case and more words.');
  });

  test('a slide-number field on the master prints the number of each slide', async () => {
    const pptx = new PptxGenJS();
    for (const title of ['First', 'Second', 'Third']) pptx.addSlide().addText(title, { x: 1, y: 1, w: 4, h: 1 });
    const zip = await JSZip.loadAsync(await deckBytes(pptx));
    const masterPath = 'ppt/slideMasters/slideMaster1.xml';
    const master = await zip.file(masterPath)!.async('string');
    const numberBox =
      `<p:sp><p:nvSpPr><p:cNvPr id="99" name="Number"/><p:cNvSpPr txBox="1"/><p:nvPr userDrawn="1"/></p:nvSpPr>` +
      `<p:spPr><a:xfrm><a:off x="7000000" y="4700000"/><a:ext cx="1500000" cy="400000"/></a:xfrm>` +
      `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p>` +
      `<a:r><a:rPr lang="en-US" sz="1200"/><a:t>Slide </a:t></a:r>` +
      `<a:fld id="{66F62BF7-D901-417A-B6AE-FDFD615EC2CE}" type="slidenum"><a:rPr lang="en-US" sz="1200"/>` +
      `<a:t>‹#›</a:t></a:fld></a:p></p:txBody></p:sp>`;
    zip.file(masterPath, master.replace(/<\/p:spTree>/, `${numberBox}</p:spTree>`));
    const result = await convert(pptToPdf, 'numbers.pptx', await zip.generateAsync({ type: 'uint8array' }));
    const pages = await texts(result);
    expect(pages).toHaveLength(3);
    pages.forEach((page, i) => {
      expect(page).toContain(`Slide ${i + 1}`);
      expect(page).not.toContain('‹#›');
    });
  });
  test('a Wingdings bullet "l" prints as a black circle', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText([{ text: 'First point', options: { bullet: true } }], { x: 1, y: 1, w: 6, h: 1 });
    const zip = await JSZip.loadAsync(await deckBytes(pptx));
    const xml = await zip.file('ppt/slides/slide1.xml')!.async('string');
    expect(xml).toMatch(/<a:buChar [^>]*\/>/);
    zip.file(
      'ppt/slides/slide1.xml',
      xml.replace(
        /<a:buChar [^>]*\/>/,
        '<a:buFont typeface="Wingdings" pitchFamily="2" charset="2"/><a:buChar char="l"/>',
      ),
    );
    const result = await convert(pptToPdf, 'bullets.pptx', await zip.generateAsync({ type: 'uint8array' }));
    expect((await texts(result))[0]).toBe('● First point');
  });

  test('a run in capitals (cap="all") or small capitals (cap="small") prints in capitals', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText(
      [
        { text: 'März title', options: { breakLine: true } },
        { text: 'Small caps', options: {} },
      ],
      { x: 1, y: 1, w: 6, h: 2, fontFace: 'Arial', fontSize: 24 },
    );
    const zip = await JSZip.loadAsync(await deckBytes(pptx));
    const xml = await zip.file('ppt/slides/slide1.xml')!.async('string');
    let runs = 0;
    const capped = xml.replace(/<a:rPr /g, () => `<a:rPr cap="${runs++ === 0 ? 'all' : 'small'}" `);
    expect(runs).toBe(2);
    zip.file('ppt/slides/slide1.xml', capped);
    const result = await convert(pptToPdf, 'caps.pptx', await zip.generateAsync({ type: 'uint8array' }));
    expect((await texts(result))[0]).toBe('MÄRZ TITLE SMALL CAPS');
  });

  test('a layout with showMasterSp="0" hides the master\'s decorations on its slides', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('Title slide', { x: 1, y: 1, w: 4, h: 1 });
    const zip = await JSZip.loadAsync(await deckBytes(pptx));
    const masterPath = 'ppt/slideMasters/slideMaster1.xml';
    const master = await zip.file(masterPath)!.async('string');
    const band =
      `<p:sp><p:nvSpPr><p:cNvPr id="98" name="Band"/><p:cNvSpPr txBox="1"/><p:nvPr userDrawn="1"/></p:nvSpPr>` +
      `<p:spPr><a:xfrm><a:off x="500000" y="4700000"/><a:ext cx="4000000" cy="400000"/></a:xfrm>` +
      `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p>` +
      `<a:r><a:rPr lang="en-US" sz="1200"/><a:t>Master band</a:t></a:r></a:p></p:txBody></p:sp>`;
    zip.file(masterPath, master.replace(/<\/p:spTree>/, `${band}</p:spTree>`));
    const shown = await convert(pptToPdf, 'band.pptx', await zip.generateAsync({ type: 'uint8array' }));
    expect((await texts(shown))[0]).toContain('Master band');

    const slideRels = await zip.file('ppt/slides/_rels/slide1.xml.rels')!.async('string');
    const layoutPath = `ppt/slideLayouts/${/slideLayouts\/(slideLayout\d+\.xml)/.exec(slideRels)![1]}`;
    const layout = await zip.file(layoutPath)!.async('string');
    zip.file(layoutPath, layout.replace(/<p:sldLayout /, '<p:sldLayout showMasterSp="0" '));
    const hidden = await convert(pptToPdf, 'no-band.pptx', await zip.generateAsync({ type: 'uint8array' }));
    expect((await texts(hidden))[0]).toBe('Title slide');
  });

  test('a chart title without text over several series prints "Chart Title", as PowerPoint shows it', async () => {
    const pptx = new PptxGenJS();
    const series = [
      { name: 'North', labels: ['Q1', 'Q2'], values: [3, 5] },
      { name: 'South', labels: ['Q1', 'Q2'], values: [4, 2] },
    ];
    pptx.addSlide().addChart(pptx.ChartType.bar, series, { x: 1, y: 1, w: 6, h: 4, showTitle: true });
    const zip = await JSZip.loadAsync(await deckBytes(pptx));
    const chartPath = Object.keys(zip.files).find((name) => /charts\/chart\d+\.xml$/.test(name))!;
    const chart = await zip.file(chartPath)!.async('string');
    // An automatic title: the c:title element without its own text (c:tx).
    const automatic = chart.replace(/(<c:title>)\s*<c:tx>[\s\S]*?<\/c:tx>/, '$1');
    expect(automatic).not.toContain('Chart Title');
    zip.file(chartPath, automatic);
    const result = await convert(pptToPdf, 'chart.pptx', await zip.generateAsync({ type: 'uint8array' }));
    expect((await texts(result))[0]).toMatch(/^Chart Title [\d ]+Q1 Q2$/);
  });

  test('the text of a turned shape turns with it, unless the text is upright', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('Turned', { x: 2, y: 2, w: 3, h: 1, rotate: 90, fontSize: 20 });
    pptx.addSlide().addText('Level', { x: 2, y: 2, w: 3, h: 1, rotate: 90, fontSize: 20 });
    const zip = await JSZip.loadAsync(await deckBytes(pptx));
    const second = await zip.file('ppt/slides/slide2.xml')!.async('string');
    expect(second).toContain('rot="5400000"');
    zip.file('ppt/slides/slide2.xml', second.replace(/<a:bodyPr /, '<a:bodyPr upright="1" '));
    const result = await convert(pptToPdf, 'turned.pptx', await zip.generateAsync({ type: 'uint8array' }));
    const doc = await openPdfjs(result.bytes);
    // Each page's text runs as its transform says: [a b c d] of a 90° clockwise turn is [0 −s s 0].
    const directions: number[][] = [];
    for (const n of [1, 2]) {
      const items = (await (await doc.getPage(n)).getTextContent()).items as Array<{
        str: string;
        transform: number[];
      }>;
      const [a, b] = items.find((item) => item.str.trim())!.transform;
      directions.push([Math.round(a), Math.sign(Math.round(b))]);
    }
    await doc.destroy();
    expect(directions).toEqual([
      [0, -1],
      [20, 0],
    ]);
  });
});
