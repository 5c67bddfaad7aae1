/**
 * The PDF checks' settling (src/tool-ui/pdf-checks.ts) and the save decision that waits for it
 * (src/api/save-target.ts, file-tool-form.tsx): PDF → JPG decides on the picker from the pages'
 * sizes, so Process Files waits until the check has a final answer, and a check that never
 * answers gives up after CHECK_TIMEOUT_MS rather than keep the button waiting.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  CHECK_TIMEOUT_MS,
  CheckTimedOut,
  checkSettled,
  needsItsPassword,
  settleWithin,
  type PdfCheck,
} from '../../src/tool-ui/pdf-checks.ts';
import { estimateNeedsPageSizes } from '../../src/api/save-target.ts';
import type { ThumbnailSource } from '../../workers/bridge.ts';

const pdfToJpg = { id: 'pdf-to-jpg' } as const;
const source = { pages: [{ width: 612, height: 792 }], render: vi.fn(), close: vi.fn() } as unknown as ThumbnailSource;

describe('which estimates wait for the check', () => {
  test("PDF → JPG drawing pages needs the pages' sizes; extracting images or another tool does not", () => {
    expect(estimateNeedsPageSizes(pdfToJpg, { mode: 'pages' })).toBe(true);
    expect(estimateNeedsPageSizes(pdfToJpg, {})).toBe(true);
    expect(estimateNeedsPageSizes(pdfToJpg, { mode: 'images' })).toBe(false);
    expect(estimateNeedsPageSizes({ id: 'merge-pdf' }, { mode: 'pages' })).toBe(false);
  });
});

describe('checkSettled', () => {
  test('reading: not settled; ready, damaged, refused, timed out or no check (not a PDF): settled', () => {
    expect(checkSettled({ state: 'checking' }, '', '')).toBe(false);
    expect(checkSettled({ state: 'ready', pages: 1, source }, '', '')).toBe(true);
    expect(checkSettled({ state: 'damaged', message: 'x' }, '', '')).toBe(true);
    expect(checkSettled({ state: 'timed-out' }, '', '')).toBe(true);
    expect(checkSettled({ state: 'refused', message: 'x' }, '', '')).toBe(true);
    expect(checkSettled(undefined, '', '')).toBe(true);
  });

  test('locked: settled once the password typed so far has been tried', () => {
    const locked: PdfCheck = { state: 'locked', wrong: false };
    expect(checkSettled(locked, '', '')).toBe(true); // nothing typed: the button asks for the password
    expect(checkSettled(locked, 'sec', '')).toBe(false); // typing: not tried yet
    expect(checkSettled({ state: 'locked', wrong: false, retrying: true }, 'secret', 'secret')).toBe(false);
    expect(checkSettled({ state: 'locked', wrong: true }, 'secret', 'secret')).toBe(true); // tried, wrong
  });
});

describe('needsItsPassword', () => {
  test('locked, or anything a locked file gave once tried with the typed password: the job needs it too', () => {
    expect(needsItsPassword({ state: 'locked', wrong: false })).toBe(true);
    expect(needsItsPassword({ state: 'ready', pages: 1, source, withPassword: true })).toBe(true);
    // e.g. a locked file whose page tree is broken: the password opens it, then reading it fails.
    expect(needsItsPassword({ state: 'damaged', message: 'x', withPassword: true })).toBe(true);
    expect(needsItsPassword({ state: 'timed-out', withPassword: true })).toBe(true);
    expect(needsItsPassword({ state: 'ready', pages: 1, source })).toBe(false);
    expect(needsItsPassword({ state: 'damaged', message: 'x' })).toBe(false);
    expect(needsItsPassword({ state: 'checking' })).toBe(false);
    // A locked decompression bomb, refused once its password is typed: the field stays with what was typed.
    expect(needsItsPassword({ state: 'refused', message: 'x', withPassword: true })).toBe(true);
    expect(needsItsPassword({ state: 'refused', message: 'x' })).toBe(false);
  });
});

describe('settleWithin', () => {
  afterEach(() => vi.useRealTimers());

  test('an answer in time is passed on', async () => {
    vi.useFakeTimers();
    const answer = settleWithin(Promise.resolve(source), CHECK_TIMEOUT_MS, () => expect.fail('not late'));
    await expect(answer).resolves.toBe(source);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('a failure in time is passed on', async () => {
    vi.useFakeTimers();
    const failure = new Error('damaged');
    await expect(settleWithin(Promise.reject(failure), CHECK_TIMEOUT_MS, () => undefined)).rejects.toBe(failure);
  });

  test('no answer: CheckTimedOut after the time; a late answer is handed back to be closed, not used', async () => {
    vi.useFakeTimers();
    let answer!: (value: ThumbnailSource) => void;
    const late = vi.fn();
    const settled = settleWithin(new Promise<ThumbnailSource>((resolve) => (answer = resolve)), 1000, late);
    const outcome = settled.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(late).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(CheckTimedOut);
    expect((error as Error).message).toBe('No answer within 1 s');
    answer(source);
    await vi.waitFor(() => expect(late).toHaveBeenCalledWith(source));
  });
});
