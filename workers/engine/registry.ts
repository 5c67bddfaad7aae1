import type { EngineModule, EngineResult } from './lib/types.ts';
import { FolioError, cutShortPdf, damagedPdf, isFolioError } from './lib/errors.ts';
import { guardInputs } from './lib/input-limits.ts';
import { endsEarly, withoutTrailingBytes } from './lib/pdf/pdf-bytes.ts';

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
 * PDF without bytes appended after its end (lib/pdf/pdf-bytes.ts: qpdf cannot read such a file). A
 * PDF that ends early gets a note on the result.
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
      const inputs = given.map((input) => ({ ...input, bytes: withoutTrailingBytes(input.bytes) }));
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
      if (cutShort.length === 0) return result;
      return { ...result, notes: [...cutShort.map(endedEarlyNote), ...(result.notes ?? [])] };
    },
  };
}

const endedEarlyNote = (name: string) =>
  `"${name}" ends early — it looks cut short, perhaps by an interrupted download. Folio used what was there; ` +
  'whatever came after the cut is missing.';
