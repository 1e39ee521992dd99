import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import zh from './zh/index.ts';
import en from './en/index.ts';
import type { Messages } from './types.ts';

export type Lang = 'zh' | 'en';
export const LANGUAGE_KEY = 'lx_language';

// en must mirror zh key for key
const enChecked: Messages<typeof zh> = en;

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

const lang = initialLanguage();
void i18n.use(initReactI18next).init({
  resources: { zh: { translation: zh }, en: { translation: enChecked } },
  lng: lang,
  fallbackLng: 'zh',
  interpolation: { escapeValue: false },
  returnNull: false,
});
dayjs.locale(lang === 'zh' ? 'zh-cn' : 'en');

export function setLanguage(next: Lang): void {
  localStorage.setItem(LANGUAGE_KEY, next);
  void i18n.changeLanguage(next);
  dayjs.locale(next === 'zh' ? 'zh-cn' : 'en');
  document.documentElement.lang = next === 'zh' ? 'zh-CN' : 'en';
}

export const currentLang = (): Lang => (i18n.language === 'en' ? 'en' : 'zh');
export default i18n;
