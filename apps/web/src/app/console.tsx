import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ready } from '../locales/i18n.ts';
import { useSession } from '../stores/session.ts';
import { useTabs } from '../stores/tabs.ts';
import { withFeedback } from '../request/feedback.ts';
import { LiveText } from '../request/LiveText.tsx';
import type { SignInData } from '../login/api.ts';
import './global.css';
import App, { queryClient } from './App.tsx';
import { router } from './router.tsx';
import { prefetchRoute } from '../routes/prefetch.ts';
import { learnBusinessZone } from './businessZone.ts';


// the page a URL shows starts loading (its chunk, its first request) as soon as the URL is known: now for a deep
// link, at the click for a menu item, before the shell renders it
prefetchRoute(queryClient, window.location);
router.subscribe((state) => prefetchRoute(queryClient, state.location));

/**
 * Starts the console (antd, router, request layer) once its language's texts are in. After the light login page
 * (login/boot.tsx) it takes over the session that page signed in: `beforeRender` removes that page in the same task
 * the console renders in, so nothing blank shows between them.
 */
export async function startConsole(opts: { signedIn?: SignInData; beforeRender?: () => void } = {}): Promise<void> {
  // times show in the product's business zone, which the server names in its public settings (the side menu's logo
  // call, answered once for both)
  await Promise.all([ready, learnBusinessZone(queryClient)]);
  const data = opts.signedIn;
  if (data) {
    useTabs.getState().clear();
    useSession.getState().signIn(data);
    withFeedback((api) => api.message.success(<LiveText k="auth.loginSuccess" />));
    // the forced password change is on /login (pages/login/index.tsx shows it while the session says so)
    if (!data.mustResetPassword) await router.navigate('/', { replace: true });
  }
  opts.beforeRender?.();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
