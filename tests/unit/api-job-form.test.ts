/**
 * Folio's own client hands the form it sends to the in-page handler through the job channel
 * (mock-api/jobs.ts): the handler then runs the tool on the page's own Files and never parses the
 * multipart body (a full copy of every input). A request without a job is parsed as before.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { answerToolRequest, type ToolRunner } from '../../mock-api/api-core.ts';
import { JOB_HEADER, createJob, endJob, type Job } from '../../mock-api/jobs.ts';
import { fileTools } from '../../src/catalogue/index.ts';
import type { EngineInput } from '../../workers/engine/lib/types.ts';

const tool = fileTools.find((t) => t.id === 'merge-pdf')!;
const files = [
  new File([new Uint8Array([1, 2, 3])], 'a.pdf', { type: 'application/pdf' }),
  new File([new Uint8Array([4, 5])], 'b.pdf', { type: 'application/pdf' }),
];

function formOf(): FormData {
  const form = new FormData();
  for (const file of files) form.append(tool.fileField, file, file.name);
  return form;
}

/** A runner that records what it was given and answers the inputs' sizes as the body. */
function recordingRunner() {
  const seen: EngineInput[][] = [];
  const runner: ToolRunner = async (_toolId, inputs) => {
    seen.push(inputs);
    const sizes = new TextEncoder().encode(inputs.map((input) => `${input.name}:${input.bytes.byteLength}`).join(','));
    return { bytes: sizes, filename: 'merged.pdf', mime: 'application/pdf' };
  };
  return { seen, runner };
}

let job: Job | undefined;
afterEach(() => {
  if (job) endJob(job);
  job = undefined;
  vi.restoreAllMocks();
});

test("with a job carrying the client's form, the handler uses its Files and does not parse the body", async () => {
  const form = formOf();
  job = createJob(undefined, undefined, form);
  const request = new Request('http://x/api/pdf/merge', {
    method: 'POST',
    body: form,
    headers: { [JOB_HEADER]: job.id },
  });
  const parse = vi.spyOn(request, 'formData');
  const sent = form.getAll(tool.fileField) as File[];
  const reads = sent.map((file) => vi.spyOn(file, 'arrayBuffer'));
  const { seen, runner } = recordingRunner();
  const response = await answerToolRequest(tool, request, runner);
  expect(response.status).toBe(200);
  expect(parse).not.toHaveBeenCalled();
  // The very File objects of the client's form (same data as the page's Files) were read, once each.
  reads.forEach((read) => expect(read).toHaveBeenCalledOnce());
  expect(request.bodyUsed).toBe(false);
  expect(seen[0].map((input) => [...input.bytes])).toEqual([
    [1, 2, 3],
    [4, 5],
  ]);
  expect(await response.text()).toBe('a.pdf:3,b.pdf:2');
});

test('without a job (any other caller) the multipart body is parsed, with the same response', async () => {
  const form = formOf();
  const request = new Request('http://x/api/pdf/merge', { method: 'POST', body: form });
  const parse = vi.spyOn(request, 'formData');
  const reads = (form.getAll(tool.fileField) as File[]).map((file) => vi.spyOn(file, 'arrayBuffer'));
  const { seen, runner } = recordingRunner();
  const response = await answerToolRequest(tool, request, runner);
  expect(response.status).toBe(200);
  expect(parse).toHaveBeenCalledOnce();
  reads.forEach((read) => expect(read).not.toHaveBeenCalled());
  expect(seen[0].map((input) => [...input.bytes])).toEqual([
    [1, 2, 3],
    [4, 5],
  ]);
  expect(await response.text()).toBe('a.pdf:3,b.pdf:2');
  expect(response.headers.get('Content-Disposition')).toContain('merged.pdf');
});
