/**
 * Folio's live /api (api-core.ts) as MSW handlers, one per file tool, generated from the catalogue:
 * for MSW's Node server (node.ts: tests, scripts) and any MSW setup. In the browser the page calls
 * api-core directly (browser.ts).
 */
import { http, type HttpHandler } from 'msw';
import { fileTools } from '../src/catalogue/index.ts';
import { answerToolRequest, type ToolRunner } from './api-core.ts';

export {
  INPUT_PASSWORD_FIELD,
  answerApiRequest,
  answerToolRequest,
  contentDisposition,
  errorResponse,
  readToolRequest,
  type RunnerJob,
  type ToolRunner,
} from './api-core.ts';

export interface HandlerOptions {
  /**
   * Answer the endpoints on any origin (pattern '*' + '/api/pdf/merge'). In a page, MSW resolves
   * '/api/…' against the page's origin; in Node there is no page, so node.ts answers every origin.
   */
  anyOrigin?: boolean;
}

export function createHandlers(runner: ToolRunner, { anyOrigin = false }: HandlerOptions = {}): HttpHandler[] {
  return fileTools.map((tool) =>
    http.post(anyOrigin ? `*${tool.endpoint}` : tool.endpoint, ({ request }) =>
      answerToolRequest(tool, request, runner),
    ),
  );
}
