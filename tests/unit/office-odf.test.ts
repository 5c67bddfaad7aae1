/**
 * OpenDocument (.odt, .ods, .odp) and RTF to PDF: fixtures are written here as zip packages (or RTF
 * strings), converted by the Word / Excel / PowerPoint to PDF engines, and the PDF is read back with
 * pdf.js (text, order, pages, sizes, bookmarks, pixels) and checked with qpdf. When LibreOffice is
 * installed, a .docx/.xlsx/.pptx made here is also converted by it to .odt/.rtf/.ods/.odp and Folio
 * must print the same words from both.
 */
import { popplerWords } from '../support/pdf.ts';
import { describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { Document, Packer, Paragraph, HeadingLevel, TextRun, Table, TableRow, TableCell, WidthType } from 'docx';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import { PDFDocument } from 'pdf-lib';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { openPdfjs, renderPage } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { readRtf } from '../../workers/engine/lib/office-to-pdf/rtf.ts';
import type { Engine, EngineResult } from '../../workers/engine/lib/types.ts';
import { convert, expectValidPdf, texts } from '../support/office-pdf-helpers.ts';
import { isFolioError } from '../../workers/engine/lib/errors.ts';
import { pdfPageRaster } from '../support/images.ts';
import { bandHeight, underInk, UNDERLINE_DPI } from '../support/underline-ink.ts';

const NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'xmlns:xlink="http://www.w3.org/1999/xlink"',
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
  'xmlns:config="urn:oasis:names:tc:opendocument:xmlns:config:1.0"',
].join(' ');

const MIME = {
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  odg: 'application/vnd.oasis.opendocument.graphics',
};

// A 2×2 red PNG.
const RED_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAwMDAAAEKAQHYcVJ8AAAAAElFTkSuQmCC'),
  (c) => c.charCodeAt(0),
);

/** An ODF package: `mimetype` first and stored, then the manifest and the parts. */
async function odf(
  mimetype: string,
  parts: {
    content: string;
    styles?: string;
    settings?: string;
    files?: Record<string, Uint8Array>;
    encrypted?: boolean;
  },
): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('mimetype', mimetype, { compression: 'STORE' });
  const entries = [
    'content.xml',
    'styles.xml',
    'meta.xml',
    ...(parts.settings ? ['settings.xml'] : []),
    ...Object.keys(parts.files ?? {}),
  ];
  zip.file(
    'META-INF/manifest.xml',
    `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest ` +
      `xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">` +
      `<manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/>` +
      entries
        .map(
          (path) =>
            `<manifest:file-entry manifest:full-path="${path}" ` +
            `manifest:media-type="text/xml">` +
            `${parts.encrypted && path === 'content.xml' ? '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"/>' : ''}</manifest:file-entry>`,
        )
        .join('') +
      '</manifest:manifest>',
  );
  zip.file(
    'meta.xml',
    `<?xml version="1.0" encoding="UTF-8"?><office:document-meta ${NS} ` +
      `office:version="1.3"><office:meta/></office:document-meta>`,
  );
  zip.file(
    'styles.xml',
    `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${NS} ` +
      `office:version="1.3">${parts.styles ?? ''}</office:document-styles>`,
  );
  zip.file(
    'content.xml',
    `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS} ` +
      `office:version="1.3">${parts.content}</office:document-content>`,
  );
  if (parts.settings)
    zip.file(
      'settings.xml',
      `<?xml version="1.0" encoding="UTF-8"?><office:document-settings ` +
        `${NS}><office:settings>${parts.settings}</office:settings></office:document-settings>`,
    );
  for (const [path, bytes] of Object.entries(parts.files ?? {})) zip.file(path, bytes);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** RGB of the pixel at (x, y), in a page rendered at 36 dpi. */
async function pixel(
  result: EngineResult,
  pageNumber: number,
  x: number,
  y: number,
): Promise<[number, number, number]> {
  const doc = await openPdfjs(result.bytes);
  const page = await renderPage(doc, pageNumber, 36);
  await doc.destroy();
  const i = (Math.round(y * page.height) * page.width + Math.round(x * page.width)) * 4;
  return [page.data[i], page.data[i + 1], page.data[i + 2]];
}

const ODT_STYLES = `
<office:font-face-decls><style:font-face style:name="Liberation Serif" svg:font-family="'Liberation Serif'"/></office:font-face-decls>
<office:styles>
  <style:default-style style:family="paragraph"><style:text-properties style:font-name="Liberation Serif" fo:font-size="12pt"/></style:default-style>
  <style:style style:name="Standard" style:family="paragraph"/>
  <style:style style:name="Heading" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-top="12pt" fo:margin-bottom="6pt"/><style:text-properties fo:font-size="14pt"/></style:style>
  <style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Heading"><style:text-properties fo:font-size="130%" fo:font-weight="bold"/></style:style>
  <text:list-style style:name="Numbering_20_123">
    <text:list-level-style-number text:level="1" style:num-suffix="." style:num-format="1"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" fo:text-indent="-0.635cm" fo:margin-left="1.27cm"/></style:list-level-properties></text:list-level-style-number>
  </text:list-style>
</office:styles>
<office:automatic-styles>
  <style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="14.8cm" fo:page-height="21cm" fo:margin-top="2cm" fo:margin-bottom="2cm" fo:margin-left="2cm" fo:margin-right="2cm"/><style:header-style><style:header-footer-properties fo:min-height="0.6cm" fo:margin-bottom="0.3cm"/></style:header-style><style:footer-style><style:header-footer-properties fo:min-height="0.6cm" fo:margin-top="0.3cm"/></style:footer-style></style:page-layout>
  <style:page-layout style:name="pm2"><style:page-layout-properties fo:page-width="21cm" fo:page-height="14.8cm" style:print-orientation="landscape" fo:margin-top="1cm" fo:margin-bottom="1cm" fo:margin-left="1cm" fo:margin-right="1cm"/></style:page-layout>
  <style:style style:name="MP1" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="center"/></style:style>
</office:automatic-styles>
<office:master-styles>
  <style:master-page style:name="Standard" style:page-layout-name="pm1">
    <style:header><text:p>Quarterly header</text:p></style:header>
    <style:footer><text:p text:style-name="MP1">Page <text:page-number text:select-page="current">1</text:page-number> of <text:page-count>2</text:page-count></text:p></style:footer>
  </style:master-page>
  <style:master-page style:name="Landscape" style:page-layout-name="pm2"/>
</office:master-styles>`;

const ODT_CONTENT = `
<office:automatic-styles>
  <style:style style:name="P1" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="center"/></style:style>
  <style:style style:name="P2" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:break-before="page"/></style:style>
  <style:style style:name="P3" style:family="paragraph" style:parent-style-name="Standard" style:master-page-name="Landscape"/>
  <style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold" fo:color="#c00000"/></style:style>
  <style:style style:name="Table1" style:family="table"><style:table-properties style:width="8cm" table:align="left"/></style:style>
  <style:style style:name="Table1.A" style:family="table-column"><style:table-column-properties style:column-width="5cm"/></style:style>
  <style:style style:name="Table1.B" style:family="table-column"><style:table-column-properties style:column-width="3cm"/></style:style>
  <style:style style:name="Table1.A1" style:family="table-cell"><style:table-cell-properties fo:background-color="#dddddd" fo:border="0.5pt solid #000000" fo:padding="0.1cm"/></style:style>
  <text:list-style style:name="L2"><text:list-level-style-bullet text:level="1" text:bullet-char="•"><style:list-level-properties text:space-before="0.25in" text:min-label-width="0.25in"/></text:list-level-style-bullet></text:list-style>
</office:automatic-styles>
<office:body><office:text>
  <text:sequence-decls/>
  <text:h text:style-name="Heading_20_1" text:outline-level="1">Quarterly   report</text:h>
  <text:p text:style-name="P1">Revenue grew <text:span text:style-name="T1">strongly</text:span> in every region.</text:p>
  <text:p>Name<text:tab/>Value<text:line-break/>Second line with<text:s text:c="3"/>spaces</text:p>
  <text:list text:style-name="Numbering_20_123">
    <text:list-item><text:p>First step</text:p></text:list-item>
    <text:list-item><text:p>Second step</text:p><text:list text:style-name="L2"><text:list-item><text:p>Nested point</text:p></text:list-item></text:list></text:list-item>
  </text:list>
  <text:list text:style-name="L2"><text:list-item><text:p>A bullet point</text:p></text:list-item></text:list>
  <table:table table:name="Table1" table:style-name="Table1">
    <table:table-column table:style-name="Table1.A"/><table:table-column table:style-name="Table1.B"/>
    <table:table-header-rows><table:table-row><table:table-cell table:style-name="Table1.A1"><text:p>Region</text:p></table:table-cell><table:table-cell table:style-name="Table1.A1"><text:p>Sales</text:p></table:table-cell></table:table-row></table:table-header-rows>
    <table:table-row><table:table-cell><text:p>North</text:p></table:table-cell><table:table-cell><text:p>1,250</text:p></table:table-cell></table:table-row>
    <table:table-row><table:table-cell table:number-columns-spanned="2"><text:p>Total across both columns</text:p></table:table-cell><table:covered-table-cell/></table:table-row>
  </table:table>
  <text:p><draw:frame draw:name="Image1" text:anchor-type="as-char" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="Pictures/red.png" xlink:type="simple"/></draw:frame></text:p>
  <text:h text:outline-level="2">Details<text:soft-page-break/></text:h>
  <text:p text:style-name="P2">Closing paragraph on its own page.</text:p>
  <text:p text:style-name="P3">A landscape page.</text:p>
</office:text></office:body>`;

// Headers and footers are drawn after the body, so pdf.js reads them after the page's text.
describe('word-to-pdf: OpenDocument text (.odt)', () => {
  test('styles, headings, spans, tabs, lists, a table, a picture, page breaks, header/footer and master pages', async () => {
    const bytes = await odf(MIME.odt, {
      content: ODT_CONTENT,
      styles: ODT_STYLES,
      files: { 'Pictures/red.png': RED_PNG },
    });
    const result = await convert(wordToPdf, 'report.odt', bytes);
    await expectValidPdf(result);
    expect(result.filename).toBe('report.pdf');
    expect(result.notes).toBeUndefined();
    const pdf = await PDFDocument.load(result.bytes);
    expect(pdf.getPageCount()).toBe(3);
    // A5 portrait from the Standard master page, then the landscape master page.
    expect(pdf.getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())])).toEqual([
      [420, 595],
      [420, 595],
      [595, 420],
    ]);
    const [first, second, third] = await texts(result);
    expect(first).toMatch(
      /^Quarterly header Quarterly report Revenue grew strongly in every region\. Name ?Value Second line with {0,3}spaces/,
    );
    expect(first).toMatch(
      /1\. ?First step 2\. ?Second step • ?Nested point • ?A bullet point Region Sales North 1,250 Total across both columns Details Page 1 of 3$/,
    );
    expect(second).toBe('Quarterly header Closing paragraph on its own page. Page 2 of 3');
    expect(third).toBe('A landscape page.');
    const doc = await openPdfjs(result.bytes);
    const outline = await doc.getOutline();
    await doc.destroy();
    expect(outline.map((item) => item.title)).toEqual(['Quarterly report']);
    expect(outline[0].items.map((item) => item.title)).toEqual(['Details']);
  });

  test("numbered headings (outline style) get their chapter numbers; a producer's text:number is not printed twice", async () => {
    const styles = `<office:styles><text:outline-style style:name="Outline">
      <text:outline-level-style text:level="1" style:num-format="1" style:num-suffix="."/>
      <text:outline-level-style text:level="2" style:num-format="1" text:display-levels="2"/>
    </text:outline-style></office:styles>`;
    const content = `<office:body><office:text>
      <text:h text:outline-level="1">Alpha</text:h><text:h text:outline-level="2">Beta</text:h><text:h text:outline-level="2">Gamma</text:h>
      <text:h text:outline-level="1">Delta</text:h><text:h text:outline-level="2">Epsilon</text:h>
      <text:list><text:list-item><text:p><text:number>•</text:number>Item</text:p></text:list-item></text:list>
    </office:text></office:body>`;
    const [page] = await texts(await convert(wordToPdf, 'chapters.odt', await odf(MIME.odt, { content, styles })));
    expect(page).toMatch(/^1\. Alpha 1\.1 Beta 1\.2 Gamma 2\. Delta 2\.1 Epsilon • ?Item$/);
  });

  test('line numbering (Tools › Line Numbering): every third body line in the margin, as LibreOffice prints it', async () => {
    const styles = `<office:styles>
      <style:default-style style:family="paragraph"><style:text-properties fo:font-size="12pt"/></style:default-style>
      <text:linenumbering-configuration text:offset="0.5in" text:number-position="left" text:increment="3" text:restart-on-page="true"/>
    </office:styles>`;
    const lines = Array.from({ length: 60 }, (_, i) => `<text:p>Line ${i + 1}</text:p>`).join('');
    const content = `<office:automatic-styles>
      <style:style style:name="P1" style:family="paragraph"><style:paragraph-properties text:number-lines="false"/></style:style>
    </office:automatic-styles><office:body><office:text>
      <text:p text:style-name="P1">Not counted</text:p>
      <table:table><table:table-column/><table:table-row><table:table-cell><text:p>In a cell</text:p></table:table-cell></table:table-row></table:table>
      ${lines}
    </office:text></office:body>`;
    const result = await convert(wordToPdf, 'numbered.odt', await odf(MIME.odt, { content, styles }));
    const doc = await openPdfjs(result.bytes);
    const margin: Array<Array<{ number: string; line?: string; gap: number }>> = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const items = (await (await doc.getPage(p)).getTextContent()).items.flatMap((item) =>
        'str' in item && item.str.trim()
          ? [{ text: item.str, x: item.transform[4], y: item.transform[5], width: item.width }]
          : [],
      );
      margin.push(
        items
          .filter((item) => item.x < 50)
          .map((item) => {
            const line = items.find((other) => other.x >= 50 && Math.abs(other.y - item.y) < 0.5);
            return { number: item.text, line: line?.text, gap: (line?.x ?? NaN) - (item.x + item.width) };
          }),
      );
    }
    await doc.destroy();
    expect(margin.length).toBeGreaterThan(1);
    expect(margin[0].slice(0, 2)).toMatchObject([
      { number: '3', line: 'Line 3' },
      { number: '6', line: 'Line 6' },
    ]);
    // Half an inch left of the text; restarted on the next page.
    for (const n of margin[0]) expect(n.gap).toBeCloseTo(36, 0);
    expect(margin[1][0].number).toBe('3');
  });

  test('a mirrored page layout (style:page-usage="mirrored") swaps the margins on even pages', async () => {
    const styles = `<office:automatic-styles>
      <style:page-layout style:name="pm" style:page-usage="mirrored"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-left="5cm" fo:margin-right="1cm"/></style:page-layout>
    </office:automatic-styles><office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm"/></office:master-styles>`;
    const content = `<office:automatic-styles><style:style style:name="PN" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style></office:automatic-styles>
      <office:body><office:text><text:p>One</text:p><text:p text:style-name="PN">Two</text:p><text:p text:style-name="PN">Three</text:p></office:text></office:body>`;
    const pdf = (await convert(wordToPdf, 'book.odt', await odf(MIME.odt, { content, styles }))).bytes;
    const x = (text: string) => popplerWords(pdf).find((w) => w.text === text)!.xMin;
    // 5 cm (141.7 pt) inside: at the left of odd pages, the right of even ones (1 cm, 28.3 pt, at the left).
    expect(x('One')).toBeCloseTo(141.7, 0);
    expect(x('Two')).toBeCloseTo(28.3, 0);
    expect(x('Three')).toBeCloseTo(141.7, 0);
  });

  test("page numbers in the page style's format (i, ii for front matter), restarted where a paragraph says", async () => {
    const footer =
      '<style:footer><text:p>Page <text:page-number text:select-page="current">1</text:page-number></text:p></style:footer>';
    const styles = `<office:automatic-styles>
      <style:page-layout style:name="pmFront"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" style:num-format="i"/></style:page-layout>
      <style:page-layout style:name="pmBody"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" style:num-format="1"/></style:page-layout>
    </office:automatic-styles><office:master-styles>
      <style:master-page style:name="Front" style:page-layout-name="pmFront">${footer}</style:master-page>
      <style:master-page style:name="Body" style:page-layout-name="pmBody">${footer}</style:master-page>
    </office:master-styles>`;
    const content = `<office:automatic-styles>
      <style:style style:name="PF" style:family="paragraph" style:master-page-name="Front"/>
      <style:style style:name="PB" style:family="paragraph" style:master-page-name="Body"><style:paragraph-properties style:page-number="1"/></style:style>
      <style:style style:name="PN" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style>
    </office:automatic-styles><office:body><office:text>
      <text:p text:style-name="PF">Title</text:p><text:p text:style-name="PN">Contents</text:p>
      <text:p text:style-name="PB">Chapter one</text:p><text:p text:style-name="PN">Chapter two</text:p>
    </office:text></office:body>`;
    const result = await convert(wordToPdf, 'report.odt', await odf(MIME.odt, { content, styles }));
    expect(await texts(result)).toEqual([
      'Title Page i',
      'Contents Page ii',
      'Chapter one Page 1',
      'Chapter two Page 2',
    ]);
  });

  test('a section in two columns (Insert › Section › Columns) between full-width text, as LibreOffice prints it', async () => {
    // Folio printed the section's text across the page. The page layout's own columns are read the same way.
    const words = Array.from({ length: 40 }, (_, i) => `word${i + 1}`).join(' ');
    const content = `<office:automatic-styles>
      <style:style style:name="Sect1" style:family="section"><style:section-properties text:dont-balance-text-columns="true">
        <style:columns fo:column-count="2" fo:column-gap="0.5in"><style:column-sep style:width="0.01in" style:color="#000000"/></style:columns>
      </style:section-properties></style:style>
    </office:automatic-styles><office:body><office:text>
      <text:p>Newsletter title across the page</text:p>
      <text:section text:style-name="Sect1" text:name="News">${`<text:p>${words}</text:p>`.repeat(12)}</text:section>
      <text:p>Closing line across the page after the columns</text:p>
    </office:text></office:body>`;
    const result = await convert(wordToPdf, 'news.odt', await odf(MIME.odt, { content, styles: ODT_STYLES }));
    const dir = mkdtempSync(join(tmpdir(), 'folio-odt-columns-'));
    try {
      writeFileSync(join(dir, 'news.pdf'), result.bytes);
      const layout = execFileSync('pdftotext', ['-layout', join(dir, 'news.pdf'), '-'], { encoding: 'utf8' });
      const lines = layout.split('\n').map((line) => line.trim().replace(/\s+/g, ' '));
      // Side by side: the left column's first row and a row of the right column on one line, a gap between.
      expect(layout).toMatch(/^\s*word1 word2\b.*\S {4,}word\d+/m);
      expect(lines).toContain('Newsletter title across the page');
      expect(lines).toContain('Closing line across the page after the columns');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('letter spacing (fo:letter-spacing) follows each character', async () => {
    const content = `<office:automatic-styles><style:style style:name="T1" style:family="text"><style:text-properties fo:letter-spacing="0.1cm"/></style:style></office:automatic-styles>
      <office:body><office:text><text:p><text:span text:style-name="T1">SPACED</text:span> END</text:p><text:p>SPACED TAIL</text:p></office:text></office:body>`;
    const result = await convert(wordToPdf, 'spaced.odt', await odf(MIME.odt, { content }));
    const printed = popplerWords(result.bytes);
    const x = (text: string) => printed.find((word) => word.text === text)!.xMin;
    // Six characters, each followed by 0.1 cm (2.83 pt).
    expect(x('END') - x('TAIL')).toBeCloseTo(6 * (72 / 25.4), 0);
  });

  test('underline kinds: double, dotted, wave, bold, words only, coloured (style:text-underline-*)', async () => {
    const kinds: Record<string, string> = {
      U1: 'style:text-underline-style="solid" style:text-underline-type="double"',
      U2: 'style:text-underline-style="dotted"',
      U3: 'style:text-underline-style="wave"',
      U4: 'style:text-underline-style="solid" style:text-underline-width="bold"',
      U5: 'style:text-underline-style="solid" style:text-underline-mode="skip-white-space"',
      U6: 'style:text-underline-style="solid" style:text-underline-color="#ff0000"',
      U7: 'style:text-underline-style="solid"',
    };
    const words = ['DOUBLE', 'DOTTED', 'WAVE', 'BOLD', 'WORDS ONLY', 'RED', 'SINGLE'];
    const styles = Object.entries(kinds)
      .map(
        ([name, props]) =>
          `<style:style style:name="${name}" style:family="text"><style:text-properties fo:font-size="24pt" ${props}/></style:style>`,
      )
      .join('');
    const paragraphs = words.map(
      (word, i) => `<text:p text:style-name="P"><text:span text:style-name="U${i + 1}">${word}</text:span></text:p>`,
    );
    // Space after each paragraph: the next line's letters stay out of the ink measured below a word.
    const spaced =
      '<style:style style:name="P" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.6cm"/></style:style>';
    const content = `<office:automatic-styles>${spaced}${styles}</office:automatic-styles><office:body><office:text>${paragraphs.join('')}</office:text></office:body>`;
    const pdf = (await convert(wordToPdf, 'underlines.odt', await odf(MIME.odt, { content }))).bytes;
    const printed = popplerWords(pdf);
    const word = (text: string) => printed.find((w) => w.text === text)!;
    const raster = await pdfPageRaster(pdf, 1, UNDERLINE_DPI);
    const ink = (text: string) => underInk(raster, word(text));
    expect(ink('SINGLE').bands).toHaveLength(1);
    expect(ink('DOUBLE').bands).toHaveLength(2);
    expect(ink('DOTTED').covered).toBeLessThan(0.65);
    expect(ink('WAVE').tallestColumn).toBeLessThan(bandHeight(ink('WAVE').bands[0]));
    expect(bandHeight(ink('BOLD').bands[0])).toBeGreaterThanOrEqual(bandHeight(ink('SINGLE').bands[0]) * 1.7);
    expect(underInk(raster, word('WORDS'), [word('WORDS').xMax + 1, word('ONLY').xMin - 1]).covered).toBe(0);
    expect(ink('RED').color[0]).toBeGreaterThan(200);
    expect(ink('RED').color[1]).toBeLessThan(60);
  });

  test('a formula (LibreOffice Math: an object of MathML) is laid out in its line, not left out', async () => {
    // What LibreOffice 7.4 writes for "A = %pi r^2 + {a+1} over {b}" and a sum with limits.
    const mathml = `<?xml version="1.0" encoding="UTF-8"?><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow>
      <mi>A</mi><mo stretchy="false">=</mo><mi>π</mi><msup><mi>r</mi><mn>2</mn></msup><mo>+</mo>
      <mfrac><mrow><mi>a</mi><mo>+</mo><mn>1</mn></mrow><mi>b</mi></mfrac><mo>+</mo>
      <munderover><mo stretchy="false">∑</mo><mrow><mi>k</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>x</mi><mi>k</mi></msub>
      <mo>+</mo><mrow><mo fence="true" stretchy="true">(</mo><mfrac><mi>p</mi><mi>q</mi></mfrac><mo fence="true" stretchy="true">)</mo></mrow>
      </mrow><annotation encoding="StarMath 5.0">A = %pi r^2 + {a+1} over {b}</annotation></semantics></math>`;
    const content = `<office:body><office:text><text:p>Area <draw:frame svg:width="5cm" svg:height="1.5cm"><draw:object xlink:href="./Object 1"/><draw:image xlink:href="./ObjectReplacements/Object 1"/></draw:frame> done</text:p></office:text></office:body>`;
    const result = await convert(
      wordToPdf,
      'formula.odt',
      await odf(MIME.odt, { content, files: { 'Object 1/content.xml': new TextEncoder().encode(mathml) } }),
    );
    const words = popplerWords(result.bytes);
    const word = (t: string) => words.find((w) => w.text === t)!;
    const text = (await texts(result)).join(' ').replace(/\s+/g, '');
    for (const part of ['Area', 'A=πr', '2', 'a+1', 'b', '∑', 'k=1', 'n', 'x', 'p', 'q', 'done'])
      expect(text, part).toContain(part);
    expect(text).not.toContain('StarMath');
    // The space after the formula is kept.
    expect(word('done').xMin - word(')').xMax).toBeGreaterThan(1.5);
    expect(result.notes ?? []).not.toContain('charts and embedded objects were left out');
    // The fraction stacked: "b" below "a+1"; the sum's limits above and below it; the text on its line.
    expect(word('b').yMin).toBeGreaterThan(word('a').yMax - 1);
    expect(Math.abs(word('Area').yMax - word('done').yMax)).toBeLessThan(1);
  });

  test('the picture and the bold red span are drawn in colour', async () => {
    const content = `<office:automatic-styles><style:style style:name="T1" style:family="text"><style:text-properties fo:color="#ff0000" fo:font-size="40pt"/></style:style></office:automatic-styles>
      <office:body><office:text><text:p><draw:frame svg:width="14cm" svg:height="3cm"><draw:image xlink:href="Pictures/red.png"/></draw:frame></text:p></office:text></office:body>`;
    const result = await convert(
      wordToPdf,
      'picture.odt',
      await odf(MIME.odt, { content, files: { 'Pictures/red.png': RED_PNG } }),
    );
    // Default page (A4) with 2 cm margins: the 14 cm picture covers the top band from x≈10 % to 76 %.
    const [r, g, b] = await pixel(result, 1, 0.4, 0.1);
    expect(r).toBeGreaterThan(200);
    expect(g + b).toBeLessThan(60);
  });

  test('OpenDocument files given to the wrong tool, drawings, encrypted and damaged packages get clear messages', async () => {
    const ods = await odf(MIME.ods, { content: '<office:body><office:spreadsheet/></office:body>' });
    await expect(convert(wordToPdf, 'sheet.ods', ods)).rejects.toThrow(
      /OpenDocument spreadsheet \(\.ods\): use the Excel to PDF tool/,
    );
    const odt = await odf(MIME.odt, {
      content: '<office:body><office:text><text:p>x</text:p></office:text></office:body>',
    });
    await expect(convert(excelToPdf, 'letter.odt', odt)).rejects.toThrow(
      /OpenDocument text \(\.odt\): use the Word to PDF tool/,
    );
    await expect(convert(pptToPdf, 'letter.odt', odt)).rejects.toThrow(/use the Word to PDF tool/);
    await expect(convert(pptToPdf, 'letter.rtf', new TextEncoder().encode('{\\rtf1 hi}'))).rejects.toThrow(
      /RTF document: use the Word to PDF tool/,
    );
    await expect(convert(excelToPdf, 'letter.rtf', new TextEncoder().encode('{\\rtf1 hi}'))).rejects.toThrow(
      /RTF document: use the Word to PDF tool/,
    );
    const odg = await odf(MIME.odg, { content: '<office:body><office:drawing/></office:body>' });
    await expect(convert(wordToPdf, 'shapes.odg', odg)).rejects.toThrow(
      /OpenDocument drawing \(\.odg\), which Folio cannot convert/,
    );
    const locked = await odf(MIME.odt, { content: '<office:body/>', encrypted: true });
    await expect(convert(wordToPdf, 'locked.odt', locked)).rejects.toThrow(/protected with a password/);
    const noContent = await JSZip.loadAsync(odt);
    noContent.remove('content.xml');
    await expect(
      convert(wordToPdf, 'broken.odt', await noContent.generateAsync({ type: 'uint8array' })),
    ).rejects.toThrow(/damaged: content\.xml is missing/);
    await expect(convert(wordToPdf, 'notes.odt', new TextEncoder().encode('plain text'))).rejects.toThrow(
      /"notes\.odt" is not a \.odt file/,
    );
    await expect(convert(excelToPdf, 'old.xls', Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0]))).rejects.toThrow(
      /old-style \.xls/,
    );
    await expect(convert(pptToPdf, 'old.ppt', Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0]))).rejects.toThrow(
      /old-style \.ppt/,
    );
  });
});

const ODS_STYLES = `<office:styles><style:default-style style:family="table-cell"><style:text-properties style:font-name="Liberation Sans" fo:font-size="10pt"/></style:default-style></office:styles>
  <office:automatic-styles><style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin="2cm"/></style:page-layout></office:automatic-styles>
  <office:master-styles><style:master-page style:name="Default" style:page-layout-name="pm1">
    <style:header><text:p><text:sheet-name>???</text:sheet-name></text:p></style:header>
    <style:footer><style:region-left><text:p>Page <text:page-number>1</text:page-number></text:p></style:region-left><style:region-right><text:p>Confidential</text:p></style:region-right></style:footer>
  </style:master-page></office:master-styles>`;

const ODS_CONTENT = `<office:automatic-styles>
  <style:style style:name="co1" style:family="table-column"><style:table-column-properties style:column-width="4cm"/></style:style>
  <style:style style:name="co2" style:family="table-column"><style:table-column-properties style:column-width="2.5cm"/></style:style>
  <style:style style:name="ce1" style:family="table-cell"><style:table-cell-properties fo:background-color="#ffff00" fo:border-bottom="1pt solid #000000"/><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="ce2" style:family="table-cell"><style:paragraph-properties fo:text-align="center"/></style:style>
</office:automatic-styles>
<office:body><office:spreadsheet>
  <table:table table:name="Budget">
    <table:table-column table:style-name="co1"/><table:table-column table:style-name="co2" table:number-columns-repeated="2"/><table:table-column table:number-columns-repeated="16381"/>
    <table:table-row><table:table-cell table:style-name="ce1" office:value-type="string"><text:p>Item</text:p></table:table-cell><table:table-cell table:style-name="ce1" office:value-type="string"><text:p>Amount</text:p></table:table-cell><table:table-cell table:style-name="ce1" office:value-type="string"><text:p>Date</text:p></table:table-cell><table:table-cell table:number-columns-repeated="16381"/></table:table-row>
    <table:table-row><table:table-cell office:value-type="string"><text:p>Rent</text:p></table:table-cell><table:table-cell office:value-type="currency" office:currency="EUR" office:value="1250.5"><text:p>1,250.50 €</text:p></table:table-cell><table:table-cell office:value-type="date" office:date-value="2025-03-01"><text:p>2025-03-01</text:p></table:table-cell><table:table-cell table:number-columns-repeated="16381"/></table:table-row>
    <table:table-row><table:table-cell office:value-type="string"><text:p>Share</text:p></table:table-cell><table:table-cell office:value-type="percentage" office:value="0.25"><text:p>25%</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="42"/></table:table-row>
    <table:table-row table:number-rows-repeated="2"><table:table-cell table:style-name="ce2" office:value-type="string"><text:p>twice</text:p></table:table-cell></table:table-row>
    <table:table-row><table:table-cell table:number-columns-spanned="3" office:value-type="string"><text:p>Merged note across three columns</text:p></table:table-cell><table:covered-table-cell table:number-columns-repeated="2"/></table:table-row>
    <table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>
  </table:table>
  <table:table table:name="Notes"><table:table-row><table:table-cell office:value-type="string"><text:p>Second sheet</text:p></table:table-cell></table:table-row></table:table>
</office:spreadsheet></office:body>`;

describe('excel-to-pdf: OpenDocument spreadsheet (.ods)', () => {
  test('every sheet is printed with its display text, styles, spans; huge repeats are not expanded', async () => {
    const bytes = await odf(MIME.ods, { content: ODS_CONTENT, styles: ODS_STYLES });
    const result = await convert(excelToPdf, 'budget.ods', bytes);
    await expectValidPdf(result);
    expect(result.filename).toBe('budget.pdf');
    const pages = await texts(result);
    expect(pages).toHaveLength(2);
    // The page header names the sheet; the footer's left and right regions give the page and a label.
    expect(pages[0]).toBe(
      'Budget Item Amount Date Rent 1,250.50 € 2025-03-01 Share 25% 42 twice twice Merged note across three ' +
        'columns Page 1 Confidential',
    );
    expect(pages[1]).toBe('Notes Second sheet Page 2 Confidential');
    const doc = await openPdfjs(result.bytes);
    expect((await doc.getOutline()).map((item) => item.title)).toEqual(['Budget', 'Notes']);
    await doc.destroy();
    // The first row's yellow fill: 2 cm margin + the page header (21 pt) from the top, ≈ 9.2 % of the height.
    const [r, g, b] = await pixel(result, 1, 0.15, 0.0994);
    expect([r > 200, g > 200, b < 80]).toEqual([true, true, true]);
  });

  test('"active sheet only" follows settings.xml; landscape turns the page', async () => {
    const settings =
      '<config:config-item-set config:name="ooo:view-settings"><config:config-item config:name="ActiveTable" ' +
      'config:type="string">Notes</config:config-item></config:config-item-set>';
    const bytes = await odf(MIME.ods, { content: ODS_CONTENT, styles: ODS_STYLES, settings });
    const result = await convert(excelToPdf, 'budget.ods', bytes, { sheets: 'active', orientation: 'landscape' });
    expect(await texts(result)).toEqual(['Notes Second sheet Page 1 Confidential']);
    const { width, height } = (await PDFDocument.load(result.bytes)).getPage(0).getSize();
    expect(width).toBeGreaterThan(height);
  });

  test('cells that carry only a value (no display text) are printed from the value', async () => {
    const bytes = await odf(MIME.ods, {
      content:
        '<office:body><office:spreadsheet><table:table table:name="S"><table:table-row><table:table-cell ' +
        'office:value-type="string" office:string-value="Label"/><table:table-cell office:value-type="float" ' +
        'office:value="1234.5"/><table:table-cell office:value-type="boolean" ' +
        'office:boolean-value="true"/></table:table-row></table:table></office:spreadsheet></office:body>',
    });
    expect(await texts(await convert(excelToPdf, 'values.ods', bytes))).toEqual(['Label 1234.5 TRUE']);
  });

  test('an empty spreadsheet says so', async () => {
    const bytes = await odf(MIME.ods, {
      content:
        '<office:body><office:spreadsheet><table:table table:name="S"><table:table-row ' +
        'table:number-rows-repeated="1048576"><table:table-cell ' +
        'table:number-columns-repeated="1024"/></table:table-row></table:table></office:spreadsheet></office:body>',
    });
    await expect(convert(excelToPdf, 'empty.ods', bytes)).rejects.toThrow(/no cells with values/);
  });
});

const ODP_STYLES = `<office:styles>
    <style:default-style style:family="graphic"><style:graphic-properties svg:stroke-color="#3465a4" draw:fill-color="#729fcf"/><style:text-properties fo:font-size="18pt"/></style:default-style>
    <style:style style:name="standard" style:family="graphic"><style:graphic-properties draw:stroke="solid" svg:stroke-width="0cm" draw:fill="solid"/></style:style>
  </office:styles>
  <office:automatic-styles><style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="28cm" fo:page-height="15.75cm" style:print-orientation="landscape" fo:margin="0cm"/></style:page-layout></office:automatic-styles>
  <office:master-styles>
    <style:style style:name="Default-title" style:family="presentation"><style:graphic-properties draw:fill="none" draw:stroke="none" draw:textarea-vertical-align="middle"/><style:text-properties fo:font-size="44pt" fo:color="#ffffff"/></style:style>
    <style:master-page style:name="Default" style:page-layout-name="PM1">
      <draw:frame presentation:class="title" presentation:style-name="Default-title" svg:x="1cm" svg:y="1cm" svg:width="26cm" svg:height="3cm"><draw:text-box><text:p>Click to add Title</text:p></draw:text-box></draw:frame>
      <draw:rect draw:style-name="standard" svg:x="0cm" svg:y="15cm" svg:width="28cm" svg:height="0.75cm"/>
    </style:master-page>
  </office:master-styles>`;

const ODP_CONTENT = `<office:automatic-styles>
    <style:style style:name="dp1" style:family="drawing-page"><style:drawing-page-properties draw:fill="solid" draw:fill-color="#1f4fd1"/></style:style>
    <style:style style:name="pr1" style:family="presentation" style:parent-style-name="Default-title"/>
    <style:style style:name="gr1" style:family="graphic" style:parent-style-name="standard"><style:graphic-properties draw:fill-color="#ff0000" draw:stroke="none"/></style:style>
    <style:style style:name="gr2" style:family="graphic" style:parent-style-name="standard"><style:graphic-properties draw:fill="none" draw:stroke="none"/></style:style>
    <style:style style:name="gr3" style:family="graphic" style:parent-style-name="standard"><style:graphic-properties draw:fill="none" draw:stroke="none" draw:fit-to-size="shrink-to-fit"/></style:style>
    <style:style style:name="ce1" style:family="table-cell"><loext:graphic-properties xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0" draw:fill="solid" draw:fill-color="#00ff00"/><style:paragraph-properties fo:border="0.5pt solid #000000"/></style:style>
  </office:automatic-styles>
  <office:body><office:presentation>
    <draw:page draw:name="page1" draw:style-name="dp1" draw:master-page-name="Default">
      <draw:frame presentation:style-name="pr1" presentation:class="title" svg:x="1cm" svg:y="1cm" svg:width="26cm" svg:height="3cm"><draw:text-box><text:p>Launch plan</text:p></draw:text-box></draw:frame>
      <draw:frame draw:style-name="gr2" presentation:class="outline" svg:x="1cm" svg:y="5cm" svg:width="26cm" svg:height="8cm"><draw:text-box><text:list><text:list-item><text:p>Ship the beta in March</text:p></text:list-item><text:list-item><text:p>Hire two engineers</text:p></text:list-item></text:list></draw:text-box></draw:frame>
    </draw:page>
    <draw:page draw:name="page2" draw:master-page-name="Default">
      <draw:rect draw:style-name="gr1" svg:x="2cm" svg:y="2cm" svg:width="8cm" svg:height="4cm"><text:p>Boxed text</text:p></draw:rect>
      <draw:custom-shape draw:style-name="gr1" svg:x="12cm" svg:y="2cm" svg:width="4cm" svg:height="4cm"><draw:enhanced-geometry draw:type="ooxml-ellipse"/></draw:custom-shape>
      <draw:line draw:style-name="standard" svg:x1="2cm" svg:y1="7cm" svg:x2="20cm" svg:y2="7cm"/>
      <draw:frame svg:x="18cm" svg:y="2cm" svg:width="4cm" svg:height="4cm"><draw:image xlink:href="Pictures/red.png"/></draw:frame>
      <draw:frame svg:x="2cm" svg:y="8cm" svg:width="10cm" svg:height="3cm"><table:table><table:table-column table:number-columns-repeated="2"/><table:table-row><table:table-cell table:style-name="ce1"><text:p>Q1</text:p></table:table-cell><table:table-cell><text:p>Q2</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell><text:p>10</text:p></table:table-cell><table:table-cell><text:p>20</text:p></table:table-cell></table:table-row></table:table></draw:frame>
      <draw:frame draw:style-name="gr2" svg:x="2cm" svg:y="12cm" svg:width="20cm" svg:height="2cm"><draw:text-box><text:p>Second slide text</text:p></draw:text-box></draw:frame>
    </draw:page>
    <draw:page draw:name="page3" draw:master-page-name="Default">
      <draw:frame draw:style-name="gr3" svg:x="2cm" svg:y="2cm" svg:width="6cm" svg:height="2cm"><draw:text-box><text:p>Shrunk ${'text that is far too long for its box '.repeat(4)}end</text:p></draw:text-box></draw:frame>
      <draw:frame draw:style-name="gr2" svg:x="2cm" svg:y="8cm" svg:width="6cm" svg:height="2cm"><draw:text-box><text:p>Unshrunk</text:p></draw:text-box></draw:frame>
    </draw:page>
  </office:presentation></office:body>`;

describe('ppt-to-pdf: OpenDocument presentation (.odp)', () => {
  const deck = () =>
    odf(MIME.odp, { content: ODP_CONTENT, styles: ODP_STYLES, files: { 'Pictures/red.png': RED_PNG } });

  test('one page per draw:page at the 16:9 page size, with text, shapes, pictures, tables and backgrounds', async () => {
    const result = await convert(pptToPdf, 'plan.odp', await deck());
    await expectValidPdf(result);
    const pdf = await PDFDocument.load(result.bytes);
    expect(pdf.getPageCount()).toBe(3);
    const { width, height } = pdf.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([794, 446]);
    const pages = await texts(result);
    // The master's empty title placeholder ("Click to add Title") is not printed.
    expect(pages[0]).toMatch(/^Launch plan • ?Ship the beta in March • ?Hire two engineers$/);
    expect(pages[1]).toMatch(/^Boxed text Q1 Q2 10 20 Second slide text$/);
    // Page 1: blue background; page 2: white background, red rectangle, master's band at the bottom.
    expect(await pixel(result, 1, 0.5, 0.5)).toEqual([31, 79, 209]);
    expect(await pixel(result, 2, 0.02, 0.02)).toEqual([255, 255, 255]);
    expect(await pixel(result, 2, 0.1, 0.2)).toEqual([255, 0, 0]);
    expect(await pixel(result, 2, 0.5, 0.99)).toEqual([114, 159, 207]);
    // The ellipse (a shape imported from PowerPoint) is round: its box's corner stays white.
    expect(await pixel(result, 2, 0.5, 0.254)).toEqual([255, 0, 0]);
    expect(await pixel(result, 2, 0.4357, 0.1397)).toEqual([255, 255, 255]);
    // An Impress table cell's fill is in its graphic properties; the table's frame is not filled.
    expect(await pixel(result, 2, 0.0893, 0.5206)).toEqual([0, 255, 0]);
    expect(await pixel(result, 2, 0.35, 0.62)).toEqual([255, 255, 255]);
  });

  test('a "shrink on overflow" text box scales its text down to fit', async () => {
    const result = await convert(pptToPdf, 'plan.odp', await deck(), { pages: '3' });
    const doc = await openPdfjs(result.bytes);
    const items = (await (await doc.getPage(1)).getTextContent()).items as Array<{ str: string; transform: number[] }>;
    await doc.destroy();
    const sizeOf = (word: string) => Math.abs(items.find((item) => item.str.includes(word))!.transform[3]);
    expect(sizeOf('Unshrunk')).toBeCloseTo(18, 0);
    expect(sizeOf('Shrunk')).toBeLessThan(12);
    // Everything is still there, and the last line ends inside the 2 cm box (2 cm + 2 cm from the top).
    const end = items.find((item) => item.str.includes('end'))!;
    expect(446 - end.transform[5]).toBeLessThan((4 * 72) / 2.54);
  });

  test('slides get bookmarks from their titles; a slide range keeps only those slides', async () => {
    const bytes = await deck();
    const doc = await openPdfjs((await convert(pptToPdf, 'plan.odp', bytes)).bytes);
    expect((await doc.getOutline()).map((item) => item.title)).toEqual(['Launch plan', 'Slide 2', 'Slide 3']);
    await doc.destroy();
    const second = await texts(await convert(pptToPdf, 'plan.odp', bytes, { pages: '2' }));
    expect(second).toHaveLength(1);
    expect(second[0]).toContain('Second slide text');
  });
});

const RED_PNG_HEX = Array.from(RED_PNG, (b) => b.toString(16).padStart(2, '0')).join('');

const RTF = [
  '{\\rtf1\\ansi\\ansicpg1252\\deff0',
  '{\\fonttbl{\\f0\\froman\\fcharset0 Times New Roman;}{\\f1\\fswiss\\fcharset0 Arial;}{\\f2\\fnil\\fcharset204 ' +
    'Arial Cyr;}{\\f3\\fnil\\fcharset2 Symbol;}}',
  '{\\colortbl;\\red255\\green0\\blue0;\\red0\\green0\\blue255;}',
  '{\\*\\generator Hand made;}{\\info{\\title HIDDEN TITLE}}',
  '\\paperw11906\\paperh16838\\margl1134\\margr1134\\margt1134\\margb1134',
  '{\\header\\pard\\qc\\f1\\fs18 RTF header {\\field{\\*\\fldinst { PAGE }}{\\fldrslt 9}} of {\\field{\\fldinst ' +
    'NUMPAGES}{\\fldrslt 9}}\\par}',
  '\\pard\\outlinelevel0\\qc\\f1\\fs36\\b Annual letter\\b0\\par',
  "\\pard\\sa120\\f0\\fs24 Caf\\'e9 costs 5\\u8364?, {\\i italic}, {\\ul underlined} and {\\cf1 red} words.\\par",
  '\\pard\\li720\\fi-360 Name\\tab Value\\line next line\\par',
  "\\pard\\li720\\fi-360{\\listtext\\f3 \\'b7\\tab}Listed item\\par",
  '{\\*\\unknowndestination HIDDEN DESTINATION}',
  "\\pard {\\f2 \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2} and \\uc1\\u26085?\\u26412?.\\par",
  '\\trowd\\trgaph108\\clbrdrt\\brdrs\\clbrdrb\\brdrs\\cellx2000\\clcbpat2\\cellx4000',
  '\\pard\\intbl Cell A1\\cell Cell B1\\cell\\row',
  '\\trowd\\trgaph108\\cellx2000\\cellx4000',
  '\\pard\\intbl Cell A2\\cell Cell B2\\cell\\row',
  '\\pard {\\*\\shppict{\\pict\\pngblip\\picw2\\pich2\\picwgoal1440\\pichgoal720 ' +
    RED_PNG_HEX +
    '}}{\\nonshppict{\\pict\\wmetafile8 0000}}\\par',
  '\\page',
  '\\pard\\qr Last page \\{braces\\} and a backslash \\\\.\\par',
  '}',
].join('\n');

describe('word-to-pdf: RTF', () => {
  test('fonts, colours, code pages, \\u escapes, tabs, tables, a picture, a header and a page break', async () => {
    const result = await convert(wordToPdf, 'letter.rtf', new TextEncoder().encode(RTF));
    await expectValidPdf(result);
    expect(result.filename).toBe('letter.pdf');
    const pdf = await PDFDocument.load(result.bytes);
    expect(pdf.getPageCount()).toBe(2);
    expect(pdf.getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())])).toEqual([
      [595, 842],
      [595, 842],
    ]);
    const [first, second] = await texts(result);
    expect(first).toMatch(
      /^RTF header 1 of 2 Annual letter Café costs 5€, italic, underlined and red words\. Name ?Value next line • ?Listed item Привет and 日本\. Cell A1 Cell B1 Cell A2 Cell B2$/,
    );
    expect(second).toBe('RTF header 2 of 2 Last page {braces} and a backslash \\.');
    const doc = await openPdfjs(result.bytes);
    expect((await doc.getOutline()).map((item) => item.title)).toEqual(['Annual letter']);
    await doc.destroy();
  });

  test('the reader builds the model: styles, table cells with borders and shading, the picture at its goal size', () => {
    const { sections, notes } = readRtf(new TextEncoder().encode(RTF));
    expect(notes).toEqual([]);
    const [section] = sections;
    expect(section.page.margin.left).toBeCloseTo(56.7, 1);
    const kinds = section.blocks.map((b) => b.kind);
    // Both rows have the same cell boundaries, so they make one table.
    expect(kinds.filter((k) => k === 'table')).toHaveLength(1);
    const heading = section.blocks[0];
    expect(heading.kind === 'paragraph' && heading.align).toBe('center');
    const letter = section.blocks[1];
    if (letter.kind !== 'paragraph') throw new Error('expected a paragraph');
    expect(letter.spaceAfter).toBe(6);
    const red = letter.inlines.find((i) => i.kind === 'text' && i.text === 'red');
    expect(red && 'style' in red && red.style.color).toEqual([1, 0, 0]);
    const table = section.blocks.find((b) => b.kind === 'table');
    if (table?.kind !== 'table') throw new Error('expected a table');
    expect(table.columnWidths).toEqual([100, 100]);
    expect(table.rows[0].cells[1].shading).toEqual([0, 0, 1]);
    expect(table.rows[0].cells[0].borders.top?.width).toBe(0.5);
    const image = section.blocks
      .flatMap((b) => (b.kind === 'paragraph' ? b.inlines : []))
      .find((i) => i.kind === 'image');
    expect(image && image.kind === 'image' && [image.width, image.height, image.mime]).toEqual([72, 36, 'image/png']);
  });

  test('a section break starts a new page unless the next section is continuous (\\sbknone)', async () => {
    const rtf = '{\\rtf1\\ansi One\\par\\sect\\sectd Two\\par\\sect\\sectd\\sbknone Three\\par\\sect}';
    expect(await texts(await convert(wordToPdf, 'sections.rtf', new TextEncoder().encode(rtf)))).toEqual([
      'One',
      'Two Three',
    ]);
  });

  test('damaged RTF still gives what it can, and text without {\\rtf is not RTF', async () => {
    const [page] = await texts(
      await convert(wordToPdf, 'cut.rtf', new TextEncoder().encode('{\\rtf1\\ansi {\\b Cut off in the mid')),
    );
    expect(page).toBe('Cut off in the mid');
    await expect(convert(wordToPdf, 'empty.rtf', new Uint8Array())).rejects.toThrow(/empty/);
  });
});

describe('damaged OpenDocument and RTF files', () => {
  /** Converting must either work or fail with a named, user-facing error — never crash or hang. */
  async function survives(engine: Engine, name: string, bytes: Uint8Array) {
    const outcome = await convert(engine, name, bytes).then(
      () => 'ok',
      (error: unknown) => error,
    );
    if (outcome !== 'ok') {
      expect(isFolioError(outcome), `${name}: ${String(outcome)}`).toBe(true);
      expect((outcome as Error).message).toMatch(/damaged|not a|empty|cannot/);
    }
    return outcome;
  }

  test('truncated packages, malformed XML and cut RTF get a clear message or a best-effort PDF', async () => {
    const packages: Array<[Engine, string, Uint8Array]> = [
      [
        wordToPdf,
        'report.odt',
        await odf(MIME.odt, { content: ODT_CONTENT, styles: ODT_STYLES, files: { 'Pictures/red.png': RED_PNG } }),
      ],
      [excelToPdf, 'budget.ods', await odf(MIME.ods, { content: ODS_CONTENT, styles: ODS_STYLES })],
      [
        pptToPdf,
        'plan.odp',
        await odf(MIME.odp, { content: ODP_CONTENT, styles: ODP_STYLES, files: { 'Pictures/red.png': RED_PNG } }),
      ],
    ];
    for (const [engine, name, bytes] of packages) {
      for (const fraction of [0.1, 0.5, 0.9]) {
        expect(await survives(engine, name, bytes.slice(0, Math.floor(bytes.length * fraction)))).not.toBe('ok');
      }
      const zip = await JSZip.loadAsync(bytes);
      zip.file('content.xml', '<office:document-content><office:body><office:text><text:p>unclosed');
      await survives(engine, name, await zip.generateAsync({ type: 'uint8array' }));
      zip.file('content.xml', 'not xml at all');
      expect(await survives(engine, name, await zip.generateAsync({ type: 'uint8array' }))).not.toBe('ok');
    }
    for (const cut of [6, 40, 200, 700, RTF.length - 3])
      await survives(wordToPdf, 'letter.rtf', new TextEncoder().encode(RTF.slice(0, cut)));
  });
});

// LibreOffice round trip: the same words from the .docx and from LibreOffice's .odt/.rtf of it.
const soffice = ['/usr/bin/soffice', '/usr/local/bin/soffice', '/usr/lib/libreoffice/program/soffice'].find((path) =>
  existsSync(path),
);

describe.skipIf(!soffice)('LibreOffice-made OpenDocument and RTF files (skipped without soffice)', () => {
  function libreOffice(input: { name: string; bytes: Uint8Array }, format: string): Uint8Array {
    const dir = mkdtempSync(join(tmpdir(), 'folio-odf-'));
    try {
      writeFileSync(join(dir, input.name), input.bytes);
      execFileSync(
        soffice!,
        [
          `-env:UserInstallation=file://${dir}/profile`,
          '--headless',
          '--convert-to',
          format,
          '--outdir',
          dir,
          join(dir, input.name),
        ],
        { stdio: 'ignore', timeout: 120_000 },
      );
      return readFileSync(join(dir, input.name.replace(/\.[^.]+$/, `.${format}`)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const words = (pages: string[]) => pages.join(' ').split(/\s+/).filter(Boolean);

  test("a .docx and LibreOffice's .odt and .rtf of it print the same words", async () => {
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Quarterly report')] }),
            new Paragraph({
              children: [
                new TextRun('Revenue grew in every region. '),
                new TextRun({ text: 'Bold words', bold: true }),
                new TextRun(' stay.'),
              ],
            }),
            new Table({
              width: { size: 100, type: WidthType.PERCENTAGE },
              rows: [
                new TableRow({
                  children: [
                    new TableCell({ children: [new Paragraph('Region')] }),
                    new TableCell({ children: [new Paragraph('Sales')] }),
                  ],
                }),
                new TableRow({
                  children: [
                    new TableCell({ children: [new Paragraph('North')] }),
                    new TableCell({ children: [new Paragraph('1,250')] }),
                  ],
                }),
              ],
            }),
            new Paragraph({ text: 'Closing paragraph.', pageBreakBefore: true }),
          ],
        },
      ],
    });
    const bytes = new Uint8Array(await Packer.toBuffer(docx));
    const reference = words(await texts(await convert(wordToPdf, 'report.docx', bytes)));
    expect(reference.join(' ')).toBe(
      'Quarterly report Revenue grew in every region. Bold words stay. Region Sales North 1,250 Closing paragraph.',
    );
    for (const format of ['odt', 'rtf']) {
      const converted = libreOffice({ name: 'report.docx', bytes }, format);
      const result = await convert(wordToPdf, `report.${format}`, converted);
      expect(words(await texts(result)), format).toEqual(reference);
      expect((await PDFDocument.load(result.bytes)).getPageCount(), format).toBe(2);
    }
  }, 180_000);

  test("an .xlsx and LibreOffice's .ods of it print the same cells", async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Budget');
    sheet.addRow(['Item', 'Amount']).font = { bold: true };
    sheet.addRow(['Rent', 1250.5]);
    sheet.getCell('B2').numFmt = '#,##0.00';
    sheet.mergeCells('A4:B4');
    sheet.getCell('A4').value = 'Merged note';
    const bytes = new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
    const reference = await texts(await convert(excelToPdf, 'budget.xlsx', bytes));
    const ods = libreOffice({ name: 'budget.xlsx', bytes }, 'ods');
    expect(await texts(await convert(excelToPdf, 'budget.ods', ods))).toEqual(reference);
  }, 180_000);

  test("a .pptx and LibreOffice's .odp of it print the same words on the same number of pages", async () => {
    const pptx = new PptxGenJS();
    pptx.layout = 'LAYOUT_16x9';
    pptx.addSlide().addText('Launch plan', { x: 0.5, y: 0.5, w: 9, h: 1, fontSize: 36 });
    const two = pptx.addSlide();
    two.addShape(pptx.ShapeType.rect, { x: 1, y: 1, w: 3, h: 1.5, fill: { color: 'FF0000' } });
    two.addText('Second slide text', { x: 1, y: 3, w: 6, h: 1, fontSize: 18 });
    const bytes = new Uint8Array((await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer);
    const reference = await texts(await convert(pptToPdf, 'plan.pptx', bytes));
    const odp = libreOffice({ name: 'plan.pptx', bytes }, 'odp');
    const result = await convert(pptToPdf, 'plan.odp', odp);
    expect(await texts(result)).toEqual(reference);
    const [a, b] = [
      await PDFDocument.load(result.bytes),
      await PDFDocument.load((await convert(pptToPdf, 'plan.pptx', bytes)).bytes),
    ];
    expect(a.getPage(0).getWidth()).toBeCloseTo(b.getPage(0).getWidth(), 0);
  }, 180_000);
});
