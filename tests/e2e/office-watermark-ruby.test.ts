/**
 * Word → PDF in Chromium through the in-page /api (the built app's engine workers): a text watermark
 * (VML WordArt in the header) and a phonetic guide (w:ruby), judged by poppler's drawing and text of
 * the answer against LibreOffice 7.4's figures for the same document. The classes one by one, with
 * more cases, are in tests/unit/docx-watermarks.test.ts and tests/unit/docx-ruby.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import JSZip from 'jszip';
import { Document, Header, Packer, Paragraph } from 'docx';
import { sharedBrowser } from './harness.ts';
import { pageWithApi, postInPage } from './page-api.ts';
import { popplerTextWith } from '../support/pdf.ts';

const shared = sharedBrowser();

/** An A4 page whose header holds a red "DRAFT" watermark at (100, 300) pt, 300 × 100 pt, and a ruby line. */
async function document(): Promise<Uint8Array> {
  const doc = new Document({
    sections: [
      {
        headers: { default: new Header({ children: [new Paragraph('HeaderLine')] }) },
        children: [new Paragraph('Before line'), new Paragraph('RUBY')],
      },
    ],
  });
  const zip = await JSZip.loadAsync(await Packer.toBuffer(doc));
  const headerName = Object.keys(zip.files).find((name) => /^word\/header\d*\.xml$/.test(name))!;
  const style =
    'position:absolute;margin-left:100pt;margin-top:300pt;width:300pt;height:100pt;z-index:-251654144;' +
    'mso-position-horizontal-relative:page;mso-position-vertical-relative:page';
  const watermark =
    '<w:p><w:r><w:pict><v:shape id="PowerPlusWaterMarkObject1" type="#_x0000_t136" ' +
    `style="${style}" fillcolor="#ff0000" stroked="f"><v:fill opacity=".5"/>` +
    '<v:textpath style="font-family:&quot;Calibri&quot;;font-size:1pt" string="DRAFT"/></v:shape></w:pict></w:r></w:p>';
  const header = await zip.file(headerName)!.async('string');
  zip.file(headerName, header.replace(/(<w:p>.*?HeaderLine.*?<\/w:p>)/s, `$1${watermark}`));
  const ruby =
    '<w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="distributeSpace"/><w:hps w:val="11"/><w:hpsRaise w:val="20"/>' +
    '<w:hpsBaseText w:val="22"/></w:rubyPr><w:rt><w:r><w:rPr><w:sz w:val="11"/></w:rPr><w:t>とうきょう</w:t></w:r></w:rt>' +
    '<w:rubyBase><w:r><w:rPr><w:sz w:val="22"/></w:rPr><w:t>東京</w:t></w:r></w:rubyBase></w:ruby></w:r>';
  const body = await zip.file('word/document.xml')!.async('string');
  zip.file('word/document.xml', body.replace(/<w:r>(?:(?!<w:r>).)*?RUBY.*?<\/w:r>/s, ruby));
  return zip.generateAsync({ type: 'uint8array' });
}

/** Box (points from the top left) of the page's red pixels, as pdftoppm draws page 1 at 72 dpi. */
function redInk(pdf: Uint8Array): { left: number; top: number; right: number; bottom: number } {
  const dir = mkdtempSync(join(tmpdir(), 'folio-e2e-watermark-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const ppm = execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', join(dir, 'in.pdf')], {
      maxBuffer: 1 << 26,
    });
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 30).toString('latin1'))!;
    const [width, height] = [Number(header[1]), Number(header[2])];
    const rgb = ppm.subarray(header[0].length);
    let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 3;
        // Red at half opacity over white: (255, 127, 127).
        if (rgb[i] > 250 && Math.abs(rgb[i + 1] - 127) < 4 && Math.abs(rgb[i + 2] - 127) < 4)
          [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
      }
    return { left, top, right: right + 1, bottom: bottom + 1 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('Word: a text watermark behind the body and a phonetic guide above its base', async () => {
  const { page, context } = await pageWithApi(shared.browser, 'word-to-pdf');
  const answer = await postInPage(page, '/api/pdf/fromWord', [['file', 'watermark.docx', await document()]]);
  await context.close();
  expect(answer.status, answer.text).toBe(200);
  // LibreOffice 7.4: the letters 100 … 400 pt across from the box's top at 300 (they keep their
  // proportions there, 112 pt tall; Folio fills the box's 100 pt height, as Word's fitshape does).
  const ink = redInk(answer.bytes);
  expect(Math.abs(ink.left - 100)).toBeLessThanOrEqual(1.5);
  expect(Math.abs(ink.right - 400)).toBeLessThanOrEqual(1.5);
  expect(Math.abs(ink.top - 300)).toBeLessThanOrEqual(1.5);
  expect(Math.abs(ink.bottom - 400)).toBeLessThanOrEqual(1.5);
  const text = popplerTextWith(answer.bytes, ['-layout']);
  // The watermark is drawn as outlines (as LibreOffice draws it); the guide's line is read before the base's.
  expect(text).not.toContain('DRAFT');
  expect(text.indexOf('とうきょう')).toBeGreaterThan(-1);
  expect(text.indexOf('とうきょう')).toBeLessThan(text.indexOf('東京'));
  expect(answer.notes.join(' ')).not.toMatch(/VML|ruby/);
});
