/**
 * Word text frames (w:framePr) and legacy form fields. Frames — positioned paragraphs of older
 * documents and of PDF-to-Word converters, drop caps — printed inline, in the flow; check boxes
 * (FORMCHECKBOX) were not drawn at all and drop-downs (FORMDROPDOWN) printed nothing. Expected: where
 * LibreOffice 7.4 prints the same generated documents, read back with poppler.
 */
import { describe, expect, test } from 'vitest';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { convert, docxWithBody } from '../support/office-pdf-helpers.ts';
import { popplerText, popplerWords } from '../support/pdf.ts';
import { pdfPageRaster, popplerPresent } from '../support/images.ts';

const words = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).join(' ');
const para = (text: string, pPr = '') =>
  `<w:p><w:pPr>${pPr}</w:pPr><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

async function printed(body: string) {
  const pdf = (await convert(wordToPdf, 'frames.docx', await docxWithBody(body))).bytes;
  const found = popplerWords(pdf);
  const word = (text: string) => found.find((w) => w.text === text)!;
  const lineStarts = (prefix: string) =>
    found.filter((w) => w.text.startsWith(prefix) && w.xMin < 73).map((w) => w.text);
  return { pdf, word, lineStarts };
}

describe('Word text frames (w:framePr)', () => {
  test('a frame placed on the page: its paragraphs where x and y say, the text wrapping beside it', async () => {
    const frame =
      '<w:framePr w:w="2880" w:hSpace="180" w:wrap="around" w:vAnchor="page" w:hAnchor="page" w:x="7200" w:y="2160"/>';
    const { word, lineStarts } = await printed(
      para('Title line') +
        para('FRAMEONE first line of the frame', frame) +
        para('FRAMETWO second', frame) +
        para(words(150, 'w')),
    );
    // LibreOffice: the frame's lines at (360.1, 107.9) and (360.1, 119.4); the paragraph's lines beside
    // the frame hold 14 words, the others 23 (the frame lies below the paragraph's top: it was run over).
    expect(Math.abs(word('FRAMEONE').xMin - 360.1)).toBeLessThan(1.5);
    expect(Math.abs(word('FRAMEONE').yMin - 107.9)).toBeLessThan(1.5);
    expect(Math.abs(word('FRAMETWO').yMin - 119.4)).toBeLessThan(1.5);
    expect(lineStarts('w')).toEqual(['w1', 'w26', 'w49', 'w63', 'w77', 'w91', 'w111', 'w129', 'w147']);
  });

  test('a drop cap: the letter at the start, the next three lines beside it', async () => {
    const drop =
      '<w:p><w:pPr><w:keepNext/><w:framePr w:dropCap="drop" w:lines="3" w:wrap="around" w:vAnchor="text" w:hAnchor="text"/>' +
      '<w:spacing w:after="0" w:line="827" w:lineRule="exact"/></w:pPr>' +
      '<w:r><w:rPr><w:position w:val="-10"/><w:sz w:val="110"/></w:rPr><w:t>D</w:t></w:r></w:p>';
    const { word, lineStarts } = await printed(drop + para(words(120, 'd')));
    // LibreOffice: lines from d1, d27 and d50 beside the letter (x 107.8), then d73, d98, d118 at the margin.
    for (const beside of ['d1', 'd27', 'd50']) expect(word(beside).xMin).toBeGreaterThan(100);
    expect(lineStarts('d')).toEqual(['d73', 'd98', 'd118']);
    expect(word('D').xMin).toBeLessThan(73);
  });
});

test('a framed paragraph that ends a section keeps the section break', async () => {
  const frame = '<w:framePr w:w="2880" w:wrap="around" w:vAnchor="text" w:hAnchor="text"/>';
  const sectionEnd =
    '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720"/></w:sectPr>';
  const { pdf } = await printed(para('First section framed', frame + sectionEnd) + para('Second section'));
  const pages = popplerText(pdf)
    .split('\f')
    .map((page) => page.replace(/\s+/g, ' ').trim());
  expect(pages[0]).toContain('First section framed');
  expect(pages[1]).toContain('Second section');
});

describe.skipIf(!popplerPresent())('Word legacy form fields', () => {
  test('check boxes are drawn, crossed when checked; a drop-down shows its chosen entry', async () => {
    const checkBox = (checked: boolean) =>
      '<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="C"/><w:enabled/><w:checkBox><w:sizeAuto/>' +
      `<w:default w:val="${checked ? 1 : 0}"/></w:checkBox></w:ffData></w:fldChar></w:r>` +
      '<w:r><w:instrText xml:space="preserve"> FORMCHECKBOX </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>';
    const dropDown =
      '<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="D"/><w:enabled/><w:ddList><w:result w:val="2"/>' +
      '<w:listEntry w:val="Apple"/><w:listEntry w:val="Banana"/><w:listEntry w:val="Cherry"/></w:ddList></w:ffData></w:fldChar></w:r>' +
      '<w:r><w:instrText xml:space="preserve"> FORMDROPDOWN </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>';
    const text = (t: string) => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`;
    const { pdf, word } = await printed(
      `<w:p>${text('Yes ')}${checkBox(true)}${text(' No ')}${checkBox(false)}${text(' Fruit: ')}${dropDown}</w:p>`,
    );
    // LibreOffice: "No" at 104.2 and "Fruit:" at 133.0 (each box takes its room in the line), "Cherry" after it.
    expect(Math.abs(word('No').xMin - 104.2)).toBeLessThan(2);
    expect(Math.abs(word('Fruit:').xMin - 133.0)).toBeLessThan(2);
    expect(word('Cherry')).toBeDefined();
    // Between each word and the next: a square's sides inked, and its middle inked only when checked.
    const scale = 4; // 288 dpi
    const raster = await pdfPageRaster(pdf, 1, 72 * scale);
    const dark = (x: number, y: number) => {
      const p = (Math.round(y * scale) * raster.width + Math.round(x * scale)) * 4;
      return raster.data[p] + raster.data[p + 1] + raster.data[p + 2] < 3 * 128;
    };
    const boxIn = (from: string, to: string) => {
      const [x1, x2] = [word(from).xMax, word(to).xMin];
      const columns = Array.from({ length: Math.round((x2 - x1) * scale) }, (_, i) => x1 + i / scale);
      const middleY = (word(from).yMin + word(from).yMax) / 2 + 1;
      const inked = columns.filter((x) => dark(x, middleY));
      const [left, right] = [inked[0], inked[inked.length - 1]];
      // Inside the square (1.5 pt in from its sides, 2 pt around the middle line): the X's strokes, or nothing.
      let inside = 0;
      for (let x = left + 1.5; x < right - 1.5; x += 1 / scale)
        for (let y = middleY - 2; y <= middleY + 2; y += 1 / scale) if (dark(x, y)) inside++;
      return { sides: inked.length >= 2 && right - left > 5, middle: inside > 10 };
    };
    expect(boxIn('Yes', 'No')).toEqual({ sides: true, middle: true });
    expect(boxIn('No', 'Fruit:')).toEqual({ sides: true, middle: false });
  });
});
