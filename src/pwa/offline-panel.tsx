import './offline-panel.css';
import { useEffect, useRef, useState } from 'react';
import { cacheAllEngines, downloadedOcrLanguages, fetchEngineAssetList, type EngineAssetList } from './offline-engines.ts';
import type { OcrLanguage } from '../../workers/engine/lib/ocr-languages.ts';

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

type State =
  | { kind: 'idle' }
  | { kind: 'working'; done: number; total: number }
  | { kind: 'done'; persisted: boolean }
  | { kind: 'error'; message: string };

/**
 * "Make all tools available offline": the app itself is always cached after the first visit; the
 * tools' engines (WebAssembly codecs, qpdf, fonts, OCR data) are cached when first used, or all at
 * once here, with their total size shown first.
 */
export function OfflinePanel() {
  const [list, setList] = useState<EngineAssetList>();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [languages, setLanguages] = useState<OcrLanguage[]>([]);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => {
    fetchEngineAssetList().then(setList, () => setList(undefined));
    downloadedOcrLanguages().then(setLanguages, () => setLanguages([]));
    return () => abortRef.current?.abort();
  }, []);

  async function start() {
    if (!list) return;
    abortRef.current = new AbortController();
    setState({ kind: 'working', done: 0, total: list.totalBytes });
    try {
      const { persisted } = await cacheAllEngines(list, (done, total) => setState({ kind: 'working', done, total }), abortRef.current.signal);
      setState({ kind: 'done', persisted });
    } catch (error) {
      setState({ kind: 'error', message: abortRef.current.signal.aborted ? 'Stopped.' : (error as Error).message });
    }
  }

  return (
    <section className="offline-panel card" aria-labelledby="offline-title">
      <h2 id="offline-title">Use Folio offline</h2>
      <p>
        Once you have opened Folio, its pages work without a connection. Each tool&apos;s engine is saved the first time you
        use it; to have every tool ready before you go offline, download them all now
        {list ? <> ({megabytes(list.totalBytes)})</> : null}. Nothing but Folio&apos;s own code is stored.
      </p>
      <p className="offline-ocr-languages">
        Text recognition (OCR) reads English; other languages are downloaded from Folio the first time you choose them, then work
        offline too.{' '}
        {languages.length > 0 ? <>Also on this device: {languages.map((l) => l.name).join(', ')}.</> : 'No other language is on this device yet.'}
      </p>
      {state.kind === 'working' ? (
        <div className="offline-progress">
          <progress max={state.total} value={state.done} aria-label="Downloading tool engines" aria-valuetext={`${megabytes(state.done)} of ${megabytes(state.total)}`} />
          <span>{megabytes(state.done)} of {megabytes(state.total)}</span>
          <button type="button" className="button secondary" onClick={() => abortRef.current?.abort()}>Stop</button>
        </div>
      ) : (
        <button type="button" className="button primary" onClick={start} disabled={!list}>
          Make all tools available offline
        </button>
      )}
      <p role="status" className="offline-status">
        {state.kind === 'done' && `All tools are available offline.${state.persisted ? ' Your browser will keep them.' : ' Your browser may remove them if space runs low.'}`}
        {state.kind === 'error' && state.message}
      </p>
    </section>
  );
}
