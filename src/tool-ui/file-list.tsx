/**
 * The list of selected files: first-page thumbnail and page count of each PDF (from its check,
 * pdf-checks.ts; drawn only when the row scrolls into view), name and size, remove, and for
 * multi-file tools reorder by drag
 * (pointer or touch via the native drag events) or by the Move up / Move down buttons, and sort
 * by name. Order matters: merge-pdf and jpg-to-pdf process files in this order.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { formatBytes } from '../../shared/format.ts';
import type { PdfCheck } from './pdf-checks.ts';
import type { ThumbnailSource } from '../../workers/bridge.ts';
import { cjkFontNote } from '../../shared/cjk-font-note.ts';

/** Longer side of a list thumbnail in CSS pixels. */
const LIST_THUMB_PX = 44;

/** Page 1 of an opened PDF, drawn when the row first comes into view. */
function FirstPage({ source }: { source: ThumbnailSource }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [url, setUrl] = useState<string>();
  const [fontNote, setFontNote] = useState<string>();
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let cancelled = false;
    let made: string | undefined;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      const px = Math.round(LIST_THUMB_PX * Math.min(2, globalThis.devicePixelRatio || 1));
      source.render(1, px).then(
        ({ image, cjkFontMissing }) => {
          if (cancelled) return;
          made = URL.createObjectURL(image);
          setUrl(made);
          setFontNote(cjkFontMissing ? cjkFontNote([1], 'previews') : undefined);
        },
        () => undefined /* the placeholder stays; the page count is still right */,
      );
    });
    observer.observe(element);
    return () => {
      cancelled = true;
      observer.disconnect();
      if (made) URL.revokeObjectURL(made);
    };
  }, [source]);
  return (
    // A picture this small hardly shows the boxes: the note is its tooltip (the page grid shows it as text).
    <span ref={ref} className="file-thumb" title={fontNote}>
      {url ? <img src={url} alt="" data-testid="first-page" /> : <span className="file-thumb-empty" />}
    </span>
  );
}

function CheckSummary({ check }: { check: PdfCheck }) {
  switch (check.state) {
    case 'checking':
      return (
        <span className="file-pages" aria-busy="true">
          Reading…
        </span>
      );
    case 'ready':
      return (
        <span className="file-pages">
          {check.pages} page{check.pages === 1 ? '' : 's'}
        </span>
      );
    case 'locked':
      return <span className="file-pages file-locked">{check.wrong ? 'Wrong password' : 'Needs its password'}</span>;
    case 'damaged':
      return (
        <span className="file-pages file-damaged" title={check.message}>
          {check.cutShort ? 'Cut short: Folio will use what is there' : 'Damaged: Folio will try to repair it'}
        </span>
      );
    case 'refused':
      return (
        <span className="file-pages file-damaged" title={check.message}>
          Refused: too large to open safely
        </span>
      );
    case 'timed-out':
      return <span className="file-pages file-slow">Pages not counted (it took too long)</span>;
  }
}

export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  return next;
}

const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** A number per File object, so a row keeps its element (and its focused button) when it moves. */
const fileIds = new WeakMap<File, number>();
let lastFileId = 0;
function fileId(file: File): number {
  let id = fileIds.get(file);
  if (id === undefined) fileIds.set(file, (id = ++lastFileId));
  return id;
}

/** Row keys: the file's number, and which copy of it this is (the same file may be added twice). */
function rowKeys(files: readonly File[]): string[] {
  const seen = new Map<File, number>();
  return files.map((file) => {
    const copy = seen.get(file) ?? 0;
    seen.set(file, copy + 1);
    return `${fileId(file)}-${copy}`;
  });
}

type Action = 'up' | 'down' | 'remove';
/** Where keyboard focus goes after a row button changed the list (a disabled or removed button loses it). */
type FocusRequest = { row: number; action: Action };

export function FileList({
  files,
  setFiles,
  multiple,
  disabled,
  checks,
}: {
  files: readonly File[];
  /** PDF checks by file (page count, thumbnail, password, damage); none for other files. */
  checks?: ReadonlyMap<File, PdfCheck>;
  setFiles: (files: File[]) => void;
  multiple: boolean;
  disabled: boolean;
}) {
  const [dragIndex, setDragIndex] = useState<number | null>(null);
  const [overIndex, setOverIndex] = useState<number | null>(null);
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const total = files.reduce((sum, f) => sum + f.size, 0);
  const keys = rowKeys(files);

  // Moving a file to the top or bottom disables the button just pressed, and removing a file
  // removes it: either way the browser would drop focus to the page behind the dialog. Focus
  // stays on the same row's other arrow, or the next row's Remove, or the dialog.
  useLayoutEffect(() => {
    if (!focusRequest) return;
    setFocusRequest(null);
    const rows = listRef.current?.querySelectorAll('li') ?? [];
    const row = rows[Math.min(focusRequest.row, rows.length - 1)];
    const button = (action: Action) =>
      row?.querySelector<HTMLButtonElement>(`button[data-action="${action}"]:not(:disabled)`);
    const target =
      focusRequest.action === 'remove'
        ? button('remove')
        : (button(focusRequest.action) ?? button(focusRequest.action === 'up' ? 'down' : 'up') ?? button('remove'));
    (target ?? listRef.current?.closest<HTMLElement>('[role="dialog"]'))?.focus();
  }, [focusRequest]);
  return (
    <div className="file-list-block">
      {multiple && files.length > 1 && (
        <div className="file-list-tools">
          <span>
            {files.length} files · {formatBytes(total)} · drag to reorder
          </span>
          <button
            type="button"
            disabled={disabled}
            onClick={() => setFiles([...files].sort((a, b) => byName.compare(a.name, b.name)))}
          >
            Sort by name
          </button>
        </div>
      )}
      <ol className="file-list" aria-label="Selected files" ref={listRef}>
        {files.map((file, index) => (
          <li
            key={keys[index]}
            className={
              `${dragIndex === index ? 'dragging' : ''}` +
              `${overIndex === index && dragIndex !== index ? ' drop-target' : ''}`
            }
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
            {multiple && (
              <span className="drag-handle" aria-hidden="true">
                ⋮⋮
              </span>
            )}
            {checks?.has(file) &&
              (() => {
                const check = checks.get(file)!;
                if (check.state === 'ready') return <FirstPage source={check.source} />;
                return (
                  <span className="file-thumb">
                    <span className="file-thumb-empty" />
                  </span>
                );
              })()}
            <span className="file-text">
              <span className="file-name" title={file.name}>
                {file.name}
              </span>
              <span className="file-facts">
                <span className="file-size">{formatBytes(file.size)}</span>
                {checks?.has(file) && <CheckSummary check={checks.get(file)!} />}
              </span>
            </span>
            {multiple && (
              <>
                <button
                  type="button"
                  className="small"
                  aria-label={`Move up: ${file.name}`}
                  title="Move up"
                  data-action="up"
                  disabled={disabled || index === 0}
                  onClick={() => {
                    setFiles(moveItem(files, index, index - 1));
                    setFocusRequest({ row: index - 1, action: 'up' });
                  }}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="small"
                  aria-label={`Move down: ${file.name}`}
                  title="Move down"
                  data-action="down"
                  disabled={disabled || index === files.length - 1}
                  onClick={() => {
                    setFiles(moveItem(files, index, index + 1));
                    setFocusRequest({ row: index + 1, action: 'down' });
                  }}
                >
                  ↓
                </button>
              </>
            )}
            <button
              type="button"
              className="small"
              aria-label={`Remove: ${file.name}`}
              title="Remove"
              data-action="remove"
              disabled={disabled}
              onClick={(event) => {
                // The list goes away with its last file: the file picker takes the focus.
                if (files.length === 1) {
                  event.currentTarget
                    .closest('[role="dialog"]')
                    ?.querySelector<HTMLElement>('input[type=file]')
                    ?.focus();
                }
                setFiles(files.filter((_, i) => i !== index));
                setFocusRequest({ row: index, action: 'remove' });
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
