/**
 * The hostile suite's side of the /api contract in Node (mock-api/node.ts): post a crafted file,
 * and judge the answer — a valid output, or a named error whose message is for people (none of the
 * JavaScript engine's own wording) — then check the API still does a small job.
 */
import { expect } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import JSZip from 'jszip';
import { createApiServer } from '../../mock-api/node.ts';
import { INTERNAL_WORDING } from '../support/messages.ts';

export const ORIGIN = 'http://folio.test';

export function startApi(): { close(): void } {
  const server = createApiServer();
  server.listen({ onUnhandledRequest: 'error' });
  return server;
}

export interface Answer {
  status: number;
  ms: number;
  /** The JSON error body, for a failure. */
  error?: { error: string; code?: string; detail?: string };
  bytes?: Uint8Array;
  mime?: string;
  filename?: string;
}

export async function post(
  endpoint: string,
  files: Array<[string, string, Uint8Array]>,
  fields: Record<string, string> = {},
): Promise<Answer> {
  const form = new FormData();
  for (const [field, name, bytes] of files) form.append(field, new File([bytes as Uint8Array<ArrayBuffer>], name));
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const started = performance.now();
  const response = await fetch(`${ORIGIN}${endpoint}`, { method: 'POST', body: form });
  const mime = response.headers.get('Content-Type') ?? '';
  const answer: Answer = { status: response.status, ms: 0, mime };
  if (mime.includes('application/json')) answer.error = (await response.json()) as Answer['error'];
  else answer.bytes = new Uint8Array(await response.arrayBuffer());
  answer.filename = response.headers.get('Content-Disposition') ?? undefined;
  answer.ms = performance.now() - started;
  return answer;
}

/**
 * Checks that an output is what its type says: a PDF with pages (an encrypted one, protect-pdf's,
 * decrypted first with `password`), a ZIP with entries, an image.
 */
async function expectValidOutput(answer: Answer, password?: string): Promise<void> {
  let bytes = answer.bytes!;
  expect(bytes.byteLength).toBeGreaterThan(0);
  if (answer.mime === 'application/pdf') {
    if (password !== undefined) {
      const { runQpdf } = await import('../../workers/engine/lib/pdf/qpdf.ts');
      const args = [`--password=${password}`, '--decrypt', '/in.pdf', '/out.pdf'];
      const result = await runQpdf(args, { inputs: { '/in.pdf': bytes }, outputs: ['/out.pdf'] });
      expect(result.exitCode, result.stderr).toBe(0);
      bytes = result.files['/out.pdf'];
    }
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true });
    expect(doc.getPageCount()).toBeGreaterThan(0);
  } else if (answer.mime === 'application/zip' || answer.mime?.includes('officedocument')) {
    const zip = await JSZip.loadAsync(bytes);
    expect(Object.keys(zip.files).length).toBeGreaterThan(0);
  } else if (answer.mime === 'image/jpeg') {
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  } else if (answer.mime === 'image/png') {
    expect([...bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  }
}

/**
 * A clear answer: a valid output, or a named error (one of `codes` when given) whose message is a
 * sentence for people; either within `withinMs`.
 */
export async function expectClearAnswer(
  answer: Answer,
  { codes, withinMs = 30_000, password }: { codes?: string[]; withinMs?: number; password?: string } = {},
): Promise<void> {
  expect(answer.ms, 'answered within the bound').toBeLessThan(withinMs);
  if (answer.error) {
    expect(answer.error.code, `named error for: ${answer.error.error}`).toBeTruthy();
    // InternalError is the name of "an engine bug": a crafted file must never reach one.
    expect(answer.error.code, `${answer.error.error}\n${answer.error.detail ?? ''}`).not.toBe('InternalError');
    expect(answer.error.error).not.toMatch(INTERNAL_WORDING);
    expect(answer.error.error.length).toBeGreaterThan(15);
    if (codes) expect(codes, answer.error.error).toContain(answer.error.code);
    return;
  }
  expect(answer.status).toBe(200);
  if (codes) expect.fail(`expected an error (${codes.join(', ')}), got a ${answer.mime} output`);
  await expectValidOutput(answer, password);
}

/** A named error with one of `codes` whose message matches `message`. */
export function expectRefused(answer: Answer, codes: string[], message?: RegExp): void {
  expect(answer.error, `expected ${codes.join('/')} but got ${answer.status} ${answer.mime}`).toBeDefined();
  expect(codes).toContain(answer.error!.code);
  expect(answer.error!.error).not.toMatch(INTERNAL_WORDING);
  if (message) expect(answer.error!.error).toMatch(message);
}

const SMALL_PDF = (async () => {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText('still alive', { x: 20, y: 100, size: 14 });
  return doc.save();
})();

/** After a heavy job: a small rotate must still work. */
export async function expectSmallJobWorks(): Promise<void> {
  const answer = await post('/api/pdf/rotate', [['file', 'small.pdf', await SMALL_PDF]]);
  expect(answer.status).toBe(200);
  const doc = await PDFDocument.load(answer.bytes!);
  expect(doc.getPage(0).getRotation().angle).toBe(90);
}
