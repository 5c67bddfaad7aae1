/**
 * Converts every file of the wide Office corpus (../shared/corpus/office-wide, its own manifest with
 * LibreOffice 7.4's page count) with Folio's Office → PDF engines, each file in a worker thread with
 * a time limit, so that one stall neither blocks the run nor hides the files after it. Used by the
 * `wide` test project (tests/wide/office-wide.test.ts) and by the bench (bench/sections/office-wide.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { wordSimilarity } from '../../bench/lib.ts';
import { libreOfficeReference, libreOfficeVersion } from './libreoffice-reference.ts';

export const WIDE_DIR = resolve(import.meta.dirname, '../../../shared/corpus/office-wide');
export const widePresent = existsSync(join(WIDE_DIR, 'manifest.json'));

export interface WideEntry {
  /** Relative to the corpus root, e.g. "office-wide/docx/poi-52288.docx". */
  file: string;
  libreoffice_pages: number | null;
  expect: 'ok' | 'error';
  sha256?: string;
}

export type Format = 'docx' | 'xlsx' | 'pptx';

export interface WideOutcome {
  entry: WideEntry;
  format: Format;
  /** converted; refused with a named error; crashed (an error without a name of ours); stopped by the time limit. */
  status: 'converted' | 'refused' | 'crashed' | 'stopped';
  message?: string;
  pages?: number;
  notes?: string[];
  ms: number;
  /**
   * The bench's word similarity of Folio's PDF text to LibreOffice's (pdftotext -layout), when LibreOffice's is known.
   */
  similarity?: number;
  /** Folio's PDF as `pdftotext -layout` reads it, when the run was asked to keep it. */
  text?: string;
}

export function wideManifest(): WideEntry[] {
  return widePresent ? (JSON.parse(readFileSync(join(WIDE_DIR, 'manifest.json'), 'utf8')) as WideEntry[]) : [];
}

const NAMED_ERRORS = new Set([
  'InvalidInput',
  'InvalidPdf',
  'DamagedPdf',
  'TooLarge',
  'NotImplemented',
  'PasswordRequired',
  'UnsupportedEncryption',
]);

interface Reply {
  id: number;
  ok: boolean;
  bytes?: Uint8Array;
  notes?: string[];
  name?: string;
  message?: string;
  stack?: string;
  ms: number;
}

class ConvertWorker {
  private worker!: Worker;
  private ready!: Promise<void>;
  private pending = new Map<number, (reply: Reply) => void>();
  private nextId = 0;

  constructor() {
    this.start();
  }

  private start(): void {
    this.worker = new Worker(new URL('./convert-worker.mjs', import.meta.url), {
      workerData: { root: resolve(import.meta.dirname, '../..') },
      resourceLimits: { maxOldGenerationSizeMb: 3072 },
    });
    this.ready = new Promise((resolveReady, reject) => {
      this.worker.once('error', reject);
      this.worker.on('message', (message: Reply | { ready: true }) => {
        if ('ready' in message) return resolveReady();
        this.pending.get(message.id)?.(message);
        this.pending.delete(message.id);
      });
    });
    // A worker that dies (out of memory) answers its pending file as crashed.
    this.worker.on('exit', (code) => {
      for (const [id, answer] of this.pending)
        answer({ id, ok: false, name: 'Exit', message: `worker exited (${code})`, ms: 0 });
      this.pending.clear();
    });
  }

  async convert(format: Format, name: string, bytes: Uint8Array, limitMs: number): Promise<Reply | 'stopped'> {
    await this.ready;
    const id = this.nextId++;
    const reply = new Promise<Reply>((answer) => this.pending.set(id, answer));
    this.worker.postMessage({ id, kind: format, name, bytes }, [bytes.buffer as ArrayBuffer]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      reply,
      new Promise<'stopped'>((r) => (timer = setTimeout(() => r('stopped'), limitMs))),
    ]);
    clearTimeout(timer);
    if (outcome === 'stopped' || outcome.name === 'Exit') {
      this.pending.delete(id);
      await this.worker.terminate();
      this.start();
    }
    return outcome;
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}

function pdfPages(path: string): number {
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [path], { encoding: 'utf8' }))?.[1] ?? 0);
}

export interface WideRunOptions {
  /** Per-file limit (the browser's watchdog stops a job after 180 s without progress). */
  limitMs?: number;
  /** Only files whose path contains one of these words. */
  only?: string[];
  onOutcome?: (outcome: WideOutcome, index: number, total: number) => void;
  /** Compare each converted file's text with LibreOffice's (converted once and cached; default true). */
  compare?: boolean;
  /** Keep the text of each converted PDF (`pdftotext -layout`) in its outcome. */
  keepText?: boolean;
}

/** Word similarity of Folio's PDF to LibreOffice's; undefined when LibreOffice's text is unknown or it failed. */
function similarityToLibreOffice(entry: WideEntry, text: () => string): number | undefined {
  const reference = libreOfficeReference(entry);
  if (reference?.text === undefined) return undefined;
  return wordSimilarity(reference.text, text());
}

function pdfText(pdf: string): string {
  return execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8', maxBuffer: 1 << 30 });
}

export async function runWide({
  limitMs = 120_000,
  only,
  onOutcome,
  compare = true,
  keepText = false,
}: WideRunOptions = {}): Promise<WideOutcome[]> {
  const entries = wideManifest().filter(
    (e) => /\.(docx|xlsx|pptx)$/.test(e.file) && (!only || only.some((w) => e.file.includes(w))),
  );
  const worker = new ConvertWorker();
  const dir = mkdtempSync(join(tmpdir(), 'folio-wide-'));
  const outcomes: WideOutcome[] = [];
  try {
    for (const [index, entry] of entries.entries()) {
      const format = entry.file.split('.').pop() as Format;
      const path = resolve(WIDE_DIR, '..', entry.file);
      const reply = await worker.convert(format, basename(path), new Uint8Array(readFileSync(path)), limitMs);
      let outcome: WideOutcome;
      if (reply === 'stopped') outcome = { entry, format, status: 'stopped', ms: limitMs };
      else if (reply.ok && reply.bytes) {
        const pdf = join(dir, 'out.pdf');
        writeFileSync(pdf, reply.bytes);
        let pages = 0;
        let text: string | undefined;
        const readText = () => (text ??= pdfText(pdf));
        try {
          pages = pdfPages(pdf);
        } catch {
          /* unreadable output: counted below as a crash */
        }
        outcome =
          pages > 0
            ? {
                entry,
                format,
                status: 'converted',
                pages,
                notes: reply.notes,
                ms: reply.ms,
                similarity: compare ? similarityToLibreOffice(entry, readText) : undefined,
                text: keepText ? readText() : undefined,
              }
            : { entry, format, status: 'crashed', message: 'the output is not a readable PDF', ms: reply.ms };
      } else {
        const named = NAMED_ERRORS.has(reply.name ?? '');
        outcome = {
          entry,
          format,
          status: named ? 'refused' : 'crashed',
          message: named ? reply.message : `${reply.message}\n${reply.stack}`,
          ms: reply.ms,
        };
      }
      outcomes.push(outcome);
      onOutcome?.(outcome, index, entries.length);
    }
  } finally {
    await worker.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return outcomes;
}

export interface FormatSummary {
  format: Format;
  files: number;
  converted: number;
  /** Refused with a message although LibreOffice converts the file. */
  refusedValid: number;
  crashed: number;
  stopped: number;
  /** Of the files both Folio and LibreOffice convert. */
  compared: number;
  samePages: number;
  /** Word similarity to LibreOffice's PDF over the files both convert: how many, median, 10th percentile. */
  similarities: number;
  similarityMedian?: number;
  similarityP10?: number;
}

export function summarise(outcomes: WideOutcome[]): FormatSummary[] {
  return (['docx', 'xlsx', 'pptx'] as Format[]).map((format) => {
    const mine = outcomes.filter((o) => o.format === format);
    const compared = mine.filter((o) => o.status === 'converted' && o.entry.libreoffice_pages);
    return {
      format,
      files: mine.length,
      converted: mine.filter((o) => o.status === 'converted').length,
      refusedValid: mine.filter((o) => o.status === 'refused' && o.entry.expect === 'ok').length,
      crashed: mine.filter((o) => o.status === 'crashed').length,
      stopped: mine.filter((o) => o.status === 'stopped').length,
      compared: compared.length,
      samePages: compared.filter((o) => o.pages === o.entry.libreoffice_pages).length,
      ...similarityFigures(mine.flatMap((o) => (o.similarity === undefined ? [] : [o.similarity]))),
    };
  });
}

function similarityFigures(
  values: number[],
): Pick<FormatSummary, 'similarities' | 'similarityMedian' | 'similarityP10'> {
  const sorted = [...values].sort((a, b) => a - b);
  // The value below which a given share of the files lie (nearest rank).
  const rank = (share: number) => sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)];
  return {
    similarities: sorted.length,
    similarityMedian: sorted.length ? rank(0.5) : undefined,
    similarityP10: sorted.length ? rank(0.1) : undefined,
  };
}

export function summaryLines(summaries: FormatSummary[]): string[] {
  const lines = summaries.map((s) => {
    const percent = s.compared ? ((100 * s.samePages) / s.compared).toFixed(1) : '—';
    const similarity = s.similarities
      ? `; word similarity to LibreOffice's PDF median ${s.similarityMedian!.toFixed(3)}, 10th percentile ` +
        `${s.similarityP10!.toFixed(3)} (${s.similarities} files)`
      : '';
    return (
      `${s.format}: ${s.files} files, ${s.converted} converted, ${s.refusedValid} refused although LibreOffice ` +
      `converts them, ${s.crashed} crashed, ${s.stopped} stopped; same page count as LibreOffice ` +
      `${s.samePages}/${s.compared} (${percent} %)${similarity}`
    );
  });
  if (!summaries.some((s) => s.similarities))
    lines.push(
      'word similarity not measured: soffice is not installed and no LibreOffice text is cached ' +
        '(node_modules/.cache/folio-wide)',
    );
  else
    lines.push(
      `word similarity against LibreOffice ${libreOfficeVersion() ?? '(cached text)'}, pdftotext -layout of both PDFs`,
    );
  return lines;
}
