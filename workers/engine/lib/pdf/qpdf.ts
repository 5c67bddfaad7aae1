/**
 * qpdf 12 compiled to WebAssembly (@neslinesli93/qpdf-wasm, ISC), run like the command line.
 * A fresh instance per call: qpdf's global state leaks between runs of one instance. The
 * compiled module is shared, so a fresh instance costs a few milliseconds.
 *
 * Exit codes as the CLI: 0 success, 2 errors, 3 warnings (output written). Note: the
 * `--is-encrypted` / `--requires-password` checks are broken in this build; use `--show-encryption`
 * or let `encryptionOf` (pdf-open.ts) read the trailer.
 */
import createQpdf from '@neslinesli93/qpdf-wasm';
import qpdfWasmUrl from '@neslinesli93/qpdf-wasm/dist/qpdf.wasm?url';
import { probeMemory } from '../memory-probe.ts';
import { compileWasm, isNode } from '../wasm.ts';

export interface QpdfResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The files named in `outputs` that qpdf wrote (missing when it wrote none). */
  files: Record<string, Uint8Array>;
}

/** A file for qpdf to read: its bytes, or pieces read one after another as one file. */
export type QpdfInput = Uint8Array | readonly Uint8Array[];

export interface QpdfJob {
  /** Files to place in qpdf's virtual file system, by absolute path, e.g. { '/in.pdf': bytes }. */
  inputs: Record<string, QpdfInput>;
  /** Paths to read back after the run, e.g. ['/out.pdf']. */
  outputs?: string[];
}

/** Arguments longer than this (in all) are passed in a file (see runQpdf). */
const ARGS_ON_STACK = 16_000;

export async function runQpdf(args: string[], { inputs, outputs = [] }: QpdfJob): Promise<QpdfResult> {
  // (Node: the factory reads and compiles qpdf.wasm itself, see below.)
  const wasmModule = isNode ? undefined : await compileWasm(qpdfWasmUrl, '@neslinesli93/qpdf-wasm/dist/qpdf.wasm');
  const stdout: string[] = [];
  const stderr: string[] = [];
  // This build ignores Module.print/printErr and binds console.log/console.error when the factory
  // runs, so both are swapped for collectors during that (synchronous) call and restored at once.
  // It also ignores `instantiateWasm`: in a browser it calls fetch(locateFile('qpdf.wasm')) and
  // WebAssembly.instantiateStreaming synchronously inside the factory call, so for that moment both
  // are swapped too, to instantiate the module compiled once (no fetch, no recompiling per job).
  // In Node it reads qpdf.wasm next to its own script, which works as it is.
  const { log, error } = console;
  const realFetch = globalThis.fetch;
  const realInstantiateStreaming = WebAssembly.instantiateStreaming;
  console.log = (...parts: unknown[]) => stdout.push(parts.join(' '));
  console.error = (...parts: unknown[]) => stderr.push(parts.join(' '));
  if (wasmModule) {
    globalThis.fetch = (() => Promise.resolve(new Response(null))) as typeof fetch;
    WebAssembly.instantiateStreaming = ((_source: unknown, imports?: WebAssembly.Imports) =>
      WebAssembly.instantiate(wasmModule, imports).then((instance) => ({
        module: wasmModule,
        instance,
      }))) as typeof WebAssembly.instantiateStreaming;
  }
  let starting: Promise<QpdfModuleInstance>;
  try {
    starting = (createQpdf as unknown as (options: object) => Promise<QpdfModuleInstance>)({
      noInitialRun: true,
      thisProgram: 'qpdf',
      // Used only if the swap above is not taken (e.g. a future build): the real URL, never index.html.
      ...(isNode ? {} : { locateFile: (path: string) => (path.endsWith('.wasm') ? qpdfWasmUrl : path) }),
    });
  } finally {
    console.log = log;
    console.error = error;
    if (wasmModule) {
      globalThis.fetch = realFetch;
      WebAssembly.instantiateStreaming = realInstantiateStreaming;
    }
  }
  const qpdf = await starting;
  // FS.write with canOwn: the file system keeps a view of the caller's bytes instead of a copy
  // (FS.writeFile would copy every input; qpdf only reads them).
  for (const [path, input] of Object.entries(inputs)) {
    const bytes = input instanceof Uint8Array ? input : piecedFile(input);
    const stream = qpdf.FS.open(path, 'w');
    qpdf.FS.write(stream, bytes, 0, bytes.byteLength, 0, true);
    qpdf.FS.close(stream);
  }
  // The arguments are copied onto the module's stack (64 KB): a long list (a page range naming
  // thousands of pages one by one) goes through an argument file instead, which qpdf reads as `@file`.
  let mainArgs = args;
  if (args.reduce((sum, arg) => sum + arg.length + 1, 0) > ARGS_ON_STACK) {
    if (args.some((arg) => arg.includes('\n'))) throw new Error('A qpdf argument holds a line break');
    const stream = qpdf.FS.open('/folio-args', 'w');
    const text = new TextEncoder().encode(args.join('\n'));
    qpdf.FS.write(stream, text, 0, text.byteLength, 0, true);
    qpdf.FS.close(stream);
    mainArgs = ['@/folio-args'];
  }
  const inputBytes = Object.values(inputs).reduce((sum, input) => sum + byteLengthOf(input), 0);
  probeMemory('qpdf start', { inputBytes, wasmHeap: qpdf.HEAP8.buffer.byteLength });
  const restoreWrite = growOutputsAhead(qpdf.FS, outputs, outputs.length === 1 ? inputBytes : 0);
  let exitCode: number;
  try {
    // A copy: Emscripten's callMain puts the program name in front of the array it is given.
    exitCode = qpdf.callMain([...mainArgs]);
  } catch (error) {
    // Emscripten signals exit() by throwing an ExitStatus carrying the code.
    const status = (error as { status?: unknown }).status;
    if (typeof status !== 'number') throw error;
    exitCode = status;
  }
  restoreWrite();
  const files: Record<string, Uint8Array> = {};
  for (const path of outputs) {
    try {
      files[path] = writtenBytes(qpdf.FS, path);
    } catch {
      /* not written */
    }
  }
  probeMemory('qpdf end', {
    inputBytes,
    wasmHeap: qpdf.HEAP8.buffer.byteLength,
    outputBytes: Object.values(files).reduce((sum, bytes) => sum + bytes.byteLength, 0),
    outputBuffers: Object.values(files).reduce((sum, bytes) => sum + bytes.buffer.byteLength, 0),
  });
  return { exitCode, stdout: stdout.join('\n'), stderr: stderr.join('\n'), files };
}

const byteLengthOf = (input: QpdfInput) =>
  input instanceof Uint8Array ? input.byteLength : input.reduce((sum, piece) => sum + piece.byteLength, 0);

/**
 * Pieces (a source and the incremental update appended to it, pdf-update.ts) as one file of the
 * in-memory file system, without joining them into a copy of the whole source. Emscripten's MEMFS
 * keeps what `FS.write(…, canOwn)` is given (it takes `subarray(0, length)`) and reads a file
 * through `subarray(start, end)`, or by index for reads of 8 bytes or fewer: a read within a piece
 * is a view, a read across two pieces a small copy. Nothing writes to an input.
 */
export function piecedFile(pieces: readonly Uint8Array[]): Uint8Array {
  const starts: number[] = [];
  let total = 0;
  for (const piece of pieces) {
    starts.push(total);
    total += piece.byteLength;
  }
  /** Index of the piece holding byte `offset` (offset < total). */
  const pieceAt = (offset: number) => {
    let low = 0;
    let high = pieces.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const range = (start: number, end: number): Uint8Array => {
    const first = pieceAt(start);
    if (end <= starts[first] + pieces[first].byteLength) {
      return pieces[first].subarray(start - starts[first], end - starts[first]);
    }
    const out = new Uint8Array(end - start);
    for (let index = first, at = start; at < end; index++) {
      const part = pieces[index].subarray(
        at - starts[index],
        Math.min(end, starts[index] + pieces[index].byteLength) - starts[index],
      );
      out.set(part, at - start);
      at += part.byteLength;
    }
    return out;
  };
  const file = {
    length: total,
    byteLength: total,
    subarray: (start = 0, end = total): Uint8Array =>
      start <= 0 && end >= total ? whole : range(start, Math.min(end, total)),
  };
  const whole: Uint8Array = new Proxy(file, {
    get(target, key) {
      if (typeof key === 'string' && key.length > 0 && key.charCodeAt(0) >= 48 && key.charCodeAt(0) <= 57) {
        const offset = Number(key);
        if (!(offset < total)) return undefined;
        const index = pieceAt(offset);
        return pieces[index][offset - starts[index]];
      }
      return Reflect.get(target, key);
    },
  }) as unknown as Uint8Array;
  return whole;
}

/**
 * Makes the in-memory file system grow the files named in `outputs` in few steps. Left to itself it
 * grows a large file by 1/8 at a time, each step a new array and a copy, and the arrays left behind
 * are not collected while qpdf runs: writing a 1 GB result left gigabytes of them alive at the
 * browser's peak (docs/benchmarks.md). Here the first growth goes to `expected` bytes (the size of
 * the inputs for a single output: a merge's or rotation's result is about that size; pages of an
 * array that are never written take no memory) and later ones by half. Internal writes go through
 * `FS.write`, which is wrapped for the run; returns what puts the original back.
 */
function growOutputsAhead(fs: QpdfModuleInstance['FS'], outputs: string[], expected: number): () => void {
  const write = fs.write;
  const watched = new Set(outputs);
  // qpdf writes its output in small pieces: each node's contents key is found once, not per write.
  const contentsKeys = new WeakMap<object, string | undefined>();
  const contentsKeyOf = (node: Record<string, unknown>): string | undefined => {
    let key = contentsKeys.get(node);
    if (key === undefined || !(node[key] instanceof Uint8Array)) {
      const keys = Object.keys(node).filter((name) => node[name] instanceof Uint8Array);
      key = keys.length === 1 ? keys[0] : undefined;
      contentsKeys.set(node, key);
    }
    return key;
  };
  fs.write = (stream, data, offset, length, position, canOwn) => {
    const { node, path } = stream as { node?: Record<string, unknown>; path?: string };
    const at = typeof position === 'number' ? position : ((stream as { position?: number }).position ?? 0);
    if (node && path && watched.has(path)) {
      const key = contentsKeyOf(node);
      const contents = key === undefined ? undefined : (node[key] as Uint8Array);
      if (key !== undefined && contents && contents.byteLength < at + length) {
        const wanted = Math.max(at + length, contents.byteLength < expected ? expected + (1 << 16) : 0);
        const grown = new Uint8Array(Math.max(wanted, Math.ceil(contents.byteLength * 1.5)));
        grown.set(contents);
        node[key] = grown;
      }
    }
    return write.call(fs, stream, data, offset, length, position, canOwn);
  };
  return () => {
    fs.write = write;
  };
}

/**
 * A file qpdf wrote, as a view of the in-memory file system's own buffer: the instance is dropped
 * after the run, so the result need not be copied out of it (FS.readFile copies; for a merge that is
 * one more copy of the whole output at the moment memory peaks). The buffer is the one Uint8Array
 * of the file's node (its name is minified in this build); FS.readFile when it cannot be found.
 */
function writtenBytes(fs: QpdfModuleInstance['FS'], path: string): Uint8Array {
  const { size } = fs.stat(path);
  const stream = fs.open(path, 'r') as { node?: Record<string, unknown> };
  fs.close(stream);
  const buffers = Object.values(stream.node ?? {}).filter((value) => value instanceof Uint8Array);
  if (buffers.length === 1 && buffers[0].byteLength >= size) return buffers[0].subarray(0, size);
  return fs.readFile(path);
}

interface QpdfModuleInstance {
  callMain(args: string[]): number;
  HEAP8: Int8Array;
  FS: {
    open(path: string, flags: string): unknown;
    write(stream: unknown, data: Uint8Array, offset: number, length: number, position: number, canOwn: boolean): number;
    close(stream: unknown): void;
    stat(path: string): { size: number };
    readFile(path: string): Uint8Array;
  };
}
