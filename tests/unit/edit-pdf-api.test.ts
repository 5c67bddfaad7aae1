/** /api/pdf/edit in Node: the spec's multipart contract (file + text + position), answered by the engine. */
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createApiServer } from '../../mock-api/node.ts';
import { allText, editFixture, placedText } from '../support/edit-pdf-fixtures.ts';

// MSW resolves the handlers' relative paths (/api/pdf/edit) against location, which Node lacks.
vi.stubGlobal('location', new URL('http://localhost/'));
const server = createApiServer();
let pdf: Uint8Array;
beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  pdf = (await editFixture()).bytes;
});
afterAll(() => {
  server.close();
  vi.unstubAllGlobals();
});

function form(
  fields: Record<string, string>,
  file: Blob | null = new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }),
) {
  const body = new FormData();
  if (file) body.append('file', file, 'letter.pdf');
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  return body;
}

test('POST /api/pdf/edit with text + position returns the edited PDF with its filename', async () => {
  const response = await fetch('http://localhost/api/pdf/edit', {
    method: 'POST',
    body: form({ text: 'Checked by QA', position: 'bottom' }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('Content-Type')).toBe('application/pdf');
  expect(response.headers.get('Content-Disposition')).toContain('letter-edited.pdf');
  const bytes = new Uint8Array(await response.arrayBuffer());
  const items = await placedText(bytes, 1);
  const added = items.find((t) => t.str === 'Checked by QA');
  expect(added).toBeDefined();
  expect(added!.y).toBeGreaterThan(792 - 36 - 24); // near the bottom of the page
  expect(await allText(bytes)).toContain('Keep this SECRET and this');
});

test('the operations extra field passes through to the engine (a redaction)', async () => {
  const operations = JSON.stringify([{ type: 'redact', page: 1, x: 40, y: 60, width: 400, height: 40 }]);
  const response = await fetch('http://localhost/api/pdf/edit', { method: 'POST', body: form({ operations }) });
  expect(response.status).toBe(200);
  const notes = JSON.parse(decodeURIComponent(response.headers.get('X-Folio-Notes') ?? '[]')) as string[];
  expect(notes[0]).toMatch(/^Redaction: 25 characters removed/);
  expect(await allText(new Uint8Array(await response.arrayBuffer()))).not.toContain('SECRET and');
});

test('errors come back as { error } JSON with the spec messages', async () => {
  const none = await fetch('http://localhost/api/pdf/edit', { method: 'POST', body: form({ text: 'x' }, null) });
  expect(none.status).toBe(400);
  expect(await none.json()).toEqual({ error: 'Please select at least one file', code: 'InvalidInput' });
  const empty = await fetch('http://localhost/api/pdf/edit', { method: 'POST', body: form({ text: '' }) });
  expect(empty.status).toBe(400);
  expect((await empty.json()).error).toMatch(/Nothing to change/);
  const badPosition = await fetch('http://localhost/api/pdf/edit', {
    method: 'POST',
    body: form({ text: 'x', position: 'left' }),
  });
  expect(badPosition.status).toBe(400);
  expect((await badPosition.json()).error).toMatch(/Position/);
});
