import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/router.tsx';
import { UpdatePrompt } from './pwa/update-prompt.tsx';
import { startServiceWorker } from './pwa/register.ts';
import { listenForLaunchedFiles } from './pwa/incoming-files.ts';
import { listenForInstallPrompt } from './pwa/install.ts';
import './styles/global.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
    <UpdatePrompt />
  </StrictMode>,
);

startServiceWorker();
listenForLaunchedFiles();
listenForInstallPrompt();
