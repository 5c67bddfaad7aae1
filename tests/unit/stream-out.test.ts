/**
 * Results written piece by piece (issue #20, "outputs streamed, not held"): ZipBuilder hands each
 * piece of the archive to a sink as it is written and keeps none; pdf-to-jpg writes its ZIP to
 * `ctx.output` page by page; the page gathers pieces into Blobs (BlobCollector); the /api answers a
 * runner's Blob as the response body.
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import { ZipBuilder } from '../../workers/engine/lib/zip.ts';
import { BlobCollector, blobInParts } from '../../workers/bridge.ts';
import { answerToolRequest, type ToolRunner } from '../../mock-api/api-core.ts';
import { fileTools } from '../../src/catalogue/index.ts';
import { run as pdfToJpg } from '../../workers/engine/tools/pdf-to-jpg.ts';
import { imageHeader } from '../../workers/engine/lib/image/codecs.ts';

const concat = (chunks: Uint8Array[]) => new Uint8Array(Buffer.concat(chunks));

describe('ZipBuilder with a sink', () => {
  test('each entry reaches the sink when added; the pieces make the archive; nothing is returned', async () => {
    const chunks: Uint8Array[] = [];
    const zip = new ZipBuilder({ write: (chunk) => void chunks.push(chunk) });
    zip.add('a.txt', new TextEncoder().encode('first entry'));
    const afterFirst = chunks.reduce((sum, c) => sum + c.byteLength, 0);
    // The entry's header, its bytes and its data descriptor are out before the next entry exists.
    expect(afterFirst).toBeGreaterThan('first entry'.length + 30);
    zip.add('b.txt', new TextEncoder().encode('second entry'), { compress: true });
    const out = await zip.finish();
    expect(out.bytes.byteLength).toBe(0);
    const total = chunks.reduce((sum, c) => sum + c.byteLength, 0);
    expect(out.streamedBytes).toBe(total);
    const read = await JSZip.loadAsync(concat(chunks));
    expect(Object.keys(read.files)).toEqual(['a.txt', 'b.txt']);
    expect(await read.file('a.txt')!.async('string')).toBe('first entry');
    expect(await read.file('b.txt')!.async('string')).toBe('second entry');
  });

  test('without a sink the whole archive is returned', async () => {
    const zip = new ZipBuilder();
    zip.add('a.txt', new TextEncoder().encode('x'));
    const out = await zip.finish();
    expect(out.streamedBytes).toBeUndefined();
    expect(Object.keys((await JSZip.loadAsync(out.bytes)).files)).toEqual(['a.txt']);
  });
});

async function blankPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200 + 20 * i, 300]);
  return doc.save();
}

test('pdf-to-jpg writes its ZIP to ctx.output page by page, before the job ends', async () => {
  const chunks: Uint8Array[] = [];
  const pagesDoneAtWrite: number[] = [];
  let pagesDone = 0;
  const result = await pdfToJpg(
    [{ name: 'doc.pdf', bytes: await blankPdf(4) }],
    { resolution: 72, format: 'jpeg', quality: 80 },
    {
      progress: (done) => void (pagesDone = done),
      output: {
        write: (chunk) => {
          chunks.push(chunk);
          pagesDoneAtWrite.push(pagesDone);
        },
      },
    },
  );
  expect(result.bytes.byteLength).toBe(0);
  expect(result.streamedBytes).toBe(chunks.reduce((sum, c) => sum + c.byteLength, 0));
  expect(result.filename).toBe('doc-pages.zip');
  // The first page was written while later pages were still to come.
  expect(pagesDoneAtWrite[0]).toBeLessThan(4);
  const read = await JSZip.loadAsync(concat(chunks));
  const names = Object.keys(read.files);
  expect(names).toEqual(['doc-p001.jpg', 'doc-p002.jpg', 'doc-p003.jpg', 'doc-p004.jpg']);
  for (const [i, name] of names.entries()) {
    const header = imageHeader(await read.file(name)!.async('uint8array'));
    expect(header).toMatchObject({ format: 'jpeg', width: 200 + 20 * i, height: 300 });
  }
});

test('BlobCollector: pieces in order, across its 8 MB parts', async () => {
  const collector = new BlobCollector();
  const piece = (n: number, size: number) => new Uint8Array(size).fill(n);
  const sizes = [5, 3 * 1024 * 1024, 7 * 1024 * 1024, 1, 9 * 1024 * 1024, 2];
  sizes.forEach((size, n) => collector.add(piece(n + 1, size)));
  const blob = collector.blob('application/zip');
  expect(blob.type).toBe('application/zip');
  expect(blob.size).toBe(collector.size);
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let offset = 0;
  sizes.forEach((size, n) => {
    expect(bytes[offset]).toBe(n + 1);
    expect(bytes[offset + size - 1]).toBe(n + 1);
    offset += size;
  });
  expect(offset).toBe(bytes.byteLength);
});

test('blobInParts: a whole result, small or in 64 MB parts, is the same bytes with its type', async () => {
  for (const size of [0, 1000, 64 * 1024 * 1024, 2 * 64 * 1024 * 1024 + 3]) {
    const result = new Uint8Array(size);
    for (let i = 0; i < size; i += 4093) result[i] = (i / 4093) & 0xff;
    result[size - 1] = 0xee;
    const blob = await blobInParts(result, 'application/pdf');
    expect(blob.type).toBe('application/pdf');
    expect(blob.size).toBe(size);
    expect(Buffer.from(await blob.arrayBuffer()).equals(Buffer.from(result))).toBe(true);
  }
});

test("the /api answers a runner's Blob as the body, with its length", async () => {
  const tool = fileTools.find((t) => t.id === 'pdf-to-jpg')!;
  const runner: ToolRunner = async () => ({
    blob: new Blob([new Uint8Array([1, 2, 3, 4, 5])], { type: 'application/zip' }),
    filename: 'x-pages.zip',
    mime: 'application/zip',
    notes: ['5 bytes'],
  });
  const form = new FormData();
  form.append(
    tool.fileField,
    new File([(await blankPdf(1)) as Uint8Array<ArrayBuffer>], 'x.pdf', { type: 'application/pdf' }),
  );
  const response = await answerToolRequest(
    tool,
    new Request('http://x/api/pdf/toJpg', { method: 'POST', body: form }),
    runner,
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('Content-Length')).toBe('5');
  expect(response.headers.get('Content-Type')).toBe('application/zip');
  expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([1, 2, 3, 4, 5]);
});
