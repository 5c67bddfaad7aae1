/**
 * split-pdf's options with the document's page strip: the pages each choice takes are marked as
 * the user types ranges (the generic fields check them against the real page count).
 */
import { useContext, useMemo } from 'react';
import type { FileToolPanelProps } from './registry.ts';
import { OptionFields, PageCountContext } from '../option-fields.tsx';
import { PageThumbnails, usePdfThumbnails } from '../page-thumbnails.tsx';
import { parsePageGroups } from '../../../shared/page-range.ts';

/** Pages the "ranges" text takes, or none while it does not parse. */
function takenPages(text: string, pageCount: number): Set<number> {
  try {
    return new Set(parsePageGroups(text, pageCount).flat());
  } catch {
    return new Set();
  }
}

export default function SplitPdfPanel({ tool, files, values, setValue, disabled, inputPassword }: FileToolPanelProps) {
  const state = usePdfThumbnails(files[0], inputPassword);
  const pageCount = useContext(PageCountContext) ?? state.pages.length;
  const byRanges = values.mode === 'ranges';
  const ranges = String(values.ranges ?? '');
  const selected = useMemo(() => {
    if (!byRanges) return undefined;
    return new Set([...takenPages(ranges, pageCount)].map((n) => `p${n}`));
  }, [byRanges, ranges, pageCount]);
  return (
    <div className="option-fields">
      <OptionFields tool={tool} values={values} setValue={setValue} disabled={disabled} />
      {files[0] && (
        <div className="page-strip">
          <PageThumbnails
            state={state}
            selected={selected}
            disabled={disabled}
            size={80}
            label={byRanges ? 'Pages of the file (marked: taken)' : 'Pages of the file'}
          />
        </div>
      )}
    </div>
  );
}
