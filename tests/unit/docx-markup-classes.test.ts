/**
 * Word markup that real documents use and Word → PDF used to drop or misplace, each reproduced in a
 * generated document (docx, with the body written by hand as Word writes it): positional tabs
 * (w:ptab) in a three-part header line, table rows and cells wrapped in content controls (w:sdt),
 * text moved by a tracked change (w:moveTo), phonetic guides (w:ruby) and embedded objects
 * (w:object, with a note when it has no preview picture); lists of one abstract list that
 * continue each other's numbers, with their own level formats (w:lvlOverride) or a restart
 * (w:startOverride).
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { Document, Header, Packer, Paragraph, TextRun } from 'docx';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { convert, texts } from '../support/office-pdf-helpers.ts';

const PAGE_WIDTH = 612; // Letter with 1 in margins, as the documents below are set up
const MARGIN = 72;

/** A generated .docx whose body is `body` (WordprocessingML), with `parts` added to the package. */
async function docxWithBody(body: string, parts: Record<string, string | Uint8Array> = {}): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(
    await Packer.toBuffer(
      new Document({
        sections: [
          {
            properties: { page: { size: { width: 12240, height: 15840 }, margin: { left: 1440, right: 1440 } } },
            children: [new Paragraph('x')],
          },
        ],
      }),
    ),
  );
  const xml = await zip.file('word/document.xml')!.async('string');
  zip.file('word/document.xml', xml.replace(/<w:body>.*?(<w:sectPr)/s, `<w:body>${body}$1`));
  for (const [path, data] of Object.entries(parts)) zip.file(path, data);
  return zip.generateAsync({ type: 'uint8array' });
}

async function positions(bytes: Uint8Array): Promise<Array<{ str: string; x: number; width: number }>> {
  const doc = await openPdfjs(bytes);
  const items = (await (await doc.getPage(1)).getTextContent()).items as Array<{
    str: string;
    transform: number[];
    width: number;
  }>;
  await doc.destroy();
  return items.filter((i) => i.str.trim()).map((i) => ({ str: i.str, x: i.transform[4], width: i.width }));
}

const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const cell = (text: string) => `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr><w:p>${run(text)}</w:p></w:tc>`;

describe('Word markup classes', () => {
  test('positional tabs put a line in three parts: left, centred and right-aligned in the text column', async () => {
    // No tab stops: only the w:ptab alignment says where each part goes.
    const ptab = (alignment: string) =>
      `<w:r><w:ptab w:relativeTo="margin" w:alignment="${alignment}" w:leader="none"/></w:r>`;
    const bytes = await docxWithBody(
      `<w:p>${run('Left part')}${ptab('center')}${run('Mid')}${ptab('right')}${run('Right part')}</w:p>`,
    );
    const result = await convert(wordToPdf, 'ptab.docx', bytes);
    const items = await positions(result.bytes);
    const at = (text: string) => items.find((i) => i.str.includes(text))!;
    expect(at('Left part').x).toBeCloseTo(MARGIN, 0);
    const mid = at('Mid');
    expect(mid.x + mid.width / 2).toBeCloseTo(PAGE_WIDTH / 2, 0);
    const right = at('Right part');
    expect(right.x + right.width).toBeCloseTo(PAGE_WIDTH - MARGIN, 0);
  });

  test('rows and cells inside content controls keep their place in the table', async () => {
    const sdt = (content: string) =>
      `<w:sdt><w:sdtPr><w:id w:val="1"/><w:showingPlcHdr/><w:dropDownList><w:listItem w:value="Choose an item."/>` +
      `</w:dropDownList></w:sdtPr><w:sdtEndPr/><w:sdtContent>${content}</w:sdtContent></w:sdt>`;
    const table =
      `<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/>` +
      `<w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>` +
      `<w:tr>${cell('Head A')}${cell('Head B')}${cell('Head C')}</w:tr>` +
      // A repeating-section row (content controls nested three deep), its first cell a drop-down.
      sdt(sdt(sdt(`<w:tr>${sdt(cell('Choose an item.'))}${cell('Middle one')}${cell('Last one')}</w:tr>`))) +
      `<w:tr>${cell('Foot A')}${cell('Foot B')}${cell('Foot C')}</w:tr></w:tbl>`;
    const result = await convert(wordToPdf, 'sdt.docx', await docxWithBody(`${table}<w:p/>`));
    expect((await texts(result))[0]).toBe(
      'Head A Head B Head C Choose an item. Middle one Last one Foot A Foot B Foot C',
    );
  });

  test('text moved by a tracked change is printed where it was moved to, not where it came from', async () => {
    const body =
      `<w:p>${run('Before ')}<w:moveTo w:id="1" w:author="A">${run('moved words')}</w:moveTo>${run(' after.')}</w:p>` +
      `<w:p><w:moveFrom w:id="2" w:author="A">${run('old place')}</w:moveFrom>${run('Second paragraph.')}</w:p>`;
    const result = await convert(wordToPdf, 'move.docx', await docxWithBody(body));
    expect((await texts(result))[0]).toBe('Before moved words after. Second paragraph.');
  });

  test('ruby: the base text and its guide are printed, without a note (placement: docx-ruby.test.ts)', async () => {
    const ruby =
      `<w:r><w:ruby><w:rubyPr><w:hps w:val="11"/><w:hpsRaise w:val="20"/><w:hpsBaseText w:val="22"/></w:rubyPr>` +
      `<w:rt>${run('guide')}</w:rt><w:rubyBase>${run('Base')}</w:rubyBase></w:ruby></w:r>`;
    const result = await convert(
      wordToPdf,
      'ruby.docx',
      await docxWithBody(`<w:p>${run('A ')}${ruby}${run(' word.')}</w:p>`),
    );
    const [text] = await texts(result);
    expect(text).toMatch(/^A .*Base word\.$/);
    expect(text).toContain('guide');
    expect(result.notes?.join(' ') ?? '').not.toContain('ruby');
  });

  test('a style without an id is found by its name (Reporting Services writes its empty-cell style so)', async () => {
    const bytes = await docxWithBody(
      `<w:p>${run('Same words')}</w:p><w:p><w:pPr><w:pStyle w:val="EmptyCellLayoutStyle"/></w:pPr>${run('Same words')}</w:p>`,
    );
    const zip = await JSZip.loadAsync(bytes);
    const styles = await zip.file('word/styles.xml')!.async('string');
    const nameless =
      '<w:style><w:name w:val="EmptyCellLayoutStyle"/><w:basedOn w:val="Normal"/><w:rPr><w:sz w:val="2"/></w:rPr></w:style>';
    zip.file('word/styles.xml', styles.replace('</w:styles>', `${nameless}</w:styles>`));
    const result = await convert(wordToPdf, 'nameless.docx', await zip.generateAsync({ type: 'uint8array' }));
    const [normal, tiny] = await positions(result.bytes);
    // 1 pt text (w:sz 2): about a tenth as wide as the same words at the normal size. Before: the same width.
    expect(tiny.width).toBeLessThan(normal.width / 5);
  });

  test('an embedded object prints its preview picture; without one, the note says it was left out', async () => {
    const png = Uint8Array.from(
      atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC'),
      (c) => c.charCodeAt(0),
    );
    const object = (imagedata: string) =>
      `<w:p><w:r><w:object w:dxaOrig="2000" w:dyaOrig="1000"><v:shape id="o1" style="width:100pt;height:50pt">` +
      `${imagedata}</v:shape><o:OLEObject Type="Embed" ProgID="Excel.Sheet.12" ShapeID="o1" r:id="rIdOle"/>` +
      `</w:object></w:r></w:p>`;
    const rels = (extra: string) =>
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `${extra}</Relationships>`;
    const withPreview = await docxWithBody(`${object('<v:imagedata r:id="rIdPreview"/>')}<w:p>${run('End.')}</w:p>`, {
      'word/media/preview.png': png,
      'word/_rels/document.xml.rels': rels(
        '<Relationship Id="rIdPreview" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/preview.png"/>',
      ),
    });
    const shown = await convert(wordToPdf, 'object.docx', withPreview);
    expect(shown.notes?.join(' ') ?? '').not.toContain('embedded objects');
    expect(Buffer.from(shown.bytes).toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
    const withoutPreview = await docxWithBody(`${object('')}<w:p>${run('End.')}</w:p>`);
    const missing = await convert(wordToPdf, 'object.docx', withoutPreview);
    expect((await texts(missing))[0]).toBe('End.');
    expect(missing.notes?.join(' ')).toContain('embedded objects without a preview picture were left out');
  });
  test('lists of one abstract list count on together; a level override changes the format, a start override restarts', async () => {
    const level = (format: string, extra = '') =>
      `<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="${format}"/><w:lvlText w:val="%1."/>` +
      `<w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr>${extra}</w:lvl>`;
    const numbering =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
      `<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
      `<w:abstractNum w:abstractNumId="0">${level('decimal')}</w:abstractNum>` +
      `<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>` +
      `<w:num w:numId="2"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0">${level('upperLetter')}</w:lvlOverride></w:num>` +
      `<w:num w:numId="3"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>` +
      `</w:numbering>`;
    const item = (numId: number, text: string) =>
      `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="${numId}"/></w:numPr></w:pPr>${run(text)}</w:p>`;
    const body = [item(1, 'one'), item(2, 'two'), item(2, 'three'), item(3, 'again'), item(1, 'four')].join('');
    const result = await convert(
      wordToPdf,
      'lists.docx',
      await docxWithBody(body, { 'word/numbering.xml': numbering }),
    );
    expect((await texts(result))[0]).toBe('1. one B. two C. three 1. again 4. four');
  });
  test('list bullets in an ordinary font print as written; symbol-font codes as the character the font draws', async () => {
    // Google Docs writes ●, ○ and ■ with no font; Word's second level is "o" in Courier New. Word and
    // LibreOffice print those characters; Wingdings' "§" is a small square, Symbol's U+F0B7 a bullet.
    const level = (ilvl: number, text: string, font?: string) =>
      `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="${text}"/>` +
      `<w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${720 * (ilvl + 1)}" w:hanging="360"/></w:pPr>` +
      (font ? `<w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}" w:hint="default"/></w:rPr>` : '') +
      `</w:lvl>`;
    const levels = [
      level(0, '●'),
      level(1, '○'),
      level(2, '■'),
      level(3, 'o', 'Courier New'),
      level(4, '§', 'Wingdings'),
      level(5, '\uf0b7', 'Symbol'),
    ];
    const numbering =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
      `<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
      `<w:abstractNum w:abstractNumId="0">${levels.join('')}</w:abstractNum>` +
      `<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
    const item = (ilvl: number, text: string) =>
      `<w:p><w:pPr><w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="1"/></w:numPr></w:pPr>${run(text)}</w:p>`;
    const body = ['one', 'two', 'three', 'four', 'five', 'six'].map((text, i) => item(i, text)).join('');
    const result = await convert(
      wordToPdf,
      'bullets.docx',
      await docxWithBody(body, { 'word/numbering.xml': numbering }),
    );
    expect((await texts(result))[0]).toBe('● one ○ two ■ three o four ▪ five • six');
  });
  test('a table of a Word 2010 document stands out by its cell margin, so cell text lines up with body text', async () => {
    // Word 2010's default table: five 1915-twip columns, the 6.5 in text column plus both 0.075 in
    // cell margins. LibreOffice 7.4 prints this document's cell texts at x = 72.1 … 455.1 (mode 14:
    // the table outdented, not shrunk) and from 77.8 (mode 15: the table's edge at the margin).
    const settings = (mode: number) =>
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
      `<w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:compat>` +
      `<w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="${mode}"/>` +
      `</w:compat></w:settings>`;
    const cells = [0, 1, 2, 3, 4]
      .map((i) => `<w:tc><w:tcPr><w:tcW w:w="1915" w:type="dxa"/></w:tcPr><w:p>${run(`C${i}`)}</w:p></w:tc>`)
      .join('');
    const body =
      `<w:p>${run('Body')}</w:p><w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>` +
      `${'<w:gridCol w:w="1915"/>'.repeat(5)}</w:tblGrid><w:tr>${cells}</w:tr></w:tbl><w:p/>`;
    const cellX = async (mode: number) => {
      const bytes = await docxWithBody(body, { 'word/settings.xml': settings(mode) });
      const items = await positions((await convert(wordToPdf, 'table.docx', bytes)).bytes);
      return ['Body', 'C0', 'C4'].map((text) => items.find((i) => i.str === text)!.x);
    };
    const [body14, first14, last14] = await cellX(14);
    expect(body14).toBeCloseTo(MARGIN, 1);
    expect(first14).toBeCloseTo(MARGIN, 1);
    expect(last14).toBeCloseTo(MARGIN + 4 * 95.75, 1);
    // (Folio shrinks this one to the text column where LibreOffice lets it run into the right margin.)
    const [, first15] = await cellX(15);
    expect(first15).toBeCloseTo(MARGIN + 5.4, 1);
  });
  test('a header taller than the top margin pushes the body down below it', async () => {
    // A form's layout: a 0.1 in top margin, the header at the page's edge, two header lines. LibreOffice
    // 7.4 prints this document's body line 11.5 pt below the second header line (pdftotext -bbox).
    const doc = new Document({
      sections: [
        {
          properties: {
            page: {
              size: { width: 12240, height: 15840 },
              margin: { top: 144, bottom: 1440, left: 1440, right: 1440, header: 0 },
            },
          },
          headers: {
            default: new Header({
              children: [
                new Paragraph({ children: [new TextRun({ text: 'Title bar', size: 48 })] }),
                new Paragraph('Second header line'),
              ],
            }),
          },
          children: [new Paragraph('Body text')],
        },
      ],
    });
    const result = await convert(wordToPdf, 'header.docx', await Packer.toBuffer(doc));
    const pdf = await openPdfjs(result.bytes);
    const items = (await (await pdf.getPage(1)).getTextContent()).items as Array<{ str: string; transform: number[] }>;
    await pdf.destroy();
    const baseline = (text: string) => items.find((i) => i.str.startsWith(text))!.transform[5];
    // PDF y grows upwards: the body's baseline is a line or more below the header's last one.
    expect(baseline('Second header line') - baseline('Body text')).toBeGreaterThanOrEqual(11);
  });
});
