import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/app.js';
import { LocaleProvider } from './i18n/locale-provider.js';
import './styles.css';

// Pasting a new launch link into an open tab changes only the fragment, which loads nothing:
// load the page again so the new link is used.
window.addEventListener('hashchange', () => {
  if (/(?:^#|&)(?:secret|code)=/.test(location.hash)) location.reload();
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LocaleProvider>
      <App />
    </LocaleProvider>
  </StrictMode>,
);
