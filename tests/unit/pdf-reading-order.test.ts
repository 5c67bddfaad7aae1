/**
 * PDF → Word reads a two-column page column by column even when its gutter is narrower than the
 * gap that ends a fragment (under an em), and words set with ligature glyphs (ﬁ, ﬃ: U+FB01,
 * U+FB03), also when the ligature comes from another font, read as plain letters. PDFs generated
 * with pdf-lib.
 */
import { describe, expect, test } from 'vitest';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fontkit } from '../../workers/engine/lib/fontkit.ts';
import { run as pdfToWord } from '../../workers/engine/tools/pdf-to-word.ts';
import { readDocx } from '../support/office-fixtures.ts';

const require = createRequire(import.meta.url);

async function twoColumns(gutter: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const page = doc.addPage([612, 792]);
  const width = (612 - 144 - gutter) / 2;
  page.drawText('A title across both columns', { x: 72, y: 720, size: 16, font });
  for (const [column, word] of [
    [0, 'left'],
    [1, 'right'],
  ] as const) {
    let line = '';
    let y = 690;
    const flush = () => {
      page.drawText(line, { x: 72 + column * (width + gutter), y, size: 10, font });
      y -= 12;
    };
    for (let i = 0; i < 150; i++) {
      const next = line ? `${line} ${word}${i}` : `${word}${i}`;
      if (font.widthOfTextAtSize(next, 10) > width) {
        flush();
        line = `${word}${i}`;
      } else line = next;
    }
    flush();
  }
  return doc.save();
}

const convert = async (bytes: Uint8Array) => readDocx((await pdfToWord([{ name: 'in.pdf', bytes }], {}, {})).bytes);

describe('PDF to Word reading order and letters', () => {
  for (const gutter of [7, 10, 24]) {
    test(`two columns ${gutter} pt apart are read one after the other`, async () => {
      const { text } = await convert(await twoColumns(gutter));
      const words = text.match(/(left|right)\d+/g) ?? [];
      expect(words).toHaveLength(300);
      // All of the left column, then all of the right: the column switches once.
      const switches = words.filter((w, i) => i > 0 && w.startsWith('left') !== words[i - 1].startsWith('left')).length;
      expect(switches).toBe(1);
      expect(words[0]).toBe('left0');
      expect(words[150]).toBe('right0');
    });
  }

  test('ligature glyphs read as their letters, also when drawn with another font', async () => {
    const doc = await PDFDocument.create();
    doc.registerFontkit(fontkit);
    const noto = await doc.embedFont(
      readFileSync(require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf')),
      { subset: true },
    );
    const helvetica = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([420, 200]);
    page.drawText('three \uFB01fths of the Quali\uFB01cations', { x: 20, y: 150, size: 12, font: noto });
    let x = 20;
    for (const [text, font] of [
      ['in the O', helvetica],
      ['\uFB03', noto],
      ['ce and the ', helvetica],
      ['\uFB02', noto],
      ['oor', helvetica],
    ] as const) {
      page.drawText(text, { x, y: 120, size: 12, font });
      x += font.widthOfTextAtSize(text, 12);
    }
    const { text } = await convert(await doc.save());
    expect(text).toContain('three fifths of the Qualifications');
    expect(text).toContain('in the Office and the floor');
    expect(text).not.toMatch(/[\uFB00-\uFB06]/);
  });
});
