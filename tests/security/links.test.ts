/**
 * Issue #16 item 1: a link target can never become PDF syntax. Every link source of the Office
 * engines — Word relationship hyperlinks and HYPERLINK fields, Excel hyperlink cells and HYPERLINK
 * formulas, PowerPoint hlinkClick, OpenDocument text:a — is fed targets that try to close the string
 * and add keys (`)`, `(`, `\`, `/S/JavaScript`, `/S/Launch`), a NUL and non-ASCII text. qpdf must
 * then see exactly one /S /URI action per allowed link, with the target the URL parser made of it,
 * and no other action.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import { allowedLinkTarget } from '../../workers/engine/lib/pdf/pdf-links.ts';
import type { Engine } from '../../workers/engine/lib/types.ts';
import { expectOnlyAllowedActions } from '../support/pdf-actions.ts';

/** Targets written to break out of a PDF string, each allowed by scheme (so each must become one link). */
const HOSTILE_ALLOWED = [
  'https://x.test/)/S/JavaScript/JS(app.alert(1)',
  'mailto:a@b.test)/S/Launch/F(calc.exe',
  'https://x.test/a\\',
  'https://x.test/(nested(\\))',
  'https://x.test/nul\u0000x',
  'https://пример.test/путь?q=ü',
  'tel:+1(555)0100',
];
/** Targets that must not become links at all. */
const REFUSED = [
  'javascript:app.alert(1)',
  'file:///etc/passwd',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'report.docx',
];

/** What each allowed target must come out as: the WHATWG URL serialisation. */
const EXPECTED_URIS = HOSTILE_ALLOWED.map((target) => new URL(target).href).sort();

const xml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // XML 1.0 cannot hold NUL even as a reference: Office writes such characters as _x0000_; here the
    // percent form stands for it (the URL parser makes the same of a raw NUL).
    .replaceAll('\u0000', '%00');

async function run(engine: Engine, name: string, bytes: Uint8Array | ArrayBuffer) {
  const result = await engine([{ name, bytes: new Uint8Array(bytes) }], {}, {});
  expect(result.mime).toBe('application/pdf');
  return result.bytes;
}

/** Checks the PDF with qpdf: one URI action per allowed target, the parser's form of it, nothing else. */
function expectExactlyTheAllowedLinks(bytes: Uint8Array, expected: string[]) {
  const { actions } = expectOnlyAllowedActions(bytes);
  expect(actions.every((a) => a.type === 'URI')).toBe(true);
  expect(actions.map((a) => a.uri).sort()).toEqual([...expected].sort());
}

async function docx(paragraphs: string[], relationships: string[]): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/_rels/document.xml.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      relationships
        .map(
          (target, i) =>
            `<Relationship Id="rLink` +
            `${i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" ` +
            `Target="${xml(target)}" TargetMode="External"/>`,
        )
        .join('') +
      '</Relationships>',
  );
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>' +
      paragraphs.join('') +
      '<w:sectPr/></w:body></w:document>',
  );
  return zip.generateAsync({ type: 'uint8array' });
}

const relationshipLink = (i: number) =>
  `<w:p><w:hyperlink r:id="rLink${i}"><w:r><w:t>Relationship link ${i}</w:t></w:r></w:hyperlink></w:p>`;
const fieldLink = (target: string, i: number) =>
  `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK ` +
  `"${xml(target)}" </w:instrText></w:r>` +
  (`<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Field link ${i}</w:t></w:r><w:r><w:fldChar ` +
    `w:fldCharType="end"/></w:r></w:p>`);

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';

async function odt(targets: string[]): Promise<Uint8Array> {
  const mimetype = 'application/vnd.oasis.opendocument.text';
  const zip = new JSZip();
  zip.file('mimetype', mimetype, { compression: 'STORE' });
  zip.file(
    'META-INF/manifest.xml',
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest ' +
      'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
      `<manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/>` +
      ('<manifest:file-entry manifest:full-path="content.xml" ' +
        'manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="styles.xml" ' +
        'manifest:media-type="text/xml"/>') +
      '</manifest:manifest>',
  );
  zip.file(
    'styles.xml',
    `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${ODF_NS} office:version="1.3"/>`,
  );
  zip.file(
    'content.xml',
    `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS} ` +
      `office:version="1.3"><office:body><office:text>` +
      targets
        .map(
          (target, i) =>
            `<text:p><text:a xlink:type="simple" xlink:href="${xml(target)}">OpenDocument link ${i}</text:a></text:p>`,
        )
        .join('') +
      '</office:text></office:body></office:document-content>',
  );
  return zip.generateAsync({ type: 'uint8array' });
}

describe('link targets never become PDF syntax', () => {
  test('the allow-list: web, mail and phone only, as the URL parser writes them', () => {
    for (const target of REFUSED) expect(allowedLinkTarget(target), target).toBeUndefined();
    expect(allowedLinkTarget('HTTPS://Example.ORG/a b')).toBe('https://example.org/a%20b');
    expect(allowedLinkTarget('https://x.test/)/S/JavaScript')).toBe('https://x.test/)/S/JavaScript');
    expect(allowedLinkTarget('https:')).toBeUndefined();
  });

  test('Word: relationship hyperlinks and HYPERLINK fields', async () => {
    const targets = [...HOSTILE_ALLOWED, ...REFUSED];
    const bytes = await docx([...targets.map((_, i) => relationshipLink(i)), ...targets.map(fieldLink)], targets);
    const pdf = await run(wordToPdf, 'links.docx', bytes);
    // Both sources, so every allowed target twice.
    expectExactlyTheAllowedLinks(pdf, [...EXPECTED_URIS, ...EXPECTED_URIS]);
  });

  test('Excel: hyperlink cells and HYPERLINK formulas', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Links');
    [...HOSTILE_ALLOWED, ...REFUSED].forEach((target, i) => {
      sheet.getCell(i + 1, 1).value = { text: `Cell link ${i}`, hyperlink: target };
      const quoted = target.replace(/"/g, '""');
      sheet.getCell(i + 1, 2).value = {
        formula: `HYPERLINK("${quoted}","Formula link ${i}")`,
        result: `Formula link ${i}`,
      };
    });
    const pdf = await run(excelToPdf, 'links.xlsx', await workbook.xlsx.writeBuffer());
    // ExcelJS leaves NUL characters out when it writes the workbook: the file holds "nulx".
    const written = HOSTILE_ALLOWED.map((target) => new URL(target.replaceAll('\u0000', '')).href);
    expectExactlyTheAllowedLinks(pdf, [...written, ...written]);
  });

  test('PowerPoint: hlinkClick on text runs', async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    [...HOSTILE_ALLOWED, ...REFUSED].forEach((target, i) => {
      slide.addText([{ text: `Slide link ${i}`, options: { hyperlink: { url: target } } }], {
        x: 0.5,
        y: 0.3 + i * 0.4,
        w: 6,
        h: 0.4,
        fontSize: 12,
      });
    });
    const pdf = await run(pptToPdf, 'links.pptx', (await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer);
    expectExactlyTheAllowedLinks(pdf, EXPECTED_URIS);
  });

  test('OpenDocument: text:a', async () => {
    const pdf = await run(wordToPdf, 'links.odt', await odt([...HOSTILE_ALLOWED, ...REFUSED]));
    expectExactlyTheAllowedLinks(pdf, EXPECTED_URIS);
  });
});
