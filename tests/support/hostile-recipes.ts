/**
 * Hostile and extreme inputs, built in code (issue #21): each recipe returns the bytes of a file
 * crafted to hurt a reader — loops in object graphs, decompression bombs, huge declared sizes,
 * deep or huge XML — so the suite never depends on stored samples. The bombs are made without
 * inflating anything: their deflate data is written directly (a run of back-references), so a
 * 4 GB bomb costs a few MB and milliseconds to build.
 */
import { constants as zlibConstants, deflateRawSync, deflateSync } from 'node:zlib';
import JSZip from 'jszip';

const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** An object body: a dictionary/array text, or a stream (its dictionary gets /Length added). */
export type RawObject = string | { dict: string; data: Uint8Array };

/**
 * A PDF written object by object (object i+1 is objects[i]), with a correct xref table, so the
 * damage is only what the recipe puts in. Root is object 1.
 */
export function rawPdf(objects: RawObject[], trailerExtra = ''): Uint8Array {
  const parts: Uint8Array[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let offset = parts[0].byteLength;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(offset);
    const body =
      typeof object === 'string'
        ? [latin1(`${i + 1} 0 obj\n${object}\nendobj\n`)]
        : [
            latin1(`${i + 1} 0 obj\n<< ${object.dict} /Length ${object.data.byteLength} >>\nstream\n`),
            object.data,
            latin1('\nendstream\nendobj\n'),
          ];
    for (const part of body) {
      parts.push(part);
      offset += part.byteLength;
    }
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ];
  parts.push(
    latin1(
      `${xref.join('')}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ` +
        `${trailerExtra}>>\nstartxref\n${offset}\n%%EOF\n`,
    ),
  );
  return concat(parts);
}

const textContent = (label: string) => ({ dict: '', data: latin1(`BT /F1 24 Tf 72 700 Td (${label}) Tj ET`) });
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const pageDict = (parent: number, contents: number, extra = '') =>
  `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font ` +
  `<< /F1 5 0 R >> >> ${extra}>>`;

/** A one-page PDF whose page's /Parent is the page itself, and the tree node's /Parent is the page. */
export function parentLoopPdf(): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 3 0 R >>',
    // No /MediaBox of its own: readers climb /Parent to inherit it, round and round.
    '<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    textContent('Parent loop'),
    FONT,
  ]);
}

/** A page tree node that lists itself among its kids. */
export function kidsLoopPdf(): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>',
    pageDict(2, 4),
    textContent('Kids loop'),
    FONT,
  ]);
}

/** A page tree whose /Count is negative. */
export function negativeCountPdf(): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count -5 >>',
    pageDict(2, 4),
    textContent('Negative count'),
    FONT,
  ]);
}

/** Bookmarks whose /Next leads back to the first, and whose child is its own parent. */
export function outlineLoopPdf(): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R /Names << /Dests 9 0 R >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    pageDict(2, 4),
    textContent('Outline loop'),
    FONT,
    '<< /Type /Outlines /First 7 0 R /Last 8 0 R /Count 2 >>',
    '<< /Title (One) /Parent 6 0 R /Next 8 0 R /First 7 0 R /Last 7 0 R /Count 1 /Dest [3 0 R /Fit] >>',
    '<< /Title (Two) /Parent 6 0 R /Prev 7 0 R /Next 7 0 R /Dest [3 0 R /Fit] >>',
    // A name tree whose node lists itself among its kids.
    '<< /Kids [9 0 R] >>',
  ]);
}

/** A form XObject that draws itself (and a second pair that draw each other). */
export function xobjectLoopPdf(): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> ' +
      '/XObject << /X 6 0 R /Y 7 0 R >> >> >>',
    { dict: '', data: latin1('BT /F1 24 Tf 72 700 Td (XObject loop) Tj ET /X Do /Y Do') },
    FONT,
    {
      dict: '/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X 6 0 R >> >>',
      data: latin1('0 0 m 10 10 l S /X Do'),
    },
    {
      dict: '/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /Z 8 0 R >> >>',
      data: latin1('/Z Do'),
    },
    {
      dict: '/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /Y 7 0 R >> >>',
      data: latin1('/Y Do'),
    },
  ]);
}

/**
 * zlib data inflating to `bytes` zero bytes (rounded up to whole MiB), built without inflating: one
 * MiB of zeros deflated with a full flush (byte-aligned, no reference across the flush) is a block
 * sequence that can be repeated as is, then closed by an empty final block.
 */
export function zlibZeros(bytes: number): Uint8Array {
  return zlibRepeated(new Uint8Array(1 << 20), Math.ceil(bytes / (1 << 20)));
}

/** zlib data inflating to `chunk` repeated `times` times, with its Adler-32 when `chunk` is all zeros. */
export function zlibRepeated(chunk: Uint8Array, times: number): Uint8Array {
  const raw = rawDeflateRepeated(chunk, times);
  const out = new Uint8Array(2 + raw.byteLength + 4);
  out[0] = 0x78;
  out[1] = 0x9c;
  out.set(raw, 2);
  if (chunk.every((b) => b === 0)) {
    // Adler-32 of n zero bytes: a = 1, b = n mod 65521.
    const b = (chunk.byteLength * times) % 65521;
    new DataView(out.buffer).setUint32(out.byteLength - 4, (b << 16) | 1);
  }
  return out;
}

/** Raw deflate data (as in a ZIP entry) inflating to `chunk` repeated `times` times. */
export function rawDeflateRepeated(chunk: Uint8Array, times: number): Uint8Array {
  const block = deflateRawSync(chunk, { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
  const out = new Uint8Array(block.byteLength * times + 2);
  for (let i = 0; i < times; i++) out.set(block, i * block.byteLength);
  // An empty final block with fixed codes: BFINAL=1, BTYPE=01, end-of-block — bits 1,1,0 + 7 zeros.
  out.set([0x03, 0x00], block.byteLength * times);
  return out;
}

/**
 * A page whose content stream inflates to `gigabytes` GB (one deflate layer inside another); with
 * `junk`, bytes follow the inner data's end (strict decoders fail there, tolerant readers do not).
 */
export function contentBombPdf(gigabytes: number, { junk = false } = {}): Uint8Array {
  const zeros = zlibZeros(gigabytes * 2 ** 30);
  const inner = junk ? concat([zeros, latin1('junk')]) : zeros;
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    pageDict(2, 4),
    { dict: '/Filter [/FlateDecode /FlateDecode]', data: deflateSync(inner) },
    FONT,
  ]);
}

export type Cipher = 'RC4' | 'AES-128' | 'AES-256';

/**
 * `pdf` encrypted with user password `password` by qpdf (the WASM build Folio runs), its streams
 * enciphered as they are (`--stream-data=preserve`: qpdf would otherwise inflate and recompress a
 * bomb's layers while writing it).
 */
export async function encryptedPdf(pdf: Uint8Array, cipher: Cipher, password: string): Promise<Uint8Array> {
  const { runQpdf } = await import('../../workers/engine/lib/pdf/qpdf.ts');
  const how = { RC4: ['128', '--use-aes=n'], 'AES-128': ['128', '--use-aes=y'], 'AES-256': ['256'] }[cipher];
  const args = [
    '--allow-weak-crypto',
    '/in.pdf',
    '--encrypt',
    password,
    `${password}-owner`,
    ...how,
    '--',
    '--stream-data=preserve',
    '/out.pdf',
  ];
  const result = await runQpdf(args, { inputs: { '/in.pdf': pdf }, outputs: ['/out.pdf'] });
  if (result.exitCode !== 0) throw new Error(`qpdf could not encrypt the recipe: ${result.stderr}`);
  return result.files['/out.pdf'];
}

/** A page tree node whose only kid is itself: no page anywhere to rebuild a tree from. */
export function kidsLoopWithoutPagesPdf(): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [2 0 R] /Count 1 >>',
    textContent('Nothing'),
    FONT,
  ]);
}

/** A normal page plus `count` unused streams each inflating to `gigabytes` GB. */
export function unusedBombsPdf(count: number, gigabytes: number): Uint8Array {
  const outer = deflateSync(zlibZeros(gigabytes * 2 ** 30));
  const bombs = Array.from({ length: count }, () => ({ dict: '/Filter [/FlateDecode /FlateDecode]', data: outer }));
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    pageDict(2, 4),
    textContent('Unused bombs'),
    FONT,
    ...bombs,
  ]);
}

/** A page showing one DeviceGray image of width × height (8-bit, deflated zeros: small on disk). */
export function hugeImagePdf(width: number, height: number): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im 5 0 R >> >> >>',
    { dict: '', data: latin1('q 612 0 0 792 0 0 cm /Im Do Q') },
    {
      dict:
        `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray ` +
        `/BitsPerComponent 8 /Filter /FlateDecode`,
      data: deflateSync(new Uint8Array(Math.min(width * height, 1 << 20))),
    },
  ]);
}

/** An n-page PDF with one short text line per page (shared font and resources), written directly. */
export function manyPagesPdf(pageCount: number): Uint8Array {
  const objects: RawObject[] = ['<< /Type /Catalog /Pages 2 0 R >>', '', FONT];
  const kids: string[] = [];
  for (let i = 0; i < pageCount; i++) {
    const page = objects.length + 1;
    kids.push(`${page} 0 R`);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /Contents ${page + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
      textContent(`Page ${i + 1}`),
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pageCount} /MediaBox [0 0 612 792] >>`;
  return rawPdf(objects);
}

// ---------------------------------------------------------------------------------------------
// Office files

const CONTENT_TYPES_DOCX = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const ROOT_RELS_DOCX = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** A .docx whose document.xml is given (as text, or as raw deflate bytes for bombs). */
async function docx(documentXml: string | Uint8Array): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', CONTENT_TYPES_DOCX);
  zip.file('_rels/.rels', ROOT_RELS_DOCX);
  zip.file('word/document.xml', documentXml);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** One ZIP entry: stored bytes, or raw deflate data with the size it inflates to. */
interface RawZipEntry {
  name: string;
  data: Uint8Array;
  deflated?: { size: number };
}

/**
 * A ZIP written entry by entry, for entries jszip would have to build in memory first. The CRC-32
 * fields are zero (readers that check them would have inflated the entry already).
 */
export function rawZip(entries: RawZipEntry[]): Uint8Array {
  const local: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = new TextEncoder().encode(entry.name);
    const size = entry.deflated ? entry.deflated.size : entry.data.byteLength;
    const header = new DataView(new ArrayBuffer(30));
    header.setUint32(0, 0x04034b50, true);
    header.setUint16(4, 20, true);
    header.setUint16(8, entry.deflated ? 8 : 0, true);
    header.setUint32(18, entry.data.byteLength, true);
    header.setUint32(22, size, true);
    header.setUint16(26, name.byteLength, true);
    const record = new DataView(new ArrayBuffer(46));
    record.setUint32(0, 0x02014b50, true);
    record.setUint16(4, 20, true);
    record.setUint16(6, 20, true);
    record.setUint16(10, entry.deflated ? 8 : 0, true);
    record.setUint32(20, entry.data.byteLength, true);
    record.setUint32(24, size, true);
    record.setUint16(28, name.byteLength, true);
    record.setUint32(42, offset, true);
    local.push(new Uint8Array(header.buffer), name, entry.data);
    central.push(new Uint8Array(record.buffer), name);
    offset += 30 + name.byteLength + entry.data.byteLength;
  }
  const directory = concat(central);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, directory.byteLength, true);
  end.setUint32(16, offset, true);
  return concat([...local, directory, new Uint8Array(end.buffer)]);
}

/**
 * A .docx whose document.xml holds `millions` × 1,000,000 empty paragraphs (60 M: 360 MB of XML
 * from a file of well under a megabyte), written as deflate data repeated, never as text.
 */
export function manyParagraphsDocx(millions: number): Uint8Array {
  const head = latin1(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>`);
  const tail = latin1('</w:body></w:document>');
  const unit = latin1('<w:p/>'.repeat(1_000_000));
  const flush = { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH };
  const body = rawDeflateRepeated(unit, millions).subarray(0, -2);
  const data = concat([deflateRawSync(head, flush), body, deflateRawSync(tail)]);
  return rawZip([
    { name: '[Content_Types].xml', data: latin1(CONTENT_TYPES_DOCX) },
    { name: '_rels/.rels', data: latin1(ROOT_RELS_DOCX) },
    {
      name: 'word/document.xml',
      data,
      deflated: { size: head.byteLength + unit.byteLength * millions + tail.byteLength },
    },
  ]);
}

/** A .docx with paragraphs nested `depth` levels deep in tables (XML depth). */
export async function deepXmlDocx(depth: number): Promise<Uint8Array> {
  const open = '<w:tbl><w:tr><w:tc>'.repeat(depth);
  const close = '<w:p/></w:tc></w:tr></w:tbl>'.repeat(depth);
  return docx(
    `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${open}${close}<w:p/></w:body></w:document>`,
  );
}

/** A .docx that declares an external entity (XXE) and a billion-laughs entity expansion. */
export async function xxeDocx(): Promise<Uint8Array> {
  const laughs = [
    '<!ENTITY l0 "lol">',
    ...Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`),
  ].join('');
  return docx(
    `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">${laughs}]>` +
      `<w:document ${W}><w:body><w:p><w:r><w:t>&xxe;&l9;</w:t></w:r></w:p></w:body></w:document>`,
  );
}

/** A .docx with one paragraph of `length` characters. */
export async function longTextDocx(length: number): Promise<Uint8Array> {
  return docx(
    `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body><w:p><w:r><w:t>` +
      `${'A'.repeat(length)}</w:t></w:r></w:p></w:body></w:document>`,
  );
}

/**
 * An .xlsx whose sheet declares the dimension A1:XFD1048576 (17 billion cells); with `farCell` it
 * also holds a value in XFD1048576, so its used range really is that large.
 */
export async function hugeDimensionXlsx(farCell: boolean): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
  );
  zip.file(
    'xl/worksheets/sheet1.xml',
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:XFD1048576"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Hello</t></is></c></row>${farCell ? '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>Far away</t></is></c></row>' : ''}</sheetData></worksheet>`,
  );
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** A CSV of `rows` short rows. */
export function manyRowsCsv(rows: number): Uint8Array {
  return latin1(Array.from({ length: rows }, (_, i) => `${i + 1},row ${i + 1},${(i * 1.5).toFixed(1)}`).join('\n'));
}

/** A CSV whose single line is `length` characters long. */
export function longLineCsv(length: number): Uint8Array {
  return latin1(`${'x'.repeat(length)}\n1,2,3`);
}
