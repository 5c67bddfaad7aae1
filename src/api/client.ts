/**
 * The client side of the /api contract (docs/architecture.md, "The request pipeline"): multipart
 * POST, the result as a Blob named by Content-Disposition (the tool's default name otherwise), a
 * JSON `{ error, code }` as ApiError. It starts the in-page API (mock-api/browser.ts) before its
 * first request, so no form has to; it knows nothing of workers.
 */
import type { FileToolEntry, OptionValues } from '../catalogue/types.ts';
import { JOB_HEADER, createJob, endJob, type Job } from '../../mock-api/jobs.ts';
import { overBudgetMessage } from '../../shared/memory-budget.ts';
import type { SaveHandle } from './save-target.ts';

export interface ApiResult {
  blob: Blob;
  filename: string;
  notes: string[];
  /** True when the result was written into the file the user picked (saveTo), not downloaded. */
  saved?: boolean;
}

/** An error answered by the API: `message` is what the modal shows; `code` is the engine's error name. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    /** For an unexpected failure: what a bug report needs (the modal's "Copy details"). */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The filename of a Content-Disposition header, preferring the RFC 5987 UTF-8 form. */
export function filenameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      /* fall back to the plain form */
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(header);
  return plain ? (plain[1] ?? plain[2]).trim() : undefined;
}

/** The JSON body's `error`, else the plain text body, else 'Server error: {status}'. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown; code?: unknown; detail?: unknown };
    if (typeof body.error === 'string' && body.error) {
      const code = typeof body.code === 'string' ? body.code : undefined;
      return new ApiError(body.error, response.status, code, typeof body.detail === 'string' ? body.detail : undefined);
    }
  } catch {
    if (text.trim()) return new ApiError(text.trim(), response.status);
  }
  return new ApiError(`Server error: ${response.status}`, response.status);
}

type InPageApi = typeof import('../../mock-api/browser.ts');
let inPageApi: Promise<InPageApi> | undefined;

/** Starts answering /api/* in this page (once; a failed start, e.g. offline, is tried again next time). */
export function startApi(): Promise<InPageApi> {
  inPageApi ??= import('../../mock-api/browser.ts').then(async (api) => {
    await api.startInPageApi();
    return api;
  });
  inPageApi.catch(() => (inPageApi = undefined));
  return inPageApi;
}

/**
 * A tool's window has opened: start the in-page API, so any client of the contract in this page (ours
 * or a plain fetch) is answered from then on, and warm up the engine of a tool that asks for it
 * (`prepareOnOpen`: fonts, WASM) while the user picks files. `engineOptions` names what to warm up.
 */
export function prepareTool(tool: FileToolEntry, engineOptions?: OptionValues): void {
  void startApi().then((api) => {
    if (tool.prepareOnOpen) api.prepareEngine(tool.id, engineOptions);
  });
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: Job['onProgress'];
  /** Extra fields, e.g. inputPassword after the API answered PasswordRequired. */
  extraFields?: Record<string, string>;
  /** A file picked before the job (save-target.ts): the result is streamed into it. */
  saveTo?: SaveHandle;
}

export function buildForm(
  tool: FileToolEntry,
  files: readonly File[],
  values: OptionValues,
  extra: Record<string, string> = {},
): FormData {
  const form = new FormData();
  for (const file of files) form.append(tool.fileField, file, file.name);
  for (const spec of tool.options) {
    const value = values[spec.name];
    if (value !== undefined) form.append(spec.name, String(value));
  }
  for (const [key, value] of Object.entries(extra)) form.append(key, value);
  return form;
}

/** POSTs the files to the tool's endpoint and returns the produced file, or throws ApiError. */
export async function callTool(
  tool: FileToolEntry,
  files: readonly File[],
  values: OptionValues,
  { signal, onProgress, extraFields, saveTo }: CallOptions = {},
): Promise<ApiResult> {
  // Refused before anything is read when the job would not fit in this device's memory.
  const { deviceMemory } = navigator as { deviceMemory?: number };
  const overBudget = overBudgetMessage(
    tool.id,
    files.map((file) => file.size),
    deviceMemory,
  );
  if (overBudget) throw new ApiError(overBudget, 413, 'NotEnoughMemory');
  // A result written piece by piece (a ZIP) goes into the picked file during the job (see bridge.ts).
  const writable = saveTo ? await saveTo.createWritable() : undefined;
  const job = createJob(onProgress, writable);
  const onAbort = () => job.controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let savedTo = false;
  try {
    await startApi();
    const response = await fetch(tool.endpoint, {
      method: 'POST',
      body: buildForm(tool, files, values, extraFields),
      headers: { [JOB_HEADER]: job.id },
      signal,
    });
    const type = response.headers.get('Content-Type') ?? '';
    // A JSON response is an error carrying an `error` field, whatever its status.
    if (!response.ok || type.includes('application/json')) throw await errorFromResponse(response);
    const notesHeader = response.headers.get('X-Folio-Notes');
    const notes = notesHeader ? (JSON.parse(decodeURIComponent(notesHeader)) as string[]) : [];
    if (saveTo && writable) {
      // Written into the picked file during the job, or now from the response; "Download again"
      // then reads it back from disk.
      if (job.saved) await writable.close();
      else await (response.body ?? new Blob().stream()).pipeTo(writable, { signal });
      savedTo = true;
      return { blob: await saveTo.getFile(), filename: saveTo.name, notes, saved: true };
    }
    return {
      blob: await response.blob(),
      filename: filenameFromDisposition(response.headers.get('Content-Disposition')) ?? tool.defaultFilename,
      notes,
    };
  } catch (error) {
    if (signal?.aborted) throw new ApiError('Cancelled', 499, 'Cancelled');
    if (error instanceof ApiError) throw error;
    throw new ApiError(error instanceof Error && error.message ? error.message : 'Processing failed', 0);
  } finally {
    // A failed or cancelled job leaves no half-written file (abort discards the browser's temporary copy).
    if (writable && !savedTo) await writable.abort().catch(() => undefined);
    signal?.removeEventListener('abort', onAbort);
    endJob(job);
  }
}

/** Saves a blob under a name and revokes the object URL once the browser has taken it. */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
