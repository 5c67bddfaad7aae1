/**
 * openPdfjsBlob: pdf.js reading a file kept in a Blob by ranges (the thumbnails and file check of
 * large files, workers/engine.worker.ts). It must give what the whole-file open gives, read only
 * part of a file whose bulk is one page's picture, and fail — not wait — when the file cannot be read.
 */
import { describe, expect, test } from 'vitest';
import { openPdfjs, openPdfjsBlob, pageInfos, pageText } from '../../workers/engine/lib/pdf/pdfjs.ts';
import { encrypt, labelledPdf, pdfWithBigPicture } from '../support/page-fixtures.ts';

/** A Blob that counts the bytes read through slice(). */
class CountingBlob extends Blob {
  read = 0;
  override slice(start?: number, end?: number, type?: string): Blob {
    this.read += (end ?? this.size) - (start ?? 0);
    return super.slice(start, end, type);
  }
}

/** A Blob whose contents can no longer be read (the file changed on disk after it was picked). */
class UnreadableBlob extends Blob {
  override slice(): Blob {
    return { arrayBuffer: () => Promise.reject(new DOMException('The file changed', 'NotReadableError')) } as Blob;
  }
}

async function labelsOf(doc: Awaited<ReturnType<typeof openPdfjs>>): Promise<string[]> {
  const labels: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) labels.push((await pageText(doc, n)).trim());
  return labels;
}

describe('openPdfjsBlob (pdf.js reading a Blob by ranges)', () => {
  test('gives the whole-file open’s pages and text; pages and page 1 read a fraction of a file that is mostly one picture', async () => {
    const bytes = await pdfWithBigPicture();
    const whole = await openPdfjs(bytes);
    const expected = await pageInfos(whole);
    await whole.destroy();
    const blob = new CountingBlob([bytes as Uint8Array<ArrayBuffer>]);
    const doc = await openPdfjsBlob(blob);
    try {
      expect(await pageInfos(doc)).toEqual(expected);
      expect((await pageText(doc, 1)).trim()).toBe('A1');
      expect(bytes.byteLength).toBeGreaterThan(12_000_000);
      expect(blob.read / bytes.byteLength).toBeLessThan(0.1);
      // Page 3 shows the picture: reading it reads the rest.
      expect(await labelsOf(doc)).toEqual(['A1', 'A2', 'A3']);
    } finally {
      await doc.destroy();
    }
  });

  test('a file whose object table points nowhere is still opened (pdf.js reads it whole to rebuild it)', async () => {
    const bytes = await pdfWithBigPicture();
    const text = Buffer.from(bytes).toString('latin1');
    const at = text.lastIndexOf('startxref');
    const damaged = Buffer.from(`${text.slice(0, at)}startxref\n999999\n%%EOF\n`, 'latin1');
    const doc = await openPdfjsBlob(new Blob([damaged]));
    try {
      expect(await labelsOf(doc)).toEqual(['A1', 'A2', 'A3']);
    } finally {
      await doc.destroy();
    }
  });

  test('an encrypted file asks for its password, refuses a wrong one and opens with the right one', async () => {
    const blob = new Blob([(await encrypt(await labelledPdf('C', 2), 'secret')) as Uint8Array<ArrayBuffer>]);
    await expect(openPdfjsBlob(blob)).rejects.toMatchObject({ name: 'PasswordRequired' });
    await expect(openPdfjsBlob(blob, { password: 'wrong' })).rejects.toMatchObject({ name: 'InvalidPassword' });
    const doc = await openPdfjsBlob(blob, { password: 'secret' });
    try {
      expect(await labelsOf(doc)).toEqual(['C1', 'C2']);
    } finally {
      await doc.destroy();
    }
  });

  test('a file that can no longer be read fails the open instead of leaving it waiting', async () => {
    const blob = new UnreadableBlob([(await labelledPdf('D', 1)) as Uint8Array<ArrayBuffer>]);
    await expect(openPdfjsBlob(blob, { name: 'gone.pdf' })).rejects.toMatchObject({ name: 'InvalidPdf' });
  });
});
