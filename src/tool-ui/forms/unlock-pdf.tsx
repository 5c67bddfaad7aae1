/**
 * unlock-pdf's options: the password (show/hide), and a batch section that unlocks several files
 * with the same password.
 *
 * Batch keeps the /api contract (one `file` per call to /api/pdf/unlock): the section
 * calls the API once per file, in order, lists each file's outcome ('Invalid Password', not
 * encrypted…), and downloads the unlocked files together as unlocked-pdfs.zip (or the file itself
 * when only one succeeded). The frame's own Process Files keeps handling the single file it holds.
 *
 * The password lives only in this modal's React state and is sent only to the in-page API.
 */
import { useId, useRef, useState } from 'react';
import type { FileToolPanelProps } from './registry.ts';
import { ApiError, callTool, downloadBlob } from '../../api/client.ts';
import './secure-pdf.css';

type Outcome = { file: File; state: 'waiting' | 'working' | 'done' | 'failed'; message?: string };

export default function UnlockPdfPanel({ tool, values, setValue, disabled }: FileToolPanelProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  const [batch, setBatch] = useState<Outcome[]>([]);
  const [running, setRunning] = useState(false);
  const controllerRef = useRef<AbortController | null>(null);
  const password = String(values.password ?? '');

  function pick(files: readonly File[]) {
    const pdfs = files.filter((f) => f.name.toLowerCase().endsWith('.pdf') || f.type === 'application/pdf');
    setBatch(pdfs.map((file) => ({ file, state: 'waiting' })));
  }

  async function unlockAll() {
    const controller = new AbortController();
    controllerRef.current = controller;
    setRunning(true);
    const outcomes: Outcome[] = batch.map((o) => ({ file: o.file, state: 'waiting' }));
    const results: Array<{ name: string; blob: Blob }> = [];
    setBatch([...outcomes]);
    try {
      for (let i = 0; i < outcomes.length; i++) {
        if (controller.signal.aborted) break;
        outcomes[i] = { ...outcomes[i], state: 'working' };
        setBatch([...outcomes]);
        try {
          const result = await callTool(tool, [outcomes[i].file], { password }, { signal: controller.signal });
          results.push({ name: result.filename, blob: result.blob });
          outcomes[i] = { ...outcomes[i], state: 'done', message: 'Unlocked' };
        } catch (error) {
          const message = error instanceof ApiError ? error.message : 'Processing failed';
          outcomes[i] = { ...outcomes[i], state: 'failed', message };
        }
        setBatch([...outcomes]);
      }
      if (results.length === 1) downloadBlob(results[0].blob, results[0].name);
      if (results.length > 1) {
        const { default: JSZip } = await import('jszip');
        const zip = new JSZip();
        const used = new Set<string>();
        for (const { name, blob } of results) {
          // Two inputs of the same name must not overwrite each other in the archive.
          let entry = name;
          for (let n = 2; used.has(entry); n++) entry = name.replace(/\.pdf$/i, ` (${n}).pdf`);
          used.add(entry);
          zip.file(entry, blob);
        }
        downloadBlob(await zip.generateAsync({ type: 'blob', compression: 'STORE' }), 'unlocked-pdfs.zip');
      }
    } finally {
      setRunning(false);
      controllerRef.current = null;
    }
  }

  const unlocked = batch.filter((o) => o.state === 'done').length;
  const finished = !running && batch.some((o) => o.state === 'done' || o.state === 'failed');
  return (
    <div className="option-fields secure-pdf">
      <div className="option-field">
        <label htmlFor={`${id}-password`}>Password</label>
        <div className="secure-input-line">
          <input
            id={`${id}-password`}
            name="password"
            type={visible ? 'text' : 'password'}
            autoComplete="current-password"
            spellCheck={false}
            value={password}
            disabled={disabled || running}
            aria-describedby={`${id}-help`}
            onChange={(e) => setValue('password', e.target.value)}
          />
          <button
            type="button"
            className="small"
            aria-pressed={visible}
            onClick={() => setVisible((v) => !v)}
            disabled={disabled || running}
          >
            {visible ? 'Hide' : 'Show'}
          </button>
        </div>
        <small id={`${id}-help`} className="option-help">
          The password that opens the file, or its permissions password. Files that only restrict printing, copying or
          editing need none: leave it empty.
        </small>
      </div>

      <details className="secure-batch">
        <summary>Unlock several files with this password</summary>
        <div className="secure-batch-body">
          <label className="picker-button secure-batch-picker">
            <span>
              {batch.length ? `${batch.length} file${batch.length === 1 ? '' : 's'} for the batch` : 'Choose PDF files'}
            </span>
            <input
              type="file"
              className="visually-hidden-input"
              multiple
              accept=".pdf,application/pdf"
              disabled={disabled || running}
              aria-label="PDF files to unlock together"
              onChange={(e) => {
                pick([...(e.target.files ?? [])]);
                e.target.value = '';
              }}
            />
          </label>
          {batch.length > 0 && (
            <ul className="secure-batch-list" aria-label="Batch files">
              {batch.map((o, index) => (
                <li key={`${o.file.name}-${index}`} className={`batch-${o.state}`}>
                  <span className="file-name">{o.file.name}</span>
                  <span className="batch-state">
                    {o.state === 'waiting' ? '' : o.state === 'working' ? 'Unlocking…' : o.message}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <div className="button-line">
            <button type="button" disabled={disabled || running || batch.length === 0} onClick={() => void unlockAll()}>
              {`Unlock all${batch.length ? ` (${batch.length})` : ''}`}
            </button>
            {running && (
              <button type="button" onClick={() => controllerRef.current?.abort()}>
                Stop
              </button>
            )}
          </div>
          {finished && (
            <p role="status" className="option-help">
              {unlocked} of {batch.length} unlocked
              {unlocked > 1 ? ': downloaded as unlocked-pdfs.zip' : unlocked === 1 ? ' and downloaded' : ''}.
            </p>
          )}
        </div>
      </details>
    </div>
  );
}
