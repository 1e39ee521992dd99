import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setDisplayTimeZone } from '@lynx/contract';
import { ready } from '../locales/i18n.ts';
import './global.css';
import App from './App.tsx';

// dates show in the browser's zone, the same one its date pickers use
setDisplayTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone || 'Asia/Shanghai');

void ready.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
