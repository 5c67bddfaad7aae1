/**
 * Browsers decode the `latin1` label as windows-1252 (bytes 0x80–0x9F become other characters);
 * Node decodes it as true Latin-1. A merge must not pass binary stream data through such a decoder:
 * here the decoder behaves as Chromium's, and a Flate stream qpdf-assembly rewrites (its
 * `/Filter [/FlateDecode]` made a name) must reach the result byte for byte.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { zlibSync } from 'fflate';
import { PDFArray, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef } from 'pdf-lib';

const WINDOWS_1252: Record<number, number> = {
  0x80: 0x20ac,
  0x82: 0x201a,
  0x83: 0x192,
  0x84: 0x201e,
  0x85: 0x2026,
  0x86: 0x2020,
  0x87: 0x2021,
  0x88: 0x2c6,
  0x89: 0x2030,
  0x8a: 0x160,
  0x8b: 0x2039,
  0x8c: 0x152,
  0x8e: 0x17d,
  0x91: 0x2018,
  0x92: 0x2019,
  0x93: 0x201c,
  0x94: 0x201d,
  0x95: 0x2022,
  0x96: 0x2013,
  0x97: 0x2014,
  0x98: 0x2dc,
  0x99: 0x2122,
  0x9a: 0x161,
  0x9b: 0x203a,
  0x9c: 0x153,
  0x9e: 0x17e,
  0x9f: 0x178,
};

class BrowserTextDecoder extends TextDecoder {
  override decode(input?: AllowSharedBufferSource, options?: TextDecodeOptions): string {
    const text = super.decode(input, options);
    if (this.encoding !== 'windows-1252') return text;
    return text.replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(WINDOWS_1252[c.charCodeAt(0)] ?? c.charCodeAt(0)));
  }
}

/** A page whose content stream is Flate data under `/Filter [/FlateDecode]`, every byte value in it. */
async function pdfWithFlateArray(): Promise<{ bytes: Uint8Array; content: Uint8Array }> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 200]);
  // A comment line of pseudo-random bytes (no line breaks), then drawing: the compressed data then
  // holds every byte value.
  let seed = 7;
  const noise = Array.from({ length: 20_000 }, () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const byte = seed >>> 24;
    return byte === 0x0a || byte === 0x0d ? 0x20 : byte;
  });
  const content = Uint8Array.from([0x25, ...noise, 0x0a, ...new TextEncoder().encode('0 0 1 rg 10 10 50 50 re f\n')]);
  const data = zlibSync(content);
  const dict = doc.context.obj({ Filter: [PDFName.of('FlateDecode')], Length: PDFNumber.of(data.length) });
  const ref = doc.context.register(PDFRawStream.of(dict, data));
  page.node.set(PDFName.of('Contents'), ref);
  return { bytes: await doc.save({ useObjectStreams: false }), content };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('merge with a browser’s latin1 decoder', () => {
  test('a rewritten Flate stream keeps every byte', async () => {
    const { bytes, content } = await pdfWithFlateArray();
    vi.stubGlobal('TextDecoder', BrowserTextDecoder);
    vi.resetModules();
    const { run } = await import('../../workers/engine/tools/merge-pdf.ts');
    const { inflateSync } = await import('fflate');
    const result = await run(
      [
        { name: 'a.pdf', bytes },
        { name: 'b.pdf', bytes: bytes.slice() },
      ],
      {},
      {},
    );
    vi.unstubAllGlobals();
    const merged = await PDFDocument.load(result.bytes);
    expect(merged.getPageCount()).toBe(2);
    for (const page of merged.getPages()) {
      const stream = merged.context.lookup(page.node.get(PDFName.of('Contents')) as PDFRef);
      expect(stream).toBeInstanceOf(PDFRawStream);
      const raw = stream as PDFRawStream;
      // The update made the filter a name (qpdf then passes the data through untouched).
      expect(raw.dict.get(PDFName.of('Filter'))).toBe(PDFName.of('FlateDecode'));
      expect(raw.dict.get(PDFName.of('Filter'))).not.toBeInstanceOf(PDFArray);
      expect(Array.from(inflateSync(raw.contents.subarray(2)))).toEqual(Array.from(content));
    }
  });
});
