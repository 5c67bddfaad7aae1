import type { EngineModule } from './lib/types.ts';
import { FolioError } from './lib/errors.ts';
import { guardInputs } from './lib/input-limits.ts';
import { withoutTrailingBytes } from './lib/pdf/pdf-bytes.ts';

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
 * PDF without bytes appended after its end (lib/pdf/pdf-bytes.ts: qpdf cannot read such a file).
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
      return engine.run(inputs, options, ctx);
    },
  };
}
