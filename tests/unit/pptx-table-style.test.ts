/**
 * PowerPoint tables: the table style's parts (header row, banded rows, borders, text weight) and
 * each cell's own anchor and margins.
 */
import { describe, expect, test } from 'vitest';
import PptxGenJS from 'pptxgenjs';
import { readTableStyles, styleCell, tableFlags } from '../../workers/engine/lib/office-to-pdf/pptx-table-style.ts';
import { kid, parseXml, type XmlElement } from '../../workers/engine/lib/office-to-pdf/xml.ts';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import type { Rgb } from '../../workers/engine/lib/office-to-pdf/model.ts';

const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const ln = (hex: string, w = 12700) => `<a:ln w="${w}"><a:solidFill><a:srgbClr val="${hex}"/></a:solidFill></a:ln>`;
const STYLES = `<a:tblStyleLst ${A} def="{GRID}"><a:tblStyle styleId="{GRID}" styleName="Grid">
  <a:wholeTbl><a:tcStyle><a:tcBdr><a:left>${ln('000000')}</a:left><a:right>${ln('000000')}</a:right><a:top>${ln('000000')}</a:top><a:bottom>${ln('000000')}</a:bottom><a:insideH>${ln('808080', 6350)}</a:insideH><a:insideV>${ln('808080', 6350)}</a:insideV></a:tcBdr>
    <a:fill><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill></a:fill></a:tcStyle></a:wholeTbl>
  <a:band1H><a:tcStyle><a:tcBdr/><a:fill><a:solidFill><a:srgbClr val="DDDDDD"/></a:solidFill></a:fill></a:tcStyle></a:band1H>
  <a:firstRow><a:tcTxStyle b="on"><a:srgbClr val="FFFFFF"/></a:tcTxStyle><a:tcStyle><a:tcBdr><a:bottom>${ln('FF0000', 38100)}</a:bottom></a:tcBdr><a:fill><a:solidFill><a:srgbClr val="003366"/></a:solidFill></a:fill></a:tcStyle></a:firstRow>
</a:tblStyle></a:tblStyleLst>`;

const srgb = (parent: XmlElement | undefined): Rgb | undefined => {
  const hex = kid(parent, 'a:srgbClr')?.getAttribute('val');
  return hex
    ? [parseInt(hex.slice(0, 2), 16) / 255, parseInt(hex.slice(2, 4), 16) / 255, parseInt(hex.slice(4, 6), 16) / 255]
    : undefined;
};
const hex = (rgb: Rgb | undefined) =>
  rgb
    ?.map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')
    .toUpperCase();

describe('PowerPoint table styles', () => {
  const styles = readTableStyles(STYLES);
  const style = styles.byId.get('{GRID}');
  const flags = tableFlags(parseXml(`<a:tblPr ${A} firstRow="1" bandRow="1"/>`));

  test('header row: its fill, bold white text and its own bottom line over the whole-table borders', () => {
    expect(styles.defaultId).toBe('{GRID}');
    const head = styleCell(style, flags, 0, 1, 4, 3, srgb);
    expect(hex(head.fill)).toBe('003366');
    expect(head.bold).toBe(true);
    expect(hex(head.color)).toBe('FFFFFF');
    expect(hex(head.borders.top?.color)).toBe('000000');
    expect(head.borders.bottom).toMatchObject({ width: 3 });
    expect(hex(head.borders.bottom?.color)).toBe('FF0000');
    // Inner vertical edges come from insideV.
    expect(hex(head.borders.left?.color)).toBe('808080');
  });

  test('banded rows alternate below the header; outer edges take the outer lines', () => {
    const first = styleCell(style, flags, 1, 0, 4, 3, srgb);
    const second = styleCell(style, flags, 2, 0, 4, 3, srgb);
    expect(hex(first.fill)).toBe('DDDDDD');
    expect(hex(second.fill)).toBe('FFFFFF');
    expect(first.bold).toBeUndefined();
    expect(hex(first.borders.left?.color)).toBe('000000');
    expect(hex(first.borders.top?.color)).toBe('808080');
    const last = styleCell(style, flags, 3, 2, 4, 3, srgb);
    expect(hex(last.borders.bottom?.color)).toBe('000000');
    expect(hex(last.borders.right?.color)).toBe('000000');
  });

  test('without the flags only the whole-table part applies', () => {
    const plain = styleCell(style, tableFlags(undefined), 0, 0, 4, 3, srgb);
    expect(hex(plain.fill)).toBe('FFFFFF');
    expect(plain.bold).toBeUndefined();
  });

  test("a cell's own anchor and margins place its text", async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    slide.addTable(
      [
        [
          { text: 'Low', options: { valign: 'bottom' } },
          { text: 'High', options: { valign: 'top' } },
          { text: 'Indented', options: { margin: [0, 0, 0, 0.5] } },
        ],
      ],
      { x: 1, y: 1, w: 6, rowH: [1.5] },
    );
    const result = await pptToPdf(
      [{ name: 'table.pptx', bytes: new Uint8Array((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer) }],
      {},
      {},
    );
    const doc = await openPdfjs(result.bytes);
    const items = (await (await doc.getPage(1)).getTextContent()).items.flatMap((i) =>
      'str' in i && i.str.trim() ? [{ text: i.str, x: i.transform[4] as number, y: i.transform[5] as number }] : [],
    );
    await doc.destroy();
    const at = (text: string) => items.find((i) => i.text === text)!;
    // PDF y grows upwards: bottom-anchored text sits about a row height (1.5 in) lower.
    expect(at('High').y - at('Low').y).toBeGreaterThan(72);
    // Column 3 starts at 1 in + 2 × 2 in = 360 pt; a 0.5 in left margin (pptxgenjs takes inches
    // here) puts its text at 396 pt, where the default 7.2 pt margin would give 367 pt.
    expect(at('Indented').x).toBeCloseTo(396, 0);
  });
});
