/**
 * The file-tool frame: picker, drag-and-drop and paste, the file list (remove,
 * reorder by drag or buttons, sort by name), the options (the tool's own panel from
 * forms/<id>.tsx, else the generic form built from the catalogue), Process Files, real progress
 * (pages done, reported by the worker through the X-Folio-Job side channel), Cancel (terminates the
 * worker), the error line, the password prompt for encrypted inputs, the automatic download and the
 * result panel. The modal keys it by tool id, so changing tool resets everything.
 *
 * Stable selectors other tests rely on (keep them):
 *   - the file input:        `input[type=file]` (one per frame; multiple only for merge-pdf/jpg-to-pdf)
 *   - the picker's text:     'Click to select files' | '1 file selected' | 'N files selected'
 *   - the process button:    role=button, accessible name exactly 'Process Files'
 *   - the cancel button:     role=button, name 'Cancel' (only while working)
 *   - the error line:        role=alert (empty when there is no error; the API's message verbatim)
 *   - the error details:     a disclosure 'Details for a bug report' with a 'Copy details' button, after
 *                            an unexpected failure only
 *   - the progress:          <progress> (role=progressbar), `aria-valuetext` "Page 3 of 12"
 *   - the password prompt:   label 'PDF password' (input[name=inputPassword]), shown as soon as a picked PDF
 *                            needs its password (pdf-checks.ts), or on PasswordRequired; 'File password'
 *                            in the Office tools, on PasswordRequired
 *   - why the action waits:  `.process-reason` beside the button (e.g. 'Add a PDF to start')
 *   - the result panel:      role=status region with 'Download again' and 'Start over' buttons
 *   - the file list:         list 'Selected files'; items with 'Move up' / 'Move down' / 'Remove' buttons
 */
import {
  Suspense,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
} from 'react';
import type { FileToolEntry, OptionValue, OptionValues } from '../catalogue/types.ts';
import { defaultValues } from '../catalogue/index.ts';
import { ApiError, callTool, downloadBlob, prepareTool, type ApiResult } from '../api/client.ts';
import {
  SaveDeclined,
  askWhereToSave,
  estimateNeedsPageSizes,
  estimateOutputBytes,
  hasSavePicker,
  shouldAskWhereToSave,
  suggestedName,
  type SaveHandle,
} from '../api/save-target.ts';
import { fileToolPanel } from './forms/registry.ts';
import { forgetResults, rememberedResult } from './result-memo.ts';
import { OptionFields, PageCountContext, confirmFieldName, optionProblem } from './option-fields.tsx';
import { FileList } from './file-list.tsx';
import { formatBytes } from '../../shared/format.ts';
import { clearIncomingFiles, peekIncomingFiles } from '../pwa/incoming-files.ts';
import { HEAD_BYTES, refusalOf, sniffType } from './file-sniff.ts';
import { checkSettled, needsItsPassword, usePdfChecks } from './pdf-checks.ts';
import './file-tool.css';

/** The multipart field that carries the password of an encrypted input (mock-api/handlers.ts). */
const INPUT_PASSWORD_FIELD = 'inputPassword';
/** Tools that open Office files saved with a password (the engine says PasswordRequired; the frame asks). */
const OFFICE_PASSWORD_TOOLS: ReadonlySet<string> = new Set(['word-to-pdf', 'excel-to-pdf', 'ppt-to-pdf']);

type Phase =
  | { kind: 'idle' }
  | { kind: 'working'; done: number; total: number; status?: string }
  | { kind: 'done'; result: ApiResult; sizeBefore: number };

/** An unexpected failure's details, folded away, with a button that copies them for a bug report. */
function ErrorDetails({ detail }: { detail: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(detail).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <details className="error-details">
      <summary>Details for a bug report</summary>
      <pre>{detail}</pre>
      <button type="button" onClick={copy}>
        {copied ? 'Copied' : 'Copy details'}
      </button>
    </details>
  );
}

/** Whether a file matches the tool's accepted types (by extension, or by MIME type when it has none). */
export function isAccepted(tool: FileToolEntry, file: File): boolean {
  const name = file.name.toLowerCase();
  if (tool.accepts.extensions.some((ext) => name.endsWith(ext))) return true;
  return !/\.[a-z0-9]+$/.test(name) && tool.accepts.mimeTypes.includes(file.type);
}

/** The refusal of each file whose content the tool cannot take (by its first bytes), or null. */
async function contentRefusals(tool: FileToolEntry, files: readonly File[]): Promise<Array<string | null>> {
  return Promise.all(
    files.map(async (file) => {
      const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
      return refusalOf(tool, file.name, sniffType(head, file.size));
    }),
  );
}

/** "Add a PDF to start", "Add images to start" … from what the tool accepts. */
function addToStart(tool: FileToolEntry): string {
  const label = tool.accepts.label;
  if (label === 'PDF files') return tool.multiple ? 'Add PDF files to start' : 'Add a PDF to start';
  return `Add ${tool.multiple ? '' : 'a file: '}${label} to start`;
}

/** 'Invalid Password', with what Unlock PDF explains about the two passwords. */
export const WRONG_PASSWORD =
  'Invalid Password: this is not the password that opens the file. A PDF can have two — the one that opens it ' +
  '(user password) and a permissions (owner) password; either one works here.';

/** Tools whose point is the size: their result panel compares before and after (once). */
const SIZE_TOOLS: ReadonlySet<string> = new Set(['compress-pdf', 'image-compressor']);

/**
 * An engine note in plain words for the result panel, or null when it only repeats the size line.
 * Compress's technical list of images it left alone ("1 × decode array") becomes one sentence.
 */
export function plainNote(note: string, sizeLine: string): string | null {
  if (note.startsWith(sizeLine)) return null;
  const unchanged = /^Left unchanged: (.*)\.$/.exec(note);
  if (unchanged) {
    const count = [...unchanged[1].matchAll(/(\d+) ×/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    return (
      `${count} image${count === 1 ? ' was' : 's were'} kept as ${count === 1 ? 'it was' : 'they were'}: ` +
      'Folio cannot make them smaller without changing how they look.'
    );
  }
  return note;
}

/** How long the password field must be still before Folio tries the password on the file. */
const PASSWORD_SETTLE_MS = 500;

/** The outcome in plain words: the size line once (before → after only where size is the point), then the notes. */
function ResultFacts({ toolId, sizeBefore, result }: { toolId: string; sizeBefore: number; result: ApiResult }) {
  const after = result.blob.size;
  const sizeLine = `${formatBytes(sizeBefore)} → ${formatBytes(after)}`;
  const change = sizeBefore > 0 ? Math.round((1 - after / sizeBefore) * 100) : 0;
  const notes = result.notes.map((note) => plainNote(note, sizeLine)).filter((note): note is string => Boolean(note));
  return (
    <>
      <p className="result-size">
        {SIZE_TOOLS.has(toolId) ? `${sizeLine}${change > 0 ? ` (−${change}%)` : ''}` : `Size: ${formatBytes(after)}`}
      </p>
      {notes.length > 0 && (
        <ul className="result-notes">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </>
  );
}

export function FileToolForm({ tool, initialFiles }: { tool: FileToolEntry; initialFiles?: readonly File[] }) {
  // Files opened with Folio from the OS or shared to it arrive here once the user picks this tool on /open.
  const [files, setFilesState] = useState<File[]>(() => peekIncomingFiles().filter((file) => isAccepted(tool, file)));
  useEffect(() => clearIncomingFiles(), []);
  const [values, setValues] = useState<OptionValues>(() => defaultValues(tool));
  const [error, setError] = useState('');
  /** For an unexpected failure: what a bug report needs, offered under the error line. */
  const [errorDetail, setErrorDetail] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [askPassword, setAskPassword] = useState(false);
  const [inputPassword, setInputPassword] = useState('');
  const [dragging, setDragging] = useState(false);
  const controllerRef = useRef<AbortController | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const passwordId = useId();
  const reasonId = useId();
  const takesPdf = tool.accepts.extensions.includes('.pdf');
  // unlock-pdf asks for the password in its own panel; every other PDF tool asks in the frame, and so
  // do the Office tools once the engine finds the file saved with a password.
  const officePassword = OFFICE_PASSWORD_TOOLS.has(tool.id);
  const framePassword = (takesPdf && tool.id !== 'unlock-pdf') || officePassword;
  const passwordLabel = officePassword ? 'File password' : 'PDF password';
  const [triedPassword, setTriedPassword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setTriedPassword(inputPassword), PASSWORD_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [inputPassword]);
  const checks = usePdfChecks(files, framePassword ? triedPassword : '', takesPdf);
  const lockedChecks = [...checks.values()].filter((c) => c.state === 'locked');
  // A file the typed password has opened (or that failed otherwise once tried with it) still needs it for
  // the job: the prompt stays, and its value is sent.
  const needsPassword = framePassword && (askPassword || [...checks.values()].some(needsItsPassword));
  const pageCounts = useMemo(
    () =>
      new Map([...checks].flatMap(([file, check]) => (check.state === 'ready' ? [[file, check.pages] as const] : []))),
    [checks],
  );
  const firstCheck = files.length === 1 ? checks.get(files[0]) : undefined;
  const pageCount = firstCheck?.state === 'ready' ? firstCheck.pages : undefined;
  const wrongPassword = lockedChecks.some((c) => c.state === 'locked' && c.wrong) && triedPassword === inputPassword;
  const Panel = useMemo(() => fileToolPanel(tool.id), [tool.id]);
  const working = phase.kind === 'working';
  // Whether a large result is saved through the picker is decided on the click from the pages' sizes
  // (save-target.ts): until the file's check has them, the click waits, so the same job always decides
  // the same way. The check settles (ready, locked, damaged or timed out) within CHECK_TIMEOUT_MS.
  const waitForPageSizes =
    estimateNeedsPageSizes(tool, values) && hasSavePicker() && !checkSettled(firstCheck, inputPassword, triedPassword);

  // The result panel sits below the options: bring it into view when a job finishes.
  useEffect(() => {
    if (phase.kind === 'done') resultRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [phase.kind]);
  // So does the progress bar: on a phone the options fill the window, and the bar appeared out of
  // sight below them while only a disabled button showed that anything was happening. Before the
  // first paint, so the bar is never drawn out of view.
  const progressRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (phase.kind === 'working') progressRef.current?.scrollIntoView({ block: 'nearest' });
  }, [phase.kind]);

  // Process Files is disabled while a job runs and Cancel goes when it ends: either would drop the
  // keyboard focus to the page behind the dialog. It moves to Cancel, then back to Process Files.
  const processRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const wasWorking = useRef(false);
  useLayoutEffect(() => {
    if (wasWorking.current === working) return;
    wasWorking.current = working;
    const active = document.activeElement;
    const lost = !active || active === document.body;
    if (working && (lost || active === processRef.current)) cancelRef.current?.focus();
    else if (!working && (lost || active === cancelRef.current)) processRef.current?.focus();
  }, [working]);

  // A job still running when the modal closes is cancelled (and its worker terminated).
  useEffect(() => () => controllerRef.current?.abort(), []);

  // The window has opened: the client starts the in-page API (and warms up an engine with large
  // data, the Office tools' fonts) while the user picks files.
  useEffect(() => prepareTool(tool), [tool]);

  // Choosing the LibreOffice engine starts it at once (a download and seconds of start-up), so it
  // is ready by the time the user has picked a file.
  const chosenEngine = values.engine;
  useEffect(() => {
    if (tool.prepareOnOpen && chosenEngine === 'libreoffice') prepareTool(tool, { engine: 'libreoffice' });
  }, [tool, chosenEngine]);

  const setValue = useCallback(
    (name: string, value: OptionValue) => setValues((old) => ({ ...old, [name]: value })),
    [],
  );

  const setFiles = useCallback((next: File[]) => {
    setFilesState(next);
    // Removing the last file leaves nothing to process: say so rather than go quiet.
    setError(next.length === 0 ? 'Please select at least one file' : '');
    setPhase((old) => (old.kind === 'done' ? { kind: 'idle' } : old));
  }, []);

  /** Adds picked, dropped or pasted files: rejects other types by name; single-file tools replace. */
  const addFiles = useCallback(
    async (incoming: readonly File[]) => {
      if (incoming.length === 0) return;
      const rejected = incoming.filter((file) => !isAccepted(tool, file));
      const named = incoming.filter((file) => isAccepted(tool, file));
      // A file named right but holding something else is refused now, with what it really is.
      const refusals = await contentRefusals(tool, named);
      const accepted = named.filter((_, i) => !refusals[i]);
      const contentProblems = refusals.filter((r): r is string => Boolean(r));
      if (accepted.length > 0) {
        setFilesState((old) => (tool.multiple ? [...old, ...accepted] : [accepted[0]]));
        setPhase((old) => (old.kind === 'done' ? { kind: 'idle' } : old));
        setAskPassword(false);
        setInputPassword('');
      }
      if (rejected.length > 0 || contentProblems.length > 0) {
        const names = rejected.map((f) => `"${f.name}"`).join(', ');
        const byName =
          rejected.length === 0
            ? []
            : [
                `${names} ${rejected.length === 1 ? 'is not one of' : 'are not'} the accepted file types: ` +
                  `${tool.name} takes ${tool.accepts.label}.`,
              ];
        setError([...byName, ...contentProblems].join(' '));
      } else if (!tool.multiple && accepted.length > 1) {
        setError(`${tool.name} takes one file at a time: using "${accepted[0].name}".`);
      } else {
        setError('');
      }
    },
    [tool],
  );

  // Files dropped on the tool's page opened this window: they go through the same checks as a pick.
  const initialRef = useRef(initialFiles);
  useEffect(() => {
    const dropped = initialRef.current;
    initialRef.current = undefined;
    if (dropped?.length) void addFiles(dropped);
  }, [addFiles]);

  // Paste (Ctrl+V) files from the clipboard while the modal is open.
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const pasted = [...(event.clipboardData?.files ?? [])];
      if (pasted.length === 0 || working) return;
      event.preventDefault();
      void addFiles(pasted);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [addFiles, working]);

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (working) return;
    void addFiles([...event.dataTransfer.files]);
  }

  async function process() {
    if (files.length === 0) return setError('Please select at least one file');
    const confirmValues = Object.fromEntries(
      tool.options
        .filter((s) => s.kind === 'password' && s.confirm)
        .map((s) => [confirmFieldName(s), String(values[confirmFieldName(s)] ?? '')]),
    );
    if (waitForPageSizes) return; // the button says 'Checking the PDF…' (Enter in the password field gets here)
    // A file its check refused (a decompression bomb) is refused by the job's own check too: say so now.
    const refused = files.map((f) => checks.get(f)).find((c) => c?.state === 'refused');
    if (refused?.state === 'refused') return setError(refused.message);
    const invalid = tool.validate?.({ ...values, ...confirmValues }) ?? optionProblem(tool, values, pageCount);
    if (invalid) return setError(invalid);

    // Values a panel set that are not catalogue options travel as extra fields (e.g. confirmPassword).
    const optionNames = new Set(tool.options.map((s) => s.name));
    const extraFields: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...values, ...confirmValues })) {
      if (!optionNames.has(name) && value !== undefined) extraFields[name] = String(value);
    }
    if (needsPassword && inputPassword) extraFields[INPUT_PASSWORD_FIELD] = inputPassword;

    // The panel already made this result (compress-pdf's preview): no second run.
    const remembered = Object.keys(extraFields).length === 0 ? rememberedResult(tool.id, files, values) : undefined;
    if (remembered) {
      setError('');
      downloadBlob(remembered.blob, remembered.filename);
      setPhase({ kind: 'done', result: remembered, sizeBefore: files.reduce((sum, f) => sum + f.size, 0) });
      return;
    }

    // A large result goes straight into a file: the picker must open now, while the click counts
    // as a user gesture (save-target.ts).
    let saveTo: SaveHandle | undefined;
    const pageSizes = firstCheck?.state === 'ready' ? firstCheck.source.pages : undefined;
    const estimate = estimateOutputBytes(
      tool,
      files.map((f) => f.size),
      values,
      pageSizes,
    );
    if (shouldAskWhereToSave(estimate, hasSavePicker())) {
      try {
        saveTo = await askWhereToSave(suggestedName(tool, files[0]?.name));
      } catch (e) {
        if (e instanceof SaveDeclined) return setError(e.message);
        throw e;
      }
    }

    const controller = new AbortController();
    controllerRef.current = controller;
    setError('');
    setPhase({ kind: 'working', done: 0, total: 0 });
    try {
      const result = await callTool(tool, files, values, {
        signal: controller.signal,
        saveTo,
        extraFields,
        onProgress: (done, total, status) => {
          if (!controller.signal.aborted) setPhase({ kind: 'working', done, total, status });
        },
      });
      if (controller.signal.aborted) return;
      if (!result.saved) downloadBlob(result.blob, result.filename);
      setPhase({ kind: 'done', result, sizeBefore: files.reduce((sum, f) => sum + f.size, 0) });
      setAskPassword(false);
    } catch (e) {
      setPhase({ kind: 'idle' });
      if (controller.signal.aborted) {
        setError('Cancelled: nothing was changed.');
        return;
      }
      const apiError = e instanceof ApiError ? e : undefined;
      if (apiError?.code === 'PasswordRequired' || apiError?.code === 'InvalidPassword') {
        setAskPassword(true);
        // A wrong password reads 'Invalid Password'; the frame adds which password it means.
        const wrong = framePassword && !officePassword ? WRONG_PASSWORD : 'Invalid Password';
        setError(apiError.code === 'InvalidPassword' ? wrong : apiError.message);
        return;
      }
      setError(apiError?.message || (e instanceof Error && e.message) || 'Processing failed');
      setErrorDetail(apiError?.detail ?? '');
    } finally {
      if (controllerRef.current === controller) controllerRef.current = null;
    }
  }

  function cancel() {
    controllerRef.current?.abort();
  }

  function startOver() {
    forgetResults();
    setFilesState([]);
    setValues(defaultValues(tool));
    setError('');
    setPhase({ kind: 'idle' });
    setAskPassword(false);
    setInputPassword('');
    if (inputRef.current) inputRef.current.value = '';
  }

  const waitReason = working
    ? ''
    : files.length === 0
      ? addToStart(tool)
      : needsPassword && !inputPassword
        ? `Type the ${officePassword ? 'file' : 'PDF'} password first`
        : waitForPageSizes
          ? 'Checking the PDF…'
          : '';

  const pickerText =
    files.length === 0 ? 'Click to select files' : `${files.length} file${files.length === 1 ? '' : 's'} selected`;

  return (
    <div className="file-tool">
      <div
        className={`drop-zone${dragging ? ' dragging' : ''}${working ? ' disabled' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          if (!working) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <label className="picker-button">
          <span className="picker-text">{pickerText}</span>
          <input
            ref={inputRef}
            type="file"
            className="visually-hidden-input"
            multiple={tool.multiple}
            accept={[...tool.accepts.extensions, ...tool.accepts.mimeTypes].join(',')}
            disabled={working}
            onChange={(e) => {
              void addFiles([...(e.target.files ?? [])]);
              e.target.value = ''; // picking the same file again still fires change
            }}
          />
        </label>
        <p className="drop-hint">
          or drop {tool.multiple ? 'files' : 'a file'} here, or paste {tool.multiple ? 'them' : 'it'} ·{' '}
          {tool.accepts.label}
        </p>
      </div>

      {files.length > 0 && (
        <FileList files={files} setFiles={setFiles} multiple={tool.multiple} disabled={working} checks={checks} />
      )}

      <PageCountContext.Provider value={pageCount}>
        {Panel ? (
          <Suspense fallback={<p aria-busy="true">Loading options…</p>}>
            <Panel
              tool={tool}
              files={files}
              values={values}
              setValue={setValue}
              setFiles={setFiles}
              disabled={working}
              runTool={() => void process()}
              pageCounts={pageCounts}
              inputPassword={needsPassword ? triedPassword : undefined}
            />
          </Suspense>
        ) : (
          <OptionFields tool={tool} values={values} setValue={setValue} disabled={working} />
        )}
      </PageCountContext.Provider>

      {needsPassword && (
        <div className="password-prompt">
          <label htmlFor={passwordId}>{passwordLabel}</label>
          <input
            id={passwordId}
            name={INPUT_PASSWORD_FIELD}
            type="password"
            autoComplete="off"
            value={inputPassword}
            disabled={working}
            aria-invalid={wrongPassword || undefined}
            aria-describedby={`${passwordId}-help`}
            onChange={(e) => setInputPassword(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && inputPassword) void process();
            }}
          />
          <small id={`${passwordId}-help`}>
            {wrongPassword
              ? WRONG_PASSWORD
              : officePassword
                ? 'This file was saved with a password: type the password that opens it.'
                : 'This PDF is locked: type the password that opens the file.'}{' '}
            It is used on this device only and never sent anywhere.
          </small>
        </div>
      )}

      <p role="alert" className="error-line">
        {error}
      </p>
      {error && errorDetail && <ErrorDetails detail={errorDetail} />}

      {working && (
        <div className="progress-block" ref={progressRef}>
          {phase.total > 0 ? (
            <progress
              max={phase.total}
              value={phase.done}
              aria-label="Progress"
              aria-valuetext={phase.status ?? `Page ${phase.done} of ${phase.total}`}
            />
          ) : (
            <progress aria-label="Progress" aria-valuetext="Starting" />
          )}
          <span className="progress-text" aria-live="polite">
            {phase.status ?? (phase.total > 0 ? `Page ${phase.done} of ${phase.total}` : 'Reading files…')}
          </span>
        </div>
      )}

      {phase.kind === 'done' && (
        <div role="status" className="result-panel" ref={resultRef}>
          <p className="result-title">
            Done: <strong>{phase.result.filename}</strong> was {phase.result.saved ? 'saved' : 'downloaded'}.
          </p>
          <ResultFacts toolId={tool.id} sizeBefore={phase.sizeBefore} result={phase.result} />
          <div className="button-line">
            <button
              type="button"
              onClick={() => phase.kind === 'done' && downloadBlob(phase.result.blob, phase.result.filename)}
            >
              Download again
            </button>
            <button type="button" onClick={startOver}>
              Start over
            </button>
          </div>
        </div>
      )}

      <div className="button-line actions">
        {waitReason && (
          <p id={reasonId} className="process-reason">
            {waitReason}
          </p>
        )}
        <button
          ref={processRef}
          type="button"
          className="primary-action"
          disabled={working || waitReason !== ''}
          aria-describedby={waitReason ? reasonId : undefined}
          onClick={() => void process()}
        >
          Process Files
        </button>
        {working && (
          <button ref={cancelRef} type="button" onClick={cancel}>
            Cancel
          </button>
        )}
      </div>
    </div>
  );
}
