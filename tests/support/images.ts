/**
 * Image helpers for tests and the bench: decoding PNG/JPEG (with @napi-rs/canvas), poppler's
 * `pdftoppm` as the reference renderer, block SSIM on grey, and `pdffonts`' font kinds.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';

export interface Raster {
  width: number;
  height: number;
  /** RGBA, width × height × 4 bytes. */
  data: Uint8ClampedArray;
}

/** Decodes a PNG or JPEG to RGBA pixels, composited on white (as a viewer shows a transparent PNG). */
export async function decodeImage(bytes: Uint8Array): Promise<Raster> {
  const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, image.width, image.height);
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  return { width: image.width, height: image.height, data: new Uint8ClampedArray(data) };
}

/** Rec. 601 luma of each pixel. */
export function grey(raster: Raster): Float32Array {
  const out = new Float32Array(raster.width * raster.height);
  const { data } = raster;
  for (let i = 0, p = 0; i < out.length; i++, p += 4)
    out[i] = 0.299 * data[p] + 0.587 * data[p + 1] + 0.114 * data[p + 2];
  return out;
}

/**
 * Mean SSIM over non-overlapping `block`×`block` tiles of the grey images, compared over the area
 * both share (renderers may round a page's pixel size differently by one). 1 = identical.
 */
export function blockSsim(a: Raster, b: Raster, block = 8): number {
  const width = Math.min(a.width, b.width);
  const height = Math.min(a.height, b.height);
  const ga = grey(a);
  const gb = grey(b);
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let total = 0;
  let blocks = 0;
  for (let by = 0; by + block <= height; by += block) {
    for (let bx = 0; bx + block <= width; bx += block) {
      let sa = 0,
        sb = 0,
        saa = 0,
        sbb = 0,
        sab = 0;
      for (let y = by; y < by + block; y++) {
        const ra = y * a.width;
        const rb = y * b.width;
        for (let x = bx; x < bx + block; x++) {
          const va = ga[ra + x];
          const vb = gb[rb + x];
          sa += va;
          sb += vb;
          saa += va * va;
          sbb += vb * vb;
          sab += va * vb;
        }
      }
      const n = block * block;
      const ma = sa / n;
      const mb = sb / n;
      const varA = saa / n - ma * ma;
      const varB = sbb / n - mb * mb;
      const cov = sab / n - ma * mb;
      total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (varA + varB + c2));
      blocks++;
    }
  }
  return blocks ? total / blocks : 1;
}

/** Whether poppler's command-line tools are installed (the references of the fidelity checks). */
export function popplerPresent(): boolean {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A document's passwords as poppler's tools take them. */
export interface PdfPasswords {
  user?: string;
  owner?: string;
}

function passwordArgs({ user, owner }: PdfPasswords = {}): string[] {
  return [...(user ? ['-upw', user] : []), ...(owner ? ['-opw', owner] : [])];
}

/**
 * One page (1-based) of a PDF file drawn by poppler's pdftoppm as PNG at `dpi`: its crop box,
 * as a reader shows the page (pdftoppm's default is the media box).
 */
export function pdftoppmPng(pdfPath: string, page: number, dpi: number, passwords?: PdfPasswords): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'folio-ppm-'));
  try {
    const args = ['-r', String(dpi), '-png', '-cropbox', '-f', String(page), '-l', String(page), '-singlefile'];
    args.push(...passwordArgs(passwords));
    execFileSync('pdftoppm', [...args, pdfPath, join(dir, 'page')], { stdio: ['ignore', 'ignore', 'pipe'] });
    return new Uint8Array(readFileSync(join(dir, 'page.png')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One page (1-based) of a PDF held in memory, drawn by pdftoppm at `dpi`, as RGBA pixels. */
export async function pdfPageRaster(pdf: Uint8Array, page: number, dpi: number): Promise<Raster> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-page-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    return await decodeImage(pdftoppmPng(join(dir, 'in.pdf'), page, dpi));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Poppler's pdftotext of a PDF file (reading order, form feeds between pages; `options` e.g. `-layout`, `-bbox`). */
export function pdftotext(pdfPath: string, passwords?: PdfPasswords, options: string[] = []): string {
  const args = [...options, ...passwordArgs(passwords)];
  return execFileSync('pdftotext', [...args, pdfPath, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The font kinds (`pdffonts`' type column: "Type 1", "TrueType", "CID Type 0C" …) on pages first…last. */
export function pdfFontKinds(pdfPath: string, first: number, last: number, passwords?: PdfPasswords): string[] {
  const args = ['-f', String(first), '-l', String(last), ...passwordArgs(passwords), pdfPath];
  let output: string;
  try {
    output = execFileSync('pdffonts', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return [];
  }
  // Rows end in one-word columns (encoding, emb, sub, uni, object, generation); before them, the
  // name (which may hold spaces and overflow its column) and the type, one of poppler's names.
  const kinds = new Set<string>();
  for (const line of output.split('\n').slice(2)) {
    const words = line.trim().split(/\s+/);
    if (words.length < 8) continue;
    const kind = /(CID Type 0C?|CID TrueType|Type 1C?|Type 3|TrueType|unknown)( \(OT\))?$/.exec(
      words.slice(0, -6).join(' '),
    )?.[0];
    if (!kind) continue;
    const embedded = words[words.length - 5] === 'yes';
    kinds.add(embedded || kind === 'Type 3' ? kind : `${kind} (not embedded)`);
  }
  return [...kinds];
}

/**
 * `raster` made `factor` times smaller, each pixel the mean of the factor × factor pixels it
 * covers (an exact area average); a partial last row or column is left out.
 */
export function boxReduce(raster: Raster, factor: number): Raster {
  const width = Math.floor(raster.width / factor);
  const height = Math.floor(raster.height / factor);
  const data = new Uint8ClampedArray(width * height * 4);
  const n = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sums = [0, 0, 0, 0];
      for (let j = 0; j < factor; j++) {
        let p = ((y * factor + j) * raster.width + x * factor) * 4;
        for (let i = 0; i < factor; i++, p += 4) {
          for (let c = 0; c < 4; c++) sums[c] += raster.data[p + c];
        }
      }
      const q = (y * width + x) * 4;
      for (let c = 0; c < 4; c++) data[q + c] = sums[c] / n;
    }
  }
  return { width, height, data };
}
