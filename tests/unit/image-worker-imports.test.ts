/**
 * The image worker (workers/image.worker.ts) is started once per core by compression: it must stay
 * small, so it does not bundle pdf-lib or pdf.js. This walks its static imports (what the bundler
 * puts in its file; `import type` and dynamic imports are not) and lists the packages reached.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

/** The packages (bare specifiers) a module reaches through static imports, and the files it walked. */
function staticPackages(entry: string): { packages: Set<string>; files: Set<string> } {
  const packages = new Set<string>();
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else
        packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
    }
  };
  visit(resolve(import.meta.dirname, '../..', entry));
  return { packages, files };
}

describe('the image worker bundle', () => {
  test('reaches no pdf-lib and no pdf.js through its static imports', () => {
    const { packages, files } = staticPackages('workers/image.worker.ts');
    // The walk did reach the recompression code and the shared stream decoding.
    expect([...files].some((f) => f.endsWith('lib/image/recompress.ts'))).toBe(true);
    expect([...files].some((f) => f.endsWith('lib/pdf/stream-decode.ts'))).toBe(true);
    expect(packages).not.toContain('pdf-lib');
    expect(packages).not.toContain('pdfjs-dist');
    expect(packages).toContain('comlink');
  });
});
