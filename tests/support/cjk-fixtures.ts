/**
 * Chinese, Japanese and Korean text in a font that is NOT embedded (Type0 font over a CIDFont with
 * an Adobe character collection and no FontFile, as Japanese/Chinese/Korean office software writes
 * it), and the same text in the bundled Noto font embedded (pdf-lib + fontkit): the reference a
 * picture of the first must match. Both place each character at the same point, the non-embedded
 * font's /DW being the Noto advance of the characters used.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PDFDocument, PDFHexString, PDFName, PDFString, type PDFRef } from 'pdf-lib';
import { fontkit } from '../../workers/engine/lib/fontkit.ts';

export interface CjkSample {
  language: 'Japanese' | 'Chinese' | 'Korean';
  /** The non-embedded font's name, encoding and character collection. */
  baseFont: string;
  encoding: string;
  ordering: 'Japan1' | 'GB1' | 'Korea1' | 'Identity';
  /** The bundled font drawing it (as lib/fonts.ts names the file). */
  notoFile: string;
  /** Lines of text, all characters of one advance (`advance`, in 1/1000 em). */
  lines: string[];
  advance: number;
  /**
   * How characters are coded: their UCS-2 value (Uni…-UCS2-H), Shift-JIS bytes (90ms-RKSJ-H), or
   * glyph numbers of the missing font (Identity-H) that a ToUnicode map turns into characters.
   */
  codes: 'ucs2' | 'shift-jis' | 'glyph';
  /** Written in columns, top to bottom (a -V encoding): each line a column, the first on the right. */
  vertical?: boolean;
  /** Text size in points (FONT_SIZE when not given). */
  size?: number;
}

const SC = '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf';
const KR = '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf';

export const CJK_SAMPLES: CjkSample[] = [
  {
    language: 'Japanese',
    baseFont: 'KozMinPr6N-Regular',
    encoding: 'UniJIS-UCS2-H',
    ordering: 'Japan1',
    notoFile: SC,
    lines: ['日本語の文書です。', '東京都千代田区丸の内', 'ひらがなとカタカナ'],
    advance: 1000,
    codes: 'ucs2',
  },
  {
    language: 'Japanese',
    baseFont: 'MS-Mincho',
    encoding: '90ms-RKSJ-H',
    ordering: 'Japan1',
    notoFile: SC,
    lines: ['請求書を送付します。', '株式会社と有限会社'],
    advance: 1000,
    codes: 'shift-jis',
  },
  {
    language: 'Japanese',
    baseFont: 'KozMinPr6N-Regular',
    encoding: 'UniJIS-UCS2-V',
    ordering: 'Japan1',
    notoFile: SC,
    lines: ['縦書きの日本語', '上から下へ読む'],
    advance: 1000,
    codes: 'ucs2',
    vertical: true,
  },
  {
    language: 'Chinese',
    baseFont: 'STSong-Light',
    encoding: 'UniGB-UCS2-H',
    ordering: 'GB1',
    notoFile: SC,
    lines: ['简体中文的文件。', '北京市海淀区中关村', '汉字与标点符号，'],
    advance: 1000,
    codes: 'ucs2',
  },
  {
    language: 'Korean',
    baseFont: 'HYSMyeongJo-Medium',
    encoding: 'UniKS-UCS2-H',
    ordering: 'Korea1',
    notoFile: KR,
    lines: ['한국어 문서입니다', '서울특별시 종로구', '한글과 맞춤법'],
    advance: 920,
    codes: 'ucs2',
  },
  {
    // What Word writes when told not to embed MS Gothic: glyph numbers of a font the reader may not
    // have, and a ToUnicode map that says which characters they are.
    language: 'Japanese',
    baseFont: 'MS-Gothic',
    encoding: 'Identity-H',
    ordering: 'Identity',
    notoFile: SC,
    lines: ['明朝体とゴシック体', '会議の資料を送ります'],
    advance: 1000,
    codes: 'glyph',
  },
];

export const FONT_SIZE = 28;
const LEFT = 50;
const TOP = 300;
const LEADING = 44;
/** Where the first column of vertical text starts (its centre line, and the top of its first character). */
const COLUMN_RIGHT = 300;
const COLUMN_TOP = 400;
export const PAGE_SIZE: [number, number] = [400, 450];

function bundledFont(file: string): Uint8Array {
  return new Uint8Array(readFileSync(createRequire(import.meta.url).resolve(file)));
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');

/** Shift-JIS (Microsoft's code page 932) bytes of each character, from the decoder's table. */
let shiftJis: Map<string, number> | undefined;
function shiftJisCode(char: string): number {
  if (!shiftJis) {
    shiftJis = new Map();
    const decoder = new TextDecoder('shift_jis');
    for (let lead = 0x81; lead <= 0xfc; lead++) {
      if (lead > 0x9f && lead < 0xe0) continue;
      for (let trail = 0x40; trail <= 0xfc; trail++) {
        const decoded = decoder.decode(new Uint8Array([lead, trail]));
        if (!shiftJis.has(decoded)) shiftJis.set(decoded, (lead << 8) | trail);
      }
    }
  }
  const code = shiftJis.get(char);
  if (code === undefined) throw new Error(`"${char}" has no Shift-JIS code`);
  return code;
}

/** A ToUnicode CMap for codes 1…n, code i being chars[i - 1]. */
function toUnicodeCMap(chars: string[]): string {
  const entries = chars.map((c, i) => `<${hex4(i + 1)}> <${hex4(c.charCodeAt(0))}>`);
  return [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    '1 begincodespacerange <0000> <FFFF> endcodespacerange',
    `${entries.length} beginbfchar`,
    ...entries,
    'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
}

/** The sample's font, not embedded: Type0 → CIDFont (no FontFile in its descriptor). */
function nonEmbeddedFont(doc: PDFDocument, sample: CjkSample, chars: string[]): PDFRef {
  const { context } = doc;
  const descriptor = context.register(
    context.obj({
      Type: 'FontDescriptor',
      FontName: sample.baseFont,
      Flags: 4,
      FontBBox: [-100, -150, 1100, 900],
      ItalicAngle: 0,
      Ascent: 880,
      Descent: -120,
      CapHeight: 733,
      StemV: 80,
    }),
  );
  const [registry, ordering, supplement] =
    sample.ordering === 'Identity' ? ['Adobe', 'Identity', 0] : ['Adobe', sample.ordering, 2];
  const glyphCodes = sample.codes === 'glyph';
  const cidFont = context.register(
    context.obj({
      Type: 'Font',
      Subtype: glyphCodes ? 'CIDFontType2' : 'CIDFontType0',
      BaseFont: sample.baseFont,
      CIDSystemInfo: { Registry: PDFString.of(registry), Ordering: PDFString.of(ordering), Supplement: supplement },
      FontDescriptor: descriptor,
      DW: sample.advance,
    }),
  );
  const font = context.obj({
    Type: 'Font',
    Subtype: 'Type0',
    BaseFont: glyphCodes ? sample.baseFont : `${sample.baseFont}-${sample.encoding}`,
    Encoding: sample.encoding,
    DescendantFonts: [cidFont],
  });
  if (glyphCodes) font.set(PDFName.of('ToUnicode'), context.register(context.flateStream(toUnicodeCMap(chars))));
  return context.register(font);
}

/** Character codes of `line` in the sample's encoding, as a PDF hex string. */
function encoded(sample: CjkSample, line: string, chars: string[]): string {
  const code = {
    ucs2: (c: string) => c.charCodeAt(0),
    'shift-jis': shiftJisCode,
    glyph: (c: string) => chars.indexOf(c) + 1,
  };
  const codes = [...line].map(code[sample.codes]);
  return PDFHexString.of(codes.map(hex4).join('')).toString();
}

/** One page of the sample's lines in its non-embedded font. */
export async function nonEmbeddedPdf(sample: CjkSample): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(PAGE_SIZE);
  const chars = [...new Set(sample.lines.join(''))];
  const font = nonEmbeddedFont(doc, sample, chars);
  page.node.setFontDictionary(PDFName.of('F1'), font);
  const ops = sample.lines.map((line, i) => {
    const [x, y] = sample.vertical ? [COLUMN_RIGHT - i * LEADING, COLUMN_TOP] : [LEFT, TOP - i * LEADING];
    return `BT /F1 ${sample.size ?? FONT_SIZE} Tf ${x} ${y} Td ${encoded(sample, line, chars)} Tj ET`;
  });
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(ops.join('\n'))));
  return doc.save();
}

/** The same page with the bundled Noto font embedded (a subset), every character at the same place. */
export async function embeddedReferencePdf(sample: CjkSample): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const page = doc.addPage(PAGE_SIZE);
  const font = await doc.embedFont(bundledFont(sample.notoFile), { subset: true });
  const size = sample.size ?? FONT_SIZE;
  const em = size / 1000;
  sample.lines.forEach((line, i) => {
    // Character by character at the non-embedded font's advance (a space has another in Noto).
    [...line].forEach((char, k) => {
      if (char === ' ') return;
      if (sample.vertical) {
        // Vertical writing's default metrics (no /W2, /DW2 [880 −1000]): each character 1 em below
        // the one before, its vertical origin half its width right of, and 880 units above, its
        // horizontal one.
        const x = COLUMN_RIGHT - i * LEADING - (sample.advance / 2) * em;
        page.drawText(char, { x, y: COLUMN_TOP - k * 1000 * em - 880 * em, size, font });
      } else {
        page.drawText(char, { x: LEFT + k * sample.advance * em, y: TOP - i * LEADING, size, font });
      }
    });
  });
  return doc.save();
}

/** A picture's pixels (RGBA), as tests/support/images.ts decodes them. */
interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** Where the picture is dark (grey under 128): text, not paper or anti-aliased fringes. */
function inkMask({ width, height, data }: Pixels): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < mask.length; i++, p += 4) {
    mask[i] = 0.299 * data[p] + 0.587 * data[p + 1] + 0.114 * data[p + 2] < 128 ? 1 : 0;
  }
  return mask;
}

/** The share of `from`'s ink pixels with ink of `to` within one pixel (1 when `from` has none). */
function coveredShare(from: Uint8Array, to: Uint8Array, width: number, height: number): number {
  let ink = 0;
  let covered = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!from[y * width + x]) continue;
      ink++;
      search: for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const yy = y + dy;
          const xx = x + dx;
          if (yy >= 0 && yy < height && xx >= 0 && xx < width && to[yy * width + xx]) {
            covered++;
            break search;
          }
        }
      }
    }
  }
  return ink ? covered / ink : 1;
}

/**
 * How well a picture's text matches the reference's, glyph for glyph: the share of the reference's
 * ink that the picture also inks (within a pixel: renderers anti-alias differently), and the share
 * of the picture's ink the reference has. A blank page has no recall; empty boxes, or glyphs in
 * another font or place, have neither.
 */
export function inkAgreement(picture: Pixels, reference: Pixels): { recall: number; precision: number } {
  const width = Math.min(picture.width, reference.width);
  const height = Math.min(picture.height, reference.height);
  const crop = (p: Pixels) => {
    const mask = inkMask(p);
    const out = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) out.set(mask.subarray(y * p.width, y * p.width + width), y * width);
    return out;
  };
  const ours = crop(picture);
  const theirs = crop(reference);
  return { recall: coveredShare(theirs, ours, width, height), precision: coveredShare(ours, theirs, width, height) };
}
