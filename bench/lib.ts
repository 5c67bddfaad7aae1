/** Small helpers for bench sections: timing, native tools, the corpus. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const CORPUS = resolve(import.meta.dirname, '../../shared/corpus');

export function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

export function corpusFile(relative: string): Uint8Array | undefined {
  const path = resolve(CORPUS, relative);
  return existsSync(path) ? new Uint8Array(readFileSync(path)) : undefined;
}

export function fmtBytes(n: number): string {
  return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(2)} MB` : `${(n / 1024).toFixed(1)} KB`;
}
