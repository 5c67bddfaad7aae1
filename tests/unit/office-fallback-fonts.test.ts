/**
 * Characters the Office fonts' stand-ins lack are drawn with a fallback font for their writing system
 * (Noto Sans KR for Hangul, Noto Emoji, Noto Sans Symbols 2), loaded only when a document needs it;
 * characters no bundled font has are printed as "?" and named in the result's notes. Documents are
 * generated (docx, exceljs, pptxgenjs); the PDF is read back by poppler: `pdftotext` for the text,
 * `pdffonts` for the fonts embedded, and `pdftoppm` with each word's box for visible glyphs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { run as wordToPdf } from '../../workers/engine/tools/word-to-pdf.ts';
import { run as pptToPdf } from '../../workers/engine/tools/ppt-to-pdf.ts';
import type { EngineResult } from '../../workers/engine/lib/types.ts';
import { convert, expectValidPdf } from '../support/office-pdf-helpers.ts';
import { popplerText } from '../support/pdf.ts';
import { wordInk } from '../support/glyph-ink.ts';

/** pdffonts' font names without their subset tag: "NotoSansKR-Bold"… */
function embeddedFonts(bytes: Uint8Array): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'folio-fonts-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    const output = execFileSync('pdffonts', [join(dir, 'in.pdf')], { encoding: 'utf8' });
    return output
      .split('\n')
      .slice(2)
      .filter(Boolean)
      .map((line) => line.split(/\s+/)[0].replace(/-\d+$/, ''));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each expected word is read back by pdftotext and drawn with ink in its box (not blank). */
async function expectDrawn(result: EngineResult, words: string[]): Promise<void> {
  const text = popplerText(result.bytes);
  const inked = await wordInk(result.bytes);
  for (const word of words) {
    expect(text).toContain(word);
    const found = inked.filter((w) => w.word === word);
    expect(found.length, `"${word}" among ${inked.map((w) => w.word).join(' ')}`).toBeGreaterThan(0);
    for (const { ink } of found) expect(ink, `ink in the box of "${word}"`).toBeGreaterThan(0.02);
  }
  expect(text).not.toContain('?');
  expect(result.notes?.filter((n) => /printed as/.test(n)) ?? []).toEqual([]);
}

const KOREAN = ['한국어', '문서입니다', '김민수'];
const KOREAN_BOLD = '굵은글씨';
const EMOJI = ['😜', '👍', '🎉'];
const SYMBOLS = ['➢', '✓', '☐'];

describe('Office → PDF draws Korean, emoji and symbols with fallback fonts', () => {
  test('Word: Hangul (regular and bold), emoji, symbols and Devanagari', async () => {
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph({ children: [new TextRun({ text: KOREAN.join(' '), size: 32 })] }),
            new Paragraph({ children: [new TextRun({ text: KOREAN_BOLD, bold: true, size: 32 })] }),
            new Paragraph({ children: [new TextRun({ text: `Party ${EMOJI.join(' ')}`, size: 32 })] }),
            new Paragraph({ children: [new TextRun({ text: `Tasks ${SYMBOLS.join(' ')}`, size: 32 })] }),
            new Paragraph({ children: [new TextRun({ text: 'Hindi नमस्ते', size: 32 })] }),
          ],
        },
      ],
    });
    const result = await convert(wordToPdf, 'scripts.docx', await Packer.toBuffer(docx));
    await expectValidPdf(result);
    await expectDrawn(result, [...KOREAN, KOREAN_BOLD, ...EMOJI, ...SYMBOLS, 'नमस्ते']);
    const fonts = embeddedFonts(result.bytes);
    expect(fonts).toEqual(
      expect.arrayContaining([
        'NotoSansKR-Regular',
        'NotoSansKR-Bold',
        'NotoEmoji-Regular',
        'NotoSansSymbols2-Regular',
      ]),
    );
    // Hangul needs the Korean font only: the 10 MB Chinese one is not loaded for it.
    expect(fonts.filter((f) => f.startsWith('NotoSansSC'))).toEqual([]);
  });

  test('Excel: Korean cells, an emoji and symbols', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('명단');
    sheet.columns = [{ width: 30 }, { width: 30 }];
    sheet.addRow(['이름', '메모']).font = { bold: true };
    sheet.addRow(['김민수', `좋아요 ${EMOJI[0]}`]);
    sheet.addRow(['서울', `완료 ${SYMBOLS[1]} ${SYMBOLS[0]}`]);
    const result = await convert(excelToPdf, 'names.xlsx', await wb.xlsx.writeBuffer());
    await expectValidPdf(result);
    await expectDrawn(result, ['이름', '메모', '김민수', '좋아요', EMOJI[0], '서울', '완료', SYMBOLS[1], SYMBOLS[0]]);
  });

  test('PowerPoint: a Korean title and an emoji', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText(`발표 자료 ${EMOJI[2]}`, { x: 1, y: 1, w: 8, h: 1, fontSize: 32 });
    const buffer = (await pptx.write({ outputType: 'arraybuffer' })) as ArrayBuffer;
    const result = await convert(pptToPdf, 'deck.pptx', buffer);
    await expectValidPdf(result);
    await expectDrawn(result, ['발표', '자료', EMOJI[2]]);
  });

  test('an emoji sequence (joiners, a skin tone, an emoji-style selector) prints no "?" and no box', async () => {
    const docx = new Document({ sections: [{ children: [new Paragraph('Family 👨‍👩‍👧 thumbs 👍🏽 heart ❤️ end')] }] });
    const result = await convert(wordToPdf, 'sequence.docx', await Packer.toBuffer(docx));
    const text = popplerText(result.bytes);
    expect(text).toMatch(/Family \S+ thumbs \S+ heart \S+ end/);
    expect(text).not.toContain('?');
    expect(result.notes?.filter((n) => /printed as/.test(n)) ?? []).toEqual([]);
  });

  test('a Latin document loads none of the fallback fonts', async () => {
    const docx = new Document({ sections: [{ children: [new Paragraph('Plain text, “quotes” – and € 5.')] }] });
    const result = await convert(wordToPdf, 'latin.docx', await Packer.toBuffer(docx));
    expect(embeddedFonts(result.bytes).filter((f) => /KR|SC|Emoji|Symbols/.test(f))).toEqual([]);
  });
});

describe('characters no bundled font has', () => {
  test('are printed as "?" and named by writing system in the notes; invisible marks print nothing', async () => {
    // Gothic and mathematical letters beyond the BMP (no bundled font), and bidi marks around them.
    const line = 'Gothic \u202b𐌲𐌿𐍄\u202c math \u200f𝝊𝝋 end';
    const docx = new Document({ sections: [{ children: [new Paragraph(line)] }] });
    const result = await convert(wordToPdf, 'missing.docx', await Packer.toBuffer(docx));
    const text = popplerText(result.bytes);
    expect(text).toContain('Gothic ??? math ?? end');
    const note = result.notes?.find((n) => /printed as "\?"/.test(n));
    expect(note).toBeDefined();
    expect(note).toContain('Gothic: 𐌲 𐌿 𐍄');
    expect(note).toContain('mathematical letters: 𝝊 𝝋');
    // The bidi marks are not characters anyone misses.
    expect(note).not.toMatch(/\u202b|\u202c|\u200f/);
  });
});
