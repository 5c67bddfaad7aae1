/**
 * Sizes recorded at stages of a job, for the bench's memory breakdown (bench/sections/big-files.ts):
 * only when the bench has put an array at `globalThis.folioMemoryProbe` in the engine worker;
 * otherwise a no-op. Records are plain numbers (bytes) with the time, to line up with the bench's
 * per-process samples of resident memory.
 */
export function probeMemory(stage: string, sizes: Record<string, number>): void {
  const records = (globalThis as { folioMemoryProbe?: unknown }).folioMemoryProbe;
  if (Array.isArray(records)) records.push({ at: Date.now(), stage, ...sizes });
}
