/**
 * Serves the built app (dist/, made by `vite build` before this suite) with `vite preview` on a
 * free port, and tells the tests where it is. The e2e suite never builds by itself: `npm test`
 * builds once, then runs it.
 */
import { existsSync } from 'node:fs';
import { preview } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  if (!existsSync('dist/index.html')) throw new Error('dist/ is missing: run `npm run build` before the e2e suite.');
  const server = await preview({ preview: { port: 0, strictPort: false, host: '127.0.0.1' }, logLevel: 'warn' });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not start');
  project.provide('baseUrl', `http://127.0.0.1:${address.port}`);
  return async () => {
    await server.close();
  };
}
