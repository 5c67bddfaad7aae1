/**
 * rotate-pdf's options: the angle, and which pages — typed (page-range language) or picked by
 * clicking thumbnails, which show the result before it is made.
 */
import { useMemo, useState } from 'react';
import type { FileToolPanelProps } from './registry.ts';
import { OptionFields } from '../option-fields.tsx';
import { PageThumbnails, usePdfThumbnails } from '../page-thumbnails.tsx';
import { parsePageRanges } from '../../../shared/page-range.ts';

/** [1,2,3,5,7,8] → "1-3, 5, 7-8". */
export function compactRanges(pages: readonly number[]): string {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j;
  }
  return parts.join(', ');
}

export default function RotatePdfPanel({ tool, files, values, setValue, disabled, inputPassword }: FileToolPanelProps) {
  const state = usePdfThumbnails(files[0], inputPassword);
  const [lastClicked, setLastClicked] = useState<number | null>(null);
  const pageCount = state.pages.length;
  const angle = Number(values.angle ?? 90);
  const pagesText = String(values.pages ?? '');

  // The chosen pages as the engine will read them ('' = all); unreadable text selects nothing yet.
  const chosen = useMemo(() => {
    if (pageCount === 0) return new Set<number>();
    try {
      return new Set(parsePageRanges(pagesText, pageCount));
    } catch {
      return new Set<number>();
    }
  }, [pagesText, pageCount]);
  const explicit = pagesText.trim() !== '';
  const selectedKeys = useMemo(() => new Set(explicit ? [...chosen].map((n) => `p${n}`) : []), [chosen, explicit]);
  const tiles = useMemo(
    () =>
      state.pages.map((_, i) => ({
        key: `p${i + 1}`,
        page: i + 1,
        rotation: chosen.has(i + 1) ? ((angle % 360) + 360) % 360 : 0,
      })),
    [state.pages, chosen, angle],
  );

  function toggle(page: number, range: boolean) {
    const next = new Set(explicit ? chosen : []);
    if (range && lastClicked !== null) {
      const [from, to] = lastClicked < page ? [lastClicked, page] : [page, lastClicked];
      for (let n = from; n <= to; n++) next.add(n);
    } else if (next.has(page)) next.delete(page);
    else next.add(page);
    setLastClicked(page);
    setValue('pages', compactRanges([...next]));
  }

  return (
    <div className="option-fields">
      <OptionFields tool={tool} values={values} setValue={setValue} disabled={disabled} />
      {files[0] && pageCount > 0 && (
        <div className="page-toolbar">
          <span className="hint">
            {explicit ? `${chosen.size} of ${pageCount} pages chosen` : `All ${pageCount} pages`} · click pages to
            choose (Shift-click for a run)
          </span>
          <button type="button" className="small" disabled={disabled} onClick={() => setValue('pages', '')}>
            All
          </button>
          <button type="button" className="small" disabled={disabled} onClick={() => setValue('pages', 'odd')}>
            Odd
          </button>
          <button type="button" className="small" disabled={disabled} onClick={() => setValue('pages', 'even')}>
            Even
          </button>
        </div>
      )}
      {files[0] && (
        <PageThumbnails
          state={state}
          tiles={tiles}
          selected={selectedKeys}
          disabled={disabled}
          label="Page previews: click to choose pages"
          onTileClick={(key, event) => toggle(Number(key.slice(1)), event.shiftKey)}
        />
      )}
    </div>
  );
}
