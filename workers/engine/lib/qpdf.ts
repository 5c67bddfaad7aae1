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
import { compileWasm } from './wasm.ts';

export interface QpdfResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The files named in `outputs` that qpdf wrote (missing when it wrote none). */
  files: Record<string, Uint8Array>;
}

export interface QpdfJob {
  /** Files to place in qpdf's virtual file system, by absolute path, e.g. { '/in.pdf': bytes }. */
  inputs: Record<string, Uint8Array>;
  /** Paths to read back after the run, e.g. ['/out.pdf']. */
  outputs?: string[];
}

export async function runQpdf(args: string[], { inputs, outputs = [] }: QpdfJob): Promise<QpdfResult> {
  const wasmModule = await compileWasm(qpdfWasmUrl, '@neslinesli93/qpdf-wasm/dist/qpdf.wasm');
  const stdout: string[] = [];
  const stderr: string[] = [];
  // This build ignores Module.print/printErr and binds console.log/console.error when the factory
  // runs, so both are swapped for collectors during that (synchronous) call and restored at once.
  const { log, error } = console;
  console.log = (...parts: unknown[]) => stdout.push(parts.join(' '));
  console.error = (...parts: unknown[]) => stderr.push(parts.join(' '));
  let starting: Promise<QpdfModuleInstance>;
  try {
    starting = (createQpdf as unknown as (options: object) => Promise<QpdfModuleInstance>)({
      noInitialRun: true,
      thisProgram: 'qpdf',
      instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) {
        WebAssembly.instantiate(wasmModule, imports).then(done);
        return {};
      },
    });
  } finally {
    console.log = log;
    console.error = error;
  }
  const qpdf = await starting;
  for (const [path, bytes] of Object.entries(inputs)) qpdf.FS.writeFile(path, bytes);
  let exitCode: number;
  try {
    exitCode = qpdf.callMain(args);
  } catch (error) {
    // Emscripten signals exit() by throwing an ExitStatus carrying the code.
    const status = (error as { status?: unknown }).status;
    if (typeof status !== 'number') throw error;
    exitCode = status;
  }
  const files: Record<string, Uint8Array> = {};
  for (const path of outputs) {
    try {
      files[path] = qpdf.FS.readFile(path);
    } catch {
      /* not written */
    }
  }
  return { exitCode, stdout: stdout.join('\n'), stderr: stderr.join('\n'), files };
}

interface QpdfModuleInstance {
  callMain(args: string[]): number;
  FS: { writeFile(path: string, data: Uint8Array): void; readFile(path: string): Uint8Array };
}
