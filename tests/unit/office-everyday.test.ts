/**
 * Office → PDF on constructs everyday documents have (the third quality sweep, docs/quality-sweep.md):
 * each input is generated here and the PDF judged by its content, as LibreOffice 7.4 prints the same file.
 */
import { describe, expect, test } from 'vitest';
import PptxGenJS from 'pptxgenjs';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { displayText } from '../../workers/engine/lib/office-to-pdf/xlsx.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { convert } from '../support/office-pdf-helpers.ts';

async function textItems(bytes: Uint8Array, pageNumber = 1) {
  const doc = await openPdfjs(bytes);
  const page = await doc.getPage(pageNumber);
  return (await page.getTextContent()).items.flatMap((i) =>
    'str' in i && i.str.trim()
      ? [{ text: i.str.trim(), x: i.transform[4] as number, y: i.transform[5] as number }]
      : [],
  );
}

describe('Excel number formats with a locale tag', () => {
  // LibreOffice: 5. März 2024 and 05.03.2024 (Folio has no month names but English ones); the date was
  // printed as 2024-03-05 because the tag's digits were taken for digit placeholders.
  const march5 = new Date(Date.UTC(2024, 2, 5));
  test.each([
    ['[$-407]d. mmmm yyyy', '5. March 2024'],
    ['[$-407]dd.mm.yyyy', '05.03.2024'],
    ['[$-1010407]dd.mm.yy', '05.03.24'],
    ['dd.mm.yyyy', '05.03.2024'],
  ])('%s', (format, shown) => {
    expect(displayText(march5, format).text).toBe(shown);
  });
  test('a currency tag with a point in the number stays a number format', () => {
    expect(displayText(1234.5, '#,##0.00 [$€-407]').text).toBe('1,234.50 €');
  });
});

describe('PowerPoint table cells merged across columns', () => {
  // PowerPoint lists a covered cell (hMerge) in the column its neighbour's gridSpan counts: it was
  // counted again, so every cell right of a merge moved one column on, the last one outside the table.
  test('the cells after a merged cell stay in their columns, inside the table', async () => {
    const pptx = new PptxGenJS();
    pptx.layout = 'LAYOUT_16x9';
    pptx
      .addSlide()
      .addTable(
        [
          ['Region', 'Q1', 'Q2'],
          [{ text: 'Both quarters', options: { colspan: 2 } }, 'Total7'],
          [{ text: 'Block', options: { colspan: 2, rowspan: 2 } }, 'Right8'],
          ['Right9'],
        ],
        { x: 0.5, y: 0.5, w: 6, colW: [2, 2, 2], border: { type: 'solid', pt: 1, color: '333333' } },
      );
    const pptxBytes = (await pptx.write({ outputType: 'uint8array' })) as Uint8Array;
    const result = await convert(pptToPdf, 'merged.pptx', pptxBytes);
    const items = await textItems(result.bytes);
    const x = (text: string) => items.find((item) => item.text === text)?.x;
    // The third column starts 0.5 + 4 in from the slide's left edge; the table ends at 6.5 in.
    for (const text of ['Q2', 'Total7', 'Right8', 'Right9']) {
      expect(x(text), text).toBeGreaterThan(4.5 * 72);
      expect(x(text), text).toBeLessThan(5 * 72);
    }
  });
});
