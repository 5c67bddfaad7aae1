/// <reference lib="webworker" />
/**
 * The one engine worker: a thin Comlink wrapper around the engine registry. The bridge
 * (workers/bridge.ts) starts it lazily, terminates it on cancel and releases it when idle.
 */
import * as Comlink from 'comlink';
import { loadEngine } from './engine/registry.ts';
import { idleKeepMs } from './engine/lib/keep-alive.ts';
import type { EngineInput, EngineOptions, EngineResult, ProgressCallback } from './engine/lib/types.ts';
import type { PDFDocumentProxy, PageInfo } from './engine/lib/pdf/pdfjs.ts';

/** Documents opened for thumbnails, by the key the page chose; kept open between page renders. */
const thumbnailDocs = new Map<string, Promise<PDFDocumentProxy>>();

/**
 * Files above this are read by pdf.js in ranges for thumbnails (openPdfjsBlob); smaller ones are
 * handed over whole, one read instead of a round trip per range.
 */
const RANGE_READ_ABOVE_BYTES = 16 * 1024 * 1024;

const api = {
  async run(
    toolId: string,
    inputs: EngineInput[],
    options: EngineOptions,
    onProgress?: ProgressCallback,
    onChunk?: (chunk: Uint8Array) => Promise<void>,
  ): Promise<EngineResult> {
    const engine = await loadEngine(toolId);
    const sent: Promise<void>[] = [];
    // Pieces of the result leave this worker as soon as the engine writes them (moved, not copied);
    // the result is answered once the page has every piece (their channel is not the answer's).
    const output = onChunk && {
      write(chunk: Uint8Array) {
        const whole = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
        const own = whole && chunk.buffer instanceof ArrayBuffer ? chunk : chunk.slice();
        sent.push(onChunk(Comlink.transfer(own, [own.buffer as ArrayBuffer])));
      },
    };
    // Cancellation terminates this worker, so the engine's own signal is never aborted here;
    // it exists for Node callers and for engines that run sub-jobs.
    const result = await engine.run(inputs, options, { progress: onProgress, output });
    await Promise.all(sent);
    return Comlink.transfer(result, [result.bytes.buffer as ArrayBuffer]);
  },

  /** Loads a tool's engine (and whatever its `prepare` warms up for these options) ahead of its first job. */
  async prepare(toolId: string, options?: EngineOptions): Promise<void> {
    const engine = await loadEngine(toolId);
    await engine.prepare?.(options);
  },

  /**
   * How long this worker should be kept when idle: long while it holds a started LibreOffice
   * (seconds and 247 MB to start again), else briefly (its memory goes back to the device).
   */
  idleMs(): number {
    return idleKeepMs();
  },

  /**
   * Thumbnails, step 1: opens a PDF with pdf.js under `key` and returns its pages' sizes and
   * rotations. Rejects with PasswordRequired / InvalidPassword / InvalidPdf, or CutShortPdf when the
   * file ends early (named errors). A file
   * the resource check refuses (a decompression bomb) is answered `{ refused: message }`: every
   * job's own check would refuse it the same way, so the form can say so without running one.
   * The document stays open while the file is in the tool window (and during its jobs): above
   * RANGE_READ_ABOVE_BYTES pdf.js reads it from the file by ranges instead of holding a copy.
   */
  async openThumbnails(
    key: string,
    file: Blob,
    password?: string,
    name = 'This PDF',
  ): Promise<PageInfo[] | { refused: string }> {
    const { openPdfjs, openPdfjsBlob, pageInfos } = await import('./engine/lib/pdf/pdfjs.ts');
    // The same resource check as every job's (a bomb would hang pdf.js drawing the first thumbnail).
    const { guardInputs } = await import('./engine/lib/input-limits.ts');
    let bytes: Uint8Array | undefined = new Uint8Array(await file.arrayBuffer());
    try {
      await guardInputs([{ name, bytes, password }]);
    } catch (error) {
      if (error instanceof Error && error.name === 'TooLarge') return { refused: error.message };
      throw error;
    }
    const { endsEarly } = await import('./engine/lib/pdf/pdf-bytes.ts');
    const cutShort = endsEarly(bytes);
    // Let go of the read before pdf.js starts on a large file: only its ranges are needed from here on.
    if (file.size > RANGE_READ_ABOVE_BYTES) bytes = undefined;
    const opening = bytes ? openPdfjs(bytes, { password }) : openPdfjsBlob(file, { password });
    thumbnailDocs.set(key, opening);
    try {
      return await pageInfos(await opening);
    } catch (error) {
      thumbnailDocs.delete(key);
      // pdf.js refuses a file cut short, which jobs read as far as it goes (pdf-open.ts): the list says which it is.
      const locked = error instanceof Error && /Password/.test(error.name);
      if (cutShort && !locked) throw Object.assign(new Error(`"${name}" ends early`), { name: 'CutShortPdf' });
      throw error;
    }
  },

  /**
   * Thumbnails, step 2: one page (1-based) as a JPEG whose longer side is `maxPx`, and whether CJK
   * text on it was drawn without its font (the preview shows empty boxes: the UI says so).
   */
  async thumbnail(key: string, pageNumber: number, maxPx: number): Promise<{ image: Blob; cjkFontMissing: boolean }> {
    const doc = thumbnailDocs.get(key);
    if (!doc) throw new Error(`No document open under ${key}`);
    const { renderThumbnail } = await import('./engine/lib/pdf/page-image.ts');
    const { bytes, cjkFontMissing } = await renderThumbnail(await doc, pageNumber, maxPx);
    return { image: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), cjkFontMissing };
  },

  /** Thumbnails, step 3: releases the document (and pdf.js's memory for it). */
  async closeThumbnails(key: string): Promise<void> {
    const doc = thumbnailDocs.get(key);
    thumbnailDocs.delete(key);
    await (await doc?.catch(() => undefined))?.destroy();
  },
};

export type EngineWorkerApi = typeof api;
Comlink.expose(api);
