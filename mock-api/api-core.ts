/**
 * Folio's live /api (not a mock): the `/api/*` contract, answered the same way in the browser
 * (browser.ts) and in Node (node.ts), from the catalogue, with nothing but the Fetch API's Request
 * and Response. A tool's endpoint parses the multipart body, checks it against the catalogue entry,
 * hands the bytes to a ToolRunner (the worker bridge in the browser, the engine itself in Node) and
 * answers with the file and its Content-Disposition, or with `{ error, code }` JSON and the code's
 * status. No tool logic lives here.
 */
import { fileTools } from '../src/catalogue/index.ts';
import type { FileToolEntry, OptionSpec } from '../src/catalogue/types.ts';
import type { EngineInput, EngineOptions, EngineResult, ProgressCallback } from '../workers/engine/lib/types.ts';
import { ERROR_STATUS, FolioError, describeFailure } from '../workers/engine/lib/errors.ts';
import { JOB_HEADER, findJob } from './jobs.ts';
import { DEFAULT_STALL_SECONDS } from '../workers/watchdog.ts';

export interface RunnerJob {
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
  /** The tool's watchdog: its catalogue `stallSeconds`, else DEFAULT_STALL_SECONDS; every runner applies it. */
  stallSeconds?: number;
  /** A file the page's client picked for the result; a runner may write the result into it (then `saved`). */
  saveTo?: WritableStream<Uint8Array>;
}

/** A result as a runner holds it: the engine's bytes (Node), or a Blob of them (the page, workers/bridge.ts). */
export type RunnerResult =
  EngineResult | (Omit<EngineResult, 'bytes' | 'streamedBytes'> & { blob: Blob; saved?: boolean });

export type ToolRunner = (
  toolId: string,
  inputs: EngineInput[],
  options: EngineOptions,
  job: RunnerJob,
) => Promise<RunnerResult>;

/** Field carrying the password of an encrypted input, for every tool but unlock-pdf (which uses `password`). */
export const INPUT_PASSWORD_FIELD = 'inputPassword';

/**
 * `{ error, code }` JSON with the code's status; an unnamed failure also carries `detail` (what a
 * bug report needs; the modal offers it under "Copy details") and never shows its own text.
 */
export function errorResponse(error: unknown, context?: string): Response {
  const { code, message, detail } = describeFailure(error, context);
  return Response.json({ error: message, code, ...(detail ? { detail } : {}) }, { status: ERROR_STATUS[code] });
}

/** RFC 6266 header with an ASCII fallback and the UTF-8 name, so "Überweisung.pdf" survives. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

function parseOption(spec: OptionSpec, raw: FormDataEntryValue | null): string | number | boolean {
  if (raw === null || typeof raw !== 'string') return spec.default;
  switch (spec.kind) {
    case 'number': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value)) {
        throw new FolioError('InvalidInput', `${spec.label} must be a number.`);
      }
      if (value < spec.min || value > spec.max) {
        throw new FolioError('InvalidInput', `${spec.label} must be between ${spec.min} and ${spec.max}.`);
      }
      return value;
    }
    case 'checkbox':
      return raw === 'true' || raw === 'on' || raw === '1';
    case 'select':
      if (!spec.choices.some((c) => c.value === raw)) {
        throw new FolioError(
          'InvalidInput',
          `${spec.label}: "${raw}" is not one of ${spec.choices.map((c) => c.value).join(', ')}.`,
        );
      }
      return raw;
    default:
      return raw;
  }
}

/** Reads the form into engine inputs and options; throws InvalidInput with a message the user reads. */
export async function readToolRequest(
  tool: FileToolEntry,
  form: FormData,
): Promise<{ inputs: EngineInput[]; options: EngineOptions }> {
  const files = form.getAll(tool.fileField).filter((v): v is File => typeof v !== 'string');
  if (files.length === 0) throw new FolioError('InvalidInput', 'Please select at least one file');
  if (!tool.multiple && files.length > 1) {
    throw new FolioError('InvalidInput', `${tool.name} takes one file at a time.`);
  }
  const options: EngineOptions = {};
  for (const spec of tool.options) options[spec.name] = parseOption(spec, form.get(spec.name));
  // Extra fields the catalogue does not list (e.g. per-file ranges as JSON) pass through as text.
  for (const [key, value] of form.entries()) {
    if (typeof value === 'string' && !(key in options) && key !== INPUT_PASSWORD_FIELD) options[key] = value;
  }
  const invalid = tool.validate?.({
    ...options,
    confirmPassword: String(form.get('confirmPassword') ?? options.password ?? ''),
  });
  if (invalid) throw new FolioError('InvalidInput', invalid);

  const inputPassword = form.get(INPUT_PASSWORD_FIELD);
  const inputs: EngineInput[] = await Promise.all(
    files.map(async (file) => ({
      name: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
      password: typeof inputPassword === 'string' && inputPassword !== '' ? inputPassword : undefined,
    })),
  );
  // Extra file fields (e.g. add-watermark's `image`) follow the tool's files, tagged with their field name.
  for (const [key, value] of form.entries()) {
    if (typeof value !== 'string' && key !== tool.fileField) {
      inputs.push({ name: value.name, bytes: new Uint8Array(await value.arrayBuffer()), field: key });
    }
  }
  return { inputs, options };
}

/** Answers one POST to `tool`'s endpoint. */
export async function answerToolRequest(tool: FileToolEntry, request: Request, runner: ToolRunner): Promise<Response> {
  const job = findJob(request.headers.get(JOB_HEADER));
  try {
    const { inputs, options } = await readToolRequest(tool, await request.formData());
    const signal = job ? AbortSignal.any([job.controller.signal, request.signal]) : request.signal;
    const runnerJob = { signal, onProgress: job?.onProgress, stallSeconds: stallSecondsOf(tool), saveTo: job?.saveTo };
    const result = await runner(tool.id, inputs, options, runnerJob);
    if ('saved' in result && result.saved && job) job.saved = true;
    // A Blob body is answered as it is (no copy); bytes are copied once by the Response either way.
    const body = 'blob' in result ? result.blob : (result.bytes as Uint8Array<ArrayBuffer>);
    return new Response(body, {
      status: 200,
      headers: {
        'Content-Type': result.mime,
        'Content-Disposition': contentDisposition(result.filename),
        'Content-Length': String('blob' in result ? result.blob.size : result.bytes.byteLength),
        ...(result.notes?.length ? { 'X-Folio-Notes': encodeURIComponent(JSON.stringify(result.notes)) } : {}),
      },
    });
  } catch (error) {
    return errorResponse(error, `Folio ${tool.id}`);
  }
}

/** How long a job of `tool` may go without reporting progress before it is stopped. */
export function stallSecondsOf(tool: FileToolEntry): number {
  return tool.stallSeconds ?? DEFAULT_STALL_SECONDS;
}

const toolsByEndpoint = new Map(fileTools.map((tool) => [tool.endpoint as string, tool]));

/**
 * Answers any request under /api/: the tool's endpoint for a POST, 405 for another method on it,
 * 404 JSON for a path that is no endpoint. Returns undefined for paths outside /api/.
 */
export async function answerApiRequest(request: Request, runner: ToolRunner): Promise<Response | undefined> {
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith('/api/')) return undefined;
  const tool = toolsByEndpoint.get(pathname.replace(/\/+$/, ''));
  if (!tool) return Response.json({ error: `No such endpoint: ${request.method} ${pathname}` }, { status: 404 });
  if (request.method !== 'POST') {
    return Response.json(
      { error: `${pathname} takes POST (multipart/form-data), not ${request.method}` },
      { status: 405, headers: { Allow: 'POST' } },
    );
  }
  return answerToolRequest(tool, request, runner);
}
