/**
 * A memory budget checked before a job starts: the job's peak is estimated from its inputs, and
 * compared with what this device can give a tab (navigator.deviceMemory). Above it, the job is not
 * started and the message says so plainly, with what still fits — a tab killed for memory loses
 * everything without a word.
 *
 * The factors are peak memory per input byte of the whole browser during the job, measured with
 * `npm run bench -- big` (docs/benchmarks.md); tools not measured get a cautious default.
 */
import { formatBytes } from './format.ts';

/** Peak browser memory per input byte, by tool. */
const PEAK_PER_INPUT_BYTE: Record<string, number> = {
  // 1 GB PDF in Chromium: 7.8× (merge), 7.2× (split), 6.6× (rotate) above the browser's level before.
  'merge-pdf': 8,
  'split-pdf': 8,
  'rotate-pdf': 8,
  'organize-pdf': 12,
  'compress-pdf': 8,
  'add-watermark': 12,
  'edit-pdf': 12,
};
const DEFAULT_PER_INPUT_BYTE = 10;
/** Engine code, WASM modules and the page itself. */
const FIXED_OVERHEAD = 150 * 1024 * 1024;

/**
 * What a tab may use on this device: half of its memory (navigator.deviceMemory, in GB, rounded
 * and capped at 8 by browsers); 4 GB when the browser does not say.
 */
export function memoryBudgetBytes(deviceMemoryGb: number | undefined): number {
  const gb = deviceMemoryGb && deviceMemoryGb > 0 ? deviceMemoryGb : 8;
  return (gb / 2) * 1024 ** 3;
}

export function estimatePeakBytes(toolId: string, inputSizes: readonly number[]): number {
  const factor = PEAK_PER_INPUT_BYTE[toolId] ?? DEFAULT_PER_INPUT_BYTE;
  return FIXED_OVERHEAD + factor * inputSizes.reduce((sum, size) => sum + size, 0);
}

/**
 * undefined when the job fits; else the message to show, saying what fits instead: for several
 * files, how many of them (in the order given) fit together; for one file, its size limit here.
 */
export function overBudgetMessage(
  toolId: string,
  inputSizes: readonly number[],
  deviceMemoryGb: number | undefined,
): string | undefined {
  const budget = memoryBudgetBytes(deviceMemoryGb);
  const peak = estimatePeakBytes(toolId, inputSizes);
  if (peak <= budget) return undefined;
  const factor = PEAK_PER_INPUT_BYTE[toolId] ?? DEFAULT_PER_INPUT_BYTE;
  const largestInput = Math.max(0, (budget - FIXED_OVERHEAD) / factor);
  const intro =
    `This job would need about ${formatBytes(peak)} of memory; this device gives a browser tab about ` +
    `${formatBytes(budget)}.`;
  if (inputSizes.length > 1) {
    let fitting = 0;
    let total = 0;
    for (const size of inputSizes) {
      if (total + size > largestInput) break;
      total += size;
      fitting++;
    }
    if (fitting > 0) {
      return (
        `${intro} The first ${fitting} of the ${inputSizes.length} files fit together: process them, then the ` +
        `rest.`
      );
    }
  }
  return `${intro} Files up to about ${(largestInput / 1024 ** 2).toFixed(0)} MB fit here for this tool.`;
}
