/**
 * merge-pdf's options: which pages of each file (page-range language, empty = all), in the file
 * list's order, sent as the `ranges` JSON array; and the bookmark-per-file checkbox.
 */
import { useEffect, useState } from 'react';
import type { FileToolPanelProps } from './registry.ts';
import { OptionFields } from '../option-fields.tsx';
import { pageRangeSyntaxError } from '../../../workers/engine/lib/page-range.ts';

export default function MergePdfPanel({ tool, files, values, setValue, disabled }: FileToolPanelProps) {
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
          <legend>Pages to take from each file <small>(empty = all; e.g. 1-3, 5, 8-, last, odd, even)</small></legend>
          {files.map((file, index) => {
            const value = ranges.get(file) ?? '';
            const problem = pageRangeSyntaxError(value);
            const id = `merge-range-${index}`;
            return (
              <div key={`${file.name}-${index}`} className="option-field">
                <label htmlFor={id}>Pages of {file.name}</label>
                <input id={id} type="text" placeholder="all pages" value={value} disabled={disabled} aria-invalid={problem ? true : undefined}
                  onChange={(e) => setRanges((old) => new Map(old).set(file, e.target.value))} />
                {problem && <small className="option-problem">{problem}</small>}
              </div>
            );
          })}
        </fieldset>
      )}
      <OptionFields tool={tool} values={values} setValue={setValue} disabled={disabled} only={['bookmarkEachFile', 'removeScripts']} />
    </div>
  );
}
