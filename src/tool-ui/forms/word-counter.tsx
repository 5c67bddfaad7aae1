/**
 * Word counter: counts update as you type (deferred; very long text is debounced and counted in
 * a worker so typing stays smooth); Calculate counts at once. A .txt (or any text) file can be dropped on the text
 * box or opened with the button. Logic and definitions: src/utilities/words.ts.
 */
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, type DragEvent, type FormEvent } from 'react';
import type { UtilityFormProps } from './registry.ts';
import { analyzeText, formatDuration, type TextStats } from '../../utilities/words.ts';
import { WORDS_MAIN_THREAD_LIMIT, analyzeAnywhere } from '../../utilities/words-client.ts';
import { CalculateButton, ErrorLine, Stat, formatCount } from './utility/kit.tsx';

const EMPTY_STATS = analyzeText('');
/** Above this many characters, counting waits for a pause in typing. */
const LIVE_LIMIT = 100_000;
const MAX_FILE_BYTES = 20 * 1024 * 1024;

function looksLikeText(file: File): boolean {
  return (
    file.type.startsWith('text/') || /\.(txt|md|csv|log|json|html?|xml|srt|rtf)$/i.test(file.name) || file.type === ''
  );
}

export default function WordCounterForm(_props: UtilityFormProps) {
  const id = useId();
  const [text, setText] = useState('');
  const [counted, setCounted] = useState('');
  const [dragging, setDragging] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // Short text: counted on every keystroke (deferred). Long text: after 400 ms without typing.
  useEffect(() => {
    if (text.length <= LIVE_LIMIT) {
      setCounted(text);
      return;
    }
    const timer = setTimeout(() => setCounted(text), 400);
    return () => clearTimeout(timer);
  }, [text]);
  const deferred = useDeferredValue(counted);
  // Short text is counted during render; long text in a worker (the latest request wins).
  const small = deferred.length <= WORDS_MAIN_THREAD_LIMIT;
  const smallStats = useMemo(() => (small ? analyzeText(deferred) : null), [deferred, small]);
  const [bigStats, setBigStats] = useState<{ text: string; stats: TextStats } | null>(null);
  useEffect(() => {
    if (small) return;
    let current = true;
    void analyzeAnywhere(deferred).then((result) => {
      if (current) setBigStats({ text: deferred, stats: result });
    });
    return () => {
      current = false;
    };
  }, [deferred, small]);
  const stats = smallStats ?? bigStats?.stats ?? EMPTY_STATS;
  const counting = deferred !== text || (!small && bigStats?.text !== deferred);

  async function load(file: File | undefined) {
    if (!file) return;
    if (!looksLikeText(file)) {
      setError(`${file.name} is not a text file — drop a .txt file`);
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      setError(`${file.name} is larger than 20 MB — too much to count comfortably in a text box`);
      return;
    }
    setError(null);
    setFileName(file.name);
    setText(await file.text());
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void load(event.dataTransfer.files[0]);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setCounted(text);
    setError(text.trim() === '' ? 'Type, paste or drop some text to count' : null);
  }

  return (
    <form className="u-form" onSubmit={onSubmit} noValidate>
      <div className="u-field">
        <label htmlFor={`${id}-text`}>Text</label>
        <textarea
          id={`${id}-text`}
          name="text"
          className={`u-textarea${dragging ? ' is-dragging' : ''}`}
          placeholder="Type or paste text here, or drop a .txt file…"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setFileName(null);
            if (error) setError(null);
          }}
          onDragOver={(e) => {
            if (e.dataTransfer.types.includes('Files')) {
              e.preventDefault();
              setDragging(true);
            }
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          spellCheck={false}
        />
        {fileName && <p className="u-hint">Loaded from {fileName}.</p>}
      </div>
      <ErrorLine message={error} />
      <div className="u-actions">
        <CalculateButton>Count</CalculateButton>
        <button type="button" onClick={() => fileInput.current?.click()}>
          Open .txt file
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".txt,.md,.csv,.log,text/plain"
          hidden
          aria-label="Text file"
          onChange={(e) => {
            void load(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <span className="spacer" />
        <button
          type="button"
          onClick={() => {
            setText('');
            setFileName(null);
            setError(null);
          }}
          disabled={text === ''}
        >
          Clear
        </button>
      </div>

      <section className="u-result" aria-label="Counts" aria-busy={counting}>
        {counting && !small && (
          <p className="u-hint" role="status">
            Counting…
          </p>
        )}
        <div className="u-stats" data-testid="word-stats">
          <Stat label="Words" value={formatCount(stats.words)} />
          <Stat label="Characters" value={formatCount(stats.characters)} />
          <Stat
            label="Without spaces"
            value={formatCount(stats.charactersNoSpaces)}
            hint="Characters, leaving out spaces, tabs and line breaks"
          />
          <Stat label="Lines" value={formatCount(stats.lines)} />
          <Stat label="Spaces" value={formatCount(stats.spaces)} hint="Spaces and tabs (line breaks not included)" />
          <Stat label="Sentences" value={formatCount(stats.sentences)} />
          <Stat label="Paragraphs" value={formatCount(stats.paragraphs)} />
          <Stat
            label="Reading time"
            value={formatDuration(stats.readingSeconds)}
            hint="At 230 words a minute (400 characters a minute for Chinese and Japanese)"
          />
        </div>
        {stats.keywords.length > 0 && (
          <div className="u-field">
            <span className="u-label">Top keywords</span>
            <ul className="u-keywords" data-testid="keywords">
              {stats.keywords.map((k) => (
                <li key={k.word}>
                  {k.word} <span>{k.count}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        <p className="u-hint">
          Words are found with your browser's Unicode rules, so Chinese and Japanese are split into words and
          punctuation is never a word.
        </p>
      </section>
    </form>
  );
}
