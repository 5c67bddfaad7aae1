import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFRawStream, PDFRef } from 'pdf-lib';
import { appendUpdate } from '../../workers/engine/lib/pdf/pdf-update.ts';

describe('appendUpdate', () => {
  it('writes a stream’s data byte for byte, every byte value included', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([100, 100]);
    const base = await doc.save({ useObjectStreams: false });
    // Every byte value, 0x80–0x9F too: text decoders labelled latin1 read those as windows-1252 in browsers.
    const data = Uint8Array.from({ length: 512 }, (_, i) => i % 256);
    const ref = PDFRef.of(doc.context.largestObjectNumber + 1);
    const root = doc.context.trailerInfo.Root as PDFRef;
    const updated = appendUpdate(
      base,
      [
        { ref, body: `<< /Length ${data.byteLength} >>`, data },
        { ref: PDFRef.of(ref.objectNumber + 1), body: '(x)' },
      ],
      ref.objectNumber + 2,
      `/Root ${root.toString()}`,
    );
    expect(updated.subarray(0, base.byteLength)).toEqual(base);
    const reread = await PDFDocument.load(updated);
    const stream = reread.context.lookup(ref);
    expect(stream).toBeInstanceOf(PDFRawStream);
    expect(Array.from((stream as PDFRawStream).contents)).toEqual(Array.from(data));
    expect(reread.context.lookup(PDFRef.of(ref.objectNumber + 1))?.toString()).toBe('(x)');
    expect(reread.getPageCount()).toBe(1);
  });
});
