/**
 * Where a result goes: a large one straight into a file the user picks (File System Access API,
 * `showSaveFilePicker`, Chromium-based browsers), everything else as a Blob download.
 *
 * The picker needs a user gesture, which is long gone when a big job ends, so the decision is made
 * when Process Files is pressed, from an estimate of the output's size: above LARGE_OUTPUT_BYTES
 * the picker is opened before the job starts, and the result is streamed into the chosen file (the
 * page then reads it back from disk, not from memory, for "Download again"). Browsers without the
 * picker (Firefox, Safari) and smaller results download as before.
 */
import type { FileToolEntry, OptionValues } from '../catalogue/types.ts';
import { parsePageRanges } from '../../shared/page-range.ts';
import { baseName } from '../../shared/format.ts';

/** Results expected above this are saved through the picker where the browser has one. */
export const LARGE_OUTPUT_BYTES = 200 * 1024 * 1024;

/** Bytes per pixel of a page drawn to an image: document pages at JPEG quality 85 stay well under 0.3. */
const JPEG_BYTES_PER_PIXEL = 0.3;
const PNG_BYTES_PER_PIXEL = 1;

export interface PageSize {
  /** In PDF points. */
  width: number;
  height: number;
}

/**
 * Whether the estimate reads the pages' sizes (PDF → images drawing pages): known once the file's
 * check has opened it (src/tool-ui/pdf-checks.ts), so Process Files waits for that check rather than
 * estimate from the file's size on an early click and decide differently for the same job.
 */
export function estimateNeedsPageSizes(tool: Pick<FileToolEntry, 'id'>, values: OptionValues): boolean {
  return tool.id === 'pdf-to-jpg' && values.mode !== 'images';
}

/**
 * The output's size, estimated before the job: for PDF → images, the chosen pages' pixels at the
 * chosen resolution; for every other tool, the inputs' size (page tools and conversions give about
 * as much as they get).
 */
export function estimateOutputBytes(
  tool: Pick<FileToolEntry, 'id'>,
  fileSizes: readonly number[],
  values: OptionValues,
  pageSizes?: readonly PageSize[],
): number {
  const inputBytes = fileSizes.reduce((sum, size) => sum + size, 0);
  if (!estimateNeedsPageSizes(tool, values) || !pageSizes?.length) return inputBytes;
  const dpi = values.resolution === 'custom' ? Number(values.dpi) : Number(values.resolution ?? 150);
  if (!Number.isFinite(dpi) || dpi <= 0) return inputBytes;
  let chosen: number[];
  try {
    chosen = parsePageRanges(String(values.pages ?? ''), pageSizes.length);
  } catch {
    return inputBytes; // the job itself will say what is wrong with the range
  }
  const perPixel = values.format === 'png' ? PNG_BYTES_PER_PIXEL : JPEG_BYTES_PER_PIXEL;
  const scale = (dpi / 72) ** 2;
  return chosen.reduce((sum, page) => {
    const size = pageSizes[page - 1];
    return sum + (size ? size.width * size.height * scale * perPixel : 0);
  }, 0);
}

/** Ask where to save (before the job) only for a large result, and only where the picker exists. */
export function shouldAskWhereToSave(estimatedBytes: number, hasPicker: boolean): boolean {
  return hasPicker && estimatedBytes > LARGE_OUTPUT_BYTES;
}

/** The name the picker suggests: the engine's naming where it is known, else the tool's default. */
export function suggestedName(
  tool: Pick<FileToolEntry, 'id' | 'defaultFilename'>,
  firstFileName: string | undefined,
): string {
  const base = firstFileName ? baseName(firstFileName) : '';
  if (base && tool.id === 'pdf-to-jpg') return `${base}-pages.zip`;
  if (base && tool.id === 'split-pdf') return `${base}-split.zip`;
  return tool.defaultFilename;
}

/** What Folio uses of a FileSystemFileHandle. */
export interface SaveHandle {
  readonly name: string;
  createWritable(): Promise<WritableStream<Uint8Array> & { abort(reason?: unknown): Promise<void> }>;
  getFile(): Promise<File>;
}

type SaveFilePicker = (options: {
  suggestedName?: string;
  types?: Array<{ description: string; accept: Record<string, string[]> }>;
}) => Promise<SaveHandle>;

function picker(): SaveFilePicker | undefined {
  const candidate = (globalThis as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  return typeof candidate === 'function' ? candidate.bind(globalThis) : undefined;
}

export function hasSavePicker(): boolean {
  return picker() !== undefined;
}

/** The user closed the picker without choosing: the job is not started. */
export class SaveDeclined extends Error {
  constructor() {
    super('Not started: no place was chosen to save the result.');
    this.name = 'SaveDeclined';
  }
}

/**
 * Opens the save picker (call it while the click's user activation lasts). Returns the handle,
 * undefined when the browser refuses to show it (then the result is downloaded as usual), or
 * throws SaveDeclined when the user dismissed it.
 */
export async function askWhereToSave(name: string): Promise<SaveHandle | undefined> {
  const show = picker();
  if (!show) return undefined;
  const extension = /\.[A-Za-z0-9]+$/.exec(name)?.[0];
  const types =
    extension === '.zip' ? [{ description: 'ZIP archive', accept: { 'application/zip': ['.zip'] } }] : undefined;
  try {
    return await show({ suggestedName: name, ...(types ? { types } : {}) });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw new SaveDeclined();
    return undefined; // e.g. SecurityError without user activation: fall back to a download
  }
}
