/**
 * Issue #16 item 6: outputs stay valid.
 * - An input whose objects carry huge numbers (2147483646) is written renumbered 1…n: rotate and
 *   watermark used to write an xref qpdf refuses ("integer out of range") and Poppler cannot read.
 * - ZIP entry names lose control characters (a name starting with NUL) and are cut to a length every
 *   unzip tool can write (a 5,000-character name), keeping the extension and staying unique.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import { run as rotate } from '../../workers/engine/tools/rotate-pdf.ts';
import { run as watermark } from '../../workers/engine/tools/add-watermark.ts';
import { run as split } from '../../workers/engine/tools/split-pdf.ts';
import { MAX_ENTRY_NAME_BYTES, ZipBuilder, safeEntryName } from '../../workers/engine/lib/zip.ts';
import { labelledPdf } from '../support/page-fixtures.ts';
import { expectOnlyAllowedActions } from '../support/pdf-actions.ts';
import { popplerText } from '../support/pdf.ts';

const HUGE = 2147483646;

/** A one-page PDF written by hand whose page content is object 2147483646 (a classic xref lists it). */
function hugeObjectNumberPdf(): Uint8Array {
  const content = 'BT /F1 24 Tf 40 100 Td (Huge number) Tj ET';
  const objects: Array<[number, string]> = [
    [1, '<< /Type /Catalog /Pages 2 0 R >>'],
    [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    [
      3,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 4 0 R >> >> /Contents ` +
        `${HUGE} 0 R >>`,
    ],
    [4, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
    [HUGE, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`],
  ];
  let text = '%PDF-1.7\n';
  const offsets = new Map<number, number>();
  for (const [number, body] of objects) {
    offsets.set(number, text.length);
    text += `${number} 0 obj\n${body}\nendobj\n`;
  }
  const entry = (offset: number) => `${String(offset).padStart(10, '0')} 00000 n \n`;
  const xref = text.length;
  text +=
    `xref\n0 5\n0000000000 65535 f \n${[1, 2, 3, 4].map((n) => entry(offsets.get(n)!)).join('')}${HUGE} ` +
    `1\n${entry(offsets.get(HUGE)!)}`;
  text += `trailer\n<< /Size ${HUGE + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(text);
}

describe('objects are renumbered compactly on write', () => {
  const input = () => [{ name: 'huge.pdf', bytes: hugeObjectNumberPdf() }];

  test('the fixture really holds object 2147483646', async () => {
    const doc = await PDFDocument.load(hugeObjectNumberPdf());
    expect(doc.context.largestObjectNumber).toBeGreaterThanOrEqual(HUGE);
  });

  for (const [name, engine, options] of [
    ['rotate-pdf', rotate, { angle: 90 }],
    ['add-watermark', watermark, { type: 'text', text: 'COPY' }],
  ] as const) {
    test(`${name}: qpdf checks the output, Poppler reads it, numbers stay small`, async () => {
      const result = await engine(input(), options, {});
      expectOnlyAllowedActions(result.bytes);
      expect(popplerText(result.bytes)).toContain('Huge number');
      const doc = await PDFDocument.load(result.bytes);
      expect(doc.context.largestObjectNumber).toBeLessThan(50);
    });
  }
});

describe('ZIP entry names', () => {
  test('control characters go, long names are cut keeping the extension, repeats stay unique', async () => {
    expect(safeEntryName('\u0000evil.pdf')).toBe('evil.pdf');
    expect(safeEntryName('in\u0007voice\u202egpj.pdf')).toBe('invoicegpj.pdf');
    expect(safeEntryName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(safeEntryName('\u0000')).toBe('file');
    const long = `${'Ж'.repeat(5000)}.pdf`;
    const cut = safeEntryName(long);
    expect(cut.endsWith('.pdf')).toBe(true);
    expect(new TextEncoder().encode(cut).byteLength).toBeLessThanOrEqual(MAX_ENTRY_NAME_BYTES);

    const zip = new ZipBuilder();
    const names = [
      zip.add(long, new Uint8Array([1])),
      zip.add(long, new Uint8Array([2])),
      zip.add('\u0000a.pdf', new Uint8Array([3])),
    ];
    expect(new Set(names).size).toBe(3);
    const read = await JSZip.loadAsync((await zip.finish()).bytes);
    for (const entry of Object.keys(read.files)) {
      expect(entry).not.toMatch(/[\u0000-\u001f]/); // eslint-disable-line no-control-regex -- what must not be there
      expect(new TextEncoder().encode(entry).byteLength).toBeLessThanOrEqual(MAX_ENTRY_NAME_BYTES);
      expect(entry.endsWith('.pdf')).toBe(true);
    }
  });

  test('split: a file named with NUL and 5,000 characters gives entries unzip can write', async () => {
    const name = `\u0000${'x'.repeat(5000)}.pdf`;
    const result = await split([{ name, bytes: await labelledPdf('A', 3) }], {}, {});
    expect(result.mime).toBe('application/zip');
    const dir = mkdtempSync(join(tmpdir(), 'folio-zip-'));
    try {
      writeFileSync(join(dir, 'parts.zip'), result.bytes);
      // Native unzip writes every entry (it refuses names its file system cannot hold).
      execFileSync('unzip', ['-q', join(dir, 'parts.zip'), '-d', join(dir, 'out')], { stdio: 'pipe' });
      const listed = execFileSync('unzip', ['-Z1', join(dir, 'parts.zip')], { encoding: 'utf8' })
        .trim()
        .split('\n');
      expect(listed).toHaveLength(3);
      const parts = await JSZip.loadAsync(result.bytes);
      for (const part of Object.values(parts.files)) expectOnlyAllowedActions(await part.async('uint8array'));
      for (const entry of listed) {
        expect(entry).toMatch(/^x+…x+-page-[123]\.pdf$/);
        expect(Buffer.byteLength(entry)).toBeLessThanOrEqual(MAX_ENTRY_NAME_BYTES);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
