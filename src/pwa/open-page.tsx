import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { fileTools } from '../catalogue/index.ts';
import type { FileToolEntry } from '../catalogue/types.ts';
import { collectSharedFiles, onIncomingFiles } from './incoming-files.ts';
import { plainFileName } from './share-target.ts';

function accepts(tool: FileToolEntry, file: File): boolean {
  const name = file.name.toLowerCase();
  return tool.accepts.mimeTypes.includes(file.type) || tool.accepts.extensions.some((ext) => name.endsWith(ext));
}

/**
 * /open — where files opened with Folio or shared to it land: lists them and the tools that take
 * all of them; choosing one opens that tool with the files already selected.
 */
export function OpenFilesPage() {
  const [files, setFiles] = useState<File[]>([]);
  const [params] = useSearchParams();
  const navigate = useNavigate();

  useEffect(() => onIncomingFiles(setFiles), []);
  useEffect(() => {
    if (params.get('source') === 'share') void collectSharedFiles();
  }, [params]);

  const candidates = fileTools.filter(
    (tool) => files.length > 0 && (tool.multiple || files.length === 1) && files.every((f) => accepts(tool, f)),
  );

  return (
    <section className="page open-files">
      <h1>Open with Folio</h1>
      {files.length === 0 ? (
        <p>
          No files were handed to Folio. Open a PDF or an image with Folio from your file manager, or share it to Folio
          from another app.
        </p>
      ) : (
        <>
          <p>
            {files.length === 1 ? '1 file' : `${files.length} files`} ready:{' '}
            {files.map((f) => plainFileName(f.name)).join(', ')}. They stay on this device.
          </p>
          <h2>Choose a tool</h2>
          <ul className="open-files-tools">
            {candidates.map((tool) => (
              <li key={tool.id}>
                <button
                  type="button"
                  onClick={() => navigate(`/tools/${tool.id}`, { state: { open: true, incoming: true } })}
                >
                  {tool.name}
                </button>
              </li>
            ))}
          </ul>
          {candidates.length === 0 && <p>No tool takes these files together. Try opening them one at a time.</p>}
        </>
      )}
    </section>
  );
}
