/**
 * npm run bench -- compress
 *
 * 1. compress-pdf at "Recommended" over the scanned and image-heavy corpus PDFs, beside Ghostscript
 *    `-sDEVICE=pdfwrite -dPDFSETTINGS=/ebook` in the same run: output size, time, and the visual
 *    similarity of every page (mean SSIM of 100 dpi grayscale renders by pdftoppm, against the
 *    original's renders). Goal: smaller than gs /ebook on average at a page SSIM ≥ 0.95.
 * 2. compress-pdf over text-only corpus PDFs beside native `qpdf --object-streams=generate
 *    --recompress-flate --compression-level=9`. Goal: at least as small.
 * 3. image-compressor MozJPEG q75 over the corpus photos: size and time per megapixel, beside native
 *    libjpeg-turbo `djpeg | cjpeg -quality 75 -optimize -progressive` when installed.
 *
 * The engines import wasm with Vite's `?url`, so they are loaded through Vite's SSR module loader
 * (tsx alone cannot resolve those imports); wasm itself is read from node_modules as in tests.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CORPUS, corpusFile, fmtBytes, hasCommand, timed } from '../lib.ts';
import type { Engine } from '../../workers/engine/lib/types.ts';

const ROOT = resolve(import.meta.dirname, '../..');

async function loadEngines(): Promise<{ compressPdf: Engine; compressImage: Engine; close: () => Promise<void> }> {
  const { createServer } = await import('vite');
  const server = await createServer({
    root: ROOT,
    configFile: false,
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false, watch: null },
    appType: 'custom',
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  const pdf = (await server.ssrLoadModule('/workers/engine/tools/compress-pdf.ts')) as { run: Engine };
  const image = (await server.ssrLoadModule('/workers/engine/tools/image-compressor.ts')) as { run: Engine };
  return { compressPdf: pdf.run, compressImage: image.run, close: () => server.close() };
}

/** Grayscale PGM (P5) pages rendered by pdftoppm at 100 dpi. */
function renderGray(pdf: string, dir: string, prefix: string): Array<{ width: number; height: number; data: Uint8Array }> {
  execFileSync('pdftoppm', ['-r', '100', '-gray', pdf, join(dir, prefix)], { stdio: 'ignore' });
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.pgm'))
    .sort()
    .map((f) => {
      const bytes = readFileSync(join(dir, f));
      // Header: "P5\n<w> <h>\n<max>\n" (no comments from pdftoppm).
      let offset = 0;
      const fields: string[] = [];
      while (fields.length < 4) {
        let token = '';
        while (bytes[offset] <= 0x20) offset++;
        while (bytes[offset] > 0x20) token += String.fromCharCode(bytes[offset++]);
        fields.push(token);
      }
      offset++;
      return { width: Number(fields[1]), height: Number(fields[2]), data: new Uint8Array(bytes.buffer, bytes.byteOffset + offset) };
    });
}

/** Mean SSIM over 8×8 windows with stride 4 (Wang et al. 2004 constants, L = 255). */
export function ssim(a: Uint8Array, b: Uint8Array, width: number, height: number): number {
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  let total = 0;
  let windows = 0;
  for (let y = 0; y + 8 <= height; y += 4) {
    for (let x = 0; x + 8 <= width; x += 4) {
      let sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
      for (let j = 0; j < 8; j++) {
        const row = (y + j) * width + x;
        for (let i = 0; i < 8; i++) {
          const va = a[row + i];
          const vb = b[row + i];
          sa += va; sb += vb; saa += va * va; sbb += vb * vb; sab += va * vb;
        }
      }
      const ma = sa / 64, mb = sb / 64;
      const va = saa / 64 - ma * ma, vb = sbb / 64 - mb * mb, cov = sab / 64 - ma * mb;
      total += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      windows++;
    }
  }
  return windows ? total / windows : 1;
}

/** Per-page SSIM of `candidate` against `original` (same page count and sizes expected). */
function pageSimilarity(originalPdf: string, candidatePdf: string, dir: string, tag: string): { mean: number; min: number } | undefined {
  const a = renderGray(originalPdf, dir, `${tag}-o`);
  const b = renderGray(candidatePdf, dir, `${tag}-c`);
  if (a.length === 0 || a.length !== b.length) return undefined;
  const scores = a.map((page, i) => {
    const other = b[i];
    if (other.width !== page.width || other.height !== page.height) return 0;
    return ssim(page.data, other.data, page.width, page.height);
  });
  return { mean: scores.reduce((s, v) => s + v, 0) / scores.length, min: Math.min(...scores) };
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
const padEnd = (s: string, n: number) => s.padEnd(n);

const IMAGE_PDFS = [
  'pdf/scanned/ocrmypdf-c02-22.pdf',
  'pdf/scanned/ocrmypdf-multipage.pdf',
  'pdf/scanned/ocrmypdf-cardinal.pdf',
  'pdf/scanned/ocrmypdf-ccitt.pdf',
  'pdf/scanned/ocrmypdf-jbig2.pdf',
  'pdf/scanned/ocrmypdf-skew.pdf',
  'pdf/scanned/ocrmypdf-linn.pdf',
  'pdf/scanned/ocrmypdf-lichtenstein.pdf',
  'pdf/scanned/ocrmypdf-2400dpi.pdf',
  'pdf/scanned/pypdf-seige-of-vicksburg-sample-ocr.pdf',
  'pdf/clean/sf-base64image.pdf',
  'pdf/clean/sf-google-doc-document.pdf',
  'pdf/clean/sf-cmyk-image.pdf',
  'pdf/clean/pypdf-geobase-nhnc1-data-model-uml-en.pdf',
  'pdf/rotated/pdflib-with-rotated-image-button.pdf',
];

const TEXT_PDFS = [
  'pdf/clean/sf-002-trivial-libre-office-writer.pdf',
  'pdf/clean/sf-pdflatex-4-pages.pdf',
  'pdf/clean/sf-pdflatex-outline.pdf',
  'pdf/clean/sf-multicolumn.pdf',
  'pdf/clean/pdflib-us-constitution.pdf',
  'pdf/large/sf-geotopo-komprimiert.pdf',
  'pdf/large/texlive-interface3.pdf',
];

const PHOTOS = ['images/squoosh-demo-large-photo.jpg', 'images/pydocx-jpeg420exif.jpg', 'images/ocrmypdf-baiona-color.jpg', 'images/pydocx-court-exif.jpg'];

export async function run(): Promise<void> {
  if (!corpusFile('manifest.json')) {
    console.log(`corpus not found at ${CORPUS}: compress bench skipped`);
    return;
  }
  const { compressPdf, compressImage, close } = await loadEngines();
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-compress-'));
  const haveGs = hasCommand('gs');
  const haveRender = hasCommand('pdftoppm');
  try {
    // 1. Image-heavy PDFs vs Ghostscript /ebook
    console.log('\ncompress-pdf "Recommended" vs Ghostscript -dPDFSETTINGS=/ebook (SSIM: 100 dpi gray renders vs the original, mean/min page)');
    if (!haveGs) console.log('(gs not installed: apt-get install -y ghostscript — Folio figures only)');
    console.log(`${padEnd('file', 44)} ${pad('original', 10)} ${pad('Folio', 10)} ${pad('ms', 6)} ${pad('SSIM', 11)} | ${pad('gs /ebook', 10)} ${pad('ms', 6)} ${pad('SSIM', 11)}`);
    let sumFolio = 0, sumGs = 0, sumOriginal = 0, count = 0, ratioFolio = 0, ratioGs = 0;
    const folioSsims: number[] = [];
    const gsSsims: number[] = [];
    for (const file of IMAGE_PDFS) {
      const bytes = corpusFile(file);
      if (!bytes) continue;
      const name = file.split('/').pop()!;
      const originalPath = join(dir, 'in.pdf');
      writeFileSync(originalPath, bytes);
      const folio = await timed(() => compressPdf([{ name, bytes }], { level: 'recommended' }, {}));
      const folioPath = join(dir, 'folio.pdf');
      writeFileSync(folioPath, folio.value.bytes);
      const fs = haveRender ? pageSimilarity(originalPath, folioPath, dir, `f${count}`) : undefined;
      let gsSize = NaN, gsMs = NaN;
      let gss: { mean: number; min: number } | undefined;
      if (haveGs) {
        const gsPath = join(dir, 'gs.pdf');
        const gs = await timed(() => execFileSync('gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite', '-dPDFSETTINGS=/ebook', `-sOutputFile=${gsPath}`, originalPath], { stdio: 'ignore' }));
        gsMs = gs.ms;
        gsSize = readFileSync(gsPath).length;
        gss = haveRender ? pageSimilarity(originalPath, gsPath, dir, `g${count}`) : undefined;
      }
      const fmtS = (s?: { mean: number; min: number }) => (s ? `${s.mean.toFixed(3)}/${s.min.toFixed(2)}` : '—');
      console.log(
        `${padEnd(name, 44)} ${pad(fmtBytes(bytes.length), 10)} ${pad(fmtBytes(folio.value.bytes.length), 10)} ${pad(folio.ms.toFixed(0), 6)} ${pad(fmtS(fs), 11)} | ${pad(Number.isNaN(gsSize) ? '—' : fmtBytes(gsSize), 10)} ${pad(Number.isNaN(gsMs) ? '—' : gsMs.toFixed(0), 6)} ${pad(fmtS(gss), 11)}`,
      );
      sumOriginal += bytes.length;
      sumFolio += folio.value.bytes.length;
      ratioFolio += folio.value.bytes.length / bytes.length;
      if (haveGs) {
        sumGs += gsSize;
        ratioGs += gsSize / bytes.length;
      }
      if (fs) folioSsims.push(fs.min);
      if (gss) gsSsims.push(gss.min);
      count++;
    }
    const mean = (xs: number[]) => (xs.length ? (xs.reduce((s, v) => s + v, 0) / xs.length).toFixed(3) : '—');
    console.log(
      `total: original ${fmtBytes(sumOriginal)}, Folio ${fmtBytes(sumFolio)} (mean ratio ${(ratioFolio / count).toFixed(3)}, mean min-page SSIM ${mean(folioSsims)}, lowest ${folioSsims.length ? Math.min(...folioSsims).toFixed(3) : '—'})` +
        (haveGs ? `, gs /ebook ${fmtBytes(sumGs)} (mean ratio ${(ratioGs / count).toFixed(3)}, mean min-page SSIM ${mean(gsSsims)}, lowest ${gsSsims.length ? Math.min(...gsSsims).toFixed(3) : '—'})` : ''),
    );

    // 2. Text-only PDFs vs qpdf
    console.log('\ncompress-pdf "Recommended" vs native qpdf --object-streams=generate --recompress-flate --compression-level=9 (text-only PDFs)');
    const haveQpdf = hasCommand('qpdf');
    let textFolio = 0, textQpdf = 0;
    for (const file of TEXT_PDFS) {
      const bytes = corpusFile(file);
      if (!bytes) continue;
      const name = file.split('/').pop()!;
      const folio = await timed(() => compressPdf([{ name, bytes }], { level: 'recommended' }, {}));
      let qpdfSize = NaN, qpdfMs = NaN;
      if (haveQpdf) {
        writeFileSync(join(dir, 'in.pdf'), bytes);
        const q = await timed(() => {
          try {
            execFileSync('qpdf', ['--object-streams=generate', '--recompress-flate', '--compression-level=9', join(dir, 'in.pdf'), join(dir, 'q.pdf')], { stdio: 'ignore' });
          } catch {
            /* exit 3 = warnings, output written */
          }
        });
        qpdfMs = q.ms;
        qpdfSize = readFileSync(join(dir, 'q.pdf')).length;
      }
      textFolio += folio.value.bytes.length;
      textQpdf += qpdfSize;
      console.log(`${padEnd(name, 44)} ${pad(fmtBytes(bytes.length), 10)} → Folio ${pad(fmtBytes(folio.value.bytes.length), 10)} ${pad(folio.ms.toFixed(0), 6)} ms | qpdf ${pad(Number.isNaN(qpdfSize) ? '—' : fmtBytes(qpdfSize), 10)} ${pad(Number.isNaN(qpdfMs) ? '—' : qpdfMs.toFixed(0), 6)} ms`);
    }
    if (haveQpdf) console.log(`total: Folio ${fmtBytes(textFolio)}, qpdf ${fmtBytes(textQpdf)} (Folio/qpdf ${(textFolio / textQpdf).toFixed(3)})`);

    // 3. Image compressor vs cjpeg
    console.log('\nimage-compressor MozJPEG q75 (decode + encode, WASM) vs native libjpeg-turbo djpeg | cjpeg -quality 75 -optimize -progressive');
    const haveCjpeg = hasCommand('cjpeg') && hasCommand('djpeg');
    if (!haveCjpeg) console.log('(cjpeg not installed: apt-get install -y libjpeg-turbo-progs — Folio figures only)');
    for (const file of PHOTOS) {
      const bytes = corpusFile(file);
      if (!bytes) continue;
      const name = file.split('/').pop()!;
      const folio = await timed(() => compressImage([{ name, bytes }], { quality: 75, format: 'jpeg' }, {}));
      const note = folio.value.notes?.[0] ?? '';
      const dims = /(\d+) × (\d+)\.$/.exec(note);
      const mp = dims ? (Number(dims[1]) * Number(dims[2])) / 1e6 : NaN;
      let native = '';
      if (haveCjpeg) {
        const inPath = join(dir, 'photo.jpg');
        writeFileSync(inPath, bytes);
        const c = await timed(() => {
          execFileSync('sh', ['-c', `djpeg -pnm "${inPath}" > "${dir}/photo.ppm" && cjpeg -quality 75 -optimize -progressive "${dir}/photo.ppm" > "${dir}/cjpeg.jpg"`]);
        });
        const size = readFileSync(join(dir, 'cjpeg.jpg')).length;
        native = ` | cjpeg ${pad(fmtBytes(size), 10)} ${pad((c.ms / mp).toFixed(0), 5)} ms/MP (Folio/cjpeg size ${(folio.value.bytes.length / size).toFixed(3)})`;
      }
      console.log(`${padEnd(name, 32)} ${pad(mp.toFixed(1), 5)} MP ${pad(fmtBytes(bytes.length), 10)} → Folio ${pad(fmtBytes(folio.value.bytes.length), 10)} ${pad((folio.ms / mp).toFixed(0), 5)} ms/MP${native}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await close();
  }
}
