/**
 * Office exports over the corpus: every PDF converts to Word, PowerPoint and Excel (first pages
 * only, to stay quick) or fails with a named error and a clear message; outputs are parsed. OCR
 * runs on a couple of scans only, with the character error rate printed.
 */
import { expect, test } from 'vitest';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';
import {
  RECOVERED_FROM_OBJECTS,
  Tally,
  corpusPassword,
  corpusPdfs,
  describeCorpus,
  readCorpus,
  type CorpusEntry,
} from '../support/corpus.ts';
import { isFolioError } from '../../workers/engine/lib/errors.ts';
import type { Engine } from '../../workers/engine/lib/types.ts';
import { run as toWord } from '../../workers/engine/tools/pdf-to-word.ts';
import { run as toPpt } from '../../workers/engine/tools/pdf-to-ppt.ts';
import { run as toExcel } from '../../workers/engine/tools/pdf-to-excel.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { createRecogniser } from '../../workers/engine/lib/ocr/ocr.ts';
import { buildFragments, buildParagraphs, readingOrder } from '../../workers/engine/lib/pdf/pdf-layout.ts';
import { characterErrorRate, orderFreeCharacterErrorRate, readDocx, readPptx } from '../support/office-fixtures.ts';

const MAX_PAGES = 3;

async function check(tool: string, output: Uint8Array, entry: CorpusEntry): Promise<string | undefined> {
  if (tool === 'word') {
    const zip = await JSZip.loadAsync(output);
    if (!zip.file('word/document.xml')) return 'no word/document.xml';
  } else if (tool === 'ppt') {
    const { slides } = await readPptx(output);
    const expected = Math.min(entry.pages ?? slides.length, MAX_PAGES);
    if (slides.length !== expected) return `${slides.length} slides for ${expected} pages`;
  } else {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(output.buffer.slice(output.byteOffset, output.byteOffset + output.byteLength) as ArrayBuffer);
    if (book.worksheets.length === 0) return 'no worksheet';
  }
  return undefined;
}

describeCorpus('office export over the corpus', () => {
  const tools: Array<[string, Engine]> = [
    ['word', toWord],
    ['ppt', toPpt],
    ['excel', toExcel],
  ];
  for (const [tool, engine] of tools) {
    test(`pdf-to-${tool}: every corpus PDF converts or fails clearly`, async () => {
      const tally = new Tally(`pdf-to-${tool}`);
      for (const entry of corpusPdfs) {
        const input = { name: entry.file.split('/').pop()!, bytes: readCorpus(entry), password: corpusPassword(entry) };
        try {
          const result = await engine([input], { maxPages: MAX_PAGES }, {});
          const recovered = RECOVERED_FROM_OBJECTS[entry.file];
          if (entry.expect === 'error' && !recovered) {
            tally.fail(`${entry.file}: converted but the corpus expects an error`);
            continue;
          }
          let problem = await check(tool, result.bytes, recovered ? { ...entry, pages: recovered.pages } : entry);
          if (!problem && recovered && tool === 'word' && !recovered.text.test((await readDocx(result.bytes)).text))
            problem = 'the page read from its objects lost its text';
          if (problem) tally.fail(`${entry.file}: ${problem}`);
          else tally.pass();
        } catch (error) {
          const clear = isFolioError(error) && error.message.length > 8;
          if (entry.expect === 'error' && clear) tally.pass();
          else tally.fail(`${entry.file}: ${(error as Error).name}: ${(error as Error).message}`);
        }
      }
      tally.print();
      expect(tally.failed).toEqual([]);
    });
  }

  test('OCR: scans are recognised (character error rate against an OCR text layer printed)', async () => {
    const entry = corpusPdfs.find((e) => e.file.endsWith('pypdf-seige-of-vicksburg-sample-ocr.pdf'));
    const scan = corpusPdfs.find((e) => e.file.endsWith('ocrmypdf-c02-22.pdf'));
    if (!entry || !scan) return;
    // A page with an OCR text layer: the page picture (text layer is invisible) is recognised
    // again and compared with the layer, which is itself OCR of clean print.
    const doc = await openPdfjs(readCorpus(entry));
    const recogniser = await createRecogniser();
    try {
      const rates: number[] = [];
      const orderFree: number[] = [];
      for (const pageNumber of [1, 2, 3]) {
        const page = await doc.getPage(pageNumber);
        const reference = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
        const items = await recogniser.recognisePage(doc, pageNumber);
        // The words in Folio's own reading order (lines, columns, paragraphs), as the exports write them.
        const hypothesis = buildParagraphs(readingOrder(buildFragments(items)))
          .map((p) => p.text)
          .join(' ');
        rates.push(characterErrorRate(reference, hypothesis));
        orderFree.push(orderFreeCharacterErrorRate(reference, hypothesis));
      }
      const show = (xs: number[]) => xs.map((r) => `${(r * 100).toFixed(1)} %`).join(', ');
      console.log(
        `[corpus] OCR vicksburg pages 1-3: CER ${show(rates)} in reading order; ${show(orderFree)} with words sorted`,
      );
      // Pages 1 and 2 are running text: they must meet the issue's ≤ 5 % goal. Page 3 wraps text
      // around an engraving with captions (tesseract reads noise in the picture and the layer's own
      // order differs): printed, not asserted.
      expect((rates[0] + rates[1]) / 2).toBeLessThanOrEqual(0.05);
    } finally {
      await recogniser.terminate();
      await doc.destroy();
    }
    // An image-only scan becomes an editable Word document.
    const result = await toWord([{ name: 'scan.pdf', bytes: readCorpus(scan) }], { ocr: true }, {});
    const docx = await readDocx(result.bytes);
    const words = docx.text.split(/\s+/).filter((w) => /^[a-z]{3,}$/i.test(w));
    console.log(`[corpus] OCR ${scan.file}: ${words.length} words recognised`);
    expect(words.length).toBeGreaterThan(100);
  });
});
