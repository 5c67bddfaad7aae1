/**
 * A file that names an object it does not hold (a page whose content stream was lost in an edit or
 * a repair): pdf-lib loads it, and its next new object used to take that number — a watermark's
 * "restore" stream became page 2's content, and the watermark and added text were missing from that
 * page, without a word. Opening now reserves every referenced number (reserveReferencedNumbers in
 * lib/pdf/pdf-util.ts), and saving turns the references to missing objects into null.
 */
import { expect, test } from 'vitest';
import { PDFDocument, PDFName, PDFRef, StandardFonts } from 'pdf-lib';
import { loadEngine } from '../../workers/engine/registry.ts';
import { popplerText, qpdfCheck } from '../support/pdf.ts';

/** Three pages "Page1" … "Page3"; page 2's /Contents names an object `gap` numbers past the last one. */
async function pageWithLostContent(gap: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= 3; n++) doc.addPage([300, 400]).drawText(`Page${n}`, { x: 40, y: 300, size: 36, font });
  await doc.flush();
  doc.getPages()[1].node.set(PDFName.of('Contents'), PDFRef.of(doc.context.largestObjectNumber + gap));
  return doc.save({ useObjectStreams: false });
}
const pageTexts = (bytes: Uint8Array) =>
  popplerText(bytes)
    .split('\f')
    .slice(0, -1)
    .map((page) => page.split(/\s+/).filter(Boolean).sort().join(' '));

test.each([1, 2, 3, 5])(
  'a watermark and added text reach a page whose content is lost (missing object +%i)',
  async (gap) => {
    const bytes = await pageWithLostContent(gap);
    const watermarked = await (
      await loadEngine('add-watermark')
    ).run([{ name: 'lost.pdf', bytes }], { text: 'WM' }, {});
    expect(pageTexts(watermarked.bytes)).toEqual(['M Page1 W', 'M W', 'M Page3 W']);
    expect((await qpdfCheck(watermarked.bytes)).exitCode).toBe(0);
    const edited = await (
      await loadEngine('edit-pdf')
    ).run([{ name: 'lost.pdf', bytes }], { text: 'ED', pages: '1-3' }, {});
    expect(pageTexts(edited.bytes)).toEqual(['ED Page1', 'ED', 'ED Page3']);
  },
);
