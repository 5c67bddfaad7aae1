import type { EngineInput, EngineModule, EngineResult } from './lib/types.ts';
import { FolioError, cutShortPdf, damagedPdf, isFolioError } from './lib/errors.ts';
import { guardInputs } from './lib/input-limits.ts';
import { endsEarly, looksLikePdf, withoutTrailingBytes } from './lib/pdf/pdf-bytes.ts';

/**
 * Engines are found by file name: workers/engine/tools/<tool-id>.ts. Each is its own lazy chunk,
 * so a worker only loads the libraries of the tool it runs. (Vite's import.meta.glob; Vitest
 * supports it too, so tests and the corpus suite use the same registry.)
 */
const modules = import.meta.glob<EngineModule>('./tools/*.ts');

const loaders = new Map(
  Object.entries(modules).map(([path, load]) => [path.replace('./tools/', '').replace(/\.ts$/, ''), load]),
);

export function hasEngine(toolId: string): boolean {
  return loaders.has(toolId);
}

export function engineIds(): string[] {
  return [...loaders.keys()];
}

/**
 * A tool's engine, its inputs checked first against the resource limits (lib/input-limits.ts:
 * decompression bombs in PDF streams and Office packages), so no engine starts on them, and each
 * PDF without bytes appended after its end and with its cross-reference table rebuilt when it points
 * into nowhere (lib/pdf/pdf-bytes.ts, lib/pdf/xref-rebuild.ts: qpdf cannot read such files). A PDF
 * that ends early or whose table was rebuilt gets a note on the result.
 */
export async function loadEngine(toolId: string): Promise<EngineModule> {
  const load = loaders.get(toolId);
  if (!load)
    throw new FolioError(
      'NotImplemented',
      `No engine for "${toolId}": workers/engine/tools/${toolId}.ts does not exist.`,
    );
  const engine = await load();
  return {
    ...engine,
    run: async (given, options, ctx) => {
      // unlock-pdf's password is a field of its own; for the other tools it is a new password
      // (protect-pdf), which opens nothing and costs one failed try.
      await guardInputs(given, typeof options.password === 'string' ? [options.password] : []);
      const rebuilt: string[] = [];
      const inputs = await Promise.all(given.map((input) => readableInput(input, rebuilt)));
      // A file cut short is read as far as it goes (lib/pdf/pdf-open.ts): the result says so, and
      // when too little is left, the message says why rather than only "damaged".
      const cutShort = inputs.filter((input) => endsEarly(input.bytes)).map((input) => input.name);
      let result: EngineResult;
      try {
        result = await engine.run(inputs, options, ctx);
      } catch (error) {
        const name = cutShort.find((cut) => isFolioError(error) && error.message === damagedPdf(cut).message);
        throw name === undefined ? error : cutShortPdf(name);
      }
      const notes = [...cutShort.map(endedEarlyNote), ...rebuilt.map(rebuiltXrefNote)];
      return notes.length === 0 ? result : { ...result, notes: [...notes, ...(result.notes ?? [])] };
    },
  };
}

/** The input as qpdf can read it; the names of inputs whose cross-reference table was rebuilt go to `rebuilt`. */
async function readableInput(input: EngineInput, rebuilt: string[]): Promise<EngineInput> {
  const bytes = withoutTrailingBytes(input.bytes);
  const read = bytes === input.bytes ? input : { ...input, bytes };
  if (!looksLikePdf(bytes)) return read;
  const { withRebuiltXref, xrefNeedsRebuilding } = await import('./lib/pdf/xref-rebuild.ts');
  const mended = xrefNeedsRebuilding(bytes) ? withRebuiltXref(bytes) : undefined;
  if (!mended) return read;
  rebuilt.push(input.name);
  return { ...input, bytes: mended };
}

const rebuiltXrefNote = (name: string) =>
  `"${name}" had a damaged cross-reference table (the index readers use to find its parts); ` +
  'Folio rebuilt it from the objects in the file.';

const endedEarlyNote = (name: string) =>
  `"${name}" ends early — it looks cut short, perhaps by an interrupted download. Folio used what was there; ` +
  'whatever came after the cut is missing.';
