/**
 * Office exports (PDF → Word / PowerPoint / Excel, OCR). With LibreOffice (`soffice`) installed:
 * the corpus's real .docx/.xlsx/.pptx files are turned into PDFs by LibreOffice, converted back by
 * Folio, and compared with the source — word-level similarity in reading order for Word (and the
 * same figure for LibreOffice's own PDF import, the reference to beat), cells with the right value
 * in the right relative position for Excel, slide count and per-slide text for PowerPoint — and
 * every Folio output is opened by LibreOffice (`--convert-to pdf`). Without it, Folio's own figures
 * on generated fixtures. Always: speed (pages/s) and OCR character error rate and time per page.
 * OFFICE_BENCH_WIDE=n adds every n-th file of the wide corpus to the LibreOffice comparisons.
 * PDF → Excel is scored in the app's default mode (one sheet per table); OFFICE_BENCH_SHEETS=page
 * scores one sheet per page instead. OFFICE_BENCH_FILES=a,b keeps only the files whose names contain
 * one of those parts.
 * OFFICE_BENCH_MISSED=1 lists each workbook's cells Folio did not get right (sheet, row, column, value).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import ExcelJS from 'exceljs';
import { CORPUS, corpusFile, hasCommand, loadEngineModules, timed } from '../lib.ts';
import {
  atMostAsPrinted,
  bestOffsetMatchRate,
  bestOffsetMatches,
  buildReport,
  cellMatchRate,
  characterErrorRate,
  orderFreeCharacterErrorRate,
  normWords,
  printedOnPage,
  readDocx,
  readPptx,
  sheetGrid,
  withoutHidden,
  wordSimilarity,
} from '../../tests/support/office-fixtures.ts';

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function soffice(args: string[], cwd: string): boolean {
  try {
    execFileSync('soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${cwd}/profile`, ...args], {
      cwd,
      stdio: 'ignore',
      timeout: 600_000,
    });
    return true;
  } catch {
    return false;
  }
}

/** Body text of a .docx (paragraphs and table cells in document order). */
async function docxText(bytes: Uint8Array): Promise<string> {
  return (await readDocx(bytes)).text;
}

/** Bag-of-words F1, order ignored (printed beside the ordered figure). */
function bagF1(a: string, b: string): number {
  const count = (words: string[]) => words.reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>());
  const ca = count(normWords(a));
  const cb = count(normWords(b));
  let common = 0;
  for (const [w, n] of ca) common += Math.min(n, cb.get(w) ?? 0);
  const na = [...ca.values()].reduce((x, y) => x + y, 0);
  const nb = [...cb.values()].reduce((x, y) => x + y, 0);
  return na + nb === 0 ? 1 : (2 * common) / (na + nb);
}

const toArrayBuffer = (b: Uint8Array) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/**
 * Cell values as shown (numbers stay numbers; errors as their text), per sheet of a workbook. With
 * `printed`, only what a printout can show: hidden sheets are left out and hidden rows and columns
 * taken out of the grid, so "the right relative position" is the position on paper.
 */
async function workbookGrids(bytes: Uint8Array, { printed = false } = {}): Promise<unknown[][][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(toArrayBuffer(bytes));
  const sheets = printed ? book.worksheets.filter((sheet) => sheet.state === 'visible') : book.worksheets;
  return sheets.map((sheet) => {
    const grid = sheetGrid(sheet).map((row) =>
      (row ?? []).map((v) => {
        if (v && typeof v === 'object' && 'result' in v) return (v as { result: unknown }).result;
        if (v && typeof v === 'object' && 'text' in v) return (v as { text: unknown }).text;
        if (v && typeof v === 'object' && 'richText' in v)
          return (v as { richText: Array<{ text: string }> }).richText.map((r) => r.text).join('');
        if (v && typeof v === 'object' && 'error' in v) return (v as { error: string }).error;
        return v;
      }),
    );
    if (!printed) return grid;
    return withoutHidden(
      grid,
      (r) => Boolean(sheet.getRow(r + 1).hidden),
      (c) => Boolean(sheet.getColumn(c + 1).hidden),
    );
  });
}

/** The source's printed cells no output sheet holds at its best offset, as `    sheet 1 R3C2 "value"` lines. */
function missedCells(source: unknown[][][], folio: unknown[][][]): string[] {
  return source.flatMap((grid, s) =>
    bestOffsetMatches(grid, folio)
      .filter((cell) => !cell.matched)
      .map(({ r, c }) => `    sheet ${s + 1} R${r + 1}C${c + 1} ${JSON.stringify(grid[r][c])}`),
  );
}

/** Each printed cell's number format, in the grids `workbookGrids(bytes, { printed: true })` gives. */
async function printedFormats(bytes: Uint8Array): Promise<Array<Array<Array<string | undefined>>>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(toArrayBuffer(bytes));
  return book.worksheets
    .filter((sheet) => sheet.state === 'visible')
    .map((sheet) => {
      const formats: Array<Array<string | undefined>> = [];
      sheet.eachRow({ includeEmpty: true }, (row, r) =>
        row.eachCell({ includeEmpty: true }, (cell, c) => ((formats[r - 1] ??= [])[c - 1] = cell.numFmt || undefined)),
      );
      return withoutHidden(
        formats,
        (r) => Boolean(sheet.getRow(r + 1).hidden),
        (c) => Boolean(sheet.getColumn(c + 1).hidden),
      ) as Array<Array<string | undefined>>;
    });
}

/**
 * The Office files of one kind: the public corpus's, and with OFFICE_BENCH_WIDE=n every n-th file
 * the wide corpus's manifest expects to convert (office-wide/, Apache POI's test data).
 */
function officeSources(kind: 'docx' | 'xlsx' | 'pptx'): string[] {
  const parts = process.env.OFFICE_BENCH_FILES?.split(',').filter(Boolean);
  const all = allOfficeSources(kind);
  return parts ? all.filter((path) => parts.some((part) => basename(path).includes(part))) : all;
}

function allOfficeSources(kind: 'docx' | 'xlsx' | 'pptx'): string[] {
  const folder = join(CORPUS, 'office', kind);
  const paths = readdirSync(folder)
    .filter((f) => f.endsWith(`.${kind}`))
    .map((f) => join(folder, f));
  const every = Number(process.env.OFFICE_BENCH_WIDE);
  const manifestPath = join(CORPUS, 'office-wide', 'manifest.json');
  if (!every || !existsSync(manifestPath)) return paths;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Array<{
    file: string;
    kind: string;
    expect: string;
  }>;
  const wide = manifest.filter((entry) => entry.kind === `office-wide/${kind}` && entry.expect === 'ok');
  return [...paths, ...wide.filter((_, i) => i % every === 0).map((entry) => join(CORPUS, entry.file))];
}

export async function run(): Promise<void> {
  const { modules, close } = await loadEngineModules({
    word: '/workers/engine/tools/pdf-to-word.ts',
    ppt: '/workers/engine/tools/pdf-to-ppt.ts',
    excel: '/workers/engine/tools/pdf-to-excel.ts',
    ocr: '/workers/engine/lib/ocr/ocr.ts',
    pdfjs: '/workers/engine/lib/pdf/pdfjs.ts',
  } as const);
  const word = modules.word.run;
  const ppt = modules.ppt.run;
  const excel = modules.excel.run;
  const { createRecogniser } = modules.ocr as unknown as typeof import('../../workers/engine/lib/ocr/ocr.ts');
  const { openPdfjs } = modules.pdfjs as unknown as typeof import('../../workers/engine/lib/pdf/pdfjs.ts');
  const dir = mkdtempSync(join(tmpdir(), 'folio-office-export-'));
  try {
    // ---- generated fixture (always)
    const report = await buildReport();
    const fixtureDocx = await word([{ name: 'report.pdf', bytes: report.bytes }], {}, {});
    const fixturePptx = await readPptx((await ppt([{ name: 'report.pdf', bytes: report.bytes }], {}, {})).bytes);
    const fixtureXlsx = await workbookGrids((await excel([{ name: 'report.pdf', bytes: report.bytes }], {}, {})).bytes);
    console.log(`fixture (2 pages: heading, two columns, ruled + unruled table, picture):`);
    console.log(
      `  Word  similarity ${pct(wordSimilarity(report.text, await docxText(fixtureDocx.bytes)))} (goal ≥ 98 %)`,
    );
    console.log(
      `  PPT   slides ${fixturePptx.slides.length}/${report.pages}, per-slide similarity ` +
        report.pageTexts
          .map((t, i) => pct(wordSimilarity(t, fixturePptx.slides[i].replace(report.footer, ''))))
          .join(', '),
    );
    const numbers = fixtureXlsx.map((g) => cellMatchRate(report.numbers, g));
    console.log(`  Excel cells right ${pct(Math.max(...numbers))} (goal ≥ 95 %)`);

    // OFFICE_BENCH_ONLY=docx,xlsx,pptx runs only those LibreOffice comparisons (skips speed and OCR).
    const only = process.env.OFFICE_BENCH_ONLY;
    // ---- speed on a long LaTeX document
    const large = only ? undefined : corpusFile('pdf/large/texlive-interface3.pdf');
    if (large) {
      for (const [name, engine] of [
        ['Word', word],
        ['PowerPoint', ppt],
        ['Excel', excel],
      ] as const) {
        const { ms } = await timed(() => engine([{ name: 'interface3.pdf', bytes: large }], { pages: '1-30' }, {}));
        console.log(
          `speed ${name.padEnd(10)} texlive-interface3 pages 1-30: ${(ms / 1000).toFixed(1)} s, ` +
            `${(30 / (ms / 1000)).toFixed(1)} pages/s`,
        );
      }
    }

    // ---- OCR: character error rate against the Vicksburg scan's own OCR layer
    const vicksburg = only ? undefined : corpusFile('pdf/scanned/pypdf-seige-of-vicksburg-sample-ocr.pdf');
    if (vicksburg) {
      const doc = await openPdfjs(vicksburg);
      const recogniser = await createRecogniser();
      const rates: number[] = [];
      const orderFree: number[] = [];
      let ms = 0;
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const reference = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
        const result = await timed(() => recogniser.recognisePage(doc, n));
        ms += result.ms;
        const hypothesis = result.value.map((i) => i.text).join(' ');
        rates.push(characterErrorRate(reference, hypothesis));
        orderFree.push(orderFreeCharacterErrorRate(reference, hypothesis));
      }
      await recogniser.terminate();
      await doc.destroy();
      const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
      const meanFree = orderFree.reduce((a, b) => a + b, 0) / orderFree.length;
      console.log(
        `OCR vicksburg (${rates.length} pages, clean print, 300 dpi; reference = the file's own OCR layer), ` +
          `${(ms / rates.length / 1000).toFixed(1)} s/page:`,
      );
      console.log(
        `  CER in reading order ${rates.map(pct).join(', ')} — mean ${pct(mean)}; words sorted (order-free) ` +
          `${orderFree.map(pct).join(', ')} — mean ${pct(meanFree)} (goal ≤ 5 %)`,
      );
    }

    if (!hasCommand('soffice') || !existsSync(CORPUS)) {
      console.log('soffice or the corpus not found: LibreOffice comparison skipped.');
      return;
    }

    // ---- real Office files through LibreOffice → PDF → Folio
    for (const kind of (['docx', 'xlsx', 'pptx'] as const).filter((k) => !only || only.includes(k))) {
      const sourcePaths = officeSources(kind);
      const pathOf = new Map(sourcePaths.map((path) => [basename(path), path]));
      const sources = [...pathOf.keys()];
      const pdfDir = join(dir, `${kind}-pdf`);
      soffice(['--convert-to', 'pdf', '--outdir', pdfDir, ...sourcePaths], dir);
      const rows: string[] = [];
      const scores: number[] = [];
      // The goals are set on the wide corpus's files: their mean is printed apart.
      const wideScores: number[] = [];
      const score = (file: string, value: number) => {
        scores.push(value);
        if (pathOf.get(file)!.includes('office-wide')) wideScores.push(value);
      };
      const reference: number[] = [];
      const outDir = join(dir, `${kind}-folio`);
      execFileSync('mkdir', ['-p', outDir]);
      for (const file of sources) {
        const pdfPath = join(pdfDir, file.replace(/\.\w+$/, '.pdf'));
        if (!existsSync(pdfPath)) {
          rows.push(`  ${file}: LibreOffice made no PDF`);
          continue;
        }
        const pdf = new Uint8Array(readFileSync(pdfPath));
        const source = new Uint8Array(readFileSync(pathOf.get(file)!));
        try {
          if (kind === 'docx') {
            const out = await word([{ name: 'x.pdf', bytes: pdf }], {}, {});
            writeFileSync(join(outDir, file), out.bytes);
            const sourceText = await docxText(source);
            if (normWords(sourceText).length === 0) {
              rows.push(`  ${file}: the source has no body text (its content is a chart or shape): not scored`);
              continue;
            }
            const folio = wordSimilarity(sourceText, await docxText(out.bytes));
            const sourceTables = (await readDocx(source)).tables.length;
            const folioTables = (await readDocx(out.bytes)).tables.length;
            score(file, folio);
            rows.push(
              `  ${file}: Folio ${pct(folio)} (bag ${pct(bagF1(sourceText, await docxText(out.bytes)))}), ` +
                `tables ${folioTables}/${sourceTables}`,
            );
          } else if (kind === 'xlsx') {
            const sheets = process.env.OFFICE_BENCH_SHEETS === 'page' ? 'page' : 'table';
            const out = await excel([{ name: 'x.pdf', bytes: pdf }], { sheets }, {});
            writeFileSync(join(outDir, file), out.bytes);
            const sourceGrids = await workbookGrids(source, { printed: true }).catch(() => undefined);
            if (!sourceGrids) {
              rows.push(`  ${file}: exceljs cannot read the source workbook, so its cells cannot be scored`);
              continue;
            }
            const folioGrids = await workbookGrids(out.bytes);
            // Only cells the PDF shows count: hidden sheets, rows and columns (left out above),
            // cells outside the print area and merged-cell copies are not on the page, so no
            // converter could bring them back.
            const doc = await openPdfjs(pdf);
            let shown = '';
            for (let n = 1; n <= doc.numPages; n++) {
              const { items } = await (await doc.getPage(n)).getTextContent();
              shown += ` ${items.map((i) => ('str' in i ? i.str : '')).join(' ')}`;
            }
            await doc.destroy();
            const shownText = shown.replace(/\s+/g, '').toLowerCase();
            // A text printed k times in full is in at most k cells on the page (others clipped).
            const formats = await printedFormats(source);
            const visible = atMostAsPrinted(
              sourceGrids.map((g, s) =>
                g.map((row, r) =>
                  (row ?? []).map((v, c) => (printedOnPage(v, shownText, formats[s]?.[r]?.[c]) ? v : null)),
                ),
              ),
              folioGrids,
              shownText,
            );
            const rates = visible
              .filter((g) => g.some((r) => r?.some((v) => v !== null && v !== undefined && v !== '')))
              .map((g) => bestOffsetMatchRate(g, folioGrids));
            if (rates.length === 0) {
              rows.push(`  ${file}: none of the source's cells is printed in the PDF (print area, #REF!): not scored`);
              continue;
            }
            const rate = rates.reduce((a, b) => a + b, 0) / rates.length;
            score(file, rate);
            rows.push(`  ${file}: cells right ${pct(rate)} over ${rates.length} sheet(s)`);
            if (process.env.OFFICE_BENCH_MISSED) rows.push(...missedCells(visible, folioGrids));
          } else {
            const out = await ppt([{ name: 'x.pdf', bytes: pdf }], {}, {});
            writeFileSync(join(outDir, file), out.bytes);
            const slides = (await readPptx(out.bytes)).slides;
            const doc = await openPdfjs(pdf);
            const sims: number[] = [];
            for (let n = 1; n <= doc.numPages; n++) {
              const text = (await (await doc.getPage(n)).getTextContent()).items
                .map((i) => ('str' in i ? i.str : ''))
                .join(' ');
              sims.push(text.trim() ? wordSimilarity(text, slides[n - 1] ?? '') : 1);
            }
            const pages = doc.numPages;
            await doc.destroy();
            const mean = sims.reduce((a, b) => a + b, 0) / Math.max(1, sims.length);
            score(file, mean);
            rows.push(
              `  ${file}: slides ${slides.length}/${pages}, per-slide similarity mean ${pct(mean)} min ` +
                `${pct(Math.min(...sims))}`,
            );
          }
        } catch (error) {
          rows.push(`  ${file}: Folio failed: ${(error as Error).message}`);
        }
      }
      // LibreOffice's own PDF import, the reference for Word.
      if (kind === 'docx') {
        const importDir = join(dir, 'lo-import');
        soffice(
          [
            '--infilter=writer_pdf_import',
            '--convert-to',
            'docx',
            '--outdir',
            importDir,
            ...readdirSync(pdfDir).map((f) => join(pdfDir, f)),
          ],
          dir,
        );
        for (const file of sources) {
          const imported = join(importDir, file.replace(/\.\w+$/, '.docx'));
          if (!existsSync(imported)) continue;
          try {
            reference.push(
              wordSimilarity(
                await docxText(new Uint8Array(readFileSync(pathOf.get(file)!))),
                await docxText(new Uint8Array(readFileSync(imported))),
              ),
            );
          } catch {
            reference.push(0);
          }
        }
      }
      // Every Folio output must open in LibreOffice.
      const checkDir = join(dir, `${kind}-check`);
      const outputs = readdirSync(outDir).map((f) => join(outDir, f));
      soffice(['--convert-to', 'pdf', '--outdir', checkDir, ...outputs], dir);
      const opened = existsSync(checkDir) ? readdirSync(checkDir).length : 0;
      const meanOf = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
      const mean = meanOf(scores);
      const excelMode = process.env.OFFICE_BENCH_SHEETS === 'page' ? 'page' : 'table';
      const label = {
        docx: 'Word  (word similarity, goal ≥ 98 %)',
        xlsx: `Excel (cells right, one sheet per ${excelMode}, goal ≥ 95 %)`,
        pptx: 'PPT   (per-slide similarity, goal ≥ 98 %)',
      }[kind];
      console.log(
        `${label}: Folio mean ${pct(mean)} over ${scores.length} files` +
          (wideScores.length
            ? ` (wide corpus ${(meanOf(wideScores) * 100).toFixed(2)} % over ${wideScores.length})`
            : '') +
          (reference.length
            ? `; LibreOffice PDF import ${pct(reference.reduce((a, b) => a + b, 0) / reference.length)}`
            : '') +
          `; ${opened}/${outputs.length} Folio outputs open in LibreOffice`,
      );
      for (const row of rows) console.log(row);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await close();
  }
}
