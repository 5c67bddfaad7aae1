/**
 * OCR of many pages with drawing and recognition overlapped: each page's picture (ocr-image.ts) is
 * drawn ahead — on render workers of the pool (workers/render.worker.ts) or in the engine's own
 * thread — while tesseract, in a worker of its own, recognises an earlier page. A bounded number of
 * pages (`ahead`, from the memory budget and the page's pixels) is drawn or waiting at once.
 *
 * Drawing a 300 dpi page costs a fraction of recognising it (docs/benchmarks.md, "OCR"), so one
 * drawing lane keeps a recogniser busy: the engine's own thread is that lane by default (it is idle
 * while tesseract works), and render workers are started only when asked (`renderWorkers`) or when
 * several recognisers need feeding. Node draws in-process (../worker-pool.ts says why).
 */
import type { PDFDocumentProxy } from '../pdf/pdfjs.ts';
import type { TextItem } from '../pdf/pdf-layout.ts';
import { cancelled } from '../errors.ts';
import { deviceResources, LaneLost, openPool, poolSize, startNestedWorker } from '../worker-pool.ts';
import { ocrScale, renderOcrImage, type OcrImage } from './ocr-image.ts';
import type { Recogniser } from './ocr.ts';

/** Draws OCR pictures, one at a time. */
interface DrawLane {
  draw(pageNumber: number): Promise<OcrImage>;
  close(): void;
}

/** Memory of one tesseract worker: its WASM heap with the language model loaded. */
const RECOGNISER_BYTES = 120 * 1024 * 1024;
/** Memory of one render worker besides the document (see ../pdf/render-pool.ts). */
const DRAW_LANE_FIXED_BYTES = 80 * 1024 * 1024;
/** What the engine worker holds before OCR starts (the engine, pdf.js, the layouts). */
const ENGINE_FIXED_BYTES = 150 * 1024 * 1024;
/** Pictures drawn ahead of the page being recognised, per recogniser, at most. */
const MAX_AHEAD_PER_RECOGNISER = 2;

export interface OcrSizing {
  /** navigator.hardwareConcurrency (undefined when the browser does not say). */
  cores: number | undefined;
  /** memoryBudgetBytes(navigator.deviceMemory). */
  budgetBytes: number;
  inputBytes: number;
  /** Pixels of a page's OCR picture. */
  pagePixels: number;
}

/**
 * Pictures that may be drawn or waiting beyond the ones being recognised: each costs its canvas
 * (4 bytes a pixel) while drawn and its PNG after; at most MAX_AHEAD_PER_RECOGNISER per
 * recogniser, at least one (drawing the next page while this one is recognised is the point).
 */
export function pagesAhead({ budgetBytes, inputBytes, pagePixels }: OcrSizing, recognisers: number): number {
  const free = budgetBytes - ENGINE_FIXED_BYTES - 2 * inputBytes - recognisers * RECOGNISER_BYTES;
  return Math.max(1, Math.min(MAX_AHEAD_PER_RECOGNISER * recognisers, Math.floor(free / (4 * pagePixels))));
}

/**
 * Tesseract workers: one. Tesseract.js recognises a page on one thread, but on this 2-core machine
 * a second worker made the job no faster in Node or Chromium (docs/benchmarks.md, "OCR"): drawing,
 * the engine and the browser already take the second core. Unmeasured on more cores, so not guessed.
 */
export function recogniserCount(): number {
  return 1;
}

/** Render workers to draw with when none are asked: as many as a second recogniser would need, else none. */
function drawLaneCount(sizing: OcrSizing, recognisers: number): number {
  // Drawing costs about a quarter of recognising, so one lane feeds up to four recognisers.
  return poolSize({
    ...sizing,
    engineBytes: ENGINE_FIXED_BYTES + 2 * sizing.inputBytes + recognisers * RECOGNISER_BYTES,
    laneBytes: DRAW_LANE_FIXED_BYTES + 2 * sizing.inputBytes + 4 * sizing.pagePixels,
    coresPerLane: 2,
    maxLanes: Math.ceil(recognisers / 4),
  });
}

/** Starts a render worker and opens the document in it. Browser only. */
async function openDrawWorker(bytes: Uint8Array, name: string): Promise<DrawLane> {
  const worker = await startNestedWorker<import('../../../render.worker.ts').RenderWorkerApi>(
    () => new Worker(new URL('../../../render.worker.ts', import.meta.url), { type: 'module', name: 'folio-render' }),
    'render worker',
  );
  try {
    await worker.call(worker.api.open(bytes, name));
  } catch (error) {
    worker.close();
    throw error;
  }
  return { draw: (pageNumber) => worker.call(worker.api.ocrImage(pageNumber)), close: worker.close };
}

interface Waiting<Job, Result> {
  job: Job;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * Jobs handed to the first free lane, in the order asked. A lane whose worker dies (LaneLost) is
 * closed and dropped and its job handed on; when none is left, `fallback` makes one (without one,
 * the job fails with LaneLost). `close`
 * rejects the jobs still waiting with Cancelled and closes every lane.
 */
export function laneQueue<Lane extends { close(): void }, Job, Result>(
  lanes: Lane[],
  work: (lane: Lane, job: Job) => Promise<Result>,
  fallback?: () => Lane,
): { run(job: Job): Promise<Result>; close(): void } {
  const idle = [...lanes];
  const live = new Set(lanes);
  const waiting: Waiting<Job, Result>[] = [];
  let closed = false;
  const pump = () => {
    while (!closed && idle.length > 0 && waiting.length > 0) {
      const lane = idle.shift()!;
      const next = waiting.shift()!;
      work(lane, next.job).then(
        (result) => {
          next.resolve(result);
          idle.push(lane);
          pump();
        },
        (error: unknown) => {
          if (error instanceof LaneLost && !closed && (live.size > 1 || fallback)) {
            lane.close();
            live.delete(lane);
            waiting.unshift(next);
            if (live.size === 0 && fallback) {
              const replacement = fallback();
              live.add(replacement);
              idle.push(replacement);
            }
          } else {
            next.reject(error);
            idle.push(lane);
          }
          pump();
        },
      );
    }
  };
  return {
    run: (job) =>
      new Promise<Result>((resolve, reject) => {
        if (closed) return reject(cancelled());
        waiting.push({ job, resolve, reject });
        pump();
      }),
    close: () => {
      closed = true;
      for (const entry of waiting.splice(0)) entry.reject(cancelled());
      for (const lane of live) lane.close();
    },
  };
}

export interface OcrPipelineOptions {
  /** The document the engine opened with pdf.js (the in-process lane draws from it). */
  doc: PDFDocumentProxy;
  /** The bytes `doc` was opened from (decrypted), for render workers to open. */
  bytes: Uint8Array;
  name: string;
  /** Starts one tesseract worker. */
  createRecogniser: () => Promise<Recogniser>;
  signal?: AbortSignal;
  /** Render workers to draw with (tests, bench); by default as drawLaneCount says. */
  renderWorkers?: number;
  /** Tesseract workers (bench); by default recogniserCount(). */
  recognisers?: number;
  /** Pages drawn ahead (bench: 0 draws each page only once the one before is recognised); by default pagesAhead. */
  ahead?: number;
}

/** A page's recognised text, and whether CJK text in its picture lacked its font (OcrImage). */
export interface RecognisedPage {
  items: TextItem[];
  cjkFontMissing: boolean;
}

export interface OcrPipeline {
  /** Pages that may be started beyond the one waited for. */
  readonly ahead: number;
  /** Starts page `pageNumber`'s OCR: drawn by the first free lane, then recognised by the first free recogniser. */
  recognise(pageNumber: number): Promise<RecognisedPage>;
  /** Ends the render workers and the recognisers (Cancel, or the job's end). */
  close(): Promise<void>;
}

/**
 * Opens the lanes and starts the recognisers (their data loads while the first pages are drawn).
 * The first page's pixels size the look-ahead and the pool.
 */
export async function openOcrPipeline(options: OcrPipelineOptions, firstPage: number): Promise<OcrPipeline> {
  const { doc, bytes, name, signal } = options;
  const scale = await ocrScale(doc, firstPage);
  const { width, height } = (await doc.getPage(firstPage)).getViewport({ scale });
  const sizing: OcrSizing = { ...deviceResources(), inputBytes: bytes.byteLength, pagePixels: width * height };
  const recogniserTotal = options.recognisers ?? recogniserCount();
  const inProcess: DrawLane = { draw: (pageNumber) => renderOcrImage(doc, pageNumber), close: () => undefined };
  const lanes = await openPool(
    options.renderWorkers,
    () => drawLaneCount(sizing, recogniserTotal),
    () => openDrawWorker(bytes, name),
    inProcess,
  );
  const drawing = laneQueue(
    lanes,
    (lane, pageNumber: number) => lane.draw(pageNumber),
    () => inProcess,
  );
  const starting = Array.from({ length: recogniserTotal }, () => options.createRecogniser());
  for (const recogniser of starting) recogniser.catch(() => undefined);
  const recognising = Promise.all(starting).then((recognisers) =>
    laneQueue(
      recognisers.map((recogniser) => ({ recogniser, close: () => void recogniser.terminate() })),
      ({ recogniser }, job: { png: Uint8Array; scale: number }) =>
        recogniser.recogniseImage(job.png, job.scale, signal),
    ),
  );
  recognising.catch(() => undefined);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    drawing.close();
    const queue = await recognising.catch(() => undefined);
    queue?.close();
    await Promise.all(starting.map((start) => start.then((r) => r.terminate()).catch(() => undefined)));
  };
  signal?.addEventListener('abort', () => void close(), { once: true });
  return {
    ahead: options.ahead ?? pagesAhead(sizing, recogniserTotal),
    async recognise(pageNumber) {
      if (closed) throw cancelled();
      const [{ png, cjkFontMissing }, pageScale] = await Promise.all([
        drawing.run(pageNumber),
        ocrScale(doc, pageNumber),
      ]);
      return { items: await (await recognising).run({ png, scale: pageScale }), cjkFontMissing };
    },
    close,
  };
}
