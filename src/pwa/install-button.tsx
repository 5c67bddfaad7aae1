import './offline-panel.css';
import { useEffect, useId, useState } from 'react';
import { installOffer, onInstallOfferChange, promptInstall, type InstallOffer } from './install.ts';

/**
 * "Install Folio": in the header on wide screens (`place="header"`), in the menu on phones
 * (`place="menu"`); CSS shows one or the other. Hidden when the browser offers no install and when
 * Folio already runs as an installed app.
 */
export function InstallButton({ place }: { place: 'header' | 'menu' }) {
  const [offer, setOffer] = useState<InstallOffer>(installOffer);
  const [showSteps, setShowSteps] = useState(false);
  const stepsId = useId();
  useEffect(() => {
    const update = () => setOffer(installOffer());
    update();
    const standalone = window.matchMedia?.('(display-mode: standalone)');
    standalone?.addEventListener('change', update);
    const stop = onInstallOfferChange(update);
    return () => {
      stop();
      standalone?.removeEventListener('change', update);
    };
  }, []);

  if (offer.kind === 'none') return null;
  if (offer.kind === 'prompt') {
    return (
      <button type="button" className={`install-button install-${place}`} onClick={() => void promptInstall()}>
        Install app
      </button>
    );
  }
  return (
    <span className={`install-how-to install-${place}`}>
      <button
        type="button"
        className="install-button"
        aria-expanded={showSteps}
        aria-controls={stepsId}
        onClick={() => setShowSteps((s) => !s)}
      >
        Install app
      </button>
      <span id={stepsId} className="install-steps" role="note" hidden={!showSteps}>
        {offer.steps}
      </span>
    </span>
  );
}
