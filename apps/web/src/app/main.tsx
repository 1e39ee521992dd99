import './base.css';
import { storedSignedIn } from '../stores/keys.ts';
import { bundles, initialLanguage, loginBundles } from '../locales/bundles.ts';
import { preloadFor } from '../routes/hot.ts';

/**
 * The boot: small on purpose, so index.html preloads nothing heavy. /login without a session gets the light login
 * page (login/boot.tsx: React, plain CSS and the login texts, no antd); every other URL gets the console, its
 * language's texts and, when the URL says which, the shell's and the page's chunks, all started at once.
 */
const lang = initialLanguage();
const { pathname } = window.location;
if (pathname === '/login' && !storedSignedIn()) {
  const texts = loginBundles[lang]();
  void import('../login/boot.tsx').then((m) => m.startLogin(lang, texts));
} else {
  void bundles[lang]();
  preloadFor(pathname);
  void import('./console.tsx').then((m) => m.startConsole());
}
