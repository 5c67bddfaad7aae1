/**
 * No internal message reaches a user (issue #21): whatever an engine or a library throws, the /api
 * answer is a named error with a sentence for people; the library's own words go to `detail`, for
 * the modal's "Copy details".
 */
import { describe, expect, test } from 'vitest';
import { errorResponse } from '../../mock-api/api-core.ts';
import { FolioError } from '../../workers/engine/lib/errors.ts';
import { INTERNAL_WORDING } from '../support/messages.ts';

async function answerFor(error: unknown) {
  const response = errorResponse(error, 'Folio test-tool');
  return { status: response.status, body: (await response.json()) as { error: string; code: string; detail?: string } };
}

describe('errorResponse', () => {
  test('a named error passes as it is, without details', async () => {
    const { status, body } = await answerFor(
      new FolioError('DamagedPdf', '"a.pdf" is damaged and could not be repaired.'),
    );
    expect(status).toBe(422);
    expect(body).toEqual({ error: '"a.pdf" is damaged and could not be repaired.', code: 'DamagedPdf' });
  });

  test.each([
    [new RangeError('Maximum call stack size exceeded'), 'TooComplex', 422],
    [new TypeError("Cannot read properties of undefined (reading 'byteLength')"), 'InternalError', 500],
    [new Error('Create skia surface failed'), 'TooLarge', 413],
    [new RangeError('Array buffer allocation failed'), 'TooLarge', 413],
    [new WebAssembly.RuntimeError('memory access out of bounds'), 'TooLarge', 413],
    ['a thrown string', 'InternalError', 500],
  ])('%s → %s, the original only in detail', async (error, code, status) => {
    const answer = await answerFor(error);
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
    expect(answer.body.error).not.toMatch(INTERNAL_WORDING);
    const original = error instanceof Error ? error.message : String(error);
    expect(answer.body.detail).toContain(original);
    expect(answer.body.detail).toContain('Folio test-tool');
  });
});
