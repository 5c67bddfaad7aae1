/**
 * Where a PDF ends (lib/pdf/pdf-bytes.ts):
 * - bytes appended after its end (padding to a block size, an HTML page, a mail footer): readers
 *   open such a file, qpdf could not when the cross-reference table is a stream — so unlocking, and
 *   every tool on such a file that was also locked, failed as "damaged". The registry now hands
 *   engines the file without those bytes (withoutTrailingBytes);
 * - a file that ends early (a download cut short: no cross-reference table or trailer, maybe an
 *   object cut in half): pdf.js, poppler and qpdf's WebAssembly build refuse it; pdf-lib reads it
 *   object by object up to its last whole object, every tool works on that rewrite, and the result
 *   says the file ended early (endsEarly, openPdf, the registry's note).
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { loadEngine } from '../../workers/engine/registry.ts';
import { ascii, endsEarly, lastIndexOfBytes, withoutTrailingBytes } from '../../workers/engine/lib/pdf/pdf-bytes.ts';
import { encryptWithQpdf } from '../support/protect-unlock-fixtures.ts';
import { labelledPdf } from '../support/page-fixtures.ts';
import { popplerText, qpdfCheck } from '../support/pdf.ts';

const joined = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.byteLength), 0);
  return out;
};
const text = (value: string) => new TextEncoder().encode(value);
const zeros = new Uint8Array(4096);
const htmlPage = text('<html><body>Download failed: the object was not found.</body></html>\n'.repeat(40));

/** Two pages "Q1", "Q2" written by pdf-lib: its cross-reference table is a stream, as most producers' are. */
const plain = () => labelledPdf('Q', 2);
const words = (bytes: Uint8Array, password?: string) => popplerText(bytes, password).split(/\s+/).filter(Boolean);

describe('withoutTrailingBytes', () => {
  test('cuts zero padding and an HTML page after the last %%EOF, back to the file as written', async () => {
    const pdf = await plain();
    expect(withoutTrailingBytes(joined(pdf, zeros))).toEqual(pdf);
    expect(withoutTrailingBytes(joined(pdf, htmlPage))).toEqual(pdf);
  });

  test('leaves a file alone when qpdf finds its end: nothing after it, or less than 1 KB', async () => {
    const pdf = await plain();
    expect(withoutTrailingBytes(pdf)).toBe(pdf);
    const short = joined(pdf, new Uint8Array(200));
    expect(withoutTrailingBytes(short)).toBe(short);
  });

  test('keeps objects after the last %%EOF (a later revision cut short), so it is repaired, not rolled back', async () => {
    const pdf = await plain();
    const cutRevision = joined(pdf, text('7 0 obj\n<< /Type /Annot >>\nendobj\n'), zeros);
    expect(withoutTrailingBytes(cutRevision)).toBe(cutRevision);
  });

  test('leaves files that are not PDFs alone, even when they hold one', async () => {
    const archive = joined(text('PK\x03\x04'), new Uint8Array(2000), await plain(), zeros);
    expect(withoutTrailingBytes(archive)).toBe(archive);
  });
});

describe('tools on a file with bytes after its end', () => {
  test('a locked file (AES-256) padded with 4 KB of zeros unlocks with its password', async () => {
    const locked = joined(await encryptWithQpdf(await plain(), 'AES-256 (R6)', 'user-pw', 'owner-pw'), zeros);
    const unlock = await loadEngine('unlock-pdf');
    const result = await unlock.run([{ name: 'padded.pdf', bytes: locked }], { password: 'user-pw' }, {});
    expect(words(result.bytes)).toEqual(['Q1', 'Q2']);
    expect((await qpdfCheck(result.bytes)).exitCode).toBe(0);
  });

  test('the same file merges and rotates when opened with its password', async () => {
    const locked = joined(await encryptWithQpdf(await plain(), 'AES-256 (R6)', 'user-pw', 'owner-pw'), htmlPage);
    const input = { name: 'padded.pdf', bytes: locked, password: 'user-pw' };
    const merge = await loadEngine('merge-pdf');
    const merged = await merge.run([input, { name: 'b.pdf', bytes: await labelledPdf('B', 1) }], {}, {});
    expect(words(merged.bytes)).toEqual(['Q1', 'Q2', 'B1']);
    const rotate = await loadEngine('rotate-pdf');
    const rotated = await rotate.run([input], { angle: 90 }, {});
    expect(words(rotated.bytes)).toEqual(['Q1', 'Q2']);
    expect((await PDFDocument.load(rotated.bytes)).getPages().map((page) => page.getRotation().angle)).toEqual([
      90, 90,
    ]);
  });

  test('an unlocked file with bytes after its end is "not password-protected", not damaged', async () => {
    const unlock = await loadEngine('unlock-pdf');
    await expect(
      unlock.run([{ name: 'padded.pdf', bytes: joined(await plain(), zeros) }], { password: 'x' }, {}),
    ).rejects.toThrow('"padded.pdf" is not password-protected');
  });
});

/** Four pages "Page1" … "Page4", each object written out (no object streams), as older producers do. */
async function fourPages({ objectStreams = false } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= 4; n++) doc.addPage([300, 400]).drawText(`Page${n}`, { x: 40, y: 300, size: 36, font });
  return doc.save({ useObjectStreams: objectStreams });
}

/** The file cut 12 bytes into its last stream's data: page 4's content (written last) is lost. */
const cutInLastStream = (pdf: Uint8Array) => pdf.subarray(0, lastIndexOfBytes(pdf, ascii('>>\nstream\n')) + 20);
/** The file cut where its cross-reference section starts: every object is there, nothing says where. */
const cutBeforeXref = (pdf: Uint8Array) => pdf.subarray(0, lastIndexOfBytes(pdf, ascii('xref')));
const endedEarly = (name: string) => `"${name}" ends early — it looks cut short`;

describe('a PDF that ends early', () => {
  test('endsEarly: no startxref or %%EOF in the last kilobyte of a PDF', async () => {
    const pdf = await fourPages();
    expect(endsEarly(pdf)).toBe(false);
    expect(endsEarly(cutBeforeXref(pdf))).toBe(true);
    expect(endsEarly(cutInLastStream(pdf))).toBe(true);
    expect(endsEarly(withoutTrailingBytes(joined(pdf, zeros)))).toBe(false);
    expect(endsEarly(text('PK\x03\x04 not a PDF at all'))).toBe(false);
  });

  test("cut inside the last page's content: every tool reads the pages there are, and says the file ended early", async () => {
    const cut = cutInLastStream(await fourPages());
    const input = { name: 'cut.pdf', bytes: cut };
    const rotated = await (await loadEngine('rotate-pdf')).run([input], { angle: 90 }, {});
    expect(
      popplerText(rotated.bytes)
        .split('\f')
        .map((page) => page.trim()),
    ).toEqual(['Page1', 'Page2', 'Page3', '', '']);
    expect(rotated.notes?.[0]).toContain(endedEarly('cut.pdf'));

    const merged = await (
      await loadEngine('merge-pdf')
    ).run([input, { name: 'b.pdf', bytes: await labelledPdf('B', 1) }], {}, {});
    expect(words(merged.bytes)).toEqual(['Page1', 'Page2', 'Page3', 'B1']);
    expect((await PDFDocument.load(merged.bytes)).getPageCount()).toBe(5);

    // pdf.js cannot open the cut file itself: the pages are drawn from pdf-lib's rewrite.
    const images = await (await loadEngine('pdf-to-jpg')).run([input], { format: 'png', resolution: '30' }, {});
    expect(Object.keys((await JSZip.loadAsync(images.bytes)).files)).toHaveLength(4);
    expect(images.notes?.[0]).toContain(endedEarly('cut.pdf'));

    // Compress never gives back the cut file as it is (most readers cannot open it).
    const compressed = await (await loadEngine('compress-pdf')).run([input], {}, {});
    expect(words(compressed.bytes)).toEqual(['Page1', 'Page2', 'Page3']);
    expect((await qpdfCheck(compressed.bytes)).ok).toBe(true);
  });

  test('cut before a cross-reference stream (object streams, as most producers write): all four pages', async () => {
    const cut = cutBeforeXref(await fourPages({ objectStreams: true }));
    const merged = await (await loadEngine('merge-pdf')).run([{ name: 'cut.pdf', bytes: cut }], {}, {});
    expect(words(merged.bytes)).toEqual(['Page1', 'Page2', 'Page3', 'Page4']);
    expect(merged.notes?.[0]).toContain(endedEarly('cut.pdf'));
  });

  test('with too little left (no page tree), the message says the file was cut short, for every kind of tool', async () => {
    const stub = (await fourPages({ objectStreams: true })).subarray(0, 400);
    for (const [tool, options] of [
      ['merge-pdf', {}],
      ['pdf-to-jpg', {}],
      ['unlock-pdf', { password: 'x' }],
    ] as const) {
      await expect((await loadEngine(tool)).run([{ name: 'stub.pdf', bytes: stub }], options, {})).rejects.toThrow(
        '"stub.pdf" ends early — it was cut short, perhaps by an interrupted download — and too little of it is left to repair.',
      );
    }
  });
});
