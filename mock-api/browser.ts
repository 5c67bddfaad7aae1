/**
 * Folio's live /api in the browser (not a mock): requests this page makes to its own origin's /api/*
 * are answered here, in the page, by the same contract as in Node (api-core.ts), with each tool run
 * in a Web Worker. `fetch` and `XMLHttpRequest` are intercepted with @mswjs/interceptors; anything
 * else goes out untouched, and the service worker is left to the PWA. Why in the page and not in
 * MSW's service worker (no copy of a 300 MB upload, hidden tabs keep working): docs/decisions.md.
 *
 * Started by the client (src/api/client.ts) when a tool's window opens, never on the first route.
 */
import { BatchInterceptor } from '@mswjs/interceptors';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { XMLHttpRequestInterceptor } from '@mswjs/interceptors/XMLHttpRequest';
import { answerApiRequest, type ToolRunner } from './api-core.ts';
import { prepareInWorker, runInWorker } from '../workers/bridge.ts';
import { FolioError, isFolioError } from '../workers/engine/lib/errors.ts';
import { fileTools } from '../src/catalogue/index.ts';
import { holdEngineDownloads, toolOfflineProblem } from '../src/pwa/offline-engines.ts';

/** Warms up a tool's engine in a worker as its window opens (see EngineModule.prepare). */
export const prepareEngine = prepareInWorker;

/** A browser's words for a request or module import that never reached a server. */
const NETWORK_FAILURE =
  /failed to fetch|fetch dynamically imported module|error loading dynamically imported module|importing a module script failed|networkerror|load failed|could not load/i;

/**
 * Runs a tool in a worker. Offline, a tool whose engine is not on this device says so at once
 * (what it needs and its size) instead of failing on a module URL; a download that fails mid-job
 * is reported in the same words, never as the browser's message with a URL in it.
 */
const runInBrowser: ToolRunner = async (toolId, inputs, options, job) => {
  const tool = fileTools.find((t) => t.id === toolId) ?? { id: toolId, name: 'This tool' };
  const problem = await toolOfflineProblem(tool);
  if (problem) throw new FolioError('Offline', problem);
  const release = holdEngineDownloads();
  try {
    return await runInWorker(toolId, inputs, options, {
      signal: job.signal,
      onProgress: job.onProgress,
      stallMs: job.stallSeconds && job.stallSeconds * 1000,
      saveTo: job.saveTo,
    });
  } catch (error) {
    if (isFolioError(error) && error.name !== 'Offline') throw error;
    if (!isFolioError(error) && !(error instanceof Error && NETWORK_FAILURE.test(error.message))) throw error;
    const precise = await toolOfflineProblem(tool);
    if (precise) throw new FolioError('Offline', precise);
    throw isFolioError(error)
      ? error
      : new FolioError(
          'Offline',
          `${tool.name} could not download a part of its engine. Check your connection and try again; after one ` +
            `complete run it works offline.`,
        );
  } finally {
    release();
  }
};

let started: Promise<void> | undefined;

/**
 * Starts answering /api/* in this page. Safe to call many times. Once it answers, <html> carries
 * `data-folio-api="ready"`: a script calling /api with a plain fetch (the e2e tests) waits for that
 * instead of trying requests that would reach the server before.
 */
export function startInPageApi(): Promise<void> {
  started ??= Promise.resolve().then(() => {
    const interceptor = new BatchInterceptor({
      name: 'folio-api',
      interceptors: [new FetchInterceptor(), new XMLHttpRequestInterceptor()],
    });
    interceptor.on('request', async ({ request, controller }) => {
      const url = new URL(request.url);
      // Only this origin's /api/: everything else (assets, other origins) goes out untouched.
      if (url.origin !== self.location.origin || !url.pathname.startsWith('/api/')) return;
      const response = await answerApiRequest(request, runInBrowser);
      if (response) controller.respondWith(response);
    });
    interceptor.apply();
    document.documentElement.dataset.folioApi = 'ready';
  });
  return started;
}
