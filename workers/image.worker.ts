/// <reference lib="webworker" />
/**
 * An image worker of the compress pool (workers/engine/lib/image/image-pool.ts): started by the
 * engine worker as a nested worker, it recompresses the images it is handed (recompress.ts, the
 * same code as in-process). Terminated with its engine worker (cancel, watchdog) or when the job ends.
 */
import * as Comlink from 'comlink';
import { recompressImageJob, type ImageJob, type ImageJobSettings } from './engine/lib/image/recompress.ts';

const api = {
  /** One image recompressed; the JPEG's buffer is transferred, not copied. */
  async recompress(job: ImageJob, settings: ImageJobSettings) {
    const result = await recompressImageJob(job, settings);
    return 'jpeg' in result ? Comlink.transfer(result, [result.jpeg.buffer as ArrayBuffer]) : result;
  },
};

export type ImageWorkerApi = typeof api;
Comlink.expose(api);
