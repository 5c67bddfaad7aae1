/**
 * The contract of every engine function (one per tool, workers/engine/tools/<tool-id>.ts):
 * bytes and options in, bytes out, progress reported, abortable. No DOM: engines run in a Web
 * Worker in the browser and directly in Node for tests, the corpus suite and the bench.
 */

/** One input file. `password` opens it when it is encrypted (the modal asks for it on PasswordRequired). */
export interface EngineInput {
  name: string;
  bytes: Uint8Array;
  password?: string;
  /**
   * The multipart field of an extra file that is not one of the tool's inputs proper, e.g.
   * add-watermark's `image`; undefined for the files of the tool's `file`/`files` field.
   */
  field?: string;
}

/** Progress of a job: `done` of `total`, and optionally a line saying what is happening. */
export type ProgressCallback = (done: number, total: number, status?: string) => void;

export interface EngineContext {
  /** Checked between pages / images; engines call throwIfAborted(signal) in their loops. */
  signal?: AbortSignal;
  /**
   * Work done so far, e.g. pages processed out of pages to process. `status`, when given, is what
   * the progress line says instead of "Page 3 of 12" until the next call (e.g. "Downloading German
   * text recognition data (1.3 MB, once)…").
   */
  progress?: ProgressCallback;
  /**
   * Where a large result may be written piece by piece as it is produced instead of returned whole
   * (in a browser: each piece is moved to the page at once, see workers/bridge.ts). An engine that
   * writes here returns `bytes` empty and `streamedBytes` set; one that does not simply ignores it.
   */
  output?: ResultSink;
}

/** Takes the pieces of a result in order. A piece's buffer is handed over: the engine must not use it after. */
export interface ResultSink {
  write(chunk: Uint8Array): void;
}

export interface EngineResult {
  /** The whole result; empty when it was written to `ctx.output` (then `streamedBytes` is set). */
  bytes: Uint8Array;
  /** Set when the result went to `ctx.output` piece by piece: its size in bytes. */
  streamedBytes?: number;
  /** Download name, e.g. "report-merged.pdf" or "converted.zip". */
  filename: string;
  mime: string;
  /** Optional facts the result panel shows (e.g. "12 images extracted", "nothing to compress"). */
  notes?: string[];
}

/** Options arrive already parsed from the catalogue's option specs (numbers are numbers, checkboxes booleans). */
export type EngineOptions = Record<string, string | number | boolean>;

export type Engine = (inputs: EngineInput[], options: EngineOptions, ctx: EngineContext) => Promise<EngineResult>;

/** What workers/engine/tools/<tool-id>.ts exports. */
export interface EngineModule {
  run: Engine;
  /**
   * Optional warm-up, called when the tool's window opens (before any file is chosen): loads what
   * every run needs (fonts, WASM) so that the first run starts at once and works offline later.
   */
  prepare?: (options?: EngineOptions) => Promise<void>;
}
