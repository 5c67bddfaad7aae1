/**
 * Calling Folio's in-page /api from a test: a tab whose API is up (opening a tool's modal starts
 * it), and one POST made from inside the page — the same fetch → service → engine worker path a
 * visitor's browser takes. Bytes cross the DevTools protocol as base64.
 */
import type { Browser, Page } from 'playwright-core';
import { openPage, type WatchedPage } from './harness.ts';

export interface InPageAnswer {
  status: number;
  type: string | null;
  /** JSON-decoded X-Folio-Notes. */
  notes: string[];
  bytes: Uint8Array;
  /** The body as text when it is JSON (errors). */
  text?: string;
}

/**
 * Opens `/tools/<toolId>`, opens its modal (which starts the in-page API) and waits until the page
 * says /api is answered there (mock-api/browser.ts marks <html> with data-folio-api="ready").
 */
export async function pageWithApi(browser: Browser, toolId = 'pdf-to-jpg'): Promise<WatchedPage> {
  const watched = await openPage(browser, `/tools/${toolId}`);
  await watched.page
    .getByRole('button', { name: /Upload Files|Get Started/ })
    .first()
    .click();
  await watched.page.locator('html[data-folio-api="ready"]').waitFor({ state: 'attached', timeout: 30_000 });
  return watched;
}

/** POSTs a form from inside the page; `files` are [field, name, bytes]. */
export async function postInPage(
  page: Page,
  path: string,
  files: Array<[string, string, Uint8Array]>,
  fields: Record<string, string> = {},
): Promise<InPageAnswer> {
  const answer = await page.evaluate(
    async ({ path, files, fields }) => {
      const decode = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const form = new FormData();
      for (const [field, name, base64] of files) {
        form.append(field, new File([decode(base64)], name, { type: 'application/octet-stream' }));
      }
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      const response = await fetch(path, { method: 'POST', body: form });
      const type = response.headers.get('Content-Type');
      const notes = response.headers.get('X-Folio-Notes');
      const body = new Uint8Array(await response.arrayBuffer());
      let binary = '';
      for (let i = 0; i < body.length; i += 0x8000) binary += String.fromCharCode(...body.subarray(i, i + 0x8000));
      return { status: response.status, type, notes, body: btoa(binary) };
    },
    {
      path,
      files: files.map(([field, name, bytes]) => [field, name, Buffer.from(bytes).toString('base64')] as const),
      fields,
    },
  );
  const bytes = new Uint8Array(Buffer.from(answer.body, 'base64'));
  return {
    status: answer.status,
    type: answer.type,
    notes: answer.notes ? (JSON.parse(decodeURIComponent(answer.notes)) as string[]) : [],
    bytes,
    ...(answer.type?.includes('json') ? { text: new TextDecoder().decode(bytes) } : {}),
  };
}
