import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef } from 'pdf-lib';
import { appendUpdate, updateAfter } from '../../workers/engine/lib/pdf/pdf-update.ts';
import { piecedFile, runQpdf } from '../../workers/engine/lib/pdf/qpdf.ts';

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

describe('a source and its update as pieces (updateAfter, piecedFile)', () => {
  /** A 3-page PDF, and an incremental update turning its page 2 (/Rotate 90). */
  async function sourceAndUpdate() {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 3; i++) doc.addPage([200 + i, 300]).drawText(`Page ${i + 1}`);
    const base = await doc.save({ useObjectStreams: false });
    const page = doc.getPage(1);
    page.node.set(PDFName.of('Rotate'), PDFNumber.of(90));
    const objects = [{ ref: page.ref, body: page.node.toString() }];
    const size = doc.context.largestObjectNumber + 1;
    const trailer = `/Root ${(doc.context.trailerInfo.Root as PDFRef).toString()}`;
    return {
      base,
      update: updateAfter(base, objects, size, trailer),
      joined: appendUpdate(base, objects, size, trailer),
    };
  }

  it('updateAfter is what appendUpdate appends', async () => {
    const { base, update, joined } = await sourceAndUpdate();
    expect(joined).toEqual(concat(base, update));
  });

  it('qpdf reads the pieces as it reads the joined file, whatever the cuts (reads across pieces, of 8 bytes or fewer)', async () => {
    const { base, update, joined } = await sourceAndUpdate();
    const args = ['--static-id', '--object-streams=disable', '/in.pdf', '/out.pdf'];
    const reference = await runQpdf(args, { inputs: { '/in.pdf': joined }, outputs: ['/out.pdf'] });
    expect(reference.exitCode).toBe(0);
    const rotated = await PDFDocument.load(reference.files['/out.pdf']);
    expect(rotated.getPage(1).getRotation().angle).toBe(90);
    // Two pieces (as prepareSource gives qpdf), then the file cut every 7 bytes and at odd places.
    const cuts = [
      [base, update],
      Array.from({ length: Math.ceil(joined.byteLength / 7) }, (_, i) => joined.subarray(i * 7, i * 7 + 7)),
      [joined.subarray(0, 1), joined.subarray(1, 1), joined.subarray(1, 9000), joined.subarray(9000)],
    ];
    for (const pieces of cuts) {
      const result = await runQpdf(args, { inputs: { '/in.pdf': pieces }, outputs: ['/out.pdf'] });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.files['/out.pdf']).toEqual(reference.files['/out.pdf']);
    }
  });

  it('piecedFile answers ranges and single bytes across pieces', () => {
    const whole = Uint8Array.from({ length: 40 }, (_, i) => i);
    const file = piecedFile([
      whole.subarray(0, 10),
      whole.subarray(10, 10),
      whole.subarray(10, 25),
      whole.subarray(25),
    ]);
    expect(file.length).toBe(40);
    expect(file.subarray(0, 40)).toBe(file);
    for (const [start, end] of [
      [0, 10],
      [5, 30],
      [10, 25],
      [24, 26],
      [39, 40],
      [0, 39],
    ]) {
      expect([...file.subarray(start, end)]).toEqual([...whole.subarray(start, end)]);
    }
    for (let i = 0; i < 40; i++) expect(file[i]).toBe(i);
    expect(file[40]).toBeUndefined();
  });
});

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}
