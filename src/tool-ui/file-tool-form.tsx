import { useState } from 'react';
import type { FileToolEntry } from '../catalogue/types.ts';
import { defaultValues } from '../catalogue/index.ts';
import { callTool, downloadBlob, ApiError } from '../api/client.ts';

/** The file-tool frame: picker, options, Process Files, progress, error line (spec §2). Minimal; the pipeline issue completes it. */
export function FileToolForm({ tool }: { tool: FileToolEntry }) {
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  if (!tool.engineReady) return <p>Tool interface coming soon</p>;
  const values = defaultValues(tool);
  async function process() {
    if (files.length === 0) return setError('Please select at least one file');
    setBusy(true);
    setError('');
    try {
      const { startInPageApi } = await import('../../mock-api/browser.ts');
      await startInPageApi();
      const result = await callTool(tool, files, values);
      downloadBlob(result.blob, result.filename);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Processing failed');
    } finally {
      setBusy(false);
    }
  }
  return (
    <div>
      <label>
        {files.length ? `${files.length} files selected` : 'Click to select files'}
        <input type="file" multiple={tool.multiple} accept={tool.accepts.extensions.join(',')} onChange={(e) => setFiles([...(e.target.files ?? [])])} />
      </label>
      <p role="alert">{error}</p>
      <button type="button" disabled={busy || files.length === 0} onClick={process}>Process Files</button>
    </div>
  );
}
