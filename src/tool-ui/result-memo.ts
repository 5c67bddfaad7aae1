/**
 * A result a tool's panel already computed ahead of Process Files (compress-pdf's preview runs the
 * whole tool with the current files and options): Process Files hands it over instead of running
 * the tool a second time, as long as the files (the same File objects, in the same order) and every
 * option are unchanged. Only the last one is kept.
 */
import type { ApiResult } from '../api/client.ts';
import type { OptionValues } from '../catalogue/types.ts';

interface Remembered {
  toolId: string;
  files: readonly File[];
  values: string;
  result: ApiResult;
}

let last: Remembered | undefined;

const valuesKey = (values: OptionValues) =>
  JSON.stringify(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export function rememberResult(toolId: string, files: readonly File[], values: OptionValues, result: ApiResult): void {
  last = { toolId, files: [...files], values: valuesKey(values), result };
}

/** The remembered result for exactly this tool, these files and these options, if any. */
export function rememberedResult(toolId: string, files: readonly File[], values: OptionValues): ApiResult | undefined {
  if (!last || last.toolId !== toolId || last.values !== valuesKey(values)) return undefined;
  if (last.files.length !== files.length || last.files.some((file, i) => file !== files[i])) return undefined;
  return last.result;
}

export function forgetResults(): void {
  last = undefined;
}
