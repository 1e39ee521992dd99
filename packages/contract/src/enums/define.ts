import type { Lang } from '../i18n.ts';

export interface EnumEntry<V extends number = number> {
  value: V;
  zh: string;
  en: string;
}

type Consts<T extends Record<string, EnumEntry>> = { readonly [K in keyof T]: T[K]['value'] };

export interface EnumHelpers<V extends number> {
  readonly values: readonly V[];
  label(value: number | null | undefined, lang: Lang): string;
  options(lang: Lang): { value: V; label: string }[];
  has(value: unknown): value is V;
}

/** Declares an enum once: named constants plus zh/en labels, used on both sides of the wire. */
export function defineEnum<const T extends Record<string, EnumEntry>>(def: T): Consts<T> & EnumHelpers<T[keyof T]['value']> {
  type V = T[keyof T]['value'];
  const entries = Object.values(def) as EnumEntry<V>[];
  const byValue = new Map<number, EnumEntry<V>>(entries.map((e) => [e.value, e]));
  const consts = Object.fromEntries(Object.entries(def).map(([k, v]) => [k, v.value]));
  const helpers: EnumHelpers<V> = {
    values: entries.map((e) => e.value),
    label: (value, lang) => (value == null ? '-' : (byValue.get(value)?.[lang] ?? String(value))),
    options: (lang) => entries.map((e) => ({ value: e.value, label: e[lang] })),
    has: (value): value is V => typeof value === 'number' && byValue.has(value),
  };
  return Object.assign(consts, helpers) as Consts<T> & EnumHelpers<V>;
}
