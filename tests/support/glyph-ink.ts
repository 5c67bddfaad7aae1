/**
 * Whether a PDF's words are drawn with visible glyphs, read independently of Folio: poppler's
 * `pdftotext -bbox` gives each word and its box, `pdftoppm` draws the page, and the share of dark
 * pixels inside each box is measured. A glyph the font lacks would be an empty box or a "?" (which
 * the text shows); a subset font that lost its outlines would leave the box blank.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeImage, grey, pdftoppmPng } from './images.ts';

export interface WordInk {
  word: string;
  page: number;
  /** Share of the word's box darker than mid-grey, 0–1. */
  ink: number;
}

const DPI = 96;

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** Every word poppler reads in the PDF, with how much of its box is inked. */
export async function wordInk(bytes: Uint8Array): Promise<WordInk[]> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-ink-'));
  try {
    const pdf = join(dir, 'in.pdf');
    writeFileSync(pdf, bytes);
    const html = execFileSync('pdftotext', ['-bbox', pdf, '-'], { encoding: 'utf8' });
    const words: WordInk[] = [];
    let page = 0;
    const rasters = new Map<number, { width: number; data: Float32Array }>();
    for (const match of html.matchAll(
      /<page |<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</g,
    )) {
      if (match[0] === '<page ') {
        page += 1;
        continue;
      }
      let raster = rasters.get(page);
      if (!raster) {
        const image = await decodeImage(pdftoppmPng(pdf, page, DPI));
        raster = { width: image.width, data: grey(image) };
        rasters.set(page, raster);
      }
      const [x0, y0, x1, y1] = match.slice(1, 5).map((v) => (Number(v) * DPI) / 72);
      let dark = 0;
      let total = 0;
      for (let y = Math.floor(y0); y < Math.ceil(y1); y++)
        for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
          total += 1;
          if (raster.data[y * raster.width + x] < 128) dark += 1;
        }
      words.push({ word: decodeEntities(match[5]), page, ink: total ? dark / total : 0 });
    }
    return words;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
