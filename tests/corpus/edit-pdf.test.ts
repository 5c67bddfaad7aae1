/**
 * Edit PDF over the corpus: on page 1 of every readable PDF, the first three lines of text that
 * pdf.js finds are redacted, and a line of text is added. The output must pass qpdf --check, keep
 * its page count, show the added text, and have no text left whose middle lies in a redacted box —
 * real-world content streams (TJ kerning, Type0/Type3 fonts, forms, inline images) exercise the
 * content-stream rewriter far beyond the generated fixtures.
 */
import { expect, test } from 'vitest';
import { Tally, corpusPassword, corpusPdfs, describeCorpus, readCorpus } from '../support/corpus.ts';
import { qpdfCheck } from '../support/pdf.ts';
import { run } from '../../workers/engine/tools/edit-pdf.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { openPdf } from '../../workers/engine/lib/pdf/pdf-open.ts';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  str: string;
}

/** Horizontal text items of page 1 as view-space boxes (pdf.js viewport at scale 1). */
async function textBoxes(bytes: Uint8Array, password?: string): Promise<Box[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await openPdfjs(bytes, { password });
  try {
    const page = await doc.getPage(1);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const boxes: Box[] = [];
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim().length < 3) continue;
      const tx = pdfjs.Util.transform(viewport.transform, item.transform);
      if (Math.abs(tx[1]) > 0.01 || Math.abs(tx[2]) > 0.01 || tx[0] <= 0) continue;
      const size = Math.abs(tx[3]);
      if (size < 2 || item.width < 2) continue;
      boxes.push({ x: tx[4], y: tx[5] - size * 0.8, width: item.width, height: size, str: item.str });
    }
    return boxes;
  } finally {
    await doc.destroy();
  }
}

const candidates = corpusPdfs.filter((e) => e.expect === 'ok');

describeCorpus('edit-pdf: redact + add text on real files', () => {
  const tally = new Tally('edit-pdf');
  test.each(candidates.map((e) => [e.file, e] as const))('%s', async (_name, entry) => {
    const bytes = readCorpus(entry);
    const password = corpusPassword(entry);
    // Read the text the way the engine sees the file (decrypted, repaired when damaged).
    const opened = await openPdf({ name: entry.file, bytes, password });
    // pdf.js cannot read page 1 of a few damaged files at all: those only have to come through intact.
    const before = await textBoxes(opened.bytes).catch(() => null);
    const targets = (before ?? []).slice(0, 3);
    const operations = [
      ...targets.map((b) => ({ type: 'redact', page: 1, x: b.x, y: b.y, width: b.width, height: b.height })),
      { type: 'text', page: 1, x: 20, y: 20, text: 'Folio corpus edit', size: 10, color: '#cc0000', font: 'sans' },
    ];
    try {
      const result = await run([{ name: entry.file, bytes, password }], { operations: JSON.stringify(operations) }, {});
      const check = await qpdfCheck(result.bytes);
      // A stream damaged in the input (and not one we rewrote) stays damaged: judge only clean inputs.
      if ((await qpdfCheck(opened.bytes)).ok) expect(check.ok, check.output).toBe(true);
      const doc = await openPdfjs(result.bytes);
      expect(doc.numPages).toBe(entry.pages ?? doc.numPages);
      await doc.destroy();
      if (before === null) return tally.pass();
      const after = await textBoxes(result.bytes);
      expect(after.some((b) => b.str.includes('Folio corpus edit'))).toBe(true);
      const leaked = after.filter((b) => {
        const cx = b.x + b.width / 2;
        const cy = b.y + b.height / 2;
        return (
          targets.some((t) => cx > t.x + 1 && cx < t.x + t.width - 1 && cy > t.y + 1 && cy < t.y + t.height - 1) &&
          !b.str.includes('Folio')
        );
      });
      expect(leaked.map((b) => b.str)).toEqual([]);
      tally.pass();
    } catch (error) {
      tally.fail(`${entry.file}: ${(error as Error).message.split('\n')[0]}`);
      throw error;
    } finally {
      if (entry === candidates.at(-1)) tally.print();
    }
  });
});
