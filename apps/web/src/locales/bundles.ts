/**
 * Which language to show and where each language's texts are, without i18next: the boot (app/main.tsx) starts the
 * texts' download together with the code, and the login page (login/) uses only its own area group.
 */
export type Lang = 'zh' | 'en';
export const LANGUAGE_KEY = 'lx_language';

/**
 * Spec §1: a stored language starting with 'zh' means Chinese, another stored value English; with nothing
 * stored, the browser language decides (zh* → Chinese), else English.
 */
export function detectLanguage(stored: string | null, browser: string | undefined): Lang {
  if (stored) return stored.toLowerCase().startsWith('zh') ? 'zh' : 'en';
  return browser?.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function initialLanguage(): Lang {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_KEY);
  } catch {
    /* storage blocked */
  }
  return detectLanguage(stored, typeof navigator === 'undefined' ? undefined : navigator.language);
}

// Each language is its own chunk: a page loads only the one it shows.
export const bundles: Record<Lang, () => Promise<{ default: object }>> = {
  zh: () => import('./zh/index.ts'),
  en: () => import('./en/index.ts'),
};

/** The login page's area group (auth, common, request): a few KB instead of every screen's texts. */
export const loginBundles = {
  zh: () => import('./zh/login.ts'),
  en: () => import('./en/login.ts'),
};
export type LoginTexts = Awaited<ReturnType<(typeof loginBundles)['zh']>>['default'];
