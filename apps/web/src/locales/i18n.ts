import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
// page titles in both languages are always here: the header search matches Chinese and English titles
import zhMenu from './zh/menu.ts';
import enMenu from './en/menu.ts';
import { bundles, initialLanguage, LANGUAGE_KEY, type Lang } from './bundles.ts';

export { detectLanguage, initialLanguage, LANGUAGE_KEY, type Lang } from './bundles.ts';

// Long texts of a few screens (guides, FAQ) load with those screens.
const areas: Record<string, Record<Lang, () => Promise<{ default: object }>>> = {
  doc: { zh: () => import('./zh/doc.ts'), en: () => import('./en/doc.ts') },
};

export async function ensureLanguage(lang: Lang): Promise<void> {
  if (i18n.getResource(lang, 'translation', 'common')) return;
  const m = await bundles[lang]();
  i18n.addResourceBundle(lang, 'translation', m.default, true, true);
}

const lang = initialLanguage();
void i18n.use(initReactI18next).init({
  resources: { zh: { translation: { menu: zhMenu } }, en: { translation: { menu: enMenu } } },
  lng: lang,
  fallbackLng: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { bindI18nStore: 'added' },
});
dayjs.locale(lang === 'zh' ? 'zh-cn' : 'en');

/** Loads the initial language; the app renders after it. */
export const ready: Promise<void> = ensureLanguage(lang);

export async function setLanguage(next: Lang): Promise<void> {
  localStorage.setItem(LANGUAGE_KEY, next);
  await ensureLanguage(next);
  await Promise.all(Object.keys(loadedAreas).map((a) => loadArea(a, next)));
  await i18n.changeLanguage(next);
  dayjs.locale(next === 'zh' ? 'zh-cn' : 'en');
  document.documentElement.lang = next === 'zh' ? 'zh-CN' : 'en';
}

const loadedAreas: Record<string, true> = {};
async function loadArea(area: string, lang: Lang) {
  if (i18n.exists(`${area}`, { lng: lang, returnObjects: true }) && i18n.getResource(lang, 'translation', area)) return;
  const m = await areas[area][lang]();
  i18n.addResourceBundle(lang, 'translation', { [area]: m.default }, true, true);
}

/** For screens whose texts load with them: renders after the area's texts are there, in both languages. */
export function useLocaleArea(area: keyof typeof areas): { ready: boolean } {
  const { i18n: inst } = useTranslation();
  const current = (inst.language === 'en' ? 'en' : 'zh') as Lang;
  const [loaded, setLoaded] = useState(() => !!inst.getResource(current, 'translation', area));
  useEffect(() => {
    let alive = true;
    loadedAreas[area] = true;
    void loadArea(area, current).then(() => alive && setLoaded(true));
    return () => {
      alive = false;
    };
  }, [area, current]);
  return { ready: loaded && !!inst.getResource(current, 'translation', area) };
}

export const currentLang = (): Lang => (i18n.language === 'en' ? 'en' : 'zh');
export default i18n;
