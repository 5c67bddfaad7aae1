/**
 * Pages drawn in the browser look like the PDF: every PDF of ../shared/corpus whose manifest
 * expects it to open ("ok") goes through /api/pdf/toJpg from inside the page (PNG, 72 dpi — the
 * engine worker a visitor's browser uses), and each page is held against poppler's
 * `pdftoppm -r 72 -png` of the same page. A page whose block SSIM on grey is below 0.90 fails,
 * named by file and page. Up to PAGES_PER_FILE pages a file (first, second, middle, last) keep the
 * suite at a few minutes. The summary (pages compared, lowest SSIM, files per font kind from
 * `pdffonts`) is printed and written to test-results/render-fidelity.txt.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { SCREENSHOT_DIR, type WatchedPage, sharedBrowser } from './harness.ts';
import { pageWithApi, postInPage } from './page-api.ts';
import {
  CORPUS_DIR,
  corpusPassword,
  corpusPdfs,
  corpusPresent,
  readCorpus,
  type CorpusEntry,
} from '../support/corpus.ts';
import {
  blockSsim,
  boxReduce,
  decodeImage,
  pdfFontKinds,
  pdftoppmPng,
  popplerPresent,
  type Raster,
} from '../support/images.ts';

const DPI = 72;
const MIN_SSIM = 0.9;
const PAGES_PER_FILE = 4;

/**
 * Two references, both poppler's drawing of the page: `pdftoppm -r 72`, and `pdftoppm -r 216`
 * area-averaged down to 72 dpi (exact pixel coverage of the same drawing). A page passes when its
 * SSIM against either is at least MIN_SSIM. Poppler's own 72-dpi rasteriser makes choices of its
 * own for what is smaller than a pixel — stems of 10-pt glyphs, pictures reduced 4 × or more — that
 * its supersampled drawing does not share (pdftoppm -r 72 against it: 0.58–0.87 on the corpus'
 * scans, 0.91–0.92 on TeX pages), while Folio, which samples pictures by area and glyphs by exact
 * path coverage, meets it at 0.90–0.99. The summary counts the pages judged by the second one.
 */
const SUPERSAMPLE = 3;

/** Where poppler is the renderer at fault, with the reason; each is judged as its entry says. */
const RENDERER_DIFFERENCES: ReadonlyArray<{ file: string; page?: number; reason: string; userUnit?: number }> = [
  {
    file: 'pdf/malformed/pdflib-invalid-root-ref.pdf',
    reason:
      'poppler cannot open it (pdftoppm: "Top-level pages object is wrong type"; qpdf cannot repair its /Root ' +
      'either);' +
      ' pdf.js rebuilds the page tree from the objects: judged only for drawing something',
  },
  {
    file: 'pdf/rotated/qpdf-overlay-copy-annotations.pdf',
    page: 2,
    userUnit: 2,
    reason: "poppler ignores the page's /UserUnit 2 and draws it at half its size: Folio's picture is compared halved",
  },
];

/** First, second, middle and last page, at most PAGES_PER_FILE of them. */
/** The share of pixels that are not near-white. */
function inkShare(raster: Raster): number {
  let ink = 0;
  for (let p = 0; p < raster.data.length; p += 4)
    if (raster.data[p] + raster.data[p + 1] + raster.data[p + 2] < 600) ink++;
  return ink / (raster.width * raster.height);
}

function pagesToCompare(count: number): number[] {
  const pages = [...new Set([1, 2, Math.ceil(count / 2), count])].filter((p) => p >= 1 && p <= count);
  return pages.sort((a, b) => a - b).slice(0, PAGES_PER_FILE);
}

const entries = corpusPdfs.filter((entry) => entry.expect === 'ok' && entry.pages);
const ready = corpusPresent && popplerPresent();

interface Compared {
  file: string;
  page: number;
  ssim: number;
  /** Against pdftoppm -r 72 alone. */
  direct: number;
  /** Judged against poppler at SUPERSAMPLE × 72 dpi area-averaged (see SUPERSAMPLE). */
  supersampled?: boolean;
}
const compared: Compared[] = [];
const filesPerFontKind = new Map<string, Set<string>>();

let tab: WatchedPage;

async function renderInBrowser(entry: CorpusEntry, pages: number[]): Promise<Map<number, Uint8Array>> {
  const password = corpusPassword(entry);
  const answer = await postInPage(
    tab.page,
    '/api/pdf/toJpg',
    [['file', entry.file.split('/').pop()!, readCorpus(entry)]],
    {
      mode: 'pages',
      resolution: String(DPI),
      format: 'png',
      pages: pages.join(','),
      ...(password ? { inputPassword: password } : {}),
    },
  );
  expect(answer.status, `${entry.file}: ${answer.text ?? ''}`).toBe(200);
  expect(
    answer.notes.filter((note) => /could not be drawn/.test(note)),
    `${entry.file}: pages not drawn`,
  ).toEqual([]);
  if (pages.length === 1) return new Map([[pages[0], answer.bytes]]);
  const zip = await JSZip.loadAsync(answer.bytes);
  const images = new Map<number, Uint8Array>();
  for (const name of Object.keys(zip.files)) {
    const page = Number(/-p(\d+)\.png$/.exec(name)?.[1]);
    images.set(page, await zip.file(name)!.async('uint8array'));
  }
  return images;
}

describe.skipIf(!ready)('pages drawn in Chromium match poppler (block SSIM ≥ 0.90 at 72 dpi)', () => {
  const shared = sharedBrowser();
  beforeAll(async () => {
    tab = await pageWithApi(shared.browser);
  });
  afterAll(async () => {
    if (!compared.length) return;
    const lowest = compared.reduce((low, c) => (c.ssim < low.ssim ? c : low));
    const lowestDirect = compared.reduce((low, c) => (c.direct < low.direct ? c : low));
    const mean = compared.reduce((sum, c) => sum + c.ssim, 0) / compared.length;
    const kinds = [...filesPerFontKind]
      .sort((a, b) => b[1].size - a[1].size)
      .map(([kind, files]) => `${kind} ${files.size}`);
    const summary = [
      `[fidelity] ${compared.length} pages of ${new Set(compared.map((c) => c.file)).size} files compared with ` +
        `pdftoppm at ${DPI} dpi`,
      `[fidelity] block SSIM mean ${mean.toFixed(3)}, lowest ${lowest.ssim.toFixed(3)} (${lowest.file} ` +
        `p${lowest.page});` +
        (` against pdftoppm -r ${DPI} alone: lowest ${lowestDirect.direct.toFixed(3)} (${lowestDirect.file} ` +
          `p${lowestDirect.page})`),
      `[fidelity] ${compared.filter((c) => c.supersampled).length} of them judged against poppler at ` +
        `${DPI * SUPERSAMPLE} dpi` +
        ` area-averaged to ${DPI}`,
      `[fidelity] poppler at fault: ` +
        `${RENDERER_DIFFERENCES.map((d) => `${d.file}${d.page ? ` p${d.page}` : ''} (${d.reason})`).join('; ')}`,
      `[fidelity] files per font kind: ${kinds.join(', ')}`,
    ].join('\n');
    console.log(summary);
    mkdirSync('test-results', { recursive: true });
    writeFileSync(
      'test-results/render-fidelity.txt',
      `${summary}\n` +
        `${compared.map((c) => `${c.ssim.toFixed(3)} ${c.file} p${c.page}${c.supersampled ? ' (supersampled reference)' : ''}`).join('\n')}\n`,
    );
  });

  test.each(entries.map((entry) => [entry.file, entry] as const))(
    '%s',
    async (_file, entry) => {
      const path = resolve(CORPUS_DIR, entry.file);
      const passwords = {
        user: entry.encryption?.user_password ?? undefined,
        owner: entry.encryption?.owner_password ?? undefined,
      };
      const pages = pagesToCompare(entry.pages!);
      const kinds = pdfFontKinds(path, pages[0], pages[pages.length - 1], passwords);
      for (const kind of kinds.length ? kinds : ['no fonts']) {
        if (!filesPerFontKind.has(kind)) filesPerFontKind.set(kind, new Set());
        filesPerFontKind.get(kind)!.add(entry.file);
      }
      const images = await renderInBrowser(entry, pages);
      const below: string[] = [];
      for (const page of pages) {
        const ours = images.get(page);
        expect(ours, `${entry.file} page ${page} missing from the output`).toBeDefined();
        const excused = RENDERER_DIFFERENCES.find((d) => d.file === entry.file && (d.page ?? page) === page);
        let drawn = await decodeImage(ours!);
        if (excused?.userUnit) drawn = boxReduce(drawn, excused.userUnit);
        else if (excused) {
          expect(inkShare(drawn), `${entry.file} page ${page} (${excused.reason})`).toBeGreaterThan(0.001);
          continue;
        }
        const reference = await decodeImage(pdftoppmPng(path, page, DPI, passwords));
        const size = `${drawn.width} × ${drawn.height} against ${reference.width} × ${reference.height}`;
        expect(Math.abs(drawn.width - reference.width), `${entry.file} page ${page} size ${size}`).toBeLessThanOrEqual(
          1,
        );
        expect(
          Math.abs(drawn.height - reference.height),
          `${entry.file} page ${page} size ${size}`,
        ).toBeLessThanOrEqual(1);
        let ssim = blockSsim(drawn, reference);
        let supersampled = false;
        if (ssim < MIN_SSIM) {
          const fine = boxReduce(await decodeImage(pdftoppmPng(path, page, DPI * SUPERSAMPLE, passwords)), SUPERSAMPLE);
          const oursAgainstFine = blockSsim(drawn, fine);
          if (oursAgainstFine >= MIN_SSIM) {
            ssim = oursAgainstFine;
            supersampled = true;
          }
        }
        compared.push({ file: entry.file, page, ssim, direct: blockSsim(drawn, reference), supersampled });
        if (ssim < MIN_SSIM) {
          below.push(`${entry.file} page ${page}: SSIM ${ssim.toFixed(3)}`);
          // Both pictures, to look at: test-results/fidelity/<file>-p<page>-{folio,poppler}.png
          const stem = `test-results/fidelity/${entry.file.replaceAll('/', '_')}-p${page}`;
          mkdirSync('test-results/fidelity', { recursive: true });
          writeFileSync(`${stem}-folio.png`, ours!);
          writeFileSync(`${stem}-poppler.png`, pdftoppmPng(path, page, DPI, passwords));
        }
      }
      expect(below, 'pages that do not look like poppler draws them').toEqual([]);
    },
    300_000,
  );

  /** Pages of the three producers whose text came out as boxes or not at all (issue #17), 1280 px wide. */
  test.each([
    ['pdf/clean/sf-pdflatex-4-pages.pdf', 1, 'tex-type1'],
    ['pdf/clean/sf-002-trivial-libre-office-writer.pdf', 1, 'libreoffice-truetype'],
    ['pdf/clean/pdflib-us-constitution.pdf', 2, 'cff'],
  ] as const)(
    '%s page %i at 1280 px matches poppler; picture kept in test-results/screenshots',
    async (file, page, label) => {
      const entry = entries.find((e) => e.file === file)!;
      const path = resolve(CORPUS_DIR, file);
      const width = Number(
        / size:\s+([\d.]+)/.exec(
          execFileSync('pdfinfo', ['-f', String(page), '-l', String(page), path], { encoding: 'utf8' }),
        )?.[1],
      );
      const dpi = Math.round((1280 * 72) / width); // the form takes whole dpi: 1280 px give or take a few
      const answer = await postInPage(
        tab.page,
        '/api/pdf/toJpg',
        [['file', file.split('/').pop()!, readCorpus(entry)]],
        {
          mode: 'pages',
          resolution: 'custom',
          dpi: String(dpi),
          format: 'png',
          pages: String(page),
        },
      );
      expect(answer.status, answer.text).toBe(200);
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      writeFileSync(`${SCREENSHOT_DIR}/converted-${label}-1280.png`, answer.bytes);
      const drawn = await decodeImage(answer.bytes);
      expect(Math.abs(drawn.width - 1280)).toBeLessThanOrEqual(5);
      expect(blockSsim(drawn, await decodeImage(pdftoppmPng(path, page, dpi)))).toBeGreaterThanOrEqual(MIN_SSIM);
    },
  );
});

if (!ready) {
  describe('render fidelity', () => {
    test.skip(
      corpusPresent ? 'pdftoppm is not installed: skipped' : `corpus not found at ${CORPUS_DIR}: skipped`,
      () => {},
    );
  });
}
