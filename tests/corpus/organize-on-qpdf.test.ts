/**
 * organize-pdf with deleted pages runs on qpdf (qpdf-assembly.ts) and must give what pdf-lib's page
 * copier gives (rebuildWithout, still the path for files qpdf cannot assemble): over corpus files, the
 * same pages in the same order (text by poppler's pdftotext, sizes and rotations by pdf.js), the same
 * bookmarks to the same pages, and qpdf --check clean — with blank pages, a rotated page and a
 * duplicate in the order. Internal links are checked against the source itself: each kept link leads
 * to where its target page landed first, links into deleted pages are gone. (pdf-lib's copier points
 * the links of a duplicated page at the wrong page when their target comes after it.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import {
  parsePageOrder,
  rearrangeInPlace,
  rebuildWithout,
  run as organize,
} from '../../workers/engine/tools/organize-pdf.ts';
import { openPdf } from '../../workers/engine/lib/pdf/pdf-open.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { corpusPdfs, describeCorpus, readCorpus } from '../support/corpus.ts';
import { qpdfCheck } from '../support/pdf.ts';

const FILES = [
  'pdf/clean/sf-pdflatex-outline.pdf',
  'pdf/large/texlive-interface3.pdf',
  'pdf/rotated/qpdf-overlay-copy-annotations.pdf',
  'pdf/clean/sf-multicolumn.pdf',
  'pdf/clean/pdflib-us-constitution.pdf',
  'pdf/rotated/qpdf-rotated.pdf',
];
/** Odd pages but the first deleted, a blank page, page 1 turned and then repeated. */
const ORDER = 'even, blank, 1r90, 1, blank';
/** Every page kept: even pages first, a blank page, the odd ones, page 1 again turned, a blank page. */
const ORDER_ALL = 'even, blank, odd, 1r90, blank';
/** The binary comment qpdf writes on a file's second line (pdf-lib writes another). */
const QPDF_HEADER = /^%PDF-1\.\d+\s+%\xbf\xf7\xa2\xfe/;

/** Per page: text (pdftotext), size and rotation; bookmarks and internal links as result page numbers. */
async function describe(bytes: Uint8Array, dir: string, tag: string) {
  const path = join(dir, `${tag}.pdf`);
  writeFileSync(path, bytes);
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 }).split(
    '\f',
  );
  const doc = await openPdfjs(bytes);
  const pages: Array<{ text: string; view: number[]; rotate: number; links: number[] }> = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const links: number[] = [];
    for (const annotation of await page.getAnnotations()) {
      if (annotation.subtype !== 'Link' || !annotation.dest) continue;
      const dest = typeof annotation.dest === 'string' ? await doc.getDestination(annotation.dest) : annotation.dest;
      // -1: a link whose destination does not resolve (a name the file does not define).
      links.push(dest ? await doc.getPageIndex(dest[0] as { num: number; gen: number }) : -1);
    }
    pages.push({ text: text[n - 1], view: page.view, rotate: page.rotate, links });
  }
  const bookmarks: Array<[string, number | undefined]> = [];
  const walk = async (items: Awaited<ReturnType<typeof doc.getOutline>>) => {
    for (const item of items ?? []) {
      const dest = typeof item.dest === 'string' ? await doc.getDestination(item.dest) : item.dest;
      bookmarks.push([item.title, dest ? await doc.getPageIndex(dest[0] as { num: number; gen: number }) : undefined]);
      await walk(item.items);
    }
  };
  await walk(await doc.getOutline());
  await doc.destroy();
  return { pages, bookmarks };
}

describeCorpus('organize-pdf deleting pages on qpdf gives what the pdf-lib copier gives', () => {
  for (const file of FILES) {
    test(file, async () => {
      const entry = corpusPdfs.find((e) => e.file === file)!;
      const bytes = readCorpus(entry);
      const onQpdf = await organize([{ name: 'doc.pdf', bytes }], { pageOrder: ORDER }, {});
      const { doc } = await openPdf({ name: 'doc.pdf', bytes });
      const items = parsePageOrder(ORDER, doc.getPageCount());
      const onPdfLib = await rebuildWithout(doc, items, {});
      // qpdf's file with Folio's incremental update, not a pdf-lib rewrite.
      expect(new TextDecoder('latin1').decode(onQpdf.bytes).match(/startxref/g)?.length).toBe(2);
      expect((await qpdfCheck(onQpdf.bytes)).ok).toBe(true);
      const dir = mkdtempSync(join(tmpdir(), 'folio-organize-'));
      try {
        const got = await describe(onQpdf.bytes, dir, 'qpdf');
        const want = await describe(onPdfLib, dir, 'pdflib');
        expect(got.pages.length).toBe(items.length);
        const withoutLinks = (pages: typeof got.pages) => pages.map(({ links: _links, ...page }) => page);
        expect(withoutLinks(got.pages)).toEqual(withoutLinks(want.pages));
        expect(got.bookmarks).toEqual(want.bookmarks);
        const source = await describe(bytes, dir, 'source');
        const firstPlace = new Map<number, number>();
        items.forEach((item, place) => {
          if (item.kind === 'page' && !firstPlace.has(item.page - 1)) firstPlace.set(item.page - 1, place);
        });
        const expectedLinks = items.map((item) =>
          item.kind === 'blank'
            ? []
            : source.pages[item.page - 1].links.flatMap((target) => {
                const place = firstPlace.get(target);
                return place === undefined ? [] : [place];
              }),
        );
        expect(got.pages.map((page) => page.links)).toEqual(expectedLinks);
        console.log(
          `[corpus] organize on qpdf ${file}: ${got.pages.length} pages, ${got.bookmarks.length} bookmarks, ` +
            (`${got.pages.reduce((n, p) => n + p.links.length, 0)} links; ${onQpdf.bytes.byteLength} bytes ` +
              `(pdf-lib ${onPdfLib.byteLength})`),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describeCorpus('organize-pdf keeping every page on qpdf gives what rearranging in pdf-lib gives', () => {
  for (const file of FILES) {
    test(file, async () => {
      const entry = corpusPdfs.find((e) => e.file === file)!;
      const bytes = readCorpus(entry);
      const onQpdf = await organize([{ name: 'doc.pdf', bytes }], { pageOrder: ORDER_ALL }, {});
      const { doc } = await openPdf({ name: 'doc.pdf', bytes });
      const items = parsePageOrder(ORDER_ALL, doc.getPageCount());
      const uses = new Map<number, number>();
      for (const item of items) if (item.kind === 'page') uses.set(item.page, (uses.get(item.page) ?? 0) + 1);
      const onPdfLib = await rearrangeInPlace(doc, items, uses, {});
      // Written by qpdf, not by pdf-lib's fallback.
      expect(new TextDecoder('latin1').decode(onQpdf.bytes.subarray(0, 32))).toMatch(QPDF_HEADER);
      expect((await qpdfCheck(onQpdf.bytes)).ok).toBe(true);
      const dir = mkdtempSync(join(tmpdir(), 'folio-organize-all-'));
      try {
        const got = await describe(onQpdf.bytes, dir, 'qpdf');
        const want = await describe(onPdfLib, dir, 'pdflib');
        const source = await describe(bytes, dir, 'source');
        // Each page as in the source, turned as asked; a page keeps its objects, so a link or bookmark
        // to it leads to its first place. (Checked against the source, not pdf-lib's path: that one
        // loses a /Rotate the page inherits from an intermediate /Pages node, e.g. qpdf-rotated's page 14.)
        const firstPlace = new Map<number, number>();
        items.forEach((item, place) => {
          if (item.kind === 'page' && !firstPlace.has(item.page - 1)) firstPlace.set(item.page - 1, place);
        });
        let model = source.pages[0];
        const expected = items.map((item) => {
          if (item.kind === 'blank') return { text: '', view: model.view, rotate: model.rotate, links: [] };
          const page = source.pages[item.page - 1];
          const links = page.links.map((target) => (target < 0 ? target : firstPlace.get(target)!));
          model = { ...page, rotate: (page.rotate + item.rotate + 360) % 360, links };
          return model;
        });
        // pdftotext reads a turned page in another order: its words are compared, not their order.
        const words = (pages: typeof got.pages) =>
          pages.map((page) => ({ ...page, text: page.text.split(/\s+/).filter(Boolean).sort().join(' ') }));
        expect(words(got.pages)).toEqual(words(expected));
        expect(got.bookmarks).toEqual(want.bookmarks);
        console.log(
          `[corpus] organize every page on qpdf ${file}: ${got.pages.length} pages, ${got.bookmarks.length} ` +
            `bookmarks, ${got.pages.reduce((n, p) => n + p.links.length, 0)} links; ${onQpdf.bytes.byteLength} bytes ` +
            `(pdf-lib ${onPdfLib.byteLength})`,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
