/**
 * Page thumbnails for any tool's panel (rotate, organize, watermark, edit …): pdf.js renders them in
 * a worker of their own (workers/bridge.ts openThumbnails → OffscreenCanvas → JPEG), only when a
 * tile scrolls into view (IntersectionObserver), two at a time, so a 500-page file opens at once.
 *
 *   const source = usePdfThumbnails(file, password);      // { pages, error, source }
 *   <PageThumbnails source={source} tiles={...} selected={...} onTileClick={...} onReorder={...} />
 *
 * A tile is a source page (1-based) shown with an extra rotation (CSS), or a blank page. Tiles
 * are buttons (role=button, aria-pressed when selectable) named "Page N"; drag-and-drop reorder
 * calls onReorder(from, to) with tile indices. Pages whose CJK text was drawn without its font (offline
 * before the CJK fonts were saved) are named in a note under the grid, as a result's notes are.
 */
import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { openThumbnails, type ThumbnailSource } from '../../workers/bridge.ts';
import { cjkFontNote } from '../../shared/cjk-font-note.ts';

export interface ThumbnailState {
  source?: ThumbnailSource;
  /** Pages of the document, with size and /Rotate; empty while loading. */
  pages: ThumbnailSource['pages'];
  /** Why thumbnails cannot be shown (e.g. a password is needed); the tool can still run. */
  error?: string;
  /** The document needs a password (show the frame's password field, then pass it here). */
  needsPassword: boolean;
  loading: boolean;
}

/** Opens `file` for thumbnails (and closes it when the file changes or the panel goes). */
export function usePdfThumbnails(file: File | undefined, password?: string): ThumbnailState {
  const [state, setState] = useState<ThumbnailState>({ pages: [], needsPassword: false, loading: false });
  useEffect(() => {
    if (!file) {
      setState({ pages: [], needsPassword: false, loading: false });
      return;
    }
    let cancelled = false;
    let opened: ThumbnailSource | undefined;
    setState({ pages: [], needsPassword: false, loading: true });
    openThumbnails(file, password || undefined).then(
      (source) => {
        if (cancelled) return source.close();
        opened = source;
        setState({ source, pages: source.pages, needsPassword: false, loading: false });
      },
      (error: unknown) => {
        if (cancelled) return;
        const name = (error as { name?: string }).name;
        const needsPassword = name === 'PasswordRequired' || name === 'InvalidPassword';
        const message = needsPassword
          ? 'This PDF is locked: the page previews appear once its password is typed above.'
          : `No page previews: ${(error as Error).message || 'the file could not be read'}`;
        setState({ pages: [], error: message, needsPassword, loading: false });
      },
    );
    return () => {
      cancelled = true;
      opened?.close();
    };
  }, [file, password]);
  return state;
}

export interface Tile {
  /** Stable identity across reorders (e.g. "p3", "p3-copy1", "blank-2"). */
  key: string;
  /** Source page, 1-based; absent for a blank page. */
  page?: number;
  /** Extra clockwise rotation shown on top of the page's own (0, 90, 180, 270). */
  rotation?: number;
  /** Caption; defaults to "Page N" / "Blank page". */
  label?: string;
}

export interface PageThumbnailsProps {
  state: ThumbnailState;
  /** Tiles in display order; default: every page once. */
  tiles?: readonly Tile[];
  selected?: ReadonlySet<string>;
  onTileClick?: (key: string, event: MouseEvent<HTMLButtonElement>) => void;
  onReorder?: (from: number, to: number) => void;
  /** Longer side of a thumbnail in CSS pixels (rendered at device pixel ratio). */
  size?: number;
  disabled?: boolean;
  label?: string;
}

/** Renders queued thumbnails two at a time; tiles ask for theirs when they become visible. */
class RenderQueue {
  private running = 0;
  private readonly waiting: Array<() => Promise<void>> = [];
  push(job: () => Promise<void>): void {
    this.waiting.push(job);
    this.next();
  }
  private next(): void {
    while (this.running < 2 && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.running += 1;
      void job().finally(() => {
        this.running -= 1;
        this.next();
      });
    }
  }
}

export function PageThumbnails({
  state,
  tiles,
  selected,
  onTileClick,
  onReorder,
  size = 110,
  disabled = false,
  label = 'Pages',
}: PageThumbnailsProps) {
  const queueRef = useRef(new RenderQueue());
  const [urls, setUrls] = useState<Record<number, string>>({});
  /** Pages drawn with empty boxes for CJK text whose font could not be loaded. */
  const [fontless, setFontless] = useState<number[]>([]);
  const requested = useRef(new Set<number>());
  const [dragIndex, setDragIndex] = useState<number | null>(null);
  const [overIndex, setOverIndex] = useState<number | null>(null);
  const { source } = state;

  // New document: forget the old pictures.
  useEffect(() => {
    requested.current = new Set();
    setUrls({});
    setFontless([]);
  }, [source]);
  useEffect(() => () => Object.values(urls).forEach((url) => URL.revokeObjectURL(url)), [urls]);

  const list: readonly Tile[] = tiles ?? state.pages.map((_, i) => ({ key: `p${i + 1}`, page: i + 1 }));
  const pixelSize = Math.round(size * Math.min(2, globalThis.devicePixelRatio || 1));

  const want = useCallback(
    (page: number) => {
      if (!source || requested.current.has(page)) return;
      requested.current.add(page);
      queueRef.current.push(async () => {
        try {
          const { image, cjkFontMissing } = await source.render(page, pixelSize);
          const url = URL.createObjectURL(image);
          setUrls((old) => ({ ...old, [page]: url }));
          if (cjkFontMissing) setFontless((old) => [...old, page]);
        } catch {
          /* the placeholder stays: the page could not be drawn, the tool still works on it */
        }
      });
    },
    [source, pixelSize],
  );

  if (state.error) return <p className="thumb-message">{state.error}</p>;
  if (state.loading)
    return (
      <p className="thumb-message" aria-busy="true">
        Loading page previews…
      </p>
    );
  if (list.length === 0) return null;

  return (
    <>
      <div className="page-grid" role="group" aria-label={label}>
        {list.map((tile, index) => (
          <ThumbnailTile
            key={tile.key}
            tile={tile}
            url={tile.page ? urls[tile.page] : undefined}
            pageRotate={tile.page ? (state.pages[tile.page - 1]?.rotate ?? 0) : 0}
            want={want}
            selected={selected?.has(tile.key)}
            selectable={Boolean(selected)}
            disabled={disabled}
            draggable={Boolean(onReorder) && !disabled}
            dragging={dragIndex === index}
            dropTarget={overIndex === index && dragIndex !== null && dragIndex !== index}
            onClick={(event) => onTileClick?.(tile.key, event)}
            onDragStart={() => setDragIndex(index)}
            onDragOver={() => setOverIndex(index)}
            onDrop={() => {
              if (dragIndex !== null && dragIndex !== index) onReorder?.(dragIndex, index);
              setDragIndex(null);
              setOverIndex(null);
            }}
            onDragEnd={() => {
              setDragIndex(null);
              setOverIndex(null);
            }}
          />
        ))}
      </div>
      {fontless.length > 0 && (
        <ul className="result-notes" aria-label="About the page previews">
          <li>{cjkFontNote(fontless, 'previews')}</li>
        </ul>
      )}
    </>
  );
}

function ThumbnailTile(props: {
  tile: Tile;
  url?: string;
  pageRotate: number;
  want: (page: number) => void;
  selected?: boolean;
  selectable: boolean;
  disabled: boolean;
  draggable: boolean;
  dragging: boolean;
  dropTarget: boolean;
  onClick: (event: MouseEvent<HTMLButtonElement>) => void;
  onDragStart: () => void;
  onDragOver: () => void;
  onDrop: () => void;
  onDragEnd: () => void;
}) {
  const { tile, url, want } = props;
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || !tile.page || url) return;
    const page = tile.page;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          want(page);
          observer.disconnect();
        }
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [tile.page, url, want]);

  const caption = tile.label ?? (tile.page ? `Page ${tile.page}` : 'Blank page');
  const rotation = tile.rotation ?? 0;
  return (
    <button
      ref={ref}
      type="button"
      className={
        `page-tile${props.selected ? ' selected' : ''}${props.dragging ? ' dragging' : ''}` +
        `${props.dropTarget ? ' drop-target' : ''}`
      }
      aria-pressed={props.selectable ? Boolean(props.selected) : undefined}
      aria-label={`${caption}${rotation ? `, rotated ${rotation}°` : ''}`}
      disabled={props.disabled}
      draggable={props.draggable}
      onClick={props.onClick}
      onDragStart={(e) => {
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', tile.key);
        props.onDragStart();
      }}
      onDragOver={(e) => {
        e.preventDefault();
        e.stopPropagation();
        props.onDragOver();
      }}
      onDrop={(e) => {
        e.preventDefault();
        e.stopPropagation();
        props.onDrop();
      }}
      onDragEnd={props.onDragEnd}
    >
      <span className="thumb-box">
        {tile.page && url ? (
          <img
            src={url}
            alt=""
            draggable={false}
            className={rotation % 180 !== 0 ? 'quarter-turn' : undefined}
            style={rotation ? { transform: `rotate(${rotation}deg)` } : undefined}
          />
        ) : (
          <span
            className="thumb-placeholder"
            style={!tile.page ? { background: '#fff', border: '1px dashed var(--border-strong)' } : undefined}
          />
        )}
      </span>
      <span className="page-label">{caption}</span>
      {rotation !== 0 && <span className="page-badge">{rotation}°</span>}
    </button>
  );
}
