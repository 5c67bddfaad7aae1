/**
 * Image compressor options, a before/after preview with a compare slider, and batches.
 *
 * The /api contract takes one `file` per request, so the frame's Process Files compresses
 * the chosen image. For many images, this panel keeps its own batch list ("Add more images") and
 * "Compress all" sends one request per image (each with its own before → after; a 0-byte or
 * non-image file is named and skipped) and downloads them together as compressed-images.zip.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { commonName, formatBytes } from '../../../shared/format.ts';
import JSZip from 'jszip';
import type { FileToolPanelProps } from './registry.ts';
import { OptionFields } from '../option-fields.tsx';
import { CompareSlider } from '../compare-slider.tsx';
import { ApiError, callTool, downloadBlob } from '../../api/client.ts';

export function savingText(before: number, after: number): string {
  const change = Math.round((1 - after / before) * 100);
  return `${formatBytes(before)} → ${formatBytes(after)} (${change >= 0 ? '−' : '+'}${Math.abs(change)}%)`;
}

type BatchRow = { name: string; before: number; after?: number; error?: string };

export default function ImageCompressorPanel({ tool, files, values, setValue, disabled }: FileToolPanelProps) {
  const [extra, setExtra] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [preview, setPreview] = useState<{
    before: string;
    after: string;
    beforeSize: number;
    afterSize: number;
    name: string;
  } | null>(null);
  const [rows, setRows] = useState<BatchRow[]>([]);
  const addRef = useRef<HTMLInputElement>(null);
  const batch = useMemo(() => [...files, ...extra], [files, extra]);

  // Object URLs are released when replaced and when the panel goes away.
  useEffect(
    () => () => {
      if (preview) {
        URL.revokeObjectURL(preview.before);
        URL.revokeObjectURL(preview.after);
      }
    },
    [preview],
  );

  async function showPreview() {
    const file = batch[0];
    if (!file) return;
    setBusy(true);
    setMessage('');
    try {
      const result = await callTool(tool, [file], values);
      setPreview({
        before: URL.createObjectURL(file),
        after: URL.createObjectURL(result.blob),
        beforeSize: file.size,
        afterSize: result.blob.size,
        name: file.name,
      });
    } catch (e) {
      setMessage(e instanceof ApiError ? e.message : 'Processing failed');
    } finally {
      setBusy(false);
    }
  }

  async function compressAll() {
    setBusy(true);
    setMessage('');
    const zip = new JSZip();
    const done: BatchRow[] = [];
    try {
      for (const file of batch) {
        try {
          const result = await callTool(tool, [file], values);
          zip.file(uniqueName(zip, result.filename.replace(/-compressed(?=\.[^.]+$)/, '')), result.blob);
          done.push({ name: file.name, before: file.size, after: result.blob.size });
        } catch (e) {
          done.push({
            name: file.name,
            before: file.size,
            error: e instanceof ApiError ? e.message : 'Processing failed',
          });
        }
        setRows([...done]);
      }
      const ok = done.filter((r) => r.after !== undefined);
      if (ok.length === 0) {
        setMessage('None of the images could be compressed.');
        return;
      }
      const zipName = `${commonName(
        batch.map((f) => f.name),
        'images',
      )}-compressed.zip`;
      downloadBlob(await zip.generateAsync({ type: 'blob', compression: 'STORE' }), zipName);
      const before = ok.reduce((s, r) => s + r.before, 0);
      const after = ok.reduce((s, r) => s + (r.after ?? 0), 0);
      setMessage(`${zipName} downloaded: ${ok.length} of ${done.length} images, ${savingText(before, after)}.`);
    } finally {
      setBusy(false);
    }
  }

  const locked = disabled || busy;
  return (
    <div className="compress-panel">
      <OptionFields tool={tool} values={values} setValue={setValue} disabled={locked} />

      <div className="preview-line">
        <button type="button" disabled={locked || batch.length === 0} onClick={() => void showPreview()}>
          Preview {batch[0] ? `“${batch[0].name}”` : ''}
        </button>
        {/* A secondary action: Process Files (or Compress all) stays the one primary button. */}
        <label className="picker-button secondary-picker">
          Add more images
          <input
            ref={addRef}
            type="file"
            multiple
            className="visually-hidden-input"
            aria-label="Add more images to compress together"
            accept={[...tool.accepts.extensions, ...tool.accepts.mimeTypes].join(',')}
            disabled={locked}
            onChange={(e) => {
              setExtra((old) => [...old, ...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </label>
        {batch.length > 1 && (
          <button type="button" disabled={locked} onClick={() => void compressAll()}>
            Compress all {batch.length} images (ZIP)
          </button>
        )}
      </div>

      {extra.length > 0 && (
        <p className="hint">
          Batch: {batch.map((f) => f.name).join(', ')}. Process Files compresses the first image; “Compress all”
          compresses every one into a ZIP.{' '}
          <button type="button" className="link-button" disabled={locked} onClick={() => setExtra([])}>
            Clear the batch
          </button>
        </p>
      )}

      {busy && (
        <p className="hint" aria-live="polite">
          Compressing…
        </p>
      )}
      {message && (
        <p className="hint" role="note">
          {message}
        </p>
      )}

      {rows.length > 0 && (
        <ul className="batch-list" aria-label="Compressed images">
          {rows.map((row) => (
            <li key={row.name} className={row.error ? 'failed' : undefined}>
              {row.error
                ? `${row.name}: skipped — ${row.error}`
                : `${row.name}: ${savingText(row.before, row.after ?? 0)}`}
            </li>
          ))}
        </ul>
      )}

      {preview && (
        <CompareSlider
          beforeUrl={preview.before}
          afterUrl={preview.after}
          beforeLabel={`Original · ${formatBytes(preview.beforeSize)}`}
          afterLabel={`Compressed · ${formatBytes(preview.afterSize)}`}
          alt={preview.name}
        />
      )}
    </div>
  );
}

function uniqueName(zip: JSZip, name: string): string {
  if (!zip.file(name)) return name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!zip.file(candidate)) return candidate;
  }
}
