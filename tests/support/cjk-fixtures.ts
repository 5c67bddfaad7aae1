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
  /** Whether character codes are glyph numbers (Identity-H) read through a ToUnicode map. */
  toUnicode?: boolean;
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
  },
  {
    language: 'Chinese',
    baseFont: 'STSong-Light',
    encoding: 'UniGB-UCS2-H',
    ordering: 'GB1',
    notoFile: SC,
    lines: ['简体中文的文件。', '北京市海淀区中关村', '汉字与标点符号，'],
    advance: 1000,
  },
  {
    language: 'Korean',
    baseFont: 'HYSMyeongJo-Medium',
    encoding: 'UniKS-UCS2-H',
    ordering: 'Korea1',
    notoFile: KR,
    lines: ['한국어 문서입니다', '서울특별시 종로구', '한글과 맞춤법'],
    advance: 920,
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
    toUnicode: true,
  },
];

export const FONT_SIZE = 28;
const LEFT = 50;
const TOP = 300;
const LEADING = 44;
export const PAGE_SIZE: [number, number] = [400, 450];

function bundledFont(file: string): Uint8Array {
  return new Uint8Array(readFileSync(createRequire(import.meta.url).resolve(file)));
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');

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
  const cidFont = context.register(
    context.obj({
      Type: 'Font',
      Subtype: sample.toUnicode ? 'CIDFontType2' : 'CIDFontType0',
      BaseFont: sample.baseFont,
      CIDSystemInfo: { Registry: PDFString.of(registry), Ordering: PDFString.of(ordering), Supplement: supplement },
      FontDescriptor: descriptor,
      DW: sample.advance,
    }),
  );
  const font = context.obj({
    Type: 'Font',
    Subtype: 'Type0',
    BaseFont: sample.toUnicode ? sample.baseFont : `${sample.baseFont}-${sample.encoding}`,
    Encoding: sample.encoding,
    DescendantFonts: [cidFont],
  });
  if (sample.toUnicode) font.set(PDFName.of('ToUnicode'), context.register(context.flateStream(toUnicodeCMap(chars))));
  return context.register(font);
}

/** Character codes of `line` in the sample's encoding, as a PDF hex string. */
function encoded(sample: CjkSample, line: string, chars: string[]): string {
  const codes = [...line].map((c) => (sample.toUnicode ? chars.indexOf(c) + 1 : c.charCodeAt(0)));
  return PDFHexString.of(codes.map(hex4).join('')).toString();
}

/** One page of the sample's lines in its non-embedded font. */
export async function nonEmbeddedPdf(sample: CjkSample): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(PAGE_SIZE);
  const chars = [...new Set(sample.lines.join(''))];
  const font = nonEmbeddedFont(doc, sample, chars);
  page.node.setFontDictionary(PDFName.of('F1'), font);
  const ops = sample.lines.map(
    (line, i) => `BT /F1 ${FONT_SIZE} Tf ${LEFT} ${TOP - i * LEADING} Td ${encoded(sample, line, chars)} Tj ET`,
  );
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(ops.join('\n'))));
  return doc.save();
}

/** The same page with the bundled Noto font embedded (a subset), every character at the same place. */
export async function embeddedReferencePdf(sample: CjkSample): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const page = doc.addPage(PAGE_SIZE);
  const font = await doc.embedFont(bundledFont(sample.notoFile), { subset: true });
  sample.lines.forEach((line, i) => {
    // Character by character at the non-embedded font's advance (a space has another in Noto).
    [...line].forEach((char, k) => {
      if (char === ' ') return;
      const x = LEFT + (k * sample.advance * FONT_SIZE) / 1000;
      page.drawText(char, { x, y: TOP - i * LEADING, size: FONT_SIZE, font });
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
