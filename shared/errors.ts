/**
 * The error every part of Folio speaks: named errors that cross the worker boundary and the /api
 * boundary with their meaning intact (in the spirit of pdf.js's wrapReason). Comlink re-creates thrown
 * errors with their `name` and `message`; the /api handler maps `name` to a status and
 * `{ error, code }` JSON; the modal shows `error` and reacts to `code` (e.g. asks for a password on
 * PasswordRequired). Shared by the UI and the engines; depends on nothing.
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
  TooComplex: 422,
  Cancelled: 499,
  InternalError: 500,
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
