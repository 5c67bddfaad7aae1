/**
 * Images recompressed in parallel: a pool of image workers (workers/image.worker.ts), each running
 * recompress.ts on the images it is handed, sized by the device's cores and the memory budget.
 *
 * As with the render pool (../pdf/render-pool.ts), the pool lives inside the engine as nested workers
 * (../worker-pool.ts says why, and why Node recompresses in-process, one image at a time).
 *
 * The largest images go first, so that one big scan does not start last and leave the other lanes
 * idle at the end. Each image's result depends only on that image, so the output does not depend on
 * which lane did what.
 */
import { cancelled } from '../errors.ts';
import { abortRace, deviceResources, LaneLost, openPool, poolSize, startNestedWorker } from '../worker-pool.ts';
import { recompressImageJob, type ImageJob, type ImageJobSettings, type RecompressedImage } from './recompress.ts';

/** Recompresses images, one at a time. */
export interface ImageLane {
  recompress(job: ImageJob, settings: ImageJobSettings): Promise<RecompressedImage>;
  close(): void;
}

/** Memory of one image worker besides the image: its codecs' code and heaps. */
const LANE_FIXED_BYTES = 60 * 1024 * 1024;
/** What the engine worker holds besides the document (the engine, pdf-lib, qpdf later). */
const ENGINE_FIXED_BYTES = 150 * 1024 * 1024;
/**
 * Peak bytes per pixel of the largest image in a worker: its 8-bit samples (3), the RGBA the
 * codecs take (4), the encoder's copy of that (4), and the output.
 */
const BYTES_PER_PIXEL = 12;
const MAX_LANES = 8;

export interface ImageLaneSizing {
  /** navigator.hardwareConcurrency (undefined when the browser does not say). */
  cores: number | undefined;
  /** memoryBudgetBytes(navigator.deviceMemory). */
  budgetBytes: number;
  /** The PDF's size: pdf-lib holds it and its parsed objects in the engine worker meanwhile. */
  inputBytes: number;
  /** Pixels of the largest image to recompress. */
  largestPixels: number;
  /** How many images there are to recompress. */
  images: number;
}

/**
 * How many image workers: one per core (at most MAX_LANES and at most one per image), fewer when
 * the budget cannot hold that many of the largest image at once; at least one.
 */
export function imageLaneCount({ cores, budgetBytes, inputBytes, largestPixels, images }: ImageLaneSizing): number {
  return poolSize({
    cores,
    budgetBytes,
    engineBytes: ENGINE_FIXED_BYTES + 3 * inputBytes,
    laneBytes: LANE_FIXED_BYTES + BYTES_PER_PIXEL * largestPixels,
    coresPerLane: 1,
    maxLanes: MAX_LANES,
    limit: images,
  });
}

/** The engine's own thread as a lane (Node, or a browser where one lane is all that fits). */
export const inProcessLane: ImageLane = { recompress: recompressImageJob, close: () => undefined };

/** Starts an image worker. Browser only. */
export async function openImageWorkerLane(): Promise<ImageLane> {
  const Comlink = await import('comlink');
  const worker = await startNestedWorker<import('../../../image.worker.ts').ImageWorkerApi>(
    () => new Worker(new URL('../../../image.worker.ts', import.meta.url), { type: 'module', name: 'folio-image' }),
    'image worker',
  );
  return {
    recompress: (job, settings) => {
      // Each worker gets its own copy of the image's bytes, handed over rather than copied again.
      const contents = job.contents.slice();
      const sent = Comlink.transfer({ ...job, contents }, [contents.buffer]);
      return worker.call<RecompressedImage>(worker.api.recompress(sent, settings));
    },
    close: worker.close,
  };
}

/**
 * Lanes for these images: image workers in a browser when more than one fits (or `asked`, tests
 * and bench), else the engine's own thread.
 */
function openLanes(jobs: readonly ImageJob[], inputBytes: number, asked?: number): Promise<ImageLane[]> {
  const affordable = () =>
    imageLaneCount({
      ...deviceResources(),
      inputBytes,
      largestPixels: Math.max(...jobs.map((job) => job.width * job.height)),
      images: jobs.length,
    });
  const count = asked === undefined ? undefined : Math.min(asked, jobs.length);
  return openPool(count, affordable, openImageWorkerLane, inProcessLane);
}

export interface RecompressAllOptions {
  signal?: AbortSignal;
  /** The size of the PDF the images come from (sizes the pool). */
  inputBytes: number;
  /** Called as each image is done, in the order they finish. */
  onResult?: (index: number, result: RecompressedImage) => void;
  /** How many image workers to start instead of what the device affords (tests, bench). */
  workers?: number;
  /** Lanes to use instead of this device's (tests). */
  lanes?: ImageLane[];
}

/**
 * Recompresses every job across the lanes, largest image first; results in the jobs' order. An
 * image whose worker died is left as it was (skipped, with the reason) and that lane dropped; when
 * none is left, the rest are done in-process. Cancelling ends every worker at once.
 */
export async function recompressAll(
  jobs: readonly ImageJob[],
  settings: ImageJobSettings,
  { signal, inputBytes, onResult, workers, lanes: given }: RecompressAllOptions,
): Promise<RecompressedImage[]> {
  const results: RecompressedImage[] = new Array(jobs.length);
  if (jobs.length === 0) return results;
  const order = jobs.map((_, index) => index).sort((a, b) => pixels(jobs[b]) - pixels(jobs[a]));
  const lanes = given ?? (await openLanes(jobs, inputBytes, workers));
  const aborted = abortRace(signal);
  let next = 0;
  let live = lanes.length;
  const drive = async (lane: ImageLane): Promise<void> => {
    while (next < order.length) {
      if (signal?.aborted) throw cancelled();
      const index = order[next++];
      let result: RecompressedImage;
      try {
        result = await aborted.race(lane.recompress(jobs[index], settings));
      } catch (error) {
        if (!(error instanceof LaneLost)) throw error;
        result = { skipped: 'image worker stopped' };
        lane.close();
        live--;
        results[index] = result;
        onResult?.(index, result);
        if (live === 0) return drive(inProcessLane);
        return;
      }
      results[index] = result;
      onResult?.(index, result);
    }
  };
  try {
    await Promise.all(lanes.map((lane) => drive(lane)));
  } finally {
    aborted.dispose();
    for (const lane of lanes) lane.close();
  }
  return results;
}

const pixels = (job: ImageJob) => job.width * job.height;
