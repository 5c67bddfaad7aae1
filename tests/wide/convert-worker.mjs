/**
 * One worker thread of the wide-corpus runner (runner.ts): loads the three Office → PDF engines
 * through Vite's SSR loader (they use `?url` imports and import.meta.glob) and converts the files
 * it is sent, one at a time. The runner terminates it when a file takes longer than its limit.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { createServer } from 'vite';

const server = await createServer({
  root: workerData.root,
  configFile: false,
  logLevel: 'error',
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  appType: 'custom',
  optimizeDeps: { noDiscovery: true, include: [] },
});
const modules = {
  docx: await server.ssrLoadModule('/workers/engine/tools/word-to-pdf.ts'),
  xlsx: await server.ssrLoadModule('/workers/engine/tools/excel-to-pdf.ts'),
  pptx: await server.ssrLoadModule('/workers/engine/tools/ppt-to-pdf.ts'),
};

parentPort.on('message', async ({ id, kind, name, bytes }) => {
  const start = performance.now();
  try {
    const result = await modules[kind].run([{ name, bytes }], {}, {});
    const out = result.bytes;
    parentPort.postMessage({ id, ok: true, bytes: out, notes: result.notes ?? [], ms: performance.now() - start }, [
      out.buffer,
    ]);
  } catch (error) {
    parentPort.postMessage({
      id,
      ok: false,
      name: error?.name,
      message: String(error?.message ?? error),
      stack: String(error?.stack ?? ''),
      ms: performance.now() - start,
    });
  }
});
parentPort.postMessage({ ready: true });
