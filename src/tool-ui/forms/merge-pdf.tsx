/**
 * merge-pdf's options: which pages of each file (page-range language, empty = all), in the file
 * list's order, sent as the `ranges` JSON array; and the bookmark-per-file checkbox.
 */
import { useEffect, useState } from 'react';
import type { FileToolPanelProps } from './registry.ts';
import { OptionFields } from '../option-fields.tsx';
import { describePages } from '../option-fields.tsx';
import { pageRangeSyntaxError, parsePageRanges } from '../../../shared/page-range.ts';

/** The problem of a file's range text (against its page count once known), or what it takes. */
function checkRange(text: string, pageCount: number | undefined): { problem: string | null; taken?: string } {
  const syntax = pageRangeSyntaxError(text);
  if (syntax || pageCount === undefined || text.trim() === '') return { problem: syntax };
  try {
    const pages = parsePageRanges(text, pageCount);
    return { problem: null, taken: `${pages.length} of ${pageCount} pages: ${describePages(pages)}` };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

export default function MergePdfPanel({ tool, files, values, setValue, disabled, pageCounts }: FileToolPanelProps) {
  // Ranges follow their file when the list is reordered, so they are keyed by the File itself.
  const [ranges, setRanges] = useState(() => new Map<File, string>());

  useEffect(() => {
    const list = files.map((file) => ranges.get(file) ?? '');
    setValue('ranges', list.some((r) => r.trim() !== '') ? JSON.stringify(list) : '');
  }, [files, ranges, setValue]);

  return (
    <div className="option-fields">
      {files.length > 0 && (
        <fieldset className="merge-ranges">
          <legend>
            Pages to take from each file <small>(empty = all; e.g. 1-3, 5, 8-, last, odd, even)</small>
          </legend>
          {files.map((file, index) => {
            const value = ranges.get(file) ?? '';
            const { problem, taken } = checkRange(value, pageCounts?.get(file));
            const id = `merge-range-${index}`;
            return (
              <div key={`${file.name}-${index}`} className="option-field">
                <label htmlFor={id}>Pages of {file.name}</label>
                <input
                  id={id}
                  type="text"
                  placeholder="all pages"
                  value={value}
                  disabled={disabled}
                  aria-invalid={problem ? true : undefined}
                  onChange={(e) => setRanges((old) => new Map(old).set(file, e.target.value))}
                />
                {problem && <small className="option-problem">{problem}</small>}
                {!problem && taken && <small className="option-taken">{taken}</small>}
              </div>
            );
          })}
        </fieldset>
      )}
      <OptionFields
        tool={tool}
        values={values}
        setValue={setValue}
        disabled={disabled}
        only={['bookmarkEachFile', 'removeScripts']}
      />
    </div>
  );
}
