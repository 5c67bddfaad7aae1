/**
 * The side channel between the modal and the /api handler of the same page: the HTTP contract has
 * no way to report "page 12 of 40" or to stop a worker, so the client names its job in an
 * `X-Folio-Job` header and both sides meet here. Callers that do not name a job (any plain
 * fetch client) still get the full contract, just without page progress.
 */
import type { ProgressCallback } from '../workers/engine/lib/types.ts';

export const JOB_HEADER = 'X-Folio-Job';

export interface Job {
  id: string;
  controller: AbortController;
  onProgress?: ProgressCallback;
  /** The file the user picked for the result (src/api/save-target.ts): a result written piece by piece goes into it. */
  saveTo?: WritableStream<Uint8Array>;
  /** Set by the handler when the result went into `saveTo` (the response's body is then empty). */
  saved?: boolean;
}

const jobs = new Map<string, Job>();

export function createJob(onProgress?: Job['onProgress'], saveTo?: Job['saveTo']): Job {
  const job: Job = { id: crypto.randomUUID(), controller: new AbortController(), onProgress, saveTo };
  jobs.set(job.id, job);
  return job;
}

export function findJob(id: string | null): Job | undefined {
  return id ? jobs.get(id) : undefined;
}

export function endJob(job: Job): void {
  jobs.delete(job.id);
}
