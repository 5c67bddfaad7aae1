import './offline-panel.css';
import { useEffect, useState } from 'react';
import { onUpdateReady, reloadIntoUpdate } from './register.ts';

/** A small, dismissible notice shown when a new version of Folio has been downloaded. */
export function UpdatePrompt() {
  const [visible, setVisible] = useState(false);
  useEffect(() => onUpdateReady(() => setVisible(true)), []);
  if (!visible) return null;
  return (
    <div className="update-prompt" role="status">
      <span>A new version of Folio is ready.</span>
      <button type="button" onClick={reloadIntoUpdate}>
        Reload
      </button>
      <button type="button" onClick={() => setVisible(false)}>
        Later
      </button>
    </div>
  );
}
