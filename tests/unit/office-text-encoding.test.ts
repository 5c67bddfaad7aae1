/**
 * Office → PDF draws Latin, Greek and Cyrillic text a character at a time (glyph codes cached per
 * font) unless the font substitutes glyphs in it: the glyphs must be the ones fontkit's shaping picks
 * (Carlito's "tt" and "ffi" ligatures), the text must read back, and a page names each font once in
 * its resources however many strings it draws.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import fontkit from '@pdf-lib/fontkit';
import { PDFDict, PDFDocument, PDFName, PDFRef } from 'pdf-lib';
import { run as excelToPdf } from '../../workers/engine/tools/excel-to-pdf.ts';
import { convert, pageContent, texts } from '../support/office-pdf-helpers.ts';

async function workbook(values: string[]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Text');
  ws.getColumn(1).width = 60;
  for (const value of values) ws.addRow([value]);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

/** Glyph counts of the page's text strings (hex, 4 digits a glyph), in drawing order. */
async function glyphCounts(pdf: Uint8Array): Promise<number[]> {
  const content = await pageContent(pdf, 0);
  return [...content.matchAll(/<([0-9A-Fa-f]*)> Tj/g)].map((m) => m[1].length / 4);
}

describe('Office → PDF text encoding', () => {
  test('ligatures are drawn as the font shapes them; other text a glyph per character', async () => {
    const values = ['attest', 'office', 'Жёлтый карандаш', 'Ελληνικά', 'plain words'];
    const result = await convert(excelToPdf, 'ligatures.xlsx', await workbook(values));
    // Excel's default font, Calibri, is drawn with Carlito.
    const carlito = fontkit.create(
      readFileSync('node_modules/@fontsource/carlito/files/carlito-latin-400-normal.woff'),
    ) as unknown as { layout(text: string): { glyphs: unknown[] } };
    const shaped = (text: string) => carlito.layout(text).glyphs.length;
    expect(shaped('attest')).toBeLessThan(6);
    expect(shaped('office')).toBeLessThan(6);
    expect(await glyphCounts(result.bytes)).toEqual([
      shaped('attest'),
      shaped('office'),
      // Cyrillic is in Noto Sans (the Carlito files hold Latin only): a string per word and font.
      'Жёлтый'.length,
      'карандаш'.length,
      'Ελληνικά'.length,
      'plain words'.length,
    ]);
    expect((await texts(result))[0]).toBe(values.join(' '));
  });

  test('a page names each font once in its resources', async () => {
    const values = Array.from({ length: 40 }, (_, i) => (i % 2 ? `Товар ${i}` : `Item ${i}`));
    const result = await convert(excelToPdf, 'many.xlsx', await workbook(values));
    const doc = await PDFDocument.load(result.bytes);
    const fonts = doc.getPage(0).node.Resources()!.lookup(PDFName.of('Font'), PDFDict);
    const refs = fonts.values().map((v) => (v as PDFRef).toString());
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.length).toBe(new Set(refs).size);
  });
});
