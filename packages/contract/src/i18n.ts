export type Lang = 'zh' | 'en';
export const LANGS: readonly Lang[] = ['zh', 'en'];

/** A text users see, in both languages. */
export interface Bilingual {
  zh: string;
  en: string;
}

/** Picks the language from a `lang` query value: anything starting with zh is Chinese, else English. */
export function parseLang(value: unknown): Lang {
  return typeof value === 'string' && value.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/**
 * A catalogue name an operator typed, with the English name it may also have: an English reader gets the English
 * one where there is one, everyone else the name as typed.
 */
export function nameIn(lang: Lang, name: string, nameEn: string | null | undefined): string {
  return lang === 'en' && nameEn?.trim() ? nameEn : name;
}

/** Replaces `{name}` placeholders with params. */
export function interpolate(text: string, params?: Record<string, string | number>): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
