/**
 * JSON formatter: paste or open JSON, choose 2 spaces, 4 spaces or tabs (or minify) and sorted
 * keys, then Calculate. Errors give 'Invalid JSON format' with line, column, reason and
 * the spot marked; small input is checked as you type. Big input (over 256 KB) is formatted in a
 * worker, so a 20 MB file never freezes the tab; files over 1 MB are not put in the text box and
 * results over 1 MB are previewed (Copy and Download give the whole). Logic: src/utilities/json.ts.
 */
import { useEffect, useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import type { UtilityFormProps } from './registry.ts';
import {
  DEFAULT_JSON_OPTIONS,
  INPUT_REQUIRED,
  describeJsonError,
  formatJson,
  type JsonErrorInfo,
  type JsonFormatOptions,
  type JsonStats,
} from '../../utilities/json.ts';
import { FormatCancelled, MAIN_THREAD_LIMIT, formatAnywhere } from '../../utilities/json-client.ts';
import { CalculateButton, CopyButton, ErrorLine, downloadText, formatCount, useCopy } from './utility/kit.tsx';
import { formatBytes } from '../../../shared/format.ts';

/** Files above this stay out of the text box (a 20 MB textarea is slow to edit). */
const TEXTAREA_FILE_LIMIT = 1024 * 1024;
/** Results above this are previewed, not shown whole. */
const PREVIEW_LIMIT = 1024 * 1024;

type Mode = 'format' | 'minify';

export default function JsonFormatterForm(_props: UtilityFormProps) {
  const id = useId();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<Mode>('format');
  const [indent, setIndent] = useState<JsonFormatOptions['indent']>(DEFAULT_JSON_OPTIONS.indent);
  const [sortKeys, setSortKeys] = useState(false);
  const [result, setResult] = useState<{
    output: string;
    bytes: number;
    stats: JsonStats;
    options: JsonFormatOptions;
  } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [errorInfo, setErrorInfo] = useState<JsonErrorInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [live, setLive] = useState<{ valid: boolean; message: string } | null>(null);
  const abort = useRef<AbortController | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const copyState = useCopy();

  const options: JsonFormatOptions = { indent, minify: mode === 'minify', sortKeys };

  // As-you-type check for small input (after a short pause); big input is checked on Calculate.
  useEffect(() => {
    if (file || text.trim() === '' || text.length > MAIN_THREAD_LIMIT) {
      setLive(null);
      return;
    }
    const timer = setTimeout(() => {
      const check = formatJson(text, { indent: '2', minify: true, sortKeys: false });
      setLive(
        check.ok
          ? { valid: true, message: 'Valid JSON' }
          : {
              valid: false,
              message: check.error
                ? `Line ${check.error.line}, column ${check.error.column}: ${check.error.reason}`
                : '',
            },
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [text, file]);

  useEffect(() => () => abort.current?.abort(), []);

  async function run(runOptions: JsonFormatOptions) {
    const input: string | File = file ?? text;
    if (!file && text.trim() === '') {
      setError(INPUT_REQUIRED);
      setErrorInfo(null);
      setResult(null);
      return;
    }
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    setError(null);
    setErrorInfo(null);
    try {
      const outcome = await formatAnywhere(input, runOptions, controller.signal);
      if (outcome.ok) {
        setResult({
          output: outcome.output,
          bytes: outcome.bytes ?? new Blob([outcome.output]).size,
          stats: outcome.stats,
          options: runOptions,
        });
      } else if (outcome.error) {
        setResult(null);
        setError(describeJsonError(outcome.error));
        setErrorInfo(outcome.error);
      } else {
        setResult(null);
        setError(INPUT_REQUIRED);
      }
    } catch (cause) {
      if (!(cause instanceof FormatCancelled))
        setError(`Could not format: ${cause instanceof Error ? cause.message : String(cause)}`);
    } finally {
      if (abort.current === controller) {
        abort.current = null;
        setBusy(false);
      }
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void run(options);
  }

  async function load(chosen: File | undefined) {
    if (!chosen) return;
    setResult(null);
    setError(null);
    setErrorInfo(null);
    if (chosen.size > TEXTAREA_FILE_LIMIT) {
      setFile(chosen);
      setText('');
    } else {
      setFile(null);
      setText(await chosen.text());
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void load(event.dataTransfer.files[0]);
  }

  function clear() {
    abort.current?.abort();
    setText('');
    setFile(null);
    setResult(null);
    setError(null);
    setErrorInfo(null);
  }

  const output = result?.output ?? '';
  const preview = output.length > PREVIEW_LIMIT ? `${output.slice(0, PREVIEW_LIMIT)}\n…` : output;
  const filename = result?.options.minify ? 'minified.json' : 'formatted.json';

  return (
    <form className="u-form" onSubmit={onSubmit} noValidate>
      <div
        className="u-field"
        onDragOver={(e) => {
          if (e.dataTransfer.types.includes('Files')) {
            e.preventDefault();
            setDragging(true);
          }
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <label htmlFor={`${id}-input`}>JSON</label>
        {file ? (
          <div className="u-file-chip" data-testid="json-file">
            <span>
              {file.name} — {formatBytes(file.size)}, formatted in the background
            </span>
            <button type="button" onClick={clear}>
              Remove
            </button>
          </div>
        ) : (
          <textarea
            id={`${id}-input`}
            name="jsonInput"
            className={`u-code${dragging ? ' is-dragging' : ''}`}
            spellCheck={false}
            autoComplete="off"
            placeholder={'Paste JSON here, or drop a .json file…\n{"example": [1, 2, 3]}'}
            value={text}
            aria-invalid={live && !live.valid ? true : undefined}
            onChange={(e) => {
              setText(e.target.value);
              if (error) {
                setError(null);
                setErrorInfo(null);
              }
            }}
          />
        )}
        {live && !error && (
          <span className={`u-valid ${live.valid ? 'ok' : 'bad'}`} data-testid="json-live">
            {live.valid ? '✓ ' : '✗ '}
            {live.message}
          </span>
        )}
      </div>

      <div className="u-row">
        <div className="u-segmented" role="radiogroup" aria-label="Output">
          {(['format', 'minify'] as const).map((value) => (
            <label key={value}>
              <input
                type="radio"
                name={`${id}-mode`}
                value={value}
                checked={mode === value}
                onChange={() => setMode(value)}
              />
              {value === 'format' ? 'Format' : 'Minify'}
            </label>
          ))}
        </div>
        <div className="u-field">
          <select
            id={`${id}-indent`}
            value={indent}
            disabled={mode === 'minify'}
            onChange={(e) => setIndent(e.target.value as JsonFormatOptions['indent'])}
            aria-label="Indent"
          >
            <option value="2">2 spaces</option>
            <option value="4">4 spaces</option>
            <option value="tab">Tabs</option>
          </select>
        </div>
        <label className="u-check" style={{ minHeight: 42 }}>
          <input type="checkbox" checked={sortKeys} onChange={(e) => setSortKeys(e.target.checked)} />
          Sort keys
        </label>
      </div>

      <ErrorLine message={error} />
      {errorInfo && (
        <pre className="u-code-error" aria-label="Where the error is" data-testid="json-error-excerpt">
          {errorInfo.excerpt}
          {'\n'}
          {' '.repeat(errorInfo.caret)}
          <span className="u-caret">^</span>
        </pre>
      )}
      <div className="u-actions">
        <CalculateButton disabled={busy}>{busy ? 'Formatting…' : 'Format'}</CalculateButton>
        {busy && (
          <button type="button" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        )}
        <button type="button" onClick={() => fileInput.current?.click()} disabled={busy}>
          Open file
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json,text/plain"
          hidden
          aria-label="JSON file"
          onChange={(e) => {
            void load(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <span className="spacer" />
        <button type="button" onClick={clear} disabled={busy || (text === '' && !file)}>
          Clear
        </button>
      </div>
      {busy && <progress aria-label="Formatting" />}

      {result && (
        <section className="u-result" aria-label="Formatted JSON">
          <div className="u-actions">
            <span className="u-badge pass" data-testid="json-valid">
              ✓ Valid JSON
            </span>
            <span className="u-hint">
              {formatCount(result.stats.values)} values, depth {result.stats.depth}, {formatBytes(result.bytes)}
            </span>
          </div>
          <textarea
            className="u-code"
            readOnly
            value={preview}
            aria-label="Result"
            data-testid="json-output"
            rows={12}
          />
          {output.length > PREVIEW_LIMIT && (
            <p className="u-hint">
              Showing the first {formatBytes(PREVIEW_LIMIT)} of the result; Copy and Download give all of it.
            </p>
          )}
          <div className="u-actions">
            <CopyButton text={output} copyKey="default" label="Copy" state={copyState} />
            <button type="button" onClick={() => downloadText(output, filename)}>
              Download {filename}
            </button>
          </div>
        </section>
      )}
    </form>
  );
}
