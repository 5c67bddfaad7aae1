/**
 * The four page tools over every PDF of the corpus (issue #3): each output opens in pdf.js, passes
 * qpdf --check and has the expected page count (and rotation, for rotate-pdf); encrypted files go
 * through with their password; expect:"error" files give a clear named error. Prints
 * `[corpus] page-tools: N passed, M failed`.
 */
import { afterAll, expect, test } from 'vitest';
import JSZip from 'jszip';
import { baseName } from '../../shared/format.ts';
import { run as merge } from '../../workers/engine/tools/merge-pdf.ts';
import { run as split } from '../../workers/engine/tools/split-pdf.ts';
import { run as rotate } from '../../workers/engine/tools/rotate-pdf.ts';
import { run as organize } from '../../workers/engine/tools/organize-pdf.ts';
import { isFolioError } from '../../workers/engine/lib/errors.ts';
import { openPdfjs } from '../../workers/engine/lib/pdf/pdfjs.ts';
import type { EngineInput, EngineResult } from '../../workers/engine/lib/types.ts';
import {
  RECOVERED_FROM_OBJECTS,
  Tally,
  corpusPassword,
  corpusPdfs,
  describeCorpus,
  readCorpus,
  type CorpusEntry,
} from '../support/corpus.ts';
import { qpdfCheck } from '../support/pdf.ts';
import { labelledPdf } from '../support/page-fixtures.ts';

/**
 * A content stream whose LZW data is corrupt: no tool can recover the bytes (qpdf itself keeps them
 * raw), so the page tools carry the stream over unchanged and qpdf --check reports that stream, and
 * only that, in the output as in the input.
 */
const DAMAGED_STREAM_FILES = new Set(['pdf/malformed/qpdf-damaged-stream.pdf']);
let currentFile = '';

/** Opens with pdf.js, checks with qpdf, returns the pages' /Rotate values. */
async function checkPdf(bytes: Uint8Array, what: string): Promise<number[]> {
  const check = await qpdfCheck(bytes);
  if (DAMAGED_STREAM_FILES.has(currentFile) && !check.ok) {
    const problems = check.output
      .split('\n')
      .filter((line) => /error|warning/i.test(line) || /this\.program:/.test(line));
    expect(
      problems.every((line) => /LZWDecoder|decoding stream/i.test(line)),
      `${what}: ${problems.join('; ')}`,
    ).toBe(true);
  } else {
    expect(check.ok, `${what}: qpdf --check\n${check.output.slice(0, 500)}`).toBe(true);
  }
  const doc = await openPdfjs(bytes);
  const rotations: number[] = [];
  for (let n = 1; n <= doc.numPages; n++) rotations.push((await doc.getPage(n)).rotate);
  await doc.destroy();
  return rotations;
}

async function originalRotations(entry: CorpusEntry): Promise<number[]> {
  const doc = await openPdfjs(readCorpus(entry), { password: corpusPassword(entry) });
  const rotations: number[] = [];
  for (let n = 1; n <= doc.numPages; n++) rotations.push((await doc.getPage(n)).rotate);
  await doc.destroy();
  return rotations;
}

type ToolCase = {
  tool: string;
  run: (input: EngineInput, pages: number) => Promise<EngineResult>;
  verify: (result: EngineResult, entry: CorpusEntry) => Promise<void>;
};

const one = labelledPdf('X', 1);

const TOOLS: ToolCase[] = [
  {
    tool: 'merge-pdf',
    run: async (input) => merge([input, { name: 'one.pdf', bytes: await one }], { bookmarkEachFile: true }, {}),
    verify: async (result, entry) => {
      expect((await checkPdf(result.bytes, 'merge')).length).toBe(entry.pages! + 1);
    },
  },
  {
    tool: 'split-pdf',
    run: (input, pages) => split([input], { mode: 'everyN', everyN: Math.max(1, Math.ceil(pages / 2)) }, {}),
    verify: async (result, entry) => {
      if (entry.pages === 1) {
        expect(result.mime).toBe('application/pdf');
        expect((await checkPdf(result.bytes, 'split')).length).toBe(1);
        return;
      }
      expect(result.filename).toBe(`${baseName(entry.file)}-split.zip`);
      const zip = await JSZip.loadAsync(result.bytes);
      const names = Object.keys(zip.files);
      expect(names.length).toBe(2);
      let total = 0;
      for (const name of names)
        total += (await checkPdf(await zip.files[name].async('uint8array'), `split ${name}`)).length;
      expect(total).toBe(entry.pages);
    },
  },
  {
    tool: 'rotate-pdf',
    run: (input) => rotate([input], { angle: '90' }, {}),
    verify: async (result, entry) => {
      const before = await originalRotations(entry);
      const after = await checkPdf(result.bytes, 'rotate');
      expect(after).toEqual(before.map((r) => (r + 90) % 360));
    },
  },
  {
    tool: 'organize-pdf',
    run: (input, pages) => organize([input], { pageOrder: pages > 1 ? 'last-1, 1r180' : '1, blank, 1r90' }, {}),
    verify: async (result, entry) => {
      expect((await checkPdf(result.bytes, 'organize')).length).toBe(entry.pages! + (entry.pages! > 1 ? 1 : 2));
    },
  },
];

describeCorpus('page tools over the corpus', () => {
  const tally = new Tally('page-tools');
  for (const entry of corpusPdfs) {
    for (const { tool, run, verify } of TOOLS) {
      test(`${tool} ${entry.file}`, async () => {
        currentFile = entry.file;
        const input: EngineInput = {
          name: entry.file.split('/').pop()!,
          bytes: readCorpus(entry),
          password: corpusPassword(entry),
        };
        try {
          if (entry.expect === 'ok') {
            const result = await run(input, entry.pages!);
            await verify(result, entry);
          } else {
            const outcome = await run(input, 1).then(
              (result) => result,
              (error: unknown) => error,
            );
            if (outcome instanceof Error) {
              expect(isFolioError(outcome), String(outcome)).toBe(true);
            } else {
              // Only a file read from its objects (RECOVERED_FROM_OBJECTS) may come out: then it must be sound.
              expect(RECOVERED_FROM_OBJECTS[entry.file], entry.file).toBeDefined();
              const result = outcome as EngineResult;
              const outputs =
                result.mime === 'application/zip'
                  ? await Promise.all(
                      Object.values((await JSZip.loadAsync(result.bytes)).files).map((file) =>
                        file.async('uint8array'),
                      ),
                    )
                  : [result.bytes];
              for (const bytes of outputs) await checkPdf(bytes, tool);
            }
          }
          tally.pass();
        } catch (error) {
          tally.fail(`${tool} ${entry.file}: ${(error as Error).message.split('\n')[0]}`);
          throw error;
        }
      });
    }
  }
  afterAll(() => tally.print());
});

describeCorpus('merge-pdf keeps bookmarks and links', () => {
  /** Top-level outline titles with the page index each points to, and internal links per page. */
  async function structure(bytes: Uint8Array) {
    const doc = await openPdfjs(bytes);
    const outline = (await doc.getOutline()) ?? [];
    const items: Array<{ title: string; page: number }> = [];
    for (const item of outline) {
      const dest = typeof item.dest === 'string' ? await doc.getDestination(item.dest) : item.dest;
      items.push({
        title: item.title,
        page: dest ? await doc.getPageIndex(dest[0] as { num: number; gen: number }) : -1,
      });
    }
    let links = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      for (const annotation of await (await doc.getPage(n)).getAnnotations()) {
        if (annotation.subtype !== 'Link' || !annotation.dest) continue;
        // Counted only when the link leads to a page of this document (a name must be defined).
        const dest = typeof annotation.dest === 'string' ? await doc.getDestination(annotation.dest) : annotation.dest;
        const ref = (dest as unknown[] | null)?.[0];
        if (ref && typeof ref === 'object' && (await doc.getPageIndex(ref as { num: number; gen: number })) >= 0)
          links++;
      }
    }
    await doc.destroy();
    return { items, links, pages: doc.numPages };
  }

  for (const file of ['pdf/clean/sf-pdflatex-outline.pdf', 'pdf/large/sf-geotopo-komprimiert.pdf']) {
    test(file, async () => {
      const entry = corpusPdfs.find((e) => e.file === file)!;
      const before = await structure(readCorpus(entry));
      expect(before.items.length).toBeGreaterThan(0);
      const result = await merge(
        [
          { name: 'a.pdf', bytes: readCorpus(entry) },
          { name: 'b.pdf', bytes: readCorpus(entry) },
        ],
        {},
        {},
      );
      const after = await structure(result.bytes);
      // Both copies' bookmarks, the second set pointing into the second copy; every link kept.
      expect(after.items.map((i) => i.title)).toEqual([...before.items, ...before.items].map((i) => i.title));
      expect(after.items.map((i) => i.page)).toEqual([
        ...before.items.map((i) => i.page),
        ...before.items.map((i) => i.page + before.pages),
      ]);
      expect(after.links).toBe(before.links * 2);
    });
  }
});

describeCorpus('merge-pdf keeps form fields working', () => {
  const topLevelFields = async (bytes: Uint8Array) => {
    const { PDFDocument: Doc, PDFArray, PDFDict, PDFName } = await import('pdf-lib');
    const doc = await Doc.load(bytes, { ignoreEncryption: true });
    const fields = doc.catalog
      .lookupMaybe(PDFName.of('AcroForm'), PDFDict)
      ?.lookupMaybe(PDFName.of('Fields'), PDFArray);
    return fields?.size() ?? 0;
  };
  for (const entry of corpusPdfs.filter((e) => e.kind === 'pdf/forms' && !e.file.includes('xfa'))) {
    test(entry.file, async () => {
      const before = await topLevelFields(readCorpus(entry));
      const result = await merge(
        [
          { name: 'a.pdf', bytes: readCorpus(entry) },
          { name: 'b.pdf', bytes: readCorpus(entry) },
        ],
        {},
        {},
      );
      expect(await topLevelFields(result.bytes)).toBe(before * 2);
      const check = await qpdfCheck(result.bytes);
      expect(check.ok, check.output.slice(0, 400)).toBe(true);
    });
  }
});

describeCorpus('split-pdf by chapter over outlined documents', () => {
  for (const file of ['pdf/clean/sf-pdflatex-outline.pdf', 'pdf/large/texlive-interface3.pdf']) {
    test(file, async () => {
      const entry = corpusPdfs.find((e) => e.file === file)!;
      const result = await split([{ name: 'doc.pdf', bytes: readCorpus(entry) }], { mode: 'outline' }, {});
      const parts = result.mime === 'application/zip' ? Object.values((await JSZip.loadAsync(result.bytes)).files) : [];
      let total = 0;
      for (const part of parts)
        total += (await checkPdf(await part.async('uint8array'), `chapter ${part.name}`)).length;
      if (parts.length === 0) total = (await checkPdf(result.bytes, 'chapter')).length;
      expect(total).toBe(entry.pages); // every page in exactly one chapter
      console.log(
        `[corpus] split by chapter ${file}: ${parts.length || 1} parts, e.g. ${parts
          .slice(0, 3)
          .map((p) => p.name)
          .join(', ')}`,
      );
    });
  }
});

describeCorpus('organize-pdf deleting pages keeps the rest sound', () => {
  for (const file of [
    'pdf/clean/sf-pdflatex-outline.pdf',
    'pdf/large/texlive-interface3.pdf',
    'pdf/rotated/qpdf-overlay-copy-annotations.pdf',
    'pdf/forms/pdflib-with-xfa-fields.pdf',
  ]) {
    test(file, async () => {
      const entry = corpusPdfs.find((e) => e.file === file)!;
      const result = await organize([{ name: 'doc.pdf', bytes: readCorpus(entry) }], { pageOrder: 'even, 1' }, {});
      currentFile = file;
      const pages = await checkPdf(result.bytes, 'organize even,1');
      expect(pages.length).toBe(Math.floor(entry.pages! / 2) + 1);
      // Every bookmark left points at a page of the result.
      const doc = await openPdfjs(result.bytes);
      for (const item of (await doc.getOutline()) ?? []) {
        if (!item.dest) continue;
        const dest = typeof item.dest === 'string' ? await doc.getDestination(item.dest) : item.dest;
        const index = await doc.getPageIndex(dest![0] as { num: number; gen: number });
        expect(index).toBeGreaterThanOrEqual(0);
      }
      await doc.destroy();
    });
  }
});

describeCorpus('split-pdf keeps the links and bookmarks inside each part', () => {
  /** Per page (0-based): the page index each internal link leads to; and top-level bookmark targets. */
  async function linkTargets(bytes: Uint8Array) {
    const doc = await openPdfjs(bytes);
    const perPage: number[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const targets: number[] = [];
      for (const annotation of await (await doc.getPage(n)).getAnnotations()) {
        if (annotation.subtype !== 'Link' || !annotation.dest) continue;
        const dest = typeof annotation.dest === 'string' ? await doc.getDestination(annotation.dest) : annotation.dest;
        const ref = (dest as unknown[] | null)?.[0];
        targets.push(ref && typeof ref === 'object' ? await doc.getPageIndex(ref as { num: number; gen: number }) : -1);
      }
      perPage.push(targets);
    }
    const bookmarks: number[] = [];
    for (const item of (await doc.getOutline()) ?? []) {
      const dest = typeof item.dest === 'string' ? await doc.getDestination(item.dest) : item.dest;
      if (dest) bookmarks.push(await doc.getPageIndex(dest[0] as { num: number; gen: number }));
    }
    await doc.destroy();
    return { perPage, bookmarks };
  }

  test('pdf/large/sf-geotopo-komprimiert.pdf in two parts', async () => {
    const entry = corpusPdfs.find((e) => e.file === 'pdf/large/sf-geotopo-komprimiert.pdf')!;
    const half = Math.ceil(entry.pages! / 2);
    const source = await linkTargets(readCorpus(entry));
    const result = await split([{ name: 'doc.pdf', bytes: readCorpus(entry) }], { mode: 'everyN', everyN: half }, {});
    const parts = Object.values((await JSZip.loadAsync(result.bytes)).files).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    expect(parts.length).toBe(2);
    for (const [p, part] of parts.entries()) {
      const first = p * half;
      const last = Math.min(entry.pages!, first + half) - 1;
      const inPart = (index: number) => index >= first && index <= last;
      const got = await linkTargets(await part.async('uint8array'));
      // Every link whose target lies in the same part is kept and leads to that page; the others go.
      const expected = source.perPage
        .slice(first, last + 1)
        .map((targets) => targets.filter(inPart).map((t) => t - first));
      expect(expected.flat().length).toBeGreaterThan(0);
      expect(got.perPage).toEqual(expected);
      expect(got.bookmarks).toEqual(source.bookmarks.filter(inPart).map((t) => t - first));
    }
  });
});
