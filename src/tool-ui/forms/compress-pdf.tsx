/**
 * Compress PDF options (level, or custom quality / resolution, or a target size; grayscale; remove
 * metadata) and a page-1 preview: the PDF is compressed with the current settings and page 1 of
 * the original and of the result are rendered (through the PDF-to-JPG engine, as PNG at 72 dpi)
 * and shown with a compare slider and their sizes. The compressed PDF is remembered
 * (result-memo.ts): Process Files with the same file and settings downloads it without a second run.
 */
import { useEffect, useState } from 'react';
import type { FileToolPanelProps } from './registry.ts';
import type { OptionValues } from '../../catalogue/types.ts';
import { OptionFields } from '../option-fields.tsx';
import { formatBytes } from '../../../shared/format.ts';
import { CompareSlider } from '../compare-slider.tsx';
import { ApiError, callTool } from '../../api/client.ts';
import { defaultValues } from '../../catalogue/index.ts';
import { tool as pdfToJpg } from '../../catalogue/tools/pdf-to-jpg.ts';
import { rememberResult } from '../result-memo.ts';

const LEVEL_HELP: Record<string, string> = {
  light:
    'Keeps images sharp enough to print (up to 300 dpi) and never makes lossless images lossy. Smallest change, ' +
    'smallest saving.',
  recommended:
    'Images above 150 dpi are scaled down and photos re-encoded with MozJPEG: documents stay crisp on screen ' +
    'and usually shrink a lot.',
  strong: 'Images to 96 dpi at lower JPEG quality: the smallest file, for sharing; fine print in scans may blur.',
  custom: 'Choose the JPEG quality and the highest image resolution yourself.',
  target:
    'Folio tries gentle settings first and keeps the first result under your size. Text, fonts and drawings ' +
    'cannot shrink below a point: Folio says so when the target is out of reach.',
};

async function renderFirstPage(file: File): Promise<Blob> {
  const values: OptionValues = {
    ...defaultValues(pdfToJpg),
    mode: 'pages',
    resolution: '72',
    format: 'png',
    pages: '1',
  };
  return (await callTool(pdfToJpg, [file], values)).blob;
}

interface Preview {
  before: string;
  after: string;
  beforeSize: number;
  afterSize: number;
  notes: string[];
}

export default function CompressPdfPanel({ tool, files, values, setValue, disabled }: FileToolPanelProps) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const level = String(values.level ?? 'recommended');

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
    const file = files[0];
    if (!file) return;
    setBusy(true);
    setMessage('');
    try {
      const compressed = await callTool(tool, [file], values);
      rememberResult(tool.id, [file], values, compressed);
      const compressedFile = new File([compressed.blob], compressed.filename, { type: 'application/pdf' });
      const [before, after] = await Promise.all([renderFirstPage(file), renderFirstPage(compressedFile)]);
      setPreview({
        before: URL.createObjectURL(before),
        after: URL.createObjectURL(after),
        beforeSize: file.size,
        afterSize: compressed.blob.size,
        notes: compressed.notes,
      });
    } catch (e) {
      setMessage(e instanceof ApiError ? e.message : 'Processing failed');
    } finally {
      setBusy(false);
    }
  }

  const saving = preview ? Math.round((1 - preview.afterSize / preview.beforeSize) * 100) : 0;
  return (
    <div className="compress-panel">
      <OptionFields tool={tool} values={values} setValue={setValue} disabled={disabled || busy} />
      <p className="hint">{LEVEL_HELP[level]}</p>
      <div className="preview-line">
        <button type="button" disabled={disabled || busy || files.length === 0} onClick={() => void showPreview()}>
          Preview page 1
        </button>
        {busy && (
          <span className="hint" aria-live="polite">
            Compressing and rendering page 1…
          </span>
        )}
      </div>
      {message && (
        <p className="hint" role="note">
          {message}
        </p>
      )}
      {preview && (
        <>
          <CompareSlider
            beforeUrl={preview.before}
            afterUrl={preview.after}
            beforeLabel={`Original · ${formatBytes(preview.beforeSize)}`}
            afterLabel={`Compressed · ${formatBytes(preview.afterSize)}${saving > 0 ? ` (−${saving}%)` : ''}`}
            alt="Page 1"
          />
          {preview.notes.length > 0 && (
            <ul className="batch-list">
              {preview.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
