import './offline-panel.css';
import { useEffect, useState } from 'react';
import { onEngineCacheMessage, toolOfflineProblem } from './offline-engines.ts';

/**
 * Shown at the top of a tool's window, before any file is picked, when the network is off and the
 * tool's engine is not on this device: "Merge PDF needs a one-time download of 1.8 MB — connect to
 * the internet once". Updates when the connection or the engine cache changes.
 */
export function OfflineNotice({ tool }: { tool: { id: string; name: string } }) {
  const [message, setMessage] = useState<string>();
  useEffect(() => {
    let current = true;
    const check = () => void toolOfflineProblem(tool).then((problem) => current && setMessage(problem));
    check();
    window.addEventListener('online', check);
    window.addEventListener('offline', check);
    const stop = onEngineCacheMessage((m) => m.type === 'engine-cache-finished' && check());
    return () => {
      current = false;
      stop();
      window.removeEventListener('online', check);
      window.removeEventListener('offline', check);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the tool is identified by id and name
  }, [tool.id, tool.name]);
  if (!message) return null;
  return (
    <p className="offline-notice" role="status">
      {message}
    </p>
  );
}
