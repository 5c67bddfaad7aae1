/**
 * The /api contract of spec §7 with plain fetch + FormData, answered by the same MSW handlers the
 * browser uses (mock-api/node.ts runs the engines directly instead of through a worker): status
 * codes, JSON { error } on failure, Content-Disposition filenames, defaults, the inputPassword field.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { createApiServer } from '../../mock-api/node.ts';
import { filenameFromDisposition } from '../../src/api/client.ts';
import { encrypt, labelledPdf, pageLabels, pageRotations } from '../support/page-fixtures.ts';

const server = createApiServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const ORIGIN = 'http://folio.test';
const pdfFile = async (name: string, label: string, pages: number) =>
  new File([(await labelledPdf(label, pages)) as Uint8Array<ArrayBuffer>], name, { type: 'application/pdf' });

async function post(path: string, fields: Array<[string, string | File]>) {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return fetch(`${ORIGIN}${path}`, { method: 'POST', body: form });
}

describe('/api contract in Node', () => {
  test('merge: files (multiple) in order → PDF with Content-Disposition', async () => {
    const response = await post('/api/pdf/merge', [
      ['files', await pdfFile('a.pdf', 'A', 2)],
      ['files', await pdfFile('b.pdf', 'B', 1)],
    ]);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(filenameFromDisposition(response.headers.get('Content-Disposition'))).toBe('merged.pdf');
    expect(await pageLabels(new Uint8Array(await response.arrayBuffer()))).toEqual(['A1', 'A2', 'B1']);
  });

  test('split without options: every page, a ZIP named after the input', async () => {
    const response = await post('/api/pdf/split', [['file', await pdfFile('doc.pdf', 'A', 3)]]);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/zip');
    expect(filenameFromDisposition(response.headers.get('Content-Disposition'))).toBe('doc-split.zip');
    const zip = await JSZip.loadAsync(await response.arrayBuffer());
    expect(Object.keys(zip.files).sort()).toEqual(['doc-page-1.pdf', 'doc-page-2.pdf', 'doc-page-3.pdf']);
  });

  test('rotate: angle defaults to 90; angle=180 with pages; a UTF-8 name survives', async () => {
    const file = await pdfFile('Überweisung.pdf', 'A', 2);
    const byDefault = await post('/api/pdf/rotate', [['file', file]]);
    expect(await pageRotations(new Uint8Array(await byDefault.arrayBuffer()))).toEqual([90, 90]);
    expect(filenameFromDisposition(byDefault.headers.get('Content-Disposition'))).toBe('Überweisung-rotated.pdf');
    const chosen = await post('/api/pdf/rotate', [
      ['file', file],
      ['angle', '180'],
      ['pages', '2'],
    ]);
    expect(await pageRotations(new Uint8Array(await chosen.arrayBuffer()))).toEqual([0, 180]);
  });

  test('organize: pageOrder', async () => {
    const response = await post('/api/pdf/organize', [
      ['file', await pdfFile('o.pdf', 'A', 3)],
      ['pageOrder', '3,1'],
    ]);
    expect(response.status).toBe(200);
    expect(await pageLabels(new Uint8Array(await response.arrayBuffer()))).toEqual(['A3', 'A1']);
  });

  test('errors are JSON { error, code } with a fitting status', async () => {
    const noFile = await post('/api/pdf/merge', []);
    expect(noFile.status).toBe(400);
    expect(noFile.headers.get('Content-Type')).toContain('application/json');
    expect(await noFile.json()).toEqual({ error: 'Please select at least one file', code: 'InvalidInput' });

    const twoFiles = await post('/api/pdf/rotate', [
      ['file', await pdfFile('a.pdf', 'A', 1)],
      ['file', await pdfFile('b.pdf', 'B', 1)],
    ]);
    expect(twoFiles.status).toBe(400);

    const badAngle = await post('/api/pdf/rotate', [
      ['file', await pdfFile('a.pdf', 'A', 1)],
      ['angle', '45'],
    ]);
    expect(badAngle.status).toBe(400);
    expect(((await badAngle.json()) as { error: string }).error).toMatch(/Rotation: "45" is not one of 90, 180, 270/);

    const badOrder = await post('/api/pdf/organize', [
      ['file', await pdfFile('a.pdf', 'A', 2)],
      ['pageOrder', '1,5'],
    ]);
    expect(badOrder.status).toBe(400);
    expect(((await badOrder.json()) as { error: string }).error).toBe(
      'Page order: Page 5 does not exist: the document has 2 pages.',
    );

    const notPdf = await post('/api/pdf/split', [
      ['file', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], 'photo.pdf')],
    ]);
    expect(notPdf.status).toBe(422);
    expect(await notPdf.json()).toEqual({
      error: '"photo.pdf" is not a valid PDF: it is a PNG image.',
      code: 'InvalidPdf',
    });

    const unknown = await fetch(`${ORIGIN}/api/pdf/qrCode`, { method: 'POST' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(Error); // not an endpoint: MSW refuses it (onUnhandledRequest: 'error')
  });

  test('encrypted input: 401 PasswordRequired, 403 Invalid Password, then inputPassword opens it', async () => {
    const secret = new File(
      [(await encrypt(await labelledPdf('S', 2), 'pw-123')) as Uint8Array<ArrayBuffer>],
      'secret.pdf',
      { type: 'application/pdf' },
    );
    const missing = await post('/api/pdf/rotate', [['file', secret]]);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: '"secret.pdf" is protected by a password. Enter it to continue.',
      code: 'PasswordRequired',
    });
    const wrong = await post('/api/pdf/rotate', [
      ['file', secret],
      ['inputPassword', 'nope'],
    ]);
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({ error: 'Invalid Password', code: 'InvalidPassword' });
    const right = await post('/api/pdf/rotate', [
      ['file', secret],
      ['inputPassword', 'pw-123'],
    ]);
    expect(right.status).toBe(200);
    expect(await pageRotations(new Uint8Array(await right.arrayBuffer()))).toEqual([90, 90]);
  });
});
