/**
 * A first visit's first job has the device to itself: while a tool works, the service worker starts
 * no new background download of engine files (src/sw.ts, HOLD_ENGINE_DOWNLOADS), and it carries on
 * once the job has ended. On a two-core machine the download beside a job made it a third slower
 * (docs/benchmarks.md, compress).
 */
import { describe, expect, test } from 'vitest';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { openPage, sharedBrowser } from './harness.ts';

const shared = sharedBrowser();

const PAGES = 60;

async function manyPages(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= PAGES; i++) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 40; line++) {
      page.drawText(`Page ${i}, line ${line + 1}: the quick brown fox jumps over the lazy dog`, {
        x: 40,
        y: 800 - line * 19,
        size: 11,
        font,
      });
    }
  }
  return doc.save();
}

interface CacheMessage {
  at: number;
  type: string;
  group: string;
  held?: boolean;
  done: number;
  total: number;
}

/** What the page records: the service worker's messages, and the job's answer (at: when it came). */
interface Recorded {
  engineMessages: CacheMessage[];
  jobEnded: Promise<{ at: number; status: number; zip: string }>;
}

describe('the background download of engines waits for a job', () => {
  test('no new engine file is fetched while PDF → JPG runs; the download finishes afterwards', async () => {
    const { page, context } = await openPage(shared.browser, '/tools/pdf-to-jpg', { serviceWorkers: 'allow' });
    try {
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
        const log: CacheMessage[] = [];
        (window as unknown as Recorded).engineMessages = log;
        navigator.serviceWorker.addEventListener('message', (event) => {
          const data = event.data as Omit<CacheMessage, 'at'> | undefined;
          if (data?.type?.startsWith('engine-cache')) log.push({ ...data, at: performance.now() });
        });
      });
      await page
        .getByRole('button', { name: /Upload Files|Get Started/ })
        .first()
        .click();
      await page.locator('html[data-folio-api="ready"]').waitFor({ state: 'attached', timeout: 30_000 });

      // The job starts, then the core set is asked for (the page asks once it is idle; asking again
      // joins the download already running): it must wait for the job.
      const pdf = Buffer.from(await manyPages()).toString('base64');
      await page.evaluate(async (base64) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const form = new FormData();
        form.append('file', new File([bytes], 'many.pdf', { type: 'application/pdf' }));
        form.append('dpi', '150');
        const win = window as unknown as Recorded;
        win.jobEnded = fetch('/api/pdf/toJpg', { method: 'POST', body: form }).then(async (response) => {
          // The answer comes once the job has ended (and the hold with it).
          const at = performance.now();
          const body = new Uint8Array(await response.arrayBuffer());
          let binary = '';
          for (let i = 0; i < body.length; i += 0x8000) binary += String.fromCharCode(...body.subarray(i, i + 0x8000));
          return { at, status: response.status, zip: btoa(binary) };
        });
        const registration = await navigator.serviceWorker.ready;
        registration.active?.postMessage({ type: 'CACHE_ENGINES', group: 'core' });
      }, pdf);

      await page.waitForFunction(
        () => (window as unknown as Recorded).engineMessages.some((m) => m.held || m.type === 'engine-cache-finished'),
        undefined,
        { timeout: 30_000 },
      );
      const { at: jobEnd, status, zip } = await page.evaluate(() => (window as unknown as Recorded).jobEnded);
      expect(status).toBe(200);
      const during = await page.evaluate(() => (window as unknown as Recorded).engineMessages);
      const firstHeld = during.find((m) => m.held);
      expect(firstHeld, `held before it finished: ${JSON.stringify(during.slice(0, 5))}`).toBeDefined();
      expect(firstHeld!.at).toBeLessThan(jobEnd);
      // Up to three files are on their way when the hold arrives; they are stored, nothing new starts.
      const storedWhileHeld = during.filter(
        (m) => m.type === 'engine-cache-progress' && !m.held && m.at > firstHeld!.at && m.at < jobEnd,
      );
      expect(storedWhileHeld.length, JSON.stringify({ jobEnd, firstHeld, storedWhileHeld })).toBeLessThanOrEqual(2);
      expect(during.some((m) => m.type === 'engine-cache-finished' && m.at < jobEnd)).toBe(false);

      const images = Object.values((await JSZip.loadAsync(Buffer.from(zip, 'base64'))).files).filter((f) => !f.dir);
      expect(images.length).toBe(PAGES);

      // Released with the job: the rest of the core set is downloaded.
      await page.waitForFunction(
        () =>
          (window as unknown as Recorded).engineMessages.some(
            (m) => m.type === 'engine-cache-finished' && m.group === 'core',
          ),
        undefined,
        { timeout: 170_000 },
      );
      const finished = (await page.evaluate(() => (window as unknown as Recorded).engineMessages)).find(
        (m) => m.type === 'engine-cache-finished',
      );
      expect(finished!.at).toBeGreaterThan(jobEnd);
      expect(finished!.done).toBe(finished!.total);
    } finally {
      await context.close();
    }
  }, 240_000);
});
