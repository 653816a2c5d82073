import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { captureInviteCode } from './account/invite';
import { App } from './app/App';
import './app/global.css';

// Spec section 4: an invite code in the launch URL is kept as the superior.
captureInviteCode(window.location.search);

const container = document.getElementById('root');
if (!container) throw new Error('missing #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
