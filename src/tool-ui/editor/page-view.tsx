/**
 * One page of the editor: the pdf.js rendering (only while the page is near the viewport, so a
 * 300-page file stays light), the objects placed on it, and the pointer gestures that create,
 * select, move and resize them. Pointer events cover mouse, pen and touch alike; drawing tools set
 * `touch-action: none` so a finger draws instead of scrolling.
 */
import { memo, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { PDFDocumentProxy } from '../../../workers/pdf-view.ts';
import { BASELINE_EM, LINE_HEIGHT_EM, type FontFamily } from '../../../shared/edit-operations.ts';
import {
  CSS_FONT,
  boundsOf,
  movedBy,
  newId,
  type EditorAction,
  type EditorObject,
  type Style,
  type ToolName,
} from './editor-state.ts';

export interface PageSize {
  width: number;
  height: number;
}

interface TextCandidate {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
  baseline: number;
  size: number;
  font: FontFamily;
}

interface Props {
  pdf: PDFDocumentProxy;
  pageNumber: number;
  size: PageSize;
  zoom: number;
  visible: boolean;
  objects: EditorObject[];
  selected: string | null;
  editing: string | null;
  tool: ToolName;
  style: Style;
  dispatch: (action: EditorAction) => void;
  setEditing: (id: string | null) => void;
  /** A new object was placed with the current tool (the editor then leaves the tool unless it is kept). */
  onPlaced: () => void;
}

type Gesture =
  | { kind: 'create'; start: [number, number]; current: [number, number] }
  | { kind: 'pen'; points: Array<[number, number]> }
  | { kind: 'move'; id: string; start: [number, number]; origin: EditorObject; moved: boolean }
  | { kind: 'resize'; id: string; handle: string; origin: EditorObject };

const BOX_TOOLS = new Set<ToolName>(['rect', 'ellipse', 'highlight', 'whiteout', 'redact']);

function familyOf(fontFamily: string | undefined): FontFamily {
  if (!fontFamily) return 'sans';
  if (/mono|courier/i.test(fontFamily)) return 'mono';
  if (/serif/i.test(fontFamily) && !/sans/i.test(fontFamily)) return 'serif';
  return 'sans';
}

function PageCanvas({
  pdf,
  pageNumber,
  size,
  zoom,
}: {
  pdf: PDFDocumentProxy;
  pageNumber: number;
  size: PageSize;
  zoom: number;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let cancelled = false;
    let task: { cancel(): void; promise: Promise<unknown> } | undefined;
    const canvas = canvasRef.current;
    (async () => {
      const page = await pdf.getPage(pageNumber);
      if (cancelled || !canvas) return;
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      const viewport = page.getViewport({ scale: zoom * ratio });
      canvas.width = Math.round(viewport.width);
      canvas.height = Math.round(viewport.height);
      const context = canvas.getContext('2d');
      if (!context) return;
      task = page.render({ canvas, canvasContext: context, viewport });
      await task.promise.catch(() => undefined);
    })();
    return () => {
      cancelled = true;
      task?.cancel();
      // Give the pixels back when the page scrolls away.
      if (canvas) canvas.width = canvas.height = 0;
    };
  }, [pdf, pageNumber, zoom]);
  return (
    <canvas
      ref={canvasRef}
      className="ed-canvas"
      style={{ width: size.width * zoom, height: size.height * zoom }}
      aria-hidden="true"
    />
  );
}

function ObjectShape({ o, zoom }: { o: EditorObject; zoom: number }) {
  const common = { 'data-id': o.id, className: 'ed-obj' };
  switch (o.type) {
    case 'rect':
    case 'ellipse': {
      const paint = {
        fill: o.fill ?? 'transparent',
        stroke: o.stroke ?? 'none',
        strokeWidth: o.stroke ? (o.strokeWidth ?? 2) : 0,
        opacity: o.opacity ?? 1,
      };
      // A transparent fill still catches the pointer, so hollow shapes can be picked up by their inside.
      return o.type === 'rect' ? (
        <rect {...common} x={o.x} y={o.y} width={o.width} height={o.height} {...paint} />
      ) : (
        <ellipse
          {...common}
          cx={o.x + o.width / 2}
          cy={o.y + o.height / 2}
          rx={o.width / 2}
          ry={o.height / 2}
          {...paint}
        />
      );
    }
    case 'highlight':
      return (
        <rect
          {...common}
          x={o.x}
          y={o.y}
          width={o.width}
          height={o.height}
          fill={o.color ?? '#ffeb3b'}
          opacity={0.4}
          style={{ mixBlendMode: 'multiply' }}
        />
      );
    case 'whiteout':
      return (
        <rect
          {...common}
          x={o.x}
          y={o.y}
          width={o.width}
          height={o.height}
          fill={o.color ?? '#ffffff'}
          stroke="#9ca3af"
          strokeDasharray={`${4 / zoom}`}
          strokeWidth={1 / zoom}
        />
      );
    case 'redact':
      return (
        <g {...common}>
          <rect
            x={o.x}
            y={o.y}
            width={o.width}
            height={o.height}
            fill="#000"
            opacity={0.8}
            stroke="#dc2626"
            strokeWidth={1.5 / zoom}
          />
        </g>
      );
    case 'edit-text':
      return <rect {...common} x={o.x} y={o.y} width={o.width} height={o.height} fill="#ffffff" />;
    case 'pen':
      return (
        <polyline
          {...common}
          points={o.points.map((p) => p.join(',')).join(' ')}
          fill="none"
          stroke={o.color}
          strokeWidth={o.width}
          strokeLinecap="round"
          strokeLinejoin="round"
          opacity={o.opacity ?? 1}
        />
      );
    case 'line':
    case 'arrow': {
      const angle = Math.atan2(o.y2 - o.y1, o.x2 - o.x1);
      const head = Math.max(8, o.width * 4);
      const back = (a: number) => `${o.x2 - head * Math.cos(angle + a)},${o.y2 - head * Math.sin(angle + a)}`;
      return (
        <g {...common}>
          {/* A wide invisible stroke makes thin lines easy to pick with a finger. */}
          <line
            x1={o.x1}
            y1={o.y1}
            x2={o.x2}
            y2={o.y2}
            stroke="transparent"
            strokeWidth={Math.max(o.width, 14 / zoom)}
          />
          <line x1={o.x1} y1={o.y1} x2={o.x2} y2={o.y2} stroke={o.color} strokeWidth={o.width} strokeLinecap="round" />
          {o.type === 'arrow' && (
            <polygon points={`${o.x2},${o.y2} ${back(Math.PI / 7)} ${back(-Math.PI / 7)}`} fill={o.color} />
          )}
        </g>
      );
    }
    case 'image':
      return (
        <image
          {...common}
          href={o.data.startsWith('data:') ? o.data : `data:image/png;base64,${o.data}`}
          x={o.x}
          y={o.y}
          width={o.width}
          height={o.height}
          preserveAspectRatio="none"
          opacity={o.opacity ?? 1}
        />
      );
    default:
      return null;
  }
}

function handlesOf(o: EditorObject): Array<[string, number, number]> {
  if (o.type === 'line' || o.type === 'arrow')
    return [
      ['p1', o.x1, o.y1],
      ['p2', o.x2, o.y2],
    ];
  if (o.type === 'pen' || o.type === 'text' || o.type === 'edit-text') return [];
  const b = boundsOf(o);
  return [
    ['nw', b.x, b.y],
    ['ne', b.x + b.width, b.y],
    ['sw', b.x, b.y + b.height],
    ['se', b.x + b.width, b.y + b.height],
  ];
}

function resized(origin: EditorObject, handle: string, x: number, y: number): Partial<EditorObject> {
  if (origin.type === 'line' || origin.type === 'arrow') return handle === 'p1' ? { x1: x, y1: y } : { x2: x, y2: y };
  if (origin.type === 'text') return { size: Math.max(4, Math.min(300, Math.round(y - origin.y) / LINE_HEIGHT_EM)) };
  if (origin.type === 'pen' || origin.type === 'edit-text') return {};
  const box = origin as { x: number; y: number; width: number; height: number };
  let { x: x0, y: y0 } = box;
  let x1 = box.x + box.width;
  let y1 = box.y + box.height;
  if (handle.includes('w')) x0 = x;
  if (handle.includes('e')) x1 = x;
  if (handle.includes('n')) y0 = y;
  if (handle.includes('s')) y1 = y;
  return {
    x: Math.min(x0, x1),
    y: Math.min(y0, y1),
    width: Math.max(2, Math.abs(x1 - x0)),
    height: Math.max(2, Math.abs(y1 - y0)),
  };
}

/** Characters in the longest line of a text box. */
const longestLine = (text: string) => Math.max(0, ...text.split('\n').map((line) => line.length));

export const PageView = memo(function PageView({
  pdf,
  pageNumber,
  size,
  zoom,
  visible,
  objects,
  selected,
  editing,
  tool,
  style,
  dispatch,
  setEditing,
  onPlaced,
}: Props) {
  const rootRef = useRef<HTMLDivElement>(null);
  const [gesture, setGestureState] = useState<Gesture | null>(null);
  // Pointer events can arrive faster than React re-renders: handlers read the live gesture here,
  // and moves are computed from the gesture's start (not the last event), so none is lost.
  const gestureRef = useRef<Gesture | null>(null);
  const setGesture = (next: Gesture | null) => {
    gestureRef.current = next;
    setGestureState(next);
  };
  const [candidates, setCandidates] = useState<TextCandidate[] | null>(null);

  // Text already on the page, for "Edit text": loaded when the tool is on and the page is near.
  useEffect(() => {
    if (tool !== 'edit-text' || !visible || candidates) return;
    let cancelled = false;
    (async () => {
      const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
      const page = await pdf.getPage(pageNumber);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const found: TextCandidate[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const tx = pdfjs.Util.transform(viewport.transform, item.transform);
        if (Math.abs(tx[1]) > 0.01 || Math.abs(tx[2]) > 0.01 || tx[0] <= 0) continue; // horizontal text only
        const sizePt = Math.abs(tx[3]) || Math.hypot(tx[2], tx[3]);
        found.push({
          str: item.str,
          x: tx[4],
          y: tx[5] - sizePt * 0.9,
          width: item.width,
          height: sizePt * 1.15,
          baseline: tx[5],
          size: Math.round(sizePt * 10) / 10,
          font: familyOf(content.styles[item.fontName]?.fontFamily),
        });
      }
      if (!cancelled) setCandidates(found);
    })().catch(() => setCandidates([]));
    return () => {
      cancelled = true;
    };
  }, [tool, visible, candidates, pdf, pageNumber]);

  // A finger that lands on an object (or its handles) drags it instead of scrolling the pages:
  // touch-action on SVG shapes is not honoured everywhere, so the touch start is cancelled here.
  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const onTouchStart = (event: TouchEvent) => {
      if ((event.target as Element).closest('[data-id], [data-handle]')) event.preventDefault();
    };
    root.addEventListener('touchstart', onTouchStart, { passive: false });
    return () => root.removeEventListener('touchstart', onTouchStart);
  }, []);

  const pointAt = (event: { clientX: number; clientY: number }): [number, number] => {
    const rect = rootRef.current!.getBoundingClientRect();
    return [(event.clientX - rect.left) / zoom, (event.clientY - rect.top) / zoom];
  };

  function onPointerDown(event: ReactPointerEvent<HTMLDivElement>) {
    if (event.button !== 0 && event.pointerType === 'mouse') return;
    const target = event.target as Element;
    if (target.closest('.ed-textarea')) return;
    const point = pointAt(event);
    const handle = target.closest('[data-handle]')?.getAttribute('data-handle');
    const hitId = target.closest('[data-id]')?.getAttribute('data-id') ?? null;
    const hit = hitId ? objects.find((o) => o.id === hitId) : undefined;
    const capture = () => rootRef.current?.setPointerCapture(event.pointerId);

    if (handle && selected) {
      const origin = objects.find((o) => o.id === selected);
      if (origin) {
        event.preventDefault();
        capture();
        dispatch({ type: 'begin' });
        setGesture({ kind: 'resize', id: selected, handle, origin });
      }
      return;
    }
    if (tool === 'select' || (hit && tool !== 'pen' && !BOX_TOOLS.has(tool) && tool !== 'line' && tool !== 'arrow')) {
      if (hit) {
        event.preventDefault();
        dispatch({ type: 'select', id: hit.id });
        if ((hit.type === 'text' || hit.type === 'edit-text') && (tool === 'text' || event.detail >= 2)) {
          setEditing(hit.id);
          return;
        }
        capture();
        setGesture({ kind: 'move', id: hit.id, start: point, origin: hit, moved: false });
      } else {
        dispatch({ type: 'select', id: null });
        setEditing(null);
      }
      if (tool === 'select') return;
    }
    if (hit) return;
    if (tool === 'text') {
      event.preventDefault();
      const object: EditorObject = {
        id: newId(),
        type: 'text',
        page: pageNumber,
        x: point[0],
        y: Math.max(0, point[1] - style.fontSize * 0.6),
        text: '',
        size: style.fontSize,
        color: style.color,
        font: style.font,
        bold: style.bold,
        italic: style.italic,
      };
      dispatch({ type: 'add', object });
      setEditing(object.id);
      onPlaced();
      return;
    }
    if (tool === 'pen') {
      event.preventDefault();
      capture();
      setGesture({ kind: 'pen', points: [point] });
      return;
    }
    if (BOX_TOOLS.has(tool) || tool === 'line' || tool === 'arrow') {
      event.preventDefault();
      capture();
      setGesture({ kind: 'create', start: point, current: point });
    }
  }

  function onPointerMove(event: ReactPointerEvent<HTMLDivElement>) {
    const gesture = gestureRef.current;
    if (!gesture) return;
    const point = pointAt(event);
    const clamped: [number, number] = [
      Math.min(size.width, Math.max(0, point[0])),
      Math.min(size.height, Math.max(0, point[1])),
    ];
    switch (gesture.kind) {
      case 'pen':
        setGesture({ kind: 'pen', points: [...gesture.points, clamped] });
        break;
      case 'create':
        setGesture({ ...gesture, current: clamped });
        break;
      case 'move': {
        const dx = point[0] - gesture.start[0];
        const dy = point[1] - gesture.start[1];
        if (!gesture.moved) dispatch({ type: 'begin' });
        dispatch({ type: 'update', id: gesture.id, patch: movedBy(gesture.origin, dx, dy), commit: false });
        if (!gesture.moved) setGesture({ ...gesture, moved: true });
        break;
      }
      case 'resize':
        dispatch({
          type: 'update',
          id: gesture.id,
          patch: resized(gesture.origin, gesture.handle, clamped[0], clamped[1]),
          commit: false,
        });
        break;
    }
  }

  function onPointerUp() {
    const gesture = gestureRef.current;
    if (!gesture) return;
    if (gesture.kind === 'pen' && gesture.points.length > 0) {
      dispatch({
        type: 'add',
        object: {
          id: newId(),
          type: 'pen',
          page: pageNumber,
          points: gesture.points.map(([x, y]) => [Math.round(x * 100) / 100, Math.round(y * 100) / 100]),
          color: style.color,
          width: style.strokeWidth,
        },
      });
    } else if (gesture.kind === 'create') {
      const [x0, y0] = gesture.start;
      const [x1, y1] = gesture.current;
      const dragged = Math.hypot(x1 - x0, y1 - y0) > 3;
      const page = pageNumber;
      if (tool === 'line' || tool === 'arrow') {
        const end: [number, number] = dragged ? [x1, y1] : [Math.min(size.width, x0 + 100), y0];
        dispatch({
          type: 'add',
          object: {
            id: newId(),
            type: tool,
            page,
            x1: x0,
            y1: y0,
            x2: end[0],
            y2: end[1],
            color: style.color,
            width: style.strokeWidth,
          },
        });
      } else {
        const box = dragged
          ? { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0) }
          : { x: x0, y: y0, width: tool === 'highlight' ? 120 : 100, height: tool === 'highlight' ? 16 : 50 };
        const id = newId();
        if (tool === 'rect' || tool === 'ellipse') {
          dispatch({
            type: 'add',
            object: {
              id,
              type: tool,
              page,
              ...box,
              stroke: style.color,
              fill: style.fill,
              strokeWidth: style.strokeWidth,
            },
          });
        } else if (tool === 'highlight') {
          dispatch({ type: 'add', object: { id, type: 'highlight', page, ...box, color: style.highlight } });
        } else if (tool === 'whiteout' || tool === 'redact') {
          dispatch({ type: 'add', object: { id, type: tool, page, ...box } });
        }
      }
      onPlaced();
    }
    setGesture(null);
  }

  function editCandidate(candidate: TextCandidate) {
    const object: EditorObject = {
      id: newId(),
      type: 'edit-text',
      page: pageNumber,
      x: candidate.x,
      y: candidate.y,
      width: candidate.width + 1,
      height: candidate.height,
      text: candidate.str,
      size: candidate.size,
      color: '#000000',
      font: candidate.font,
      baseline: candidate.baseline,
    };
    dispatch({ type: 'add', object });
    setEditing(object.id);
  }

  const drawing = tool !== 'select' && tool !== 'edit-text';
  const selectedObject = objects.find((o) => o.id === selected);
  const handleSize = 10 / zoom;

  return (
    <div
      ref={rootRef}
      className={`ed-page tool-${tool}`}
      data-page={pageNumber}
      style={{
        width: size.width * zoom,
        height: size.height * zoom,
        touchAction: drawing || gesture ? 'none' : 'pan-x pan-y pinch-zoom',
      }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setGesture(null)}
      aria-label={`Page ${pageNumber}`}
      role="group"
    >
      {visible ? (
        <PageCanvas pdf={pdf} pageNumber={pageNumber} size={size} zoom={zoom} />
      ) : (
        <div className="ed-canvas placeholder" />
      )}
      <svg
        className="ed-layer"
        viewBox={`0 0 ${size.width} ${size.height}`}
        width={size.width * zoom}
        height={size.height * zoom}
      >
        {objects
          .filter((o) => o.type !== 'text')
          .map((o) => (
            <ObjectShape key={o.id} o={o} zoom={zoom} />
          ))}
        {gesture?.kind === 'pen' && (
          <polyline
            points={gesture.points.map((p) => p.join(',')).join(' ')}
            fill="none"
            stroke={style.color}
            strokeWidth={style.strokeWidth}
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        )}
        {gesture?.kind === 'create' &&
          (tool === 'line' || tool === 'arrow' ? (
            <line
              x1={gesture.start[0]}
              y1={gesture.start[1]}
              x2={gesture.current[0]}
              y2={gesture.current[1]}
              stroke={style.color}
              strokeWidth={style.strokeWidth}
            />
          ) : (
            <rect
              className="ed-rubber"
              x={Math.min(gesture.start[0], gesture.current[0])}
              y={Math.min(gesture.start[1], gesture.current[1])}
              width={Math.abs(gesture.current[0] - gesture.start[0])}
              height={Math.abs(gesture.current[1] - gesture.start[1])}
              strokeWidth={1 / zoom}
            />
          ))}
        {selectedObject &&
          selectedObject.type !== 'text' &&
          (() => {
            const b = boundsOf(selectedObject);
            const pad = 3 / zoom;
            return (
              <g className="ed-selection">
                <rect
                  x={b.x - pad}
                  y={b.y - pad}
                  width={b.width + 2 * pad}
                  height={b.height + 2 * pad}
                  strokeWidth={1.5 / zoom}
                  strokeDasharray={`${4 / zoom}`}
                />
                {handlesOf(selectedObject).map(([name, hx, hy]) => (
                  <rect
                    key={name}
                    data-handle={name}
                    className="ed-handle"
                    x={hx - handleSize / 2}
                    y={hy - handleSize / 2}
                    width={handleSize}
                    height={handleSize}
                    strokeWidth={1.5 / zoom}
                  />
                ))}
              </g>
            );
          })()}
      </svg>
      <div className="ed-html-layer">
        {objects
          .filter((o) => o.type === 'text' || o.type === 'edit-text')
          .map((o) => {
            if (o.type !== 'text' && o.type !== 'edit-text') return null;
            const top =
              o.type === 'edit-text' && o.baseline !== undefined ? o.baseline - o.size * BASELINE_EM[o.font] : o.y;
            const textStyle = {
              left: o.x * zoom,
              top: top * zoom,
              fontSize: o.size * zoom,
              color: o.color,
              fontFamily: CSS_FONT[o.font],
              fontWeight: o.bold ? 700 : 400,
              fontStyle: o.italic ? 'italic' : 'normal',
              lineHeight: LINE_HEIGHT_EM,
            } as const;
            if (editing === o.id) {
              return (
                <textarea
                  key={o.id}
                  className="ed-textarea"
                  aria-label="Text"
                  autoFocus
                  // Grows with its text: as wide as the longest line (in ch of its own font size), as tall as its
                  // lines.
                  style={{
                    ...textStyle,
                    width:
                      `max(${Math.max(120, (o.type === 'edit-text' ? o.width : 0) * zoom + 40)}px, ` +
                      `${longestLine(o.text) + 2}ch)`,
                    height: (o.text.split('\n').length * LINE_HEIGHT_EM * o.size + 4) * zoom,
                  }}
                  value={o.text}
                  onFocus={(e) => {
                    e.currentTarget.select();
                    // Typing does not record each key: one snapshot before, so Undo restores the old text.
                    if (o.text !== '') dispatch({ type: 'begin' });
                  }}
                  onChange={(e) =>
                    dispatch({ type: 'update', id: o.id, patch: { text: e.target.value }, commit: false })
                  }
                  onBlur={(e) => {
                    setEditing(null);
                    if (o.type === 'text' && e.currentTarget.value.trim() === '')
                      dispatch({ type: 'remove', id: o.id });
                  }}
                  onKeyDown={(e) => {
                    if (e.key === 'Escape') {
                      e.preventDefault();
                      e.currentTarget.blur();
                    }
                  }}
                />
              );
            }
            return (
              <div
                key={o.id}
                data-id={o.id}
                className={`ed-text${selected === o.id ? ' selected' : ''}`}
                style={textStyle}
              >
                {o.text || ' '}
                {selected === o.id && o.type === 'text' && (
                  <span className="ed-text-handle" data-handle="size" title="Drag to resize the text" />
                )}
              </div>
            );
          })}
        {tool === 'edit-text' &&
          candidates?.map((c, i) => (
            <button
              key={i}
              type="button"
              className="ed-candidate"
              title={`Edit “${c.str}”`}
              style={{ left: c.x * zoom, top: c.y * zoom, width: c.width * zoom, height: c.height * zoom }}
              onPointerDown={(e) => {
                e.stopPropagation();
                e.preventDefault();
                editCandidate(c);
              }}
            />
          ))}
      </div>
    </div>
  );
});
