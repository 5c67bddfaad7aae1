import './offline-panel.css';
import { useCallback, useEffect, useState } from 'react';
import {
  fetchEngineAssetList,
  groupStates,
  onEngineCacheMessage,
  requestEngineGroup,
  savesData,
  type GroupState,
} from './offline-engines.ts';
import { GROUP_LABELS, type EngineAssetList, type EngineGroup } from './engine-files.ts';
import { formatBytes } from '../../shared/format.ts';
import { OCR_LANGUAGES } from '../../shared/ocr-languages.ts';
import { libreOfficeDownloadSize } from '../../shared/libreoffice-files.ts';

interface Live {
  done: number;
  total: number;
  finished: boolean;
  failed: number;
  /** Waiting while a tool works in an open window (src/sw.ts). */
  held: boolean;
}

function groupLabel(group: EngineGroup): string {
  if (group.startsWith('ocr-')) {
    const language = OCR_LANGUAGES.find((l) => `ocr-${l.code}` === group);
    return `Text recognition (OCR) in ${language?.name ?? group.slice(4)}`;
  }
  return GROUP_LABELS[group] ?? group;
}

/** Optional groups in the order shown: fonts, then OCR languages, then the big LibreOffice engine. */
function optionalGroups(list: EngineAssetList): EngineGroup[] {
  const groups = [...new Set(list.files.map((f) => f.group))].filter((g) => g !== 'core');
  const rank = (g: EngineGroup) => (g.endsWith('-fonts') ? 0 : g === 'libreoffice' ? 2 : 1);
  return groups.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * "Use Folio offline" (About page): the app itself is cached on the first visit, and every tool's
 * engine (the core set) right after, in the background, unless the browser asks to save data. Shows
 * what is on this device and its size, says when the background caching has finished, and offers the
 * optional downloads (CJK and emoji fonts, OCR languages, LibreOffice) with their sizes.
 */
export function OfflinePanel() {
  const [list, setList] = useState<EngineAssetList>();
  const [states, setStates] = useState<Map<EngineGroup, GroupState>>();
  const [live, setLive] = useState<Map<EngineGroup, Live>>(new Map());
  const [error, setError] = useState('');
  const [persisted, setPersisted] = useState<boolean>();

  const refresh = useCallback(async () => {
    try {
      const current = await fetchEngineAssetList();
      setList(current);
      setStates(await groupStates(current));
    } catch (e) {
      setError((e as Error).message);
    }
  }, []);

  useEffect(() => {
    void refresh();
    return onEngineCacheMessage((message) => {
      const finished = message.type === 'engine-cache-finished';
      setLive((old) =>
        new Map(old).set(message.group, {
          done: message.done,
          total: message.total,
          finished,
          failed: finished ? message.failed : 0,
          held: !finished && message.held === true,
        }),
      );
      if (finished) void refresh();
    });
  }, [refresh]);

  async function download(group: EngineGroup) {
    setError('');
    try {
      await requestEngineGroup(group);
      if (group === 'core') setPersisted((await navigator.storage?.persist?.()) ?? false);
    } catch (e) {
      setError((e as Error).message);
    }
  }

  const core = states?.get('core');
  const coreReady = core !== undefined && core.cachedBytes >= core.totalBytes;
  const coreLive = live.get('core');
  const coreRunning = coreLive !== undefined && !coreLive.finished;

  let status = '';
  if (coreReady) {
    status = `All tools are available offline: ${formatBytes(core.totalBytes)} saved on this device.`;
    if (persisted !== undefined)
      status += persisted ? ' Your browser will keep them.' : ' Your browser may remove them if space runs low.';
  } else if (coreRunning) {
    status =
      `Saving the tools for offline use in the background: ${formatBytes(coreLive.done)} of ` +
      `${formatBytes(coreLive.total)}${coreLive.held ? ', paused while a tool works' : ''}…`;
  } else if (coreLive?.finished && coreLive.failed > 0) {
    status =
      `${coreLive.failed} files could not be downloaded. Tools that need them will say so; try again when you are ` +
      `online.`;
  } else if (core && savesData()) {
    status =
      `Data saver is on, so Folio has not downloaded its tools. Download them now ` +
      `(${formatBytes(core.totalBytes - core.cachedBytes)})?`;
  } else if (core) {
    status = `${formatBytes(core.cachedBytes)} of ${formatBytes(core.totalBytes)} of the tools are on this device.`;
  }

  return (
    <section className="offline-panel card" aria-labelledby="offline-title">
      <h2 id="offline-title">Use Folio offline</h2>
      <p>
        Once you have opened Folio, its pages work without a connection, and right after your first visit your browser
        saves every tool in the background{list ? <> ({formatBytes(list.totalBytes)})</> : null} — unless it asks sites
        to save data; then it waits for you. Nothing but Folio&apos;s own code is stored.
      </p>
      {coreRunning && (
        <div className="offline-progress">
          <progress
            max={coreLive.total}
            value={coreLive.done}
            aria-label="Saving tools for offline use"
            aria-valuetext={`${formatBytes(coreLive.done)} of ${formatBytes(coreLive.total)}`}
          />
        </div>
      )}
      <p role="status" className="offline-status">
        {status}
      </p>
      <button type="button" className="button primary" onClick={() => void download('core')} disabled={!list}>
        Make all tools available offline
      </button>
      {list && (
        <>
          <h3>Optional downloads</h3>
          <p>Needed only for some documents; each is saved the first time it is used, or here.</p>
          <ul className="offline-optional">
            {optionalGroups(list).map((group) => {
              const state = states?.get(group);
              const progress = live.get(group);
              const onDevice = state !== undefined && state.cachedBytes >= state.totalBytes;
              // LibreOffice is named by its one figure (its two big files) everywhere, here too.
              const size = group === 'libreoffice' ? libreOfficeDownloadSize() : formatBytes(state?.totalBytes ?? 0);
              return (
                <li key={group}>
                  <span>
                    {groupLabel(group)} — {size}
                  </span>{' '}
                  {onDevice ? (
                    <strong>on this device</strong>
                  ) : progress && !progress.finished ? (
                    <span>
                      {formatBytes(progress.done)} of {formatBytes(progress.total)}…
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="button secondary"
                      aria-label={`Download ${groupLabel(group)}`}
                      onClick={() => void download(group)}
                    >
                      Download
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
