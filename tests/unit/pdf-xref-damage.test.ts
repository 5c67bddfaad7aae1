/**
 * A PDF whose cross-reference table points to the wrong places (a line added after it was
 * written, line breaks converted, a producer counting characters for bytes). Readers rebuild the
 * table from the objects; qpdf's WebAssembly build, which decrypts and assembles pages for Folio,
 * never does — a locked file of this kind failed in every tool as "damaged", PDF → JPG aside, and
 * Compress handed back an unlocked one as "already well compressed" although poppler could not
 * read it. The engine registry now rebuilds such a table before any tool runs
 * (lib/pdf/xref-rebuild.ts), and decrypting or unlocking a file qpdf still refuses tries once more
 * with the table rebuilt.
 */
import { describe, expect, test } from 'vitest';
import { PDFDict, PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import { loadEngine } from '../../workers/engine/registry.ts';
import { pointsIntoNowhere } from '../../workers/engine/lib/pdf/pdf-bytes.ts';
import { openPdf } from '../../workers/engine/lib/pdf/pdf-open.ts';
import { unlockPdf } from '../../workers/engine/lib/pdf/encryption.ts';
import { withRebuiltXref, xrefNeedsRebuilding } from '../../workers/engine/lib/pdf/xref-rebuild.ts';
import { runQpdf } from '../../workers/engine/lib/pdf/qpdf.ts';
import { encryptWithQpdf } from '../support/protect-unlock-fixtures.ts';
import { withLineAfterHeader, withLineBeforeObject } from '../support/xref-damage.ts';
import { popplerText, qpdfCheck } from '../support/pdf.ts';

/** Four pages "Page1" … "Page4"; with object streams, its table is a stream (most producers' today). */
async function fourPages({ objectStreams }: { objectStreams: boolean }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= 4; n++) doc.addPage([300, 400]).drawText(`Page${n}`, { x: 40, y: 300, size: 36, font });
  return doc.save({ useObjectStreams: objectStreams });
}
const locked = async (pdf: Uint8Array) => encryptWithQpdf(pdf, 'AES-256 (R6)', 'user-pw', 'owner-pw');
const words = (bytes: Uint8Array) => popplerText(bytes).split(/\s+/).filter(Boolean);
const PAGES = ['Page1', 'Page2', 'Page3', 'Page4'];
const rebuiltNote = (name: string) => `"${name}" had a damaged cross-reference table`;
const text = (value: string) => Uint8Array.from(value, (c) => c.charCodeAt(0));

describe('telling a table that points to the wrong places', () => {
  test('a whole file, with a table or a stream, and one with bytes before its header, are left alone', async () => {
    for (const objectStreams of [false, true]) {
      const pdf = await fourPages({ objectStreams });
      expect(xrefNeedsRebuilding(pdf)).toBe(false);
      // Readers count offsets from the header: bytes before it (a byte order mark, a web page's
      // stray line) do not make the table wrong.
      const prefixed = new Uint8Array([...text('\xef\xbb\xbf<br>\n'), ...pdf]);
      expect(xrefNeedsRebuilding(prefixed)).toBe(false);
    }
  });

  test('startxref into nowhere, and entries whose object is not where they say', async () => {
    for (const objectStreams of [false, true]) {
      expect(pointsIntoNowhere(withLineAfterHeader(await fourPages({ objectStreams })))).toBe(true);
    }
    const shifted = withLineBeforeObject(await fourPages({ objectStreams: false }), 4);
    expect(pointsIntoNowhere(shifted)).toBe(false);
    expect(xrefNeedsRebuilding(shifted)).toBe(true);
    // Bytes removed (CRLF line breaks made LF): startxref may point past the end.
    const past = new TextDecoder('latin1')
      .decode(await fourPages({ objectStreams: true }))
      .replace(/startxref\s+\d+/, 'startxref\n9999999');
    expect(pointsIntoNowhere(text(past))).toBe(true);
    // A table whose lines were garbled, with startxref still pointing at it.
    const pdf = await fourPages({ objectStreams: false });
    const garbled = new TextDecoder('latin1').decode(pdf).replace(/(xref\s+0 \d+\s+)\d{10} 65535 f/, '$1???');
    expect(pointsIntoNowhere(text(garbled))).toBe(false);
    expect(xrefNeedsRebuilding(text(garbled))).toBe(true);
  });

  test('the rebuilt file is the file with a table appended, and qpdf reads it without a warning', async () => {
    for (const damaged of [
      withLineAfterHeader(await fourPages({ objectStreams: true })),
      withLineBeforeObject(await fourPages({ objectStreams: false }), 4),
      withLineAfterHeader(await locked(await fourPages({ objectStreams: true }))),
    ]) {
      const rebuilt = withRebuiltXref(damaged)!;
      expect(rebuilt.subarray(0, damaged.length)).toEqual(damaged);
      const check = await runQpdf(['--password=user-pw', '--check', '/in.pdf'], { inputs: { '/in.pdf': rebuilt } });
      expect(check.exitCode, check.stderr).toBe(0);
      expect(popplerText(rebuilt, 'user-pw').split(/\s+/).filter(Boolean)).toEqual(PAGES);
    }
  });
});

describe('tools on a file whose table points to the wrong places', () => {
  test('a locked file (object streams, a line added after the header) unlocks, merges and rotates', async () => {
    const input = {
      name: 'shifted.pdf',
      bytes: withLineAfterHeader(await locked(await fourPages({ objectStreams: true }))),
    };
    const unlocked = await (await loadEngine('unlock-pdf')).run([input], { password: 'user-pw' }, {});
    expect(words(unlocked.bytes)).toEqual(PAGES);
    expect(unlocked.notes?.[0]).toContain(rebuiltNote('shifted.pdf'));
    expect((await qpdfCheck(unlocked.bytes)).exitCode).toBe(0);

    const opened = { ...input, password: 'user-pw' };
    const merged = await (await loadEngine('merge-pdf')).run([opened, opened], {}, {});
    expect(words(merged.bytes)).toEqual([...PAGES, ...PAGES]);
    const rotated = await (await loadEngine('rotate-pdf')).run([opened], { angle: 90 }, {});
    expect(words(rotated.bytes)).toEqual(PAGES);
  });

  test('a locked file whose table is right up to a line added in the middle unlocks and opens', async () => {
    const bytes = withLineBeforeObject(await locked(await fourPages({ objectStreams: false })), 4);
    const unlocked = await (
      await loadEngine('unlock-pdf')
    ).run([{ name: 'mid.pdf', bytes }], { password: 'user-pw' }, {});
    expect(words(unlocked.bytes)).toEqual(PAGES);
    // Without the registry's rebuild (damage its check does not see), decrypting retries with the
    // table rebuilt when qpdf refuses the file.
    expect(words((await unlockPdf('mid.pdf', bytes, 'user-pw')).bytes)).toEqual(PAGES);
    expect(words((await openPdf({ name: 'mid.pdf', bytes, password: 'user-pw' })).bytes)).toEqual(PAGES);
  });

  test('keywords inside strings do not mislead the rebuild ("Upstream" in a title, "see 3 0 obj")', async () => {
    // Read as the start of a stream, "Upstream" made the rebuild skip every object up to the next
    // stream's end: the rotated file had no text.
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let n = 1; n <= 4; n++) doc.addPage([300, 400]).drawText(`Page${n}`, { x: 40, y: 300, size: 36, font });
    const info = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
    info.set(PDFName.of('Subject'), PDFString.of('Upstream report, see 3 0 obj'));
    const bytes = withLineAfterHeader(await doc.save({ useObjectStreams: false }));
    const rotated = await (await loadEngine('rotate-pdf')).run([{ name: 'up.pdf', bytes }], { angle: 90 }, {});
    expect(words(rotated.bytes)).toEqual(PAGES);
    expect(rotated.notes?.[0]).toContain(rebuiltNote('up.pdf'));
  });

  test('Compress gives a file poppler reads, not the damaged original', async () => {
    const bytes = withLineAfterHeader(await fourPages({ objectStreams: true }));
    expect(() => popplerText(bytes)).toThrow();
    const compressed = await (await loadEngine('compress-pdf')).run([{ name: 'shifted.pdf', bytes }], {}, {});
    expect(words(compressed.bytes)).toEqual(PAGES);
    expect((await qpdfCheck(compressed.bytes)).exitCode).toBe(0);
  });

  test('a readable table and an object pdf-lib cannot parse: merge and split read it as qpdf does', async () => {
    // Page 2's dictionary starts with two stray numbers (qpdf reads it with warnings); the table is
    // rebuilt for the edit, so the file is read lazily and the damaged object met only when looked up.
    const pdf = new TextDecoder('latin1').decode(await fourPages({ objectStreams: false }));
    const pageObjects = [...pdf.matchAll(/\n(\d+) 0 obj\n<<\n\/Type \/Page\n/g)];
    const damaged = pdf.replace(pageObjects[1][0], `\n${pageObjects[1][1]} 0 obj\n<< 1 2\n/Type /Page\n`);
    const bytes = withRebuiltXref(text(damaged))!;
    expect(xrefNeedsRebuilding(bytes)).toBe(false);
    const merged = await (await loadEngine('merge-pdf')).run([{ name: 'a.pdf', bytes }], {}, {});
    expect(words(merged.bytes)).toEqual(PAGES);
    const split = await (await loadEngine('split-pdf')).run([{ name: 'a.pdf', bytes }], { mode: 'each' }, {});
    expect(split.notes).toContain('4 files from 4 pages');
  });
});
