import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { captureInviteCode } from './features/account/invite';
import { App } from './app/App';
import { i18nReady } from './i18n';
import { registerServiceWorker } from './app/serviceWorker';
import './app/tokens.css';
import './app/global.css';

// Spec section 4: an invite code in the launch URL is kept as the superior.
captureInviteCode(window.location.search);
// Installable: the service worker keeps the app shell for launches without the network.
registerServiceWorker();

const container = document.getElementById('root');
if (!container) throw new Error('missing #root element');

// The first render waits for the user's language (one chunk per language); the router has
// been fetching the first page meanwhile. Without the texts (a failed download) the app still
// starts rather than stay blank.
void i18nReady.finally(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
