/**
 * organize-pdf's page board: a thumbnail grid to drag pages into a new order, select several
 * (click; Shift-click for a run), delete, duplicate, rotate, insert a blank page, move earlier or
 * later (keyboard-friendly), reset. The board writes the `pageOrder` field (see the engine,
 * workers/engine/tools/organize-pdf.ts, for the syntax: "3, 1r90, blank, 2"), which the user can also
 * type when previews are not available.
 */
import { useEffect, useMemo, useState } from 'react';
import type { FileToolPanelProps } from './registry.ts';
import { OptionFields } from '../option-fields.tsx';
import { PageThumbnails, usePdfThumbnails, type Tile } from '../page-thumbnails.tsx';
import { moveItem } from '../file-list.tsx';

interface BoardTile extends Tile {
  rotation: number;
}

export function pageOrderOf(tiles: readonly BoardTile[], pageCount: number): string {
  const identity = tiles.length === pageCount && tiles.every((t, i) => t.page === i + 1 && t.rotation === 0);
  if (identity) return '';
  return tiles.map((t) => (t.page ? `${t.page}${t.rotation ? `r${t.rotation}` : ''}` : 'blank')).join(',');
}

let serial = 0;
const freshKey = (prefix: string) => `${prefix}-${++serial}`;

export default function OrganizePdfPanel({
  tool,
  files,
  values,
  setValue,
  disabled,
  inputPassword,
}: FileToolPanelProps) {
  const state = usePdfThumbnails(files[0], inputPassword);
  const pageCount = state.pages.length;
  const [tiles, setTiles] = useState<BoardTile[]>([]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);

  const initial = useMemo(
    () => state.pages.map((_, i) => ({ key: `p${i + 1}`, page: i + 1, rotation: 0 })),
    [state.pages],
  );
  useEffect(() => {
    setTiles(initial);
    setSelected(new Set());
  }, [initial]);

  useEffect(() => {
    if (pageCount > 0) setValue('pageOrder', pageOrderOf(tiles, pageCount));
  }, [tiles, pageCount, setValue]);

  const selectedIndices = tiles.map((t, i) => (selected.has(t.key) ? i : -1)).filter((i) => i >= 0);
  const none = selectedIndices.length === 0;

  function click(key: string, shift: boolean) {
    const index = tiles.findIndex((t) => t.key === key);
    const next = new Set(selected);
    if (shift && anchor !== null) {
      const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
      for (let i = from; i <= to; i++) next.add(tiles[i].key);
    } else if (next.has(key)) next.delete(key);
    else next.add(key);
    setAnchor(index);
    setSelected(next);
  }

  const rotate = (by: number) =>
    setTiles((old) =>
      old.map((t) => (selected.has(t.key) && t.page ? { ...t, rotation: (((t.rotation + by) % 360) + 360) % 360 } : t)),
    );
  const remove = () => {
    const left = tiles.filter((t) => !selected.has(t.key));
    if (!left.some((t) => t.page)) return;
    setTiles(left);
    setSelected(new Set());
  };
  const duplicate = () =>
    setTiles((old) => old.flatMap((t) => (selected.has(t.key) ? [t, { ...t, key: freshKey(`${t.key}-copy`) }] : [t])));
  const insertBlank = () => {
    const at = none ? tiles.length : Math.max(...selectedIndices) + 1;
    setTiles((old) => [...old.slice(0, at), { key: freshKey('blank'), rotation: 0 }, ...old.slice(at)]);
  };
  const move = (by: -1 | 1) => {
    if (none) return;
    const first = Math.min(...selectedIndices);
    const last = Math.max(...selectedIndices);
    if ((by < 0 && first === 0) || (by > 0 && last === tiles.length - 1)) return;
    const block = tiles.filter((t) => selected.has(t.key));
    const rest = tiles.filter((t) => !selected.has(t.key));
    const insertAt = by < 0 ? first - 1 : first + 1;
    setTiles([...rest.slice(0, insertAt), ...block, ...rest.slice(insertAt)]);
  };

  if (!files[0]) return <OptionFields tool={tool} values={values} setValue={setValue} disabled={disabled} />;
  if (pageCount === 0) {
    // No previews (password not entered yet, or pdf.js cannot draw it): the typed order still works.
    return (
      <div className="option-fields">
        <PageThumbnails state={state} />
        <OptionFields tool={tool} values={values} setValue={setValue} disabled={disabled} />
      </div>
    );
  }
  const order = String(values.pageOrder ?? '');
  return (
    <div className="option-fields">
      <div className="page-toolbar" role="toolbar" aria-label="Page actions">
        <button
          type="button"
          className="small"
          disabled={disabled || none}
          onClick={() => rotate(-90)}
          title="Rotate left"
        >
          ⟲ Left
        </button>
        <button
          type="button"
          className="small"
          disabled={disabled || none}
          onClick={() => rotate(90)}
          title="Rotate right"
        >
          ⟳ Right
        </button>
        <button type="button" className="small" disabled={disabled || none} onClick={() => move(-1)}>
          Move earlier
        </button>
        <button type="button" className="small" disabled={disabled || none} onClick={() => move(1)}>
          Move later
        </button>
        <button type="button" className="small" disabled={disabled || none} onClick={duplicate}>
          Duplicate
        </button>
        <button type="button" className="small" disabled={disabled || none} onClick={remove}>
          Delete
        </button>
        <button type="button" className="small" disabled={disabled} onClick={insertBlank}>
          Insert blank page
        </button>
        <button
          type="button"
          className="small"
          disabled={disabled}
          onClick={() => setSelected(none ? new Set(tiles.map((t) => t.key)) : new Set())}
        >
          {none ? 'Select all' : 'Select none'}
        </button>
        <button
          type="button"
          className="small"
          disabled={disabled}
          onClick={() => {
            setTiles(initial);
            setSelected(new Set());
          }}
        >
          Reset
        </button>
      </div>
      <p className="hint">
        {tiles.length} page{tiles.length === 1 ? '' : 's'}
        {selected.size ? ` · ${selected.size} selected` : ''} · drag to reorder, click to select (Shift-click for a run)
      </p>
      <PageThumbnails
        state={state}
        tiles={tiles}
        selected={selected}
        disabled={disabled}
        label="Pages in their new order"
        onTileClick={(key, event) => click(key, event.shiftKey)}
        onReorder={(from, to) => setTiles((old) => moveItem(old, from, to))}
      />
      <p className="hint" aria-live="polite">
        Page order: <code>{order || 'unchanged'}</code>
      </p>
    </div>
  );
}
