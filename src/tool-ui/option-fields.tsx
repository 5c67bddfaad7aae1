/**
 * The generic options form, built from a tool's catalogue option specs (select, number, text,
 * password (+ confirm), checkbox, pages, color; `showWhen` hides options that do not apply).
 * Exported so that a tool's own panel (forms/<id>.tsx) can render its plain options with it and
 * add its own widgets (thumbnails, previews) around them.
 */
import { createContext, useContext, useId } from 'react';
import type { FileToolEntry, OptionSpec, OptionValue, OptionValues } from '../catalogue/types.ts';
import { pageRangeSyntaxError, parsePageGroups, parsePageRanges } from '../../shared/page-range.ts';

/**
 * The page count of the file a page-range field applies to, once the file has been opened
 * (file-tool-form.tsx provides it): ranges are then checked against the real document as the user
 * types, and the pages they take are shown.
 */
export const PageCountContext = createContext<number | undefined>(undefined);

/** Split's ranges make one file per comma-separated part; every other page field picks pages. */
const isGroupField = (spec: OptionSpec) => spec.name === 'ranges';

/** "1–3, 5, 9–12" from page numbers (in the order given, runs joined). */
export function describePages(pages: readonly number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < pages.length;) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j] + 1) j += 1;
    runs.push(j > i ? `${pages[i]}–${pages[j]}` : String(pages[i]));
    i = j + 1;
  }
  return runs.join(', ');
}

/** The problem of a range text for a document of `pageCount` pages (syntax only when unknown). */
function rangeCheck(
  spec: OptionSpec,
  text: string,
  pageCount: number | undefined,
): { problem: string | null; taken?: string } {
  const syntax = pageRangeSyntaxError(text);
  if (syntax || pageCount === undefined) return { problem: syntax };
  try {
    if (isGroupField(spec)) {
      if (text.trim() === '') return { problem: null };
      const groups = parsePageGroups(text, pageCount);
      return {
        problem: null,
        taken: `${groups.length} file${groups.length === 1 ? '' : 's'}: ${groups.map(describePages).join(' · ')}`,
      };
    }
    const pages = parsePageRanges(text, pageCount);
    const label = text.trim() === '' ? 'All' : `${pages.length} of ${pageCount}`;
    return { problem: null, taken: `${label} pages: ${describePages(pages)}` };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** The form field name of a password's confirmation, sent as e.g. `confirmPassword`. */
export function confirmFieldName(spec: OptionSpec): string {
  return `confirm${spec.name[0].toUpperCase()}${spec.name.slice(1)}`;
}

export function isOptionVisible(spec: OptionSpec, values: OptionValues): boolean {
  if (!spec.showWhen) return true;
  return spec.showWhen.equals.includes(String(values[spec.showWhen.option] ?? ''));
}

export interface OptionFieldsProps {
  tool: FileToolEntry;
  values: OptionValues;
  setValue: (name: string, value: OptionValue) => void;
  disabled: boolean;
  /** Only these options (by name); all by default. */
  only?: readonly string[];
}

export function OptionFields({ tool, values, setValue, disabled, only }: OptionFieldsProps) {
  const specs = tool.options.filter((spec) => (!only || only.includes(spec.name)) && isOptionVisible(spec, values));
  if (specs.length === 0) return null;
  return (
    <div className="option-fields">
      {specs.map((spec) => (
        <OptionField key={spec.name} spec={spec} values={values} setValue={setValue} disabled={disabled} />
      ))}
    </div>
  );
}

function OptionField({
  spec,
  values,
  setValue,
  disabled,
}: {
  spec: OptionSpec;
  values: OptionValues;
  setValue: OptionFieldsProps['setValue'];
  disabled: boolean;
}) {
  const id = useId();
  const helpId = `${id}-help`;
  const value = values[spec.name] ?? spec.default;
  const pageCount = useContext(PageCountContext);
  const help = spec.help ? (
    <small id={helpId} className="option-help">
      {spec.help}
    </small>
  ) : null;
  const describedBy = spec.help ? helpId : undefined;
  switch (spec.kind) {
    case 'select':
      return (
        <div className="option-field">
          <label htmlFor={id}>{spec.label}</label>
          <select
            id={id}
            name={spec.name}
            value={String(value)}
            disabled={disabled}
            aria-describedby={describedBy}
            onChange={(e) => setValue(spec.name, e.target.value)}
          >
            {spec.choices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
          {help}
        </div>
      );
    case 'number':
      return (
        <div className="option-field">
          <label htmlFor={id}>
            {spec.label}
            {spec.unit ? ` (${spec.unit})` : ''}
          </label>
          <input
            id={id}
            name={spec.name}
            type="number"
            min={spec.min}
            max={spec.max}
            step={spec.step}
            value={String(value)}
            disabled={disabled}
            aria-describedby={describedBy}
            onChange={(e) => setValue(spec.name, e.target.value === '' ? '' : Number(e.target.value))}
          />
          {help}
        </div>
      );
    case 'checkbox':
      return (
        <div className="option-field option-checkbox">
          <label>
            <input
              name={spec.name}
              type="checkbox"
              checked={value === true}
              disabled={disabled}
              aria-describedby={describedBy}
              onChange={(e) => setValue(spec.name, e.target.checked)}
            />{' '}
            {spec.label}
          </label>
          {help}
        </div>
      );
    case 'password': {
      const confirmName = confirmFieldName(spec);
      return (
        <div className="option-field">
          <label htmlFor={id}>{spec.label}</label>
          <input
            id={id}
            name={spec.name}
            type="password"
            autoComplete={spec.autocomplete}
            value={String(value)}
            disabled={disabled}
            aria-describedby={describedBy}
            onChange={(e) => setValue(spec.name, e.target.value)}
          />
          {spec.confirm && (
            <>
              <label htmlFor={`${id}-confirm`}>Confirm {spec.label.toLowerCase()}</label>
              <input
                id={`${id}-confirm`}
                name={confirmName}
                type="password"
                autoComplete={spec.autocomplete}
                value={String(values[confirmName] ?? '')}
                disabled={disabled}
                onChange={(e) => setValue(confirmName, e.target.value)}
              />
            </>
          )}
          {help}
        </div>
      );
    }
    case 'pages': {
      const { problem, taken } = rangeCheck(spec, String(value), pageCount);
      return (
        <div className="option-field">
          <label htmlFor={id}>{spec.label}</label>
          <input
            id={id}
            name={spec.name}
            type="text"
            inputMode="text"
            placeholder={spec.placeholder ?? 'e.g. 1-3, 5, 8-, last, odd, even'}
            value={String(value)}
            disabled={disabled}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${helpId} ${id}-problem`}
            onChange={(e) => setValue(spec.name, e.target.value)}
          />
          {problem && (
            <small id={`${id}-problem`} className="option-problem">
              {problem}
            </small>
          )}
          {!problem && taken && (
            <small className="option-taken" aria-live="polite">
              {taken}
            </small>
          )}
          {help}
        </div>
      );
    }
    case 'color':
      return (
        <div className="option-field">
          <label htmlFor={id}>{spec.label}</label>
          <input
            id={id}
            name={spec.name}
            type="color"
            value={String(value)}
            disabled={disabled}
            aria-describedby={describedBy}
            onChange={(e) => setValue(spec.name, e.target.value)}
          />
          {help}
        </div>
      );
    default:
      return (
        <div className="option-field">
          <label htmlFor={id}>{spec.label}</label>
          <input
            id={id}
            name={spec.name}
            type="text"
            placeholder={spec.placeholder}
            maxLength={spec.maxLength}
            value={String(value)}
            disabled={disabled}
            aria-describedby={describedBy}
            onChange={(e) => setValue(spec.name, e.target.value)}
          />
          {help}
        </div>
      );
  }
}

/** The first inline problem of the visible page-range options (against `pageCount` when known), or null. */
export function optionProblem(tool: FileToolEntry, values: OptionValues, pageCount?: number): string | null {
  for (const spec of tool.options) {
    if (spec.kind !== 'pages' || !isOptionVisible(spec, values)) continue;
    const { problem } = rangeCheck(spec, String(values[spec.name] ?? ''), pageCount);
    if (problem) return `${spec.label}: ${problem}`;
  }
  return null;
}
