/**
 * Small EMF and WMF writers for tests: each record written with a DataView, as MS-EMF and MS-WMF lay
 * them out, so generated pictures exercise the renderer of workers/engine/lib/office-to-pdf/metafile/.
 */

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** A bottom-up 24-bit DIB (BITMAPINFOHEADER + rows) whose pixel (x, y from the top) is `color(x, y)`. */
export function dib24(width: number, height: number, color: (x: number, y: number) => [number, number, number]) {
  const stride = Math.ceil((width * 3) / 4) * 4;
  const bytes = new Uint8Array(40 + stride * height);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 40, true);
  view.setInt32(4, width, true);
  view.setInt32(8, height, true);
  view.setUint16(12, 1, true);
  view.setUint16(14, 24, true);
  view.setUint32(20, stride * height, true);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [r, g, b] = color(x, y);
      bytes.set([b, g, r], 40 + (height - 1 - y) * stride + x * 3);
    }
  return { info: bytes.subarray(0, 40), bits: bytes.subarray(40), all: bytes };
}

export const EMF = {
  SETWINDOWEXTEX: 9,
  SETWINDOWORGEX: 10,
  SETVIEWPORTEXTEX: 11,
  SETVIEWPORTORGEX: 12,
  SETMAPMODE: 17,
  SETBKMODE: 18,
  SETTEXTALIGN: 22,
  SETTEXTCOLOR: 24,
  SAVEDC: 33,
  RESTOREDC: 34,
  SELECTOBJECT: 37,
  CREATEPEN: 38,
  CREATEBRUSHINDIRECT: 39,
  DELETEOBJECT: 40,
  RECTANGLE: 43,
} as const;

export const NULL_PEN = 0x80000008;
export const colorRef = (r: number, g: number, b: number) => r | (g << 8) | (b << 16);

/** An EMF: a frame in millimetres on a reference device of `devicePx` pixels per `deviceMm` millimetres. */
export class EmfWriter {
  private readonly records: Uint8Array[] = [];
  constructor(
    private readonly frameMm: [number, number],
    private readonly devicePx: [number, number] = [1000, 1000],
    private readonly deviceMm: [number, number] = [100, 100],
  ) {}

  /** A record of `type` whose body (after type and size) is written by `fill` into `bodySize` bytes. */
  raw(type: number, bodySize: number, fill: (view: DataView, bytes: Uint8Array) => void = () => {}): this {
    const size = 8 + Math.ceil(bodySize / 4) * 4;
    const bytes = new Uint8Array(size);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, type, true);
    view.setUint32(4, size, true);
    fill(new DataView(bytes.buffer, 8), bytes.subarray(8));
    this.records.push(bytes);
    return this;
  }

  /** A record whose fields are all 32-bit integers. */
  rec(type: number, ...ints: number[]): this {
    return this.raw(type, ints.length * 4, (v) => ints.forEach((n, i) => v.setUint32(i * 4, n >>> 0, true)));
  }

  /** POLYGON (3) / POLYLINE (4) with 32-bit points (x, y, x, y …). */
  poly(type: 3 | 4, points: number[], count = points.length / 2): this {
    return this.rec(type, 0, 0, 0, 0, count, ...points);
  }

  font(handle: number, height: number, face: string, weight = 400, italic = false): this {
    return this.raw(82, 4 + 92, (v) => {
      v.setUint32(0, handle, true);
      v.setInt32(4, height, true);
      v.setInt32(20, weight, true);
      v.setUint8(24, italic ? 1 : 0);
      for (let i = 0; i < face.length; i++) v.setUint16(32 + i * 2, face.charCodeAt(i), true);
    });
  }

  /** EXTTEXTOUTW at a logical point, with advances (dx) when given. */
  text(x: number, y: number, text: string, dx?: number[]): this {
    const stringAt = 76;
    const dxAt = stringAt + Math.ceil((text.length * 2) / 4) * 4;
    const body = dxAt + (dx ? dx.length * 4 : 0) - 8;
    return this.raw(84, body, (v) => {
      v.setUint32(16, 1, true);
      v.setFloat32(20, 1, true);
      v.setFloat32(24, 1, true);
      v.setInt32(28, x, true);
      v.setInt32(32, y, true);
      v.setUint32(36, text.length, true);
      v.setUint32(40, stringAt, true);
      v.setUint32(64, dx ? dxAt : 0, true);
      for (let i = 0; i < text.length; i++) v.setUint16(stringAt - 8 + i * 2, text.charCodeAt(i), true);
      dx?.forEach((d, i) => v.setInt32(dxAt - 8 + i * 4, d, true));
    });
  }

  /** STRETCHDIBITS of a whole DIB into a logical rectangle, SRCCOPY. */
  stretchDib(
    dest: [number, number, number, number],
    dib: { info: Uint8Array; bits: Uint8Array },
    width: number,
    height: number,
  ): this {
    const offBmi = 80;
    const offBits = offBmi + dib.info.length;
    return this.raw(81, offBits + dib.bits.length - 8, (v, b) => {
      v.setInt32(16, dest[0], true);
      v.setInt32(20, dest[1], true);
      v.setInt32(32, width, true);
      v.setInt32(36, height, true);
      v.setUint32(40, offBmi, true);
      v.setUint32(44, dib.info.length, true);
      v.setUint32(48, offBits, true);
      v.setUint32(52, dib.bits.length, true);
      v.setUint32(60, 0xcc0020, true);
      v.setInt32(64, dest[2], true);
      v.setInt32(68, dest[3], true);
      b.set(dib.info, offBmi - 8);
      b.set(dib.bits, offBits - 8);
    });
  }

  bytes(options: { eof?: boolean } = {}): Uint8Array {
    const eof = options.eof === false ? [] : [new EmfWriter([1, 1]).rec(14, 0, 16, 20).records[0]];
    const header = new Uint8Array(88);
    const v = new DataView(header.buffer);
    const body = concat([...this.records, ...eof]);
    const [w, h] = this.frameMm;
    const pxPerMm = [this.devicePx[0] / this.deviceMm[0], this.devicePx[1] / this.deviceMm[1]];
    v.setUint32(0, 1, true);
    v.setUint32(4, 88, true);
    [0, 0, Math.round(w * pxPerMm[0]) - 1, Math.round(h * pxPerMm[1]) - 1].forEach((n, i) =>
      v.setInt32(8 + i * 4, n, true),
    );
    [0, 0, w * 100, h * 100].forEach((n, i) => v.setInt32(24 + i * 4, n, true));
    v.setUint32(40, 0x464d4520, true);
    v.setUint32(44, 0x10000, true);
    v.setUint32(48, 88 + body.length, true);
    v.setUint32(52, this.records.length + 2, true);
    v.setUint16(56, 16, true);
    v.setInt32(72, this.devicePx[0], true);
    v.setInt32(76, this.devicePx[1], true);
    v.setInt32(80, this.deviceMm[0], true);
    v.setInt32(84, this.deviceMm[1], true);
    return concat([header, body]);
  }
}

/** A WMF with a placeable header: `bbox` (left, top, right, bottom) in units of 1/`inch` inch. */
export class WmfWriter {
  private readonly records: Uint8Array[] = [];
  constructor(
    private readonly bbox: [number, number, number, number],
    private readonly inch = 1440,
  ) {}

  /** A record whose parameters are 16-bit words, in the order they are stored. */
  rec(fn: number, ...words: number[]): this {
    const bytes = new Uint8Array(6 + words.length * 2);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, bytes.length / 2, true);
    view.setUint16(4, fn, true);
    words.forEach((w, i) => view.setUint16(6 + i * 2, w & 0xffff, true));
    this.records.push(bytes);
    return this;
  }

  /** META_CREATEFONTINDIRECT (the face as ANSI bytes, 32 at most). */
  font(height: number, face: string, charset = 0): this {
    const params = new Uint8Array(18 + 32);
    const v = new DataView(params.buffer);
    v.setInt16(0, height, true);
    v.setInt16(8, 400, true);
    v.setUint8(13, charset);
    for (let i = 0; i < face.length; i++) params[18 + i] = face.charCodeAt(i);
    return this.rec(0x02fb, ...Array.from({ length: params.length / 2 }, (_, i) => v.getUint16(i * 2, true)));
  }

  /** META_TEXTOUT at a logical point (single-byte text). */
  textOut(x: number, y: number, text: string): this {
    const bytes = Array.from(text, (c) => c.charCodeAt(0));
    if (bytes.length % 2) bytes.push(0);
    const words = Array.from({ length: bytes.length / 2 }, (_, i) => bytes[i * 2] | (bytes[i * 2 + 1] << 8));
    return this.rec(0x0521, text.length, ...words, y, x);
  }

  bytes(): Uint8Array {
    const placeable = new Uint8Array(22);
    const p = new DataView(placeable.buffer);
    p.setUint32(0, 0x9ac6cdd7, true);
    this.bbox.forEach((n, i) => p.setInt16(6 + i * 2, n, true));
    p.setUint16(14, this.inch, true);
    let checksum = 0;
    for (let i = 0; i < 10; i++) checksum ^= p.getUint16(i * 2, true);
    p.setUint16(20, checksum, true);
    const eof = new WmfWriter([0, 0, 1, 1]).rec(0).records[0];
    const body = concat([...this.records, eof]);
    const header = new Uint8Array(18);
    const h = new DataView(header.buffer);
    h.setUint16(0, 1, true);
    h.setUint16(2, 9, true);
    h.setUint16(4, 0x300, true);
    h.setUint32(6, (18 + body.length) / 2, true);
    h.setUint16(10, 8, true);
    h.setUint32(12, Math.max(...this.records.map((r) => r.length / 2)), true);
    return concat([placeable, header, body]);
  }
}

/**
 * A .docx whose body holds `emf` as an inline picture (200 × 100 pt, a:blip) and `wmf` as the preview
 * of an embedded object (w:object's VML v:imagedata, 144 × 72 pt), as Word writes an old equation.
 */
export async function docxWithMetafiles(emf: Uint8Array, wmf: Uint8Array): Promise<Uint8Array> {
  const { default: JSZip } = await import('jszip');
  const zip = new JSZip();
  const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/><Default Extension="emf" ContentType="image/x-emf"/>' +
      '<Default Extension="wmf" ContentType="image/x-wmf"/><Override PartName="/word/document.xml" ' +
      'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    'word/_rels/document.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rIdEmf" Type="${R}/image" Target="media/image1.emf"/>` +
      `<Relationship Id="rIdWmf" Type="${R}/image" Target="media/image2.wmf"/></Relationships>`,
  );
  zip.file('word/media/image1.emf', emf);
  zip.file('word/media/image2.wmf', wmf);
  const picture =
    '<w:drawing><wp:inline><wp:extent cx="2540000" cy="1270000"/><wp:docPr id="1" name="Picture 1"/>' +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>' +
    '<pic:nvPicPr><pic:cNvPr id="1" name="Picture 1"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill>' +
    '<a:blip r:embed="rIdEmf"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm>' +
    '<a:off x="0" y="0"/><a:ext cx="2540000" cy="1270000"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr>' +
    '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>';
  const object =
    '<w:object><v:shape id="_x0000_i1025" type="#_x0000_t75" style="width:144pt;height:72pt">' +
    '<v:imagedata r:id="rIdWmf" o:title=""/></v:shape><o:OLEObject Type="Embed" ProgID="Equation.3" ' +
    'ShapeID="_x0000_i1025" DrawAspect="Content" ObjectID="_1"/></w:object>';
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8"?><w:document ' +
      'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
      `xmlns:r="${R}" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" ` +
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ' +
      'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
      'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>' +
      '<w:p><w:r><w:t>Before the pictures.</w:t></w:r></w:p>' +
      `<w:p><w:r>${picture}</w:r></w:p><w:p><w:r><w:t xml:space="preserve">Equation: </w:t></w:r><w:r>${object}</w:r></w:p>` +
      '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" ' +
      'w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>',
  );
  return zip.generateAsync({ type: 'uint8array' });
}

/**
 * A 100 × 50 mm EMF on a 10 px/mm device (1000 × 500 px); an anisotropic window of 200 × 100 logical
 * units on that viewport, so one logical unit is 5 px, i.e. 1 pt once drawn 200 pt wide.
 */
export function shapesAndTextEmf(): Uint8Array {
  return new EmfWriter([100, 50], [1000, 1000], [100, 100])
    .rec(EMF.SETMAPMODE, 8)
    .rec(EMF.SETWINDOWORGEX, 0, 0)
    .rec(EMF.SETWINDOWEXTEX, 200, 100)
    .rec(EMF.SETVIEWPORTEXTEX, 1000, 500)
    .rec(EMF.CREATEBRUSHINDIRECT, 1, 0, colorRef(220, 0, 0), 0)
    .rec(EMF.SELECTOBJECT, 1)
    .rec(EMF.SELECTOBJECT, NULL_PEN)
    .poly(3, [10, 10, 90, 10, 90, 90, 10, 90])
    .rec(EMF.CREATEPEN, 2, 0, 2, 0, colorRef(0, 160, 0))
    .rec(EMF.SELECTOBJECT, 2)
    .poly(4, [110, 20, 190, 20])
    .font(3, -10, 'Arial')
    .rec(EMF.SELECTOBJECT, 3)
    .rec(EMF.SETTEXTALIGN, 24)
    .rec(EMF.SETTEXTCOLOR, colorRef(0, 0, 0))
    .text(120, 80, 'Metafile')
    .bytes();
}

/**
 * A placeable WMF "equation" of 2 × 1 inch: "E = mc" in Times New Roman and Symbol's "p" (π), their
 * baselines 1/2 inch down.
 */
export function equationWmf(): Uint8Array {
  return new WmfWriter([0, 0, 2880, 1440])
    .rec(0x020b, 0, 0)
    .rec(0x020c, 1440, 2880)
    .font(-240, 'Times New Roman')
    .rec(0x012d, 0)
    .rec(0x012e, 24)
    .textOut(288, 720, 'E = mc')
    .font(-240, 'Symbol', 2)
    .rec(0x012d, 1)
    .textOut(1440, 720, 'p')
    .bytes();
}
