/**
 * Folio's live /api in Node (tests, scripts): the same `/api/*` contract and handlers as in the
 * browser, with the engines called directly instead of through a Web Worker.
 */
import { setupServer } from 'msw/node';
import { createHandlers, type ToolRunner } from './handlers.ts';
import { loadEngine } from '../workers/engine/registry.ts';

export const runEngineDirectly: ToolRunner = async (toolId, inputs, options, job) => {
  const engine = await loadEngine(toolId);
  return engine.run(inputs, options, { signal: job.signal, progress: job.onProgress });
};

export function createApiServer() {
  return setupServer(...createHandlers(runEngineDirectly, { anyOrigin: true }));
}
