/// <reference lib="webworker" />
/**
 * The one engine worker: a thin Comlink wrapper around the engine registry. The bridge
 * (workers/bridge.ts) starts it lazily, terminates it on cancel and releases it when idle.
 */
import * as Comlink from 'comlink';
import { loadEngine } from './engine/registry.ts';
import type { EngineInput, EngineOptions, EngineResult } from './engine/lib/types.ts';

const api = {
  async run(
    toolId: string,
    inputs: EngineInput[],
    options: EngineOptions,
    onProgress?: (done: number, total: number) => void,
  ): Promise<EngineResult> {
    const engine = await loadEngine(toolId);
    // Cancellation terminates this worker, so the engine's own signal is never aborted here;
    // it exists for Node callers and for engines that run sub-jobs.
    const result = await engine.run(inputs, options, { progress: onProgress });
    return Comlink.transfer(result, [result.bytes.buffer as ArrayBuffer]);
  },
};

export type EngineWorkerApi = typeof api;
Comlink.expose(api);
