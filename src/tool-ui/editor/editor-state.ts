/**
 * The page editor's document model: a list of objects (each an edit operation with an id) and an
 * undo/redo history of whole snapshots — objects are small, so snapshots are simpler and safer than
 * inverse operations. Pure functions, no React: the editor keeps the state in a reducer.
 */
import type { EditOperation, FontFamily } from '../../../shared/edit-operations.ts';

export type EditorObject = EditOperation & { id: string };

export type ToolName =
  | 'select'
  | 'text'
  | 'image'
  | 'pen'
  | 'rect'
  | 'ellipse'
  | 'line'
  | 'arrow'
  | 'highlight'
  | 'whiteout'
  | 'redact'
  | 'edit-text';

export interface ToolInfo {
  name: ToolName;
  label: string;
  key: string;
}

/** Toolbar order; `key` is the keyboard shortcut. */
export const TOOLS: readonly ToolInfo[] = [
  { name: 'select', label: 'Select', key: 'v' },
  { name: 'text', label: 'Add text', key: 't' },
  { name: 'edit-text', label: 'Edit text', key: 'e' },
  { name: 'image', label: 'Add image', key: 'i' },
  { name: 'pen', label: 'Draw', key: 'p' },
  { name: 'rect', label: 'Rectangle', key: 'r' },
  { name: 'ellipse', label: 'Ellipse', key: 'o' },
  { name: 'line', label: 'Line', key: 'l' },
  { name: 'arrow', label: 'Arrow', key: 'a' },
  { name: 'highlight', label: 'Highlight', key: 'h' },
  { name: 'whiteout', label: 'Whiteout', key: 'w' },
  { name: 'redact', label: 'Redact', key: 'x' },
];

/** Style applied to new objects, changed from the properties bar. */
export interface Style {
  color: string;
  fill: string | null;
  strokeWidth: number;
  fontSize: number;
  font: FontFamily;
  bold: boolean;
  italic: boolean;
  highlight: string;
}

export const DEFAULT_STYLE: Style = {
  color: '#1f2937',
  fill: null,
  strokeWidth: 2,
  fontSize: 16,
  font: 'sans',
  bold: false,
  italic: false,
  highlight: '#ffeb3b',
};

export interface EditorState {
  objects: EditorObject[];
  past: EditorObject[][];
  future: EditorObject[][];
  selected: string | null;
}

export const INITIAL_STATE: EditorState = { objects: [], past: [], future: [], selected: null };

export type EditorAction =
  | { type: 'add'; object: EditorObject }
  /** `commit: false` changes without a history entry (live drag); a later commit records the start. */
  | { type: 'update'; id: string; patch: Partial<EditOperation>; commit?: boolean }
  | { type: 'begin' }
  | { type: 'remove'; id: string }
  | { type: 'select'; id: string | null }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'reset'; objects: EditorObject[] };

const HISTORY_LIMIT = 200;

function record(state: EditorState): Pick<EditorState, 'past' | 'future'> {
  return { past: [...state.past, state.objects].slice(-HISTORY_LIMIT), future: [] };
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'add':
      return { ...state, ...record(state), objects: [...state.objects, action.object], selected: action.object.id };
    case 'begin':
      // Snapshot before a live gesture (drag, resize); the updates that follow do not record.
      return { ...state, ...record(state) };
    case 'update': {
      const objects = state.objects.map((o) => (o.id === action.id ? ({ ...o, ...action.patch } as EditorObject) : o));
      return action.commit === false ? { ...state, objects } : { ...state, ...record(state), objects };
    }
    case 'remove':
      if (!state.objects.some((o) => o.id === action.id)) return state;
      return {
        ...state,
        ...record(state),
        objects: state.objects.filter((o) => o.id !== action.id),
        selected: state.selected === action.id ? null : state.selected,
      };
    case 'select':
      return state.selected === action.id ? state : { ...state, selected: action.id };
    case 'undo': {
      const previous = state.past.at(-1);
      if (!previous) return state;
      return {
        ...state,
        objects: previous,
        past: state.past.slice(0, -1),
        future: [state.objects, ...state.future],
        selected: previous.some((o) => o.id === state.selected) ? state.selected : null,
      };
    }
    case 'redo': {
      const [next, ...rest] = state.future;
      if (!next) return state;
      return {
        ...state,
        objects: next,
        past: [...state.past, state.objects],
        future: rest,
        selected: next.some((o) => o.id === state.selected) ? state.selected : null,
      };
    }
    case 'reset':
      return { objects: action.objects, past: [], future: [], selected: null };
  }
}

let counter = 0;
export const newId = () => `o${Date.now().toString(36)}${(counter++).toString(36)}`;

/** The `operations` JSON the engine reads (ids dropped, empty text dropped). */
/** An added text box with nothing in it is not an edit: it is never counted nor saved. */
const isEmptyText = (o: EditorObject) => o.type === 'text' && o.text.trim() === '';

/** The edits that will be saved. */
export function countEdits(objects: readonly EditorObject[]): number {
  return objects.filter((o) => !isEmptyText(o)).length;
}

export function operationsJson(objects: readonly EditorObject[]): string {
  const operations = objects.filter((o) => !isEmptyText(o)).map(({ id: _id, ...op }) => op);
  return operations.length ? JSON.stringify({ version: 1, operations }) : '';
}

/** Bounding box of an object in view points (text boxes need their measured size). */
export function boundsOf(
  o: EditorObject,
  textSize?: { width: number; height: number },
): { x: number; y: number; width: number; height: number } {
  switch (o.type) {
    case 'pen': {
      const xs = o.points.map((p) => p[0]);
      const ys = o.points.map((p) => p[1]);
      return {
        x: Math.min(...xs),
        y: Math.min(...ys),
        width: Math.max(...xs) - Math.min(...xs),
        height: Math.max(...ys) - Math.min(...ys),
      };
    }
    case 'line':
    case 'arrow':
      return {
        x: Math.min(o.x1, o.x2),
        y: Math.min(o.y1, o.y2),
        width: Math.abs(o.x2 - o.x1),
        height: Math.abs(o.y2 - o.y1),
      };
    case 'text':
      return {
        x: o.x,
        y: o.y,
        width: textSize?.width ?? o.size * Math.max(1, o.text.length) * 0.5,
        height: textSize?.height ?? o.size * 1.2,
      };
    default:
      return { x: o.x, y: o.y, width: o.width, height: o.height };
  }
}

/** Moves an object by (dx, dy) view points. */
export function movedBy(o: EditorObject, dx: number, dy: number): Partial<EditOperation> {
  switch (o.type) {
    case 'pen':
      return { points: o.points.map(([x, y]) => [x + dx, y + dy] as [number, number]) };
    case 'line':
    case 'arrow':
      return { x1: o.x1 + dx, y1: o.y1 + dy, x2: o.x2 + dx, y2: o.y2 + dy };
    case 'edit-text':
      return {}; // replaces the text under its box: it stays where that text was
    default:
      return { x: o.x + dx, y: o.y + dy };
  }
}

/** CSS font stacks close to the PDF standard fonts the engine writes with. */
export const CSS_FONT: Record<FontFamily, string> = {
  sans: 'Helvetica, Arial, "Liberation Sans", "Noto Sans", sans-serif',
  serif: '"Times New Roman", Times, "Liberation Serif", serif',
  mono: '"Courier New", Courier, "Liberation Mono", monospace',
};
