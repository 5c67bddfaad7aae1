/**
 * How the /api handlers answer in the browser — and why.
 *
 * Measured (tests/e2e/api-contract.test.ts, Debian Chromium headless, 2 shared cores, 2026-11-26):
 *   - a 300 MB merge (one 290 MB PDF + a 2-page PDF) picked in the modal, POSTed to /api/pdf/merge,
 *     answered in the page, processed in the worker and downloaded: 7.1 s end to end on a quiet
 *     machine, 12.3 s with other jobs running; output 290 MB; no copy of the upload outside this tab;
 *   - this chunk: 12 KB gzip (38 KB raw). It was 145 KB gzip with MSW's `getResponse`, which drags in
 *     MSW's whole request-handler machinery (cookie store with the public-suffix list, etc.); the
 *     contract itself needs none of it, so the page calls mock-api/api-core.ts directly (plain
 *     Request → Response) and MSW stays for Node (mock-api/node.ts, the contract tests).
 *
 * Choice: in-page interception. `fetch` and `XMLHttpRequest` of this page are intercepted with
 * @mswjs/interceptors (the interceptors MSW itself is built on); a request to this origin's /api/ is
 * answered by answerApiRequest (api-core.ts), everything else goes out untouched. The service
 * worker is left to the PWA alone.
 *
 * Why not MSW's own service worker (setupWorker): with it every request body is read in the
 * service worker and posted to the page as a copy, so a 300 MB upload exists three times over
 * (page, worker, page again); MSW's worker only forwards to a *visible* client, so a job started
 * in a tab that goes to the background is not answered; and it must be merged into the PWA's
 * service worker, whose update cycle MSW overrides (skipWaiting/clients.claim). In-page, the
 * FormData's File objects reach the handler without leaving the page, a hidden tab keeps working,
 * offline start-up does not depend on a second worker script. What it gives up: requests made by
 * *other* tabs or by a fetch from a worker are not answered — Folio makes none.
 *
 * Loaded lazily (when the first file tool opens), never on the first route.
 */
import { BatchInterceptor } from '@mswjs/interceptors';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { XMLHttpRequestInterceptor } from '@mswjs/interceptors/XMLHttpRequest';
import { answerApiRequest, type ToolRunner } from './api-core.ts';
import { prepareInWorker, runInWorker } from '../workers/bridge.ts';
import { FolioError, isFolioError } from '../workers/engine/lib/errors.ts';
import { fileTools } from '../src/catalogue/index.ts';
import { toolOfflineProblem } from '../src/pwa/offline-engines.ts';

/** Warms up a tool's engine in a worker as its window opens (see EngineModule.prepare). */
export const prepareEngine = prepareInWorker;

/** A browser's words for a request or module import that never reached a server. */
const NETWORK_FAILURE = /failed to fetch|fetch dynamically imported module|error loading dynamically imported module|importing a module script failed|networkerror|load failed|could not load/i;

/**
 * Runs a tool in a worker. Offline, a tool whose engine is not on this device says so at once
 * (what it needs and its size) instead of failing on a module URL; a download that fails mid-job
 * is reported in the same words, never as the browser's message with a URL in it.
 */
const runInBrowser: ToolRunner = async (toolId, inputs, options, job) => {
  const tool = fileTools.find((t) => t.id === toolId) ?? { id: toolId, name: 'This tool' };
  const problem = await toolOfflineProblem(tool);
  if (problem) throw new FolioError('Offline', problem);
  try {
    return await runInWorker(toolId, inputs, options, { signal: job.signal, onProgress: job.onProgress, stallMs: job.stallSeconds && job.stallSeconds * 1000 });
  } catch (error) {
    if (isFolioError(error) && error.name !== 'Offline') throw error;
    if (!isFolioError(error) && !(error instanceof Error && NETWORK_FAILURE.test(error.message))) throw error;
    const precise = await toolOfflineProblem(tool);
    if (precise) throw new FolioError('Offline', precise);
    throw isFolioError(error) ? error : new FolioError('Offline', `${tool.name} could not download a part of its engine. Check your connection and try again; after one complete run it works offline.`);
  }
};

let started: Promise<void> | undefined;

/** Starts answering /api/* in this page. Safe to call many times. */
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
  });
  return started;
}
