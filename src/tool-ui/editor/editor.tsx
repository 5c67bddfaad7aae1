/**
 * The full-screen page editor of Edit PDF. Pages are rendered by pdf.js in the page (its own
 * worker), stacked in a scrolling column with zoom and page navigation; only pages near the
 * viewport are rendered (IntersectionObserver), so long files stay smooth. The tools create
 * objects that the panel turns into the `operations` JSON for /api/pdf/edit.
 *
 * Keyboard: V select, T text, E edit text, I image, P draw, R rectangle, O ellipse, L line,
 * A arrow, H highlight, W whiteout, X redact; Delete removes the selection; arrows nudge it
 * (Shift ×10); Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z or Ctrl+Y redo; +/- zoom; Escape deselects, then closes.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { createPortal } from 'react-dom';
import { openPdfjs, type PDFDocumentProxy } from '../../../workers/pdf-view.ts';
import {
  TOOLS,
  countEdits,
  movedBy,
  newId,
  type EditorAction,
  type EditorObject,
  type EditorState,
  type Style,
  type ToolName,
} from './editor-state.ts';
import { PageView, type PageSize } from './page-view.tsx';
import './editor.css';

interface Props {
  file: File;
  state: EditorState;
  dispatch: (action: EditorAction) => void;
  style: Style;
  setStyle: (style: Style) => void;
  onClose: () => void;
  /** Done: close the editor and save the edited PDF (the frame's action, which downloads it). */
  onDone: () => void;
}

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

async function readImage(file: File): Promise<{ data: string; width: number; height: number }> {
  const data = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('read failed'));
    reader.readAsDataURL(file);
  });
  const size = await new Promise<{ width: number; height: number }>((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight });
    img.onerror = () => reject(new Error('not an image'));
    img.src = data;
  });
  return { data, ...size };
}

export function PageEditor({ file, state, dispatch, style, setStyle, onClose, onDone }: Props) {
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [sizes, setSizes] = useState<PageSize[]>([]);
  const [error, setError] = useState('');
  const [needsPassword, setNeedsPassword] = useState(false);
  const [password, setPassword] = useState('');
  const [attempt, setAttempt] = useState(0);
  const [tool, setTool] = useState<ToolName>('select');
  // A tool is used once, then the editor returns to Select, unless the user keeps it (Keep tool).
  const [keepTool, setKeepTool] = useState(false);
  const onPlaced = useCallback(() => {
    if (!keepTool) setTool('select');
  }, [keepTool]);
  const [zoom, setZoom] = useState(1);
  const [visible, setVisible] = useState<Set<number>>(() => new Set([1]));
  const [currentPage, setCurrentPage] = useState(1);
  const [editing, setEditing] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const imageInputRef = useRef<HTMLInputElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);

  // Open the PDF with pdf.js; page sizes first from page 1, then every page in the background.
  useEffect(() => {
    let cancelled = false;
    let opened: PDFDocumentProxy | undefined;
    (async () => {
      try {
        const bytes = new Uint8Array(await file.arrayBuffer());
        opened = await openPdfjs(bytes, { name: file.name, password: attempt > 0 ? password : undefined });
        if (cancelled) return;
        const first = (await opened.getPage(1)).getViewport({ scale: 1 });
        const initial = Array.from({ length: opened.numPages }, () => ({ width: first.width, height: first.height }));
        setSizes(initial);
        setPdf(opened);
        setNeedsPassword(false);
        const width = scrollRef.current?.clientWidth ?? 800;
        const fit = Math.max(0.25, Math.min(1.5, (width - 32) / first.width));
        setZoom(Math.round(fit * 100) / 100);
        const all = [...initial];
        for (let n = 2; n <= opened.numPages && !cancelled; n++) {
          const viewport = (await opened.getPage(n)).getViewport({ scale: 1 });
          all[n - 1] = { width: viewport.width, height: viewport.height };
          if (n % 50 === 0 || n === opened.numPages) setSizes([...all]);
        }
      } catch (e) {
        if (cancelled) return;
        const name = (e as Error).name;
        if (name === 'PasswordRequired' || name === 'InvalidPassword') {
          setNeedsPassword(true);
          setError(
            name === 'InvalidPassword'
              ? 'Invalid Password'
              : 'This PDF is protected by a password. Enter it to edit the pages.',
          );
        } else setError((e as Error).message || 'This PDF could not be opened.');
      }
    })();
    return () => {
      cancelled = true;
      void opened?.destroy();
    };
    // The password is read when the user retries (attempt changes), not on every keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [file, attempt]);

  // Render only the pages near the viewport.
  useEffect(() => {
    const root = scrollRef.current;
    if (!root || !pdf) return;
    const observer = new IntersectionObserver(
      (entries) => {
        setVisible((old) => {
          const next = new Set(old);
          for (const entry of entries) {
            const n = Number((entry.target as HTMLElement).dataset.page);
            if (entry.isIntersecting) next.add(n);
            else next.delete(n);
          }
          return next;
        });
      },
      { root, rootMargin: '600px 0px' },
    );
    root.querySelectorAll('.ed-page').forEach((el) => observer.observe(el));
    return () => observer.disconnect();
  }, [pdf, sizes.length, zoom]);

  const onScroll = useCallback(() => {
    const root = scrollRef.current;
    if (!root) return;
    const middle = root.getBoundingClientRect().top + root.clientHeight / 3;
    for (const el of root.querySelectorAll<HTMLElement>('.ed-page')) {
      const rect = el.getBoundingClientRect();
      if (rect.bottom >= middle) {
        setCurrentPage(Number(el.dataset.page));
        break;
      }
    }
  }, []);

  const goToPage = (n: number) => {
    const page = Math.min(Math.max(1, n), sizes.length);
    scrollRef.current?.querySelector(`[data-page="${page}"]`)?.scrollIntoView({ block: 'start' });
    setCurrentPage(page);
  };

  const zoomBy = useCallback((direction: 1 | -1) => {
    setZoom((z) => {
      const next = direction > 0 ? ZOOMS.find((v) => v > z + 0.01) : [...ZOOMS].reverse().find((v) => v < z - 0.01);
      return next ?? z;
    });
  }, []);

  const selectedObject = state.objects.find((o) => o.id === state.selected);

  const chooseTool = useCallback((name: ToolName) => {
    setEditing(null);
    if (name === 'image') {
      imageInputRef.current?.click();
      return;
    }
    setTool(name);
  }, []);

  async function addImage(event: ChangeEvent<HTMLInputElement>) {
    const picked = event.target.files?.[0];
    event.target.value = '';
    if (!picked) return;
    if (!/^image\/(png|jpeg)$/.test(picked.type)) {
      setError('Only JPEG and PNG images can be added.');
      return;
    }
    try {
      const image = await readImage(picked);
      const size = sizes[currentPage - 1] ?? { width: 612, height: 792 };
      const width = Math.min(200, size.width * 0.4, image.width);
      const height = (width * image.height) / image.width;
      dispatch({
        type: 'add',
        object: {
          id: newId(),
          type: 'image',
          page: currentPage,
          x: (size.width - width) / 2,
          y: (size.height - height) / 2,
          width,
          height,
          data: image.data,
        },
      });
      setTool('select');
      setError('');
    } catch {
      setError(`"${picked.name}" could not be read as an image.`);
    }
  }

  // Keyboard shortcuts, in the capture phase so Escape does not also close the modal underneath.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && isTyping(event.target)) {
        // Leave the field, but do not let the modal underneath close.
        event.preventDefault();
        event.stopPropagation();
        (event.target as HTMLElement).blur();
        return;
      }
      if (isTyping(event.target)) return;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (mod && key === 'z') {
        event.preventDefault();
        dispatch({ type: event.shiftKey ? 'redo' : 'undo' });
      } else if (mod && key === 'y') {
        event.preventDefault();
        dispatch({ type: 'redo' });
      } else if ((event.key === 'Delete' || event.key === 'Backspace') && state.selected) {
        event.preventDefault();
        dispatch({ type: 'remove', id: state.selected });
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        if (state.selected) dispatch({ type: 'select', id: null });
        else if (tool !== 'select') setTool('select');
        else onClose();
      } else if (event.key.startsWith('Arrow') && selectedObject) {
        event.preventDefault();
        const step = event.shiftKey ? 10 : 1;
        const dx = event.key === 'ArrowLeft' ? -step : event.key === 'ArrowRight' ? step : 0;
        const dy = event.key === 'ArrowUp' ? -step : event.key === 'ArrowDown' ? step : 0;
        dispatch({ type: 'update', id: selectedObject.id, patch: movedBy(selectedObject, dx, dy) });
      } else if (!mod && (key === '+' || key === '=')) zoomBy(1);
      else if (!mod && key === '-') zoomBy(-1);
      else if (!mod && !event.altKey) {
        const match = TOOLS.find((t) => t.key === key);
        if (match) {
          event.preventDefault();
          chooseTool(match.name);
        }
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [state.selected, selectedObject, tool, dispatch, onClose, zoomBy, chooseTool]);

  useEffect(() => {
    dialogRef.current?.focus();
    document.body.classList.add('editor-open');
    return () => document.body.classList.remove('editor-open');
  }, []);

  /** Changes a style value, and the selected object with it. */
  function changeStyle(patch: Partial<Style>) {
    setStyle({ ...style, ...patch });
    const o = selectedObject;
    if (!o) return;
    const objectPatch: Record<string, unknown> = {};
    if (patch.color !== undefined) {
      if (o.type === 'rect' || o.type === 'ellipse') objectPatch.stroke = patch.color;
      else if ('color' in o && o.type !== 'highlight') objectPatch.color = patch.color;
    }
    if (patch.fill !== undefined && (o.type === 'rect' || o.type === 'ellipse')) objectPatch.fill = patch.fill;
    if (patch.highlight !== undefined && o.type === 'highlight') objectPatch.color = patch.highlight;
    if (patch.strokeWidth !== undefined) {
      if (o.type === 'rect' || o.type === 'ellipse') objectPatch.strokeWidth = patch.strokeWidth;
      if (o.type === 'pen' || o.type === 'line' || o.type === 'arrow') objectPatch.width = patch.strokeWidth;
    }
    if (o.type === 'text' || o.type === 'edit-text') {
      if (patch.fontSize !== undefined) objectPatch.size = patch.fontSize;
      if (patch.font !== undefined) objectPatch.font = patch.font;
      if (patch.bold !== undefined) objectPatch.bold = patch.bold;
      if (patch.italic !== undefined) objectPatch.italic = patch.italic;
    }
    if (Object.keys(objectPatch).length)
      dispatch({ type: 'update', id: o.id, patch: objectPatch as Partial<EditorObject> });
  }

  const kind = selectedObject?.type ?? tool;
  const showText = kind === 'text' || kind === 'edit-text';
  const showStroke = ['pen', 'rect', 'ellipse', 'line', 'arrow'].includes(kind);
  const showFill = kind === 'rect' || kind === 'ellipse';
  const currentColor =
    selectedObject && 'color' in selectedObject && selectedObject.type !== 'highlight'
      ? (selectedObject.color ?? style.color)
      : selectedObject && 'stroke' in selectedObject
        ? (selectedObject.stroke ?? style.color)
        : style.color;

  const byPage = useMemo(() => {
    const map = new Map<number, EditorObject[]>();
    for (const o of state.objects) map.set(o.page, [...(map.get(o.page) ?? []), o]);
    return map;
  }, [state.objects]);
  const empty = useMemo(() => [] as EditorObject[], []);
  const count = countEdits(state.objects);

  return createPortal(
    <div
      className="page-editor"
      role="dialog"
      aria-modal="true"
      aria-label={`Edit ${file.name}`}
      ref={dialogRef}
      tabIndex={-1}
    >
      <header className="ed-topbar">
        <div className="ed-title">
          <strong>Edit PDF</strong>
          <span className="ed-filename">{file.name}</span>
        </div>
        <div className="ed-history" role="group" aria-label="History">
          <button
            type="button"
            onClick={() => dispatch({ type: 'undo' })}
            disabled={state.past.length === 0}
            title="Undo (Ctrl+Z)"
          >
            Undo
          </button>
          <button
            type="button"
            onClick={() => dispatch({ type: 'redo' })}
            disabled={state.future.length === 0}
            title="Redo (Ctrl+Shift+Z)"
          >
            Redo
          </button>
          <button
            type="button"
            onClick={() => state.selected && dispatch({ type: 'remove', id: state.selected })}
            disabled={!state.selected}
            title="Delete (Del)"
          >
            Delete
          </button>
        </div>
        <button
          type="button"
          className="primary-action ed-done"
          onClick={count > 0 ? onDone : onClose}
          title={count > 0 ? 'Save the edited PDF and download it' : 'Back to the tool window'}
        >
          {count > 0 ? `Done: save PDF (${count} edit${count === 1 ? '' : 's'})` : 'Done'}
        </button>
      </header>

      <div className="ed-toolbar" role="toolbar" aria-label="Tools">
        {TOOLS.map((t) => (
          <button
            key={t.name}
            type="button"
            className={`ed-tool${tool === t.name ? ' active' : ''}`}
            aria-pressed={tool === t.name}
            title={`${t.label} (${t.key.toUpperCase()})`}
            onClick={() => chooseTool(t.name)}
          >
            {t.label}
          </button>
        ))}
        <button
          type="button"
          className={`ed-tool ed-keep${keepTool ? ' active' : ''}`}
          aria-pressed={keepTool}
          title="Keep the chosen tool after placing something (otherwise the editor goes back to Select)"
          onClick={() => setKeepTool((k) => !k)}
        >
          Keep tool
        </button>
        <input
          ref={imageInputRef}
          type="file"
          accept="image/png,image/jpeg"
          className="ed-hidden"
          aria-label="Image to add"
          onChange={(e) => void addImage(e)}
        />
      </div>

      <div className="ed-props" aria-label="Properties">
        {(showText || showStroke || kind === 'select') && (
          <label>
            Colour <input type="color" value={currentColor} onChange={(e) => changeStyle({ color: e.target.value })} />
          </label>
        )}
        {showText && (
          <>
            <label>
              Font
              <select
                value={selectedObject && 'font' in selectedObject ? selectedObject.font : style.font}
                onChange={(e) => changeStyle({ font: e.target.value as Style['font'] })}
              >
                <option value="sans">Sans (Helvetica)</option>
                <option value="serif">Serif (Times)</option>
                <option value="mono">Mono (Courier)</option>
              </select>
            </label>
            <label>
              Size
              <input
                type="number"
                min={4}
                max={300}
                value={selectedObject && 'size' in selectedObject ? selectedObject.size : style.fontSize}
                onChange={(e) => changeStyle({ fontSize: Math.max(4, Math.min(300, Number(e.target.value) || 12)) })}
              />
            </label>
            <label className="ed-check">
              <input
                type="checkbox"
                checked={selectedObject && 'bold' in selectedObject ? !!selectedObject.bold : style.bold}
                onChange={(e) => changeStyle({ bold: e.target.checked })}
              />{' '}
              Bold
            </label>
            <label className="ed-check">
              <input
                type="checkbox"
                checked={selectedObject && 'italic' in selectedObject ? !!selectedObject.italic : style.italic}
                onChange={(e) => changeStyle({ italic: e.target.checked })}
              />{' '}
              Italic
            </label>
          </>
        )}
        {showStroke && (
          <label>
            Width
            <input
              type="range"
              min={1}
              max={20}
              value={style.strokeWidth}
              onChange={(e) => changeStyle({ strokeWidth: Number(e.target.value) })}
            />
          </label>
        )}
        {showFill && (
          <>
            <label className="ed-check">
              <input
                type="checkbox"
                checked={style.fill !== null}
                onChange={(e) => changeStyle({ fill: e.target.checked ? '#93c5fd' : null })}
              />{' '}
              Fill
            </label>
            {style.fill !== null && (
              <input
                type="color"
                aria-label="Fill colour"
                value={style.fill}
                onChange={(e) => changeStyle({ fill: e.target.value })}
              />
            )}
          </>
        )}
        {kind === 'highlight' && (
          <label>
            Highlight{' '}
            <input type="color" value={style.highlight} onChange={(e) => changeStyle({ highlight: e.target.value })} />
          </label>
        )}
        {kind === 'redact' && (
          <span className="ed-hint">Drag over text or images: they are removed from the file, not only covered.</span>
        )}
        {kind === 'whiteout' && (
          <span className="ed-hint">
            Covers the area with white (the content underneath stays in the file — use Redact to remove it).
          </span>
        )}
        {kind === 'edit-text' && !selectedObject && (
          <span className="ed-hint">Click a line of text to replace it.</span>
        )}
        {kind === 'pen' && <span className="ed-hint">Draw with the mouse, a pen or a finger.</span>}
      </div>

      <div className="ed-pages" ref={scrollRef} onScroll={onScroll}>
        {!pdf && !error && (
          <p className="ed-status" aria-busy="true">
            Opening {file.name}…
          </p>
        )}
        {needsPassword && (
          <form
            className="ed-password"
            onSubmit={(e) => {
              e.preventDefault();
              setError('');
              setAttempt((a) => a + 1);
            }}
          >
            <label>
              PDF password{' '}
              <input
                type="password"
                autoComplete="off"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            <button type="submit">Open</button>
          </form>
        )}
        {error && (
          <p role="alert" className="ed-error">
            {error}
          </p>
        )}
        {pdf &&
          sizes.map((size, i) => (
            <PageView
              key={i + 1}
              pdf={pdf}
              pageNumber={i + 1}
              size={size}
              zoom={zoom}
              visible={visible.has(i + 1)}
              objects={byPage.get(i + 1) ?? empty}
              selected={state.selected}
              editing={editing}
              tool={tool}
              style={style}
              dispatch={dispatch}
              setEditing={setEditing}
              onPlaced={onPlaced}
            />
          ))}
      </div>

      <footer className="ed-bottombar">
        <div className="ed-nav" role="group" aria-label="Pages">
          <button
            type="button"
            onClick={() => goToPage(currentPage - 1)}
            disabled={currentPage <= 1}
            aria-label="Previous page"
          >
            ‹
          </button>
          <label>
            Page{' '}
            <input
              type="number"
              min={1}
              max={sizes.length || 1}
              value={currentPage}
              onChange={(e) => goToPage(Number(e.target.value))}
              aria-label="Page number"
            />{' '}
            of {sizes.length}
          </label>
          <button
            type="button"
            onClick={() => goToPage(currentPage + 1)}
            disabled={currentPage >= sizes.length}
            aria-label="Next page"
          >
            ›
          </button>
        </div>
        <div className="ed-zoom" role="group" aria-label="Zoom">
          <button type="button" onClick={() => zoomBy(-1)} aria-label="Zoom out">
            −
          </button>
          <span>{Math.round(zoom * 100)}%</span>
          <button type="button" onClick={() => zoomBy(1)} aria-label="Zoom in">
            +
          </button>
        </div>
      </footer>
    </div>,
    document.body,
  );
}
