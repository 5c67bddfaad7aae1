/**
 * Folio's live /api in Node (tests, scripts): the same `/api/*` contract and handlers as in the
 * browser, with the engines called directly instead of through a Web Worker.
 */
import { setupServer } from 'msw/node';
import { createHandlers, type ToolRunner } from './handlers.ts';
import { loadEngine } from '../workers/engine/registry.ts';
import { superviseJob } from '../workers/watchdog.ts';

/** Runs the engine on this thread, under the tool's watchdog (a stalled job is aborted: TimedOut). */
export const runEngineDirectly: ToolRunner = async (toolId, inputs, options, job) => {
  const engine = await loadEngine(toolId);
  return superviseJob(job.stallSeconds, job.signal, job.onProgress, (signal, progress) =>
    engine.run(inputs, options, { signal, progress }),
  );
};

export function createApiServer() {
  return setupServer(...createHandlers(runEngineDirectly, { anyOrigin: true }));
}
