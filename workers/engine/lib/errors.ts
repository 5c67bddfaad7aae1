/**
 * What engines say about failures: the shared FolioError (shared/errors.ts) and its status table,
 * the common errors about files, and how an unnamed failure is told to people.
 */
import { ERROR_STATUS, FolioError, type FolioErrorCode } from '../../../shared/errors.ts';

export { ERROR_STATUS, FolioError, type FolioErrorCode };

export const passwordRequired = (file: string) =>
  new FolioError('PasswordRequired', `"${file}" is protected by a password. Enter it to continue.`);
/** The wrong-password message is exactly 'Invalid Password' (the modal and API clients match on it). */
export const invalidPassword = () => new FolioError('InvalidPassword', 'Invalid Password');
export const notAPdf = (file: string) => new FolioError('InvalidPdf', `"${file}" is not a valid PDF.`);
export const emptyFile = (file: string) => new FolioError('InvalidInput', `"${file}" is empty (0 bytes).`);
export const damagedPdf = (file: string) =>
  new FolioError('DamagedPdf', `"${file}" is damaged and could not be repaired.`);
/** A PDF that ends early (lib/pdf/pdf-bytes.ts endsEarly) with too little left to read. */
export const cutShortPdf = (file: string) =>
  new FolioError(
    'DamagedPdf',
    `"${file}" ends early — it was cut short, perhaps by an interrupted download — and too little of it is left ` +
      'to repair. Getting the file again may help.',
  );
export const cancelled = () => new FolioError('Cancelled', 'Cancelled');
/** A job that reported no progress for `seconds` and was stopped by its watchdog (workers/watchdog.ts). */
export const stalled = (seconds: number) =>
  new FolioError(
    'TimedOut',
    `This job stopped making progress for ${seconds} seconds, so it was stopped (the tab stays usable). ` +
      'Please try again; if it stops again, this file is too complex to process in the browser.',
  );

/** True for any error that carries one of our codes, whether it is a FolioError or a re-created clone. */
export function isFolioError(error: unknown): error is Error & { name: FolioErrorCode } {
  return error instanceof Error && Object.hasOwn(ERROR_STATUS, error.name);
}

/** What a person is told about a failure, and what a bug report needs (`detail`, for unnamed errors). */
export interface FailureReport {
  code: FolioErrorCode;
  message: string;
  detail?: string;
}

/** Engine and library messages that mean "the device ran out of memory" (V8, WASM, canvas). */
const OUT_OF_MEMORY =
  /allocation failed|out of memory|memory access out of bounds|invalid (typed )?array length|invalid string length|cannot create a string longer|skia surface|could not allocate|cannot enlarge memory|Aborted\(OOM\)/i;
/** Messages of recursion run too deep (V8, SpiderMonkey, JavaScriptCore). */
const TOO_DEEP = /maximum call stack|too much recursion|call stack size/i;

/**
 * Maps any failure to a named error with a sentence for people. Named errors pass as they are; an
 * unnamed one (a library's or an engine bug's) never shows its own text: it is kept in `detail`,
 * under a plain message, for the "copy details" of a bug report.
 */
export function describeFailure(error: unknown, context = ''): FailureReport {
  if (isFolioError(error)) return { code: error.name, message: error.message };
  const name = error instanceof Error ? error.name : typeof error;
  const text = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error && error.stack ? error.stack.split('\n').slice(1, 8).join('\n') : '';
  const detail = [context, `${name}: ${text}`, stack].filter(Boolean).join('\n');
  if (OUT_OF_MEMORY.test(text) || (error instanceof RangeError && /array|buffer|memory/i.test(text))) {
    return {
      code: 'TooLarge',
      message:
        'This file needs more memory than this device can give to one job. Try a smaller file, fewer pages or a ' +
        'lower resolution.',
      detail,
    };
  }
  if (TOO_DEEP.test(text)) {
    return {
      code: 'TooComplex',
      message: 'This file is nested too deeply to process safely: it is damaged, or was built to crash readers.',
      detail,
    };
  }
  return {
    code: 'InternalError',
    message:
      'Something went wrong in Folio while processing this file. Nothing left your device. "Copy details" gives ' +
      'what a bug report needs.',
    detail,
  };
}

/**
 * What a reader's failure on file `name` becomes: named errors as they are; a library's own
 * complaint about the file ("Malformed XML") as "damaged"; anything a JavaScript engine says (a
 * TypeError from a reader, a stack overflow, running out of memory) as it is, for describeFailure
 * to turn into a plain message with details for a bug report — never its words shown as the reason.
 */
export function readFailure(name: string, error: unknown): Error {
  if (isFolioError(error)) return error;
  const text = error instanceof Error ? error.message : String(error);
  const engineError = error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError;
  if (engineError || OUT_OF_MEMORY.test(text) || TOO_DEEP.test(text) || !text)
    return error instanceof Error ? error : new Error(text);
  return new FolioError('InvalidInput', `"${name}" is damaged: ${text.replace(/\.$/, '')}.`);
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelled();
}
