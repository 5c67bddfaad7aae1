/**
 * Named errors that cross the worker boundary and the /api boundary with their meaning intact
 * (in the spirit of pdf.js's wrapReason). Comlink re-creates thrown errors with their `name` and
 * `message`; the /api handler maps `name` to a status and `{ error, code }` JSON; the modal shows
 * `error` and reacts to `code` (e.g. asks for a password on PasswordRequired).
 */

export const ERROR_STATUS = {
  PasswordRequired: 401,
  InvalidPassword: 403,
  UnsupportedEncryption: 422,
  InvalidPdf: 422,
  DamagedPdf: 422,
  InvalidInput: 400,
  InvalidImage: 422,
  TooLarge: 413,
  Cancelled: 499,
  NotImplemented: 501,
  TimedOut: 504,
  /** A part of the engine is not on this device and the network is off. */
  Offline: 503,
} as const;

export type FolioErrorCode = keyof typeof ERROR_STATUS;

export class FolioError extends Error {
  constructor(
    readonly code: FolioErrorCode,
    message: string,
  ) {
    super(message);
    // The name is the code so that it survives structured cloning / Comlink's error serialisation.
    this.name = code;
  }
}

export const passwordRequired = (file: string) =>
  new FolioError('PasswordRequired', `"${file}" is protected by a password. Enter it to continue.`);
/** Spec §8: the wrong-password message is exactly 'Invalid Password'. */
export const invalidPassword = () => new FolioError('InvalidPassword', 'Invalid Password');
export const notAPdf = (file: string) => new FolioError('InvalidPdf', `"${file}" is not a valid PDF.`);
export const emptyFile = (file: string) => new FolioError('InvalidInput', `"${file}" is empty (0 bytes).`);
export const damagedPdf = (file: string) =>
  new FolioError('DamagedPdf', `"${file}" is damaged and could not be repaired.`);
export const cancelled = () => new FolioError('Cancelled', 'Cancelled');

/** True for any error that carries one of our codes, whether it is a FolioError or a re-created clone. */
export function isFolioError(error: unknown): error is Error & { name: FolioErrorCode } {
  return error instanceof Error && Object.hasOwn(ERROR_STATUS, error.name);
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelled();
}
