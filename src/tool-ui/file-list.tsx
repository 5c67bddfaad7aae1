/**
 * The list of selected files: name and size, remove, and for multi-file tools reorder by drag
 * (pointer or touch via the native drag events) or by the Move up / Move down buttons, and sort
 * by name. Order matters: merge-pdf and jpg-to-pdf process files in this order.
 */
import { useState } from 'react';
import { formatBytes } from '../../shared/format.ts';


export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  return next;
}

const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function FileList({ files, setFiles, multiple, disabled }: {
  files: readonly File[];
  setFiles: (files: File[]) => void;
  multiple: boolean;
  disabled: boolean;
}) {
  const [dragIndex, setDragIndex] = useState<number | null>(null);
  const [overIndex, setOverIndex] = useState<number | null>(null);
  const total = files.reduce((sum, f) => sum + f.size, 0);
  return (
    <div className="file-list-block">
      {multiple && files.length > 1 && (
        <div className="file-list-tools">
          <span>{files.length} files · {formatBytes(total)} · drag to reorder</span>
          <button type="button" disabled={disabled} onClick={() => setFiles([...files].sort((a, b) => byName.compare(a.name, b.name)))}>
            Sort by name
          </button>
        </div>
      )}
      <ol className="file-list" aria-label="Selected files">
        {files.map((file, index) => (
          <li
            key={`${file.name}-${file.size}-${file.lastModified}-${index}`}
            className={`${dragIndex === index ? 'dragging' : ''}${overIndex === index && dragIndex !== index ? ' drop-target' : ''}`}
            draggable={multiple && !disabled}
            onDragStart={(e) => {
              setDragIndex(index);
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', String(index));
            }}
            onDragOver={(e) => {
              if (dragIndex === null) return; // files dragged in from outside go to the drop zone
              e.preventDefault();
              e.stopPropagation();
              setOverIndex(index);
            }}
            onDrop={(e) => {
              if (dragIndex === null) return;
              e.preventDefault();
              e.stopPropagation();
              setFiles(moveItem(files, dragIndex, index));
              setDragIndex(null);
              setOverIndex(null);
            }}
            onDragEnd={() => {
              setDragIndex(null);
              setOverIndex(null);
            }}
          >
            {multiple && <span className="drag-handle" aria-hidden="true">⋮⋮</span>}
            <span className="file-name" title={file.name}>{file.name}</span>
            <span className="file-size">{formatBytes(file.size)}</span>
            {multiple && (
              <>
                <button type="button" className="small" aria-label={`Move up: ${file.name}`} title="Move up" disabled={disabled || index === 0} onClick={() => setFiles(moveItem(files, index, index - 1))}>↑</button>
                <button type="button" className="small" aria-label={`Move down: ${file.name}`} title="Move down" disabled={disabled || index === files.length - 1} onClick={() => setFiles(moveItem(files, index, index + 1))}>↓</button>
              </>
            )}
            <button type="button" className="small" aria-label={`Remove: ${file.name}`} title="Remove" disabled={disabled} onClick={() => setFiles(files.filter((_, i) => i !== index))}>×</button>
          </li>
        ))}
      </ol>
    </div>
  );
}
